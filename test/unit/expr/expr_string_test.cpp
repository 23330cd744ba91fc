#include "exec/expr/dictionary.hpp"
#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

Batch strings(const std::vector<Value>& values) { return make_batch({column(kVarchar, values)}); }

TEST(ExprString, ConcatAndNulls) {
  Batch batch = make_batch({column(kVarchar, {str("ab"), null_of(kVarchar), str("")}),
                            column(kVarchar, {str("cd"), str("x"), str("")})});
  EXPECT_EQ(eval(fn(F::kConcat, kVarchar, {ref(0, kVarchar), ref(1, kVarchar)}), batch),
            (std::vector<Value>{str("abcd"), null_of(kVarchar), str("")}));
  EXPECT_EQ(eval(fn(F::kConcat, kVarchar, {lit(str("<")), ref(1, kVarchar), lit(str(">")), ref(1, kVarchar)}), batch),
            (std::vector<Value>{str("<cd>cd"), str("<x>x"), str("<>")}));
  EXPECT_EQ(eval(fn(F::kConcat, kVarchar, {lit(str("a")), lit(str("b"))}), make_batch({}, 2)),
            (std::vector<Value>(2, str("ab"))));
}

TEST(ExprString, LengthCountsCodePoints) {
  Batch batch = strings({str("abc"), str("résumé"), str("日本語"), str(""), null_of(kVarchar)});
  EXPECT_EQ(eval(fn(F::kLength, kBig, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{i64(3), i64(6), i64(3), i64(0), null_of(kBig)}));
}

TEST(ExprString, UpperLowerAsciiAndLatin1) {
  Batch batch = strings({str("Hello, World 42"), str("ÉtÉ"), null_of(kVarchar)});
  EXPECT_EQ(eval(fn(F::kUpper, kVarchar, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{str("HELLO, WORLD 42"), str("ÉTÉ"), null_of(kVarchar)}));
  EXPECT_EQ(eval(fn(F::kLower, kVarchar, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{str("hello, world 42"), str("été"), null_of(kVarchar)}));
}

TEST(ExprString, Trims) {
  Batch batch = strings({str("  a b  "), str("   "), str("xxhixx")});
  EXPECT_EQ(eval(fn(F::kTrim, kVarchar, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{str("a b"), str(""), str("xxhixx")}));
  EXPECT_EQ(eval(fn(F::kLTrim, kVarchar, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{str("a b  "), str(""), str("xxhixx")}));
  EXPECT_EQ(eval(fn(F::kRTrim, kVarchar, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{str("  a b"), str(""), str("xxhixx")}));
  EXPECT_EQ(eval(fn(F::kTrim, kVarchar, {ref(0, kVarchar), lit(str("x "))}), batch),
            (std::vector<Value>{str("a b"), str(""), str("hi")}));
  EXPECT_EQ(eval(fn(F::kTrim, kVarchar, {lit(str("éaé")), lit(str("é"))}), batch), (std::vector<Value>(3, str("a"))));
}

TEST(ExprString, SubstringInCodePoints) {
  Batch batch = strings({str("hello"), str("日本語です"), null_of(kVarchar)});
  auto sub = [&](int64_t start, std::optional<int64_t> len) {
    std::vector<ExprPtr> args = {ref(0, kVarchar), lit(i64(start))};
    if (len) args.push_back(lit(i64(*len)));
    return eval(fn(F::kSubstring, kVarchar, args), batch);
  };
  EXPECT_EQ(sub(2, 3), (std::vector<Value>{str("ell"), str("本語で"), null_of(kVarchar)}));
  EXPECT_EQ(sub(3, std::nullopt), (std::vector<Value>{str("llo"), str("語です"), null_of(kVarchar)}));
  // PostgreSQL: positions before 1 count toward the length.
  EXPECT_EQ(sub(0, 3), (std::vector<Value>{str("he"), str("日本"), null_of(kVarchar)}));
  EXPECT_EQ(sub(-5, 3), (std::vector<Value>{str(""), str(""), null_of(kVarchar)}));
  EXPECT_EQ(sub(10, 2), (std::vector<Value>{str(""), str(""), null_of(kVarchar)}));
  EXPECT_EQ(sub(1, INT64_MAX), (std::vector<Value>{str("hello"), str("日本語です"), null_of(kVarchar)}));
  EXPECT_EQ(invalid_input_message([&] { sub(1, -1); }), "negative substring length not allowed");
  // Start per row (TPC-H Q22 style: substring(c_phone from 1 for 2)).
  Batch phones = make_batch({column(kVarchar, {str("13-345"), str("31-999")}), column(kBig, {i64(1), i64(4)})});
  EXPECT_EQ(eval(fn(F::kSubstring, kVarchar, {ref(0, kVarchar), ref(1, kBig), lit(i64(2))}), phones),
            (std::vector<Value>{str("13"), str("99")}));
}

TEST(ExprString, PositionStartsWithReplace) {
  Batch batch = strings({str("banana"), str("日本語"), str(""), null_of(kVarchar)});
  EXPECT_EQ(eval(fn(F::kPosition, kBig, {lit(str("an")), ref(0, kVarchar)}), batch),
            (std::vector<Value>{i64(2), i64(0), i64(0), null_of(kBig)}));
  EXPECT_EQ(eval(fn(F::kPosition, kBig, {lit(str("語")), ref(0, kVarchar)}), batch),
            (std::vector<Value>{i64(0), i64(3), i64(0), null_of(kBig)}));
  EXPECT_EQ(eval(fn(F::kPosition, kBig, {lit(str("")), ref(0, kVarchar)}), batch),
            (std::vector<Value>{i64(1), i64(1), i64(1), null_of(kBig)}));
  EXPECT_EQ(eval(fn(F::kStartsWith, kBool, {ref(0, kVarchar), lit(str("ba"))}), batch),
            (std::vector<Value>{b(true), b(false), b(false), null_of(kBool)}));
  EXPECT_EQ(eval(fn(F::kReplace, kVarchar, {ref(0, kVarchar), lit(str("an")), lit(str("AN!"))}), batch),
            (std::vector<Value>{str("bAN!AN!a"), str("日本語"), str(""), null_of(kVarchar)}));
  EXPECT_EQ(eval(fn(F::kReplace, kVarchar, {ref(0, kVarchar), lit(str("")), lit(str("x"))}), batch),
            (std::vector<Value>{str("banana"), str("日本語"), str(""), null_of(kVarchar)}));
}

TEST(ExprString, DictionaryInputsStayEncodedOrGather) {
  Batch batch = make_batch({dictionary_column({"Brand#12", "Brand#23"}, {1, 0, -1, 1, 1})});
  EvalContext ctx;
  // A string result over a dictionary keeps the row indices and transforms only the dictionary.
  ColumnPtr lower = evaluate(*fn(F::kLower, kVarchar, {ref(0, kVarchar)}), batch, ctx);
  EXPECT_TRUE(lower->is_dictionary());
  EXPECT_EQ(lower->dictionary()->length(), 2u);
  EXPECT_EQ(values_of(*lower),
            (std::vector<Value>{str("brand#23"), str("brand#12"), null_of(kVarchar), str("brand#23"), str("brand#23")}));
  EXPECT_EQ(eval(fn(F::kLength, kBig, {ref(0, kVarchar)}), batch),
            (std::vector<Value>{i64(8), i64(8), null_of(kBig), i64(8), i64(8)}));
  EXPECT_EQ(eval(fn(F::kSubstring, kVarchar, {ref(0, kVarchar), lit(i64(7)), lit(i64(2))}), batch),
            (std::vector<Value>{str("23"), str("12"), null_of(kVarchar), str("23"), str("23")}));
  // A column reference is shared, not copied.
  ColumnPtr same = evaluate(*ref(0, kVarchar), batch, ctx);
  EXPECT_EQ(same.get(), batch.column(0).get());
  // decode_dictionary gives the plain equivalent.
  ColumnPtr plain = decode_dictionary(*batch.column(0), gpu::host_memory_resource());
  EXPECT_FALSE(plain->is_dictionary());
  EXPECT_EQ(values_of(*plain), values_of(*batch.column(0)));
  EXPECT_EQ(plain->null_count(), 1u);
}

TEST(ExprString, DictionaryLargerThanBatchIsDecoded) {
  // 3 rows over a 4-entry dictionary: evaluated row by row after decoding.
  Batch batch = make_batch({dictionary_column({"a", "b", "c", "d"}, {3, 3, 0})});
  EXPECT_EQ(eval(fn(F::kUpper, kVarchar, {ref(0, kVarchar)}), batch), (std::vector<Value>{str("D"), str("D"), str("A")}));
  EXPECT_EQ(eval(fn(F::kConcat, kVarchar, {ref(0, kVarchar), ref(0, kVarchar)}), batch),
            (std::vector<Value>{str("dd"), str("dd"), str("aa")}));
}

}  // namespace
}  // namespace kestrel::exec::testing
