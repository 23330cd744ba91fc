#include "catalog/kcol_table.hpp"

#include <optional>

namespace kestrel::catalog {

KcolTable::KcolTable(std::string name, io::KcolDatasetPtr dataset)
    : Table(std::move(name), dataset->schema()), dataset_(std::move(dataset)), row_groups_(dataset_->row_groups()) {
  statistics_.row_count = dataset_->num_rows();
}

std::string KcolTable::source_description() const {
  const size_t files = dataset_->files().size();
  return "kcol: " + std::to_string(files) + (files == 1 ? " file, " : " files, ") + std::to_string(row_groups_.size()) +
         " row groups";
}

namespace {

/// A predicate constant as the i64 a PACKED chunk's min and max are kept in; nullopt when the type has none.
std::optional<int64_t> packed_key(const Value& v) {
  if (v.is_null()) return std::nullopt;
  switch (v.type().id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDate:
    case TypeId::kTimestamp: return v.as_int64();
    case TypeId::kDecimal: {
      if (v.type().is_wide_decimal()) return std::nullopt;
      const int128_t x = v.as_int128();
      if (x < INT64_MIN || x > INT64_MAX) return std::nullopt;
      return static_cast<int64_t>(x);
    }
    default: return std::nullopt;
  }
}

/// Whether a chunk may hold rows satisfying `p` (false only when its statistics rule them out).
bool may_match(const io::kcol::ChunkMeta& m, uint64_t rows, const PrunePredicate& p) {
  if (p.op == PruneOp::kIsNull) return m.null_count > 0;
  if (m.encoding != io::kcol::Encoding::kPacked) return true;
  if (m.null_count == rows) return false;  // no value: no comparison holds
  std::vector<int64_t> keys;
  for (const Value& v : p.values) {
    auto k = packed_key(v);
    if (!k) return true;
    keys.push_back(*k);
  }
  auto in_range = [&](int64_t k) { return m.min <= k && k <= m.max; };
  switch (p.op) {
    case PruneOp::kEqual: return keys.size() != 1 || in_range(keys[0]);
    case PruneOp::kLess: return keys.size() != 1 || m.min < keys[0];
    case PruneOp::kLessEqual: return keys.size() != 1 || m.min <= keys[0];
    case PruneOp::kGreater: return keys.size() != 1 || m.max > keys[0];
    case PruneOp::kGreaterEqual: return keys.size() != 1 || m.max >= keys[0];
    case PruneOp::kBetween: return keys.size() != 2 || (keys[0] <= m.max && keys[1] >= m.min);
    case PruneOp::kIn:
      for (int64_t k : keys) {
        if (in_range(k)) return true;
      }
      return keys.empty();
    case PruneOp::kIsNull: break;
  }
  return true;
}

}  // namespace

std::vector<size_t> KcolTable::plan_scan(const ScanSpec& spec) const {
  // Row groups whose chunk statistics rule out some predicate are skipped.
  std::vector<size_t> morsels;
  for (size_t i = 0; i < row_groups_.size(); ++i) {
    const io::KcolFile& file = *dataset_->files()[row_groups_[i].file];
    const size_t g = row_groups_[i].row_group;
    bool keep = true;
    for (const PrunePredicate& p : spec.predicates) {
      if (p.column >= file.schema()->size()) continue;
      if (!may_match(file.footer().chunk(g, p.column), file.row_group_rows(g), p)) {
        keep = false;
        break;
      }
    }
    if (keep) morsels.push_back(i);
  }
  return morsels;
}

Batch KcolTable::read_morsel(size_t morsel, const ScanSpec& spec) const {
  Batch batch = dataset_->read(row_groups_.at(morsel), spec.columns);
  return Batch(projected_schema(spec.columns), batch.columns(), batch.num_rows(), batch.residency());
}

double KcolTable::read_ahead_bytes_per_row(const std::vector<size_t>& columns) const {
  double stored = 0;
  uint64_t rows = 0;
  for (const auto& ref : row_groups_) {
    const io::KcolFile& file = *dataset_->files()[ref.file];
    rows += file.row_group_rows(ref.row_group);
    for (size_t c : columns) stored += static_cast<double>(file.footer().chunk(ref.row_group, c).size);
  }
  return rows > 0 ? stored / static_cast<double>(rows) : 0.0;
}

double KcolTable::scan_bytes_per_row(const std::vector<size_t>& columns) const {
  double decoded = 0;
  for (size_t c : columns) {
    const LogicalType& type = schema()->field(c).type;
    decoded += type.is_variable_width() ? 24.0 : static_cast<double>(type.physical_width());
  }
  return read_ahead_bytes_per_row(columns) + decoded;
}

}  // namespace kestrel::catalog
