// Names of AST enums and small helpers of the node types.

#include "parser/ast/ast.hpp"

namespace kestrel::ast {

const char* expr_kind_name(ExprKind kind) {
  switch (kind) {
    case ExprKind::kColumnRef: return "column_ref";
    case ExprKind::kStar: return "star";
    case ExprKind::kLiteral: return "literal";
    case ExprKind::kTypedLiteral: return "typed_literal";
    case ExprKind::kIntervalLiteral: return "interval_literal";
    case ExprKind::kParameter: return "parameter";
    case ExprKind::kUnaryOp: return "unary_op";
    case ExprKind::kBinaryOp: return "binary_op";
    case ExprKind::kConjunction: return "conjunction";
    case ExprKind::kIsTest: return "is_test";
    case ExprKind::kIsDistinctFrom: return "is_distinct_from";
    case ExprKind::kBetween: return "between";
    case ExprKind::kInList: return "in_list";
    case ExprKind::kLike: return "like";
    case ExprKind::kScalarSubquery: return "scalar_subquery";
    case ExprKind::kExists: return "exists";
    case ExprKind::kInSubquery: return "in_subquery";
    case ExprKind::kQuantifiedComparison: return "quantified_comparison";
    case ExprKind::kCase: return "case";
    case ExprKind::kCast: return "cast";
    case ExprKind::kExtract: return "extract";
    case ExprKind::kFunctionCall: return "function_call";
  }
  return "unknown";
}

const char* binary_operator_symbol(BinaryOperator op) {
  switch (op) {
    case BinaryOperator::kAdd: return "+";
    case BinaryOperator::kSubtract: return "-";
    case BinaryOperator::kMultiply: return "*";
    case BinaryOperator::kDivide: return "/";
    case BinaryOperator::kModulo: return "%";
    case BinaryOperator::kConcat: return "||";
    case BinaryOperator::kEqual: return "=";
    case BinaryOperator::kNotEqual: return "<>";
    case BinaryOperator::kLess: return "<";
    case BinaryOperator::kLessEqual: return "<=";
    case BinaryOperator::kGreater: return ">";
    case BinaryOperator::kGreaterEqual: return ">=";
  }
  return "?";
}

bool is_comparison(BinaryOperator op) {
  switch (op) {
    case BinaryOperator::kEqual:
    case BinaryOperator::kNotEqual:
    case BinaryOperator::kLess:
    case BinaryOperator::kLessEqual:
    case BinaryOperator::kGreater:
    case BinaryOperator::kGreaterEqual: return true;
    default: return false;
  }
}

const char* interval_field_name(IntervalField field) {
  switch (field) {
    case IntervalField::kYear: return "YEAR";
    case IntervalField::kMonth: return "MONTH";
    case IntervalField::kDay: return "DAY";
    case IntervalField::kHour: return "HOUR";
    case IntervalField::kMinute: return "MINUTE";
    case IntervalField::kSecond: return "SECOND";
  }
  return "?";
}

const char* join_type_name(JoinType type) {
  switch (type) {
    case JoinType::kInner: return "INNER";
    case JoinType::kLeft: return "LEFT";
    case JoinType::kRight: return "RIGHT";
    case JoinType::kFull: return "FULL";
    case JoinType::kCross: return "CROSS";
  }
  return "?";
}

const char* set_operator_name(SetOperator op) {
  switch (op) {
    case SetOperator::kUnion: return "UNION";
    case SetOperator::kIntersect: return "INTERSECT";
    case SetOperator::kExcept: return "EXCEPT";
  }
  return "?";
}

const char* statement_kind_name(StatementKind kind) {
  switch (kind) {
    case StatementKind::kQuery: return "query";
    case StatementKind::kCreateTable: return "create_table";
    case StatementKind::kCreateTableAs: return "create_table_as";
    case StatementKind::kCreateView: return "create_view";
    case StatementKind::kCreateIndex: return "create_index";
    case StatementKind::kDrop: return "drop";
    case StatementKind::kInsert: return "insert";
    case StatementKind::kUpdate: return "update";
    case StatementKind::kDelete: return "delete";
    case StatementKind::kCopy: return "copy";
    case StatementKind::kExplain: return "explain";
    case StatementKind::kSet: return "set";
    case StatementKind::kReset: return "reset";
    case StatementKind::kShow: return "show";
    case StatementKind::kDescribe: return "describe";
  }
  return "unknown";
}

const char* object_type_name(ObjectType type) {
  switch (type) {
    case ObjectType::kTable: return "TABLE";
    case ObjectType::kView: return "VIEW";
    case ObjectType::kIndex: return "INDEX";
  }
  return "?";
}

std::string QualifiedName::to_string() const {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

std::string TypeName::to_string() const {
  std::string out = name;
  if (!modifiers.empty()) {
    out += '(';
    for (size_t i = 0; i < modifiers.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(modifiers[i]);
    }
    out += ')';
  }
  return out;
}

// Out of line so that Query is complete where the owning pointers are destroyed.
SubqueryRef::SubqueryRef(SourcePosition pos) : TableRef(kKind, pos) {}
SubqueryRef::~SubqueryRef() = default;
ParenthesizedQuery::ParenthesizedQuery(SourcePosition pos) : QueryBody(kKind, pos) {}
ParenthesizedQuery::~ParenthesizedQuery() = default;

}  // namespace kestrel::ast
