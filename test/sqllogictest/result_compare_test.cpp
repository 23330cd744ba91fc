#include "result_compare.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace kestrel::slt {
namespace {

// Reference digests computed with Python's hashlib.md5.
constexpr const char* kMd5Empty = "d41d8cd98f00b204e9800998ecf8427e";
// "The quick brown fox jumps over the lazy dog"
constexpr const char* kMd5Fox = "9e107d9d372bb6826bd81d3542a419d6";
constexpr const char* kMd5OneTwoThree = "c0710d6b4f15dfa88f600b0e6b624077";  // "1\n2\n3\n"
constexpr const char* kMd5Mixed = "8d2fa0f4e505e0dd19d7ca557b6dd9ee";        // "a\nb\nNULL\n(empty)\n"
constexpr const char* kMd5Sorted = "59ed0a3164a9ae3482ecefc2986cd1a3";       // "1\n10\n2\nx\ny\nz\n"

Record query_record(std::string types, SortMode mode, std::vector<std::string> expected) {
  Record record;
  record.kind = RecordKind::kQuery;
  record.types = std::move(types);
  record.sort_mode = mode;
  record.sql = "SELECT ...";
  record.expected_lines = std::move(expected);
  return record;
}

TEST(ResultCompare, Md5MatchesKnownDigests) {
  EXPECT_EQ(md5_hex(""), kMd5Empty);
  EXPECT_EQ(md5_hex("The quick brown fox jumps over the lazy dog"), kMd5Fox);
  EXPECT_EQ(hash_values({"1", "2", "3"}), kMd5OneTwoThree);
  EXPECT_EQ(hash_values({"a", "b", "NULL", "(empty)"}), kMd5Mixed);
  EXPECT_EQ(hash_values({}), kMd5Empty);
}

TEST(ResultCompare, RenderNullsAndStrings) {
  EXPECT_EQ(render_value(Value(), 'T'), "NULL");
  EXPECT_EQ(render_value(Value::null(TypeId::kInteger), 'I'), "NULL");
  EXPECT_EQ(render_value(Value::null(TypeId::kDouble), 'R'), "NULL");
  EXPECT_EQ(render_value(Value::varchar(""), 'T'), "(empty)");
  EXPECT_EQ(render_value(Value::varchar(""), 'I'), "(empty)");
  EXPECT_EQ(render_value(Value::varchar("hello world"), 'T'), "hello world");
  EXPECT_EQ(render_value(Value::varchar("abc"), 'I'), "abc");
}

TEST(ResultCompare, RenderIntegers) {
  EXPECT_EQ(render_value(Value::integer(-42), 'I'), "-42");
  EXPECT_EQ(render_value(Value::bigint(9007199254740993LL), 'I'), "9007199254740993");
  EXPECT_EQ(render_value(Value::integer(7), 'T'), "7");
  EXPECT_EQ(render_value(Value::integer(7), 'R'), "7.000");
  // The integer letter on fractional values keeps the integer part, truncated toward zero.
  EXPECT_EQ(render_value(Value::double_value(2.9), 'I'), "2");
  EXPECT_EQ(render_value(Value::double_value(-2.9), 'I'), "-2");
  EXPECT_EQ(render_value(Value::decimal(12345, 10, 2), 'I'), "123");
  EXPECT_EQ(render_value(Value::decimal(-12399, 10, 2), 'I'), "-123");
  int128_t wide = static_cast<int128_t>(1000000000000000000LL) * 1000;  // 10^21, scale 1 -> 10^20
  EXPECT_EQ(render_value(Value::decimal(wide, 30, 1), 'I'), "100000000000000000000");
}

TEST(ResultCompare, RenderReals) {
  EXPECT_EQ(render_value(Value::double_value(1.0 / 3.0), 'R'), "0.333");
  EXPECT_EQ(render_value(Value::double_value(2.0), 'R'), "2.000");
  EXPECT_EQ(render_value(Value::double_value(-1.23456), 'R'), "-1.235");
  EXPECT_EQ(render_value(Value::real(0.5f), 'R'), "0.500");
  EXPECT_EQ(render_value(Value::decimal(12345, 10, 2), 'R'), "123.450");
  // NaN whatever its sign bit.
  EXPECT_EQ(render_value(Value::double_value(std::nan("")), 'R'), "nan");
  EXPECT_EQ(render_value(Value::double_value(-std::nan("")), 'R'), "nan");
  // Text letter on numbers gives their own text.
  EXPECT_EQ(render_value(Value::decimal(12345, 10, 2), 'T'), "123.45");
  EXPECT_EQ(render_value(Value::double_value(2.5), 'T'), "2.5");
}

TEST(ResultCompare, RenderBooleans) {
  EXPECT_EQ(render_value(Value::boolean(true), 'B'), "true");
  EXPECT_EQ(render_value(Value::boolean(false), 'B'), "false");
  EXPECT_EQ(render_value(Value::boolean(true), 'T'), "true");
  EXPECT_EQ(render_value(Value::boolean(true), 'I'), "1");
  EXPECT_EQ(render_value(Value::boolean(false), 'I'), "0");
  EXPECT_EQ(render_value(Value::integer(0), 'B'), "false");
  EXPECT_EQ(render_value(Value::null(TypeId::kBoolean), 'B'), "NULL");
}

TEST(ResultCompare, SortModes) {
  TextRows rows{{"2", "b"}, {"10", "a"}, {"1", "c"}};
  EXPECT_EQ(sorted_values(rows, SortMode::kNoSort), (std::vector<std::string>{"2", "b", "10", "a", "1", "c"}));
  // Rows sort as text, value by value: "1" < "10" < "2".
  EXPECT_EQ(sorted_values(rows, SortMode::kRowSort), (std::vector<std::string>{"1", "c", "10", "a", "2", "b"}));
  EXPECT_EQ(sorted_values(rows, SortMode::kValueSort), (std::vector<std::string>{"1", "10", "2", "a", "b", "c"}));
  TextRows ties{{"1", "z"}, {"1", "y"}};
  EXPECT_EQ(sorted_values(ties, SortMode::kRowSort), (std::vector<std::string>{"1", "y", "1", "z"}));
}

TEST(ResultCompare, ExpectedFormsAreDetected) {
  ExpectedResult hash = parse_expected({"30 values hashing to 3c13dee48d9356ae19af2515e05e6b54"}, 3);
  EXPECT_TRUE(hash.is_hash);
  EXPECT_EQ(hash.hash_count, 30u);
  EXPECT_EQ(hash.hash, "3c13dee48d9356ae19af2515e05e6b54");

  ExpectedResult rows = parse_expected({"1\ta", "2\tb"}, 2);
  EXPECT_FALSE(rows.is_hash);
  EXPECT_TRUE(rows.row_wise);
  EXPECT_EQ(rows.values, (std::vector<std::string>{"1", "a", "2", "b"}));

  ExpectedResult values = parse_expected({"1", "a", "2", "b"}, 2);
  EXPECT_FALSE(values.row_wise);
  EXPECT_EQ(values.values, (std::vector<std::string>{"1", "a", "2", "b"}));

  // Not a hash line: bad digest.
  EXPECT_FALSE(parse_expected({"3 values hashing to xyz"}, 1).is_hash);
}

TEST(ResultCompare, ValuesPerLineAndRowsPerLineBothMatch) {
  TextRows actual{{"1", "a"}, {"2", "(empty)"}};
  EXPECT_TRUE(compare_query_result(query_record("IT", SortMode::kNoSort, {"1", "a", "2", "(empty)"}), actual, 2, 0).ok);
  EXPECT_TRUE(compare_query_result(query_record("IT", SortMode::kNoSort, {"1\ta", "2\t(empty)"}), actual, 2, 0).ok);
  Comparison wrong = compare_query_result(query_record("IT", SortMode::kNoSort, {"1\ta", "2\tb"}), actual, 2, 0);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.reason.find("row 2, column 2"), std::string::npos) << wrong.reason;
  EXPECT_EQ(wrong.actual_lines, (std::vector<std::string>{"1\ta", "2\t(empty)"}));
}

TEST(ResultCompare, OrderMattersOnlyWithoutSort) {
  TextRows actual{{"2", "b"}, {"1", "a"}};
  EXPECT_FALSE(compare_query_result(query_record("IT", SortMode::kNoSort, {"1\ta", "2\tb"}), actual, 2, 0).ok);
  EXPECT_TRUE(compare_query_result(query_record("IT", SortMode::kRowSort, {"1\ta", "2\tb"}), actual, 2, 0).ok);
  // The expected side is sorted too, so it may be written in any order.
  EXPECT_TRUE(compare_query_result(query_record("IT", SortMode::kRowSort, {"2\tb", "1\ta"}), actual, 2, 0).ok);
  EXPECT_TRUE(compare_query_result(query_record("IT", SortMode::kValueSort, {"1", "2", "a", "b"}), actual, 2, 0).ok);
  // rowsort keeps rows together: swapping values across rows does not match.
  EXPECT_FALSE(compare_query_result(query_record("IT", SortMode::kRowSort, {"1\tb", "2\ta"}), actual, 2, 0).ok);
}

TEST(ResultCompare, HashedExpectation) {
  TextRows actual{{"z", "1"}, {"x", "10"}, {"y", "2"}};
  Record record = query_record("TI", SortMode::kValueSort, {std::string("6 values hashing to ") + kMd5Sorted});
  Comparison ok = compare_query_result(record, actual, 2, 0);
  EXPECT_TRUE(ok.ok) << ok.reason;
  EXPECT_EQ(ok.actual_lines, std::vector<std::string>{std::string("6 values hashing to ") + kMd5Sorted});

  Record wrong_count = query_record("TI", SortMode::kValueSort, {std::string("4 values hashing to ") + kMd5Sorted});
  EXPECT_FALSE(compare_query_result(wrong_count, actual, 2, 0).ok);
  Record wrong_hash = query_record("TI", SortMode::kNoSort, {std::string("6 values hashing to ") + kMd5Sorted});
  Comparison mismatch = compare_query_result(wrong_hash, actual, 2, 0);
  EXPECT_FALSE(mismatch.ok);
  EXPECT_EQ(mismatch.reason, "hash mismatch");
}

TEST(ResultCompare, HashThresholdOnlyChangesHowActualIsShown) {
  TextRows actual{{"1"}, {"2"}, {"3"}};
  Comparison shown = compare_query_result(query_record("I", SortMode::kNoSort, {"1", "2", "4"}), actual, 1, 2);
  EXPECT_FALSE(shown.ok);
  EXPECT_EQ(shown.actual_lines, std::vector<std::string>{std::string("3 values hashing to ") + kMd5OneTwoThree});
  EXPECT_TRUE(compare_query_result(query_record("I", SortMode::kNoSort, {"1", "2", "3"}), actual, 1, 2).ok);
}

TEST(ResultCompare, ColumnAndRowCountMismatches) {
  TextRows actual{{"1", "2"}};
  Comparison columns = compare_query_result(query_record("I", SortMode::kNoSort, {"1", "2"}), actual, 2, 0);
  EXPECT_FALSE(columns.ok);
  EXPECT_NE(columns.reason.find("column"), std::string::npos);
  EXPECT_FALSE(compare_query_result(query_record("II", SortMode::kNoSort, {}), actual, 2, 0).ok);
  EXPECT_TRUE(compare_query_result(query_record("II", SortMode::kNoSort, {}), {}, 2, 0).ok);
  EXPECT_FALSE(compare_query_result(query_record("II", SortMode::kNoSort, {"1\t2", "1\t2"}), actual, 2, 0).ok);
}

TEST(ResultCompare, ErrorMatching) {
  const std::string message = "Binder Error at line 1, column 15: table 'nowhere' does not exist";
  EXPECT_TRUE(error_matches("", message, "Binder Error"));
  EXPECT_TRUE(error_matches("does not exist", message, "Binder Error"));
  EXPECT_TRUE(error_matches("Binder Error", message, "Binder Error"));
  EXPECT_TRUE(error_matches("binder error", message, "Binder Error"));
  EXPECT_TRUE(error_matches("Catalog Error: table 'nowhere'", message, "Binder Error"));
  EXPECT_FALSE(error_matches("Syntax Error", message, "Binder Error"));
  EXPECT_FALSE(error_matches("Binder Error: column 'x'", message, "Binder Error"));
  EXPECT_FALSE(error_matches("no such thing", message, "Binder Error"));
  EXPECT_TRUE(error_matches("Parser Error", "Syntax Error at line 1, column 1: unexpected 'SELEC'", "Syntax Error"));
}

}  // namespace
}  // namespace kestrel::slt
