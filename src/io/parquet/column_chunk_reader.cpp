#include "io/parquet/column_chunk_reader.hpp"

#include <new>
#include <string>

#include "common/error.hpp"
#include "io/parquet/column_builder.hpp"
#include "io/parquet/page_reader.hpp"

namespace kestrel::io::parquet {

size_t count_chunk_values(ByteSpan chunk, size_t needed) {
  size_t pos = 0;
  size_t total = 0;
  while (pos < chunk.size && total < needed) {
    size_t header_size = 0;
    PageHeader header = decode_page_header(chunk.data + pos, chunk.size - pos, &header_size);
    pos += header_size;
    if (header.compressed_page_size < 0 || static_cast<size_t>(header.compressed_page_size) > chunk.size - pos) {
      throw InvalidInput("page of " + std::to_string(header.compressed_page_size) + " bytes exceeds the " +
                         std::to_string(chunk.size - pos) + " bytes left in the column chunk");
    }
    pos += static_cast<size_t>(header.compressed_page_size);
    int32_t n = 0;
    if (header.type == PageType::kDataPage && header.data_page_header) n = header.data_page_header->num_values;
    if (header.type == PageType::kDataPageV2 && header.data_page_header_v2) n = header.data_page_header_v2->num_values;
    if (n < 0) throw InvalidInput("negative value count " + std::to_string(n));
    total += static_cast<size_t>(n);
  }
  return total;
}

ColumnPtr decode_column_chunk(ByteSpan chunk, const ColumnDescriptor& column, const ColumnMetaData& meta,
                              size_t rows, const ChunkDecodeOptions& options, const ChunkLocation& where,
                              gpu::MemoryResource& mr) {
  PageReader pages(chunk, meta.codec, meta.raw_codec, options.verify_checksums, options.max_page_bytes);
  auto context = [&](bool with_page) {
    std::string s = "Parquet file '" + (where.file ? *where.file : std::string("?")) + "': column '" + column.name + "'";
    if (with_page && pages.page_index() >= 0) s += " page " + std::to_string(pages.page_index());
    s += " of row group " + std::to_string(where.row_group) + ": ";
    return s;
  };
  try {
    size_t values = count_chunk_values(chunk, rows);
    if (values < rows) {
      throw InvalidInput("the column chunk holds " + std::to_string(values) + " values, the row group has " +
                         std::to_string(rows) + " rows");
    }
  } catch (const InvalidInput& e) {
    throw InvalidInput(context(false) + e.message());
  }
  try {
    size_t hint = meta.total_uncompressed_size > 0 ? static_cast<size_t>(meta.total_uncompressed_size) : 0;
    ColumnBuilder builder(column, rows, options.keep_dictionaries, hint, mr);
    Page page;
    while (builder.rows_done() < rows && pages.next(page)) {
      if (page.type == PageType::kDictionaryPage) {
        builder.add_dictionary_page(page);
      } else {
        builder.add_data_page(page);
      }
    }
    return builder.finish();
  } catch (const InvalidInput& e) {
    throw InvalidInput(context(true) + e.message());
  } catch (const std::bad_alloc&) {
    throw ResourceExhausted(context(true) + "out of memory");
  }
}

}  // namespace kestrel::io::parquet
