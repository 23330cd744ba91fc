#include "io/parquet/device/device_support.hpp"

namespace kestrel::io::parquet::device {

bool dictionary_encoding(Encoding e) { return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary; }

bool device_encoding(PhysicalType physical, Encoding encoding) {
  const bool binary = physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray;
  switch (encoding) {
    case Encoding::kDeltaBinaryPacked:
    case Encoding::kDeltaLengthByteArray:
    case Encoding::kDeltaByteArray: return false;
    case Encoding::kByteStreamSplit: return !binary;
    default: return true;  // PLAIN, dictionary, RLE, and invalid ones, which the kernels reject
  }
}

std::optional<gpu::DeviceCodec> device_codec(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kSnappy: return gpu::DeviceCodec::kSnappy;
    case CompressionCodec::kZstd: return gpu::DeviceCodec::kZstd;
    case CompressionCodec::kLz4Raw: return gpu::DeviceCodec::kLz4;
    case CompressionCodec::kGzip: return gpu::DeviceCodec::kGzip;
    default: return std::nullopt;
  }
}

DeviceColumnType device_type_of(const ColumnDescriptor& d) {
  DeviceColumnType t;
  t.physical = static_cast<int32_t>(d.physical_type);
  t.conversion = static_cast<int32_t>(d.conversion);
  t.type_length = d.type_length;
  t.physical_width = static_cast<int32_t>(physical_width(d.physical_type, d.type_length));
  t.out_width = d.type.is_variable_width() ? 0 : static_cast<int32_t>(d.type.physical_width());
  t.nullable = d.max_definition_level > 0 ? 1 : 0;
  return t;
}

}  // namespace kestrel::io::parquet::device
