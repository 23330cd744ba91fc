#pragma once
/// Iterates the pages of one column chunk: decodes each page header, checks its sizes against the chunk, verifies
/// the optional CRC and decompresses the page body. Data page v1 and v2 come out in one shape (Page).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/parquet/parquet_format.hpp"
#include "io/parquet/value_decoders.hpp"

namespace kestrel::io::parquet {

/// One page of a column chunk, decompressed. The spans stay valid until the next call to PageReader::next.
struct Page {
  PageType type = PageType::kDataPage;
  int32_t num_values = 0;  ///< data pages: values including nulls; dictionary pages: entries
  Encoding encoding = Encoding::kPlain;
  bool v2 = false;
  /// v1: the encoding of the definition levels at the start of `body`; v2: levels are in `definition_levels`.
  Encoding definition_level_encoding = Encoding::kRle;
  ByteSpan definition_levels;  ///< v2 only
  int32_t num_nulls = 0;       ///< v2 only
  ByteSpan body;               ///< v1: levels and values; v2: values; dictionary: values
};

/// Reads pages from the bytes of a column chunk.
class PageReader {
 public:
  /// The largest uncompressed page accepted; a bigger claimed size is treated as corruption.
  static constexpr size_t kMaxPageBytes = size_t{1} << 30;

  PageReader(ByteSpan chunk, CompressionCodec codec, int32_t raw_codec, bool verify_checksums);

  /// Loads the next page; false at the end of the chunk. Index pages and pages of unknown types are skipped.
  bool next(Page& page);
  /// 0-based index of the page last returned (counting every page, the dictionary page included).
  int page_index() const { return page_index_; }
  /// Bytes of the chunk consumed so far.
  size_t position() const { return pos_; }

 private:
  ByteSpan decompress_into(ByteSpan compressed, size_t uncompressed_size, size_t scratch_offset);

  ByteSpan chunk_;
  CompressionCodec codec_;
  int32_t raw_codec_;
  bool verify_checksums_;
  size_t pos_ = 0;
  int page_index_ = -1;
  std::unique_ptr<uint8_t[]> scratch_;
  size_t scratch_capacity_ = 0;
};

}  // namespace kestrel::io::parquet
