#pragma once
/// Helpers of the expression evaluator tests: building batches from Values, bound expression nodes, and reading
/// results back as Values.

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/bit_util.hpp"
#include "common/decimal.hpp"
#include "common/temporal.hpp"
#include "exec/expr/evaluate.hpp"
#include "planner/expression.hpp"
#include "vector/batch.hpp"

namespace kestrel {

/// gtest prints Values as `TYPE text` in failure messages (found by argument-dependent lookup).
inline void PrintTo(const Value& v, std::ostream* os) { *os << v.type().to_string() << " " << v.to_string(); }

}  // namespace kestrel

namespace kestrel::exec::testing {

using plan::ExprKind;
using plan::ExprPtr;
using F = plan::ScalarFunction;

inline const LogicalType kBool(TypeId::kBoolean), kTiny(TypeId::kTinyInt), kSmall(TypeId::kSmallInt),
    kInt(TypeId::kInteger), kBig(TypeId::kBigInt), kReal(TypeId::kReal), kDouble(TypeId::kDouble),
    kDate(TypeId::kDate), kTs(TypeId::kTimestamp), kInterval(TypeId::kInterval), kVarchar(TypeId::kVarchar);

inline LogicalType dec(int p, int s) { return LogicalType::decimal(p, s); }

// Value shorthands.
inline Value null_of(LogicalType t) { return Value::null(t); }
inline Value b(bool v) { return Value::boolean(v); }
inline Value i32(int32_t v) { return Value::integer(v); }
inline Value i64(int64_t v) { return Value::bigint(v); }
inline Value f64(double v) { return Value::double_value(v); }
inline Value str(std::string v) { return Value::varchar(std::move(v)); }
inline Value decv(int128_t unscaled, int p, int s) { return Value::decimal(unscaled, p, s); }
inline Value date(const char* text) { return Value::date(*parse_date(text)); }
inline Value ts(const char* text) { return Value::timestamp(*parse_timestamp(text)); }
inline Value interval(int32_t months, int32_t days, int64_t micros = 0) {
  return Value::interval(Interval{months, days, micros});
}

inline ColumnPtr column(LogicalType type, const std::vector<Value>& values) {
  return Column::from_values(type, values);
}

/// A dictionary-encoded VARCHAR column: row i is dict[indices[i]], or NULL where indices[i] < 0.
inline ColumnPtr dictionary_column(const std::vector<std::string>& dict, const std::vector<int>& indices) {
  std::vector<Value> entries;
  for (const std::string& s : dict) entries.push_back(Value::varchar(s));
  ColumnPtr dictionary = Column::from_values(kVarchar, entries);
  auto& mr = gpu::host_memory_resource();
  BufferPtr idx = Buffer::allocate(indices.size() * sizeof(int32_t), mr, gpu::Stream::host());
  BufferPtr valid = Buffer::allocate(bits::bytes_for(indices.size()) + 1, mr, gpu::Stream::host());
  std::memset(valid->data(), 0, valid->size());
  size_t nulls = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    idx->as<int32_t>()[i] = indices[i] < 0 ? 0 : indices[i];
    if (indices[i] >= 0) {
      bits::set(valid->as<uint8_t>(), i);
    } else {
      ++nulls;
    }
  }
  return Column::make_dictionary(kVarchar, indices.size(), idx, nulls ? valid : nullptr, nulls, dictionary);
}

/// A host batch of the given columns (all of one length); with no columns, `rows` rows.
inline Batch make_batch(std::vector<ColumnPtr> columns, size_t rows = 0) {
  std::vector<Field> fields;
  for (size_t i = 0; i < columns.size(); ++i) fields.push_back(Field{"c" + std::to_string(i), columns[i]->type()});
  if (!columns.empty()) rows = columns[0]->length();
  return Batch(std::make_shared<Schema>(std::move(fields)), std::move(columns), rows, gpu::MemoryKind::kHost);
}

// Expression shorthands.
inline ExprPtr lit(Value v) { return plan::make_constant(std::move(v)); }
inline ExprPtr ref(size_t index, LogicalType type) { return plan::make_column_ref(index, type, "c" + std::to_string(index)); }
inline ExprPtr fn(F f, LogicalType result, std::vector<ExprPtr> args) {
  return plan::make_function(f, result, std::move(args));
}
inline ExprPtr cast(ExprPtr child, LogicalType target) { return plan::make_cast(std::move(child), target); }
inline ExprPtr node(ExprKind kind, LogicalType result, std::vector<ExprPtr> children) {
  return plan::make_node(kind, result, std::move(children));
}

/// The values of a host column.
inline std::vector<Value> values_of(const Column& c) {
  std::vector<Value> out;
  for (size_t i = 0; i < c.length(); ++i) out.push_back(c.value_at(i));
  return out;
}

/// Evaluates `e` on `batch` and returns the rows as Values; checks the length, the type and the null count.
inline std::vector<Value> eval(const ExprPtr& e, const Batch& batch) {
  EvalContext ctx;
  ColumnPtr c = evaluate(*e, batch, ctx);
  EXPECT_EQ(c->length(), batch.num_rows());
  EXPECT_EQ(c->type(), e->type);
  size_t nulls = 0;
  for (size_t i = 0; i < c->length(); ++i) nulls += !c->is_valid(i);
  EXPECT_EQ(c->null_count(), nulls);
  return values_of(*c);
}

/// The message of the InvalidInput `fn` throws, or "" when it throws nothing.
template <typename Fn>
std::string invalid_input_message(Fn&& fn) {
  try {
    fn();
  } catch (const InvalidInput& e) {
    return e.message();
  }
  return "";
}

}  // namespace kestrel::exec::testing
