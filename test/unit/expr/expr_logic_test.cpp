#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

// The three truth values as written in SQL: 0 false, 1 true, 2 NULL.
Value tv(int v) { return v == 2 ? null_of(kBool) : b(v == 1); }

// Every pair of truth values, as two columns of 9 rows.
Batch all_pairs() {
  std::vector<Value> a, c;
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) {
      a.push_back(tv(x));
      c.push_back(tv(y));
    }
  }
  return make_batch({column(kBool, a), column(kBool, c)});
}

TEST(ExprLogic, AndTruthTable) {
  // SQL's table, row-major over (false, true, NULL) x (false, true, NULL).
  const int expected[9] = {0, 0, 0, 0, 1, 2, 0, 2, 2};
  std::vector<Value> got = eval(node(ExprKind::kAnd, kBool, {ref(0, kBool), ref(1, kBool)}), all_pairs());
  for (int i = 0; i < 9; ++i) EXPECT_EQ(got[i], tv(expected[i])) << "row " << i;
}

TEST(ExprLogic, OrTruthTable) {
  const int expected[9] = {0, 1, 2, 1, 1, 1, 2, 1, 2};
  std::vector<Value> got = eval(node(ExprKind::kOr, kBool, {ref(0, kBool), ref(1, kBool)}), all_pairs());
  for (int i = 0; i < 9; ++i) EXPECT_EQ(got[i], tv(expected[i])) << "row " << i;
}

TEST(ExprLogic, NaryWithConstants) {
  Batch batch = all_pairs();
  // x AND y AND NULL: false where x or y is false, else NULL.
  std::vector<Value> got =
      eval(node(ExprKind::kAnd, kBool, {ref(0, kBool), ref(1, kBool), lit(null_of(kBool))}), batch);
  const int and_null[9] = {0, 0, 0, 0, 2, 2, 0, 2, 2};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(got[i], tv(and_null[i])) << "row " << i;
  // x OR y OR TRUE is always true.
  got = eval(node(ExprKind::kOr, kBool, {ref(0, kBool), ref(1, kBool), lit(b(true))}), batch);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(got[i], b(true));
}

TEST(ExprLogic, NotAndIsNull) {
  Batch batch = make_batch({column(kBool, {tv(0), tv(1), tv(2)})});
  EXPECT_EQ(eval(node(ExprKind::kNot, kBool, {ref(0, kBool)}), batch), (std::vector<Value>{tv(1), tv(0), tv(2)}));
  EXPECT_EQ(eval(node(ExprKind::kIsNull, kBool, {ref(0, kBool)}), batch),
            (std::vector<Value>{b(false), b(false), b(true)}));
  EXPECT_EQ(eval(node(ExprKind::kIsNotNull, kBool, {ref(0, kBool)}), batch),
            (std::vector<Value>{b(true), b(true), b(false)}));
  EXPECT_EQ(eval(node(ExprKind::kIsNull, kBool, {lit(null_of(kInt))}), batch), (std::vector<Value>(3, b(true))));
}

TEST(ExprLogic, InListWithNulls) {
  Batch batch = make_batch({column(kInt, {i32(1), i32(2), i32(5), null_of(kInt)})});
  // x IN (1, 2): true, true, false, NULL
  EXPECT_EQ(eval(node(ExprKind::kInList, kBool, {ref(0, kInt), lit(i32(1)), lit(i32(2))}), batch),
            (std::vector<Value>{b(true), b(true), b(false), null_of(kBool)}));
  // x IN (1, NULL): true, NULL, NULL, NULL (no match with a NULL in the list is unknown)
  EXPECT_EQ(eval(node(ExprKind::kInList, kBool, {ref(0, kInt), lit(i32(1)), lit(null_of(kInt))}), batch),
            (std::vector<Value>{b(true), null_of(kBool), null_of(kBool), null_of(kBool)}));
  // NOT IN (1, NULL): false, NULL, NULL, NULL
  EXPECT_EQ(eval(node(ExprKind::kNot, kBool,
                      {node(ExprKind::kInList, kBool, {ref(0, kInt), lit(i32(1)), lit(null_of(kInt))})}),
                 batch),
            (std::vector<Value>{b(false), null_of(kBool), null_of(kBool), null_of(kBool)}));
  // A column on the list side.
  Batch two = make_batch({column(kInt, {i32(1), i32(2)}), column(kInt, {i32(7), i32(2)})});
  EXPECT_EQ(eval(node(ExprKind::kInList, kBool, {ref(0, kInt), ref(1, kInt), lit(i32(9))}), two),
            (std::vector<Value>{b(false), b(true)}));
}

TEST(ExprLogic, InListOnDictionaryStrings) {
  Batch batch = make_batch({dictionary_column({"MAIL", "SHIP", "AIR"}, {0, 1, 2, -1, 1, 0})});
  EXPECT_EQ(eval(node(ExprKind::kInList, kBool, {ref(0, kVarchar), lit(str("MAIL")), lit(str("SHIP"))}), batch),
            (std::vector<Value>{b(true), b(true), b(false), null_of(kBool), b(true), b(true)}));
}

TEST(ExprCase, PicksFirstTrueBranchAndElse) {
  Batch batch = make_batch({column(kInt, {i32(1), i32(5), i32(10), null_of(kInt)})});
  // CASE WHEN x < 3 THEN 'small' WHEN x < 8 THEN 'mid' ELSE 'big' END
  ExprPtr e = node(ExprKind::kCase, kVarchar,
                   {fn(F::kLess, kBool, {ref(0, kInt), lit(i32(3))}), lit(str("small")),
                    fn(F::kLess, kBool, {ref(0, kInt), lit(i32(8))}), lit(str("mid")), lit(str("big"))});
  EXPECT_EQ(eval(e, batch), (std::vector<Value>{str("small"), str("mid"), str("big"), str("big")}));
  // Without ELSE the binder writes ELSE NULL.
  ExprPtr no_else = node(ExprKind::kCase, kInt,
                         {fn(F::kGreater, kBool, {ref(0, kInt), lit(i32(4))}), ref(0, kInt), lit(null_of(kInt))});
  EXPECT_EQ(eval(no_else, batch), (std::vector<Value>{null_of(kInt), i32(5), i32(10), null_of(kInt)}));
}

TEST(ExprCase, BranchesOnlySeeTheirRows) {
  // CASE WHEN y = 0 THEN 0 ELSE x / y END must not divide by zero.
  Batch batch = make_batch({column(kInt, {i32(10), i32(7), i32(9)}), column(kInt, {i32(2), i32(0), i32(3)})});
  ExprPtr e = node(ExprKind::kCase, kInt,
                   {fn(F::kEqual, kBool, {ref(1, kInt), lit(i32(0))}), lit(i32(0)),
                    fn(F::kDivide, kInt, {ref(0, kInt), ref(1, kInt)})});
  EXPECT_EQ(eval(e, batch), (std::vector<Value>{i32(5), i32(0), i32(3)}));
}

TEST(ExprCase, DecimalBranchesAndEmptyBatch) {
  const LogicalType t = dec(15, 2);
  Batch batch = make_batch({column(kVarchar, {str("PROMO BRUSHED"), str("STANDARD"), null_of(kVarchar)}),
                            column(t, {decv(1000, 15, 2), decv(2000, 15, 2), decv(3000, 15, 2)})});
  ExprPtr e = node(ExprKind::kCase, t,
                   {fn(F::kLike, kBool, {ref(0, kVarchar), lit(str("PROMO%"))}), ref(1, t), lit(decv(0, 15, 2))});
  EXPECT_EQ(eval(e, batch), (std::vector<Value>{decv(1000, 15, 2), decv(0, 15, 2), decv(0, 15, 2)}));
  Batch empty = make_batch({column(kVarchar, {}), column(t, {})});
  EXPECT_TRUE(eval(e, empty).empty());
}

TEST(ExprConditional, CoalesceNullIfGreatestLeast) {
  Batch batch = make_batch({column(kInt, {null_of(kInt), i32(2), null_of(kInt)}),
                            column(kInt, {i32(7), i32(3), null_of(kInt)})});
  EXPECT_EQ(eval(fn(F::kCoalesce, kInt, {ref(0, kInt), ref(1, kInt), lit(i32(-1))}), batch),
            (std::vector<Value>{i32(7), i32(2), i32(-1)}));
  EXPECT_EQ(eval(fn(F::kNullIf, kInt, {ref(1, kInt), lit(i32(3))}), batch),
            (std::vector<Value>{i32(7), null_of(kInt), null_of(kInt)}));
  // NULLs are skipped (PostgreSQL): NULL only when every argument is.
  EXPECT_EQ(eval(fn(F::kGreatest, kInt, {ref(0, kInt), ref(1, kInt)}), batch),
            (std::vector<Value>{i32(7), i32(3), null_of(kInt)}));
  EXPECT_EQ(eval(fn(F::kLeast, kInt, {ref(0, kInt), ref(1, kInt), lit(i32(5))}), batch),
            (std::vector<Value>{i32(5), i32(2), i32(5)}));
  Batch strings = make_batch({column(kVarchar, {str("pear"), null_of(kVarchar)})});
  EXPECT_EQ(eval(fn(F::kGreatest, kVarchar, {ref(0, kVarchar), lit(str("apple"))}), strings),
            (std::vector<Value>{str("pear"), str("apple")}));
  EXPECT_EQ(eval(fn(F::kCoalesce, kVarchar, {ref(0, kVarchar), lit(str("none"))}), strings),
            (std::vector<Value>{str("pear"), str("none")}));
  EXPECT_EQ(eval(fn(F::kNullIf, kVarchar, {ref(0, kVarchar), lit(str("pear"))}), strings),
            (std::vector<Value>{null_of(kVarchar), null_of(kVarchar)}));
}

TEST(ExprCompare, AllTypesAndNulls) {
  Batch batch = make_batch({column(kDouble, {f64(1.5), f64(2), null_of(kDouble)}),
                            column(kDouble, {f64(2.5), f64(2), f64(1)})});
  EXPECT_EQ(eval(fn(F::kLess, kBool, {ref(0, kDouble), ref(1, kDouble)}), batch),
            (std::vector<Value>{b(true), b(false), null_of(kBool)}));
  EXPECT_EQ(eval(fn(F::kGreaterEqual, kBool, {ref(0, kDouble), ref(1, kDouble)}), batch),
            (std::vector<Value>{b(false), b(true), null_of(kBool)}));
  EXPECT_EQ(eval(fn(F::kIsDistinctFrom, kBool, {ref(0, kDouble), lit(null_of(kDouble))}), batch),
            (std::vector<Value>{b(true), b(true), b(false)}));
  EXPECT_EQ(eval(fn(F::kIsNotDistinctFrom, kBool, {ref(0, kDouble), ref(1, kDouble)}), batch),
            (std::vector<Value>{b(false), b(true), b(false)}));
  Batch strings = make_batch({column(kVarchar, {str("abc"), str("abd"), str(""), str("ab")})});
  EXPECT_EQ(eval(fn(F::kLess, kBool, {ref(0, kVarchar), lit(str("abd"))}), strings),
            (std::vector<Value>{b(true), b(false), b(true), b(true)}));
  Batch dates = make_batch({column(kDate, {date("1998-09-02"), date("1998-12-01")})});
  EXPECT_EQ(eval(fn(F::kLessEqual, kBool, {ref(0, kDate), lit(date("1998-09-02"))}), dates),
            (std::vector<Value>{b(true), b(false)}));
  Batch wide = make_batch({column(dec(38, 2), {decv(-pow10_i128(37), 38, 2), decv(5, 38, 2)})});
  EXPECT_EQ(eval(fn(F::kGreater, kBool, {ref(0, dec(38, 2)), lit(decv(0, 38, 2))}), wide),
            (std::vector<Value>{b(false), b(true)}));
  // '1 month' and '30 days' are equal intervals (PostgreSQL).
  Batch ivs = make_batch({column(kInterval, {interval(1, 0), interval(0, 31)})});
  EXPECT_EQ(eval(fn(F::kEqual, kBool, {ref(0, kInterval), lit(interval(0, 30))}), ivs),
            (std::vector<Value>{b(true), b(false)}));
}

TEST(ExprCompare, DictionaryAgainstConstant) {
  Batch batch = make_batch({dictionary_column({"R", "A", "N"}, {0, 1, 2, -1, 2, 2, 0})});
  EXPECT_EQ(eval(fn(F::kEqual, kBool, {ref(0, kVarchar), lit(str("N"))}), batch),
            (std::vector<Value>{b(false), b(false), b(true), null_of(kBool), b(true), b(true), b(false)}));
  EXPECT_EQ(eval(fn(F::kGreater, kBool, {lit(str("M")), ref(0, kVarchar)}), batch),
            (std::vector<Value>{b(false), b(true), b(false), null_of(kBool), b(false), b(false), b(false)}));
  // Two dictionary columns are decoded and compared row by row.
  Batch two = make_batch({dictionary_column({"x", "y"}, {0, 1}), dictionary_column({"y", "x"}, {1, 1})});
  EXPECT_EQ(eval(fn(F::kEqual, kBool, {ref(0, kVarchar), ref(1, kVarchar)}), two),
            (std::vector<Value>{b(true), b(false)}));
}

}  // namespace
}  // namespace kestrel::exec::testing
