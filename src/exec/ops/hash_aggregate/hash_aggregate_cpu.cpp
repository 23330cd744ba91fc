#include "common/check.hpp"
#include "exec/ops/hash_aggregate/hash_aggregate.hpp"
#include "vector/gather.hpp"

namespace kestrel::exec {

using plan::AggregateFunction;

const char* aggregate_mode_name(AggregateMode mode) {
  switch (mode) {
    case AggregateMode::kSingle: return "single";
    case AggregateMode::kPartial: return "partial";
    case AggregateMode::kFinal: return "final";
  }
  return "?";
}

namespace {

bool is_distinct(const AggregateSpec& a) { return a.distinct && a.function != AggregateFunction::kCountStar; }

}  // namespace

AggregateHashTable::AggregateHashTable(std::vector<LogicalType> key_types, std::vector<AggregateSpec> aggregates)
    : aggregates_(std::move(aggregates)), groups_(key_types) {
  for (const auto& a : aggregates_) {
    states_.push_back(make_aggregate_state(a));
    if (is_distinct(a)) {
      std::vector<LogicalType> types = key_types;
      types.push_back(a.input_type);
      distinct_.push_back(std::make_unique<GroupTable>(std::move(types)));
    } else {
      distinct_.push_back(nullptr);
    }
  }
  resize_states();
}

void AggregateHashTable::resize_states() {
  for (auto& s : states_) s->resize(groups_.size());
}

void AggregateHashTable::add_input(const Batch& input, const std::vector<size_t>& group_columns) {
  std::vector<ColumnPtr> keys;
  keys.reserve(group_columns.size());
  for (size_t c : group_columns) keys.push_back(input.column(c));
  std::vector<uint32_t> ids;
  groups_.find_or_insert(keys, input.num_rows(), ids);
  resize_states();
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    const auto& spec = aggregates_[a];
    std::vector<ColumnPtr> columns{spec.argument ? input.column(*spec.argument) : nullptr};
    for (const AggregateOrderKey& key : spec.order) columns.push_back(input.column(key.column));
    if (!spec.filter) {
      add_rows(a, keys, ids.data(), columns, input.num_rows());
      continue;
    }
    // A FILTER the aggregation applies itself: only the rows where it is TRUE.
    const RowIndices rows = true_rows(*input.column(*spec.filter));
    if (rows.empty()) continue;
    std::vector<uint32_t> row_ids(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) row_ids[i] = ids[rows[i]];
    for (ColumnPtr& c : columns) {
      if (c) c = gather_column(*c, rows);
    }
    std::vector<ColumnPtr> row_keys;
    if (distinct_[a]) {
      for (const ColumnPtr& k : keys) row_keys.push_back(gather_column(*k, rows));
    }
    add_rows(a, row_keys, row_ids.data(), columns, rows.size());
  }
}

void AggregateHashTable::add_rows(size_t a, const std::vector<ColumnPtr>& keys, const uint32_t* ids,
                                  const std::vector<ColumnPtr>& columns, size_t rows) {
  const AggregateSpec& spec = aggregates_[a];
  if (distinct_[a]) {
    std::vector<ColumnPtr> distinct_keys = keys;
    distinct_keys.push_back(columns[0]);
    std::vector<uint32_t> unused;
    distinct_[a]->find_or_insert(distinct_keys, rows, unused);
    return;
  }
  std::vector<const Column*> order;
  for (size_t k = 1; k < columns.size(); ++k) order.push_back(columns[k].get());
  states_[a]->update_ordered(ids, spec.function == AggregateFunction::kCountStar ? nullptr : columns[0].get(), order,
                             rows);
}

void AggregateHashTable::add_states(const Batch& input) {
  const size_t k = groups_.key_types().size();
  std::vector<ColumnPtr> keys(input.columns().begin(), input.columns().begin() + static_cast<ptrdiff_t>(k));
  std::vector<uint32_t> ids;
  groups_.find_or_insert(keys, input.num_rows(), ids);
  resize_states();
  size_t column = k;
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    if (distinct_[a]) throw NotImplemented("DISTINCT aggregates in final aggregation mode");
    size_t n = aggregate_state_types(aggregates_[a]).size();
    std::vector<ColumnPtr> state(input.columns().begin() + static_cast<ptrdiff_t>(column),
                                 input.columns().begin() + static_cast<ptrdiff_t>(column + n));
    states_[a]->merge(ids.data(), state, input.num_rows());
    column += n;
  }
}

void AggregateHashTable::merge(const AggregateHashTable& other) {
  // This table's group of each of other's groups; then every aggregate merges all of them at once.
  std::vector<uint32_t> ids;
  if (groups_.key_types().empty()) {
    ids.assign(1, 0);
  } else {
    ids.resize(other.group_count());
    std::vector<uint32_t> chunk_ids;
    for (size_t c = 0; c < other.groups_.chunk_count(); ++c) {
      groups_.find_or_insert(other.groups_.chunk(c), other.groups_.chunk_rows(c), chunk_ids);
      std::copy(chunk_ids.begin(), chunk_ids.end(), ids.begin() + static_cast<ptrdiff_t>(other.groups_.chunk_first(c)));
    }
  }
  resize_states();
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    // A DISTINCT aggregate's state is built from the merged DISTINCT set by fold_distinct.
    if (!distinct_[a]) states_[a]->merge_from(*other.states_[a], ids);
  }
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    if (!distinct_[a]) continue;
    const GroupTable& theirs = *other.distinct_[a];
    for (size_t c = 0; c < theirs.chunk_count(); ++c) {
      distinct_[a]->find_or_insert(theirs.chunk(c), theirs.chunk_rows(c), ids);
    }
  }
}

void AggregateHashTable::fold_distinct() {
  const size_t k = groups_.key_types().size();
  std::vector<uint32_t> ids;
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    if (!distinct_[a]) continue;
    const GroupTable& set = *distinct_[a];
    for (size_t c = 0; c < set.chunk_count(); ++c) {
      const auto& columns = set.chunk(c);
      std::vector<ColumnPtr> keys(columns.begin(), columns.begin() + static_cast<ptrdiff_t>(k));
      groups_.find(keys, set.chunk_rows(c), ids);
      for (uint32_t id : ids) KESTREL_CHECK_NE(id, GroupTable::kNoGroup);
      // With DISTINCT an ordered aggregate's keys are its argument (the binder checks).
      std::vector<const Column*> order;
      for (const AggregateOrderKey& key : aggregates_[a].order) {
        KESTREL_CHECK_EQ(key.column, *aggregates_[a].argument);
        order.push_back(columns[k].get());
      }
      states_[a]->update_ordered(ids.data(), columns[k].get(), order, set.chunk_rows(c));
    }
    distinct_[a].reset();
  }
}

void AggregateHashTable::finish() {
  fold_distinct();
  for (auto& s : states_) s->finish();
}

std::vector<ColumnPtr> AggregateHashTable::results(size_t first, size_t count) const {
  std::vector<ColumnPtr> out;
  for (const auto& s : states_) out.push_back(s->finalize(first, count));
  return out;
}

std::vector<ColumnPtr> AggregateHashTable::states(size_t first, size_t count) const {
  std::vector<ColumnPtr> out;
  for (const auto& s : states_) {
    for (auto& c : s->export_state(first, count)) out.push_back(std::move(c));
  }
  return out;
}

namespace {

std::vector<LogicalType> key_types_of(const Schema& schema, const std::vector<size_t>& columns) {
  std::vector<LogicalType> types;
  for (size_t c : columns) {
    KESTREL_CHECK_LT(c, schema.size());
    types.push_back(schema.field(c).type);
  }
  return types;
}

SchemaPtr make_output_schema(const Schema& input, const std::vector<size_t>& group_columns,
                             const std::vector<AggregateSpec>& aggregates, AggregateMode mode) {
  std::vector<Field> fields;
  for (size_t c : group_columns) fields.push_back(input.field(c));
  for (const auto& a : aggregates) {
    std::string name = plan::aggregate_function_name(a.function);
    if (mode == AggregateMode::kPartial) {
      auto types = aggregate_state_types(a);
      for (size_t i = 0; i < types.size(); ++i) fields.push_back({name + "_state" + std::to_string(i), types[i], true});
    } else {
      fields.push_back({name, aggregate_result_type(a.function, a.input_type), true});
    }
  }
  return std::make_shared<const Schema>(std::move(fields));
}

}  // namespace

struct HashAggregateSink::Local final : LocalState {
  explicit Local(AggregateHashTable t) : table(std::move(t)) {}
  AggregateHashTable table;
};

HashAggregateSink::HashAggregateSink(SchemaPtr input_schema, std::vector<size_t> group_columns,
                                     std::vector<AggregateSpec> aggregates, AggregateMode mode)
    : input_schema_(std::move(input_schema)),
      group_columns_(std::move(group_columns)),
      aggregates_(std::move(aggregates)),
      mode_(mode),
      key_types_(key_types_of(*input_schema_, group_columns_)),
      output_schema_(make_output_schema(*input_schema_, group_columns_, aggregates_, mode_)),
      table_(key_types_, aggregates_) {
  if (mode_ == AggregateMode::kFinal) {
    for (size_t i = 0; i < group_columns_.size(); ++i) KESTREL_CHECK_EQ(group_columns_[i], i);
  }
  if (mode_ != AggregateMode::kSingle) {
    for (const auto& a : aggregates_) {
      if (is_distinct(a)) throw NotImplemented("DISTINCT aggregates in partial or final aggregation mode");
    }
  }
}

std::string HashAggregateSink::name() const {
  return std::string("HashAggregate(") + aggregate_mode_name(mode_) + ")";
}

std::unique_ptr<Sink::LocalState> HashAggregateSink::make_local_state(ExecContext&) {
  return std::make_unique<Local>(AggregateHashTable(key_types_, aggregates_));
}

void HashAggregateSink::consume(LocalState& local, size_t, size_t, Batch batch, ExecContext&) {
  auto& table = static_cast<Local&>(local).table;
  if (mode_ == AggregateMode::kFinal) {
    table.add_states(batch);
  } else {
    table.add_input(batch, group_columns_);
  }
}

void HashAggregateSink::combine(LocalState& local, ExecContext&) {
  table_.merge(static_cast<Local&>(local).table);
}

void HashAggregateSink::finalize(ExecContext&) {
  table_.finish();
  keys_ = table_.groups().key_columns();
}

Batch HashAggregateSink::read_groups(size_t first, size_t count) const {
  std::vector<ColumnPtr> columns;
  if (!keys_.empty()) {
    RowIndices rows(count);
    for (size_t i = 0; i < count; ++i) rows[i] = static_cast<uint32_t>(first + i);
    for (const auto& k : keys_) columns.push_back(gather_column(*k, rows));
  }
  auto values = mode_ == AggregateMode::kPartial ? table_.states(first, count) : table_.results(first, count);
  for (auto& v : values) columns.push_back(std::move(v));
  return Batch(output_schema_, std::move(columns), count, gpu::MemoryKind::kHost);
}

void HashAggregateSource::read(size_t morsel, ExecContext&, std::vector<Batch>& out) {
  size_t first = morsel * morsel_rows_;
  size_t count = std::min(morsel_rows_, sink_->group_count() - first);
  out.push_back(sink_->read_groups(first, count));
}

}  // namespace kestrel::exec
