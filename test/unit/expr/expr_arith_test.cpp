#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

TEST(ExprArith, IntegerOpsMatchReferenceLoop) {
  const std::vector<std::optional<int32_t>> a = {7, -7, 0, std::nullopt, 2147483, -1, 100, 5};
  const std::vector<std::optional<int32_t>> bv = {2, 2, 5, 3, std::nullopt, 9, -3, -5};
  std::vector<Value> av, bvv;
  for (auto x : a) av.push_back(x ? i32(*x) : null_of(kInt));
  for (auto x : bv) bvv.push_back(x ? i32(*x) : null_of(kInt));
  Batch batch = make_batch({column(kInt, av), column(kInt, bvv)});
  struct Op {
    F f;
    int64_t (*ref)(int64_t, int64_t);
  };
  const Op ops[] = {
      {F::kAdd, [](int64_t x, int64_t y) { return x + y; }},
      {F::kSubtract, [](int64_t x, int64_t y) { return x - y; }},
      {F::kMultiply, [](int64_t x, int64_t y) { return x * y; }},
      {F::kDivide, [](int64_t x, int64_t y) { return x / y; }},  // C++ truncates toward zero, like PostgreSQL
      {F::kModulo, [](int64_t x, int64_t y) { return x % y; }},
  };
  for (const Op& op : ops) {
    SCOPED_TRACE(plan::scalar_function_name(op.f));
    std::vector<Value> got = eval(fn(op.f, kInt, {ref(0, kInt), ref(1, kInt)}), batch);
    for (size_t i = 0; i < a.size(); ++i) {
      const Value expected = a[i] && bv[i] ? i32(static_cast<int32_t>(op.ref(*a[i], *bv[i]))) : null_of(kInt);
      EXPECT_EQ(got[i], expected) << "row " << i;
    }
  }
}

TEST(ExprArith, HandComputedIntegerDivision) {
  Batch batch = make_batch({column(kInt, {i32(7), i32(-7), i32(7), i32(-7)}), column(kInt, {i32(2), i32(2), i32(-3), i32(3)})});
  EXPECT_EQ(eval(fn(F::kDivide, kInt, {ref(0, kInt), ref(1, kInt)}), batch),
            (std::vector<Value>{i32(3), i32(-3), i32(-2), i32(-2)}));
  EXPECT_EQ(eval(fn(F::kModulo, kInt, {ref(0, kInt), ref(1, kInt)}), batch),
            (std::vector<Value>{i32(1), i32(-1), i32(1), i32(-1)}));
}

TEST(ExprArith, OverflowAndDivisionByZeroAreErrors) {
  Batch one = make_batch({column(kBig, {i64(INT64_MAX)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kAdd, kBig, {ref(0, kBig), lit(i64(1))}), one); }),
            "BIGINT overflow in 9223372036854775807 + 1");
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kMultiply, kBig, {lit(i64(2)), ref(0, kBig)}), one); }),
            "BIGINT overflow in 2 * 9223372036854775807");
  Batch ints = make_batch({column(kInt, {i32(INT32_MIN)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kDivide, kInt, {ref(0, kInt), lit(i32(-1))}), ints); }),
            "INTEGER overflow in -2147483648 / -1");
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kNegate, kInt, {ref(0, kInt)}), ints); }),
            "INTEGER overflow in -(-2147483648)");
  Batch small = make_batch({column(kSmall, {Value::smallint(32767)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kAdd, kSmall, {ref(0, kSmall), ref(0, kSmall)}), small); }),
            "SMALLINT overflow in 32767 + 32767");
  Batch zero = make_batch({column(kInt, {i32(5), i32(6)}), column(kInt, {i32(1), i32(0)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kDivide, kInt, {ref(0, kInt), ref(1, kInt)}), zero); }),
            "division by zero");
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kModulo, kInt, {ref(0, kInt), ref(1, kInt)}), zero); }),
            "division by zero");
  Batch dbl = make_batch({column(kDouble, {f64(1.5)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kDivide, kDouble, {ref(0, kDouble), lit(f64(0))}), dbl); }),
            "division by zero");
}

TEST(ExprArith, NullRowsNeverRaise) {
  // Row 1 divides by zero and row 2 overflows, but both are NULL in the other operand.
  Batch batch = make_batch({column(kInt, {i32(10), null_of(kInt), i32(INT32_MAX)}),
                            column(kInt, {i32(5), i32(0), null_of(kInt)})});
  EXPECT_EQ(eval(fn(F::kDivide, kInt, {ref(0, kInt), ref(1, kInt)}), batch),
            (std::vector<Value>{i32(2), null_of(kInt), null_of(kInt)}));
  EXPECT_EQ(eval(fn(F::kAdd, kInt, {ref(0, kInt), ref(0, kInt)}), make_batch({column(kInt, {null_of(kInt)})})),
            (std::vector<Value>{null_of(kInt)}));
}

TEST(ExprArith, ConstantsBroadcastAndNullConstants) {
  Batch batch = make_batch({column(kBig, {i64(1), i64(2), null_of(kBig)})});
  EXPECT_EQ(eval(fn(F::kSubtract, kBig, {lit(i64(10)), ref(0, kBig)}), batch),
            (std::vector<Value>{i64(9), i64(8), null_of(kBig)}));
  EXPECT_EQ(eval(fn(F::kAdd, kBig, {ref(0, kBig), lit(null_of(kBig))}), batch),
            (std::vector<Value>(3, null_of(kBig))));
  EXPECT_EQ(eval(fn(F::kMultiply, kBig, {lit(i64(6)), lit(i64(7))}), batch), (std::vector<Value>(3, i64(42))));
  EXPECT_EQ(eval(fn(F::kMultiply, kDouble, {lit(f64(1.5)), lit(f64(2))}), make_batch({}, 1)),
            (std::vector<Value>{f64(3.0)}));
}

TEST(ExprArith, EmptyBatch) {
  Batch empty = make_batch({column(kInt, {}), column(dec(15, 2), {})});
  EXPECT_TRUE(eval(fn(F::kDivide, kInt, {ref(0, kInt), lit(i32(0))}), empty).empty());
  EXPECT_TRUE(eval(fn(F::kMultiply, dec(30, 4), {ref(1, dec(15, 2)), ref(1, dec(15, 2))}), empty).empty());
  EXPECT_TRUE(eval(lit(i32(3)), empty).empty());
}

TEST(ExprArith, NegateAndFloat) {
  Batch batch = make_batch({column(kDouble, {f64(1.25), null_of(kDouble)}), column(dec(5, 2), {decv(-150, 5, 2), decv(7, 5, 2)})});
  EXPECT_EQ(eval(fn(F::kNegate, kDouble, {ref(0, kDouble)}), batch), (std::vector<Value>{f64(-1.25), null_of(kDouble)}));
  EXPECT_EQ(eval(fn(F::kNegate, dec(5, 2), {ref(1, dec(5, 2))}), batch),
            (std::vector<Value>{decv(150, 5, 2), decv(-7, 5, 2)}));
  EXPECT_EQ(eval(fn(F::kModulo, kDouble, {ref(0, kDouble), lit(f64(0.5))}), batch),
            (std::vector<Value>{f64(0.25), null_of(kDouble)}));
}

}  // namespace
}  // namespace kestrel::exec::testing
