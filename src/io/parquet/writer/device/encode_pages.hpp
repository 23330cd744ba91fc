#pragma once
/// The kernels of the GPU Parquet writer (device_encoder.hpp): page bodies of data page v1 assembled on the device,
/// one thread block per page, from a table of page descriptors the host fills. No CUDA headers here.
///
/// A body is the definition levels (optional fields: the 4-byte length, then one RLE run of 1s when the column has
/// no validity bitmap, else one bit-packed run of the bitmap's bits) followed by the values: PLAIN fixed-width
/// values (converted to the physical width), PLAIN byte arrays (4-byte length + bytes, from a plain string column
/// or looked up through a dictionary column's indices), or RLE_DICTIONARY indices (bit width byte + one bit-packed
/// run). Only the non-null values are written.

#include <cstddef>
#include <cstdint>

#include "gpu/stream.hpp"

namespace kestrel::io::parquet::device_write {

enum class ValueKind : int32_t {
  kFixed = 0,             ///< PLAIN, in_width bytes (signed) to out_width bytes per value
  kString = 1,            ///< PLAIN byte arrays from `offsets` + `chars` at the page's rows
  kDictionaryString = 2,  ///< PLAIN byte arrays: row r is dictionary entry values[r] (int32) of `offsets` + `chars`
  kIndices = 3,           ///< RLE_DICTIONARY: the int32 indices in `values`, bit-packed at `bit_width`
};

/// How page min/max are computed for statistics (fixed-width values only).
enum class StatKind : int32_t { kNone = 0, kSigned = 1, kFloat = 2, kDouble = 3 };

struct EncodePage {
  const uint8_t* values = nullptr;    ///< kFixed: the column's values; kDictionaryString, kIndices: int32 indices
  const uint8_t* validity = nullptr;  ///< the column's bitmap, or null when every row is valid
  const int64_t* offsets = nullptr;   ///< kString: the column's offsets; kDictionaryString: the dictionary's
  const uint8_t* chars = nullptr;
  uint8_t* out = nullptr;             ///< the body (room for the capacity the host computed)
  uint32_t* scratch = nullptr;        ///< kIndices with a bitmap: room for `rows` indices
  uint64_t first_row = 0;             ///< the page's first row in the column
  uint32_t rows = 0;
  int32_t kind = 0;                   ///< ValueKind
  int32_t in_width = 0, out_width = 0;
  int32_t bit_width = 0;
  int32_t levels = 0;                 ///< 1: the field is optional and the body starts with definition levels
  int32_t stat = 0;                   ///< StatKind
};

/// What encoding a page produced, read back by the host.
struct PageResult {
  uint64_t bytes = 0;    ///< body bytes written
  uint32_t nonnull = 0;  ///< values written
  uint32_t has_minmax = 0;
  int64_t min_i = 0, max_i = 0;  ///< kSigned
  double min_d = 0, max_d = 0;   ///< kFloat, kDouble (NaN left out)
};

/// Encodes every page (`pages`, `results` and `sizes` in device memory): results[p] and sizes[p] (the body size
/// again, as nvCOMP reads it) for page p.
void encode_pages(const EncodePage* pages, size_t count, PageResult* results, size_t* sizes, gpu::Stream stream);

/// For string pages (kString, kDictionaryString) without output: bytes[p] = the PLAIN size of page p's values
/// (4 + length per valid row). Used to cut pages by size.
void measure_string_pages(const EncodePage* pages, size_t count, uint64_t* bytes, gpu::Stream stream);

}  // namespace kestrel::io::parquet::device_write
