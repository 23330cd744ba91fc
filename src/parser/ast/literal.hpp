#pragma once
/// Constant expressions: plain literals, typed literals (DATE '...'), interval literals and parameters.

#include <optional>
#include <string>

#include "parser/ast/expr.hpp"
#include "parser/ast/type_name.hpp"

namespace kestrel::ast {

/// What a Literal holds.
enum class LiteralKind : uint8_t {
  kNull,     ///< NULL
  kBoolean,  ///< TRUE or FALSE; `text` is "true" or "false"
  kInteger,  ///< digits only: `42`
  kDecimal,  ///< digits with a point and no exponent: `1.50`, `.5`, `3.`; typed DECIMAL by the binder
  kFloat,    ///< with an exponent: `1e10`, `2.5E-3`; typed DOUBLE by the binder
  kString,   ///< '...' or E'...'; `text` is the value after unescaping
  kBinary,   ///< X'00ff'; `text` holds the bytes; typed VARBINARY by the binder
};

/// A literal. Numbers keep their text exactly as written so the binder can type them exactly (1.50 is
/// DECIMAL(3,2), a 20-digit integer is a DECIMAL, not a wrapped BIGINT). A unary minus or plus written directly
/// before a number is folded into it by the parser: `-1.5` is one Literal with text "-1.5".
struct Literal final : Expr {
  static constexpr ExprKind kKind = ExprKind::kLiteral;
  explicit Literal(SourcePosition pos) : Expr(kKind, pos) {}

  LiteralKind literal_kind = LiteralKind::kNull;
  /// Numbers: the text as written (with a folded sign); strings: the unescaped value; booleans: "true"/"false".
  std::string text;

  bool boolean_value() const { return text == "true"; }
  bool is_numeric() const {
    return literal_kind == LiteralKind::kInteger || literal_kind == LiteralKind::kDecimal ||
           literal_kind == LiteralKind::kFloat;
  }
};

/// `type 'text'`: DATE '1998-12-01', TIMESTAMP '2001-02-03 04:05:06', also INTEGER '5' and the like. The text is
/// not checked by the parser; the binder converts it (and reports a bad date at `position`).
struct TypedLiteral final : Expr {
  static constexpr ExprKind kKind = ExprKind::kTypedLiteral;
  explicit TypedLiteral(SourcePosition pos) : Expr(kKind, pos) {}

  TypeName type;
  /// The string after the type name, unescaped.
  std::string value;
};

/// A unit of an interval qualifier (INTERVAL '3' DAY, INTERVAL '1-2' YEAR TO MONTH).
enum class IntervalField : uint8_t { kYear, kMonth, kDay, kHour, kMinute, kSecond };

/// Upper-case SQL name of a field: "YEAR".
const char* interval_field_name(IntervalField field);

/// An interval literal: INTERVAL '3' DAY (value "3", leading kDay), INTERVAL '2 days' (value "2 days", no
/// fields), INTERVAL '1-2' YEAR TO MONTH (leading kYear, trailing kMonth), and the unquoted INTERVAL 3 DAY.
/// Plural unit words (DAYS) are accepted as their singular. `interval_literal_value` in
/// parser/interval_literal_value.hpp turns one into an Interval.
struct IntervalLiteral final : Expr {
  static constexpr ExprKind kKind = ExprKind::kIntervalLiteral;
  explicit IntervalLiteral(SourcePosition pos) : Expr(kKind, pos) {}

  /// The quoted text (or the unquoted number) as written, e.g. "3", "-1", "2 days 3 hours".
  std::string value;
  /// The unit after the string; nullopt when the string carries its own units.
  std::optional<IntervalField> leading;
  /// The unit after TO in a range qualifier (YEAR TO MONTH); nullopt otherwise.
  std::optional<IntervalField> trailing;
};

/// A query parameter: `$n` (index n) or `?` (numbered 1, 2, ... in order of appearance in the statement).
struct Parameter final : Expr {
  static constexpr ExprKind kKind = ExprKind::kParameter;
  explicit Parameter(SourcePosition pos) : Expr(kKind, pos) {}

  /// 1-based parameter number.
  uint32_t index = 1;
};

}  // namespace kestrel::ast
