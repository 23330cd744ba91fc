#include "io/parquet/column_builder.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "common/json_text.hpp"
#include "io/parquet/rle_bit_packed.hpp"
#include "io/parquet/value_conversion.hpp"

namespace kestrel::io::parquet {

namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidInput(what); }

/// A plain JSON column with each value in canonical form (common/json_text.hpp), which equality and hashing of
/// JSON values rely on; text that is not JSON is bad data.
ColumnPtr canonical_json_column(const ColumnPtr& column, gpu::MemoryResource& mr) {
  const size_t rows = column->length();
  std::string chars;
  BufferPtr offsets = Buffer::allocate((rows + 1) * sizeof(int64_t), mr, gpu::Stream::host());
  int64_t* off = offsets->as<int64_t>();
  off[0] = 0;
  for (size_t r = 0; r < rows; ++r) {
    if (column->is_valid(r)) {
      const std::string_view text = column->string_at(r);
      JsonSyntaxError error;
      const std::optional<std::string> canonical = canonical_json(text, &error);
      if (!canonical) {
        fail("JSON column value '" + std::string(text.substr(0, 100)) + "' is not JSON: " + error.describe());
      }
      chars += *canonical;
    }
    off[r + 1] = static_cast<int64_t>(chars.size());
  }
  BufferPtr bytes = Buffer::allocate(chars.size(), mr, gpu::Stream::host());
  if (!chars.empty()) std::memcpy(bytes->data(), chars.data(), chars.size());
  return Column::from_buffers(column->type(), ColumnEncoding::kPlain, rows, column->null_count(), column->validity(),
                              std::move(bytes), std::move(offsets), nullptr);
}

uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

[[noreturn]] void bad_encoding(Encoding encoding, PhysicalType type) {
  int32_t raw = static_cast<int32_t>(encoding);
  if (raw < 0 || raw > 9 || raw == 1) fail("unknown encoding " + std::to_string(raw));
  fail("encoding " + encoding_name(encoding) + " is not supported for " + physical_type_name(type) + " values");
}

bool is_dictionary_encoding(Encoding e) { return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary; }

template <size_t W>
void gather(const uint8_t* dictionary, const int32_t* indices, size_t n, uint8_t* out) {
  for (size_t i = 0; i < n; ++i) std::memcpy(out + i * W, dictionary + static_cast<size_t>(indices[i]) * W, W);
}

template <size_t W>
void spread_fixed(uint8_t* base, size_t n, size_t m, const uint8_t* validity, size_t row0) {
  size_t k = m;
  for (size_t i = n; i-- > 0;) {
    if (bits::get(validity, row0 + i)) {
      --k;
      if (k != i) std::memcpy(base + i * W, base + k * W, W);
    } else {
      std::memset(base + i * W, 0, W);
    }
  }
}

}  // namespace

ColumnBuilder::ColumnBuilder(const ColumnDescriptor& column, size_t rows, bool keep_dictionary, size_t chars_hint,
                             gpu::MemoryResource& mr)
    : column_(column),
      rows_(rows),
      keep_dictionary_(keep_dictionary),
      mr_(mr),
      width_(column.type.is_variable_width() ? 0 : column.type.physical_width()),
      chars_hint_(chars_hint) {
  if (column_.max_definition_level > 0) {
    validity_ = Buffer::allocate(bits::bytes_for(rows), mr_, gpu::Stream::host());
    if (validity_->size() > 0) std::memset(validity_->data(), 0, validity_->size());
  }
  if (width_ > 0) values_ = Buffer::allocate(rows * width_, mr_, gpu::Stream::host());
}

size_t ColumnBuilder::decode_levels(const Page& page, size_t n, ByteSpan& values) {
  values = page.body;
  if (column_.max_definition_level == 0) return n;
  uint8_t* validity = validity_->as<uint8_t>();
  if (page.v2) {
    RleBitPackedDecoder decoder(page.definition_levels.data, page.definition_levels.size, 1);
    size_t set = decoder.decode_to_bitmap(validity, row_, n, 1);
    if (n - set != static_cast<size_t>(page.num_nulls)) {
      fail("page v2 claims " + std::to_string(page.num_nulls) + " nulls, its levels hold " + std::to_string(n - set));
    }
    return set;
  }
  if (page.definition_level_encoding == Encoding::kRle) {
    if (page.body.size < 4) fail("definition levels lack their length");
    size_t length = load_le32(page.body.data);
    if (length > page.body.size - 4) fail("definition levels of " + std::to_string(length) + " bytes exceed the page");
    RleBitPackedDecoder decoder(page.body.data + 4, length, 1);
    size_t set = decoder.decode_to_bitmap(validity, row_, n, 1);
    values = ByteSpan{page.body.data + 4 + length, page.body.size - 4 - length};
    return set;
  }
  if (page.definition_level_encoding == Encoding::kBitPacked) {
    size_t bytes = packed_bytes(n, 1);
    if (bytes > page.body.size) fail("BIT_PACKED definition levels exceed the page");
    size_t set = 0;
    for (size_t i = 0; i < n; ++i) {
      bool v = (page.body.data[i >> 3] >> (7 - (i & 7))) & 1;  // legacy packing: most significant bit first
      bits::assign(validity, row_ + i, v);
      set += v;
    }
    values = ByteSpan{page.body.data + bytes, page.body.size - bytes};
    return set;
  }
  fail("unknown definition level encoding " + std::to_string(static_cast<int32_t>(page.definition_level_encoding)));
}

void ColumnBuilder::add_dictionary_page(const Page& page) {
  if (has_dictionary_) fail("a second dictionary page");
  if (row_ > 0) fail("a dictionary page after data pages");
  if (page.encoding != Encoding::kPlain && page.encoding != Encoding::kPlainDictionary) {
    fail("dictionary page encoding " + encoding_name(page.encoding) + " (only PLAIN is valid)");
  }
  size_t count = static_cast<size_t>(page.num_values);
  PhysicalType physical = column_.physical_type;
  if (physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray) {
    if (physical == PhysicalType::kByteArray) {
      decode_plain_byte_arrays(page.body, count, binary_);
    } else {
      decode_plain_fixed_len(page.body, count, static_cast<size_t>(column_.type_length), binary_);
    }
    if (column_.type.is_variable_width()) {
      size_t bytes = 0;
      for (auto v : binary_.views) bytes += v.size();
      dictionary_column_ =
          Column::retyped(Column::make_string(count, bytes, false, mr_, gpu::Stream::host()), column_.type);
      int64_t* offsets = dictionary_column_->mutable_offsets();
      char* chars = dictionary_column_->values()->as<char>();
      dictionary_views_.resize(count);
      offsets[0] = 0;
      for (size_t i = 0; i < count; ++i) {
        size_t size = binary_.views[i].size();
        if (size > 0) std::memcpy(chars + offsets[i], binary_.views[i].data(), size);
        dictionary_views_[i] = std::string_view(chars + offsets[i], size);
        offsets[i + 1] = offsets[i] + static_cast<int64_t>(size);
      }
    } else {
      dictionary_values_.resize(count * width_);
      convert_binary_values(column_.conversion, binary_.views.data(), count, dictionary_values_.data());
    }
  } else {
    size_t pw = physical_width(physical, column_.type_length);
    dictionary_values_.resize(count * width_);
    if (physical == PhysicalType::kBoolean) {
      decode_plain_booleans(page.body, count, dictionary_values_.data());
    } else if (column_.conversion == ValueConversion::kIdentity) {
      decode_plain_fixed(page.body, count, pw, dictionary_values_.data());
    } else {
      if (count > page.body.size / pw) fail("dictionary page holds fewer than " + std::to_string(count) + " values");
      scratch_.resize(count * pw);
      decode_plain_fixed(page.body, count, pw, scratch_.data());
      convert_fixed_values(column_.conversion, scratch_.data(), count, dictionary_values_.data());
    }
  }
  has_dictionary_ = true;
  dictionary_size_ = count;
}

void ColumnBuilder::add_data_page(const Page& page) {
  size_t n = static_cast<size_t>(page.num_values);
  if (n > rows_ - row_) {
    fail("page holds " + std::to_string(n) + " values, only " + std::to_string(rows_ - row_) +
         " rows of the row group are left");
  }
  if (n == 0) return;
  ByteSpan values;
  size_t m = decode_levels(page, n, values);
  add_values(page, values, n, m);
}

void ColumnBuilder::add_leaf_page(const Page& page, ByteSpan values, const uint8_t* valid, size_t n) {
  if (n > rows_ - row_) {
    fail("page holds " + std::to_string(n) + " values, only " + std::to_string(rows_ - row_) + " are left");
  }
  if (n == 0) return;
  size_t m = 0;
  if (validity_) {
    uint8_t* bitmap = validity_->as<uint8_t>();
    for (size_t i = 0; i < n; ++i) {
      bits::assign(bitmap, row_ + i, valid[i] != 0);
      m += valid[i] != 0;
    }
  } else {
    for (size_t i = 0; i < n; ++i) m += valid[i] != 0;
    if (m != n) throw InternalError("NULL values in a nested leaf without definition levels");
  }
  add_values(page, values, n, m);
}

void ColumnBuilder::add_values(const Page& page, ByteSpan values, size_t n, size_t m) {
  bool is_string = column_.type.is_variable_width();
  bool dictionary_page = is_dictionary_encoding(page.encoding);
  if (is_string && string_mode_ == StringMode::kNone) {
    if (dictionary_page && keep_dictionary_ && has_dictionary_ && dictionary_size_ > 0) {
      string_mode_ = StringMode::kDictionary;
      values_ = Buffer::allocate(rows_ * sizeof(int32_t), mr_, gpu::Stream::host());
    } else {
      switch_to_plain_strings();
    }
  }
  if (is_string && string_mode_ == StringMode::kDictionary && !dictionary_page) switch_to_plain_strings();

  if (dictionary_page) {
    decode_dictionary_indices(values, m);
    gather_dictionary(n, m);
  } else if (column_.physical_type == PhysicalType::kByteArray ||
             column_.physical_type == PhysicalType::kFixedLenByteArray) {
    decode_binary(page, values, m);
    if (is_string) {
      append_strings(binary_.views.data(), n, m);
    } else {
      uint8_t* dense = values_->as<uint8_t>() + row_ * width_;
      convert_binary_values(column_.conversion, binary_.views.data(), m, dense);
      spread(dense, width_, n, m);
    }
  } else {
    uint8_t* dense = values_->as<uint8_t>() + row_ * width_;
    decode_fixed(page, values, m, dense);
    spread(dense, width_, n, m);
  }
  non_null_ += m;
  row_ += n;
}

void ColumnBuilder::decode_dictionary_indices(ByteSpan values, size_t m) {
  if (!has_dictionary_) fail("a dictionary-encoded page without a dictionary page");
  int32_t* out;
  if (string_mode_ == StringMode::kDictionary) {
    out = values_->as<int32_t>() + row_;
  } else {
    indices_.resize(m);
    out = indices_.data();
  }
  if (m == 0) return;
  if (values.size < 1) fail("dictionary indices lack their bit width");
  int bit_width = values.data[0];
  if (bit_width > 32) fail("dictionary index bit width " + std::to_string(bit_width) + " above 32");
  RleBitPackedDecoder decoder(values.data + 1, values.size - 1, bit_width);
  decoder.decode_indices(out, m, static_cast<uint32_t>(dictionary_size_));
}

void ColumnBuilder::gather_dictionary(size_t n, size_t m) {
  if (string_mode_ == StringMode::kDictionary) {
    spread(reinterpret_cast<uint8_t*>(values_->as<int32_t>() + row_), sizeof(int32_t), n, m);
    return;
  }
  if (column_.type.is_variable_width()) {
    binary_.views.resize(m);
    for (size_t i = 0; i < m; ++i) binary_.views[i] = dictionary_views_[static_cast<size_t>(indices_[i])];
    append_strings(binary_.views.data(), n, m);
    return;
  }
  uint8_t* dense = values_->as<uint8_t>() + row_ * width_;
  const uint8_t* dict = dictionary_values_.data();
  switch (width_) {
    case 1: gather<1>(dict, indices_.data(), m, dense); break;
    case 2: gather<2>(dict, indices_.data(), m, dense); break;
    case 4: gather<4>(dict, indices_.data(), m, dense); break;
    case 8: gather<8>(dict, indices_.data(), m, dense); break;
    case 16: gather<16>(dict, indices_.data(), m, dense); break;
    default: throw InternalError("dictionary gather of width " + std::to_string(width_));
  }
  spread(dense, width_, n, m);
}

void ColumnBuilder::decode_fixed(const Page& page, ByteSpan values, size_t m, uint8_t* dense) {
  PhysicalType physical = column_.physical_type;
  size_t pw = physical_width(physical, column_.type_length);
  bool direct = column_.conversion == ValueConversion::kIdentity || column_.conversion == ValueConversion::kBoolean;
  uint8_t* target = dense;
  if (!direct) {
    scratch_.resize(m * pw);
    target = scratch_.data();
  }
  switch (page.encoding) {
    case Encoding::kPlain:
      if (physical == PhysicalType::kBoolean) {
        decode_plain_booleans(values, m, target);
      } else {
        decode_plain_fixed(values, m, pw, target);
      }
      break;
    case Encoding::kRle:
      if (physical != PhysicalType::kBoolean) bad_encoding(page.encoding, physical);
      decode_rle_booleans(values, m, target);
      break;
    case Encoding::kDeltaBinaryPacked:
      if (physical == PhysicalType::kInt32) {
        decode_delta_binary_packed(values, m, reinterpret_cast<int32_t*>(target));
      } else if (physical == PhysicalType::kInt64) {
        decode_delta_binary_packed(values, m, reinterpret_cast<int64_t*>(target));
      } else {
        bad_encoding(page.encoding, physical);
      }
      break;
    case Encoding::kByteStreamSplit:
      if (physical == PhysicalType::kBoolean || physical == PhysicalType::kInt96) bad_encoding(page.encoding, physical);
      decode_byte_stream_split(values, m, pw, target);
      break;
    default: bad_encoding(page.encoding, physical);
  }
  if (!direct) convert_fixed_values(column_.conversion, target, m, dense);
}

void ColumnBuilder::decode_binary(const Page& page, ByteSpan values, size_t m) {
  PhysicalType physical = column_.physical_type;
  bool fixed = physical == PhysicalType::kFixedLenByteArray;
  size_t width = fixed ? static_cast<size_t>(column_.type_length) : 0;
  switch (page.encoding) {
    case Encoding::kPlain:
      if (fixed) {
        decode_plain_fixed_len(values, m, width, binary_);
      } else {
        decode_plain_byte_arrays(values, m, binary_);
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      if (fixed) bad_encoding(page.encoding, physical);
      decode_delta_length_byte_arrays(values, m, binary_);
      break;
    case Encoding::kDeltaByteArray:
      decode_delta_byte_arrays(values, m, binary_);
      if (fixed) {
        for (auto v : binary_.views) {
          if (v.size() != width) fail("DELTA_BYTE_ARRAY value of " + std::to_string(v.size()) + " bytes in a column of " + std::to_string(width));
        }
      }
      break;
    case Encoding::kByteStreamSplit: {
      if (!fixed) bad_encoding(page.encoding, physical);
      binary_.storage.resize(m * width);
      decode_byte_stream_split(values, m, width, reinterpret_cast<uint8_t*>(binary_.storage.data()));
      decode_plain_fixed_len(ByteSpan{reinterpret_cast<const uint8_t*>(binary_.storage.data()), m * width}, m, width,
                             binary_);
      break;
    }
    default: bad_encoding(page.encoding, physical);
  }
}

void ColumnBuilder::reserve_chars(size_t more) {
  size_t needed = chars_size_ + more;
  size_t capacity = chars_ ? chars_->size() : 0;
  if (needed <= capacity && chars_) return;
  size_t grown = std::max({needed, capacity * 2, std::min<size_t>(chars_hint_, size_t{64} << 20), size_t{4096}});
  BufferPtr buffer = Buffer::allocate(grown, mr_, gpu::Stream::host());
  if (chars_size_ > 0) std::memcpy(buffer->data(), chars_->data(), chars_size_);
  chars_ = std::move(buffer);
}

void ColumnBuilder::append_strings(const std::string_view* views, size_t n, size_t m) {
  size_t bytes = 0;
  for (size_t i = 0; i < m; ++i) bytes += views[i].size();
  reserve_chars(bytes);
  char* chars = chars_->as<char>();
  int64_t* offsets = offsets_->as<int64_t>();
  size_t cur = chars_size_;
  if (m == n) {
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(chars + cur, views[i].data(), views[i].size());
      cur += views[i].size();
      offsets[row_ + i + 1] = static_cast<int64_t>(cur);
    }
  } else {
    const uint8_t* validity = validity_->as<uint8_t>();
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
      if (bits::get(validity, row_ + i)) {
        std::memcpy(chars + cur, views[k].data(), views[k].size());
        cur += views[k].size();
        ++k;
      }
      offsets[row_ + i + 1] = static_cast<int64_t>(cur);
    }
  }
  chars_size_ = cur;
}

void ColumnBuilder::spread(uint8_t* base, size_t width, size_t n, size_t m) {
  if (m == n) return;
  const uint8_t* validity = validity_->as<uint8_t>();
  switch (width) {
    case 1: return spread_fixed<1>(base, n, m, validity, row_);
    case 2: return spread_fixed<2>(base, n, m, validity, row_);
    case 4: return spread_fixed<4>(base, n, m, validity, row_);
    case 8: return spread_fixed<8>(base, n, m, validity, row_);
    case 16: return spread_fixed<16>(base, n, m, validity, row_);
    default: throw InternalError("spread of width " + std::to_string(width));
  }
}

void ColumnBuilder::switch_to_plain_strings() {
  offsets_ = Buffer::allocate((rows_ + 1) * sizeof(int64_t), mr_, gpu::Stream::host());
  int64_t* offsets = offsets_->as<int64_t>();
  offsets[0] = 0;
  if (string_mode_ == StringMode::kDictionary && row_ > 0) {
    // Expand the rows decoded so far from their dictionary indices.
    const int32_t* indices = values_->as<int32_t>();
    size_t bytes = 0;
    for (size_t r = 0; r < row_; ++r) bytes += dictionary_views_[static_cast<size_t>(indices[r])].size();
    reserve_chars(bytes);
    char* chars = chars_->as<char>();
    const uint8_t* validity = validity_ ? validity_->as<uint8_t>() : nullptr;
    size_t cur = 0;
    for (size_t r = 0; r < row_; ++r) {
      if (validity == nullptr || bits::get(validity, r)) {
        std::string_view v = dictionary_views_[static_cast<size_t>(indices[r])];
        std::memcpy(chars + cur, v.data(), v.size());
        cur += v.size();
      }
      offsets[r + 1] = static_cast<int64_t>(cur);
    }
    chars_size_ = cur;
  }
  values_ = nullptr;
  string_mode_ = StringMode::kPlain;
}

ColumnPtr ColumnBuilder::finish_filled() {
  rows_ = row_;
  return finish();
}

ColumnPtr ColumnBuilder::finish() {
  if (row_ != rows_) {
    fail("column chunk holds " + std::to_string(row_) + " values, the row group has " + std::to_string(rows_) +
         " rows");
  }
  size_t null_count = validity_ ? rows_ - non_null_ : 0;
  BufferPtr validity = null_count > 0 ? validity_ : nullptr;
  if (!column_.type.is_variable_width()) {
    return Column::from_buffers(column_.type, ColumnEncoding::kPlain, rows_, null_count, validity, values_, nullptr,
                                nullptr);
  }
  const bool json = column_.type.id() == TypeId::kJson;
  if (string_mode_ == StringMode::kDictionary) {
    const ColumnPtr dictionary = json ? canonical_json_column(dictionary_column_, mr_) : dictionary_column_;
    return Column::make_dictionary(column_.type, rows_, values_, validity, null_count, dictionary);
  }
  if (string_mode_ == StringMode::kNone) switch_to_plain_strings();  // no rows
  if (!chars_ || chars_->size() > chars_size_ + chars_size_ / 4 + 4096) {
    BufferPtr exact = Buffer::allocate(chars_size_, mr_, gpu::Stream::host());
    if (chars_size_ > 0) std::memcpy(exact->data(), chars_->data(), chars_size_);
    chars_ = std::move(exact);
  }
  ColumnPtr column = Column::from_buffers(column_.type, ColumnEncoding::kPlain, rows_, null_count, validity, chars_,
                                         offsets_, nullptr);
  return json ? canonical_json_column(column, mr_) : column;
}

}  // namespace kestrel::io::parquet
