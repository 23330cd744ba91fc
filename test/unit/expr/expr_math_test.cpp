#include <cmath>

#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

TEST(ExprMath, AbsAndSign) {
  Batch batch = make_batch({column(kInt, {i32(-3), i32(0), i32(5), null_of(kInt)}),
                            column(dec(10, 2), {decv(-125, 10, 2), decv(0, 10, 2), decv(7, 10, 2), null_of(dec(10, 2))}),
                            column(kDouble, {f64(-2.5), f64(0), f64(1e-9), null_of(kDouble)})});
  EXPECT_EQ(eval(fn(F::kAbs, kInt, {ref(0, kInt)}), batch), (std::vector<Value>{i32(3), i32(0), i32(5), null_of(kInt)}));
  EXPECT_EQ(eval(fn(F::kAbs, dec(10, 2), {ref(1, dec(10, 2))}), batch),
            (std::vector<Value>{decv(125, 10, 2), decv(0, 10, 2), decv(7, 10, 2), null_of(dec(10, 2))}));
  EXPECT_EQ(eval(fn(F::kAbs, kDouble, {ref(2, kDouble)}), batch),
            (std::vector<Value>{f64(2.5), f64(0), f64(1e-9), null_of(kDouble)}));
  EXPECT_EQ(eval(fn(F::kSign, kInt, {ref(0, kInt)}), batch), (std::vector<Value>{i32(-1), i32(0), i32(1), null_of(kInt)}));
  EXPECT_EQ(eval(fn(F::kSign, dec(1, 0), {ref(1, dec(10, 2))}), batch),
            (std::vector<Value>{decv(-1, 1, 0), decv(0, 1, 0), decv(1, 1, 0), null_of(dec(1, 0))}));
  EXPECT_EQ(eval(fn(F::kSign, kDouble, {ref(2, kDouble)}), batch),
            (std::vector<Value>{f64(-1), f64(0), f64(1), null_of(kDouble)}));
  Batch min = make_batch({column(kBig, {i64(INT64_MIN)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kAbs, kBig, {ref(0, kBig)}), min); }),
            "BIGINT overflow in abs(-9223372036854775808)");
}

TEST(ExprMath, RoundFloorCeilDecimal) {
  const LogicalType t = dec(10, 2);
  Batch batch = make_batch({column(t, {decv(250, 10, 2), decv(-250, 10, 2), decv(249, 10, 2), decv(-201, 10, 2)})});
  // 2.50 -1 -> round 3, -2.50 -> -3, 2.49 -> 2, -2.01 -> -2; floor 2, -3, 2, -3; ceil 3, -2, 3, -2
  EXPECT_EQ(eval(fn(F::kRound, dec(9, 0), {ref(0, t)}), batch),
            (std::vector<Value>{decv(3, 9, 0), decv(-3, 9, 0), decv(2, 9, 0), decv(-2, 9, 0)}));
  EXPECT_EQ(eval(fn(F::kFloor, dec(9, 0), {ref(0, t)}), batch),
            (std::vector<Value>{decv(2, 9, 0), decv(-3, 9, 0), decv(2, 9, 0), decv(-3, 9, 0)}));
  EXPECT_EQ(eval(fn(F::kCeil, dec(9, 0), {ref(0, t)}), batch),
            (std::vector<Value>{decv(3, 9, 0), decv(-2, 9, 0), decv(3, 9, 0), decv(-2, 9, 0)}));
  // round(x, 1) keeps the scale: 2.50 -> 2.50, -2.01 -> -2.00; round(x, -1): 0.00 for all but none here
  EXPECT_EQ(eval(fn(F::kRound, dec(11, 2), {ref(0, t), lit(i32(1))}), batch),
            (std::vector<Value>{decv(250, 11, 2), decv(-250, 11, 2), decv(250, 11, 2), decv(-200, 11, 2)}));
  EXPECT_EQ(eval(fn(F::kRound, dec(11, 2), {ref(0, t), lit(i32(0))}), batch),
            (std::vector<Value>{decv(300, 11, 2), decv(-300, 11, 2), decv(200, 11, 2), decv(-200, 11, 2)}));
  EXPECT_EQ(eval(fn(F::kRound, dec(11, 2), {lit(decv(12345, 10, 2)), lit(i32(-1))}), batch),
            (std::vector<Value>(4, decv(12000, 11, 2))));  // 123.45 -> 120.00
  EXPECT_EQ(eval(fn(F::kRound, dec(11, 2), {lit(decv(12345, 10, 2)), lit(i32(5))}), batch),
            (std::vector<Value>(4, decv(12345, 11, 2))));
  // Wide: 38 digits rounding up overflows DECIMAL(38,2).
  const LogicalType w = dec(38, 2);
  Batch wide = make_batch({column(w, {decv(pow10_i128(38) - 1, 38, 2)})});
  EXPECT_NE(invalid_input_message([&] { eval(fn(F::kRound, w, {ref(0, w), lit(i32(0))}), wide); }), "");
  EXPECT_EQ(eval(fn(F::kFloor, dec(37, 0), {ref(0, w)}), wide), (std::vector<Value>{decv(pow10_i128(36) - 1, 37, 0)}));
}

TEST(ExprMath, RoundIntegersAndDoubles) {
  Batch batch = make_batch({column(kInt, {i32(1234), i32(-1250), i32(5)}), column(kDouble, {f64(2.5), f64(-2.5), f64(1.005)})});
  EXPECT_EQ(eval(fn(F::kRound, kInt, {ref(0, kInt), lit(i32(-2))}), batch),
            (std::vector<Value>{i32(1200), i32(-1300), i32(0)}));
  EXPECT_EQ(eval(fn(F::kRound, kInt, {ref(0, kInt)}), batch), (std::vector<Value>{i32(1234), i32(-1250), i32(5)}));
  EXPECT_EQ(eval(fn(F::kRound, kDouble, {ref(1, kDouble)}), batch), (std::vector<Value>{f64(3), f64(-3), f64(1)}));
  EXPECT_EQ(eval(fn(F::kFloor, kDouble, {ref(1, kDouble)}), batch), (std::vector<Value>{f64(2), f64(-3), f64(1)}));
  EXPECT_EQ(eval(fn(F::kCeil, kDouble, {ref(1, kDouble)}), batch), (std::vector<Value>{f64(3), f64(-2), f64(2)}));
  EXPECT_EQ(eval(fn(F::kRound, kDouble, {lit(f64(3.14159)), lit(i32(2))}), make_batch({}, 1)),
            (std::vector<Value>{f64(3.14)}));
  Batch tiny = make_batch({column(kTiny, {Value::tinyint(127)})});
  EXPECT_NE(invalid_input_message([&] { eval(fn(F::kRound, kTiny, {ref(0, kTiny), lit(i32(-1))}), tiny); }), "");
}

TEST(ExprMath, DoubleFunctionsAndDomainErrors) {
  Batch batch = make_batch({column(kDouble, {f64(4), f64(1), null_of(kDouble)})});
  EXPECT_EQ(eval(fn(F::kSqrt, kDouble, {ref(0, kDouble)}), batch), (std::vector<Value>{f64(2), f64(1), null_of(kDouble)}));
  EXPECT_EQ(eval(fn(F::kLn, kDouble, {ref(0, kDouble)}), batch)[1], f64(0));
  EXPECT_EQ(eval(fn(F::kLog10, kDouble, {lit(f64(1000))}), batch)[0], f64(3));
  EXPECT_EQ(eval(fn(F::kExp, kDouble, {lit(f64(0))}), batch)[2], f64(1));
  EXPECT_EQ(eval(fn(F::kPower, kDouble, {ref(0, kDouble), lit(f64(0.5))}), batch),
            (std::vector<Value>{f64(2), f64(1), null_of(kDouble)}));
  EXPECT_EQ(eval(fn(F::kPower, kDouble, {lit(f64(-2)), lit(f64(3))}), batch)[0], f64(-8));
  Batch neg = make_batch({column(kDouble, {f64(-1)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kSqrt, kDouble, {ref(0, kDouble)}), neg); }),
            "cannot take square root of a negative number");
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kLn, kDouble, {lit(f64(0))}), neg); }),
            "cannot take logarithm of zero");
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kPower, kDouble, {lit(f64(0)), lit(f64(-1))}), neg); }),
            "zero raised to a negative power is undefined");
  EXPECT_NE(invalid_input_message([&] { eval(fn(F::kPower, kDouble, {ref(0, kDouble), lit(f64(0.5))}), neg); }), "");
}

}  // namespace
}  // namespace kestrel::exec::testing
