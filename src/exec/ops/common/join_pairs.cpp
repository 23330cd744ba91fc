#include "exec/ops/common/join_pairs.hpp"

#include <atomic>

#include "common/bit_util.hpp"
#include "common/check.hpp"

namespace kestrel::exec {

using plan::JoinType;

SchemaPtr join_pair_schema(const Schema& probe, const Schema& build) {
  std::vector<Field> fields = probe.fields();
  for (const auto& f : build.fields()) fields.push_back(f);
  return std::make_shared<const Schema>(std::move(fields));
}

SchemaPtr join_output_schema(JoinType type, const Schema& probe, const Schema& build) {
  switch (type) {
    case JoinType::kSemi:
    case JoinType::kAnti: return std::make_shared<const Schema>(probe.fields());
    case JoinType::kMark: {
      std::vector<Field> fields = probe.fields();
      fields.push_back({"mark", TypeId::kBoolean, true});
      return std::make_shared<const Schema>(std::move(fields));
    }
    default: return join_pair_schema(probe, build);
  }
}

bool emits_unmatched_build(JoinType type) { return type == JoinType::kRight || type == JoinType::kFull; }

namespace {

/// Probe columns at `probe_rows` then build columns at `build_rows` (kNullRow pads with NULL).
Batch gather_pairs(const Batch& probe, const Batch& build, const RowIndices& probe_rows, const RowIndices& build_rows,
                   const SchemaPtr& schema) {
  std::vector<ColumnPtr> columns;
  columns.reserve(probe.num_columns() + build.num_columns());
  for (const auto& c : probe.columns()) columns.push_back(gather_column(*c, probe_rows));
  for (const auto& c : build.columns()) columns.push_back(gather_column(*c, build_rows));
  return Batch(schema, std::move(columns), probe_rows.size(), gpu::MemoryKind::kHost);
}

/// A BOOLEAN column from marks: 0 FALSE, 1 TRUE, 2 NULL.
ColumnPtr mark_column(const uint8_t* marks, size_t n) {
  bool any_null = false;
  for (size_t i = 0; i < n; ++i) any_null |= marks[i] == 2;
  auto column = Column::make_fixed(TypeId::kBoolean, n, any_null, gpu::host_memory_resource(), gpu::Stream::host());
  uint8_t* values = column->mutable_data<uint8_t>();
  uint8_t* valid = column->mutable_validity();
  for (size_t i = 0; i < n; ++i) {
    values[i] = marks[i] == 1;
    if (marks[i] == 2) bits::clear(valid, i);
  }
  if (any_null) column->recount_nulls();
  return column;
}

}  // namespace

std::vector<PairResult> evaluate_pairs(const JoinCondition& condition, const SchemaPtr& pair_schema,
                                       const Batch& probe, const Batch& build, const RowIndices& probe_rows,
                                       const RowIndices& build_rows, size_t max_rows, ExecContext& ctx) {
  std::vector<PairResult> results(probe_rows.size(), PairResult::kTrue);
  if (!condition) return results;
  for (size_t start = 0; start < probe_rows.size(); start += max_rows) {
    size_t n = std::min(max_rows, probe_rows.size() - start);
    RowIndices p(probe_rows.begin() + static_cast<ptrdiff_t>(start),
                 probe_rows.begin() + static_cast<ptrdiff_t>(start + n));
    RowIndices b(build_rows.begin() + static_cast<ptrdiff_t>(start),
                 build_rows.begin() + static_cast<ptrdiff_t>(start + n));
    ColumnPtr verdict = condition(gather_pairs(probe, build, p, b, pair_schema), ctx);
    KESTREL_CHECK_EQ(verdict->type().id(), TypeId::kBoolean);
    KESTREL_CHECK_EQ(verdict->length(), n);
    const uint8_t* v = verdict->data<uint8_t>();
    const uint8_t* valid = verdict->validity() ? verdict->validity()->as<uint8_t>() : nullptr;
    for (size_t i = 0; i < n; ++i) {
      results[start + i] = valid != nullptr && !bits::get(valid, i) ? PairResult::kNull
                           : v[i] != 0                              ? PairResult::kTrue
                                                                    : PairResult::kFalse;
    }
  }
  return results;
}

ProbeBatchJoiner::ProbeBatchJoiner(const JoinSpec& spec, const SchemaPtr& output_schema,
                                   const SchemaPtr& pair_schema, const Batch& probe, const Batch& build,
                                   uint8_t* build_matched, ExecContext& ctx, std::vector<Batch>& out)
    : spec_(spec), output_schema_(output_schema), pair_schema_(pair_schema), probe_(probe), build_(build),
      build_matched_(build_matched), ctx_(ctx), out_(out), matches_(probe.num_rows(), 0),
      saw_null_(probe.num_rows(), 0) {
  KESTREL_CHECK(!emits_unmatched_build(spec_.type) || build_matched_ != nullptr || build.num_rows() == 0);
}

void ProbeBatchJoiner::flush() {
  if (probe_rows_.empty()) return;
  RowIndices keep_probe;
  RowIndices keep_build;
  if (spec_.condition) {
    auto results = evaluate_pairs(spec_.condition, pair_schema_, probe_, build_, probe_rows_, build_rows_,
                                  spec_.max_output_rows, ctx_);
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i] == PairResult::kTrue) {
        keep_probe.push_back(probe_rows_[i]);
        keep_build.push_back(build_rows_[i]);
      } else if (results[i] == PairResult::kNull) {
        saw_null_[probe_rows_[i]] = 1;
      }
    }
  } else {
    keep_probe.swap(probe_rows_);
    keep_build.swap(build_rows_);
  }
  probe_rows_.clear();
  build_rows_.clear();
  for (size_t i = 0; i < keep_probe.size(); ++i) {
    uint8_t& m = matches_[keep_probe[i]];
    if (m < 2) ++m;
    if (m > 1 && spec_.type == JoinType::kSingle) {
      throw InvalidInput("more than one row returned by a subquery used as an expression", "21000");
    }
    if (build_matched_ != nullptr) {
      std::atomic_ref<uint8_t> flag(build_matched_[keep_build[i]]);
      if (flag.load(std::memory_order_relaxed) == 0) flag.store(1, std::memory_order_relaxed);
    }
  }
  switch (spec_.type) {
    case JoinType::kSemi:
    case JoinType::kAnti:
    case JoinType::kMark: return;
    default: break;
  }
  if (!keep_probe.empty()) out_.push_back(gather_pairs(probe_, build_, keep_probe, keep_build, output_schema_));
}

void ProbeBatchJoiner::emit_probe_rows(const RowIndices& rows, const std::vector<uint8_t>* mark_values) {
  const bool pad = spec_.type == JoinType::kLeft || spec_.type == JoinType::kFull || spec_.type == JoinType::kSingle;
  for (size_t start = 0; start < rows.size(); start += spec_.max_output_rows) {
    size_t n = std::min(spec_.max_output_rows, rows.size() - start);
    RowIndices slice(rows.begin() + static_cast<ptrdiff_t>(start), rows.begin() + static_cast<ptrdiff_t>(start + n));
    if (pad) {
      out_.push_back(gather_pairs(probe_, build_, slice, RowIndices(n, kNullRow), output_schema_));
      continue;
    }
    std::vector<ColumnPtr> columns;
    if (n == probe_.num_rows()) {
      columns = probe_.columns();
    } else {
      for (const auto& c : probe_.columns()) columns.push_back(gather_column(*c, slice));
    }
    if (mark_values != nullptr) columns.push_back(mark_column(mark_values->data() + start, n));
    out_.push_back(Batch(output_schema_, std::move(columns), n, gpu::MemoryKind::kHost));
  }
}

void ProbeBatchJoiner::finish(const std::vector<uint8_t>* unknown) {
  flush();
  const size_t rows = probe_.num_rows();
  const bool use_unknown = spec_.null_aware && unknown != nullptr;
  RowIndices selected;
  switch (spec_.type) {
    case JoinType::kLeft:
    case JoinType::kFull:
    case JoinType::kSingle:
    case JoinType::kAnti:
      for (size_t r = 0; r < rows; ++r) {
        if (matches_[r] == 0 && !(spec_.type == JoinType::kAnti && use_unknown && (*unknown)[r])) {
          selected.push_back(static_cast<uint32_t>(r));
        }
      }
      emit_probe_rows(selected, nullptr);
      return;
    case JoinType::kSemi:
      for (size_t r = 0; r < rows; ++r) {
        if (matches_[r] > 0) selected.push_back(static_cast<uint32_t>(r));
      }
      emit_probe_rows(selected, nullptr);
      return;
    case JoinType::kMark: {
      std::vector<uint8_t> marks(rows);
      selected.resize(rows);
      for (size_t r = 0; r < rows; ++r) {
        selected[r] = static_cast<uint32_t>(r);
        marks[r] = matches_[r] > 0 ? 1 : (use_unknown && (*unknown)[r] ? 2 : 0);
      }
      emit_probe_rows(selected, &marks);
      return;
    }
    default: return;
  }
}

void emit_unmatched_build_rows(const Batch& build, const uint8_t* matched, size_t first, size_t count,
                               const SchemaPtr& output_schema, size_t probe_columns, size_t max_rows,
                               std::vector<Batch>& out) {
  RowIndices rows;
  for (size_t b = first; b < first + count; ++b) {
    if (matched[b] == 0) rows.push_back(static_cast<uint32_t>(b));
  }
  for (size_t start = 0; start < rows.size(); start += max_rows) {
    size_t n = std::min(max_rows, rows.size() - start);
    RowIndices slice(rows.begin() + static_cast<ptrdiff_t>(start), rows.begin() + static_cast<ptrdiff_t>(start + n));
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < probe_columns; ++c) columns.push_back(null_column(output_schema->field(c).type, n));
    for (const auto& c : build.columns()) columns.push_back(gather_column(*c, slice));
    out.push_back(Batch(output_schema, std::move(columns), n, gpu::MemoryKind::kHost));
  }
}

}  // namespace kestrel::exec
