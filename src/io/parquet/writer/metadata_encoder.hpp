#pragma once
/// Encodes Parquet's footer and page headers (the structs of parquet_format.hpp, shared with the reader) in the
/// Thrift compact protocol. Optional members are written only when set, so decode(encode(x)) gives x back.

#include <cstdint>
#include <vector>

#include "io/parquet/parquet_format.hpp"
#include "io/parquet/writer/thrift_compact_writer.hpp"

namespace kestrel::io::parquet {

/// The FileMetaData struct, ready to be written before the footer length and the closing magic.
std::vector<uint8_t> encode_file_metadata(const FileMetaData& metadata);
/// One page header, written in front of the page's (compressed) bytes.
std::vector<uint8_t> encode_page_header(const PageHeader& header);

/// The pieces, for callers composing larger structs.
void encode_schema_element(ThriftCompactWriter& w, const SchemaElement& element);
void encode_statistics(ThriftCompactWriter& w, const Statistics& statistics);
void encode_column_chunk(ThriftCompactWriter& w, const ColumnChunk& chunk);
void encode_row_group(ThriftCompactWriter& w, const RowGroup& row_group);

}  // namespace kestrel::io::parquet
