// ARRAY, MAP and ROW columns (vector/nested_column.hpp): values in and out, gathers and concatenation, and the key
// bytes whose order must be the values' order.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "common/error.hpp"
#include "vector/nested_column.hpp"

namespace kestrel {
namespace {

const LogicalType kIntArray = LogicalType::array(TypeId::kInteger);

Value ints(std::vector<std::optional<int32_t>> items) {
  std::vector<Value> values;
  for (const auto& i : items) values.push_back(i ? Value::integer(*i) : Value::null(TypeId::kInteger));
  return Value::array(kIntArray, std::move(values));
}

/// The key bytes of every value of `values` (one column of `type`).
std::vector<std::string> keys_of(const LogicalType& type, const std::vector<Value>& values) {
  ColumnPtr column = Column::from_values(type, values);
  std::vector<std::string> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) append_key_bytes(*column, i, out[i]);
  return out;
}

/// Checks that the key bytes of `ascending` (values in increasing order) increase strictly.
void expect_ascending(const LogicalType& type, const std::vector<Value>& ascending) {
  const auto keys = keys_of(type, ascending);
  for (size_t i = 1; i < keys.size(); ++i) {
    EXPECT_LT(keys[i - 1], keys[i]) << ascending[i - 1].to_string() << " vs " << ascending[i].to_string();
  }
}

TEST(NestedColumn, ValuesRoundTripWithNullArraysAndNullElements) {
  const LogicalType nested = LogicalType::array(kIntArray);
  const std::vector<Value> values = {
      Value::array(nested, {ints({1, std::nullopt}), Value::null(kIntArray), ints({})}),
      Value::null(nested),
      Value::array(nested, {}),
  };
  ColumnPtr column = Column::from_values(nested, values);
  ASSERT_EQ(column->length(), 3u);
  EXPECT_EQ(column->null_count(), 1u);
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(column->value_at(i), values[i]) << i;
  EXPECT_EQ(column->value_at(0).to_string(), "[[1, NULL], NULL, []]");
}

TEST(NestedColumn, MapsAndRowsPrintAsPrestoPrintsThem) {
  const LogicalType map = LogicalType::map(TypeId::kVarchar, TypeId::kBigInt);
  EXPECT_EQ(Value::map(map, {Value::varchar("a"), Value::varchar("b")}, {Value::bigint(1), Value::null(TypeId::kBigInt)})
                .to_string(),
            "{a=1, b=NULL}");
  const LogicalType row = LogicalType::row({{"x", TypeId::kInteger}, {"", TypeId::kVarchar}});
  EXPECT_EQ(row.to_string(), "ROW(x INTEGER, VARCHAR)");
  EXPECT_EQ(Value::row(row, {Value::integer(1), Value::varchar("a")}).to_string(), "{x=1, field1=a}");
  EXPECT_THROW(LogicalType::row({{"a", TypeId::kInteger}, {"A", TypeId::kInteger}}), InvalidInput);
  EXPECT_EQ(row.field_index("X"), 0);
  EXPECT_EQ(row.field_index("y"), -1);
}

TEST(NestedColumn, TypesCompareByTheirChildren) {
  EXPECT_EQ(LogicalType::array(TypeId::kInteger), kIntArray);
  EXPECT_FALSE(LogicalType::array(TypeId::kBigInt) == kIntArray);
  EXPECT_FALSE(LogicalType::row({{"a", TypeId::kInteger}}) == LogicalType::row({{"b", TypeId::kInteger}}));
  EXPECT_TRUE(LogicalType::map(TypeId::kInteger, kIntArray).contains(TypeId::kArray));
  EXPECT_FALSE(kIntArray.contains(TypeId::kVarchar));
}

TEST(NestedColumn, GatherAndConcatenateKeepChildrenCompact) {
  ColumnPtr column = Column::from_values(kIntArray, {ints({1, 2}), Value::null(kIntArray), ints({3})});
  ColumnPtr picked = gather_column(*column, {2, kNullRow, 0, 0});
  ASSERT_EQ(picked->length(), 4u);
  EXPECT_EQ(picked->value_at(0), ints({3}));
  EXPECT_TRUE(picked->value_at(1).is_null());
  EXPECT_EQ(picked->value_at(3), ints({1, 2}));
  EXPECT_EQ(picked->child(0)->length(), 5u);
  ColumnPtr both = concat_nested({picked.get(), column.get()}, kIntArray, gpu::host_memory_resource());
  ASSERT_EQ(both->length(), 7u);
  EXPECT_EQ(both->value_at(6), ints({3}));
  EXPECT_EQ(null_column(kIntArray, 2)->null_count(), 2u);
}

TEST(NestedColumn, KeyBytesOrderNumbersAsNumbers) {
  expect_ascending(TypeId::kInteger, {Value::integer(std::numeric_limits<int32_t>::min()), Value::integer(-1),
                                      Value::integer(0), Value::integer(1), Value::integer(1 << 30)});
  expect_ascending(TypeId::kDouble, {Value::double_value(-INFINITY), Value::double_value(-2.5),
                                     Value::double_value(-0.0), Value::double_value(1e-300),
                                     Value::double_value(INFINITY), Value::double_value(NAN)});
  // -0.0 and 0.0 are one value, as are all NaNs.
  const auto zeros = keys_of(TypeId::kDouble, {Value::double_value(-0.0), Value::double_value(0.0)});
  EXPECT_EQ(zeros[0], zeros[1]);
  expect_ascending(LogicalType::decimal(38, 2), {Value::decimal(-5, 38, 2), Value::decimal(0, 38, 2),
                                                 Value::decimal(int128_t{1} << 100, 38, 2)});
}

TEST(NestedColumn, KeyBytesOrderStringsBytewiseWithPrefixesFirst) {
  expect_ascending(TypeId::kVarchar, {Value::varchar(""), Value::varchar(std::string("\0", 1)),
                                      Value::varchar(std::string("\0\0", 2)), Value::varchar("a"),
                                      Value::varchar("ab"), Value::varchar("b"), Value::varchar("\xc3\xa9")});
}

TEST(NestedColumn, KeyBytesOrderArraysElementByElementThenByLength) {
  expect_ascending(kIntArray, {ints({}), ints({-1}), ints({1}), ints({1, 2}), ints({1, 2, 0}), ints({1, 3}),
                               ints({1, std::nullopt}), ints({2})});
  const LogicalType row = LogicalType::row({{"a", TypeId::kInteger}, {"b", TypeId::kVarchar}});
  expect_ascending(row, {Value::row(row, {Value::integer(1), Value::varchar("z")}),
                         Value::row(row, {Value::integer(2), Value::varchar("a")}),
                         Value::row(row, {Value::integer(2), Value::varchar("b")})});
}

TEST(NestedColumn, EqualMapsHaveEqualKeyBytesWhateverTheirEntryOrder) {
  const LogicalType map = LogicalType::map(TypeId::kVarchar, TypeId::kInteger);
  const auto keys = keys_of(map, {Value::map(map, {Value::varchar("a"), Value::varchar("b")},
                                             {Value::integer(1), Value::integer(2)}),
                                  Value::map(map, {Value::varchar("b"), Value::varchar("a")},
                                             {Value::integer(2), Value::integer(1)}),
                                  Value::map(map, {Value::varchar("a")}, {Value::integer(2)})});
  EXPECT_EQ(keys[0], keys[1]);
  EXPECT_NE(keys[0], keys[2]);
  ColumnPtr column = Column::from_values(map, {Value::map(map, {}, {}), Value::null(map)});
  EXPECT_EQ(column->nested_keys().length(), 2u);
  EXPECT_FALSE(column->nested_keys().is_valid(1));
}

}  // namespace
}  // namespace kestrel
