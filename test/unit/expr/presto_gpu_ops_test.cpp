// The per-row functions the GPU evaluates Presto's string and date functions with (presto_string_ops.hpp,
// presto_datetime_ops.hpp), run here on the host against the CPU evaluator on the same values: results, NULLs
// (split_part past the last field) and errors must agree for every combination of the test values (empty strings,
// multi-byte characters, invalid UTF-8, far dates, overflowing amounts). The GPU kernels only add row access and
// validity around these functions (test/gpu/expr_gpu_test.cpp compares whole evaluations on a device).

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "exec/expr/presto_datetime_ops.hpp"
#include "exec/expr/presto_string_ops.hpp"
#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

using presto_ops::Text;

/// What one evaluation gave: an error, NULL, or a value.
struct Outcome {
  bool error = false;
  bool null = false;
  Value value;

  bool operator==(const Outcome& o) const {
    return error == o.error && null == o.null && (error || null || value == o.value);
  }
};

std::string describe(const Outcome& o) { return o.error ? "error" : o.null ? "NULL" : o.value.to_string(); }

/// `f` of constant arguments on the CPU.
Outcome cpu(F f, LogicalType type, const std::vector<Value>& args) {
  std::vector<ExprPtr> operands;
  for (const Value& v : args) operands.push_back(lit(v));
  try {
    EvalContext ctx;
    ColumnPtr c = evaluate(*fn(f, type, operands), make_batch({}, 1), ctx);
    if (!c->is_valid(0)) return Outcome{false, true, {}};
    return Outcome{false, false, c->value_at(0)};
  } catch (const InvalidInput&) {
    return Outcome{true, false, {}};
  }
}

/// A VARCHAR row function's outcome: measured (no output), then written; both passes must give one length.
Outcome built(const std::function<int64_t(char*)>& row) {
  const int64_t length = row(nullptr);
  if (length == presto_ops::kFailedRow) return Outcome{true, false, {}};
  if (length == presto_ops::kNullRow) return Outcome{false, true, {}};
  std::string out(static_cast<size_t>(length), '\0');
  EXPECT_EQ(row(out.data()), length);
  return Outcome{false, false, Value::varchar(out)};
}

template <typename T>
Outcome measured(bool failed, T value, Value (*make)(T)) {
  if (failed) return Outcome{true, false, {}};
  return Outcome{false, false, make(value)};
}

Text text(const std::string& s) { return Text{s.data(), static_cast<int64_t>(s.size())}; }

/// Printable bytes of a test string (non-ASCII as \xNN).
std::string escaped(const std::string& s) {
  std::string out = "'";
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      static const char* const kHex = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out + "'";
}

const std::vector<std::string> kStrings = {
    "", "a", "abc", "ab", "ba", "h\xC3\xA9llo", "hallo", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "a,b,,c", ",", ",,a,,",
    "x\x80y", "\x80", "\xC3", "\xC3" "a", "a\xC3", "\xF0\x9F\x98\x80!", "\xF0\x9F", "\xE6\x97", "\xC1\x81", "A", "aaaa",
    "abcabcabc", "mixed \xC3\xA9,\xE6\x97\xA5,x", "kitten", "sitting", "\xC3\xA9", "\xC3\xA9" "e", "bc", "c"};

Value varchar_of(const std::string& s) { return Value::varchar(s); }

TEST(PrestoGpuOps, StringBuildersMatchTheCpu) {
  const LogicalType S = kVarchar;
  size_t compared = 0;
  auto check = [&](const Outcome& want, const Outcome& got, const std::string& what) {
    EXPECT_TRUE(want == got) << what << ": cpu " << describe(want) << ", gpu rule " << describe(got);
    ++compared;
  };
  for (const std::string& s : kStrings) {
    const Text st = text(s);
    check(cpu(F::kReverse, S, {varchar_of(s)}), built([&](char* o) { return presto_ops::reverse_row(st, o); }),
          "reverse(" + escaped(s) + ")");
    for (int64_t n : {int64_t{-5}, int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}, int64_t{7}, int64_t{40},
                      int64_t{2147483647} + 1}) {
      check(cpu(F::kTrail, S, {varchar_of(s), Value::bigint(n)}),
            built([&](char* o) { return presto_ops::trail_row(st, n, o); }), "trail(" + escaped(s) + ")");
      for (const std::string& pad : {std::string(""), std::string("x"), std::string("ab"), std::string("\xC3\xA9"),
                                     std::string("\xE6\x97\xA5\xE6\x9C\xAC"), std::string("\x80"), std::string("\xC3"),
                                     std::string("\xC3" "a-")}) {
        if (n > 1000) continue;  // the CPU would build a 2^31-character string before the check below fails
        for (F f : {F::kLpad, F::kRpad}) {
          check(cpu(f, S, {varchar_of(s), Value::bigint(n), varchar_of(pad)}),
                built([&](char* o) { return presto_ops::pad_row(st, n, text(pad), f == F::kLpad, o); }),
                std::string(f == F::kLpad ? "lpad(" : "rpad(") + escaped(s) + ", " + std::to_string(n) + ", " +
                    escaped(pad) + ")");
        }
      }
    }
    check(cpu(F::kLpad, S, {varchar_of(s), Value::bigint(int64_t{2147483647} + 1), varchar_of("x")}),
          built([&](char* o) { return presto_ops::pad_row(st, int64_t{2147483647} + 1, text("x"), true, o); }),
          "lpad past 2^31");
    for (const std::string& t : kStrings) {
      const Text tt = text(t);
      check(cpu(F::kLongestCommonPrefix, S, {varchar_of(s), varchar_of(t)}),
            built([&](char* o) { return presto_ops::common_prefix_row(st, tt, o); }),
            "longest_common_prefix(" + escaped(s) + ", " + escaped(t) + ")");
      for (const std::string& r : {std::string(""), std::string("<\xC3\xA9>")}) {
        check(cpu(F::kReplaceFirst, S, {varchar_of(s), varchar_of(t), varchar_of(r)}),
              built([&](char* o) { return presto_ops::replace_first_row(st, tt, text(r), o); }),
              "replace_first(" + escaped(s) + ", " + escaped(t) + ", " + escaped(r) + ")");
      }
      for (int64_t index : {int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}, int64_t{5},
                            std::numeric_limits<int64_t>::max()}) {
        check(cpu(F::kSplitPart, S, {varchar_of(s), varchar_of(t), Value::bigint(index)}),
              built([&](char* o) { return presto_ops::split_part_row(st, tt, index, o); }),
              "split_part(" + escaped(s) + ", " + escaped(t) + ", " + std::to_string(index) + ")");
      }
    }
  }
  for (int64_t cp : {int64_t{-1}, int64_t{0}, int64_t{65}, int64_t{0x7F}, int64_t{0x80}, int64_t{233}, int64_t{0x7FF},
                     int64_t{0x800}, int64_t{0xD7FF}, int64_t{0xD800}, int64_t{0xDFFF}, int64_t{0xE000}, int64_t{0xFFFF},
                     int64_t{0x10000}, int64_t{0x1F600}, int64_t{0x10FFFF}, int64_t{0x110000},
                     std::numeric_limits<int64_t>::max()}) {
    check(cpu(F::kChr, S, {Value::bigint(cp)}), built([&](char* o) { return presto_ops::chr_row(cp, o); }),
          "chr(" + std::to_string(cp) + ")");
  }
  EXPECT_GT(compared, 10000u);
}

TEST(PrestoGpuOps, StringMeasuresMatchTheCpu) {
  const LogicalType B = kBig, BOOL = kBool;
  size_t compared = 0;
  auto check = [&](const Outcome& want, const Outcome& got, const std::string& what) {
    EXPECT_TRUE(want == got) << what << ": cpu " << describe(want) << ", gpu rule " << describe(got);
    ++compared;
  };
  auto levenshtein = [](const std::string& a, const std::string& b) {
    const Text x = text(a), y = text(b);
    const int64_t lx = presto_ops::decoded_length(x), ly = presto_ops::decoded_length(y);
    if (presto_ops::levenshtein_too_long(lx, ly)) return Outcome{true, false, {}};
    std::vector<int32_t> row(static_cast<size_t>(std::min(lx, ly) + 1));
    const int64_t d = lx < ly ? presto_ops::levenshtein_row(y, x, lx, row.data())
                              : presto_ops::levenshtein_row(x, y, ly, row.data());
    return Outcome{false, false, Value::bigint(d)};
  };
  for (const std::string& s : kStrings) {
    const Text st = text(s);
    int32_t cp = 0;
    const bool cp_failed = presto_ops::codepoint_row(st, cp);
    check(cpu(F::kCodepoint, kInt, {varchar_of(s)}), measured<int32_t>(cp_failed, cp, Value::integer),
          "codepoint(" + escaped(s) + ")");
    check(cpu(F::kBitLength, B, {varchar_of(s)}), Outcome{false, false, Value::bigint(st.size * 8)}, "bit_length");
    for (const std::string& t : kStrings) {
      const Text tt = text(t);
      const std::string args = "(" + escaped(s) + ", " + escaped(t) + ")";
      check(cpu(F::kEndsWith, BOOL, {varchar_of(s), varchar_of(t)}),
            Outcome{false, false, Value::boolean(presto_ops::ends_with_row(st, tt))}, "ends_with" + args);
      int64_t h = 0;
      const bool h_failed = presto_ops::hamming_row(st, tt, h);
      check(cpu(F::kHammingDistance, B, {varchar_of(s), varchar_of(t)}), measured<int64_t>(h_failed, h, Value::bigint),
            "hamming_distance" + args);
      check(cpu(F::kLevenshteinDistance, B, {varchar_of(s), varchar_of(t)}), levenshtein(s, t),
            "levenshtein_distance" + args);
      int64_t p = 0;
      const bool p_failed = presto_ops::strrpos_row(st, tt, 1, p);
      check(cpu(F::kStrrpos, B, {varchar_of(s), varchar_of(t)}), measured<int64_t>(p_failed, p, Value::bigint),
            "strrpos" + args);
      for (int64_t n : {int64_t{-2}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}, std::numeric_limits<int64_t>::max()}) {
        const bool n_failed = presto_ops::strrpos_row(st, tt, n, p);
        check(cpu(F::kStrrpos, B, {varchar_of(s), varchar_of(t), Value::bigint(n)}),
              measured<int64_t>(n_failed, p, Value::bigint), "strrpos" + args + " instance " + std::to_string(n));
      }
    }
  }
  // levenshtein_distance's limit: 1000 x 1000 characters is the most it takes.
  const std::string thousand(1000, 'a'), thousand_one = thousand + "b", other(1000, 'b');
  check(cpu(F::kLevenshteinDistance, B, {varchar_of(thousand), varchar_of(other)}), levenshtein(thousand, other),
        "levenshtein 1000 x 1000");
  check(cpu(F::kLevenshteinDistance, B, {varchar_of(thousand_one), varchar_of(other)}),
        levenshtein(thousand_one, other), "levenshtein 1001 x 1000");
  check(cpu(F::kLevenshteinDistance, B, {varchar_of(thousand_one), varchar_of("ab")}),
        levenshtein(thousand_one, "ab"), "levenshtein 1001 x 2");
  EXPECT_GT(compared, 5000u);
}

const std::vector<int32_t> kDays = {0, -1, 1, 19782, 19783, 11016, 10956, 2932896, -141427, 19753, 18630, 18627,
                                    -719162, -719468, -719469, -2'000'000'000, 2'000'000'000, -100'000'000,
                                    100'000'000, 18993};
const std::vector<int64_t> kMicros = {0, -1, 1, 86'399'999'999, 951868800123456, 1709164800000001,
                                      -62135596800000000, 253402300799999999, -8'900'000'000'000'000'000,
                                      8'900'000'000'000'000'000, std::numeric_limits<int64_t>::max() / 2};

TEST(PrestoGpuOps, DateFunctionsMatchTheCpu) {
  const LogicalType D = kDate, TS = kTs, B = kBig;
  size_t compared = 0;
  auto check = [&](const Outcome& want, const Outcome& got, const std::string& what) {
    EXPECT_TRUE(want == got) << what << ": cpu " << describe(want) << ", gpu rule " << describe(got);
    ++compared;
  };
  auto ok = [](Value v) { return Outcome{false, false, std::move(v)}; };
  for (int32_t d : kDays) {
    const std::string at = "(" + std::to_string(d) + ")";
    check(cpu(F::kYearOfWeek, B, {Value::date(d)}), ok(Value::bigint(presto_ops::year_of_week(d))), "year_of_week" + at);
    check(cpu(F::kLastDayOfMonth, D, {Value::date(d)}), ok(Value::date(presto_ops::last_day_of_month(d))),
          "last_day_of_month" + at);
  }
  for (int64_t t : kMicros) {
    const std::string at = "(" + std::to_string(t) + ")";
    const int32_t day = presto_ops::day_of_timestamp(t);
    check(cpu(F::kYearOfWeek, B, {Value::timestamp(t)}), ok(Value::bigint(presto_ops::year_of_week(day))),
          "year_of_week" + at);
    check(cpu(F::kLastDayOfMonth, D, {Value::timestamp(t)}), ok(Value::date(presto_ops::last_day_of_month(day))),
          "last_day_of_month" + at);
    check(cpu(F::kToUnixtime, kDouble, {Value::timestamp(t)}), ok(Value::double_value(presto_ops::to_unixtime(t))),
          "to_unixtime" + at);
  }
  const std::vector<int64_t> amounts = {0, 1, -1, 12, -13, 59, 400, -400, 100000, 60'000'000, -60'000'001,
                                        3'000'000'000, 106'751'991'167'300, std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min()};
  for (const char* unit : {"day", "week", "month", "quarter", "year", "hour", "minute", "second", "millisecond"}) {
    const DatePart part = *parse_date_part(unit);
    const int64_t months_per = datetime::months_per_unit(part), unit_micros = datetime::micros_per_unit(part);
    const bool clock = months_per == 0 && unit_micros < kMicrosPerDay;
    for (int64_t n : amounts) {
      const std::string what = std::string("date_add('") + unit + "', " + std::to_string(n) + ", ";
      if (!clock) {
        for (int32_t d : kDays) {
          int32_t r = 0;
          const bool failed = presto_ops::date_add_date(months_per, unit_micros, n, d, r);
          check(cpu(F::kDateAdd, D, {Value::varchar(unit), Value::bigint(n), Value::date(d)}),
                failed ? Outcome{true, false, {}} : ok(Value::date(r)), what + std::to_string(d) + ")");
        }
      }
      for (int64_t t : kMicros) {
        int64_t r = 0;
        const bool failed = presto_ops::date_add_timestamp(months_per, unit_micros, n, t, r);
        check(cpu(F::kDateAdd, TS, {Value::varchar(unit), Value::bigint(n), Value::timestamp(t)}),
              failed ? Outcome{true, false, {}} : ok(Value::timestamp(r)), what + std::to_string(t) + ")");
      }
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  for (double x : {0.0, -0.0, 1.5, -1.5, 1715954589.5, 4.9999999e-7, 5e-7, -5e-7, 1e-7, 0.1234565, 2.5e-6, -2.5e-6,
                   9.1e12, -9.1e12, 9.2e12, -9.3e12, 1e300, std::nan(""), inf, -inf, 1234567.0000005}) {
    int64_t r = 0;
    const bool failed = presto_ops::from_unixtime(x, r);
    check(cpu(F::kFromUnixtime, TS, {Value::double_value(x)}), failed ? Outcome{true, false, {}} : ok(Value::timestamp(r)),
          "from_unixtime(" + std::to_string(x) + ")");
  }
  EXPECT_GT(compared, 1000u);
}

}  // namespace
}  // namespace kestrel::exec::testing
