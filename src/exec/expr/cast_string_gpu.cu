/// CAST of integers, DECIMAL, BOOLEAN, DATE and TIMESTAMP to VARCHAR on the GPU, in the text the CPU writes
/// (Value::to_string: cast_string.cpp, decimal.cpp, temporal.cpp). Two passes: each row's text length, a scan into
/// offsets, then the text itself; both passes format the value into a small per-thread buffer.

#include "common/error.hpp"
#include "common/numeric_ops.hpp"
#include "common/temporal.hpp"
#include "exec/expr/expr_device_gpu.cuh"

namespace kestrel::exec::gpu_expr {

namespace {

/// Longest text: a DECIMAL(38, s) is at most 38 digits, a point, a leading zero and a sign.
constexpr int kTextBytes = 48;

enum class TextKind : uint8_t { kInteger, kDecimal, kBoolean, kDate, kTimestamp };

struct TextFormat {
  TextKind kind;
  int width;  ///< bytes per value
  int scale;  ///< DECIMAL
};

/// Writes the decimal digits of `mag` ending at `end` (at least `min_digits`), returning the first byte written.
__device__ inline char* put_digits(unsigned __int128 mag, int min_digits, char* end) {
  char* p = end;
  if (mag <= 0xFFFFFFFFFFFFFFFFull) {
    // 64-bit division is far cheaper than 128-bit on the GPU.
    uint64_t m = static_cast<uint64_t>(mag);
    do {
      *--p = static_cast<char>('0' + m % 10);
      m /= 10;
    } while (m > 0 || end - p < min_digits);
    return p;
  }
  do {
    *--p = static_cast<char>('0' + static_cast<int>(mag % 10));
    mag /= 10;
  } while (mag > 0 || end - p < min_digits);
  return p;
}

/// An integer or unscaled decimal: sign, integer digits (at least one), then `.` and `scale` digits.
__device__ inline char* put_scaled(int128_t v, int scale, char* end) {
  const bool negative = v < 0;
  unsigned __int128 mag =
      negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  char* p = end;
  if (scale > 0) {
    const unsigned __int128 unit = static_cast<unsigned __int128>(numeric::pow10<int128_t>(scale));
    p = put_digits(mag % unit, scale, p);
    *--p = '.';
    mag /= unit;
  }
  p = put_digits(mag, 1, p);
  if (negative) *--p = '-';
  return p;
}

/// yyyy-mm-dd (the year zero-padded to 4 digits within 0..9999, else as a plain signed number).
__device__ inline char* put_date(int32_t days, char* end) {
  const CivilDate c = civil_from_days(days);
  char* p = put_digits(static_cast<unsigned>(c.day), 2, end);
  *--p = '-';
  p = put_digits(static_cast<unsigned>(c.month), 2, p);
  *--p = '-';
  if (c.year >= 0 && c.year <= 9999) return put_digits(static_cast<unsigned>(c.year), 4, p);
  return put_scaled(c.year, 0, p);
}

/// The text of row i's value, ending at `end`; returns its first byte.
__device__ inline char* format_row(const DeviceArg& a, size_t i, const TextFormat& f, char* end) {
  int64_t v64 = 0;
  int128_t v128 = 0;
  switch (f.width) {
    case 1: v64 = arg_value<int8_t>(a, i); break;
    case 2: v64 = arg_value<int16_t>(a, i); break;
    case 4: v64 = arg_value<int32_t>(a, i); break;
    case 8: v64 = arg_value<int64_t>(a, i); break;
    default: v128 = arg_value<int128_t>(a, i); break;
  }
  if (f.width <= 8) v128 = v64;
  switch (f.kind) {
    case TextKind::kInteger: return put_scaled(v128, 0, end);
    case TextKind::kDecimal: return put_scaled(v128, f.scale, end);
    case TextKind::kBoolean: {
      const char* text = arg_value<uint8_t>(a, i) != 0 ? "true" : "false";
      const int n = text[0] == 't' ? 4 : 5;
      char* p = end - n;
      for (int k = 0; k < n; ++k) p[k] = text[k];
      return p;
    }
    case TextKind::kDate: return put_date(static_cast<int32_t>(v64), end);
    case TextKind::kTimestamp: {
      const int64_t days = numeric::floor_div<int64_t>(v64, kMicrosPerDay);
      const int64_t rest = v64 - days * kMicrosPerDay;
      const int64_t secs = rest / kMicrosPerSecond;
      int64_t frac = rest % kMicrosPerSecond;
      char* p = end;
      if (frac != 0) {
        int digits = 6;
        while (frac % 10 == 0) {
          frac /= 10;
          --digits;
        }
        p = put_digits(static_cast<uint64_t>(frac), digits, p);
        *--p = '.';
      }
      p = put_digits(static_cast<uint64_t>(secs % 60), 2, p);
      *--p = ':';
      p = put_digits(static_cast<uint64_t>(secs / 60 % 60), 2, p);
      *--p = ':';
      p = put_digits(static_cast<uint64_t>(secs / 3600), 2, p);
      *--p = ' ';
      return put_date(static_cast<int32_t>(days), p);
    }
  }
  return end;
}

__global__ void text_lengths_kernel(DeviceArg a, TextFormat f, int64_t* offsets, uint32_t* validity, size_t rows) {
  const size_t i = row_index();
  const bool in = i < rows;
  bool valid = false;
  if (in) {
    valid = arg_valid(a, i);
    int64_t length = 0;
    if (valid) {
      char buf[kTextBytes];
      length = buf + kTextBytes - format_row(a, i, f, buf + kTextBytes);
    }
    offsets[i + 1] = length;
    if (i == 0) offsets[0] = 0;
  }
  write_validity(validity, i, in, valid);
}

__global__ void text_copy_kernel(DeviceArg a, TextFormat f, const int64_t* offsets, char* chars, size_t rows) {
  const size_t i = row_index();
  if (i >= rows || offsets[i + 1] == offsets[i]) return;
  char buf[kTextBytes];
  const char* p = format_row(a, i, f, buf + kTextBytes);
  char* to = chars + offsets[i];
  while (p < buf + kTextBytes) *to++ = *p++;
}

TextFormat text_format(const LogicalType& from) {
  const int width = static_cast<int>(from.physical_width());
  switch (from.id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return TextFormat{TextKind::kInteger, width, 0};
    case TypeId::kDecimal: return TextFormat{TextKind::kDecimal, width, from.scale()};
    case TypeId::kBoolean: return TextFormat{TextKind::kBoolean, width, 0};
    case TypeId::kDate: return TextFormat{TextKind::kDate, width, 0};
    case TypeId::kTimestamp: return TextFormat{TextKind::kTimestamp, width, 0};
    default: throw NotImplemented("GPU CAST from " + from.to_string() + " to VARCHAR");
  }
}

}  // namespace

bool cast_to_string_supported(const LogicalType& from) {
  switch (from.id()) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kBoolean:
    case TypeId::kDate:
    case TypeId::kTimestamp: return true;
    default: return false;
  }
}

void launch_cast_to_string_offsets(const LogicalType& from, DeviceArg a, int64_t* offsets, uint32_t* validity,
                                   size_t rows, gpu::Stream stream, gpu::MemoryResource& mr) {
  gpu::require_explicit_stream(stream, "launch_cast_to_string_offsets");
  const TextFormat f = text_format(from);
  if (rows == 0) {
    KESTREL_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int64_t), stream.handle()));
    return;
  }
  text_lengths_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, f, offsets, validity, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
  launch_lengths_to_offsets(offsets, rows, stream, mr);
}

void launch_cast_to_string_copy(const LogicalType& from, DeviceArg a, const int64_t* offsets, char* chars,
                                size_t rows, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_cast_to_string_copy");
  const TextFormat f = text_format(from);
  if (rows == 0) return;
  text_copy_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(a, f, offsets, chars, rows);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_expr
