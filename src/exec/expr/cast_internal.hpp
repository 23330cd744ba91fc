#pragma once
/// The two halves of CAST (internal to exec/expr): fixed-width conversions in cast.cpp, text in cast_string.cpp.

#include <string>
#include <vector>

#include "exec/expr/kernel_util.hpp"

namespace kestrel::exec {

/// Any type to VARCHAR, in Value::to_string's format.
Operand cast_to_string(const Operand& in, size_t rows, EvalContext& ctx);
/// VARCHAR to any type by parsing; a value that does not parse raises `cannot cast 'abc' to DATE`.
Operand cast_from_string(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx);

/// Casts to and from JSON (json_cast.cpp): `in` or `target` is JSON.
Operand json_cast_kernel(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx);

/// `out` (a plain fixed-width cast result of `in`) with the rows where `failed[i]` is set made NULL too, for
/// EvalContext::cast_failures_to_null: a new column over a copy of the values.
ColumnPtr null_failed_rows(const ColumnPtr& out, const Operand& in, const std::vector<uint8_t>& failed,
                           EvalContext& ctx);

/// Throws the InvalidInput of a value that does not convert.
/// Casts from TIMESTAMP WITH TIME ZONE to VARCHAR, TIMESTAMP (its wall clock) and DATE, and to it from VARCHAR,
/// TIMESTAMP and DATE read in UTC (the binder makes casts that read the session's zone with_timezone calls).
Operand timestamp_tz_cast_kernel(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx);

[[noreturn]] void raise_cast_error(const std::string& value_text, const LogicalType& source,
                                   const LogicalType& target);

}  // namespace kestrel::exec
