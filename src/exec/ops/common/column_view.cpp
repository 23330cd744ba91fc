#include "exec/ops/common/column_view.hpp"

#include "common/check.hpp"

namespace kestrel::exec {

PhysicalKind physical_kind(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return PhysicalKind::kBool;
    case TypeId::kTinyInt: return PhysicalKind::kInt8;
    case TypeId::kSmallInt: return PhysicalKind::kInt16;
    case TypeId::kInteger:
    case TypeId::kDate: return PhysicalKind::kInt32;
    case TypeId::kBigInt:
    case TypeId::kTimestamp: return PhysicalKind::kInt64;
    case TypeId::kDecimal: return type.is_wide_decimal() ? PhysicalKind::kInt128 : PhysicalKind::kInt64;
    case TypeId::kReal: return PhysicalKind::kFloat;
    case TypeId::kDouble: return PhysicalKind::kDouble;
    case TypeId::kInterval: return PhysicalKind::kInterval;
    case TypeId::kTimestampTz: return PhysicalKind::kTimestampTz;
    case TypeId::kVarchar:
    case TypeId::kVarbinary:
    case TypeId::kJson:
    // Nested values are read through their key bytes (Column::nested_keys), which hash, compare and order as
    // the values do.
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return PhysicalKind::kString;
    case TypeId::kNull: break;
  }
  throw InternalError("no physical layout for type " + type.to_string());
}

ColumnView make_view(const Column& column) {
  KESTREL_CHECK_MSG(!column.on_device(), "operator key view of a device column");
  ColumnView view;
  // An untyped NULL column is stored as INTEGER (null_column); read it as such.
  view.kind = column.type().id() == TypeId::kNull ? PhysicalKind::kInt32 : physical_kind(column.type());
  view.validity = column.validity() ? column.validity()->as<uint8_t>() : nullptr;
  if (column.type().is_nested()) {
    const Column& keys = column.nested_keys();
    view.values = keys.values()->as<uint8_t>();
    view.offsets = keys.offsets()->as<int64_t>();
  } else if (column.is_dictionary()) {
    const Column& dict = *column.dictionary();
    view.values = dict.values() ? dict.values()->as<uint8_t>() : nullptr;
    view.offsets = dict.offsets() ? dict.offsets()->as<int64_t>() : nullptr;
    view.dict_indices = column.data<int32_t>();
  } else {
    view.values = column.values() ? column.values()->as<uint8_t>() : nullptr;
    view.offsets = column.offsets() ? column.offsets()->as<int64_t>() : nullptr;
  }
  return view;
}

std::vector<ColumnView> make_views(const Batch& batch, const std::vector<size_t>& columns) {
  std::vector<ColumnView> views;
  views.reserve(columns.size());
  for (size_t c : columns) {
    KESTREL_CHECK_LT(c, batch.num_columns());
    views.push_back(make_view(*batch.column(c)));
  }
  return views;
}

std::vector<ColumnView> make_views(const std::vector<ColumnPtr>& columns) {
  std::vector<ColumnView> views;
  views.reserve(columns.size());
  for (const auto& c : columns) views.push_back(make_view(*c));
  return views;
}

std::vector<size_t> column_range(size_t first, size_t count) {
  std::vector<size_t> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = first + i;
  return out;
}

}  // namespace kestrel::exec
