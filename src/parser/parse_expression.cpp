// Operator expressions: precedence climbing over PostgreSQL's operator precedence.

#include <algorithm>

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

namespace {

template <typename T>
std::unique_ptr<T> make_node(SourcePosition position) {
  return std::make_unique<T>(position);
}

/// The binary operator an operator token stands for; false for tokens that are not one.
bool binary_operator_of(const Token& token, BinaryOperator* op) {
  if (token.type != TokenType::kOperator) return false;
  static const struct {
    std::string_view symbol;
    BinaryOperator op;
  } kOperators[] = {
      {"+", BinaryOperator::kAdd},        {"-", BinaryOperator::kSubtract},   {"*", BinaryOperator::kMultiply},
      {"/", BinaryOperator::kDivide},     {"%", BinaryOperator::kModulo},     {"||", BinaryOperator::kConcat},
      {"=", BinaryOperator::kEqual},      {"<>", BinaryOperator::kNotEqual},  {"<", BinaryOperator::kLess},
      {"<=", BinaryOperator::kLessEqual}, {">", BinaryOperator::kGreater},    {">=", BinaryOperator::kGreaterEqual},
  };
  for (const auto& entry : kOperators) {
    if (token.text == entry.symbol) {
      *op = entry.op;
      return true;
    }
  }
  return false;
}

bool is_predicate_keyword(const Token& token) {
  return token.is_keyword("between") || token.is_keyword("in") || token.is_keyword("like") ||
         token.is_keyword("ilike");
}

}  // namespace

ExprList SqlParser::parse_expr_list() {
  ExprList list;
  do {
    list.push_back(parse_expr());
  } while (match_operator(","));
  return list;
}

int SqlParser::infix_precedence() const {
  const Token& token = peek();
  if (token.type == TokenType::kWord) {
    if (token.text == "or") return kOr;
    if (token.text == "and") return kAnd;
    if (token.text == "is" || token.text == "isnull" || token.text == "notnull") return kIs;
    if (is_predicate_keyword(token)) return kPredicate;
    if (token.text == "not" && is_predicate_keyword(peek(1))) return kPredicate;
    // x AT TIME ZONE zone binds tighter than the arithmetic operators, as in PostgreSQL.
    if (token.text == "at" && peek(1).is_keyword("time") && peek(2).is_keyword("zone")) return kUnary;
    return -1;
  }
  if (token.type != TokenType::kOperator) return -1;
  if (token.text == "::") return kCast;
  BinaryOperator op;
  if (!binary_operator_of(token, &op)) return -1;
  if (is_comparison(op)) return kComparison;
  switch (op) {
    case BinaryOperator::kConcat: return kConcat;
    case BinaryOperator::kAdd:
    case BinaryOperator::kSubtract: return kAdditive;
    default: return kMultiplicative;
  }
}

ExprPtr SqlParser::parse_expr(int min_precedence) {
  DepthGuard guard(*this);
  // expr_height_ collects the height of the expressions parsed inside this call; the tree's height is bounded
  // too, not only the recursion, because left-deep operator chains deepen the tree without recursing.
  const int enclosing_height = expr_height_;
  expr_height_ = 0;
  ExprPtr left = parse_prefix();
  int height = expr_height_ + 1;
  // The conjunction this loop built last, so that a AND b AND c becomes one node but (a AND b) AND c does not.
  Conjunction* open_conjunction = nullptr;
  while (true) {
    int precedence = infix_precedence();
    if (precedence <= min_precedence) break;
    const Token& op_token = peek();
    expr_height_ = 0;
    if (precedence == kAnd || precedence == kOr) {
      ConjunctionKind kind = precedence == kAnd ? ConjunctionKind::kAnd : ConjunctionKind::kOr;
      advance();
      ExprPtr right = parse_expr(precedence);
      if (open_conjunction == nullptr || open_conjunction != left.get() || open_conjunction->conjunction != kind) {
        auto node = make_node<Conjunction>(left->position);
        node->operator_position = op_token.position;
        node->conjunction = kind;
        node->operands.push_back(std::move(left));
        open_conjunction = node.get();
        left = std::move(node);
        height = std::max(height, expr_height_) + 1;
      } else {
        height = std::max(height, expr_height_ + 1);
      }
      open_conjunction->operands.push_back(std::move(right));
    } else {
      left = parse_infix(std::move(left), precedence);
      height = std::max(height, expr_height_) + 1;
    }
    if (height > kMaxParseDepth) {
      fail_at(op_token, "expression is nested too deeply (more than " + std::to_string(kMaxParseDepth) +
                            " levels)");
    }
  }
  expr_height_ = std::max(enclosing_height, height);
  return left;
}

ExprPtr SqlParser::parse_prefix() {
  const Token& token = peek();
  if (token.is_keyword("not")) {
    advance();
    auto node = make_node<UnaryOp>(token.position);
    node->op = UnaryOperator::kNot;
    node->operand = parse_expr(kNot);
    return node;
  }
  if (token.is_operator("-") || token.is_operator("+")) {
    bool minus = token.text == "-";
    SourcePosition position = token.position;
    advance();
    ExprPtr operand = parse_expr(kUnary);
    if (operand->is<Literal>() && operand->as<Literal>().is_numeric() && operand->as<Literal>().text[0] != '-') {
      // Fold the sign into the number so the binder types -2147483648 and -1.5 exactly.
      Literal& literal = operand->as<Literal>();
      if (minus) literal.text.insert(literal.text.begin(), '-');
      literal.position = literal.operator_position = position;
      return operand;
    }
    auto node = make_node<UnaryOp>(position);
    node->op = minus ? UnaryOperator::kNegate : UnaryOperator::kPlus;
    node->operand = std::move(operand);
    return node;
  }
  if (at_lambda()) return parse_lambda();
  return parse_postfix(parse_primary());
}

ExprPtr SqlParser::parse_infix(ExprPtr left, int precedence) {
  const Token& op_token = peek();
  if (precedence == kIs) return parse_is(std::move(left));
  if (precedence == kPredicate) return parse_keyword_predicate(std::move(left));
  if (precedence == kCast) {
    advance();
    auto node = make_node<Cast>(left->position);
    node->operator_position = op_token.position;
    node->operand = std::move(left);
    node->type = parse_type();
    return node;
  }
  if (precedence == kComparison) return parse_comparison(std::move(left));
  if (precedence == kUnary) {  // x AT TIME ZONE zone is at_timezone(x, zone)
    advance();
    advance();
    advance();
    auto node = make_node<FunctionCall>(left->position);
    node->name = "at_timezone";
    node->args.push_back(std::move(left));
    node->args.push_back(parse_expr(kUnary));
    return node;
  }
  BinaryOperator op;
  binary_operator_of(op_token, &op);
  advance();
  auto node = make_node<BinaryOp>(left->position);
  node->operator_position = op_token.position;
  node->op = op;
  node->left = std::move(left);
  node->right = parse_expr(precedence);
  return node;
}

ExprPtr SqlParser::parse_comparison(ExprPtr left) {
  const Token& op_token = advance();
  BinaryOperator op;
  binary_operator_of(op_token, &op);
  bool any = at_keyword("any") || at_keyword("some");
  if ((any || at_keyword("all")) && at_operator("(", 1) && at_keyword("array", 2) && at_operator("[", 3)) {
    // x = ANY (ARRAY[a, b, ...]) is x IN (a, b, ...), and x <> ALL (ARRAY[...]) is x NOT IN (...): the forms
    // PostgreSQL clients send for lists (Kestrel has no array values otherwise).
    const Token& quantifier = peek();
    if (!((any && op == BinaryOperator::kEqual) || (!any && op == BinaryOperator::kNotEqual))) {
      throw SyntaxError("only = ANY (ARRAY[...]) and <> ALL (ARRAY[...]) are supported over an array",
                        quantifier.position, "0A000");
    }
    advance();
    advance();
    advance();
    const Token& open = expect_operator("[", "after ARRAY");
    auto node = make_node<InList>(left->position);
    node->operand = std::move(left);
    node->negated = !any;
    if (at_operator("]")) throw SyntaxError("an empty ARRAY[] has no values to compare with", open.position, "42601");
    node->values = parse_expr_list();
    expect_operator("]", "to close ARRAY[");
    expect_operator(")", "after ARRAY[...]");
    return node;
  }
  if ((any || at_keyword("all")) && at_operator("(", 1)) {
    advance();
    auto node = make_node<QuantifiedComparison>(left->position);
    node->operator_position = op_token.position;
    node->op = op;
    node->quantifier = any ? Quantifier::kAny : Quantifier::kAll;
    node->left = std::move(left);
    node->query = parse_parenthesized_query("after ANY/ALL");
    return node;
  }
  auto node = make_node<BinaryOp>(left->position);
  node->operator_position = op_token.position;
  node->op = op;
  node->left = std::move(left);
  node->right = parse_expr(kComparison);
  return node;
}

ExprPtr SqlParser::parse_is(ExprPtr left) {
  const Token& op_token = advance();
  if (op_token.text == "isnull" || op_token.text == "notnull") {
    auto node = make_node<IsTest>(left->position);
    node->operator_position = op_token.position;
    node->operand = std::move(left);
    node->negated = op_token.text == "notnull";
    return node;
  }
  bool negated = match_keyword("not");
  if (match_keyword("distinct")) {
    expect_keyword("from", "after IS [NOT] DISTINCT");
    auto node = make_node<IsDistinctFrom>(left->position);
    node->operator_position = op_token.position;
    node->left = std::move(left);
    node->right = parse_expr(kIs);
    node->negated = negated;
    return node;
  }
  auto node = make_node<IsTest>(left->position);
  node->operator_position = op_token.position;
  node->operand = std::move(left);
  node->negated = negated;
  if (match_keyword("null")) {
    node->test = IsTestKind::kNull;
  } else if (match_keyword("true")) {
    node->test = IsTestKind::kTrue;
  } else if (match_keyword("false")) {
    node->test = IsTestKind::kFalse;
  } else if (match_keyword("unknown")) {
    node->test = IsTestKind::kUnknown;
  } else {
    fail_expected(negated ? "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS NOT"
                          : "NULL, NOT, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS");
  }
  return node;
}

ExprPtr SqlParser::parse_keyword_predicate(ExprPtr left) {
  const Token& op_token = peek();
  bool negated = match_keyword("not");
  if (match_keyword("in")) return parse_in(std::move(left), op_token, negated);
  if (match_keyword("between")) {
    auto node = make_node<Between>(left->position);
    node->operator_position = op_token.position;
    node->operand = std::move(left);
    node->negated = negated;
    node->symmetric = match_keyword("symmetric");
    if (!node->symmetric) match_keyword("asymmetric");
    node->low = parse_expr(kPredicate);
    expect_keyword("and", "between the bounds of BETWEEN");
    node->high = parse_expr(kPredicate);
    return node;
  }
  bool case_insensitive = peek().text == "ilike";
  advance();  // LIKE or ILIKE
  auto node = make_node<Like>(left->position);
  node->operator_position = op_token.position;
  node->operand = std::move(left);
  node->negated = negated;
  node->case_insensitive = case_insensitive;
  node->pattern = parse_expr(kPredicate);
  if (match_keyword("escape")) node->escape = parse_expr(kPredicate);
  return node;
}

ExprPtr SqlParser::parse_in(ExprPtr left, const Token& op_token, bool negated) {
  const Token& open = expect_operator("(", "after IN");
  if (at_query_start()) {
    auto node = make_node<InSubquery>(left->position);
    node->operator_position = op_token.position;
    node->operand = std::move(left);
    node->negated = negated;
    node->query = parse_query();
    expect_operator(")", "after the IN sub-query");
    return node;
  }
  if (at_operator(")")) fail_at(peek(), "expected a value in the IN list, found ')' (an IN list cannot be empty)");
  auto node = make_node<InList>(left->position);
  node->operator_position = op_token.position;
  node->operand = std::move(left);
  node->negated = negated;
  node->values = parse_expr_list();
  if (node->values.size() == 1 && node->values[0]->is<ScalarSubquery>() && at_query_continuation()) {
    // IN ((SELECT a ...) UNION SELECT b): the parenthesised sub-query is the first operand of the IN's query.
    auto sub = make_node<InSubquery>(node->position);
    sub->operator_position = op_token.position;
    sub->operand = std::move(node->operand);
    sub->negated = negated;
    sub->query = continue_query(std::move(node->values[0]->as<ScalarSubquery>().query));
    expect_operator(")", "after the IN sub-query");
    return sub;
  }
  if (!at_operator(")")) {
    fail_expected("')' to close the IN list opened at " + std::to_string(open.position.line) + ":" +
                  std::to_string(open.position.column));
  }
  advance();
  return node;
}

}  // namespace kestrel
