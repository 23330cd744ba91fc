// Deep copies of AST trees.

#include "parser/ast/clone.hpp"

#include "parser/ast/ast.hpp"

namespace kestrel::ast {
namespace {

ExprPtr clone_or_null(const ExprPtr& expr) { return expr ? clone(*expr) : nullptr; }

ExprList clone_list(const ExprList& list) {
  ExprList out;
  out.reserve(list.size());
  for (const ExprPtr& expr : list) out.push_back(clone(*expr));
  return out;
}

/// A new node of the same type with the same positions; the caller copies the fields.
template <typename T>
std::unique_ptr<T> same_node(const Expr& expr) {
  auto node = std::make_unique<T>(expr.position);
  node->operator_position = expr.operator_position;
  return node;
}

ExprPtr clone_predicate(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kIsTest: {
      const auto& from = expr.as<IsTest>();
      auto node = same_node<IsTest>(expr);
      node->operand = clone(*from.operand);
      node->test = from.test;
      node->negated = from.negated;
      return node;
    }
    case ExprKind::kIsDistinctFrom: {
      const auto& from = expr.as<IsDistinctFrom>();
      auto node = same_node<IsDistinctFrom>(expr);
      node->left = clone(*from.left);
      node->right = clone(*from.right);
      node->negated = from.negated;
      return node;
    }
    case ExprKind::kBetween: {
      const auto& from = expr.as<Between>();
      auto node = same_node<Between>(expr);
      node->operand = clone(*from.operand);
      node->low = clone(*from.low);
      node->high = clone(*from.high);
      node->negated = from.negated;
      node->symmetric = from.symmetric;
      return node;
    }
    case ExprKind::kInList: {
      const auto& from = expr.as<InList>();
      auto node = same_node<InList>(expr);
      node->operand = clone(*from.operand);
      node->values = clone_list(from.values);
      node->negated = from.negated;
      return node;
    }
    case ExprKind::kLike: {
      const auto& from = expr.as<Like>();
      auto node = same_node<Like>(expr);
      node->operand = clone(*from.operand);
      node->pattern = clone(*from.pattern);
      node->escape = clone_or_null(from.escape);
      node->negated = from.negated;
      node->case_insensitive = from.case_insensitive;
      return node;
    }
    case ExprKind::kScalarSubquery: {
      auto node = same_node<ScalarSubquery>(expr);
      node->query = clone(*expr.as<ScalarSubquery>().query);
      return node;
    }
    case ExprKind::kExists: {
      auto node = same_node<Exists>(expr);
      node->query = clone(*expr.as<Exists>().query);
      return node;
    }
    case ExprKind::kInSubquery: {
      const auto& from = expr.as<InSubquery>();
      auto node = same_node<InSubquery>(expr);
      node->operand = clone(*from.operand);
      node->query = clone(*from.query);
      node->negated = from.negated;
      return node;
    }
    case ExprKind::kQuantifiedComparison: {
      const auto& from = expr.as<QuantifiedComparison>();
      auto node = same_node<QuantifiedComparison>(expr);
      node->op = from.op;
      node->quantifier = from.quantifier;
      node->left = clone(*from.left);
      node->query = clone(*from.query);
      return node;
    }
    default: return nullptr;
  }
}

}  // namespace

ExprPtr clone(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kColumnRef: {
      auto node = same_node<ColumnRef>(expr);
      node->names = expr.as<ColumnRef>().names;
      return node;
    }
    case ExprKind::kStar: {
      auto node = same_node<Star>(expr);
      node->qualifier = expr.as<Star>().qualifier;
      return node;
    }
    case ExprKind::kLiteral: {
      auto node = same_node<Literal>(expr);
      node->literal_kind = expr.as<Literal>().literal_kind;
      node->text = expr.as<Literal>().text;
      return node;
    }
    case ExprKind::kTypedLiteral: {
      auto node = same_node<TypedLiteral>(expr);
      node->type = expr.as<TypedLiteral>().type;
      node->value = expr.as<TypedLiteral>().value;
      return node;
    }
    case ExprKind::kIntervalLiteral: {
      const auto& from = expr.as<IntervalLiteral>();
      auto node = same_node<IntervalLiteral>(expr);
      node->value = from.value;
      node->leading = from.leading;
      node->trailing = from.trailing;
      return node;
    }
    case ExprKind::kParameter: {
      auto node = same_node<Parameter>(expr);
      node->index = expr.as<Parameter>().index;
      return node;
    }
    case ExprKind::kUnaryOp: {
      auto node = same_node<UnaryOp>(expr);
      node->op = expr.as<UnaryOp>().op;
      node->operand = clone(*expr.as<UnaryOp>().operand);
      return node;
    }
    case ExprKind::kBinaryOp: {
      const auto& from = expr.as<BinaryOp>();
      auto node = same_node<BinaryOp>(expr);
      node->op = from.op;
      node->left = clone(*from.left);
      node->right = clone(*from.right);
      return node;
    }
    case ExprKind::kConjunction: {
      auto node = same_node<Conjunction>(expr);
      node->conjunction = expr.as<Conjunction>().conjunction;
      node->operands = clone_list(expr.as<Conjunction>().operands);
      return node;
    }
    case ExprKind::kCase: {
      const auto& from = expr.as<Case>();
      auto node = same_node<Case>(expr);
      node->operand = clone_or_null(from.operand);
      for (const WhenClause& when : from.whens) node->whens.push_back({clone(*when.condition), clone(*when.result)});
      node->else_result = clone_or_null(from.else_result);
      return node;
    }
    case ExprKind::kCast: {
      const auto& from = expr.as<Cast>();
      auto node = same_node<Cast>(expr);
      node->operand = clone(*from.operand);
      node->type = from.type;
      node->try_cast = from.try_cast;
      return node;
    }
    case ExprKind::kExtract: {
      auto node = same_node<Extract>(expr);
      node->field = expr.as<Extract>().field;
      node->operand = clone(*expr.as<Extract>().operand);
      return node;
    }
    case ExprKind::kFunctionCall: {
      const auto& from = expr.as<FunctionCall>();
      auto node = same_node<FunctionCall>(expr);
      node->schema = from.schema;
      node->name = from.name;
      node->args = clone_list(from.args);
      node->distinct = from.distinct;
      node->star = from.star;
      for (const auto& item : from.order_by) {
        node->order_by.push_back(OrderItem{clone(*item.expr), item.direction, item.nulls});
      }
      node->within_group = from.within_group;
      node->filter = clone_or_null(from.filter);
      if (from.over) {
        node->over = std::make_shared<WindowSpec>();
        node->over->partition_by = clone_list(from.over->partition_by);
        for (const auto& item : from.over->order_by) {
          node->over->order_by.push_back(OrderItem{clone(*item.expr), item.direction, item.nulls});
        }
        node->over->frame = from.over->frame;
      }
      return node;
    }
    default: return clone_predicate(expr);
  }
}

}  // namespace kestrel::ast
