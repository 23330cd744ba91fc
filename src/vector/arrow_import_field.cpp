#include "vector/arrow_import_field.hpp"

#include <charconv>
#include <optional>
#include <string_view>

#include "common/error.hpp"

namespace kestrel::arrow {

namespace {

/// A readable name for an Arrow format Kestrel does not take, for the error message.
std::string arrow_type_name(std::string_view format) {
  struct Known {
    std::string_view prefix;
    const char* name;
  };
  static constexpr Known kKnown[] = {
      {"z", "binary"},          {"Z", "large_binary"},     {"vz", "binary_view"}, {"w:", "fixed_size_binary"},
      {"tt", "time"},           {"+l", "list"},            {"+L", "large_list"},  {"+w:", "fixed_size_list"},
      {"+vl", "list_view"},     {"+vL", "large_list_view"}, {"+s", "struct"},     {"+m", "map"},
      {"+ud", "dense_union"},   {"+us", "sparse_union"},   {"+r", "run_end_encoded"}, {"d:", "decimal"},
  };
  for (const auto& k : kKnown) {
    if (format.substr(0, k.prefix.size()) == k.prefix) return std::string(k.name) + " ('" + std::string(format) + "')";
  }
  return "'" + std::string(format) + "'";
}

[[noreturn]] void refuse(const std::string& column, std::string_view format, const std::string& why = {}) {
  throw NotImplemented("column '" + column + "' has the Arrow type " + arrow_type_name(format) +
                       (why.empty() ? ", which Kestrel has no type for" : ": " + why));
}

std::optional<TimeUnit> time_unit(char c) {
  switch (c) {
    case 's': return TimeUnit::kSecond;
    case 'm': return TimeUnit::kMilli;
    case 'u': return TimeUnit::kMicro;
    case 'n': return TimeUnit::kNano;
    default: return std::nullopt;
  }
}

/// "d:P,S" or "d:P,S,W": precision, scale and bit width (128 when absent); nullopt when malformed.
struct DecimalFormat {
  int precision = 0, scale = 0, bits = 128;
};
std::optional<DecimalFormat> parse_decimal_format(std::string_view f) {
  DecimalFormat d;
  const char* p = f.data() + 2;
  const char* end = f.data() + f.size();
  auto number = [&](int& out) {
    auto [next, ec] = std::from_chars(p, end, out);
    if (ec != std::errc()) return false;
    p = next;
    return true;
  };
  if (!number(d.precision) || p == end || *p++ != ',' || !number(d.scale)) return std::nullopt;
  if (p != end && (*p++ != ',' || !number(d.bits))) return std::nullopt;
  if (p != end) return std::nullopt;
  return d;
}

/// The Kestrel type and storage of a value format (not a dictionary).
void describe_values(ArrowColumnSource& out, std::string_view f) {
  using S = ArrowStorage;
  struct Simple {
    std::string_view format;
    S storage;
    TypeId type;
    bool same_layout;
  };
  static constexpr Simple kSimple[] = {
      {"n", S::kNull, TypeId::kInteger, false},     {"b", S::kBool, TypeId::kBoolean, false},
      {"c", S::kInt8, TypeId::kTinyInt, true},      {"s", S::kInt16, TypeId::kSmallInt, true},
      {"i", S::kInt32, TypeId::kInteger, true},     {"l", S::kInt64, TypeId::kBigInt, true},
      {"C", S::kUInt8, TypeId::kSmallInt, false},   {"S", S::kUInt16, TypeId::kInteger, false},
      {"I", S::kUInt32, TypeId::kBigInt, false},    {"e", S::kFloat16, TypeId::kReal, false},
      {"f", S::kFloat32, TypeId::kReal, true},      {"g", S::kFloat64, TypeId::kDouble, true},
      {"tdD", S::kDate32, TypeId::kDate, true},     {"tdm", S::kDate64, TypeId::kDate, false},
      {"tiM", S::kIntervalMonths, TypeId::kInterval, false},
      {"tiD", S::kIntervalDayTime, TypeId::kInterval, false},
      {"tin", S::kIntervalMonthDayNano, TypeId::kInterval, false},
      {"u", S::kUtf8, TypeId::kVarchar, false},     {"U", S::kLargeUtf8, TypeId::kVarchar, false},
      {"vu", S::kUtf8View, TypeId::kVarchar, false},
      // Binary arrays have the layouts of the string arrays.
      {"z", S::kUtf8, TypeId::kVarbinary, false},   {"Z", S::kLargeUtf8, TypeId::kVarbinary, false},
      {"vz", S::kUtf8View, TypeId::kVarbinary, false},
  };
  for (const auto& s : kSimple) {
    if (f == s.format) {
      out.storage = s.storage;
      out.type = s.type;
      out.same_layout = s.same_layout;
      return;
    }
  }
  if (f == "L") {
    out.storage = S::kUInt64;
    out.type = LogicalType::decimal(20, 0);
    return;
  }
  if (f.size() >= 4 && f.substr(0, 2) == "ts" && f[3] == ':' && time_unit(f[2])) {
    // A time zone after the colon: the values are UTC instants either way; Kestrel keeps them as UTC times.
    out.storage = S::kTimestamp;
    out.unit = *time_unit(f[2]);
    out.type = TypeId::kTimestamp;
    out.same_layout = out.unit == TimeUnit::kMicro;
    return;
  }
  if (f.size() == 3 && f.substr(0, 2) == "tD" && time_unit(f[2])) {
    out.storage = S::kDuration;
    out.unit = *time_unit(f[2]);
    out.type = TypeId::kInterval;
    return;
  }
  if (f.substr(0, 2) == "d:") {
    auto d = parse_decimal_format(f);
    if (!d) refuse(out.name, f, "a malformed decimal format");
    if (d->precision < 1 || d->precision > kMaxDecimalPrecision || d->scale < 0 || d->scale > d->precision) {
      refuse(out.name, f, "Kestrel's DECIMAL holds precisions 1 to 38 and scales 0 to the precision");
    }
    switch (d->bits) {
      case 32: out.storage = S::kDecimal32; break;
      case 64: out.storage = S::kDecimal64; break;
      case 128: out.storage = S::kDecimal128; break;
      case 256: out.storage = S::kDecimal256; break;
      default: refuse(out.name, f, "a decimal of " + std::to_string(d->bits) + " bits");
    }
    out.type = LogicalType::decimal(d->precision, d->scale);
    out.same_layout = (out.storage == S::kDecimal64 && !out.type.is_wide_decimal()) ||
                      (out.storage == S::kDecimal128 && out.type.is_wide_decimal());
    return;
  }
  refuse(out.name, f);
}

bool is_integer_index(ArrowStorage s) {
  switch (s) {
    case ArrowStorage::kInt8:
    case ArrowStorage::kInt16:
    case ArrowStorage::kInt32:
    case ArrowStorage::kInt64:
    case ArrowStorage::kUInt8:
    case ArrowStorage::kUInt16:
    case ArrowStorage::kUInt32:
    case ArrowStorage::kUInt64: return true;
    default: return false;
  }
}

}  // namespace

ArrowColumnSource describe_arrow_column(const ArrowSchema& schema, size_t index) {
  ArrowColumnSource out;
  out.name = schema.name != nullptr && schema.name[0] != '\0' ? schema.name : "column" + std::to_string(index);
  out.nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
  const std::string_view format = schema.format != nullptr ? schema.format : "";
  if (schema.dictionary == nullptr) {
    describe_values(out, format);
    return out;
  }
  // Dictionary-encoded: `format` is the index type, the dictionary's schema the values.
  ArrowColumnSource index_type;
  index_type.name = out.name;
  describe_values(index_type, format);
  if (!is_integer_index(index_type.storage)) refuse(out.name, format, "a dictionary whose indices are not integers");
  if (schema.dictionary->dictionary != nullptr) refuse(out.name, format, "a dictionary of a dictionary");
  auto values = std::make_unique<ArrowColumnSource>();
  values->name = out.name;
  describe_values(*values, schema.dictionary->format != nullptr ? schema.dictionary->format : "");
  out.storage = index_type.storage;
  out.type = values->type;
  out.dictionary = std::move(values);
  return out;
}

int64_t arrow_fixed_buffer_count(ArrowStorage storage) {
  switch (storage) {
    case ArrowStorage::kNull: return 0;
    case ArrowStorage::kUtf8:
    case ArrowStorage::kLargeUtf8:
    case ArrowStorage::kUtf8View: return 3;
    default: return 2;
  }
}

}  // namespace kestrel::arrow
