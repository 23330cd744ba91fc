#pragma once
/// Kestrel's logical types as Trino clients see them: the type text and typeSignature of a result column, and the
/// JSON form of each value that the clients decode (numbers as JSON numbers, decimals, dates, timestamps and
/// intervals as Trino's text).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/value.hpp"
#include "vector/batch.hpp"

namespace kestrel::server::trino {

/// How an INTERVAL column reaches Trino clients, which know two interval types: months alone, or days and time.
/// A column mixing both parts has no Trino type and is sent as Kestrel's text.
enum class IntervalForm : uint8_t { kDayToSecond, kYearToMonth, kText };

/// A result column as Trino clients see it.
struct TrinoColumn {
  std::string name;
  LogicalType type;
  IntervalForm interval_form = IntervalForm::kDayToSecond;  ///< only for INTERVAL columns
};

/// The columns of a result; an INTERVAL column's form is the one that represents all its values exactly.
std::vector<TrinoColumn> trino_columns(const Schema& schema, const std::vector<Batch>& batches);

/// Trino's type text: "bigint", "decimal(15,2)", "varchar", "timestamp(6)", "interval day to second".
std::string trino_type_name(const TrinoColumn& column);

/// The entry of a response's `columns`: name, type and typeSignature {rawType, arguments}.
nlohmann::json trino_column_json(const TrinoColumn& column);

/// A non-NULL value in the JSON form the Trino clients decode for the column's type. Reals and doubles are JSON
/// numbers (NaN and infinities the strings Trino sends); intervals of days and time have millisecond precision,
/// as in Trino.
nlohmann::json trino_value(const Value& value, const TrinoColumn& column);

/// ARRAY, MAP and ROW for Trino clients (trino_nested_types.cpp): the type text ("array(integer)",
/// "map(varchar, bigint)", "row(x integer, y varchar)"), the typeSignature, and the values (arrays as JSON arrays,
/// maps as JSON objects keyed by the keys' text, rows as JSON arrays of their fields). Intervals inside them go as
/// text.
std::string trino_nested_type_name(const LogicalType& type);
nlohmann::json trino_nested_signature(const LogicalType& type);
nlohmann::json trino_nested_value(const Value& value);

/// A timestamp as Trino's `timestamp(6)` text: `YYYY-MM-DD HH:MM:SS.ffffff`.
std::string trino_timestamp_text(int64_t micros);

}  // namespace kestrel::server::trino
