#include <gtest/gtest.h>

#include "exec/ops/common/join_condition.hpp"
#include "exec/ops/hash_join/hash_join.hpp"
#include "join_test_util.hpp"

namespace kestrel::exec::test {
namespace {

using plan::JoinType;

struct JoinRun {
  int threads = 1;
  bool dictionary = false;
  size_t batch_rows = 23;
  size_t max_output_rows = kCpuOutputRows;
  std::vector<Batch>* batches = nullptr;  ///< receives the output batches when set
};

std::vector<Row> run_hash_join(const RefJoin& j, const JoinRun& how) {
  auto build = std::make_shared<HashJoinBuild>(make_schema(j.right_types), j.right_keys);
  JoinSpec spec;
  spec.type = j.type;
  spec.null_aware = j.null_aware;
  spec.max_output_rows = how.max_output_rows;
  if (j.condition) spec.condition = batch_condition(j.condition, j.left_types.size());
  auto probe = std::make_shared<HashJoinProbe>(build, make_schema(j.left_types), j.left_keys, spec);
  auto collector = std::make_shared<BatchCollector>(probe->output_schema());
  auto unmatched = std::make_shared<BatchCollector>(probe->output_schema());
  std::vector<Pipeline> p(2);
  p[0] = {std::make_shared<BatchSource>(make_batches(j.right_types, j.right, how.batch_rows, how.dictionary)), {},
          build, {}};
  p[1] = {std::make_shared<BatchSource>(make_batches(j.left_types, j.left, how.batch_rows + 6, how.dictionary)),
          {probe}, collector, {0}};
  if (emits_unmatched_build(j.type)) p.push_back({std::make_shared<HashJoinUnmatchedSource>(probe, 7), {}, unmatched, {1}});
  auto rows = run_and_collect(std::move(p), collector, how.threads);
  for (auto& r : rows_of(unmatched->batches())) rows.push_back(std::move(r));
  if (how.batches != nullptr) *how.batches = collector->batches();
  return rows;
}

void check_join(const RefJoin& j, const std::string& what) {
  auto expected = reference_join(j);
  for (int threads : {1, 4}) {
    for (bool dictionary : {false, true}) {
      expect_same_rows(run_hash_join(j, {threads, dictionary}), expected,
                       what + " " + plan::join_type_name(j.type) + (j.null_aware ? " null-aware" : "") +
                           (j.condition ? " +condition" : "") + " threads=" + std::to_string(threads) +
                           " dict=" + std::to_string(dictionary));
    }
  }
}

const JoinType kTypes[] = {JoinType::kInner, JoinType::kLeft, JoinType::kRight, JoinType::kFull,
                           JoinType::kSemi,  JoinType::kAnti, JoinType::kMark};

void check_all_types(RefJoin j, const std::string& what) {
  for (JoinType t : kTypes) {
    for (bool with_condition : {false, true}) {
      for (bool null_aware : {false, true}) {
        if (null_aware && t != JoinType::kAnti && t != JoinType::kMark) continue;
        j.type = t;
        j.null_aware = null_aware;
        j.condition = with_condition ? less_than(j.left_types.size() - 1, j.right_types.size() - 1, 3) : nullptr;
        check_join(j, what);
      }
    }
  }
}

TEST(HashJoinCpu, EveryJoinTypeOnEveryKeyType) {
  for (const LogicalType& t : storable_types()) {
    RefJoin j;
    j.left_types = {t, TypeId::kInteger};
    j.right_types = {t, TypeId::kInteger};
    j.left = keyed_rows({t}, 90, 1, 0.1);
    j.right = keyed_rows({t}, 50, 2, 0.1, 8);
    j.left_keys = {0};
    j.right_keys = {0};
    check_all_types(j, t.to_string());
  }
}

TEST(HashJoinCpu, MultiColumnKeysWithStrings) {
  RefJoin j;
  j.left_types = {TypeId::kVarchar, TypeId::kSmallInt, LogicalType::decimal(38, 10), TypeId::kInteger};
  j.right_types = {TypeId::kInteger, TypeId::kVarchar, TypeId::kSmallInt, LogicalType::decimal(38, 10),
                   TypeId::kInteger};
  j.left = keyed_rows({TypeId::kVarchar, TypeId::kSmallInt, j.left_types[2]}, 120, 3, 0.08, 3);
  for (const Row& r : keyed_rows({TypeId::kVarchar, TypeId::kSmallInt, j.left_types[2]}, 70, 4, 0.05, 3)) {
    Row row{Value::integer(static_cast<int32_t>(r.size()))};
    row.insert(row.end(), r.begin(), r.end());
    j.right.push_back(row);
  }
  j.left_keys = {0, 1, 2};
  j.right_keys = {1, 2, 3};
  check_all_types(j, "three keys");
}

TEST(HashJoinCpu, NullAwareAntiAndMarkFollowNotInRules) {
  RefJoin j;
  j.left_types = {TypeId::kInteger, TypeId::kInteger};
  j.right_types = {TypeId::kInteger, TypeId::kInteger};
  j.left_keys = {0};
  j.right_keys = {0};
  auto row = [](std::optional<int> k) {
    return Row{k ? Value::integer(*k) : Value::null(TypeId::kInteger), Value::integer(0)};
  };
  j.left = {row(1), row(2), row(std::nullopt)};
  auto expect = [&](JoinType type, std::vector<Row> right, std::vector<Row> expected, const std::string& what) {
    j.type = type;
    j.null_aware = true;
    j.right = std::move(right);
    for (int threads : {1, 4}) expect_same_rows(run_hash_join(j, {threads}), expected, what);
  };
  auto marked = [&](std::optional<int> k, std::optional<bool> m) {
    Row r = row(k);
    r.push_back(m ? Value::boolean(*m) : Value::null(TypeId::kBoolean));
    return r;
  };
  // NOT IN (empty) is TRUE for every row, NULL included.
  expect(JoinType::kAnti, {}, {row(1), row(2), row(std::nullopt)}, "empty build");
  expect(JoinType::kMark, {}, {marked(1, false), marked(2, false), marked(std::nullopt, false)}, "mark empty");
  // x NOT IN (1): TRUE for 2, FALSE for 1, NULL for NULL.
  expect(JoinType::kAnti, {row(1)}, {row(2)}, "no null in build");
  expect(JoinType::kMark, {row(1)}, {marked(1, true), marked(2, false), marked(std::nullopt, std::nullopt)}, "mark");
  // x NOT IN (1, NULL): never TRUE.
  expect(JoinType::kAnti, {row(1), row(std::nullopt)}, {}, "null in build");
  expect(JoinType::kMark, {row(1), row(std::nullopt)},
         {marked(1, true), marked(2, std::nullopt), marked(std::nullopt, std::nullopt)}, "mark null in build");
  // Without null-awareness (NOT EXISTS): NULL keys simply never match.
  j.null_aware = false;
  j.type = JoinType::kAnti;
  j.right = {row(1), row(std::nullopt)};
  expect_same_rows(run_hash_join(j, {}), {row(2), row(std::nullopt)}, "not exists");
}

TEST(HashJoinCpu, NullAwareResidualComparisonCanBeUnknown) {
  // x > ALL (...) of a correlated sub-query in domain form: the key is the domain's (never NULL), the comparison is
  // the residual condition. Rows (domain, x) against (domain, y); the mark is x <= ANY (y of the row's domain).
  RefJoin j;
  j.left_types = {TypeId::kInteger, TypeId::kInteger};
  j.right_types = j.left_types;
  j.left_keys = {0};
  j.right_keys = {0};
  auto row = [](int d, std::optional<int> v) {
    return Row{Value::integer(d), v ? Value::integer(*v) : Value::null(TypeId::kInteger)};
  };
  j.left = {row(1, 5), row(2, 5), row(3, 5), row(4, std::nullopt), row(5, std::nullopt)};
  // Domain 1: {9, NULL}, a match. Domain 2: {1, NULL}, none, one NULL. Domain 3: {1}. Domain 4: {1}. Domain 5: {}.
  j.right = {row(1, 9), row(1, std::nullopt), row(2, 1), row(2, std::nullopt), row(3, 1), row(4, 1)};
  j.condition = [](const Row& l, const Row& r) {
    if (l[1].is_null() || r[1].is_null()) return Value::null(TypeId::kBoolean);
    return Value::boolean(l[1].as_int64() <= r[1].as_int64());
  };
  j.null_aware = true;
  auto marked = [&](int d, std::optional<int> v, std::optional<bool> m) {
    Row r = row(d, v);
    r.push_back(m ? Value::boolean(*m) : Value::null(TypeId::kBoolean));
    return r;
  };
  const std::vector<Row> marks = {marked(1, 5, true), marked(2, 5, std::nullopt), marked(3, 5, false),
                                  marked(4, std::nullopt, std::nullopt), marked(5, std::nullopt, false)};
  j.type = JoinType::kMark;
  expect_same_rows(reference_join(j), marks, "reference");
  check_join(j, "residual comparison");
  // The anti join (x > ALL in WHERE) keeps the FALSE marks only.
  j.type = JoinType::kAnti;
  expect_same_rows(reference_join(j), {row(3, 5), row(5, std::nullopt)}, "reference anti");
  check_join(j, "residual comparison");
}

TEST(HashJoinCpu, NullAwareMultiColumnRowComparison) {
  // (a, b) NOT IN (...) with NULLs in some components: unknown when the non-NULL components are equal.
  RefJoin j;
  j.left_types = {TypeId::kInteger, TypeId::kVarchar, TypeId::kInteger};
  j.right_types = j.left_types;
  j.left_keys = {0, 1};
  j.right_keys = {0, 1};
  j.left = keyed_rows({TypeId::kInteger, TypeId::kVarchar}, 80, 5, 0.25, 3);
  j.right = keyed_rows({TypeId::kInteger, TypeId::kVarchar}, 12, 6, 0.25, 3);
  for (JoinType t : {JoinType::kAnti, JoinType::kMark}) {
    for (bool with_condition : {false, true}) {
      j.type = t;
      j.null_aware = true;
      j.condition = with_condition ? less_than(2, 2, 2) : nullptr;
      check_join(j, "multi-column not in");
    }
  }
}

TEST(HashJoinCpu, SingleJoinErrorsOnTwoMatches) {
  RefJoin j;
  j.left_types = {TypeId::kVarchar, TypeId::kInteger};
  j.right_types = {TypeId::kVarchar, TypeId::kInteger};
  j.left_keys = {0};
  j.right_keys = {0};
  j.type = JoinType::kSingle;
  j.left = keyed_rows({TypeId::kVarchar}, 60, 7, 0.1);
  j.left.push_back({Value::varchar("a"), Value::integer(9)});
  j.right = {{Value::varchar("a"), Value::integer(1)}, {Value::varchar("b"), Value::integer(2)},
             {Value::null(TypeId::kVarchar), Value::integer(3)}, {Value::null(TypeId::kVarchar), Value::integer(4)}};
  check_join(j, "unique build keys");
  j.right.push_back({Value::varchar("a"), Value::integer(5)});
  for (int threads : {1, 4}) {
    try {
      run_hash_join(j, {threads});
      ADD_FAILURE() << "expected an error";
    } catch (const InvalidInput& e) {
      EXPECT_EQ(e.message(), "more than one row returned by a subquery used as an expression");
    }
  }
  // The condition decides which candidates count.
  j.condition = [](const Row&, const Row& r) { return Value::boolean(r[1].as_int64() != 5); };
  check_join(j, "condition removes the duplicate");
}

TEST(HashJoinCpu, EmptyInputsAndOneRow) {
  for (JoinType t : kTypes) {
    RefJoin j;
    j.type = t;
    j.left_types = {TypeId::kBigInt, TypeId::kInteger};
    j.right_types = {TypeId::kBigInt, TypeId::kInteger};
    j.left_keys = {0};
    j.right_keys = {0};
    auto rows = keyed_rows({TypeId::kBigInt}, 30, 8, 0.1, 3);
    j.left = rows;
    check_join(j, "empty build");
    j.left = {};
    j.right = rows;
    check_join(j, "empty probe");
    j.left = {rows[0]};
    j.right = {rows[0]};
    check_join(j, "one row");
  }
}

TEST(HashJoinCpu, SkewedKeysAndBoundedOutputBatches) {
  RefJoin j;
  j.left_types = {TypeId::kInteger, TypeId::kInteger};
  j.right_types = {TypeId::kInteger, TypeId::kInteger};
  j.left_keys = {0};
  j.right_keys = {0};
  for (int i = 0; i < 3000; ++i) j.right.push_back({Value::integer(i % 10 == 0 ? i : 7), Value::integer(i % 10)});
  for (int i = 0; i < 40; ++i) j.left.push_back({Value::integer(i % 4 == 0 ? 7 : i), Value::integer(i % 10)});
  for (JoinType t : {JoinType::kInner, JoinType::kLeft, JoinType::kFull, JoinType::kSemi}) {
    j.type = t;
    auto expected = reference_join(j);
    for (int threads : {1, 4}) {
      std::vector<Batch> batches;
      expect_same_rows(run_hash_join(j, {threads, false, 23, 100, &batches}), expected, "skew");
      for (const auto& b : batches) EXPECT_LE(b.num_rows(), 100u);
    }
  }
}

TEST(HashJoinCpu, ResidualConditionFromABoundExpression) {
  RefJoin j;
  j.left_types = {TypeId::kVarchar, TypeId::kInteger};
  j.right_types = {TypeId::kVarchar, TypeId::kInteger};
  j.left = keyed_rows({TypeId::kVarchar}, 70, 9, 0.1);
  j.right = keyed_rows({TypeId::kVarchar}, 40, 10, 0.1);
  j.left_keys = {0};
  j.right_keys = {0};
  j.condition = less_than(1, 1, 0);
  // left.c1 < right.c1 as a plan expression over [left c0, left c1, right c0, right c1].
  auto expr = plan::make_function(plan::ScalarFunction::kLess, TypeId::kBoolean,
                                  {plan::make_column_ref(1, TypeId::kInteger, "l"),
                                   plan::make_column_ref(3, TypeId::kInteger, "r")});
  for (JoinType t : {JoinType::kInner, JoinType::kLeft, JoinType::kAnti, JoinType::kMark}) {
    j.type = t;
    auto build = std::make_shared<HashJoinBuild>(make_schema(j.right_types), j.right_keys);
    JoinSpec spec;
    spec.type = t;
    spec.condition = make_join_condition(expr);
    auto probe = std::make_shared<HashJoinProbe>(build, make_schema(j.left_types), j.left_keys, spec);
    auto collector = std::make_shared<BatchCollector>(probe->output_schema());
    std::vector<Pipeline> p(2);
    p[0] = {std::make_shared<BatchSource>(make_batches(j.right_types, j.right, 9, true)), {}, build, {}};
    p[1] = {std::make_shared<BatchSource>(make_batches(j.left_types, j.left, 9, false)), {probe}, collector, {0}};
    expect_same_rows(run_and_collect(std::move(p), collector, 4), reference_join(j), "expression condition");
  }
}

}  // namespace
}  // namespace kestrel::exec::test
