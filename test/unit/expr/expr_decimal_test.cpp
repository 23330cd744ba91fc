#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

int128_t p10(int e) { return pow10_i128(e); }

TEST(ExprDecimal, TpchChargeIsExact) {
  // l_extendedprice * (1 - l_discount) * (1 + l_tax) as the binder types it (DECIMAL(15,2) columns).
  const LogicalType price = dec(15, 2);
  Batch batch = make_batch({column(price, {decv(123456, 15, 2), decv(9999999999999, 15, 2), null_of(price)}),
                            column(price, {decv(4, 15, 2), decv(10, 15, 2), decv(1, 15, 2)}),
                            column(price, {decv(2, 15, 2), decv(8, 15, 2), decv(0, 15, 2)})});
  ExprPtr one_minus = fn(F::kSubtract, dec(16, 2), {lit(decv(100, 16, 2)), cast(ref(1, price), dec(16, 2))});
  ExprPtr one_plus = fn(F::kAdd, dec(16, 2), {lit(decv(100, 16, 2)), cast(ref(2, price), dec(16, 2))});
  ExprPtr disc_price = fn(F::kMultiply, dec(31, 4), {ref(0, price), one_minus});
  ExprPtr charge = fn(F::kMultiply, dec(38, 6), {disc_price, one_plus});
  // By hand: 1234.56 * 0.96 = 1185.1776; * 1.02 = 1208.881152.
  //          99999999999.99 * 0.90 = 89999999999.9910; * 1.08 = 97199999999.990280
  EXPECT_EQ(eval(disc_price, batch),
            (std::vector<Value>{decv(11851776, 31, 4), decv(899999999999910, 31, 4), null_of(dec(31, 4))}));
  EXPECT_EQ(eval(charge, batch), (std::vector<Value>{decv(1208881152, 38, 6), decv(97199999999990280, 38, 6),
                                                      null_of(dec(38, 6))}));
}

TEST(ExprDecimal, MultiplyWideResultFromNarrowInputs) {
  const LogicalType t = dec(15, 2);
  Batch batch = make_batch({column(t, {decv(1234567, 15, 2), decv(-999999999999999, 15, 2)})});
  // 12345.67^2 = 152415567.7489; (-9999999999999.99)^2 = 99999999999999800000000000.0001
  const int128_t big = p10(15) - 1;
  EXPECT_EQ(eval(fn(F::kMultiply, dec(30, 4), {ref(0, t), ref(0, t)}), batch),
            (std::vector<Value>{decv(int128_t{1234567} * 1234567, 30, 4), decv(big * big, 30, 4)}));
  EXPECT_EQ(int128_to_string(big * big), "999999999999998000000000000001");
}

TEST(ExprDecimal, DivisionRoundsHalfAwayFromZero) {
  const LogicalType t = dec(15, 2);
  Batch batch = make_batch({column(t, {decv(1000, 15, 2), decv(2000, 15, 2), decv(-2000, 15, 2), decv(100, 15, 2),
                                       decv(-100, 15, 2), null_of(t)}),
                            column(t, {decv(300, 15, 2), decv(300, 15, 2), decv(300, 15, 2), decv(800, 15, 2),
                                       decv(800, 15, 2), decv(0, 15, 2)})});
  // 10/3 = 3.333 -> 3.33; 20/3 = 6.667 -> 6.67; -6.67; 1/8 = 0.125 -> 0.13; -0.13; NULL (no error).
  EXPECT_EQ(eval(fn(F::kDivide, dec(17, 2), {ref(0, t), ref(1, t)}), batch),
            (std::vector<Value>{decv(333, 17, 2), decv(667, 17, 2), decv(-667, 17, 2), decv(13, 17, 2),
                                decv(-13, 17, 2), null_of(dec(17, 2))}));
  // DECIMAL(10,0) / DECIMAL(5,3) -> DECIMAL(16,3): 7 / 0.002 = 3500.000; 1 / 3.000 = 0.333
  Batch b2 = make_batch({column(dec(10, 0), {decv(7, 10, 0), decv(1, 10, 0)}),
                         column(dec(5, 3), {decv(2, 5, 3), decv(3000, 5, 3)})});
  EXPECT_EQ(eval(fn(F::kDivide, dec(16, 3), {ref(0, dec(10, 0)), ref(1, dec(5, 3))}), b2),
            (std::vector<Value>{decv(3500000, 16, 3), decv(333, 16, 3)}));
  Batch zero = make_batch({column(t, {decv(100, 15, 2)})});
  EXPECT_EQ(invalid_input_message(
                [&] { eval(fn(F::kDivide, dec(17, 2), {ref(0, t), lit(decv(0, 15, 2))}), zero); }),
            "division by zero");
}

TEST(ExprDecimal, WideDivision) {
  const LogicalType t = dec(38, 4);
  // 10^33 / 3 at scale 4 -> 333...3.3333: 37 digits, but the scaled numerator 10^41 needs 256 bits.
  Batch batch = make_batch({column(t, {decv(p10(37), 38, 4)}), column(t, {decv(30000, 38, 4)})});
  // 10^41 / 30000 = 10^37 / 3 = 333...3.33 (37 threes before the point): the product 10^41 leaves int128.
  const int128_t expected = p10(37) / 3;
  const std::vector<Value> got = eval(fn(F::kDivide, t, {ref(0, t), ref(1, t)}), batch);
  EXPECT_EQ(got[0], decv(expected, 38, 4));
  EXPECT_EQ(got[0].to_string(), "333333333333333333333333333333333.3333");
}

TEST(ExprDecimal, AddSubtractAndModulo) {
  const LogicalType t = dec(5, 2);
  Batch batch = make_batch({column(t, {decv(1050, 5, 2), decv(-1050, 5, 2), decv(99999, 5, 2)}),
                            column(t, {decv(300, 5, 2), decv(300, 5, 2), decv(1, 5, 2)})});
  EXPECT_EQ(eval(fn(F::kAdd, dec(6, 2), {cast(ref(0, t), dec(6, 2)), cast(ref(1, t), dec(6, 2))}), batch),
            (std::vector<Value>{decv(1350, 6, 2), decv(-750, 6, 2), decv(100000, 6, 2)}));
  EXPECT_EQ(eval(fn(F::kSubtract, dec(6, 2), {cast(ref(0, t), dec(6, 2)), cast(ref(1, t), dec(6, 2))}), batch),
            (std::vector<Value>{decv(750, 6, 2), decv(-1350, 6, 2), decv(99998, 6, 2)}));
  // 10.50 % 3.00 = 1.50, -10.50 % 3.00 = -1.50 (sign of the dividend), 999.99 % 0.01 = 0
  EXPECT_EQ(eval(fn(F::kModulo, dec(5, 2), {ref(0, t), ref(1, t)}), batch),
            (std::vector<Value>{decv(150, 5, 2), decv(-150, 5, 2), decv(0, 5, 2)}));
}

TEST(ExprDecimal, OverflowDetectionInBothWidths) {
  // int64 storage: a DECIMAL(5,2) result cannot hold 1000.00.
  const LogicalType t = dec(5, 2);
  Batch narrow = make_batch({column(t, {decv(99999, 5, 2)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kAdd, t, {ref(0, t), lit(decv(1, 5, 2))}), narrow); }),
            "DECIMAL(5,2) overflow in 999.99 + 0.01");
  // int128 storage: 38 nines + 1.
  const LogicalType w = dec(38, 0);
  Batch wide = make_batch({column(w, {decv(p10(38) - 1, 38, 0)})});
  EXPECT_EQ(invalid_input_message([&] { eval(fn(F::kAdd, w, {ref(0, w), lit(decv(1, 38, 0))}), wide); }),
            "DECIMAL(38,0) overflow in " + std::string(38, '9') + " + 1");
  // The product leaves int128 entirely.
  EXPECT_NE(invalid_input_message([&] { eval(fn(F::kMultiply, w, {ref(0, w), ref(0, w)}), wide); }), "");
  // Fits in int128 but has more than 38 digits: 10^19 * 10^19.
  Batch b2 = make_batch({column(dec(20, 0), {decv(p10(19), 20, 0)})});
  EXPECT_EQ(invalid_input_message(
                [&] { eval(fn(F::kMultiply, w, {ref(0, dec(20, 0)), ref(0, dec(20, 0))}), b2); }),
            "DECIMAL(38,0) overflow in 10000000000000000000 * 10000000000000000000");
  // Negative direction: -(10^38 - 1) - 1.
  Batch neg = make_batch({column(w, {decv(-(p10(38) - 1), 38, 0)})});
  EXPECT_NE(invalid_input_message([&] { eval(fn(F::kSubtract, w, {ref(0, w), lit(decv(1, 38, 0))}), neg); }), "");
}

TEST(ExprDecimal, ResultsAgreeWithReferenceLoop) {
  // Reference: exact int128 arithmetic written out here, over a grid of values including negatives and NULLs.
  const LogicalType a_t = dec(12, 3), b_t = dec(9, 1), mul_t = dec(21, 4);
  std::vector<Value> av, bv;
  std::vector<std::optional<int64_t>> araw, braw;
  for (int i = 0; i < 50; ++i) {
    const int64_t x = (i * 7919LL % 2000003 - 1000001) * 1013;
    const int64_t y = (i * 104729LL % 20001) - 10000;
    araw.push_back(i % 11 == 3 ? std::nullopt : std::optional(x));
    braw.push_back(i % 13 == 5 ? std::nullopt : std::optional(y));
    av.push_back(araw.back() ? decv(*araw.back(), 12, 3) : null_of(a_t));
    bv.push_back(braw.back() ? decv(*braw.back(), 9, 1) : null_of(b_t));
  }
  Batch batch = make_batch({column(a_t, av), column(b_t, bv)});
  std::vector<Value> got = eval(fn(F::kMultiply, mul_t, {ref(0, a_t), ref(1, b_t)}), batch);
  for (size_t i = 0; i < got.size(); ++i) {
    const Value expected = araw[i] && braw[i] ? decv(int128_t{*araw[i]} * *braw[i], 21, 4) : null_of(mul_t);
    EXPECT_EQ(got[i], expected) << "row " << i;
  }
}

}  // namespace
}  // namespace kestrel::exec::testing
