#pragma once
/// Builders of BOOLEAN expressions over the columns of a generated batch (test_batches.hpp), shared by the GPU
/// filter and predicate tests.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "planner/expression.hpp"
#include "vector/batch.hpp"

namespace kestrel::testing::bool_exprs {

/// A reference to the column `name` of `b` ("INTEGER_nulls", "dict").
inline plan::ExprPtr col(const Batch& b, const std::string& name) {
  auto index = b.schema()->index_of(name);
  EXPECT_TRUE(index.has_value()) << name;
  return plan::make_column_ref(index.value_or(0), b.schema()->field(index.value_or(0)).type, name);
}
/// A BOOLEAN function (comparison, LIKE).
inline plan::ExprPtr fn(plan::ScalarFunction f, std::vector<plan::ExprPtr> args) {
  return plan::make_function(f, TypeId::kBoolean, std::move(args));
}
inline plan::ExprPtr lit(Value v) { return plan::make_constant(std::move(v)); }
/// A BOOLEAN node (AND, OR, NOT, IS NULL, IN).
inline plan::ExprPtr node(plan::ExprKind k, std::vector<plan::ExprPtr> args) {
  return plan::make_node(k, TypeId::kBoolean, std::move(args));
}

}  // namespace kestrel::testing::bool_exprs
