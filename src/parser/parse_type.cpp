// Type names: parsing and mapping to Kestrel's logical types.

#include "parser/sql_parser.hpp"

namespace kestrel {

using namespace ast;

namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

/// The logical type of a type name without its modifiers checked; nullopt for names Kestrel does not have.
std::optional<LogicalType> simple_type(std::string_view name) {
  static const struct {
    std::string_view name;
    TypeId id;
  } kTypes[] = {
      {"BOOLEAN", TypeId::kBoolean}, {"BOOL", TypeId::kBoolean},     {"TINYINT", TypeId::kTinyInt},
      {"INT1", TypeId::kTinyInt},    {"SMALLINT", TypeId::kSmallInt}, {"INT2", TypeId::kSmallInt},
      {"INTEGER", TypeId::kInteger}, {"INT", TypeId::kInteger},       {"INT4", TypeId::kInteger},
      {"BIGINT", TypeId::kBigInt},   {"INT8", TypeId::kBigInt},       {"REAL", TypeId::kReal},
      {"FLOAT4", TypeId::kReal},     {"DOUBLE", TypeId::kDouble},     {"DOUBLE PRECISION", TypeId::kDouble},
      {"FLOAT8", TypeId::kDouble},   {"DATE", TypeId::kDate},         {"TIMESTAMP", TypeId::kTimestamp},
      {"TIMESTAMP WITHOUT TIME ZONE", TypeId::kTimestamp},            {"DATETIME", TypeId::kTimestamp},
      {"INTERVAL", TypeId::kInterval}, {"VARCHAR", TypeId::kVarchar}, {"TEXT", TypeId::kVarchar},
      {"STRING", TypeId::kVarchar},  {"CHAR", TypeId::kVarchar},      {"CHARACTER", TypeId::kVarchar},
      {"CHARACTER VARYING", TypeId::kVarchar},                        {"BPCHAR", TypeId::kVarchar},
      {"NVARCHAR", TypeId::kVarchar},  {"VARBINARY", TypeId::kVarbinary},
      {"JSON", TypeId::kJson},         {"TIMESTAMP WITH TIME ZONE", TypeId::kTimestampTz},
      {"TIMESTAMPTZ", TypeId::kTimestampTz},
  };
  for (const auto& entry : kTypes) {
    if (entry.name == name) return LogicalType(entry.id);
  }
  return std::nullopt;
}

}  // namespace

TypeName SqlParser::parse_nested_type() {
  TypeName type;
  const Token& first = advance();
  type.position = first.position;
  const std::string word = upper(first.text);
  const bool angle = at_operator("<");
  const std::string close = angle ? ">" : ")";
  const Token& open = advance();
  auto child = [&](const char* what) {
    TypeName t = parse_type();
    if (!t.type) throw SyntaxError("unknown type " + t.to_string() + " as " + what + " of " + word, t.position);
    return *t.type;
  };
  auto expect_close = [&] {
    if (!at_operator(close)) {
      fail_expected("'" + close + "' to close " + word + " opened at " + std::to_string(open.position.line) + ":" +
                    std::to_string(open.position.column));
    }
    advance();
  };
  if (word == "ARRAY") {
    type.type = LogicalType::array(child("the element type"));
  } else if (word == "MAP") {
    LogicalType key = child("the key type");
    expect_operator(",", "between the key and value types of MAP");
    type.type = LogicalType::map(std::move(key), child("the value type"));
  } else {
    std::vector<RowField> fields;
    do {
      RowField field;
      // `name type` or, for an anonymous field, only `type`: a name is a word followed by another word.
      const Token& t = peek();
      const bool named = (t.type == TokenType::kWord || t.type == TokenType::kQuotedIdentifier) &&
                         (peek(1).type == TokenType::kWord || peek(1).type == TokenType::kQuotedIdentifier);
      if (named) field.name = advance().text;
      field.type = child("a field type");
      for (const RowField& f : fields) {
        if (!field.name.empty() && upper(f.name) == upper(field.name)) {
          fail_at(t, "ROW field name '" + field.name + "' is given twice");
        }
      }
      fields.push_back(std::move(field));
    } while (match_operator(","));
    type.type = LogicalType::row(std::move(fields));
  }
  expect_close();
  type.name = type.type->to_string();
  return type;
}

TypeName SqlParser::parse_type() {
  const Token& first = peek();
  if (first.type == TokenType::kWord && (first.text == "array" || first.text == "map" || first.text == "row") &&
      (at_operator("(", 1) || at_operator("<", 1))) {
    return parse_nested_type();
  }
  TypeName type;
  type.position = first.position;
  if (first.type == TokenType::kQuotedIdentifier) {
    type.name = advance().text;
  } else if (first.type == TokenType::kWord && !first.reserved) {
    type.name = upper(advance().text);
  } else {
    fail_expected("a type name");
  }
  // Multi-word names.
  if (type.name == "DOUBLE" && match_keyword("precision")) type.name = "DOUBLE PRECISION";
  if (type.name == "CHARACTER" && match_keyword("varying")) type.name = "CHARACTER VARYING";
  if (at_operator("(")) {
    const Token& open = advance();
    do {
      const Token& number = peek();
      if (number.type != TokenType::kInteger || number.text.size() > 9) {
        fail_expected("an integer type modifier in " + type.name + "(...)");
      }
      type.modifiers.push_back(std::stoll(advance().text));
    } while (match_operator(","));
    if (!at_operator(")")) {
      fail_expected("')' to close the modifiers of " + type.name + " opened at " +
                    std::to_string(open.position.line) + ":" + std::to_string(open.position.column));
    }
    advance();
  }
  if ((type.name == "TIMESTAMP" || type.name == "TIME") && (at_keyword("with") || at_keyword("without"))) {
    std::string zone = upper(advance().text);
    expect_keyword("time", "in WITH/WITHOUT TIME ZONE");
    expect_keyword("zone", "in WITH/WITHOUT TIME ZONE");
    type.name += " " + zone + " TIME ZONE";
  }

  const std::string& name = type.name;
  if (name == "DECIMAL" || name == "NUMERIC" || name == "DEC") {
    if (type.modifiers.size() > 2) fail_at(first, name + " takes at most two modifiers (precision, scale)");
    int64_t precision = type.modifiers.empty() ? kMaxDecimalPrecision : type.modifiers[0];
    int64_t scale = type.modifiers.size() == 2 ? type.modifiers[1] : 0;
    if (precision < 1 || precision > kMaxDecimalPrecision) {
      fail_at(first, name + " precision " + std::to_string(precision) + " is out of range (1 to " +
                         std::to_string(kMaxDecimalPrecision) + ")");
    }
    if (scale > precision) {
      fail_at(first, name + " scale " + std::to_string(scale) + " is larger than its precision " +
                         std::to_string(precision));
    }
    type.type = LogicalType::decimal(static_cast<int>(precision), static_cast<int>(scale));
  } else if (name == "FLOAT") {
    if (type.modifiers.size() > 1) fail_at(first, "FLOAT takes at most one modifier (precision)");
    bool single = !type.modifiers.empty() && type.modifiers[0] <= 24;
    type.type = LogicalType(single ? TypeId::kReal : TypeId::kDouble);
  } else {
    type.type = simple_type(name);
  }
  return type;
}

}  // namespace kestrel
