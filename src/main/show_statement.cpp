#include "main/show_statement.hpp"

#include "catalog/system_tables.hpp"
#include "planner/binder/binder.hpp"
#include "vector/column.hpp"

namespace kestrel {

namespace {

using Rows = std::vector<std::vector<std::string>>;

/// Checks that a `catalog` or `catalog.x` qualifier names Kestrel's catalog.
void check_catalog(const std::string& catalog, const ast::QualifiedName& name) {
  if (catalog != catalog::kCatalogName) {
    throw BinderError("catalog '" + catalog + "' does not exist", name.position, "3D000");
  }
}

QueryResult show_tables(const SessionState& state, const ast::QualifiedName& from) {
  std::string schema = from.parts.empty() ? catalog::kUserSchema : from.name();
  if (from.parts.size() >= 2) check_catalog(from.parts[from.parts.size() - 2], from);
  Rows rows;
  if (catalog::is_user_schema(schema)) {
    for (const auto& name : state.catalog.table_names()) rows.push_back({name});
  } else if (catalog::is_system_schema(schema)) {
    for (const auto& name : catalog::system_table_names(schema)) rows.push_back({name});
  } else {
    throw BinderError("schema '" + from.to_string() + "' does not exist", from.position, "3F000");
  }
  return text_result({"Table"}, rows);
}

QueryResult show_schemas(const ast::QualifiedName& from) {
  if (!from.parts.empty()) check_catalog(from.name(), from);
  return text_result({"Schema"}, {{"information_schema"}, {"pg_catalog"}, {catalog::kUserSchema}});
}

/// The columns of the table, view or system table `name`.
std::vector<Field> columns_of(const SessionState& state, const ast::QualifiedName& name) {
  if (name.parts.size() >= 2) {
    const std::string& schema = name.parts[name.parts.size() - 2];
    if (catalog::is_system_schema(schema)) {
      if (auto table = catalog::build_system_table(state.catalog, schema, name.name(), nullptr)) {
        return table->schema()->fields();
      }
      throw BinderError("table '" + name.to_string() + "' does not exist", name.position, "42P01");
    }
  }
  if (auto table = state.catalog.find_table(name.name())) return table->schema()->fields();
  if (auto view = state.catalog.find_view(name.name())) return plan::Binder(state.catalog).view_fields(*view);
  throw BinderError("table '" + name.to_string() + "' does not exist", name.position, "42P01");
}

QueryResult show_columns(const SessionState& state, const ast::QualifiedName& table) {
  Rows rows;
  for (const auto& f : columns_of(state, table)) rows.push_back({f.name, catalog::trino_type_name(f.type), "", ""});
  return text_result({"Column", "Type", "Extra", "Comment"}, rows);
}

}  // namespace

QueryResult run_show(SessionState& state, const ast::ShowStatement& s) {
  switch (s.show) {
    case ast::ShowKind::kSetting: return text_result({s.name}, {{state.settings.get(s.name)}});
    case ast::ShowKind::kAll: return text_result({"name", "setting", "description"}, state.settings.all());
    case ast::ShowKind::kTables: return show_tables(state, s.from);
    case ast::ShowKind::kSchemas: return show_schemas(s.from);
    case ast::ShowKind::kCatalogs: return text_result({"Catalog"}, {{catalog::kCatalogName}});
    case ast::ShowKind::kColumns: return show_columns(state, s.from);
  }
  throw InternalError("unhandled SHOW kind");
}

QueryResult text_result(const std::vector<std::string>& names, const std::vector<std::vector<std::string>>& rows) {
  std::vector<Field> fields;
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < names.size(); ++c) {
    fields.push_back({names[c], TypeId::kVarchar});
    std::vector<Value> values;
    for (const auto& row : rows) values.push_back(Value::varchar(row[c]));
    columns.push_back(Column::from_values(TypeId::kVarchar, values));
  }
  QueryResult result;
  result.schema = std::make_shared<Schema>(fields);
  result.batches.push_back(Batch(result.schema, std::move(columns), rows.size(), gpu::MemoryKind::kHost));
  return result;
}

}  // namespace kestrel
