#include "io/parquet/page_reader.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace kestrel::io::parquet {

namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidInput(what); }

/// The most an uncompressed page may claim relative to its compressed size before it counts as corrupt: generous
/// (zstd turns a page of zeros into almost nothing) but it keeps a flipped bit from asking for a gigabyte.
size_t plausible_uncompressed_limit(size_t compressed) {
  return std::min(PageReader::kMaxPageBytes, std::max<size_t>(size_t{64} << 20, compressed * 4096));
}

}  // namespace

PageReader::PageReader(ByteSpan chunk, CompressionCodec codec, int32_t raw_codec, bool verify_checksums,
                       size_t max_host_page_bytes)
    : chunk_(chunk),
      codec_(codec),
      raw_codec_(raw_codec),
      verify_checksums_(verify_checksums),
      max_host_page_bytes_(max_host_page_bytes) {}

void PageReader::check_body(size_t compressed, size_t uncompressed) const {
  if (host_ && uncompressed > max_host_page_bytes_) {
    fail("page claims " + std::to_string(uncompressed) + " uncompressed bytes, more than the limit of " +
         std::to_string(max_host_page_bytes_));
  }
  if (codec_ == CompressionCodec::kUncompressed) {
    if (compressed != uncompressed) {
      fail("uncompressed page of " + std::to_string(compressed) + " bytes claims " + std::to_string(uncompressed));
    }
    return;
  }
  if (raw_codec_ < 0 || raw_codec_ > 7) fail("unknown compression codec " + std::to_string(raw_codec_));
  if (!codec_supported(codec_)) fail(std::string("compression codec ") + codec_name(codec_) + " is not supported");
  if (!host_ && uncompressed > plausible_uncompressed_limit(compressed)) {
    fail("page claims " + std::to_string(uncompressed) + " uncompressed bytes from " + std::to_string(compressed));
  }
}

ByteSpan PageReader::decompress_into(ByteSpan compressed, size_t uncompressed_size, size_t scratch_offset) {
  if (codec_ == CompressionCodec::kUncompressed) return compressed;
  size_t needed = scratch_offset + uncompressed_size;
  if (needed > scratch_capacity_) {
    size_t capacity = std::max(needed, scratch_capacity_ * 2);
    auto grown = std::unique_ptr<uint8_t[]>(new uint8_t[capacity]);
    if (scratch_offset > 0) std::copy(scratch_.get(), scratch_.get() + scratch_offset, grown.get());
    scratch_ = std::move(grown);
    scratch_capacity_ = capacity;
  }
  if (uncompressed_size == 0 && compressed.size == 0) return ByteSpan{scratch_.get() + scratch_offset, 0};
  decompress(codec_, {compressed.data, compressed.size}, {scratch_.get() + scratch_offset, uncompressed_size});
  return ByteSpan{scratch_.get() + scratch_offset, uncompressed_size};
}

bool PageReader::next_layout(PageLayout& layout) { return read_layout(layout, false); }

bool PageReader::read_layout(PageLayout& layout, bool host) {
  host_ = host;
  while (pos_ < chunk_.size) {
    ++page_index_;
    size_t header_size = 0;
    PageHeader header = decode_page_header(chunk_.data + pos_, chunk_.size - pos_, &header_size);
    pos_ += header_size;
    if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0) {
      fail("negative page size");
    }
    size_t compressed_size = static_cast<size_t>(header.compressed_page_size);
    size_t uncompressed_size = static_cast<size_t>(header.uncompressed_page_size);
    if (compressed_size > chunk_.size - pos_) {
      fail("page of " + std::to_string(compressed_size) + " bytes exceeds the " + std::to_string(chunk_.size - pos_) +
           " bytes left in the column chunk");
    }
    const size_t stored = pos_;
    pos_ += compressed_size;
    if (verify_checksums_ && header.crc) {
      uint32_t actual = crc32({chunk_.data + stored, compressed_size});
      if (actual != *header.crc) fail("page checksum mismatch");
    }
    layout = PageLayout{};
    layout.body_offset = stored;
    layout.body_stored_size = compressed_size;
    layout.body_size = uncompressed_size;
    layout.body_compressed = codec_ != CompressionCodec::kUncompressed;
    switch (header.type) {
      case PageType::kDictionaryPage: {
        if (!header.dictionary_page_header) fail("dictionary page without its header");
        const DictionaryPageHeader& d = *header.dictionary_page_header;
        if (d.num_values < 0) fail("negative dictionary size");
        layout.type = PageType::kDictionaryPage;
        layout.num_values = d.num_values;
        layout.encoding = d.encoding;
        check_body(compressed_size, uncompressed_size);
        return true;
      }
      case PageType::kDataPage: {
        if (!header.data_page_header) fail("data page without its header");
        const DataPageHeader& d = *header.data_page_header;
        if (d.num_values < 0) fail("negative value count");
        layout.type = PageType::kDataPage;
        layout.num_values = d.num_values;
        layout.encoding = d.encoding;
        layout.definition_level_encoding = d.definition_level_encoding;
        layout.repetition_level_encoding = d.repetition_level_encoding;
        check_body(compressed_size, uncompressed_size);
        return true;
      }
      case PageType::kDataPageV2: {
        if (!header.data_page_header_v2) fail("data page v2 without its header");
        const DataPageHeaderV2& d = *header.data_page_header_v2;
        if (d.num_values < 0 || d.num_nulls < 0 || d.num_nulls > d.num_values) fail("bad value or null count");
        if (d.definition_levels_byte_length < 0 || d.repetition_levels_byte_length < 0) fail("negative level size");
        size_t levels = static_cast<size_t>(d.definition_levels_byte_length) +
                        static_cast<size_t>(d.repetition_levels_byte_length);
        if (levels > compressed_size || levels > uncompressed_size) {
          fail("levels of " + std::to_string(levels) + " bytes exceed the page");
        }
        layout.type = PageType::kDataPageV2;
        layout.v2 = true;
        layout.num_values = d.num_values;
        layout.num_nulls = d.num_nulls;
        layout.encoding = d.encoding;
        layout.levels_offset = stored + static_cast<size_t>(d.repetition_levels_byte_length);
        layout.levels_size = static_cast<size_t>(d.definition_levels_byte_length);
        layout.repetition_levels_size = static_cast<size_t>(d.repetition_levels_byte_length);
        layout.body_offset = stored + levels;
        layout.body_stored_size = compressed_size - levels;
        layout.body_size = uncompressed_size - levels;
        if (d.is_compressed) {
          check_body(layout.body_stored_size, layout.body_size);
        } else {
          if (layout.body_stored_size != layout.body_size) fail("uncompressed page v2 sizes disagree");
          layout.body_compressed = false;
        }
        return true;
      }
      case PageType::kIndexPage:
      default: continue;  // not needed for reading values
    }
  }
  return false;
}

bool PageReader::next(Page& page) {
  PageLayout layout;
  if (!read_layout(layout, true)) return false;
  page = Page{};
  page.type = layout.type;
  page.num_values = layout.num_values;
  page.encoding = layout.encoding;
  page.definition_level_encoding = layout.definition_level_encoding;
  page.repetition_level_encoding = layout.repetition_level_encoding;
  page.v2 = layout.v2;
  page.num_nulls = layout.num_nulls;
  page.definition_levels = ByteSpan{chunk_.data + layout.levels_offset, layout.levels_size};
  page.repetition_levels =
      ByteSpan{chunk_.data + layout.levels_offset - layout.repetition_levels_size, layout.repetition_levels_size};
  ByteSpan stored{chunk_.data + layout.body_offset, layout.body_stored_size};
  page.body = layout.body_compressed ? decompress_into(stored, layout.body_size, 0) : stored;
  return true;
}

}  // namespace kestrel::io::parquet
