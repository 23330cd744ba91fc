// Decoding the pages of a nested column's leaf chunk into repetition levels, definition levels and values.

#include "io/parquet/nested_levels.hpp"

#include <cstring>
#include <new>
#include <string>

#include "common/error.hpp"
#include "io/parquet/column_builder.hpp"
#include "io/parquet/page_reader.hpp"
#include "io/parquet/rle_bit_packed.hpp"

namespace kestrel::io::parquet {

namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidInput(what); }

uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// The deprecated BIT_PACKED level encoding: values of `width` bits packed from the most significant bit on.
void unpack_msb_first(const uint8_t* in, int width, size_t n, uint8_t* out) {
  size_t bit = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    for (int b = 0; b < width; ++b, ++bit) v = (v << 1) | ((in[bit >> 3] >> (7 - (bit & 7))) & 1u);
    out[i] = static_cast<uint8_t>(v);
  }
}

/// Decodes `n` levels of at most `max_level` from a v1 page body at `pos` (moved past them).
void decode_v1_levels(ByteSpan body, size_t& pos, Encoding encoding, int max_level, size_t n, uint8_t* out,
                      const char* what) {
  if (max_level == 0) {
    std::memset(out, 0, n);
    return;
  }
  const int width = bit_width_for(static_cast<uint64_t>(max_level));
  if (encoding == Encoding::kRle) {
    if (body.size - pos < 4) fail(std::string(what) + " levels lack their length");
    const size_t length = load_le32(body.data + pos);
    pos += 4;
    if (length > body.size - pos) {
      fail(std::string(what) + " levels of " + std::to_string(length) + " bytes exceed the page");
    }
    RleBitPackedDecoder decoder(body.data + pos, length, width);
    decoder.decode(out, n);
    pos += length;
    return;
  }
  if (encoding == Encoding::kBitPacked) {
    const size_t bytes = packed_bytes(n, width);
    if (bytes > body.size - pos) fail(std::string("BIT_PACKED ") + what + " levels exceed the page");
    unpack_msb_first(body.data + pos, width, n, out);
    pos += bytes;
    return;
  }
  fail(std::string("unknown ") + what + " level encoding " + std::to_string(static_cast<int32_t>(encoding)));
}

void decode_v2_levels(ByteSpan levels, int max_level, size_t n, uint8_t* out) {
  if (max_level == 0) {
    std::memset(out, 0, n);
    return;
  }
  RleBitPackedDecoder decoder(levels.data, levels.size, bit_width_for(static_cast<uint64_t>(max_level)));
  decoder.decode(out, n);
}

/// Decodes the levels of a data page into `rep` and `def` (`n` each); returns its encoded values.
ByteSpan decode_page_levels(const Page& page, const ColumnDescriptor& d, size_t n, uint8_t* rep, uint8_t* def) {
  if (page.v2) {
    decode_v2_levels(page.repetition_levels, d.max_repetition_level, n, rep);
    decode_v2_levels(page.definition_levels, d.max_definition_level, n, def);
    return page.body;
  }
  size_t pos = 0;
  decode_v1_levels(page.body, pos, page.repetition_level_encoding, d.max_repetition_level, n, rep, "repetition");
  decode_v1_levels(page.body, pos, page.definition_level_encoding, d.max_definition_level, n, def, "definition");
  return ByteSpan{page.body.data + pos, page.body.size - pos};
}

/// Checks the levels [begin, end) of `levels` against the leaf's path; returns the rows (entries at repetition
/// level 0) among them.
size_t check_levels(const LeafLevels& levels, size_t begin, size_t end, const NestedField& leaf) {
  const int max_rep = leaf.leaf.max_repetition_level;
  const int max_def = leaf.leaf.max_definition_level;
  size_t rows = 0;
  for (size_t i = begin; i < end; ++i) {
    const int r = levels.rep[i];
    const int d = levels.def[i];
    if (r > max_rep) {
      fail("repetition level " + std::to_string(r) + " above the column's maximum " + std::to_string(max_rep));
    }
    if (d > max_def) {
      fail("definition level " + std::to_string(d) + " above the column's maximum " + std::to_string(max_def));
    }
    if (r == 0) {
      ++rows;
    } else if (i == 0) {
      fail("the column chunk starts inside a row (repetition level " + std::to_string(r) + ")");
    } else if (d < leaf.repeated_defs[static_cast<size_t>(r - 1)]) {
      fail("repetition level " + std::to_string(r) + " with definition level " + std::to_string(d) +
           ", which leaves the repeated field undefined");
    }
  }
  return rows;
}

}  // namespace

LeafLevels decode_leaf_chunk(ByteSpan chunk, const NestedField& leaf, const ColumnMetaData& meta, size_t rows,
                             const ChunkDecodeOptions& options, const ChunkLocation& where,
                             const std::string& column_name, gpu::MemoryResource& mr) {
  const ColumnDescriptor& d = leaf.leaf;
  PageReader pages(chunk, meta.codec, meta.raw_codec, options.verify_checksums, options.max_page_bytes);
  auto context = [&](bool with_page) {
    std::string s = "Parquet file '" + (where.file ? *where.file : std::string("?")) + "': column '" + column_name +
                    "' (leaf '" + d.name + "')";
    if (with_page && pages.page_index() >= 0) s += " page " + std::to_string(pages.page_index());
    s += " of row group " + std::to_string(where.row_group) + ": ";
    return s;
  };
  // The chunk's level entries, as its metadata counts them: they size the buffers and bound the pages read (bytes
  // after them are not this chunk's).
  if (meta.num_values < 0) {
    throw InvalidInput(context(false) + "negative value count " + std::to_string(meta.num_values));
  }
  const size_t capacity = static_cast<size_t>(meta.num_values);
  LeafLevels out;
  size_t rows_seen = 0;
  try {
    out.rep.reserve(capacity);
    out.def.reserve(capacity);
    const size_t hint = meta.total_uncompressed_size > 0 ? static_cast<size_t>(meta.total_uncompressed_size) : 0;
    ColumnBuilder builder(d, capacity, /*keep_dictionary=*/false, hint, mr);
    std::vector<uint8_t> valid;
    Page page;
    while (out.rep.size() < capacity && pages.next(page)) {
      if (page.type == PageType::kDictionaryPage) {
        builder.add_dictionary_page(page);
        continue;
      }
      const size_t n = static_cast<size_t>(page.num_values);
      const size_t begin = out.rep.size();
      if (n > capacity - begin) {
        fail("the pages hold more than the " + std::to_string(capacity) + " level entries of the chunk's metadata");
      }
      out.rep.resize(begin + n);
      out.def.resize(begin + n);
      const ByteSpan values = decode_page_levels(page, d, n, out.rep.data() + begin, out.def.data() + begin);
      rows_seen += check_levels(out, begin, begin + n, leaf);
      valid.clear();
      for (size_t i = begin; i < begin + n; ++i) {
        if (out.def[i] >= leaf.slot_def) valid.push_back(out.def[i] >= d.max_definition_level ? 1 : 0);
      }
      builder.add_leaf_page(page, values, valid.data(), valid.size());
    }
    out.values = builder.finish_filled();
  } catch (const InvalidInput& e) {
    throw InvalidInput(context(true) + e.message());
  } catch (const std::bad_alloc&) {
    throw ResourceExhausted(context(true) + "out of memory");
  } catch (const std::length_error&) {
    throw ResourceExhausted(context(true) + "out of memory");
  }
  if (rows_seen != rows) {
    throw InvalidInput(context(false) + "the column chunk holds " + std::to_string(rows_seen) +
                       " rows, the row group has " + std::to_string(rows));
  }
  return out;
}

}  // namespace kestrel::io::parquet
