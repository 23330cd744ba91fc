#include "io/parquet/device/snappy_literals.hpp"

namespace kestrel::io::parquet {

bool snappy_literals(const uint8_t* data, size_t size, size_t expected, size_t max_literals,
                     std::vector<SnappyLiteral>& literals) {
  literals.clear();
  if (size > UINT32_MAX) return false;
  // The preamble: the uncompressed length as a varint of at most 5 bytes.
  size_t pos = 0;
  uint64_t declared = 0;
  for (int shift = 0;; shift += 7) {
    if (pos >= size || shift > 28) return false;
    const uint8_t byte = data[pos++];
    declared |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) break;
  }
  if (declared != expected) return false;
  uint64_t produced = 0;
  while (pos < size) {
    const uint8_t tag = data[pos++];
    if ((tag & 3) != 0) return false;  // a copy
    uint64_t length = tag >> 2;
    if (length >= 60) {
      const size_t extra = length - 59;  // 1..4 little-endian bytes hold length - 1
      if (extra > size - pos) return false;
      length = 0;
      for (size_t i = 0; i < extra; ++i) length |= static_cast<uint64_t>(data[pos + i]) << (8 * i);
      pos += extra;
    }
    length += 1;
    if (length > size - pos || literals.size() >= max_literals) return false;
    literals.push_back(SnappyLiteral{static_cast<uint32_t>(pos), static_cast<uint32_t>(length)});
    pos += length;
    produced += length;
  }
  return produced == expected && !literals.empty();
}

}  // namespace kestrel::io::parquet
