// Differential tests of the fused GPU predicate (evaluate_predicate_gpu): every predicate is evaluated by the CPU
// evaluator on a host batch and by the fused kernel on its device copy; values and NULLs must agree exactly, and
// with nulls_as_false the result must be TRUE exactly where the CPU's is TRUE.

#include <gtest/gtest.h>

#include "exec/expr/evaluate.hpp"
#include "exec/expr/predicate_gpu.hpp"
#include "bool_exprs.hpp"
#include "gpu_test_env.hpp"
#include "test_batches.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {
namespace {

using plan::ExprKind;
using plan::ExprPtr;
using plan::ScalarFunction;

const LogicalType kBool = TypeId::kBoolean;

using bool_exprs::col;
using bool_exprs::fn;
using bool_exprs::lit;
using bool_exprs::node;

class PredicateGpuTest : public GpuTest {
 protected:
  /// Compares the fused result with the CPU's; returns whether the predicate was fused at all.
  bool expect_same(const plan::Expr& e, const Batch& host, const Batch& device) {
    exec::EvalContext ctx;
    ColumnPtr cpu = exec::evaluate(e, host, ctx);
    ColumnPtr with_nulls = exec::evaluate_predicate_gpu(e, device, /*nulls_as_false=*/false, stream(), device_mr());
    ColumnPtr as_false = exec::evaluate_predicate_gpu(e, device, /*nulls_as_false=*/true, stream(), device_mr());
    EXPECT_EQ(with_nulls == nullptr, as_false == nullptr) << e.to_string();
    if (!with_nulls || !as_false) return false;
    ColumnPtr back = copy_column(*with_nulls, gpu::host_memory_resource(), stream());
    ColumnPtr mask = copy_column(*as_false, gpu::host_memory_resource(), stream());
    EXPECT_EQ(back->type(), kBool);
    EXPECT_EQ(mask->null_count(), 0u) << e.to_string();
    EXPECT_EQ(back->length(), cpu->length()) << e.to_string();
    EXPECT_EQ(back->null_count(), cpu->null_count()) << e.to_string() << " rows " << host.num_rows();
    for (size_t r = 0; r < cpu->length(); ++r) {
      const bool cpu_true = cpu->is_valid(r) && cpu->value_at(r).as_bool();
      EXPECT_EQ(mask->value_at(r).as_bool(), cpu_true) << e.to_string() << " row " << r;
      EXPECT_EQ(back->is_valid(r), cpu->is_valid(r)) << e.to_string() << " row " << r;
      if (cpu->is_valid(r) && back->is_valid(r)) {
        EXPECT_EQ(back->value_at(r).as_bool(), cpu->value_at(r).as_bool()) << e.to_string() << " row " << r;
      }
      if (HasFailure()) return true;
    }
    return true;
  }
};

/// Predicates the program expresses whole or in part, built against `b`'s schema.
std::vector<ExprPtr> fused_predicates(const Batch& b) {
  auto col = [&b](const std::string& name) { return bool_exprs::col(b, name); };
  std::vector<ExprPtr> v;
  for (auto f : {ScalarFunction::kEqual, ScalarFunction::kNotEqual, ScalarFunction::kLess, ScalarFunction::kLessEqual,
                 ScalarFunction::kGreater, ScalarFunction::kGreaterEqual}) {
    for (const char* t : {"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DOUBLE", "REAL", "DECIMAL(15,2)",
                          "DECIMAL(38,10)", "DATE", "TIMESTAMP"}) {
      v.push_back(fn(f, {col(std::string(t) + "_nulls"), col(t)}));
      v.push_back(fn(f, {col(std::string(t) + "_nulls"), col(std::string(t) + "_nulls")}));
    }
    v.push_back(fn(f, {col("INTEGER_nulls"), lit(Value::integer(0))}));
    v.push_back(fn(f, {lit(Value::date(9000)), col("DATE_nulls")}));
    v.push_back(fn(f, {col("DECIMAL(15,2)_nulls"), lit(Value::decimal(0, 15, 2))}));
    v.push_back(fn(f, {col("DOUBLE"), lit(Value::double_value(0.0))}));
    v.push_back(fn(f, {col("INTEGER"), lit(Value::null(TypeId::kInteger))}));
  }
  const ExprPtr p = fn(ScalarFunction::kLess, {col("INTEGER_nulls"), col("INTEGER")});
  const ExprPtr q = col("BOOLEAN_nulls");
  const ExprPtr dict = fn(ScalarFunction::kEqual, {col("dict"), lit(Value::varchar("AIR"))});
  const ExprPtr like = fn(ScalarFunction::kLike, {col("VARCHAR_nulls"), lit(Value::varchar("%a%"))});
  // A value computed first (a cast) compared in the program.
  const ExprPtr cast = fn(ScalarFunction::kLess, {plan::make_cast(col("INTEGER_nulls"), TypeId::kBigInt), col("BIGINT")});
  const ExprPtr null_bool = lit(Value::null(kBool));
  v.push_back(node(ExprKind::kAnd, {p, q, dict}));
  v.push_back(node(ExprKind::kOr, {p, q, dict}));
  v.push_back(node(ExprKind::kAnd, {q, null_bool}));
  v.push_back(node(ExprKind::kOr, {q, null_bool}));
  v.push_back(node(ExprKind::kNot, {q}));
  v.push_back(node(ExprKind::kNot, {node(ExprKind::kOr, {p, like})}));
  v.push_back(node(ExprKind::kAnd, {cast, node(ExprKind::kNot, {dict})}));
  v.push_back(node(ExprKind::kIsNull, {col("DECIMAL(38,10)_nulls")}));
  v.push_back(node(ExprKind::kIsNotNull, {col("dict")}));
  v.push_back(node(ExprKind::kOr, {node(ExprKind::kIsNull, {col("VARCHAR_nulls")}), lit(Value::boolean(false))}));
  // IN lists with values that occur (the first rows') and a NULL item.
  for (const char* t : {"INTEGER", "BIGINT", "DECIMAL(38,10)", "DATE", "DOUBLE", "SMALLINT"}) {
    const std::string name = std::string(t) + "_nulls";
    std::vector<ExprPtr> items{col(name)};
    const Column& c = *b.column(*b.schema()->index_of(name));
    for (size_t r = 0; r < std::min<size_t>(3, c.length()); ++r) {
      if (c.is_valid(r)) items.push_back(lit(c.value_at(r)));
    }
    if (items.size() == 1) items.push_back(lit(c.value_at(0)));  // an empty batch: any value of the type
    v.push_back(node(ExprKind::kInList, items));
    items.push_back(lit(Value::null(c.type())));
    v.push_back(node(ExprKind::kInList, items));
  }
  // TPC-H-shaped skeletons: ranges joined by AND, alternatives by OR.
  v.push_back(node(ExprKind::kAnd, {fn(ScalarFunction::kGreaterEqual, {col("DATE"), lit(Value::date(0))}),
                                    fn(ScalarFunction::kLess, {col("DATE"), lit(Value::date(20000))}),
                                    fn(ScalarFunction::kLessEqual, {col("DECIMAL(15,2)_nulls"),
                                                                    lit(Value::decimal(100000000, 15, 2))}),
                                    fn(ScalarFunction::kLess, {col("DATE_nulls"), col("DATE")})}));
  v.push_back(node(ExprKind::kOr, {node(ExprKind::kAnd, {dict, p}), node(ExprKind::kAnd, {like, q}),
                                   node(ExprKind::kAnd, {fn(ScalarFunction::kGreater, {col("REAL_nulls"), col("REAL")}),
                                                         node(ExprKind::kNot, {q})})}));
  return v;
}

TEST_F(PredicateGpuTest, MatchesTheCpuEvaluator) {
  for (size_t rows : {size_t{0}, size_t{1}, size_t{37}, size_t{4099}, size_t{1} << 20}) {
    Batch host = make_all_types_batch(rows, 500 + rows);
    Batch device = copy_batch(host, device_mr(), stream());
    for (const ExprPtr& e : fused_predicates(host)) {
      EXPECT_TRUE(expect_same(*e, host, device)) << "not fused: " << e->to_string();
      if (HasFailure()) return;
    }
  }
}

TEST_F(PredicateGpuTest, DeclinesWhatFusingCannotHelp) {
  Batch host = make_all_types_batch(100, 3);
  Batch device = copy_batch(host, device_mr(), stream());
  // One part the program does not express: nothing to fuse.
  ExprPtr like = fn(ScalarFunction::kLike, {col(host, "VARCHAR_nulls"), lit(Value::varchar("%a%"))});
  EXPECT_EQ(exec::evaluate_predicate_gpu(*like, device, true, stream(), device_mr()), nullptr);
  ExprPtr dict = fn(ScalarFunction::kEqual, {col(host, "dict"), lit(Value::varchar("AIR"))});
  EXPECT_EQ(exec::evaluate_predicate_gpu(*dict, device, true, stream(), device_mr()), nullptr);
  // A nesting deeper than the program's stack.
  ExprPtr deep = fn(ScalarFunction::kLess, {col(host, "INTEGER_nulls"), col(host, "INTEGER")});
  for (int k = 0; k < 40; ++k) deep = node(ExprKind::kAnd, {col(host, "BOOLEAN_nulls"), deep});
  EXPECT_EQ(exec::evaluate_predicate_gpu(*deep, device, true, stream(), device_mr()), nullptr);
  // A long but shallow chain fits.
  std::vector<ExprPtr> chain;
  for (int k = 0; k < 40; ++k) {
    chain.push_back(fn(ScalarFunction::kNotEqual, {col(host, "INTEGER_nulls"), lit(Value::integer(k))}));
  }
  EXPECT_TRUE(expect_same(*node(ExprKind::kAnd, chain), host, device));
}

}  // namespace
}  // namespace kestrel::testing
