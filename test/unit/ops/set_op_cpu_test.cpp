#include <gtest/gtest.h>

#include "exec/ops/set_ops/set_op.hpp"
#include "ops_test_util.hpp"

namespace kestrel::exec::test {
namespace {

using plan::SetOpKind;

/// The set operation by its definition: count each distinct row on both sides with loops.
std::vector<Row> reference_set_op(const std::vector<Row>& left, const std::vector<Row>& right, SetOpKind op,
                                  bool all) {
  auto same = [](const Row& a, const Row& b) { return !rows_less(a, b) && !rows_less(b, a); };
  std::vector<Row> distinct;
  for (const auto* side : {&left, &right}) {
    for (const Row& r : *side) {
      bool seen = false;
      for (const Row& d : distinct) seen |= same(d, r);
      if (!seen) distinct.push_back(r);
    }
  }
  std::vector<Row> out;
  for (const Row& d : distinct) {
    uint64_t l = 0;
    uint64_t r = 0;
    for (const Row& x : left) l += same(x, d);
    for (const Row& x : right) r += same(x, d);
    uint64_t n = 0;
    switch (op) {
      case SetOpKind::kUnion: n = all ? l + r : 1; break;
      case SetOpKind::kIntersect: n = all ? std::min(l, r) : (l && r ? 1 : 0); break;
      case SetOpKind::kExcept: n = all ? (l > r ? l - r : 0) : (l && !r ? 1 : 0); break;
    }
    for (uint64_t i = 0; i < n; ++i) out.push_back(d);
  }
  return out;
}

std::vector<Row> run_set_op(const std::vector<LogicalType>& types, const std::vector<Row>& left,
                            const std::vector<Row>& right, SetOpKind op, bool all, int threads, bool dictionary) {
  auto state = std::make_shared<SetOpState>(make_schema(types), op, all);
  auto collector = std::make_shared<BatchCollector>(make_schema(types));
  std::vector<Pipeline> p(3);
  p[0] = {std::make_shared<BatchSource>(make_batches(types, left, 17, dictionary)), {},
          std::make_shared<SetOpSink>(state, 0), {}};
  p[1] = {std::make_shared<BatchSource>(make_batches(types, right, 19, dictionary)), {},
          std::make_shared<SetOpSink>(state, 1), {}};
  p[2] = {std::make_shared<SetOpSource>(state, 9), {}, collector, {0, 1}};
  return run_and_collect(std::move(p), collector, threads);
}

void check_set_ops(const std::vector<LogicalType>& types, const std::vector<Row>& left, const std::vector<Row>& right,
                   const std::string& what) {
  for (SetOpKind op : {SetOpKind::kUnion, SetOpKind::kIntersect, SetOpKind::kExcept}) {
    for (bool all : {false, true}) {
      auto expected = reference_set_op(left, right, op, all);
      for (int threads : {1, 4}) {
        for (bool dictionary : {false, true}) {
          expect_same_rows(run_set_op(types, left, right, op, all, threads, dictionary), expected,
                           what + " op=" + std::to_string(static_cast<int>(op)) + " all=" + std::to_string(all) +
                               " threads=" + std::to_string(threads));
        }
      }
    }
  }
}

std::vector<Row> random_rows(const std::vector<LogicalType>& types, size_t n, uint64_t seed, int domain) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  for (size_t i = 0; i < n; ++i) {
    Row r;
    for (const auto& t : types) r.push_back(random_value(t, rng, 0.15, domain));
    rows.push_back(std::move(r));
  }
  return rows;
}

TEST(SetOpCpu, EveryTypeWithNullsEqual) {
  for (const LogicalType& t : storable_types()) {
    check_set_ops({t}, random_rows({t}, 60, 1, 5), random_rows({t}, 40, 2, 7), t.to_string());
  }
}

TEST(SetOpCpu, MultipleColumnsAndMultiplicities) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kInteger, LogicalType::decimal(15, 2)};
  check_set_ops(types, random_rows(types, 150, 3, 3), random_rows(types, 120, 4, 3), "three columns");
}

TEST(SetOpCpu, EmptySides) {
  std::vector<LogicalType> types{TypeId::kVarchar, TypeId::kBigInt};
  auto rows = random_rows(types, 30, 5, 3);
  check_set_ops(types, rows, {}, "empty right");
  check_set_ops(types, {}, rows, "empty left");
  check_set_ops(types, {}, {}, "both empty");
  check_set_ops(types, {rows[0]}, {rows[0]}, "one row");
}

}  // namespace
}  // namespace kestrel::exec::test
