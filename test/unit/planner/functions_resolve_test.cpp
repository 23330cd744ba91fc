#include <gtest/gtest.h>

#include "planner/functions/function_registry.hpp"
#include "planner/functions/resolve_function.hpp"

namespace kestrel::plan {
namespace {

using F = ScalarFunction;
using Types = std::vector<LogicalType>;

const LogicalType kTiny(TypeId::kTinyInt), kSmall(TypeId::kSmallInt), kInt(TypeId::kInteger),
    kBig(TypeId::kBigInt), kReal(TypeId::kReal), kDouble(TypeId::kDouble), kDate(TypeId::kDate),
    kTs(TypeId::kTimestamp), kVarchar(TypeId::kVarchar), kBool(TypeId::kBoolean), kNull(TypeId::kNull),
    kInterval(TypeId::kInterval);

LogicalType dec(int p, int s) { return LogicalType::decimal(p, s); }

struct ResolveCase {
  F function;
  Types args;
  F expected_function;
  LogicalType result;
  Types arg_types;
};

std::string describe(F f, const Types& args) {
  std::string s = scalar_function_name(f);
  for (const LogicalType& t : args) s += " " + t.to_string();
  return s;
}

void check_cases(const std::vector<ResolveCase>& cases) {
  for (const ResolveCase& c : cases) {
    SCOPED_TRACE(describe(c.function, c.args));
    ResolvedFunction r = resolve_scalar_function(c.function, c.args, std::nullopt);
    EXPECT_EQ(r.function, c.expected_function);
    EXPECT_EQ(r.result, c.result) << r.result.to_string();
    ASSERT_EQ(r.arg_types.size(), c.arg_types.size());
    for (size_t i = 0; i < c.arg_types.size(); ++i) {
      EXPECT_EQ(r.arg_types[i], c.arg_types[i]) << "argument " << i << ": " << r.arg_types[i].to_string();
    }
  }
}

TEST(FunctionsResolve, IntegerAndFloatArithmetic) {
  check_cases({
      {F::kAdd, {kInt, kInt}, F::kAdd, kInt, {kInt, kInt}},
      {F::kAdd, {kTiny, kBig}, F::kAdd, kBig, {kBig, kBig}},
      {F::kDivide, {kInt, kInt}, F::kDivide, kInt, {kInt, kInt}},
      {F::kModulo, {kSmall, kInt}, F::kModulo, kInt, {kInt, kInt}},
      {F::kMultiply, {kInt, kDouble}, F::kMultiply, kDouble, {kDouble, kDouble}},
      {F::kSubtract, {kReal, kInt}, F::kSubtract, kReal, {kReal, kReal}},
      {F::kAdd, {dec(15, 2), kReal}, F::kAdd, kDouble, {kDouble, kDouble}},
      {F::kAdd, {kNull, kInt}, F::kAdd, kInt, {kInt, kInt}},
      {F::kAdd, {kNull, kNull}, F::kAdd, kInt, {kInt, kInt}},
      {F::kNegate, {kBig}, F::kNegate, kBig, {kBig}},
      {F::kNegate, {kInterval}, F::kIntervalNegate, kInterval, {kInterval}},
  });
}

TEST(FunctionsResolve, DecimalArithmetic) {
  check_cases({
      // TPC-H Q1: l_extendedprice * (1 - l_discount) * (1 + l_tax)
      {F::kSubtract, {kInt, dec(15, 2)}, F::kSubtract, dec(16, 2), {dec(16, 2), dec(16, 2)}},
      {F::kMultiply, {dec(15, 2), dec(16, 2)}, F::kMultiply, dec(31, 4), {dec(15, 2), dec(16, 2)}},
      {F::kMultiply, {dec(31, 4), dec(16, 2)}, F::kMultiply, dec(38, 6), {dec(31, 4), dec(16, 2)}},
      {F::kMultiply, {dec(15, 2), dec(15, 2)}, F::kMultiply, dec(30, 4), {dec(15, 2), dec(15, 2)}},
      {F::kAdd, {dec(12, 2), dec(10, 4)}, F::kAdd, dec(15, 4), {dec(15, 4), dec(15, 4)}},
      {F::kAdd, {kBig, dec(4, 2)}, F::kAdd, dec(22, 2), {dec(22, 2), dec(22, 2)}},
      {F::kMultiply, {kInt, dec(15, 2)}, F::kMultiply, dec(25, 2), {dec(10, 0), dec(15, 2)}},
      {F::kDivide, {dec(15, 2), dec(15, 2)}, F::kDivide, dec(21, 6), {dec(15, 2), dec(15, 2)}},
      {F::kDivide, {dec(38, 4), kInt}, F::kDivide, dec(38, 6), {dec(38, 4), dec(10, 0)}},
      {F::kModulo, {dec(15, 2), dec(7, 3)}, F::kModulo, dec(7, 3), {dec(16, 3), dec(7, 3)}},
      // s1 + s2 = 40 > 38: the larger scale loses 2 digits first.
      {F::kMultiply, {dec(38, 30), dec(20, 10)}, F::kMultiply, dec(38, 38), {dec(36, 28), dec(20, 10)}},
      {F::kMultiply, {dec(38, 20), dec(38, 20)}, F::kMultiply, dec(38, 38), {dec(36, 18), dec(38, 20)}},
  });
}

TEST(FunctionsResolve, DateAndIntervalArithmetic) {
  check_cases({
      {F::kSubtract, {kDate, kInterval}, F::kDateSubtractInterval, kDate, {kDate, kInterval}},
      {F::kAdd, {kDate, kInterval}, F::kDateAddInterval, kDate, {kDate, kInterval}},
      {F::kAdd, {kInterval, kDate}, F::kDateAddInterval, kDate, {kInterval, kDate}},
      {F::kAdd, {kTs, kInterval}, F::kDateAddInterval, kTs, {kTs, kInterval}},
      {F::kSubtract, {kTs, kInterval}, F::kDateSubtractInterval, kTs, {kTs, kInterval}},
      {F::kSubtract, {kDate, kDate}, F::kDateDiffDays, kInt, {kDate, kDate}},
      {F::kAdd, {kDate, kSmall}, F::kDateAddDays, kDate, {kDate, kInt}},
      {F::kAdd, {kBig, kDate}, F::kDateAddDays, kDate, {kInt, kDate}},
      {F::kSubtract, {kDate, kInt}, F::kDateSubtractDays, kDate, {kDate, kInt}},
      {F::kAdd, {kInterval, kInterval}, F::kIntervalAdd, kInterval, {kInterval, kInterval}},
      {F::kDateAddInterval, {kDate, kInterval}, F::kDateAddInterval, kDate, {kDate, kInterval}},
  });
}

TEST(FunctionsResolve, ComparisonsCastToCommonSuperType) {
  check_cases({
      {F::kEqual, {kInt, kBig}, F::kEqual, kBool, {kBig, kBig}},
      {F::kLess, {kDate, kTs}, F::kLess, kBool, {kTs, kTs}},
      {F::kGreaterEqual, {dec(15, 2), kInt}, F::kGreaterEqual, kBool, {dec(15, 2), dec(15, 2)}},
      {F::kNotEqual, {kVarchar, kVarchar}, F::kNotEqual, kBool, {kVarchar, kVarchar}},
      {F::kIsDistinctFrom, {kNull, kDouble}, F::kIsDistinctFrom, kBool, {kDouble, kDouble}},
      {F::kEqual, {kNull, kNull}, F::kEqual, kBool, {kBool, kBool}},
  });
}

TEST(FunctionsResolve, StringFunctions) {
  check_cases({
      {F::kLength, {kVarchar}, F::kLength, kBig, {kVarchar}},
      {F::kUpper, {kNull}, F::kUpper, kVarchar, {kVarchar}},
      {F::kSubstring, {kVarchar, kInt}, F::kSubstring, kVarchar, {kVarchar, kBig}},
      {F::kSubstring, {kVarchar, kTiny, kSmall}, F::kSubstring, kVarchar, {kVarchar, kBig, kBig}},
      {F::kPosition, {kVarchar, kVarchar}, F::kPosition, kBig, {kVarchar, kVarchar}},
      {F::kStartsWith, {kVarchar, kVarchar}, F::kStartsWith, kBool, {kVarchar, kVarchar}},
      {F::kReplace, {kVarchar, kVarchar, kVarchar}, F::kReplace, kVarchar, {kVarchar, kVarchar, kVarchar}},
      {F::kTrim, {kVarchar, kVarchar}, F::kTrim, kVarchar, {kVarchar, kVarchar}},
      {F::kLike, {kVarchar, kVarchar}, F::kLike, kBool, {kVarchar, kVarchar}},
      {F::kNotLike, {kVarchar, kVarchar, kVarchar}, F::kNotLike, kBool, {kVarchar, kVarchar, kVarchar}},
      {F::kConcat, {kVarchar, kInt, kDate}, F::kConcat, kVarchar, {kVarchar, kVarchar, kVarchar}},
  });
}

TEST(FunctionsResolve, MathFunctions) {
  check_cases({
      {F::kAbs, {kInt}, F::kAbs, kInt, {kInt}},
      {F::kAbs, {dec(15, 2)}, F::kAbs, dec(15, 2), {dec(15, 2)}},
      {F::kRound, {kDouble}, F::kRound, kDouble, {kDouble}},
      {F::kRound, {dec(15, 2)}, F::kRound, dec(14, 0), {dec(15, 2)}},
      {F::kRound, {dec(15, 0)}, F::kRound, dec(15, 0), {dec(15, 0)}},
      {F::kRound, {dec(15, 2), kBig}, F::kRound, dec(16, 2), {dec(15, 2), kInt}},
      {F::kRound, {dec(38, 2), kInt}, F::kRound, dec(38, 2), {dec(38, 2), kInt}},
      {F::kRound, {kBig, kInt}, F::kRound, kBig, {kBig, kInt}},
      {F::kFloor, {dec(10, 3)}, F::kFloor, dec(8, 0), {dec(10, 3)}},
      {F::kCeil, {kReal}, F::kCeil, kReal, {kReal}},
      {F::kSign, {dec(10, 3)}, F::kSign, dec(1, 0), {dec(10, 3)}},
      {F::kSqrt, {kInt}, F::kSqrt, kDouble, {kDouble}},
      {F::kPower, {kInt, dec(3, 1)}, F::kPower, kDouble, {kDouble, kDouble}},
      {F::kLn, {dec(5, 2)}, F::kLn, kDouble, {kDouble}},
  });
}

TEST(FunctionsResolve, DateFunctionsAndConditionals) {
  check_cases({
      {F::kExtract, {kVarchar, kDate}, F::kExtract, kBig, {kVarchar, kDate}},
      {F::kExtract, {kVarchar, kInterval}, F::kExtract, kBig, {kVarchar, kInterval}},
      {F::kDateTrunc, {kVarchar, kDate}, F::kDateTrunc, kDate, {kVarchar, kDate}},
      {F::kDateTrunc, {kVarchar, kTs}, F::kDateTrunc, kTs, {kVarchar, kTs}},
      {F::kCoalesce, {kNull, kInt, kBig}, F::kCoalesce, kBig, {kBig, kBig, kBig}},
      {F::kCoalesce, {kNull}, F::kCoalesce, kVarchar, {kVarchar}},
      {F::kNullIf, {kInt, dec(5, 1)}, F::kNullIf, dec(11, 1), {dec(11, 1), dec(11, 1)}},
      {F::kGreatest, {kDate, kTs}, F::kGreatest, kTs, {kTs, kTs}},
      {F::kLeast, {kVarchar, kVarchar, kNull}, F::kLeast, kVarchar, {kVarchar, kVarchar, kVarchar}},
  });
}

void expect_error(F f, const Types& args, const std::string& message) {
  SCOPED_TRACE(describe(f, args));
  try {
    resolve_scalar_function(f, args, SourcePosition{2, 7, 15});
    ADD_FAILURE() << "expected a BinderError";
  } catch (const BinderError& e) {
    EXPECT_EQ(e.code(), "42883");
    EXPECT_EQ(e.message(), message);
    ASSERT_TRUE(e.position().has_value());
    EXPECT_EQ(e.position()->line, 2u);
    EXPECT_EQ(e.position()->column, 7u);
  }
}

TEST(FunctionsResolve, PrestoTextAndDateFunctions) {
  check_cases({
      {F::kRegexpLike, {kVarchar, kNull}, F::kRegexpLike, kBool, {kVarchar, kVarchar}},
      {F::kRegexpExtract, {kVarchar, kVarchar, kInt}, F::kRegexpExtract, kVarchar, {kVarchar, kVarchar, kBig}},
      {F::kRegexpPosition, {kVarchar, kVarchar, kTiny, kBig}, F::kRegexpPosition, kInt,
       {kVarchar, kVarchar, kBig, kBig}},
      {F::kRegexpCount, {kVarchar, kVarchar}, F::kRegexpCount, kBig, {kVarchar, kVarchar}},
      {F::kUrlExtractPort, {kVarchar}, F::kUrlExtractPort, kBig, {kVarchar}},
      {F::kLevenshteinDistance, {kVarchar, kVarchar}, F::kLevenshteinDistance, kBig, {kVarchar, kVarchar}},
      {F::kFromUnixtime, {kInt}, F::kFromUnixtime, kTs, {kDouble}},
      {F::kToUnixtime, {kDate}, F::kToUnixtime, kDouble, {kTs}},
      {F::kDateFormat, {kDate, kVarchar}, F::kDateFormat, kVarchar, {kTs, kVarchar}},
      {F::kDateParse, {kVarchar, kVarchar}, F::kDateParse, kTs, {kVarchar, kVarchar}},
      {F::kWidthBucket, {dec(5, 2), kInt, kDouble, kInt}, F::kWidthBucket, kBig, {kDouble, kDouble, kDouble, kBig}},
      {F::kRandom, {}, F::kRandom, kDouble, {}},
      {F::kRandom, {kSmall}, F::kRandom, kSmall, {kSmall}},
      {F::kTry, {dec(5, 2)}, F::kTry, dec(5, 2), {dec(5, 2)}},
  });
  expect_error(F::kRegexpLike, {kVarchar, kInt}, "no function matches regexp_like(VARCHAR, INTEGER)");
  expect_error(F::kRandom, {kDouble}, "no function matches random(DOUBLE)");
  expect_error(F::kDateFormat, {kVarchar, kVarchar}, "no function matches date_format(VARCHAR, VARCHAR)");
}

TEST(FunctionsResolve, ErrorsNameTheFunctionAndTypes) {
  expect_error(F::kSubstring, {kInt, kVarchar}, "no function matches substring(INTEGER, VARCHAR)");
  expect_error(F::kAdd, {kInt, kVarchar}, "no operator matches INTEGER + VARCHAR");
  expect_error(F::kMultiply, {kDate, kInt}, "no operator matches DATE * INTEGER");
  expect_error(F::kSubtract, {kInterval, kDate}, "no operator matches INTERVAL - DATE");
  expect_error(F::kEqual, {kVarchar, kInt}, "no operator matches VARCHAR = INTEGER");
  expect_error(F::kNegate, {kVarchar}, "no operator matches -VARCHAR");
  expect_error(F::kLength, {kInt}, "no function matches length(INTEGER)");
  expect_error(F::kAbs, {kVarchar}, "no function matches abs(VARCHAR)");
  expect_error(F::kExtract, {kVarchar, kInt}, "no function matches extract(VARCHAR, INTEGER)");
  expect_error(F::kDateTrunc, {kVarchar, kInterval}, "no function matches date_trunc(VARCHAR, INTERVAL)");
  expect_error(F::kCoalesce, {kInt, kDate}, "no function matches coalesce(INTEGER, DATE)");
  expect_error(F::kRound, {dec(5, 2), kDouble}, "no function matches round(DECIMAL(5,2), DOUBLE)");
  expect_error(F::kLike, {kVarchar, kInt}, "no operator matches VARCHAR LIKE INTEGER");
}

TEST(FunctionsResolve, DateParts) {
  EXPECT_EQ(resolve_date_part(F::kExtract, "YEAR", std::nullopt), DatePart::kYear);
  EXPECT_EQ(resolve_date_part(F::kExtract, "dow", std::nullopt), DatePart::kDayOfWeek);
  EXPECT_EQ(resolve_date_part(F::kDateTrunc, "quarter", std::nullopt), DatePart::kQuarter);
  EXPECT_THROW(resolve_date_part(F::kExtract, "fortnight", std::nullopt), BinderError);
  EXPECT_THROW(resolve_date_part(F::kDateTrunc, "dow", std::nullopt), BinderError);
}

TEST(FunctionsLookup, NamesAndArgumentCounts) {
  EXPECT_EQ(lookup_scalar_function("SUBSTR", 3), F::kSubstring);
  EXPECT_EQ(lookup_scalar_function("substring", 2), F::kSubstring);
  EXPECT_EQ(lookup_scalar_function("substring", 4), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("ceiling", 1), F::kCeil);
  EXPECT_EQ(lookup_scalar_function("pow", 2), F::kPower);
  EXPECT_EQ(lookup_scalar_function("char_length", 1), F::kLength);
  EXPECT_EQ(lookup_scalar_function("character_length", 1), F::kLength);
  EXPECT_EQ(lookup_scalar_function("concat", 5), F::kConcat);
  EXPECT_EQ(lookup_scalar_function("coalesce", 0), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("-", 1), F::kNegate);
  EXPECT_EQ(lookup_scalar_function("-", 2), F::kSubtract);
  EXPECT_EQ(lookup_scalar_function("mod", 2), F::kModulo);
  EXPECT_EQ(lookup_scalar_function("date_part", 2), F::kExtract);
  EXPECT_EQ(lookup_scalar_function("date_add", 3), F::kDateAdd);
  EXPECT_EQ(lookup_scalar_function("date_add", 2), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("LPAD", 3), F::kLpad);
  EXPECT_EQ(lookup_scalar_function("split_part", 2), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("sum", 1), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("regexp_extract", 3), F::kRegexpExtract);
  EXPECT_EQ(lookup_scalar_function("regexp_extract", 4), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("regexp_position", 4), F::kRegexpPosition);
  EXPECT_EQ(lookup_scalar_function("rand", 0), F::kRandom);
  EXPECT_EQ(lookup_scalar_function("random", 2), std::nullopt);
  // Names the binder rewrites are not scalar functions of the registry's lookup.
  EXPECT_EQ(lookup_scalar_function("typeof", 1), std::nullopt);
  EXPECT_EQ(lookup_scalar_function("year", 1), std::nullopt);
  EXPECT_TRUE(function_swaps_arguments("STRPOS"));
  EXPECT_FALSE(function_swaps_arguments("position"));
  EXPECT_TRUE(is_scalar_function_name("Upper"));
  EXPECT_FALSE(is_scalar_function_name("count"));
}

}  // namespace
}  // namespace kestrel::plan
