#include "exec/expr/dictionary.hpp"

#include "vector/gather.hpp"

#include <cstring>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "exec/expr/kernel_util.hpp"

namespace kestrel::exec {

namespace {

/// Row i of the output takes source row index(i); `row_valid(i)` false makes it NULL without reading index(i).
template <typename Index, typename RowValid>
ColumnPtr gather_plain(const Column& src, Index&& index, size_t n, RowValid&& row_valid, gpu::MemoryResource& mr) {
  KESTREL_CHECK(src.encoding() == ColumnEncoding::kPlain);
  const uint8_t* src_valid = src.validity() ? src.validity()->as<uint8_t>() : nullptr;
  std::vector<uint8_t> valid(n);
  for (size_t i = 0; i < n; ++i) {
    valid[i] = row_valid(i) && (src_valid == nullptr || bits::get(src_valid, index(i)));
  }
  Validity validity = validity_from_bytes(valid.data(), n, mr);
  if (src.type().is_variable_width()) {
    const int64_t* off = src.offsets()->as<int64_t>();
    const char* chars = src.data<char>();
    StringColumnBuilder builder(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (!valid[i]) {
        builder.append_null();
        continue;
      }
      const size_t r = index(i);
      builder.append(std::string_view(chars + off[r], static_cast<size_t>(off[r + 1] - off[r])));
    }
    return builder.finish(std::move(validity), mr, src.type());
  }
  ColumnPtr out = make_output(src.type(), n, std::move(validity), mr);
  dispatch_fixed(src.type(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = src.data<T>();
    T* dst = out->mutable_data<T>();
    for (size_t i = 0; i < n; ++i) dst[i] = valid[i] ? in[index(i)] : T{};
  });
  return out;
}

}  // namespace

ColumnPtr decode_dictionary(const ColumnPtr& column, gpu::MemoryResource& mr) {
  if (!column->is_dictionary()) return column;
  return decode_dictionary(*column, mr);
}

ColumnPtr decode_dictionary(const Column& column, gpu::MemoryResource& mr) {
  KESTREL_CHECK(column.is_dictionary());
  const int32_t* idx = column.data<int32_t>();
  const uint8_t* valid = column.validity() ? column.validity()->as<uint8_t>() : nullptr;
  const size_t entries = column.dictionary()->length();
  auto row_valid = [&](size_t i) {
    return (valid == nullptr || bits::get(valid, i)) && idx[i] >= 0 && static_cast<size_t>(idx[i]) < entries;
  };
  return gather_plain(
      *column.dictionary(), [&](size_t i) { return static_cast<size_t>(idx[i]); }, column.length(), row_valid, mr);
}

ColumnPtr gather_rows(const Column& column, const uint32_t* rows, size_t n, gpu::MemoryResource& mr) {
  if (column.type().is_nested()) return gather_column(column, RowIndices(rows, rows + n), mr);
  const uint8_t* valid = column.validity() ? column.validity()->as<uint8_t>() : nullptr;
  if (column.is_dictionary()) {
    BufferPtr indices = Buffer::allocate(n * sizeof(int32_t), mr, gpu::Stream::host());
    int32_t* dst = indices->as<int32_t>();
    const int32_t* src = column.data<int32_t>();
    std::vector<uint8_t> row_valid(n);
    for (size_t i = 0; i < n; ++i) {
      dst[i] = src[rows[i]];
      row_valid[i] = valid == nullptr || bits::get(valid, rows[i]);
    }
    Validity validity = validity_from_bytes(row_valid.data(), n, mr);
    return Column::make_dictionary(column.type(), n, std::move(indices), std::move(validity.bitmap),
                                   validity.null_count, column.dictionary());
  }
  return gather_plain(
      column, [&](size_t i) { return static_cast<size_t>(rows[i]); }, n, [](size_t) { return true; }, mr);
}

ColumnPtr spread_dictionary_result(const Column& encoded, const ColumnPtr& per_entry, gpu::MemoryResource& mr) {
  KESTREL_CHECK(encoded.is_dictionary());
  if (per_entry->type().is_variable_width() && per_entry->null_count() == 0 && !per_entry->is_dictionary()) {
    return Column::make_dictionary(per_entry->type(), encoded.length(), encoded.values(), encoded.validity(),
                                   encoded.null_count(), per_entry);
  }
  const int32_t* idx = encoded.data<int32_t>();
  const uint8_t* valid = encoded.validity() ? encoded.validity()->as<uint8_t>() : nullptr;
  const size_t entries = per_entry->length();
  auto row_valid = [&](size_t i) {
    return (valid == nullptr || bits::get(valid, i)) && idx[i] >= 0 && static_cast<size_t>(idx[i]) < entries;
  };
  return gather_plain(
      *per_entry, [&](size_t i) { return static_cast<size_t>(idx[i]); }, encoded.length(), row_valid, mr);
}

}  // namespace kestrel::exec
