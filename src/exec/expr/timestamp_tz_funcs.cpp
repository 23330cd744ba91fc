// TIMESTAMP WITH TIME ZONE functions on the CPU: with_timezone (and the casts to the type), at_timezone,
// timezone_hour/minute, from_unixtime with a zone, from_iso8601_timestamp and the wall-clock / instant helpers the
// binder's rewrites use.

#include <cmath>

#include "common/datetime_ops.hpp"
#include "common/time_zone.hpp"
#include "exec/expr/cast_internal.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// The zone keys of a VARCHAR zone argument, looked up again only when the text changes (once for a constant).
class ZoneArgument {
 public:
  explicit ZoneArgument(const Operand& zones) : zones_(zones) {}
  tz::ZoneKey operator[](size_t row) {
    const std::string_view name = zones_.string_at(row);
    if (!known_ || name != name_) {
      key_ = tz::zone_key(name);
      name_ = std::string(name);
      known_ = true;
    }
    return key_;
  }

 private:
  const Operand& zones_;
  bool known_ = false;
  std::string name_;
  tz::ZoneKey key_ = tz::kUtc;
};

const TimestampTz& tz_at(const Operand& o, size_t row) { return o.data<TimestampTz>()[o.index(row)]; }
int64_t micros_at(const Operand& o, size_t row) { return o.data<int64_t>()[o.index(row)]; }

/// with_timezone(x, zone): a TIMESTAMP or DATE as a wall-clock time in zone, VARCHAR text in its own zone or zone.
Operand with_timezone(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const Operand& x = args[0];
  ZoneArgument zone(args[1]);
  const TypeId source = x.column->type().id();
  return map_rows_to_fixed<TimestampTz>(e.type, args, rows, ctx, [&](size_t i, TimestampTz& out) {
    const tz::ZoneKey key = zone[i];
    if (source == TypeId::kVarchar) {
      const std::string_view text = x.string_at(i);
      auto v = tz::parse_timestamp_tz(text, key);
      if (!v) raise_cast_error(std::string(text), x.column->type(), e.type);
      out = *v;
      return true;
    }
    const int64_t local = source == TypeId::kDate ? int64_t{x.data<int32_t>()[x.index(i)]} * kMicrosPerDay
                                                  : micros_at(x, i);
    out = TimestampTz{tz::local_to_utc(key, local), key, 0};
    return true;
  });
}

/// from_unixtime(seconds, zone) and from_unixtime(seconds, hours, minutes).
Operand from_unixtime_tz(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const double* seconds = args[0].data<double>();
  std::optional<ZoneArgument> zone;
  if (args.size() == 2) zone.emplace(args[1]);
  return map_rows_to_fixed<TimestampTz>(e.type, args, rows, ctx, [&](size_t i, TimestampTz& out) {
    const double s = seconds[args[0].index(i)];
    const double micros = std::floor(s * 1e6 + 0.5);
    if (!std::isfinite(micros) || std::fabs(micros) >= 9.2e18) {
      throw InvalidInput("from_unixtime: " + std::to_string(s) + " seconds is out of the TIMESTAMP range", "22008");
    }
    tz::ZoneKey key;
    if (zone) {
      key = (*zone)[i];
    } else {
      const int64_t hours = args[1].data<int64_t>()[args[1].index(i)];
      const int64_t minutes = args[2].data<int64_t>()[args[2].index(i)];
      if (hours < -14 || hours > 14 || minutes < -59 || minutes > 59) {
        throw InvalidInput("from_unixtime: offset " + std::to_string(hours) + " hours " + std::to_string(minutes) +
                               " minutes is out of range",
                           "22023");
      }
      key = tz::offset_zone_key(hours * 60 + minutes);
    }
    out = TimestampTz{static_cast<int64_t>(micros), key, 0};
    return true;
  });
}

/// from_iso8601_timestamp(text, default zone): ISO 8601 with an optional offset.
Operand from_iso8601_timestamp(const plan::Expr& e, const std::vector<Operand>& args, size_t rows,
                               EvalContext& ctx) {
  ZoneArgument zone(args[1]);
  return map_rows_to_fixed<TimestampTz>(e.type, args, rows, ctx, [&](size_t i, TimestampTz& out) {
    const std::string_view text = args[0].string_at(i);
    std::optional<TimestampTz> v;
    // ISO 8601 writes the date and time with a T and the offset right after them; a named zone is not ISO.
    const size_t t = text.find('T');
    const std::string_view rest = t == std::string_view::npos ? std::string_view() : text.substr(t);
    const bool named = rest.find_first_of("ABCDEFGHIJKLMNOPQRSUVWXYabcdefghijklmnopqrstuvwxyz") != std::string_view::npos;
    if (!named && text.find(' ') == std::string_view::npos) {
      try {
        v = tz::parse_timestamp_tz(text, zone[i]);
      } catch (const InvalidInput&) {
        v.reset();
      }
    }
    if (!v) throw InvalidInput("from_iso8601_timestamp: '" + std::string(text) + "' is not an ISO 8601 timestamp", "22007");
    out = *v;
    return true;
  });
}

}  // namespace

Operand timestamp_tz_cast_kernel(const Operand& in, const LogicalType& target, size_t rows, EvalContext& ctx) {
  const std::vector<Operand> args{in};
  const TypeId source = in.column->type().id();
  if (source != TypeId::kTimestampTz) {  // into the type, in UTC
    plan::Expr e;
    e.type = target;
    const Operand utc{constant_column(Value::varchar("UTC"), TypeId::kVarchar, ctx.memory()), true};
    return with_timezone(e, {in, utc}, rows, ctx);
  }
  switch (target.id()) {
    case TypeId::kVarchar:
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        out += tz::format_timestamp_tz(tz_at(in, i));
        return true;
      });
    case TypeId::kTimestamp:
      return map_rows_to_fixed<int64_t>(target, args, rows, ctx, [&](size_t i, int64_t& out) {
        const TimestampTz& v = tz_at(in, i);
        out = tz::utc_to_local(v.zone, v.micros);
        return true;
      });
    case TypeId::kDate:
      return map_rows_to_fixed<int32_t>(target, args, rows, ctx, [&](size_t i, int32_t& out) {
        const TimestampTz& v = tz_at(in, i);
        out = static_cast<int32_t>(datetime::floor_div64(tz::utc_to_local(v.zone, v.micros), kMicrosPerDay));
        return true;
      });
    default: throw NotImplemented("CAST from TIMESTAMP WITH TIME ZONE to " + target.to_string());
  }
}

Operand timestamp_tz_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  switch (e.function) {
    case ScalarFunction::kWithTimezone: return with_timezone(e, args, rows, ctx);
    case ScalarFunction::kFromUnixtimeTz: return from_unixtime_tz(e, args, rows, ctx);
    case ScalarFunction::kFromIso8601Timestamp: return from_iso8601_timestamp(e, args, rows, ctx);
    case ScalarFunction::kAtTimezone: {
      ZoneArgument zone(args[1]);
      return map_rows_to_fixed<TimestampTz>(e.type, args, rows, ctx, [&](size_t i, TimestampTz& out) {
        out = TimestampTz{tz_at(args[0], i).micros, zone[i], 0};
        return true;
      });
    }
    case ScalarFunction::kTimezoneHour:
    case ScalarFunction::kTimezoneMinute: {
      const bool hour = e.function == ScalarFunction::kTimezoneHour;
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const TimestampTz& v = tz_at(args[0], i);
        const int64_t minutes = tz::offset_seconds(v.zone, v.micros) / 60;
        out = hour ? minutes / 60 : minutes % 60;  // C++ division keeps the offset's sign in both parts
        return true;
      });
    }
    case ScalarFunction::kTzLocal:
    case ScalarFunction::kTzInstant: {
      const bool local = e.function == ScalarFunction::kTzLocal;
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const TimestampTz& v = tz_at(args[0], i);
        out = local ? tz::utc_to_local(v.zone, v.micros) : v.micros;
        return true;
      });
    }
    case ScalarFunction::kTzWithLocal:
    case ScalarFunction::kTzWithInstant: {
      const bool local = e.function == ScalarFunction::kTzWithLocal;
      return map_rows_to_fixed<TimestampTz>(e.type, args, rows, ctx, [&](size_t i, TimestampTz& out) {
        const int64_t t = micros_at(args[0], i);
        const tz::ZoneKey zone = tz_at(args[1], i).zone;
        out = TimestampTz{local ? tz::local_to_utc(zone, t) : t, zone, 0};
        return true;
      });
    }
    default: throw InternalError(std::string("time zone function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
