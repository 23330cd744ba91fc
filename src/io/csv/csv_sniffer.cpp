#include "io/csv/csv_sniffer.hpp"

#include <algorithm>

#include "common/temporal.hpp"
#include "io/csv/csv_value_parsers.hpp"

namespace kestrel {

CsvTypeSniffer::CsvTypeSniffer(size_t columns, std::string null_string)
    : columns_(columns), null_string_(std::move(null_string)) {}

void CsvTypeSniffer::observe(size_t column, std::string_view text, bool quoted) {
  if (text.empty() || (!quoted && text == null_string_)) return;
  Candidates& c = columns_[column];
  ++c.values;
  if (c.boolean) c.boolean = csv::is_strict_bool(text);
  if (c.bigint) {
    int64_t v;
    c.bigint = csv::parse_int64(text, v);
  }
  if (c.decimal) {
    csv::DecimalShape shape;
    c.decimal = csv::decimal_shape(text, shape) && shape.fraction_digits <= kCsvSniffMaxDecimalScale;
    if (c.decimal) {
      c.max_integer_digits = std::max(c.max_integer_digits, shape.integer_digits);
      c.max_scale = std::max(c.max_scale, shape.fraction_digits);
    }
  }
  if (c.floating) {
    double v;
    c.floating = csv::parse_double(text, v);
  }
  if (c.date || c.timestamp) {
    const bool iso = csv::has_iso_date_prefix(text);
    int32_t d;
    int64_t ts;
    bool is_date = iso && csv::parse_date_value(text, d);
    if (c.date) c.date = is_date;
    if (c.timestamp) c.timestamp = is_date || (iso && csv::parse_timestamp_value(text, ts));
  }
}

LogicalType CsvTypeSniffer::type_of(size_t column) const {
  const Candidates& c = columns_[column];
  if (c.values == 0) return TypeId::kVarchar;
  if (c.boolean) return TypeId::kBoolean;
  if (c.bigint) return TypeId::kBigInt;
  if (c.decimal) {
    const int digits = c.max_integer_digits + c.max_scale;
    if (digits <= kMaxInt64DecimalPrecision) return LogicalType::decimal(kMaxInt64DecimalPrecision, c.max_scale);
    if (digits <= kMaxDecimalPrecision) return LogicalType::decimal(kMaxDecimalPrecision, c.max_scale);
  }
  if (c.floating) return TypeId::kDouble;
  if (c.date) return TypeId::kDate;
  if (c.timestamp) return TypeId::kTimestamp;
  return TypeId::kVarchar;
}

}  // namespace kestrel
