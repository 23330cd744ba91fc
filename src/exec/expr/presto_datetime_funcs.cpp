// Presto's date and time functions on the CPU: from_unixtime, to_unixtime, date_format, date_parse and
// format_datetime. Timestamps are UTC microseconds.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "common/time_zone.hpp"
#include "exec/expr/datetime_format.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// The compiled format of each row: once for a constant format, else per row.
class RowFormats {
 public:
  RowFormats(const Operand& format, ScalarFunction f) : reader_(format), constant_(format.constant), function_(f) {
    if (constant_ && format.valid(0)) current_ = compile(reader_[0]);
  }
  const std::vector<FormatPiece>& operator[](size_t row) {
    if (!constant_) current_ = compile(reader_[row]);
    return current_;
  }
  std::string_view text(size_t row) const { return reader_[row]; }

 private:
  std::vector<FormatPiece> compile(std::string_view text) const {
    if (function_ == ScalarFunction::kFormatDatetime) return compile_joda_pattern(text);
    return compile_mysql_format(text, plan::scalar_function_name(function_));
  }

  StringReader reader_;
  bool constant_;
  ScalarFunction function_;
  std::vector<FormatPiece> current_;
};

/// from_unixtime: seconds since 1970 to microseconds, rounded half up (Java's Math.round).
int64_t micros_from_unixtime(double seconds) {
  const double micros = std::floor(seconds * 1e6 + 0.5);
  if (!std::isfinite(micros) || std::fabs(micros) >= 9.2e18) {
    throw InvalidInput("from_unixtime: " + std::to_string(seconds) + " seconds is out of the TIMESTAMP range",
                       "22008");
  }
  return static_cast<int64_t>(micros);
}

}  // namespace

Operand presto_datetime_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows,
                               EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  switch (e.function) {
    case ScalarFunction::kFromUnixtime: {
      const double* seconds = args[0].data<double>();
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        out = micros_from_unixtime(seconds[args[0].index(i)]);
        return true;
      });
    }
    case ScalarFunction::kToUnixtime: {
      const int64_t* micros = args[0].data<int64_t>();
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        out = static_cast<double>(micros[args[0].index(i)]) / 1e6;
        return true;
      });
    }
    case ScalarFunction::kDateFormat:
    case ScalarFunction::kFormatDatetime: {
      const int64_t* micros = args[0].data<int64_t>();
      RowFormats formats(args[1], e.function);
      const bool joda = e.function == ScalarFunction::kFormatDatetime;
      // A TIMESTAMP WITH TIME ZONE arrives as its wall clock and, third, the value itself (its zone's letters).
      const TimestampTz* zoned = args.size() == 3 ? args[2].data<TimestampTz>() : nullptr;
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        const int64_t value = micros[args[0].index(i)];
        if (joda && zoned != nullptr) {
          const TimestampTz& z = zoned[args[2].index(i)];
          append_joda_format(out, value, formats[i], FormatZone{tz::zone_name(z.zone), tz::offset_seconds(z.zone, z.micros)});
        } else if (joda) {
          append_joda_format(out, value, formats[i]);
        } else {
          append_mysql_format(out, value, formats[i]);
        }
        return true;
      });
    }
    case ScalarFunction::kDateParse: {
      const StringReader text(args[0]);
      RowFormats formats(args[1], e.function);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        out = parse_mysql_format(text[i], formats[i], formats.text(i));
        return true;
      });
    }
    default: throw InternalError(std::string("date function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
