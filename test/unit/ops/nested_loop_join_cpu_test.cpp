#include <gtest/gtest.h>

#include "exec/ops/nested_loop_join/nested_loop_join.hpp"
#include "join_test_util.hpp"

namespace kestrel::exec::test {
namespace {

using plan::JoinType;

std::vector<Row> run_nested_loop_join(const RefJoin& j, int threads, bool dictionary, size_t max_output_rows = 64) {
  auto build = std::make_shared<BatchCollector>(make_schema(j.right_types));
  JoinSpec spec;
  spec.type = j.type;
  spec.null_aware = j.null_aware;
  spec.max_output_rows = max_output_rows;
  if (j.condition) spec.condition = batch_condition(j.condition, j.left_types.size());
  auto probe = std::make_shared<NestedLoopJoinProbe>(build, make_schema(j.left_types), spec);
  auto collector = std::make_shared<BatchCollector>(probe->output_schema());
  auto unmatched = std::make_shared<BatchCollector>(probe->output_schema());
  std::vector<Pipeline> p(2);
  p[0] = {std::make_shared<BatchSource>(make_batches(j.right_types, j.right, 11, dictionary)), {}, build, {}};
  p[1] = {std::make_shared<BatchSource>(make_batches(j.left_types, j.left, 13, dictionary)), {probe}, collector, {0}};
  if (emits_unmatched_build(j.type)) {
    p.push_back({std::make_shared<NestedLoopJoinUnmatchedSource>(probe, 5), {}, unmatched, {1}});
  }
  auto rows = run_and_collect(std::move(p), collector, threads);
  for (auto& r : rows_of(unmatched->batches())) rows.push_back(std::move(r));
  for (const auto& b : collector->batches()) EXPECT_LE(b.num_rows(), max_output_rows);
  return rows;
}

void check_join(const RefJoin& j, const std::string& what) {
  auto expected = reference_join(j);
  for (int threads : {1, 4}) {
    for (bool dictionary : {false, true}) {
      expect_same_rows(run_nested_loop_join(j, threads, dictionary), expected,
                       what + " " + plan::join_type_name(j.type) + (j.null_aware ? " null-aware" : "") +
                           " threads=" + std::to_string(threads));
    }
  }
}

/// `left[0] < right[0]` (or <= with `or_equal`) by the test order of values, three-valued.
RowCondition key_less(bool or_equal) {
  return [or_equal](const Row& l, const Row& r) {
    if (l[0].is_null() || r[0].is_null()) return Value::null(TypeId::kBoolean);
    int c = compare_values(l[0], r[0]);
    return Value::boolean(or_equal ? c <= 0 : c < 0);
  };
}

TEST(NestedLoopJoinCpu, EveryJoinTypeWithAnInequality) {
  for (const LogicalType& t : storable_types()) {
    RefJoin j;
    j.left_types = {t, TypeId::kInteger};
    j.right_types = {t, TypeId::kInteger};
    j.left = keyed_rows({t}, 40, 1, 0.1);
    j.right = keyed_rows({t}, 25, 2, 0.1);
    j.condition = key_less(false);
    for (JoinType type : {JoinType::kInner, JoinType::kLeft, JoinType::kRight, JoinType::kFull, JoinType::kSemi,
                          JoinType::kAnti, JoinType::kMark}) {
      j.type = type;
      check_join(j, t.to_string());
    }
  }
}

TEST(NestedLoopJoinCpu, CrossJoinAndEmptySides) {
  RefJoin j;
  j.left_types = {TypeId::kVarchar, TypeId::kInteger};
  j.right_types = {TypeId::kDate, TypeId::kInteger};
  j.left = keyed_rows({TypeId::kVarchar}, 30, 3, 0.1);
  j.right = keyed_rows({TypeId::kDate}, 20, 4, 0.1);
  for (JoinType type : {JoinType::kCross, JoinType::kInner, JoinType::kSemi, JoinType::kAnti, JoinType::kMark,
                        JoinType::kLeft, JoinType::kFull}) {
    j.type = type;
    check_join(j, "no condition");
    auto right = j.right;
    j.right = {};
    check_join(j, "empty right");
    j.right = right;
  }
  j.type = JoinType::kCross;
  j.left = {};
  check_join(j, "empty left");
}

TEST(NestedLoopJoinCpu, NullAwareTakesNullConditionsAsUnknown) {
  RefJoin j;
  j.left_types = {TypeId::kInteger, TypeId::kInteger};
  j.right_types = {TypeId::kInteger, TypeId::kInteger};
  j.left = keyed_rows({TypeId::kInteger}, 50, 5, 0.15, 4);
  j.right = keyed_rows({TypeId::kInteger}, 6, 6, 0.15, 4);
  j.condition = [](const Row& l, const Row& r) {
    if (l[0].is_null() || r[0].is_null()) return Value::null(TypeId::kBoolean);
    return Value::boolean(l[0] == r[0]);
  };
  for (JoinType type : {JoinType::kAnti, JoinType::kMark}) {
    j.type = type;
    j.null_aware = true;
    check_join(j, "not in by condition");
  }
}

TEST(NestedLoopJoinCpu, SingleJoin) {
  RefJoin j;
  j.left_types = {TypeId::kInteger, TypeId::kInteger};
  j.right_types = {TypeId::kInteger, TypeId::kInteger};
  j.left = keyed_rows({TypeId::kInteger}, 20, 7, 0.1);
  j.right = {{Value::integer(0), Value::integer(1)}};
  j.type = JoinType::kSingle;
  check_join(j, "one build row");
  j.right.push_back({Value::integer(5), Value::integer(2)});
  EXPECT_THROW(run_nested_loop_join(j, 4, false), InvalidInput);
  j.condition = key_less(true);
  EXPECT_THROW(run_nested_loop_join(j, 1, false), InvalidInput);
}

}  // namespace
}  // namespace kestrel::exec::test
