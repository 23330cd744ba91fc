#include "common/check.hpp"
#include "exec/ops/set_ops/set_op.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

using plan::SetOpKind;

namespace {

std::vector<LogicalType> types_of(const Schema& schema) {
  std::vector<LogicalType> types;
  for (const auto& f : schema.fields()) types.push_back(f.type);
  return types;
}

}  // namespace

SetOpState::SetOpState(SchemaPtr schema, SetOpKind op, bool all)
    : schema_(std::move(schema)), op_(op), all_(all), rows_(types_of(*schema_)) {
  KESTREL_CHECK_GT(schema_->size(), 0u);
}

void SetOpState::merge(int side, const GroupTable& rows, const std::vector<uint64_t>& counts) {
  std::lock_guard lock(mutex_);
  std::vector<uint32_t> ids;
  for (size_t c = 0; c < rows.chunk_count(); ++c) {
    rows_.find_or_insert(rows.chunk(c), rows.chunk_rows(c), ids);
    counts_[0].resize(rows_.size(), 0);
    counts_[1].resize(rows_.size(), 0);
    size_t first = rows.chunk_first(c);
    for (size_t i = 0; i < ids.size(); ++i) counts_[side][ids[i]] += counts[first + i];
  }
  uint64_t total = 0;
  for (uint64_t n : counts) total += n;
  seen_[side].fetch_add(total);
}

bool SetOpState::side_unneeded(int side) const {
  const int other = 1 - side;
  if (!finished_[other].load() || seen_[other].load() != 0) return false;
  return op_ == plan::SetOpKind::kIntersect || (op_ == plan::SetOpKind::kExcept && other == 0);
}

uint64_t SetOpState::copies(uint64_t left, uint64_t right) const {
  switch (op_) {
    case SetOpKind::kUnion: return all_ ? left + right : (left + right > 0 ? 1 : 0);
    case SetOpKind::kIntersect: return all_ ? std::min(left, right) : (left > 0 && right > 0 ? 1 : 0);
    case SetOpKind::kExcept: return all_ ? (left > right ? left - right : 0) : (left > 0 && right == 0 ? 1 : 0);
  }
  return 0;
}

void SetOpState::prepare_output() {
  std::lock_guard lock(mutex_);
  columns_ = rows_.key_columns();
  output_.clear();
  counts_[0].resize(rows_.size(), 0);
  counts_[1].resize(rows_.size(), 0);
  for (size_t g = 0; g < counts_[0].size(); ++g) {
    uint64_t n = copies(counts_[0][g], counts_[1][g]);
    KESTREL_CHECK_LT(output_.size() + n, size_t{UINT32_MAX});
    output_.insert(output_.end(), n, static_cast<uint32_t>(g));
  }
}

Batch SetOpState::read_rows(size_t first, size_t count) const {
  RowIndices rows(output_.begin() + static_cast<ptrdiff_t>(first),
                  output_.begin() + static_cast<ptrdiff_t>(first + count));
  std::vector<ColumnPtr> columns;
  for (const auto& c : columns_) columns.push_back(gather_column(*c, rows));
  return Batch(schema_, std::move(columns), count, gpu::MemoryKind::kHost);
}

struct SetOpSink::Local final : LocalState {
  explicit Local(std::vector<LogicalType> types) : rows(std::move(types)) {}
  GroupTable rows;
  std::vector<uint64_t> counts;
};

SetOpSink::SetOpSink(std::shared_ptr<SetOpState> state, int side) : state_(std::move(state)), side_(side) {
  KESTREL_CHECK(side_ == 0 || side_ == 1);
}

std::string SetOpSink::name() const {
  static const char* kNames[] = {"Union", "Intersect", "Except"};
  return std::string(kNames[static_cast<int>(state_->op())]) + (state_->all() ? " All" : "") +
         (side_ == 0 ? " (left)" : " (right)");
}

std::unique_ptr<Sink::LocalState> SetOpSink::make_local_state(ExecContext&) {
  return std::make_unique<Local>(types_of(*state_->schema()));
}

void SetOpSink::consume(LocalState& local, size_t, size_t, Batch batch, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  KESTREL_CHECK_EQ(batch.num_columns(), state_->schema()->size());
  std::vector<uint32_t> ids;
  l.rows.find_or_insert(batch.columns(), batch.num_rows(), ids);
  l.counts.resize(l.rows.size(), 0);
  for (uint32_t id : ids) ++l.counts[id];
}

void SetOpSink::combine(LocalState& local, ExecContext&) {
  auto& l = static_cast<Local&>(local);
  state_->merge(side_, l.rows, l.counts);
}

void SetOpSource::read(size_t morsel, ExecContext&, std::vector<Batch>& out) {
  size_t first = morsel * morsel_rows_;
  out.push_back(state_->read_rows(first, std::min(morsel_rows_, state_->output_rows() - first)));
}

}  // namespace kestrel::exec
