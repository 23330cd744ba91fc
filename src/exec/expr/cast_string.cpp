#include <charconv>
#include <cmath>
#include <limits>
#include <cstdlib>
#include <optional>
#include <string>

#include "common/decimal.hpp"
#include "common/format.hpp"
#include "common/temporal.hpp"
#include "common/time_zone.hpp"
#include "exec/expr/cast_internal.hpp"
#include "exec/expr/interval_parse.hpp"

namespace kestrel::exec {

namespace {

std::string_view trim_space(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

/// Appends the text of a fixed-width value of `type` (Value::to_string's format).
template <typename T>
void append_text(std::string& out, const LogicalType& type, const T& v) {
  if constexpr (std::is_same_v<T, Interval>) {
    out += format_interval(v);
  } else if constexpr (std::is_same_v<T, TimestampTz>) {
    out += tz::format_timestamp_tz(v);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    out += format_double(static_cast<double>(v));
  } else {
    switch (type.id()) {
      case TypeId::kBoolean: out += v ? "true" : "false"; return;
      case TypeId::kDecimal: out += format_decimal(static_cast<int128_t>(v), type.scale()); return;
      case TypeId::kDate: out += format_date(static_cast<int32_t>(v)); return;
      case TypeId::kTimestamp: out += format_timestamp(static_cast<int64_t>(v)); return;
      default: break;
    }
    if constexpr (sizeof(T) <= 8) {
      char buf[24];
      auto res = std::to_chars(buf, buf + sizeof(buf), static_cast<int64_t>(v));
      out.append(buf, res.ptr);
    } else {
      out += int128_to_string(v);
    }
  }
}

std::optional<bool> parse_bool(std::string_view s) {
  for (const char* t : {"true", "t", "yes", "y", "on", "1"}) {
    if (iequals(s, t)) return true;
  }
  for (const char* f : {"false", "f", "no", "n", "off", "0"}) {
    if (iequals(s, f)) return false;
  }
  return std::nullopt;
}

template <typename T>
std::optional<T> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  int64_t v = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size()) return std::nullopt;
  if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return std::nullopt;
  return static_cast<T>(v);
}

std::optional<double> parse_double(std::string_view s) {
  if (iequals(s, "nan")) return std::nan("");
  if (iequals(s, "infinity") || iequals(s, "inf") || iequals(s, "+infinity")) return HUGE_VAL;
  if (iequals(s, "-infinity") || iequals(s, "-inf")) return -HUGE_VAL;
  const std::string text(s);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || std::isspace(static_cast<unsigned char>(text[0]))) {
    return std::nullopt;
  }
  return v;
}

/// Parses one trimmed string into the target's storage; false when it does not parse or fit.
template <typename T>
bool parse_value(std::string_view s, const LogicalType& target, T& out) {
  if constexpr (std::is_same_v<T, Interval>) {
    auto v = parse_interval(s);
    if (v) out = *v;
    return v.has_value();
  } else if constexpr (std::is_same_v<T, TimestampTz>) {
    auto v = tz::parse_timestamp_tz(s, tz::kUtc);
    if (v) out = *v;
    return v.has_value();
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    auto v = parse_double(s);
    if (!v) return false;
    if constexpr (std::is_same_v<T, float>) {
      if (std::isfinite(*v) && std::fabs(*v) > 3.4028234663852886e38) return false;
    }
    out = static_cast<T>(*v);
    return true;
  } else {
    switch (target.id()) {
      case TypeId::kBoolean: {
        auto v = parse_bool(s);
        if (v) out = static_cast<T>(*v);
        return v.has_value();
      }
      case TypeId::kDecimal: {
        auto v = parse_decimal(s, target.precision(), target.scale());
        if (v) out = static_cast<T>(*v);
        return v.has_value();
      }
      case TypeId::kDate: {
        auto v = parse_date(s);
        if (!v) {
          auto ts = parse_timestamp(s);
          if (!ts) return false;
          v = static_cast<int32_t>(ts.value() >= 0 ? *ts / kMicrosPerDay : -((-*ts - 1) / kMicrosPerDay) - 1);
        }
        out = static_cast<T>(*v);
        return true;
      }
      case TypeId::kTimestamp: {
        auto v = parse_timestamp(s);
        if (v) out = static_cast<T>(*v);
        return v.has_value();
      }
      default: {
        if constexpr (sizeof(T) <= 8) {
          auto v = parse_integer<T>(s);
          if (v) out = *v;
          return v.has_value();
        }
        return false;
      }
    }
  }
}

}  // namespace

Operand cast_to_string(const Operand& in, size_t rows, EvalContext& ctx) {
  const LogicalType& type = in.column->type();
  Validity validity = and_validity({&in}, rows, ctx.memory());
  StringColumnBuilder builder(rows, rows * 8);
  dispatch_fixed(type, [&](auto tag) {
    using T = decltype(tag);
    const T* src = in.data<T>();
    for (size_t i = 0; i < rows; ++i) {
      if (in.valid(i)) append_text(builder.chars(), type, src[in.index(i)]);
      builder.finish_row();
    }
  });
  return Operand{builder.finish(std::move(validity), ctx.memory()), in.constant};
}

Operand cast_from_string(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx) {
  Validity validity = and_validity({&in}, rows, ctx.memory());
  ColumnPtr out = make_output(target, rows, std::move(validity), ctx.memory());
  std::vector<uint8_t> failed;  // try_cast: the rows that do not parse
  dispatch_fixed(target, [&](auto tag) {
    using T = decltype(tag);
    T* dst = out->mutable_data<T>();
    for (size_t i = 0; i < rows; ++i) {
      if (!in.valid(i)) {
        dst[i] = T{};
        continue;
      }
      const std::string_view text = in.string_at(i);
      if (!parse_value<T>(trim_space(text), target, dst[i])) {
        if (!ctx.cast_failures_to_null) raise_cast_error(std::string(text), in.column->type(), target);
        failed.resize(rows, 0);
        failed[i] = 1;
        dst[i] = T{};
      }
    }
  });
  if (!failed.empty()) return Operand{null_failed_rows(out, in, failed, ctx), in.constant};
  return Operand{out, in.constant};
}

}  // namespace kestrel::exec
