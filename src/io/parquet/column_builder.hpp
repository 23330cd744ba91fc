#pragma once
/// Builds one Kestrel host column from the decoded pages of a flat Parquet column chunk: definition levels become
/// the validity bitmap, values are decoded by their encoding and converted to the column's Kestrel type. A string
/// chunk whose data pages are all dictionary-encoded becomes a dictionary-encoded column; a non-dictionary page
/// switches it to plain strings.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "io/parquet/page_reader.hpp"
#include "io/parquet/parquet_schema.hpp"
#include "io/parquet/value_decoders.hpp"
#include "vector/column.hpp"

namespace kestrel::io::parquet {

/// Accumulates the pages of one column chunk into a column of `rows` rows.
class ColumnBuilder {
 public:
  /// `keep_dictionary`: build dictionary-encoded string columns where the chunk allows. `chars_hint`: an estimate
  /// of the string bytes (the chunk's uncompressed size) to size the first allocation.
  ColumnBuilder(const ColumnDescriptor& column, size_t rows, bool keep_dictionary, size_t chars_hint,
                gpu::MemoryResource& mr);

  void add_dictionary_page(const Page& page);
  void add_data_page(const Page& page);
  /// The values of a data page of a nested column's leaf, whose levels the caller decoded: `values` (the page's
  /// encoded values) fill the next `n` rows, those with `valid[i]` set; the others are NULL.
  void add_leaf_page(const Page& page, ByteSpan values, const uint8_t* valid, size_t n);
  /// Rows filled so far.
  size_t rows_done() const { return row_; }
  /// The finished column; every row must have been filled.
  ColumnPtr finish();
  /// The finished column of the rows filled so far (a nested leaf, built with room for its level entries, knows
  /// its row count only at the end).
  ColumnPtr finish_filled();

 private:
  enum class StringMode : uint8_t { kNone, kDictionary, kPlain };

  /// Decodes the definition levels of a page into the validity bitmap; returns the non-null count.
  size_t decode_levels(const Page& page, size_t n, ByteSpan& values);
  /// Decodes the `m` values of the next `n` rows (validity already set) and moves on by `n` rows.
  void add_values(const Page& page, ByteSpan values, size_t n, size_t m);
  void decode_dictionary_indices(ByteSpan values, size_t m);
  void decode_fixed(const Page& page, ByteSpan values, size_t m, uint8_t* dense);
  void decode_binary(const Page& page, ByteSpan values, size_t m);
  void append_strings(const std::string_view* views, size_t n, size_t m);
  void gather_dictionary(size_t n, size_t m);
  void spread(uint8_t* base, size_t width, size_t n, size_t m);
  void switch_to_plain_strings();
  void reserve_chars(size_t more);

  const ColumnDescriptor& column_;
  size_t rows_;
  bool keep_dictionary_;
  gpu::MemoryResource& mr_;
  size_t width_;  ///< bytes per value of the Kestrel type (0 for VARCHAR)
  size_t row_ = 0;
  size_t non_null_ = 0;

  BufferPtr validity_;
  BufferPtr values_;  ///< fixed-width values, or int32 indices in string dictionary mode

  // Strings.
  StringMode string_mode_ = StringMode::kNone;
  BufferPtr offsets_;
  BufferPtr chars_;
  size_t chars_size_ = 0;
  size_t chars_hint_;

  // Dictionary.
  bool has_dictionary_ = false;
  size_t dictionary_size_ = 0;
  std::vector<uint8_t> dictionary_values_;        ///< converted fixed-width entries
  ColumnPtr dictionary_column_;                   ///< string entries as a plain VARCHAR column
  std::vector<std::string_view> dictionary_views_;

  // Scratch reused across pages.
  std::vector<int32_t> indices_;
  std::vector<uint8_t> scratch_;
  BinaryValues binary_;
};

}  // namespace kestrel::io::parquet
