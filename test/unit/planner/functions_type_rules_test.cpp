#include <gtest/gtest.h>

#include "planner/functions/literal_types.hpp"
#include "planner/functions/type_rules.hpp"

namespace kestrel::plan {
namespace {

const LogicalType kTiny(TypeId::kTinyInt), kSmall(TypeId::kSmallInt), kInt(TypeId::kInteger),
    kBig(TypeId::kBigInt), kReal(TypeId::kReal), kDouble(TypeId::kDouble), kDate(TypeId::kDate),
    kTs(TypeId::kTimestamp), kVarchar(TypeId::kVarchar), kBool(TypeId::kBoolean), kNull(TypeId::kNull),
    kInterval(TypeId::kInterval);

LogicalType dec(int p, int s) { return LogicalType::decimal(p, s); }

struct SuperCase {
  LogicalType a, b;
  std::optional<LogicalType> expected;
};

TEST(FunctionsTypeRules, CommonSuperTypeTable) {
  const SuperCase cases[] = {
      {kInt, kInt, kInt},
      {kTiny, kSmall, kSmall},
      {kInt, kBig, kBig},
      {kSmall, kTiny, kSmall},
      {kInt, kReal, kReal},
      {kBig, kDouble, kDouble},
      {kReal, kDouble, kDouble},
      {dec(15, 2), kReal, kDouble},
      {dec(15, 2), kDouble, kDouble},
      {kTiny, dec(5, 2), dec(5, 2)},      // DECIMAL(3,0) meets (5,2): 3 integer digits + 2
      {kInt, dec(15, 2), dec(15, 2)},     // (10,0) fits in 13 integer digits
      {kInt, dec(4, 2), dec(12, 2)},      // 10 integer digits + 2
      {kBig, dec(4, 2), dec(21, 2)},      // 19 integer digits + 2
      {dec(10, 5), dec(12, 2), dec(15, 5)},
      {dec(38, 10), dec(38, 0), dec(38, 10)},  // capped at 38
      {kDate, kTs, kTs},
      {kTs, kDate, kTs},
      {kNull, kVarchar, kVarchar},
      {kDate, kNull, kDate},
      {kVarchar, kVarchar, kVarchar},
      {kBool, kBool, kBool},
      {kInterval, kInterval, kInterval},
      {kVarchar, kInt, std::nullopt},
      {kDate, kInt, std::nullopt},
      {kBool, kInt, std::nullopt},
      {kVarchar, kDate, std::nullopt},
      {kInterval, kDate, std::nullopt},
  };
  for (const SuperCase& c : cases) {
    SCOPED_TRACE(c.a.to_string() + " vs " + c.b.to_string());
    EXPECT_EQ(common_super_type(c.a, c.b), c.expected);
  }
}

TEST(FunctionsTypeRules, CommonSuperTypeOfList) {
  EXPECT_EQ(common_super_type(std::vector<LogicalType>{kTiny, kNull, kInt, dec(5, 3)}), dec(13, 3));
  EXPECT_EQ(common_super_type(std::vector<LogicalType>{kNull, kNull}), kNull);
  EXPECT_EQ(common_super_type(std::vector<LogicalType>{kInt, kVarchar}), std::nullopt);
  EXPECT_EQ(common_super_type(std::vector<LogicalType>{}), std::nullopt);
}

TEST(FunctionsTypeRules, ImplicitCasts) {
  EXPECT_TRUE(can_implicitly_cast(kTiny, kBig));
  EXPECT_FALSE(can_implicitly_cast(kBig, kInt));
  EXPECT_TRUE(can_implicitly_cast(kInt, dec(10, 0)));
  EXPECT_TRUE(can_implicitly_cast(kInt, dec(12, 2)));
  EXPECT_FALSE(can_implicitly_cast(kInt, dec(11, 2)));  // only 9 integer digits
  EXPECT_TRUE(can_implicitly_cast(dec(5, 2), dec(7, 3)));
  EXPECT_FALSE(can_implicitly_cast(dec(5, 2), dec(5, 3)));
  EXPECT_FALSE(can_implicitly_cast(dec(5, 2), dec(6, 1)));
  EXPECT_TRUE(can_implicitly_cast(dec(5, 2), kDouble));
  EXPECT_FALSE(can_implicitly_cast(dec(5, 2), kReal));
  EXPECT_TRUE(can_implicitly_cast(kBig, kReal));
  EXPECT_FALSE(can_implicitly_cast(kDouble, kReal));
  EXPECT_FALSE(can_implicitly_cast(kDouble, dec(38, 10)));
  EXPECT_TRUE(can_implicitly_cast(kDate, kTs));
  EXPECT_FALSE(can_implicitly_cast(kTs, kDate));
  EXPECT_TRUE(can_implicitly_cast(kNull, kVarchar));
  EXPECT_FALSE(can_implicitly_cast(kVarchar, kDate));
  EXPECT_FALSE(can_implicitly_cast(kBool, kInt));
}

TEST(FunctionsTypeRules, ExplicitCasts) {
  EXPECT_TRUE(can_cast_explicitly(kVarchar, kDate));
  EXPECT_TRUE(can_cast_explicitly(kInterval, kVarchar));
  EXPECT_TRUE(can_cast_explicitly(kDouble, kTiny));
  EXPECT_TRUE(can_cast_explicitly(kBool, kInt));
  EXPECT_TRUE(can_cast_explicitly(kBig, kBool));
  EXPECT_TRUE(can_cast_explicitly(kTs, kDate));
  EXPECT_FALSE(can_cast_explicitly(kDate, kInt));
  EXPECT_FALSE(can_cast_explicitly(kBool, kDouble));
  EXPECT_FALSE(can_cast_explicitly(kInterval, kDate));
}

TEST(FunctionsTypeRules, DecimalArithmeticTypes) {
  EXPECT_EQ(decimal_add_type(dec(15, 2), dec(15, 2)), dec(16, 2));
  EXPECT_EQ(decimal_add_type(dec(10, 0), dec(15, 2)), dec(16, 2));
  EXPECT_EQ(decimal_add_type(dec(5, 4), dec(7, 1)), dec(11, 4));  // max(1, 6) + 4 + 1
  EXPECT_EQ(decimal_add_type(dec(38, 2), dec(38, 2)), dec(38, 2));
  EXPECT_EQ(decimal_multiply_type(dec(15, 2), dec(15, 2)), dec(30, 4));
  EXPECT_EQ(decimal_multiply_type(dec(31, 4), dec(16, 2)), dec(38, 6));
  // At least six fractional digits: s = max(s1, s2, 6), p = p1 - s1 + s2 + s.
  EXPECT_EQ(decimal_divide_type(dec(15, 2), dec(15, 2)), dec(21, 6));  // 13 + 2 + 6
  EXPECT_EQ(decimal_divide_type(dec(10, 0), dec(5, 3)), dec(19, 6));   // 10 + 3 + 6
  EXPECT_EQ(decimal_divide_type(dec(20, 10), dec(5, 3)), dec(23, 10));  // 10 + 3 + 10
  EXPECT_EQ(decimal_divide_type(dec(38, 4), dec(38, 4)), dec(38, 6));  // the integer part gives way
  EXPECT_EQ(decimal_modulo_type(dec(15, 2), dec(7, 3)), dec(7, 3));    // min(13, 4) + 3
  EXPECT_EQ(decimal_modulo_type(dec(10, 0), dec(5, 2)), dec(5, 2));    // min(10, 3) + 2
  EXPECT_EQ(integer_as_decimal(kTiny), dec(3, 0));
  EXPECT_EQ(integer_as_decimal(kSmall), dec(5, 0));
  EXPECT_EQ(integer_as_decimal(kInt), dec(10, 0));
  EXPECT_EQ(integer_as_decimal(kBig), dec(19, 0));
}

TEST(FunctionsLiteral, NumericLiteralTypes) {
  EXPECT_EQ(numeric_literal("42", std::nullopt), Value::integer(42));
  EXPECT_EQ(numeric_literal("2147483647", std::nullopt), Value::integer(2147483647));
  EXPECT_EQ(numeric_literal("2147483648", std::nullopt), Value::bigint(2147483648LL));
  EXPECT_EQ(numeric_literal("9223372036854775807", std::nullopt), Value::bigint(9223372036854775807LL));
  EXPECT_EQ(numeric_literal("9223372036854775808", std::nullopt).type(), dec(19, 0));
  EXPECT_EQ(numeric_literal("1.50", std::nullopt), Value::decimal(150, 3, 2));
  EXPECT_EQ(numeric_literal("0.05", std::nullopt), Value::decimal(5, 2, 2));
  EXPECT_EQ(numeric_literal(".5", std::nullopt), Value::decimal(5, 1, 1));
  EXPECT_EQ(numeric_literal("007.25", std::nullopt), Value::decimal(725, 3, 2));
  EXPECT_EQ(numeric_literal("1e3", std::nullopt), Value::double_value(1000.0));
  EXPECT_EQ(numeric_literal("2.5E-1", std::nullopt), Value::double_value(0.25));
  EXPECT_THROW(numeric_literal("1" + std::string(38, '0'), std::nullopt), BinderError);
  EXPECT_THROW(numeric_literal("1.2.3", std::nullopt), BinderError);
  EXPECT_THROW(numeric_literal(".", std::nullopt), BinderError);
}

}  // namespace
}  // namespace kestrel::plan
