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
  /// v1: the encodings of the levels at the start of `body` (repetition levels first, present only in columns
  /// inside a repeated field); v2: levels are in `repetition_levels` and `definition_levels`.
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  ByteSpan repetition_levels;  ///< v2 only
  ByteSpan definition_levels;  ///< v2 only
  int32_t num_nulls = 0;       ///< v2 only
  ByteSpan body;               ///< v1: levels and values; v2: values; dictionary: values
};

/// Where one page lies in its column chunk and what its header says, checked against the chunk, before any
/// decompression: what a reader needs to decompress and decode the page elsewhere (the GPU scan).
struct PageLayout {
  PageType type = PageType::kDataPage;
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  bool v2 = false;
  Encoding definition_level_encoding = Encoding::kRle;  ///< v1
  Encoding repetition_level_encoding = Encoding::kRle;  ///< v1
  int32_t num_nulls = 0;                                ///< v2
  size_t levels_offset = 0;  ///< v2: the definition levels (never compressed) at this offset of the chunk
  size_t levels_size = 0;
  size_t repetition_levels_size = 0;  ///< v2: the repetition levels, just before the definition levels
  size_t body_offset = 0;       ///< the stored body (v1: levels and values; v2: values) at this offset of the chunk
  size_t body_stored_size = 0;  ///< its bytes as stored
  size_t body_size = 0;         ///< its bytes once decompressed
  bool body_compressed = false;  ///< false: stored as it is (no codec, or a v2 page marked uncompressed)
};

/// Reads pages from the bytes of a column chunk.
class PageReader {
 public:
  /// The largest uncompressed page next_layout accepts, and the compression ratio it believes: a bigger claim is
  /// treated as corruption before device memory is set aside for it.
  static constexpr size_t kMaxPageBytes = size_t{1} << 30;
  /// The largest uncompressed page `next` accepts by default: every size a page header can hold, whatever the
  /// ratio (a page of 1 GiB of one repeated byte compresses to a few kilobytes, and files holding such pages exist).
  /// On the host the claimed bytes are only reserved, not touched, until the codec writes them, and a claim the data
  /// does not fill is an error of the codec.
  static constexpr size_t kMaxHostPageBytes = 0x7fffffff;

  /// `max_host_page_bytes`: `next` refuses pages claiming more (the fuzzer lowers it to stay in its memory limit).
  PageReader(ByteSpan chunk, CompressionCodec codec, int32_t raw_codec, bool verify_checksums,
             size_t max_host_page_bytes = kMaxHostPageBytes);

  /// Loads the next page; false at the end of the chunk. Index pages and pages of unknown types are skipped.
  bool next(Page& page);
  /// Moves to the next page like `next` but only decodes and checks its header (sizes, codec, CRC when asked).
  bool next_layout(PageLayout& layout);
  /// 0-based index of the page last returned (counting every page, the dictionary page included).
  int page_index() const { return page_index_; }
  /// Bytes of the chunk consumed so far.
  size_t position() const { return pos_; }

 private:
  /// Checks a body of `compressed` stored bytes that decompresses to `uncompressed` bytes (the codec is known and
  /// supported, the sizes plausible).
  void check_body(size_t compressed, size_t uncompressed) const;
  /// next_layout; `host` relaxes the size plausibility as `next` does.
  bool read_layout(PageLayout& layout, bool host);
  ByteSpan decompress_into(ByteSpan compressed, size_t uncompressed_size, size_t scratch_offset);

  ByteSpan chunk_;
  CompressionCodec codec_;
  int32_t raw_codec_;
  bool verify_checksums_;
  size_t max_host_page_bytes_;
  bool host_ = false;  ///< the page being read is for `next` (see kMaxHostPageBytes)
  size_t pos_ = 0;
  int page_index_ = -1;
  std::unique_ptr<uint8_t[]> scratch_;
  size_t scratch_capacity_ = 0;
};

}  // namespace kestrel::io::parquet
