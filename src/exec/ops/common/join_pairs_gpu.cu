/// ProbeBatchJoinerGpu and the device helpers of the GPU joins: pair verdicts, per-probe-row selection, mark
/// columns, NULL padding and the unmatched build rows of right and full joins.

#include <algorithm>

#include "common/check.hpp"
#include "common/error.hpp"
#include "exec/ops/common/device_rows.hpp"
#include "exec/ops/common/join_pairs_gpu.hpp"
#include "exec/ops/filter/filter_gpu.hpp"
#include "gpu/copy.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gather.hpp"

namespace kestrel::exec {

using plan::JoinType;

namespace {

constexpr int kThreads = 256;

/// Blocks of a grid-stride kernel over `items` (> 0) items.
int blocks_for(size_t items) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>((items + kThreads - 1) / kThreads, 65535)));
}

BufferPtr zeroed_buffer(size_t bytes, gpu::Stream stream, gpu::MemoryResource& mr) {
  BufferPtr b = device_buffer(bytes, stream, mr);
  gpu::fill_bytes(b->data(), gpu::MemoryKind::kDevice, 0, b->size(), stream);
  return b;
}

__device__ inline bool bit_at(const uint8_t* bitmap, size_t i) { return (bitmap[i >> 3] >> (i & 7)) & 1; }

/// Which probe rows select_flags_kernel picks.
enum class RowSelect : int {
  kUnmatched,       ///< no qualifying pair (left/full/single padding, plain anti)
  kUnmatchedKnown,  ///< no qualifying pair and not unknown (null-aware anti)
  kMatched,         ///< some qualifying pair (semi)
};

/// Per pair: TRUE verdicts (every pair when `values` is null: no condition) count for their probe row and flag
/// their build row; NULL verdicts mark the probe row in `saw_null`. `multiple` (single joins) is set when a probe
/// row gets a second qualifying pair.
__global__ void pair_verdict_kernel(const uint32_t* probe_rows, const uint32_t* build_rows, size_t count,
                                    const uint8_t* values, const uint8_t* validity, uint32_t* matches,
                                    uint8_t* saw_null, uint8_t* build_matched, uint32_t* multiple) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint32_t p = probe_rows[i];
    if (values != nullptr) {
      if (validity != nullptr && !bit_at(validity, i)) {
        saw_null[p] = 1;
        continue;
      }
      if (values[i] == 0) continue;
    }
    const uint32_t before = atomicAdd(&matches[p], 1u);
    if (before >= 1 && multiple != nullptr) *multiple = 1;
    if (build_matched != nullptr) build_matched[build_rows[i]] = 1;
  }
}

__global__ void select_flags_kernel(const uint32_t* matches, const uint8_t* unknown, size_t rows, RowSelect mode,
                                    uint8_t* flags) {
  for (size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const bool matched = matches[r] > 0;
    bool pick = false;
    switch (mode) {
      case RowSelect::kUnmatched: pick = !matched; break;
      case RowSelect::kUnmatchedKnown: pick = !matched && (unknown == nullptr || unknown[r] == 0); break;
      case RowSelect::kMatched: pick = matched; break;
    }
    flags[r] = pick ? 1 : 0;
  }
}

/// The mark of each probe row: TRUE with a match, else NULL where `unknown` is set, else FALSE. One thread per
/// 32-row validity word (when `validity` is not null), adding the valid rows to `*valid_count`.
__global__ void mark_kernel(const uint32_t* matches, const uint8_t* unknown, size_t rows, uint8_t* values,
                            uint32_t* validity, unsigned long long* valid_count) {
  const size_t words = (rows + 31) / 32;
  unsigned long long local = 0;
  for (size_t w = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; w < words;
       w += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint32_t word = 0;
    const size_t first = w * 32;
    const size_t last = first + 32 < rows ? first + 32 : rows;
    for (size_t i = first; i < last; ++i) {
      const bool matched = matches[i] > 0;
      values[i] = matched ? 1 : 0;
      const bool is_unknown = !matched && unknown != nullptr && unknown[i] != 0;
      if (!is_unknown) word |= 1u << (i - first);
    }
    if (validity != nullptr) validity[w] = word;
    local += __popc(word);
  }
  if (valid_count != nullptr && local != 0) atomicAdd(valid_count, local);
}

__global__ void flag_true_pairs_kernel(const uint32_t* probe_rows, const uint8_t* values, const uint8_t* validity,
                                       size_t count, bool null_too, uint8_t* flags) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const bool is_null = validity != nullptr && !bit_at(validity, i);
    if (is_null ? null_too : values[i] != 0) flags[probe_rows[i]] = 1;
  }
}

__global__ void unmatched_flags_kernel(const uint8_t* matched, size_t count, uint8_t* flags) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    flags[i] = matched[i] == 0 ? 1 : 0;
  }
}

__global__ void add_offset_kernel(uint32_t* rows, size_t count, uint32_t offset) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    rows[i] += offset;
  }
}

/// Whether the join type outputs the qualifying pairs themselves.
bool emits_pairs(JoinType type) {
  switch (type) {
    case JoinType::kSemi:
    case JoinType::kAnti:
    case JoinType::kMark: return false;
    default: return true;
  }
}

}  // namespace

ColumnPtr null_column_gpu(const LogicalType& type, size_t rows, gpu::Stream stream, gpu::MemoryResource& mr) {
  BufferPtr validity = zeroed_buffer((rows + 31) / 32 * 4, stream, mr);
  BufferPtr values;
  BufferPtr offsets;
  if (type.id() == TypeId::kVarchar) {
    offsets = zeroed_buffer((rows + 1) * sizeof(int64_t), stream, mr);
    values = device_buffer(8, stream, mr);
  } else {
    values = zeroed_buffer(rows * std::max<size_t>(type.physical_width(), 1), stream, mr);
  }
  return Column::from_buffers(type, ColumnEncoding::kPlain, rows, rows, std::move(validity), std::move(values),
                              std::move(offsets), nullptr);
}

Batch gather_pairs_gpu(const Batch& probe, const Batch& build, const uint32_t* probe_rows, const uint32_t* build_rows,
                       size_t count, const SchemaPtr& pair_schema, gpu::Stream stream, gpu::MemoryResource& mr,
                       bool probe_identity) {
  KESTREL_CHECK(!probe_identity || count == probe.num_rows());
  // Both sides in one gather: one read back of their NULL counts and string sizes.
  std::vector<GatherRequest> requests;
  if (!probe_identity) requests.push_back(GatherRequest{&probe, probe_rows, count});
  requests.push_back(GatherRequest{&build, build_rows, count});
  std::vector<Batch> gathered = gather_batches_gpu(requests, stream, mr);
  std::vector<ColumnPtr> columns = probe_identity ? probe.columns() : gathered.front().columns();
  for (const auto& c : gathered.back().columns()) columns.push_back(c);
  KESTREL_CHECK_EQ(columns.size(), pair_schema->size());
  return Batch(pair_schema, std::move(columns), count, gpu::MemoryKind::kDevice, stream);
}

namespace {

/// The columns `columns` (ascending, below `first` + side.num_columns()) of one side, numbered from `first`.
Batch side_columns(const Batch& side, size_t first, const std::vector<size_t>& columns) {
  std::vector<Field> fields;
  std::vector<ColumnPtr> picked;
  for (size_t c : columns) {
    if (c < first || c >= first + side.num_columns()) continue;
    fields.push_back(side.schema()->field(c - first));
    picked.push_back(side.column(c - first));
  }
  return Batch(std::make_shared<Schema>(std::move(fields)), std::move(picked), side.num_rows(),
               gpu::MemoryKind::kDevice, side.stream());
}

}  // namespace

ColumnPtr evaluate_pairs_gpu(const JoinCondition& condition, const SchemaPtr& pair_schema, const Batch& probe,
                             const Batch& build, const uint32_t* probe_rows, const uint32_t* build_rows, size_t count,
                             gpu::Stream stream, ExecContext& ctx, Batch* joined, const std::vector<size_t>& columns) {
  if (columns.empty()) {
    *joined = gather_pairs_gpu(probe, build, probe_rows, build_rows, count, pair_schema, stream, *ctx.device_mr);
  } else {
    // Only the condition's columns: a wide pair batch would be gathered for a few compared columns.
    std::vector<Field> fields;
    for (size_t c : columns) fields.push_back(pair_schema->field(c));
    *joined = gather_pairs_gpu(side_columns(probe, 0, columns), side_columns(build, probe.num_columns(), columns),
                               probe_rows, build_rows, count, std::make_shared<Schema>(std::move(fields)), stream,
                               *ctx.device_mr);
  }
  ColumnPtr verdict = condition(*joined, ctx);
  KESTREL_CHECK_MSG(verdict->type().id() == TypeId::kBoolean && !verdict->is_dictionary() && verdict->on_device(),
                    "a GPU join condition must evaluate to a plain BOOLEAN device column");
  KESTREL_CHECK_EQ(verdict->length(), count);
  return verdict;
}

void flag_true_pairs_gpu(const uint32_t* probe_rows, const Column& verdict, size_t count, uint8_t* flags,
                         gpu::Stream stream, bool null_too) {
  if (count == 0) return;
  flag_true_pairs_kernel<<<blocks_for(count), kThreads, 0, stream.handle()>>>(
      probe_rows, verdict.data<uint8_t>(), validity_of(verdict), count, null_too, flags);
  KESTREL_CUDA_CHECK_LAUNCH();
}

ProbeBatchJoinerGpu::ProbeBatchJoinerGpu(const JoinSpec& spec, const SchemaPtr& output_schema,
                                         const SchemaPtr& pair_schema, const Batch& probe, const Batch& build,
                                         uint8_t* build_matched, ExecContext& ctx, std::vector<Batch>& out)
    : spec_(spec), output_schema_(output_schema), pair_schema_(pair_schema), probe_(probe), build_(build),
      build_matched_(build_matched), ctx_(ctx), out_(out), stream_(probe.stream()), mr_(*ctx.device_mr) {
  gpu::require_explicit_stream(stream_, "ProbeBatchJoinerGpu");
  KESTREL_CHECK(!emits_unmatched_build(spec_.type) || build_matched_ != nullptr || build.num_rows() == 0);
  const size_t n = probe_.num_rows();
  matches_ = zeroed_buffer(n * sizeof(uint32_t), stream_, mr_);
  saw_null_ = zeroed_buffer(n, stream_, mr_);
  multiple_ = zeroed_buffer(sizeof(uint32_t), stream_, mr_);
}

void ProbeBatchJoinerGpu::add(const uint32_t* probe_rows, const uint32_t* build_rows, size_t count,
                              bool probe_identity) {
  if (count == 0) return;
  Batch joined;
  ColumnPtr verdict;
  if (spec_.condition) {
    verdict = evaluate_pairs_gpu(spec_.condition, pair_schema_, probe_, build_, probe_rows, build_rows, count,
                                 stream_, ctx_, &joined, spec_.condition_columns);
  }
  const uint8_t* values = verdict ? verdict->data<uint8_t>() : nullptr;
  const uint8_t* validity = verdict ? validity_of(*verdict) : nullptr;
  pair_verdict_kernel<<<blocks_for(count), kThreads, 0, stream_.handle()>>>(
      probe_rows, build_rows, count, values, validity, matches_->as<uint32_t>(), saw_null_->as<uint8_t>(),
      build_matched_, spec_.type == JoinType::kSingle ? multiple_->as<uint32_t>() : nullptr);
  KESTREL_CUDA_CHECK_LAUNCH();
  if (!emits_pairs(spec_.type)) return;
  if (!verdict) {
    Batch pairs =
        gather_pairs_gpu(probe_, build_, probe_rows, build_rows, count, output_schema_, stream_, mr_, probe_identity);
    out_.push_back(std::move(pairs));
    return;
  }
  BufferPtr selected = device_buffer(count * sizeof(uint32_t), stream_, mr_);
  const size_t kept = gpu::select_true_rows(values, validity, count, selected->as<uint32_t>(), stream_, mr_);
  if (kept == 0) return;
  if (!spec_.condition_columns.empty()) {
    // `joined` holds only the condition's columns: gather the output columns of the kept pairs.
    BufferPtr kept_probe = device_buffer(kept * sizeof(uint32_t), stream_, mr_);
    BufferPtr kept_build = device_buffer(kept * sizeof(uint32_t), stream_, mr_);
    gpu::gather_fixed(sizeof(uint32_t), probe_rows, selected->as<uint32_t>(), kept, kept_probe->data(), stream_);
    gpu::gather_fixed(sizeof(uint32_t), build_rows, selected->as<uint32_t>(), kept, kept_build->data(), stream_);
    out_.push_back(gather_pairs_gpu(probe_, build_, kept_probe->as<uint32_t>(), kept_build->as<uint32_t>(), kept,
                                    output_schema_, stream_, mr_));
    return;
  }
  Batch rows = kept == count ? joined : gather_batch_gpu(joined, selected->as<uint32_t>(), kept, stream_, mr_);
  out_.push_back(Batch(output_schema_, rows.columns(), kept, gpu::MemoryKind::kDevice, stream_));
}

size_t ProbeBatchJoinerGpu::select_rows(const uint8_t* flags, BufferPtr* rows) {
  const size_t n = probe_.num_rows();
  *rows = device_buffer(n * sizeof(uint32_t), stream_, mr_);
  return gpu::select_true_rows(flags, nullptr, n, (*rows)->as<uint32_t>(), stream_, mr_);
}

void ProbeBatchJoinerGpu::emit_probe_rows(const uint32_t* rows, size_t count, bool pad, ColumnPtr mark) {
  if (count == 0) return;
  std::vector<ColumnPtr> columns;
  if (count == probe_.num_rows()) {
    columns = probe_.columns();  // every row, in order: the selection is the identity
  } else {
    columns = gather_batch_gpu(probe_, rows, count, stream_, mr_).columns();
  }
  if (pad) {
    for (size_t c = columns.size(); c < output_schema_->size(); ++c) {
      columns.push_back(null_column_gpu(output_schema_->field(c).type, count, stream_, mr_));
    }
  }
  if (mark) columns.push_back(std::move(mark));
  KESTREL_CHECK_EQ(columns.size(), output_schema_->size());
  out_.push_back(Batch(output_schema_, std::move(columns), count, gpu::MemoryKind::kDevice, stream_));
}

void ProbeBatchJoinerGpu::finish(const uint8_t* unknown) {
  const size_t n = probe_.num_rows();
  if (n == 0) return;
  const uint8_t* use_unknown = spec_.null_aware ? unknown : nullptr;
  if (spec_.type == JoinType::kSingle) {
    uint32_t multiple = 0;
    // The host decides whether the query fails.
    gpu::copy_bytes(&multiple, gpu::MemoryKind::kHost, multiple_->data(), gpu::MemoryKind::kDevice, sizeof(multiple),
                    stream_);
    if (multiple != 0) throw InvalidInput("more than one row returned by a subquery used as an expression", "21000");
  }
  RowSelect mode;
  bool pad = false;
  switch (spec_.type) {
    case JoinType::kLeft:
    case JoinType::kFull:
    case JoinType::kSingle:
      mode = RowSelect::kUnmatched;
      pad = true;
      break;
    case JoinType::kAnti: mode = use_unknown ? RowSelect::kUnmatchedKnown : RowSelect::kUnmatched; break;
    case JoinType::kSemi: mode = RowSelect::kMatched; break;
    case JoinType::kMark: {
      BufferPtr values = device_buffer(n, stream_, mr_);
      BufferPtr validity;
      BufferPtr counter;
      if (use_unknown != nullptr) {
        validity = device_buffer((n + 31) / 32 * 4, stream_, mr_);
        counter = zeroed_buffer(sizeof(unsigned long long), stream_, mr_);
      }
      mark_kernel<<<blocks_for((n + 31) / 32), kThreads, 0, stream_.handle()>>>(
          matches(), use_unknown, n, values->as<uint8_t>(), validity ? validity->as<uint32_t>() : nullptr,
          counter ? counter->as<unsigned long long>() : nullptr);
      KESTREL_CUDA_CHECK_LAUNCH();
      size_t null_count = 0;
      if (counter) {
        unsigned long long valid = 0;
        // The host needs the NULL count (column metadata).
        gpu::copy_bytes(&valid, gpu::MemoryKind::kHost, counter->data(), gpu::MemoryKind::kDevice, sizeof(valid),
                        stream_);
        null_count = n - static_cast<size_t>(valid);
        if (null_count == 0) validity.reset();
      }
      ColumnPtr mark = Column::from_buffers(TypeId::kBoolean, ColumnEncoding::kPlain, n, null_count,
                                            std::move(validity), std::move(values), nullptr, nullptr);
      emit_probe_rows(nullptr, n, false, std::move(mark));
      return;
    }
    default: return;
  }
  BufferPtr flags = device_buffer(n, stream_, mr_);
  select_flags_kernel<<<blocks_for(n), kThreads, 0, stream_.handle()>>>(matches(), use_unknown, n, mode,
                                                                         flags->as<uint8_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr rows;
  const size_t count = select_rows(flags->as<uint8_t>(), &rows);
  emit_probe_rows(rows->as<uint32_t>(), count, pad, nullptr);
}

void emit_unmatched_build_rows_gpu(const Batch& build, const uint8_t* matched, size_t first, size_t count,
                                   const SchemaPtr& output_schema, size_t probe_columns, gpu::Stream stream,
                                   gpu::MemoryResource& mr, std::vector<Batch>& out) {
  gpu::require_explicit_stream(stream, "emit_unmatched_build_rows_gpu");
  if (count == 0) return;
  KESTREL_CHECK_LT(first + count - 1, size_t{UINT32_MAX});
  BufferPtr flags = device_buffer(count, stream, mr);
  unmatched_flags_kernel<<<blocks_for(count), kThreads, 0, stream.handle()>>>(matched + first, count,
                                                                             flags->as<uint8_t>());
  KESTREL_CUDA_CHECK_LAUNCH();
  BufferPtr rows = device_buffer(count * sizeof(uint32_t), stream, mr);
  const size_t n = gpu::select_true_rows(flags->as<uint8_t>(), nullptr, count, rows->as<uint32_t>(), stream, mr);
  if (n == 0) return;
  if (first != 0) {
    add_offset_kernel<<<blocks_for(n), kThreads, 0, stream.handle()>>>(rows->as<uint32_t>(), n,
                                                                        static_cast<uint32_t>(first));
    KESTREL_CUDA_CHECK_LAUNCH();
  }
  Batch gathered = gather_batch_gpu(build, rows->as<uint32_t>(), n, stream, mr);
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < probe_columns; ++c) {
    columns.push_back(null_column_gpu(output_schema->field(c).type, n, stream, mr));
  }
  for (const auto& c : gathered.columns()) columns.push_back(c);
  KESTREL_CHECK_EQ(columns.size(), output_schema->size());
  out.push_back(Batch(output_schema, std::move(columns), n, gpu::MemoryKind::kDevice, stream));
}

}  // namespace kestrel::exec
