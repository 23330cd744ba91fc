// Printing expressions back to SQL.

#include "parser/ast_printer.hpp"
#include "parser/sql_printer.hpp"
#include "parser/token.hpp"

namespace kestrel::ast {

std::string quote_identifier(std::string_view name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9') && !is_reserved_keyword(name);
  for (char c : name) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  }
  if (plain) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

std::string quote_string(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

void SqlPrinter::print_list(const ExprList& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out_ += ", ";
    print(*list[i]);
  }
}

void SqlPrinter::print_names(const std::vector<std::string>& names, const char* separator) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out_ += separator;
    out_ += quote_identifier(names[i]);
  }
}

void SqlPrinter::print(const TypeName& type) {
  // Known and multi-word names print as written; an unknown word prints so that it reads back the same: bare when
  // upper-case (the parser upper-cases unquoted names), quoted otherwise.
  bool bare = type.type || type.name.find(' ') != std::string::npos;
  if (!bare) {
    bare = !type.name.empty();
    for (char c : type.name) bare = bare && ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  }
  std::string text = type.to_string();
  out_ += bare ? text : quote_identifier(type.name) + text.substr(type.name.size());
}

void SqlPrinter::print_call(const FunctionCall& call) {
  // The nested-value forms the parser writes as internal calls (parse_primary.cpp) print as written.
  if (call.name == kArrayConstructorName) {
    out_ += "ARRAY[";
    print_list(call.args);
    out_ += ']';
    return;
  }
  if (call.name == kSubscriptName && call.args.size() == 2) {
    out_ += '(';
    print(*call.args[0]);
    out_ += ")[";
    print(*call.args[1]);
    out_ += ']';
    return;
  }
  if (call.name == kFieldName && call.args.size() == 2 && call.args[1]->is<Literal>()) {
    out_ += '(';
    print(*call.args[0]);
    out_ += ")." + quote_identifier(call.args[1]->as<Literal>().text);
    return;
  }
  if (call.name == kLambdaName && !call.args.empty()) {
    out_ += '(';
    for (size_t i = 0; i + 1 < call.args.size(); ++i) {
      if (i > 0) out_ += ", ";
      print(*call.args[i]);
    }
    out_ += ") -> ";
    print(*call.args.back());
    return;
  }
  if (!call.schema.empty()) out_ += quote_identifier(call.schema) + ".";
  out_ += quote_identifier(call.name);
  out_ += '(';
  if (call.star) out_ += '*';
  if (call.distinct) out_ += "DISTINCT ";
  print_list(call.args);
  if (!call.order_by.empty() && !call.within_group) {
    out_ += " ORDER BY ";
    print_order_items(call.order_by);
  }
  out_ += ')';
  if (call.within_group) {
    out_ += " WITHIN GROUP (ORDER BY ";
    print_order_items(call.order_by);
    out_ += ')';
  }
  if (call.filter) {
    out_ += " FILTER (WHERE ";
    print(*call.filter);
    out_ += ')';
  }
  if (call.over) {
    out_ += " OVER (";
    std::string sep;
    if (!call.over->partition_by.empty()) {
      out_ += "PARTITION BY ";
      print_list(call.over->partition_by);
      sep = " ";
    }
    if (!call.over->order_by.empty()) {
      out_ += sep + "ORDER BY ";
      print_order_items(call.over->order_by);
      sep = " ";
    }
    if (call.over->frame) {
      out_ += sep + (call.over->frame->unit == FrameUnit::kRows ? "ROWS" : "RANGE");
      out_ += call.over->frame->end == FrameEnd::kCurrentRow ? " BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
                                                             : " BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
    }
    out_ += ')';
  }
}

void SqlPrinter::print_case(const Case& node) {
  out_ += "CASE";
  if (node.operand) {
    out_ += ' ';
    print(*node.operand);
  }
  for (const WhenClause& when : node.whens) {
    out_ += " WHEN ";
    print(*when.condition);
    out_ += " THEN ";
    print(*when.result);
  }
  if (node.else_result) {
    out_ += " ELSE ";
    print(*node.else_result);
  }
  out_ += " END";
}

void SqlPrinter::print(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kColumnRef: print_names(expr.as<ColumnRef>().names, "."); return;
    case ExprKind::kStar: {
      const auto& star = expr.as<Star>();
      print_names(star.qualifier, ".");
      out_ += star.qualifier.empty() ? "*" : ".*";
      return;
    }
    case ExprKind::kLiteral: {
      const auto& literal = expr.as<Literal>();
      switch (literal.literal_kind) {
        case LiteralKind::kNull: out_ += "NULL"; return;
        case LiteralKind::kBoolean: out_ += literal.boolean_value() ? "TRUE" : "FALSE"; return;
        case LiteralKind::kString: out_ += quote_string(literal.text); return;
        case LiteralKind::kBinary: {
          static constexpr char kDigits[] = "0123456789ABCDEF";
          out_ += "X'";
          for (const char c : literal.text) {
            out_ += kDigits[static_cast<unsigned char>(c) >> 4];
            out_ += kDigits[static_cast<unsigned char>(c) & 15];
          }
          out_ += '\'';
          return;
        }
        default: out_ += literal.text; return;
      }
    }
    case ExprKind::kTypedLiteral: {
      const auto& literal = expr.as<TypedLiteral>();
      print(literal.type);
      out_ += ' ' + quote_string(literal.value);
      return;
    }
    case ExprKind::kIntervalLiteral: {
      const auto& interval = expr.as<IntervalLiteral>();
      out_ += "INTERVAL " + quote_string(interval.value);
      if (interval.leading) out_ += std::string(" ") + interval_field_name(*interval.leading);
      if (interval.trailing) out_ += std::string(" TO ") + interval_field_name(*interval.trailing);
      return;
    }
    case ExprKind::kParameter: out_ += "$" + std::to_string(expr.as<Parameter>().index); return;
    case ExprKind::kUnaryOp: {
      const auto& unary = expr.as<UnaryOp>();
      out_ += unary.op == UnaryOperator::kNot ? "(NOT " : unary.op == UnaryOperator::kNegate ? "(- " : "(+ ";
      print(*unary.operand);
      out_ += ')';
      return;
    }
    case ExprKind::kBinaryOp: {
      const auto& binary = expr.as<BinaryOp>();
      out_ += '(';
      print(*binary.left);
      out_ += std::string(" ") + binary_operator_symbol(binary.op) + " ";
      print(*binary.right);
      out_ += ')';
      return;
    }
    case ExprKind::kConjunction: {
      const auto& conjunction = expr.as<Conjunction>();
      out_ += '(';
      for (size_t i = 0; i < conjunction.operands.size(); ++i) {
        if (i > 0) out_ += conjunction.conjunction == ConjunctionKind::kAnd ? " AND " : " OR ";
        print(*conjunction.operands[i]);
      }
      out_ += ')';
      return;
    }
    case ExprKind::kIsTest: {
      const auto& test = expr.as<IsTest>();
      static const char* const kTests[] = {"NULL", "TRUE", "FALSE", "UNKNOWN"};
      out_ += '(';
      print(*test.operand);
      out_ += test.negated ? " IS NOT " : " IS ";
      out_ += kTests[static_cast<int>(test.test)];
      out_ += ')';
      return;
    }
    case ExprKind::kIsDistinctFrom: {
      const auto& node = expr.as<IsDistinctFrom>();
      out_ += '(';
      print(*node.left);
      out_ += node.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ";
      print(*node.right);
      out_ += ')';
      return;
    }
    case ExprKind::kBetween: {
      const auto& node = expr.as<Between>();
      out_ += '(';
      print(*node.operand);
      out_ += node.negated ? " NOT BETWEEN " : " BETWEEN ";
      if (node.symmetric) out_ += "SYMMETRIC ";
      print(*node.low);
      out_ += " AND ";
      print(*node.high);
      out_ += ')';
      return;
    }
    case ExprKind::kInList: {
      const auto& node = expr.as<InList>();
      out_ += '(';
      print(*node.operand);
      out_ += node.negated ? " NOT IN (" : " IN (";
      print_list(node.values);
      out_ += "))";
      return;
    }
    case ExprKind::kLike: {
      const auto& node = expr.as<Like>();
      out_ += '(';
      print(*node.operand);
      out_ += node.negated ? " NOT " : " ";
      out_ += node.case_insensitive ? "ILIKE " : "LIKE ";
      print(*node.pattern);
      if (node.escape) {
        out_ += " ESCAPE ";
        print(*node.escape);
      }
      out_ += ')';
      return;
    }
    case ExprKind::kScalarSubquery:
      out_ += '(';
      print(*expr.as<ScalarSubquery>().query);
      out_ += ')';
      return;
    case ExprKind::kExists:
      out_ += "EXISTS (";
      print(*expr.as<Exists>().query);
      out_ += ')';
      return;
    case ExprKind::kInSubquery: {
      const auto& node = expr.as<InSubquery>();
      out_ += '(';
      print(*node.operand);
      out_ += node.negated ? " NOT IN (" : " IN (";
      print(*node.query);
      out_ += "))";
      return;
    }
    case ExprKind::kQuantifiedComparison: {
      const auto& node = expr.as<QuantifiedComparison>();
      out_ += '(';
      print(*node.left);
      out_ += std::string(" ") + binary_operator_symbol(node.op);
      out_ += node.quantifier == Quantifier::kAll ? " ALL (" : " ANY (";
      print(*node.query);
      out_ += "))";
      return;
    }
    case ExprKind::kCase: print_case(expr.as<Case>()); return;
    case ExprKind::kCast: {
      const auto& cast = expr.as<Cast>();
      out_ += cast.try_cast ? "TRY_CAST(" : "CAST(";
      print(*cast.operand);
      out_ += " AS ";
      print(cast.type);
      out_ += ')';
      return;
    }
    case ExprKind::kExtract: {
      const auto& extract = expr.as<Extract>();
      out_ += "EXTRACT(" + quote_identifier(extract.field) + " FROM ";
      print(*extract.operand);
      out_ += ')';
      return;
    }
    case ExprKind::kFunctionCall: print_call(expr.as<FunctionCall>()); return;
  }
}

}  // namespace kestrel::ast
