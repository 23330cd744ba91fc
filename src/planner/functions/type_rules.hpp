#pragma once
/// Implicit conversions between Kestrel's types (Presto-like): which types meet in a common super type for
/// comparisons, CASE, COALESCE, IN and UNION, which casts the binder may insert on its own, and the DECIMAL
/// precision/scale rules of arithmetic.
///
/// Rules:
/// - Integers widen to each other: TINYINT < SMALLINT < INTEGER < BIGINT.
/// - An integer meeting a DECIMAL acts as DECIMAL(3,0) / (5,0) / (10,0) / (19,0) for TINYINT / SMALLINT /
///   INTEGER / BIGINT; two decimals meet at scale max(s1, s2) with max(p1-s1, p2-s2) integer digits, precision
///   capped at 38 (a value that then does not fit is a runtime overflow error).
/// - Integers meeting REAL give REAL, anything numeric meeting DOUBLE gives DOUBLE, DECIMAL meeting REAL gives
///   DOUBLE.
/// - DATE meeting TIMESTAMP gives TIMESTAMP. NULL (the type of an untyped NULL) meets anything as that thing.
/// - VARCHAR meets only VARCHAR: the binder itself converts a string literal compared with a DATE, TIMESTAMP or
///   number to that type (PostgreSQL's unknown-typed literals), since only it knows the operand is a literal.

#include <optional>
#include <vector>

#include "common/error.hpp"
#include "common/types.hpp"

namespace kestrel::plan {

/// The type both `a` and `b` convert to implicitly, or nullopt when they do not meet.
std::optional<LogicalType> common_super_type(const LogicalType& a, const LogicalType& b);

/// The common super type of all of `types` (folded left to right); nullopt when two of them do not meet or the
/// list is empty.
std::optional<LogicalType> common_super_type(const std::vector<LogicalType>& types);

/// True when the binder may convert `from` to `to` without an explicit CAST (widening only).
/// Whether values of `type` have an order (ORDER BY, <, min/max): all but JSON, which Presto does not order.
bool is_orderable(const LogicalType& type);

/// Throws BinderError when `type` has no order (`what`: "ORDER BY", "a window's ORDER BY").
void require_orderable(const LogicalType& type, const char* what, std::optional<SourcePosition> pos);

bool can_implicitly_cast(const LogicalType& from, const LogicalType& to);

/// True when `CAST(x AS to)` of a `from` value is allowed at all (it may still fail at runtime on bad data):
/// numeric <-> numeric, BOOLEAN <-> integers, VARCHAR <-> anything but VARBINARY, VARCHAR -> VARBINARY,
/// DATE <-> TIMESTAMP, NULL -> anything.
bool can_cast_explicitly(const LogicalType& from, const LogicalType& to);

/// The DECIMAL an integer type converts to: DECIMAL(3,0) for TINYINT ... DECIMAL(19,0) for BIGINT. A DECIMAL is
/// returned unchanged.
LogicalType integer_as_decimal(const LogicalType& type);

/// DECIMAL result types of arithmetic on two DECIMALs (Presto's rules, precision capped at 38):
/// add/subtract: s = max(s1, s2), p = min(38, max(p1-s1, p2-s2) + s + 1);
LogicalType decimal_add_type(const LogicalType& a, const LogicalType& b);
/// multiply: s = s1 + s2, p = min(38, p1 + p2) (callers reduce operand scales first when s1 + s2 > 38);
LogicalType decimal_multiply_type(const LogicalType& a, const LogicalType& b);
/// divide: s = max(s1, s2, 6), p = min(38, p1 - s1 + s2 + s). Unlike Presto (s = max(s1, s2)), a quotient keeps at
/// least six fractional digits, as in SQL Server and Spark: 1 / 3.0 is 0.333333, not 0.3, and a ratio of two money
/// sums is not rounded to cents before it is scaled to a percentage. Past 38 digits the integer part gives way.
LogicalType decimal_divide_type(const LogicalType& a, const LogicalType& b);
/// modulo: p = min(p1-s1, p2-s2) + max(s1, s2), s = max(s1, s2).
LogicalType decimal_modulo_type(const LogicalType& a, const LogicalType& b);

/// Rank of an integer type for widening (TINYINT 1 .. BIGINT 4), 0 for anything else.
int integer_rank(TypeId id);

}  // namespace kestrel::plan
