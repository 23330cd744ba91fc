#pragma once
/// The page table of the GPU Parquet decoder: plain structs that the host fills and the decoding kernels read
/// (device_decode.hpp), one array per output column. No CUDA headers here.

#include <cstddef>
#include <cstdint>

namespace kestrel::io::parquet::device {

/// One data or dictionary page, its bytes already in device memory (decompressed).
struct DevicePage {
  const uint8_t* body = nullptr;    ///< v1: definition levels and values; v2: values; dictionary: entries
  const uint8_t* levels = nullptr;  ///< v2: the definition levels (never compressed); null otherwise
  uint32_t body_size = 0;
  uint32_t levels_size = 0;
  uint32_t num_values = 0;  ///< values including nulls (the page's rows: columns are flat)
  uint32_t num_nulls = 0;   ///< v2
  uint64_t first_row = 0;   ///< the page's first row in the output column
  uint32_t chunk = 0;       ///< its column chunk among the column's chunks (DeviceChunk index)
  int32_t encoding = 0;     ///< parquet::Encoding
  int32_t level_encoding = 3;  ///< v1: parquet::Encoding of the definition levels (RLE or BIT_PACKED)
  uint32_t v2 = 0;
};

/// One column chunk of an output column: where its dictionary lies among the column's dictionary entries.
struct DeviceChunk {
  uint64_t dictionary_first = 0;  ///< first entry of the chunk's dictionary in the column's dictionary arrays
  uint32_t dictionary_size = 0;   ///< 0: the chunk has no dictionary page
  uint32_t has_dictionary = 0;
};

/// A piece of a page body gathered on the device: `bytes` from `src` to `dst` (device memory, any alignment).
struct CopyPiece {
  const uint8_t* src = nullptr;
  uint8_t* dst = nullptr;
  uint64_t bytes = 0;
};

/// The page tables are built before the batch's device buffers exist (while its bytes are staged, off the decoding
/// driver's path), so their addresses are relative: the buffer's number in the top bits, the offset below.
/// rebase_addresses (device_decode.hpp) turns them into device addresses once the buffers are allocated.
enum class AddressBase : uint64_t {
  kStaged = 0,        ///< the batch's file bytes on the device
  kInflated = 1,      ///< page bodies decompressed (or gathered) on the device
  kRealigned = 2,     ///< compressed bodies moved to an aligned place for the decompressor
  kHostInflated = 3,  ///< page bodies decompressed on the host, copied over
};
inline constexpr int kAddressBaseShift = 60;
inline constexpr size_t kAddressBases = 4;
inline constexpr uint64_t relative_address(AddressBase base, uint64_t offset) {
  return (static_cast<uint64_t>(base) << kAddressBaseShift) | offset;
}
/// The buffers that relative addresses name, indexed by AddressBase.
struct AddressBases {
  uint8_t* base[kAddressBases] = {};
};

/// What the kernels need to know of the column's types.
struct DeviceColumnType {
  int32_t physical = 0;     ///< parquet::PhysicalType
  int32_t conversion = 0;   ///< parquet::ValueConversion
  int32_t type_length = 0;  ///< FIXED_LEN_BYTE_ARRAY width
  int32_t physical_width = 0;  ///< bytes of a PLAIN physical value (0 for BYTE_ARRAY)
  int32_t out_width = 0;    ///< bytes of a Kestrel value (0 for VARCHAR)
  int32_t nullable = 0;     ///< max definition level 1
};

/// Error codes a kernel leaves in the column's error word (the first one wins). Any code sends the column to the
/// CPU decoder, whose message the user sees: GPU and CPU paths fail alike.
enum class DecodeError : uint32_t {
  kNone = 0,
  kLevels = 1,
  kValues = 2,
  kIndices = 3,
  kDictionary = 4,
  kConversion = 5,
  kDecompression = 6,
};

}  // namespace kestrel::io::parquet::device
