#pragma once
/// Shared pieces of the GPU join tests: generated probe/build sides with NULL keys, skew, plain and dictionary
/// VARCHAR keys, and results as sorted row texts so CPU and GPU outputs compare as multisets.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "exec/expr/evaluate_gpu.hpp"
#include "exec/ops/common/join_condition.hpp"
#include "exec/ops/common/join_pairs.hpp"
#include "vector/transfer.hpp"

namespace kestrel::testing {

/// How one side of a join is generated. Columns: k1 INTEGER, k2 VARCHAR, val BIGINT, str VARCHAR.
struct JoinSideSpec {
  size_t rows = 0;
  int64_t domain = 100;     ///< k1 uniform in [0, domain)
  int null_percent = 10;    ///< NULLs in every column
  size_t skew_rows = 0;     ///< extra rows with k1 = 7
  bool unique = false;      ///< k1 = row number (no duplicate keys, no NULL k1)
  bool dictionary = false;  ///< k2 dictionary-encoded (one dictionary shared by all batches)
  size_t batches = 2;
  uint64_t seed = 1;
};

inline SchemaPtr join_side_schema(const std::string& prefix) {
  return std::make_shared<const Schema>(std::vector<Field>{{prefix + "k1", TypeId::kInteger},
                                                           {prefix + "k2", TypeId::kVarchar},
                                                           {prefix + "val", TypeId::kBigInt},
                                                           {prefix + "str", TypeId::kVarchar}});
}

/// Host batches of one join side.
inline std::vector<Batch> make_join_side(const JoinSideSpec& s, const SchemaPtr& schema) {
  std::mt19937_64 rng(s.seed);
  const size_t total = s.rows + s.skew_rows;
  std::vector<Value> k1, k2, val, str;
  std::vector<int32_t> k2_index;  // -1: NULL
  auto is_null = [&] { return static_cast<int>(rng() % 100) < s.null_percent; };
  for (size_t i = 0; i < total; ++i) {
    if (s.unique) {
      k1.push_back(Value::integer(static_cast<int32_t>(i)));
    } else if (i >= s.rows) {
      k1.push_back(Value::integer(7));
    } else {
      k1.push_back(is_null() ? Value::null(TypeId::kInteger)
                             : Value::integer(static_cast<int32_t>(rng() % static_cast<uint64_t>(s.domain))));
    }
    const int32_t index = is_null() ? -1 : static_cast<int32_t>(rng() % 4);
    k2_index.push_back(index);
    k2.push_back(index < 0 ? Value::null(TypeId::kVarchar) : Value::varchar("s" + std::to_string(index)));
    val.push_back(is_null() ? Value::null(TypeId::kBigInt) : Value::bigint(static_cast<int64_t>(rng() % 1000)));
    const auto letter = static_cast<char>('a' + i % 26);
    str.push_back(is_null() ? Value::null(TypeId::kVarchar) : Value::varchar(std::string(rng() % 12, letter)));
  }
  std::vector<Value> dict_values;
  for (int d = 0; d < 4; ++d) dict_values.push_back(Value::varchar("s" + std::to_string(d)));
  ColumnPtr dictionary = Column::from_values(TypeId::kVarchar, dict_values);
  std::vector<Batch> out;
  const size_t parts = std::max<size_t>(s.batches, 1);
  for (size_t p = 0; p < parts; ++p) {
    const size_t first = total * p / parts;
    const size_t last = total * (p + 1) / parts;
    if (first == last) continue;
    auto slice = [&](const std::vector<Value>& v) {
      return std::vector<Value>(v.begin() + static_cast<ptrdiff_t>(first), v.begin() + static_cast<ptrdiff_t>(last));
    };
    ColumnPtr k2_column;
    if (s.dictionary) {
      std::vector<Value> indices;
      for (size_t i = first; i < last; ++i) {
        indices.push_back(k2_index[i] < 0 ? Value::null(TypeId::kInteger) : Value::integer(k2_index[i]));
      }
      ColumnPtr index_column = Column::from_values(TypeId::kInteger, indices);
      k2_column = Column::make_dictionary(TypeId::kVarchar, last - first, index_column->values(),
                                          index_column->validity(), index_column->null_count(), dictionary);
    } else {
      k2_column = Column::from_values(TypeId::kVarchar, slice(k2));
    }
    std::vector<ColumnPtr> columns{Column::from_values(TypeId::kInteger, slice(k1)), k2_column,
                                   Column::from_values(TypeId::kBigInt, slice(val)),
                                   Column::from_values(TypeId::kVarchar, slice(str))};
    out.push_back(Batch(schema, std::move(columns), last - first, gpu::MemoryKind::kHost));
  }
  return out;
}

/// Copies of host batches in device memory, ordered on `stream`.
inline std::vector<Batch> to_device(const std::vector<Batch>& batches, gpu::MemoryResource& mr, gpu::Stream stream) {
  std::vector<Batch> out;
  for (const auto& b : batches) out.push_back(copy_batch(b, mr, stream));
  return out;
}

/// Every row of `batches` (host or device) as text, sorted.
inline std::vector<std::string> sorted_rows(const std::vector<Batch>& batches) {
  std::vector<std::string> rows;
  for (const auto& batch : batches) {
    Batch host = batch.on_device() ? copy_batch(batch, gpu::host_memory_resource(), batch.stream()) : batch;
    for (size_t r = 0; r < host.num_rows(); ++r) {
      std::string text;
      for (size_t c = 0; c < host.num_columns(); ++c) text += host.column(c)->value_at(r).to_string() + "|";
      rows.push_back(std::move(text));
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// Whether every output batch has the schema `schema` (same number of columns and types).
inline void expect_schema(const std::vector<Batch>& batches, const SchemaPtr& schema) {
  for (const auto& b : batches) {
    ASSERT_EQ(b.num_columns(), schema->size());
    for (size_t c = 0; c < b.num_columns(); ++c) EXPECT_EQ(b.column(c)->type(), schema->field(c).type);
  }
}

/// Compares two sorted row lists, reporting the first difference.
inline void expect_same_rows(const std::vector<std::string>& cpu, const std::vector<std::string>& gpu,
                             const std::string& what) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  for (size_t i = 0; i < cpu.size(); ++i) {
    if (cpu[i] != gpu[i]) {
      ADD_FAILURE() << what << ": row " << i << " differs: cpu " << cpu[i] << " gpu " << gpu[i];
      return;
    }
  }
}

/// The residual condition `probe.val > build.val` over the pair schema [pk1, pk2, pval, pstr, bk1, bk2, bval, bstr].
/// Runs a join case on the CPU and the GPU (`run_cpu` / `run_gpu` return its output batches) and expects the same
/// rows, or, when the CPU raises InvalidInput (a single join with two matches for a row), the same error.
template <typename Case, typename RunCpu, typename RunGpu>
void expect_join_same(const Case& c, const SchemaPtr& probe_schema, const SchemaPtr& build_schema,
                      const std::string& what, RunCpu run_cpu, RunGpu run_gpu) {
  const std::string name = what + " " + plan::join_type_name(c.type) + (c.null_aware ? " null-aware" : "") +
                           (c.condition ? " with condition" : "");
  SCOPED_TRACE(name);
  std::vector<Batch> cpu;
  try {
    cpu = run_cpu();
  } catch (const InvalidInput&) {
    EXPECT_THROW(run_gpu(), InvalidInput);
    return;
  }
  std::vector<Batch> gpu = run_gpu();
  expect_schema(gpu, exec::join_output_schema(c.type, *probe_schema, *build_schema));
  expect_same_rows(sorted_rows(cpu), sorted_rows(gpu), name);
}

inline plan::ExprPtr val_greater_condition() {
  return plan::make_function(plan::ScalarFunction::kGreater, TypeId::kBoolean,
                             {plan::make_column_ref(2, TypeId::kBigInt, "pval"),
                              plan::make_column_ref(6, TypeId::kBigInt, "bval")});
}

/// The join's spec for the CPU or (as the planner builds it: only the condition's columns gathered) the GPU.
inline exec::JoinSpec join_spec(plan::JoinType type, bool null_aware, const plan::ExprPtr& condition, bool gpu) {
  exec::JoinSpec s;
  s.type = type;
  s.null_aware = null_aware;
  if (gpu) {
    exec::set_gpu_join_condition(s, condition);
  } else {
    s.condition = exec::make_join_condition(condition);
  }
  return s;
}

/// Every join type the operators implement (cross only for nested loops).
inline std::vector<plan::JoinType> keyed_join_types() {
  using plan::JoinType;
  return {JoinType::kInner, JoinType::kLeft, JoinType::kRight, JoinType::kFull,
          JoinType::kSemi,  JoinType::kAnti, JoinType::kMark,  JoinType::kSingle};
}

}  // namespace kestrel::testing
