#include "exec/ops/common/row_hash.hpp"
#include "exec/ops/hash_aggregate/aggregate_columns.hpp"

namespace kestrel::exec::aggregate_detail {

namespace {

/// checksum(x): per group the wrapping sum of hash(x) * a large odd constant over its rows, NULLs included (they
/// hash to a constant), as Presto sums xxhash64 values; so the order of the rows does not matter. The hash is the
/// one of the CPU hash tables (row_hash.hpp), not Presto's, and the result is that sum as a BIGINT (Presto returns
/// its 8 bytes as VARBINARY), NULL for a group without rows.
class ChecksumState final : public AggregateState {
 public:
  void resize(size_t groups) override {
    sums_.resize(groups, 0);
    counts_.resize(groups, 0);
  }
  void update(const uint32_t* ids, const Column* argument, size_t rows) override {
    hashes_.resize(rows);
    hash_rows({make_view(*argument)}, rows, hashes_.data());
    for (size_t r = 0; r < rows; ++r) {
      sums_[ids[r]] += hashes_[r] * kPrime;
      ++counts_[ids[r]];
    }
  }
  std::vector<ColumnPtr> export_state(size_t first, size_t count) const override {
    return {fixed_column<uint64_t>(TypeId::kBigInt, sums_.data() + first, nullptr, count),
            fixed_column<int64_t>(TypeId::kBigInt, counts_.data() + first, nullptr, count)};
  }
  void merge(const uint32_t* ids, const std::vector<ColumnPtr>& state, size_t rows) override {
    const ColumnView sums = make_view(*state.at(0)), counts = make_view(*state.at(1));
    for (size_t r = 0; r < rows; ++r) {
      sums_[ids[r]] += sums.get<uint64_t>(r);
      counts_[ids[r]] += counts.get<int64_t>(r);
    }
  }
  ColumnPtr finalize(size_t first, size_t count) const override {
    std::vector<uint8_t> has(count);
    for (size_t i = 0; i < count; ++i) has[i] = counts_[first + i] > 0;
    return fixed_column<uint64_t>(TypeId::kBigInt, sums_.data() + first, has.data(), count);
  }

 private:
  static constexpr uint64_t kPrime = 0x9E3779B185EBCA87ULL;  // xxhash64's first prime, Presto's multiplier
  std::vector<uint64_t> sums_;
  std::vector<int64_t> counts_;
  std::vector<uint64_t> hashes_;  ///< scratch of update
};

}  // namespace

std::unique_ptr<AggregateState> make_checksum_state() { return std::make_unique<ChecksumState>(); }

}  // namespace kestrel::exec::aggregate_detail
