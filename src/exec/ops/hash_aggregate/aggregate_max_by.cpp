#include "common/check.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"
#include "exec/ops/hash_aggregate/kept_rows.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

/// max_by(x, y) and min_by(x, y): per group the row that sorts first by (y in the key's direction, then x in the
/// same direction with NULL last), skipping rows where y is NULL. Breaking ties by x makes the result independent
/// of the order rows arrive in. The best rows live in a KeptRows store as [y, x]; each update first finds the best
/// row of every group within the batch, copies only those, and compares them with the groups' current best.
class MaxByState final : public AggregateState {
 public:
  explicit MaxByState(const AggregateSpec& spec) : kept_(kept_types(spec)) {
    KESTREL_CHECK_EQ(spec.order.size(), size_t{1});
    const SortOrder y = spec.order[0].order;
    compare_ = RowComparator({SortOrder{y.descending, false}, SortOrder{y.descending, false}});
  }

  void resize(size_t groups) override {
    best_.resize(groups, KeptRows::kNoRow);
    candidate_.resize(groups, kNullRow);
  }
  void update(const uint32_t*, const Column*, size_t) override {
    throw InternalError("max_by and min_by need their y column");
  }
  void update_ordered(const uint32_t* ids, const Column* argument, const std::vector<const Column*>& keys,
                      size_t rows) override {
    KESTREL_CHECK_EQ(keys.size(), size_t{1});
    const ColumnView in[2] = {make_view(*keys[0]), make_view(*argument)};
    // The best row of each group in this batch.
    touched_.clear();
    for (size_t r = 0; r < rows; ++r) {
      if (in[0].is_null(r)) continue;
      uint32_t& c = candidate_[ids[r]];
      if (c == kNullRow) {
        c = static_cast<uint32_t>(r);
        touched_.push_back(ids[r]);
      } else if (compare_.compare(in, r, in, c) < 0) {
        c = static_cast<uint32_t>(r);
      }
    }
    if (touched_.empty()) return;
    RowIndices picked(touched_.size());
    for (size_t i = 0; i < touched_.size(); ++i) picked[i] = candidate_[touched_[i]];
    const uint32_t chunk = kept_.append({keys[0], argument}, picked);
    const ColumnView* now = kept_.views(chunk);
    for (size_t i = 0; i < touched_.size(); ++i) {
      const uint32_t g = touched_[i];
      candidate_[g] = kNullRow;
      const KeptRows::RowRef old = best_[g];
      if (old == KeptRows::kNoRow ||
          compare_.compare(now, i, kept_.views(KeptRows::chunk_of(old)), KeptRows::row_of(old)) < 0) {
        best_[g] = KeptRows::ref(chunk, static_cast<uint32_t>(i));
      }
    }
    // Rows that lost their place stay in their chunks until they outnumber the best rows.
    if (kept_.rows() > 2 * best_.size() + 4096) kept_.compact(best_);
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    const std::vector<KeptRows::RowRef> refs(best_.begin() + static_cast<ptrdiff_t>(first),
                                             best_.begin() + static_cast<ptrdiff_t>(first + count));
    return {kept_.gather(1, refs), kept_.gather(0, refs)};  // [x, y], as aggregate_state_types says
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    update_ordered(ids, state.at(0).get(), {state.at(1).get()}, rows);  // groups without a row have a NULL y
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    return kept_.gather(1, {best_.begin() + static_cast<ptrdiff_t>(first),
                            best_.begin() + static_cast<ptrdiff_t>(first + count)});
  }

 private:
  static std::vector<LogicalType> kept_types(const AggregateSpec& spec) {
    return {spec.order.at(0).type, spec.input_type};
  }

  KeptRows kept_;                        ///< best rows (and rows that lost since the last compaction): [y, x]
  RowComparator compare_;                ///< orders [y, x] rows: the best first
  std::vector<KeptRows::RowRef> best_;   ///< per group its best row, kNoRow while it has none
  std::vector<uint32_t> candidate_;      ///< per group its best row of the current batch (kNullRow: none)
  std::vector<uint32_t> touched_;        ///< the groups with a candidate, in the order they got one
};

}  // namespace

std::unique_ptr<AggregateState> make_max_by_state(const AggregateSpec& spec) {
  return std::make_unique<MaxByState>(spec);
}

}  // namespace kestrel::exec::aggregate_detail
