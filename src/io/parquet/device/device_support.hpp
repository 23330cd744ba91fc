#pragma once
/// What the GPU Parquet decoder supports: the encodings its kernels decode, the codecs it decompresses on the
/// device, and the column type description the kernels read. What it does not support goes to the CPU twin,
/// visibly (device_reader.hpp).

#include <optional>

#include "gpu/nvcomp.hpp"
#include "io/compression/codec.hpp"
#include "io/parquet/device/device_pages.hpp"
#include "io/parquet/parquet_schema.hpp"

namespace kestrel::io::parquet::device {

/// PLAIN_DICTIONARY or RLE_DICTIONARY.
bool dictionary_encoding(Encoding e);

/// Whether the device kernels decode `encoding` of `physical` values (others go to the CPU decoder).
bool device_encoding(PhysicalType physical, Encoding encoding);

/// The device codec for a Parquet codec, or none (decompressed on the host).
std::optional<gpu::DeviceCodec> device_codec(CompressionCodec codec);

/// The kernels' description of a column's physical and output types.
DeviceColumnType device_type_of(const ColumnDescriptor& d);

}  // namespace kestrel::io::parquet::device
