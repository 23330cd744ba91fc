#include <random>

#include "expr_test_util.hpp"

namespace kestrel::exec::testing {
namespace {

/// Thrown by the reference evaluator where the engine must raise.
struct RefError {};

/// A row-at-a-time evaluator over Values for BIGINT/BOOLEAN expressions, written independently of the kernels:
/// it is the oracle of the randomized test below.
Value ref_eval(const plan::Expr& e, const std::vector<Value>& row) {
  auto child = [&](size_t i) { return ref_eval(*e.children[i], row); };
  switch (e.kind) {
    case ExprKind::kConstant: return e.constant;
    case ExprKind::kColumnRef: return row[e.column_index];
    case ExprKind::kNot: {
      Value v = child(0);
      return v.is_null() ? v : b(!v.as_bool());
    }
    case ExprKind::kIsNull: return b(child(0).is_null());
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      const bool is_and = e.kind == ExprKind::kAnd;
      bool any_null = false, decided = false;
      // Left to right, an argument is evaluated only while the result is open (it raises only then).
      for (size_t i = 0; i < e.children.size() && !decided; ++i) {
        Value v = child(i);
        if (v.is_null()) {
          any_null = true;
        } else if (v.as_bool() != is_and) {
          decided = true;
        }
      }
      if (decided) return b(!is_and);
      return any_null ? null_of(kBool) : b(is_and);
    }
    case ExprKind::kCase: {
      for (size_t i = 0; i + 1 < e.children.size(); i += 2) {
        Value w = child(i);
        if (!w.is_null() && w.as_bool()) return child(i + 1);
      }
      return child(e.children.size() - 1);
    }
    case ExprKind::kInList: {
      Value x = child(0);
      bool any_null = x.is_null();
      for (size_t i = 1; i < e.children.size(); ++i) {
        Value v = child(i);  // items after a match are not evaluated
        if (v.is_null()) {
          any_null = true;
        } else if (!x.is_null() && v.as_int64() == x.as_int64()) {
          return b(true);
        }
      }
      return any_null ? null_of(kBool) : b(false);
    }
    case ExprKind::kFunction: {
      if (e.function == F::kCoalesce) {
        for (size_t i = 0; i < e.children.size(); ++i) {  // arguments after the first non-NULL are not evaluated
          Value v = child(i);
          if (!v.is_null()) return v;
        }
        return null_of(e.type);
      }
      std::vector<Value> args;
      for (size_t i = 0; i < e.children.size(); ++i) args.push_back(child(i));
      if (args[0].is_null() || args[1].is_null()) return null_of(e.type);
      const int64_t x = args[0].as_int64(), y = args[1].as_int64();
      switch (e.function) {
        case F::kAdd: return i64(x + y);
        case F::kSubtract: return i64(x - y);
        case F::kMultiply: return i64(x * y);
        case F::kDivide:
          if (y == 0) throw RefError{};
          return i64(x / y);
        case F::kModulo:
          if (y == 0) throw RefError{};
          return i64(x % y);
        case F::kEqual: return b(x == y);
        case F::kLess: return b(x < y);
        case F::kGreaterEqual: return b(x >= y);
        default: break;
      }
      break;
    }
    default: break;
  }
  ADD_FAILURE() << "reference cannot evaluate " << e.to_string();
  return Value();
}

class ExprGenerator {
 public:
  explicit ExprGenerator(uint32_t seed) : rng_(seed) {}

  ExprPtr integer(int depth) {
    const int pick = depth <= 0 ? static_cast<int>(rng_() % 2) : static_cast<int>(rng_() % 7);
    switch (pick) {
      case 0: return ref(rng_() % 3, kBig);
      case 1: return rng_() % 8 == 0 ? lit(null_of(kBig)) : lit(i64(static_cast<int64_t>(rng_() % 11) - 5));
      case 2: {
        static const F kOps[] = {F::kAdd, F::kSubtract, F::kMultiply, F::kDivide, F::kModulo};
        return fn(kOps[rng_() % 5], kBig, {integer(depth - 1), integer(depth - 1)});
      }
      case 3: return node(ExprKind::kCase, kBig, {boolean(depth - 1), integer(depth - 1), integer(depth - 1)});
      case 4: return fn(F::kCoalesce, kBig, {integer(depth - 1), integer(depth - 1)});
      default: return fn(F::kAdd, kBig, {integer(depth - 1), ref(rng_() % 3, kBig)});
    }
  }

  ExprPtr boolean(int depth) {
    const int pick = depth <= 0 ? 0 : static_cast<int>(rng_() % 6);
    switch (pick) {
      case 0: {
        static const F kOps[] = {F::kEqual, F::kLess, F::kGreaterEqual};
        return fn(kOps[rng_() % 3], kBool, {integer(depth - 1), integer(depth - 1)});
      }
      case 1: return node(ExprKind::kAnd, kBool, {boolean(depth - 1), boolean(depth - 1), boolean(depth - 1)});
      case 2: return node(ExprKind::kOr, kBool, {boolean(depth - 1), boolean(depth - 1)});
      case 3: return node(ExprKind::kNot, kBool, {boolean(depth - 1)});
      case 4: return node(ExprKind::kIsNull, kBool, {integer(depth - 1)});
      default:
        return node(ExprKind::kInList, kBool, {integer(depth - 1), lit(i64(rng_() % 5)), integer(depth - 1)});
    }
  }

 private:
  std::mt19937 rng_;
};

TEST(ExprRandom, VectorizedMatchesRowReference) {
  std::mt19937 data_rng(7);
  std::vector<std::vector<Value>> columns(3);
  const size_t rows = 97;
  for (auto& c : columns) {
    for (size_t r = 0; r < rows; ++r) {
      c.push_back(data_rng() % 6 == 0 ? null_of(kBig) : i64(static_cast<int64_t>(data_rng() % 9) - 4));
    }
  }
  Batch batch = make_batch({column(kBig, columns[0]), column(kBig, columns[1]), column(kBig, columns[2])});
  ExprGenerator gen(11);
  int errors_seen = 0;
  for (int t = 0; t < 400; ++t) {
    ExprPtr e = t % 2 == 0 ? gen.integer(3) : gen.boolean(3);
    SCOPED_TRACE(e->to_string());
    std::vector<Value> expected;
    bool expect_error = false;
    try {
      for (size_t r = 0; r < rows; ++r) expected.push_back(ref_eval(*e, {columns[0][r], columns[1][r], columns[2][r]}));
    } catch (const RefError&) {
      expect_error = true;
    }
    if (expect_error) {
      ++errors_seen;
      EXPECT_EQ(invalid_input_message([&] { eval(e, batch); }), "division by zero");
      continue;
    }
    std::vector<Value> got = eval(e, batch);
    ASSERT_EQ(got.size(), rows);
    for (size_t r = 0; r < rows; ++r) ASSERT_EQ(got[r], expected[r]) << "row " << r;
  }
  // The generator must exercise both outcomes.
  EXPECT_GT(errors_seen, 10);
  EXPECT_LT(errors_seen, 300);
}

TEST(ExprEvaluate, ConstantFoldingAndSharing) {
  EXPECT_EQ(exec::evaluate_constant(*fn(F::kAdd, kInt, {lit(i32(1)), lit(i32(2))})), i32(3));
  EXPECT_EQ(exec::evaluate_constant(*fn(F::kMultiply, dec(4, 2), {lit(decv(15, 2, 1)), lit(decv(15, 2, 1))})),
            decv(225, 4, 2));
  EXPECT_EQ(exec::evaluate_constant(*cast(lit(str("1998-12-01")), kDate)), date("1998-12-01"));
  EXPECT_EQ(exec::evaluate_constant(*fn(F::kDateSubtractInterval, kDate, {lit(date("1998-12-01")), lit(interval(0, 90))})),
            date("1998-09-02"));
  EXPECT_EQ(exec::evaluate_constant(*node(ExprKind::kAnd, kBool, {lit(null_of(kBool)), lit(b(false))})), b(false));
  EXPECT_EQ(exec::evaluate_constant(*lit(Value())), Value());
  EXPECT_EQ(exec::evaluate_constant(*fn(F::kConcat, kVarchar, {lit(str("a")), lit(null_of(kVarchar))})),
            null_of(kVarchar));
  EXPECT_EQ(invalid_input_message([] { exec::evaluate_constant(*cast(lit(str("abc")), kDate)); }),
            "cannot cast 'abc' to DATE");
  EXPECT_EQ(invalid_input_message([] { exec::evaluate_constant(*fn(F::kDivide, kInt, {lit(i32(1)), lit(i32(0))})); }),
            "division by zero");
  // A column reference returns the input column itself.
  Batch batch = make_batch({column(kInt, {i32(1), i32(2)})});
  EvalContext ctx;
  EXPECT_EQ(evaluate(*ref(0, kInt), batch, ctx).get(), batch.column(0).get());
  // A constant is broadcast to the batch's rows.
  ColumnPtr c = evaluate(*lit(str("x")), batch, ctx);
  EXPECT_EQ(values_of(*c), (std::vector<Value>{str("x"), str("x")}));
}

}  // namespace
}  // namespace kestrel::exec::testing
