#pragma once
/// Options of Kestrel's Parquet writer. `ParquetWriterOptions::set(name, value)` maps the text form used by
/// `COPY ... TO ... (FORMAT parquet, ...)`, `CREATE TABLE ... AS` and `kestrel-parquet-write` onto the fields, so every
/// front end spells them the same way. Names are case-insensitive.
///
///   compression / codec     [uncompressed|none|snappy|zstd|gzip|lz4_raw|brotli]   default snappy
///   compression_level       [integer; 0 = the codec's default]                     zstd 1..22, gzip 1..9, brotli 0..11
///   row_group_size          [rows > 0]                                             default 1048576 (1Mi rows)
///   dictionary              [true|false]                                           default true
///   dictionary_size_limit   [bytes > 0]                                            default 1 MiB
///   page_size / data_page_size [bytes > 0]                                          default 1 MiB
///   statistics              [true|false]                                           min/max/null_count, default true
///   page_checksum           [true|false]                                           page CRC-32, default true
///
/// Row groups of 1Mi rows keep column chunks large enough for the GPU decoder to amortize its launches while a
/// writer still buffers only one row group of host batches (they are referenced, not copied).
/// Dictionary encoding is decided per column chunk: when a chunk's distinct values take more than
/// `dictionary_size_limit` bytes (PLAIN-encoded), the whole chunk is written PLAIN instead. BOOLEAN is always PLAIN.

#include <cstddef>
#include <string_view>

#include "io/compression/codec.hpp"

namespace kestrel::io {

struct ParquetWriterOptions {
  CompressionCodec compression = CompressionCodec::kSnappy;
  /// 0 means the codec's default level.
  int compression_level = 0;
  size_t row_group_size = size_t{1} << 20;
  bool dictionary = true;
  size_t dictionary_size_limit = size_t{1} << 20;
  /// Target uncompressed bytes of a data page's values (a page holds at least one value).
  size_t data_page_size = size_t{1} << 20;
  bool statistics = true;
  bool page_checksum = true;

  /// Sets the option `name` from its text form (see above); throws InvalidInput naming the option and the value for
  /// an unknown option, an unknown codec or a malformed number.
  void set(std::string_view name, std::string_view value);
};

}  // namespace kestrel::io
