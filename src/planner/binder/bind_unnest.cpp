// UNNEST in FROM: alone, after a comma and in CROSS JOIN UNNEST, with ordinality and column aliases.

#include "planner/binder/expr_binder.hpp"

namespace kestrel::plan {

LogicalPtr Binder::bind_unnest(const ast::TableFunctionRef& ref, LogicalPtr input, const Scope& input_scope,
                               Scope& scope) {
  if (ref.args.empty()) throw BinderError("UNNEST needs at least one ARRAY or MAP", ref.position, "42883");
  if (!ref.named_args.empty()) {
    throw BinderError("UNNEST takes no named arguments", ref.named_args[0].position, "42601");
  }
  if (!input) {
    // Over the one empty row (UNNEST alone in FROM): its arguments are constants.
    auto values = std::make_shared<LogicalValues>();
    values->rows.emplace_back();
    input = values;
  }
  auto node = std::make_shared<LogicalUnnest>();
  node->ordinality = ref.ordinality;
  node->output = input->output;
  std::vector<Field> added;
  ExprBinder eb(*this);
  ExprBindContext ctx{&input_scope, "UNNEST", nullptr};
  for (const auto& arg : ref.args) {
    ExprPtr e = eb.bind(*arg, ctx);
    if (e->type.id() == TypeId::kArray) {
      added.push_back({"unnest", e->type.element_type()});
    } else if (e->type.id() == TypeId::kMap) {
      added.push_back({"key", e->type.key_type()});
      added.push_back({"value", e->type.value_type()});
    } else if (e->type.id() == TypeId::kNull) {
      e = Binder::cast_to(e, LogicalType::array(TypeId::kInteger), arg->position);
      added.push_back({"unnest", TypeId::kInteger});
    } else {
      throw BinderError("UNNEST needs an ARRAY or MAP, not " + e->type.to_string(), arg->position, "42804");
    }
    node->arrays.push_back(std::move(e));
  }
  if (ref.ordinality) added.push_back({"ordinality", TypeId::kBigInt});
  const std::string table = ref.alias ? ref.alias->name : "unnest";
  if (ref.alias && ref.alias->columns.size() > added.size()) {
    throw BinderError("UNNEST gives " + std::to_string(added.size()) + " columns but " +
                          std::to_string(ref.alias->columns.size()) + " were named",
                      ref.alias->position, "42P10");
  }
  scope = input_scope;
  const size_t offset = input->output.size();
  for (size_t i = 0; i < added.size(); ++i) {
    if (ref.alias && i < ref.alias->columns.size()) added[i].name = ref.alias->columns[i];
    scope.columns.push_back({table, added[i].name, added[i].type, offset + i, false, ""});
    node->output.push_back(added[i]);
  }
  node->children.push_back(std::move(input));
  return node;
}

}  // namespace kestrel::plan
