#pragma once
/// Reference joins with nested loops over rows, shared by the hash and nested-loop join tests.

#include <functional>

#include "exec/ops/common/join_pairs.hpp"
#include "ops_test_util.hpp"

namespace kestrel::exec::test {

/// A condition over one (left, right) pair: a BOOLEAN value or NULL.
using RowCondition = std::function<Value(const Row& left, const Row& right)>;

/// The join's inputs and what it does, in row form.
struct RefJoin {
  std::vector<LogicalType> left_types, right_types;
  std::vector<Row> left, right;
  std::vector<size_t> left_keys, right_keys;
  plan::JoinType type = plan::JoinType::kInner;
  RowCondition condition;  ///< empty: none
  bool null_aware = false;
};

/// Three-valued `left keys = right keys`.
inline Value keys_equal(const RefJoin& j, const Row& l, const Row& r) {
  bool unknown = false;
  for (size_t k = 0; k < j.left_keys.size(); ++k) {
    const Value& a = l[j.left_keys[k]];
    const Value& b = r[j.right_keys[k]];
    if (a.is_null() || b.is_null()) {
      unknown = true;
    } else if (compare_values(a, b) != 0) {
      return Value::boolean(false);
    }
  }
  return unknown ? Value::null(TypeId::kBoolean) : Value::boolean(true);
}

inline bool is_true(const Value& v) { return !v.is_null() && v.as_bool(); }

/// The join by its SQL definition, with nested loops. Throws InvalidInput for a single join with two matches.
inline std::vector<Row> reference_join(const RefJoin& j) {
  using plan::JoinType;
  std::vector<Row> out;
  std::vector<bool> right_matched(j.right.size(), false);
  auto nulls = [](const std::vector<LogicalType>& types) {
    Row row;
    for (const auto& t : types) row.push_back(Value::null(t));
    return row;
  };
  auto concat = [](Row a, const Row& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  for (const Row& l : j.left) {
    std::vector<size_t> matches;
    bool unknown = false;
    for (size_t i = 0; i < j.right.size(); ++i) {
      Value eq = keys_equal(j, l, j.right[i]);
      Value cond = j.condition ? j.condition(l, j.right[i]) : Value::boolean(true);
      if (is_true(eq) && is_true(cond)) matches.push_back(i);
      // NOT IN's unknown: `keys = keys AND condition` is NULL (neither part FALSE, one NULL). The residual condition
      // is part of the comparison (x > ALL (...) with the domain's keys); without keys (nested-loop joins) it is all
      // of it.
      const bool is_false = (!eq.is_null() && !eq.as_bool()) || (!cond.is_null() && !cond.as_bool());
      if (!is_false && (eq.is_null() || cond.is_null())) unknown = true;
    }
    unknown = unknown && j.null_aware && matches.empty();
    for (size_t i : matches) right_matched[i] = true;
    switch (j.type) {
      case JoinType::kSemi:
        if (!matches.empty()) out.push_back(l);
        break;
      case JoinType::kAnti:
        if (matches.empty() && !unknown) out.push_back(l);
        break;
      case JoinType::kMark:
        out.push_back(concat(l, {matches.empty() ? (unknown ? Value::null(TypeId::kBoolean) : Value::boolean(false))
                                                 : Value::boolean(true)}));
        break;
      default:
        if (j.type == JoinType::kSingle && matches.size() > 1) throw InvalidInput("single join: two matches");
        for (size_t i : matches) out.push_back(concat(l, j.right[i]));
        if (matches.empty() && (j.type == JoinType::kLeft || j.type == JoinType::kFull || j.type == JoinType::kSingle)) {
          out.push_back(concat(l, nulls(j.right_types)));
        }
    }
  }
  if (j.type == JoinType::kRight || j.type == JoinType::kFull) {
    for (size_t i = 0; i < j.right.size(); ++i) {
      if (!right_matched[i]) out.push_back(concat(nulls(j.left_types), j.right[i]));
    }
  }
  return out;
}

/// A JoinCondition that applies a RowCondition to every row of the joined batch (left columns, then right).
inline JoinCondition batch_condition(RowCondition condition, size_t left_columns) {
  return [condition, left_columns](const Batch& joined, ExecContext&) {
    std::vector<Value> out;
    for (size_t r = 0; r < joined.num_rows(); ++r) {
      Row l;
      Row rr;
      for (size_t c = 0; c < joined.num_columns(); ++c) {
        (c < left_columns ? l : rr).push_back(joined.column(c)->value_at(r));
      }
      out.push_back(condition(l, rr));
    }
    return Column::from_values(TypeId::kBoolean, out);
  };
}

/// `left[lc] < right[rc] + shift` on INTEGER columns, three-valued.
inline RowCondition less_than(size_t lc, size_t rc, int shift) {
  return [=](const Row& l, const Row& r) {
    if (l[lc].is_null() || r[rc].is_null()) return Value::null(TypeId::kBoolean);
    return Value::boolean(l[lc].as_int64() < r[rc].as_int64() + shift);
  };
}

/// Rows of (key of `type`, INTEGER payload 0..9 or NULL).
inline std::vector<Row> keyed_rows(const std::vector<LogicalType>& key_types, size_t n, uint64_t seed,
                                   double nulls, int domain = 6) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  for (size_t i = 0; i < n; ++i) {
    Row row;
    for (const auto& t : key_types) row.push_back(random_value(t, rng, nulls, domain));
    row.push_back(rng() % 10 == 0 ? Value::null(TypeId::kInteger) : Value::integer(static_cast<int32_t>(rng() % 10)));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace kestrel::exec::test
