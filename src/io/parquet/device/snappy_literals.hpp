#pragma once
/// Snappy streams that hold only literals. Incompressible pages (bit-packed dictionary indices, dates, small
/// integers) come out of a snappy compressor as one literal per 64 KiB block: their "decompression" is a copy, and
/// a stream of one literal is its own output at an offset. The GPU Parquet reader finds them on the host from the
/// few bytes of tags (the page bytes are in host memory already) and reads them in place or gathers their pieces
/// on the device, instead of running a decompressor over them.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kestrel::io::parquet {

/// One literal of a snappy stream: its bytes at [offset, offset + length) of the stream.
struct SnappyLiteral {
  uint32_t offset = 0;
  uint32_t length = 0;
};

/// When the snappy stream [data, data + size) declares `expected` uncompressed bytes and consists of literals only,
/// at most `max_literals` of them, that together are exactly `expected` bytes and end exactly at the end of the
/// stream: fills `literals` (in stream order) and returns true. Otherwise (a copy element, more literals, or any
/// inconsistency, which the decompressor then reports) returns false. Reads at most the tags' bytes.
bool snappy_literals(const uint8_t* data, size_t size, size_t expected, size_t max_literals,
                     std::vector<SnappyLiteral>& literals);

}  // namespace kestrel::io::parquet
