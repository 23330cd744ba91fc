// Names of system tables (information_schema, pg_catalog) in FROM, the columns of stored views they list, and the
// session functions clients call beside them (current_schema(), current_database(), current_catalog).

#include "catalog/system_tables.hpp"
#include "parser/parser.hpp"
#include "planner/binder/binder.hpp"
#include "planner/binder/expr_binder.hpp"

namespace kestrel::plan {

std::vector<Field> Binder::view_fields(const catalog::View& view) const {
  try {
    auto statement = parse_statement(view.sql);
    if (!statement->is<ast::QueryStatement>()) return {};
    Binder binder(catalog_);
    binder.listing_views_ = true;
    std::vector<Field> fields = binder.bind_query(*statement->as<ast::QueryStatement>().query)->output;
    for (size_t i = 0; i < view.column_names.size() && i < fields.size(); ++i) fields[i].name = view.column_names[i];
    return fields;
  } catch (const Error&) {
    return {};  // a view whose tables were dropped: listed, without columns
  }
}

catalog::TablePtr Binder::system_table(const ast::QualifiedName& name) const {
  catalog::ViewColumns view_columns;
  if (!listing_views_) view_columns = [this](const catalog::View& view) { return view_fields(view); };
  if (name.parts.size() == 1) {
    return catalog::build_system_table(catalog_, "pg_catalog", name.name(), view_columns, type_names_);
  }
  const std::string& schema = name.parts[name.parts.size() - 2];
  if (!catalog::is_system_schema(schema)) return nullptr;
  catalog::TablePtr table = catalog::build_system_table(catalog_, schema, name.name(), view_columns, type_names_);
  if (!table) throw BinderError("table '" + name.to_string() + "' does not exist", name.position, "42P01");
  return table;
}

std::optional<Value> ExprBinder::session_constant(const std::string& name) {
  if (name == "current_schema") return Value::varchar(catalog::kUserSchema);
  if (name == "current_database" || name == "current_catalog") return Value::varchar(catalog::kCatalogName);
  return std::nullopt;
}

}  // namespace kestrel::plan
