#pragma once
/// Conversion of decoded Parquet physical values into Kestrel's storage of the column's logical type: widening of
/// unsigned integers, timestamp units, INT96, decimals from big-endian bytes, FLOAT16. Also turns encoded
/// statistics into Values.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/value.hpp"
#include "io/parquet/parquet_schema.hpp"

namespace kestrel::io::parquet {

/// Converts `count` dense physical values at `in` (as a fixed-width decoder wrote them) into `out`, which holds
/// `count` values of the column's Kestrel type. Not for kIdentity (a plain copy) nor the byte-array conversions.
void convert_fixed_values(ValueConversion conversion, const uint8_t* in, size_t count, uint8_t* out);

/// Converts byte-array values (DECIMAL, FLOAT16) into fixed-width Kestrel values at `out`. Throws InvalidInput when
/// a value does not fit its storage or has the wrong length.
void convert_binary_values(ValueConversion conversion, const std::string_view* in, size_t count, uint8_t* out);

/// Microseconds since the epoch of an INT96 timestamp (8 bytes nanoseconds of the day, 4 bytes Julian day).
int64_t int96_to_micros(const uint8_t* p);

/// IEEE half precision to float (subnormals, infinities and NaN included).
float float16_to_float(uint16_t bits);

/// A two's-complement big-endian integer of any length as int128; nullopt when it does not fit.
std::optional<int128_t> big_endian_to_int128(std::string_view bytes);

/// A statistics value (PLAIN encoding, byte arrays without their length) of `column` as a Kestrel Value of the
/// column's type; nullopt when it cannot be used (wrong size, NaN, a type without a defined order).
std::optional<Value> decode_statistic(const ColumnDescriptor& column, std::string_view bytes);

}  // namespace kestrel::io::parquet
