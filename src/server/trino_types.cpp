#include "server/trino_types.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/binary_encoding.hpp"
#include "common/temporal.hpp"

namespace kestrel::server::trino {

namespace {

/// Varchar without a length is varchar(2147483647) in a Trino type signature.
constexpr int64_t kUnboundedVarcharLength = 2147483647;

nlohmann::json long_argument(int64_t value) { return {{"kind", "LONG"}, {"value", value}}; }

/// Which Trino interval type holds `interval` exactly.
IntervalForm form_of(const Interval& interval) {
  if (interval.months == 0) return IntervalForm::kDayToSecond;
  if (interval.days == 0 && interval.micros == 0) return IntervalForm::kYearToMonth;
  return IntervalForm::kText;
}

IntervalForm column_interval_form(const std::vector<Batch>& batches, size_t c) {
  bool any_months = false, any_days = false;
  for (const auto& batch : batches) {
    const Column& column = *batch.column(c);
    for (size_t row = 0; row < batch.num_rows(); ++row) {
      Value v = column.value_at(row);
      if (v.is_null()) continue;
      IntervalForm form = form_of(v.as_interval());
      if (form == IntervalForm::kText) return IntervalForm::kText;
      const Interval& iv = v.as_interval();
      any_months |= iv.months != 0;
      any_days |= iv.days != 0 || iv.micros != 0;
    }
  }
  if (any_months && any_days) return IntervalForm::kText;
  return any_months ? IntervalForm::kYearToMonth : IntervalForm::kDayToSecond;
}

/// A float or double as a JSON number, or the string Trino sends for NaN and the infinities.
nlohmann::json floating(double v, bool single) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (!single) return v;
  // The shortest text that reads back as the same float, so 0.1f reaches the client as 0.1.
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v));
  return std::strtod(std::string(buf, end).c_str(), nullptr);
}

/// Trino's `interval day to second` text: `[-]D HH:MM:SS.mmm`.
std::string day_to_second_text(const Interval& iv) {
  int64_t total_ms = (static_cast<int64_t>(iv.days) * kMicrosPerDay + iv.micros) / 1000;
  bool negative = total_ms < 0;
  uint64_t ms = negative ? -static_cast<uint64_t>(total_ms) : static_cast<uint64_t>(total_ms);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s%llu %02u:%02u:%02u.%03u", negative ? "-" : "",
                static_cast<unsigned long long>(ms / 86'400'000), static_cast<unsigned>(ms / 3'600'000 % 24),
                static_cast<unsigned>(ms / 60'000 % 60), static_cast<unsigned>(ms / 1000 % 60),
                static_cast<unsigned>(ms % 1000));
  return buf;
}

/// Trino's `interval year to month` text: `[-]Y-M`.
std::string year_to_month_text(int32_t months) {
  int64_t m = months;
  bool negative = m < 0;
  if (negative) m = -m;
  return (negative ? "-" : "") + std::to_string(m / 12) + "-" + std::to_string(m % 12);
}

}  // namespace

std::vector<TrinoColumn> trino_columns(const Schema& schema, const std::vector<Batch>& batches) {
  std::vector<TrinoColumn> out;
  for (size_t c = 0; c < schema.size(); ++c) {
    const Field& field = schema.fields()[c];
    TrinoColumn column{field.name, field.type};
    if (field.type.id() == TypeId::kInterval) column.interval_form = column_interval_form(batches, c);
    out.push_back(std::move(column));
  }
  return out;
}

std::string trino_type_name(const TrinoColumn& column) {
  const LogicalType& type = column.type;
  switch (type.id()) {
    case TypeId::kNull:
      return "unknown";
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kTinyInt:
      return "tinyint";
    case TypeId::kSmallInt:
      return "smallint";
    case TypeId::kInteger:
      return "integer";
    case TypeId::kBigInt:
      return "bigint";
    case TypeId::kReal:
      return "real";
    case TypeId::kDouble:
      return "double";
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")";
    case TypeId::kDate:
      return "date";
    case TypeId::kTimestamp:
      return "timestamp(6)";
    case TypeId::kTimestampTz:  // Presto's default precision; values carry microseconds when they have them
      return "timestamp(3) with time zone";
    case TypeId::kInterval:
      switch (column.interval_form) {
        case IntervalForm::kDayToSecond:
          return "interval day to second";
        case IntervalForm::kYearToMonth:
          return "interval year to month";
        case IntervalForm::kText:
          return "varchar";
      }
      break;
    case TypeId::kVarchar:
      return "varchar";
    case TypeId::kVarbinary:
      return "varbinary";
    case TypeId::kJson:
      return "json";
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return trino_nested_type_name(type);
  }
  return "varchar";
}

nlohmann::json trino_column_json(const TrinoColumn& column) {
  std::string name = trino_type_name(column);
  if (column.type.is_nested()) {
    return {{"name", column.name}, {"type", name}, {"typeSignature", trino_nested_signature(column.type)}};
  }
  nlohmann::json arguments = nlohmann::json::array();
  std::string raw = name;
  if (column.type.id() == TypeId::kDecimal) {
    raw = "decimal";
    arguments.push_back(long_argument(column.type.precision()));
    arguments.push_back(long_argument(column.type.scale()));
  } else if (column.type.id() == TypeId::kTimestamp) {
    raw = "timestamp";
    arguments.push_back(long_argument(6));
  } else if (column.type.id() == TypeId::kTimestampTz) {
    raw = "timestamp with time zone";
    arguments.push_back(long_argument(3));
  } else if (name == "varchar") {
    arguments.push_back(long_argument(kUnboundedVarcharLength));
  }
  return {{"name", column.name},
          {"type", name},
          {"typeSignature", {{"rawType", raw}, {"arguments", std::move(arguments)}}}};
}

nlohmann::json trino_value(const Value& value, const TrinoColumn& column) {
  switch (value.type().id()) {
    case TypeId::kNull:
      return nullptr;
    case TypeId::kBoolean:
      return value.as_bool();
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
      return value.as_int64();
    case TypeId::kReal:
      return floating(value.as_double(), true);
    case TypeId::kDouble:
      return floating(value.as_double(), false);
    case TypeId::kTimestamp:
      return trino_timestamp_text(value.as_int64());
    case TypeId::kInterval:
      switch (column.interval_form) {
        case IntervalForm::kDayToSecond:
          return day_to_second_text(value.as_interval());
        case IntervalForm::kYearToMonth:
          return year_to_month_text(value.as_interval().months);
        case IntervalForm::kText:
          return value.to_string();
      }
      break;
    case TypeId::kVarchar:
    case TypeId::kJson:  // the Trino protocol sends json values as their text
      return value.as_string();
    case TypeId::kVarbinary: {  // the Trino protocol sends varbinary values in base64
      std::string text;
      append_base64(text, value.as_string(), false);
      return text;
    }
    case TypeId::kDecimal:  // Trino sends decimals as text so that no digit is lost
    case TypeId::kDate:
    case TypeId::kTimestampTz:  // 2020-03-08 01:30:00.000 America/Los_Angeles
      return value.to_string();
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return trino_nested_value(value);
  }
  return value.to_string();
}

std::string trino_timestamp_text(int64_t micros) {
  int64_t days = micros / kMicrosPerDay - (micros % kMicrosPerDay < 0 ? 1 : 0);
  int64_t rest = micros - days * kMicrosPerDay;
  int64_t seconds = rest / kMicrosPerSecond;
  char buf[32];
  std::snprintf(buf, sizeof(buf), " %02d:%02d:%02d.%06d", static_cast<int>(seconds / 3600),
                static_cast<int>(seconds / 60 % 60), static_cast<int>(seconds % 60),
                static_cast<int>(rest % kMicrosPerSecond));
  return format_date(static_cast<int32_t>(days)) + buf;
}

}  // namespace kestrel::server::trino
