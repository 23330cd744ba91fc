#include "vector/arrow_import.hpp"

#include <cmath>
#include <cstring>
#include <deque>
#include <string_view>

#include "common/bit_util.hpp"
#include "common/check.hpp"
#include "vector/arrow_import_field.hpp"

namespace kestrel::arrow {

namespace {

using S = ArrowStorage;

/// Rows [begin, begin + count) of one Arrow array; `begin` counts from the array's own offset.
struct Slice {
  const ArrowArray* array;
  int64_t begin;
  int64_t count;
};

template <typename T>
T load(const ArrowArray& a, int buffer, int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(a.buffers[buffer]) + (a.offset + i) * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}

bool is_valid(const ArrowArray& a, int64_t i) {
  if (a.n_buffers == 0) return false;  // the null type, which has no buffers
  const auto* validity = static_cast<const uint8_t*>(a.buffers[0]);
  return validity == nullptr || a.null_count == 0 || bits::get(validity, static_cast<size_t>(a.offset + i));
}

int64_t index_at(ArrowStorage storage, const ArrowArray& a, int64_t i) {
  switch (storage) {
    case S::kInt8: return load<int8_t>(a, 1, i);
    case S::kInt16: return load<int16_t>(a, 1, i);
    case S::kInt32: return load<int32_t>(a, 1, i);
    case S::kInt64: return load<int64_t>(a, 1, i);
    case S::kUInt8: return load<uint8_t>(a, 1, i);
    case S::kUInt16: return load<uint16_t>(a, 1, i);
    case S::kUInt32: return load<uint32_t>(a, 1, i);
    case S::kUInt64: return static_cast<int64_t>(load<uint64_t>(a, 1, i));
    default: throw InternalError("dictionary index storage");
  }
}

float half_to_float(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  float v;
  if (exponent == 0) {
    v = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return (h & 0x8000) ? -v : v;
}

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/// `v` in `unit` as microseconds; InvalidInput when it does not fit.
int64_t to_micros(int64_t v, TimeUnit unit, const std::string& column) {
  int64_t out = 0;
  switch (unit) {
    case TimeUnit::kSecond:
      if (!__builtin_mul_overflow(v, int64_t{1000000}, &out)) return out;
      break;
    case TimeUnit::kMilli:
      if (!__builtin_mul_overflow(v, int64_t{1000}, &out)) return out;
      break;
    case TimeUnit::kMicro: return v;
    case TimeUnit::kNano: return floor_div(v, 1000);
  }
  throw InvalidInput("column '" + column + "': the time value " + std::to_string(v) + " is out of range", "22008");
}

template <typename T>
void store(uint8_t* dst, T v) {
  std::memcpy(dst, &v, sizeof(T));
}

/// A decimal's unscaled value into Kestrel's storage of `type` (int64 up to 18 digits, int128 above).
void store_decimal(uint8_t* dst, const LogicalType& type, int128_t v) {
  if (type.is_wide_decimal()) {
    store<int128_t>(dst, v);
  } else {
    store<int64_t>(dst, static_cast<int64_t>(v));
  }
}

/// Writes value `i` of `a` (stored as `src` says, valid) into `dst` as Kestrel stores `src.type`.
void load_value(const ArrowColumnSource& src, const ArrowArray& a, int64_t i, uint8_t* dst) {
  switch (src.storage) {
    case S::kBool:
      dst[0] = bits::get(static_cast<const uint8_t*>(a.buffers[1]), static_cast<size_t>(a.offset + i)) ? 1 : 0;
      return;
    case S::kInt8: store(dst, load<int8_t>(a, 1, i)); return;
    case S::kInt16: store(dst, load<int16_t>(a, 1, i)); return;
    case S::kInt32: store(dst, load<int32_t>(a, 1, i)); return;
    case S::kInt64: store(dst, load<int64_t>(a, 1, i)); return;
    case S::kUInt8: store<int16_t>(dst, load<uint8_t>(a, 1, i)); return;
    case S::kUInt16: store<int32_t>(dst, load<uint16_t>(a, 1, i)); return;
    case S::kUInt32: store<int64_t>(dst, load<uint32_t>(a, 1, i)); return;
    case S::kUInt64: store<int128_t>(dst, static_cast<int128_t>(load<uint64_t>(a, 1, i))); return;
    case S::kFloat16: store(dst, half_to_float(load<uint16_t>(a, 1, i))); return;
    case S::kFloat32: store(dst, load<float>(a, 1, i)); return;
    case S::kFloat64: store(dst, load<double>(a, 1, i)); return;
    case S::kDecimal32: store_decimal(dst, src.type, load<int32_t>(a, 1, i)); return;
    case S::kDecimal64: store_decimal(dst, src.type, load<int64_t>(a, 1, i)); return;
    case S::kDecimal128: store_decimal(dst, src.type, load<int128_t>(a, 1, i)); return;
    case S::kDecimal256: {
      // Precision 38 at most: the value is its low 128 bits (little-endian, two's complement).
      int128_t low;
      std::memcpy(&low, static_cast<const uint8_t*>(a.buffers[1]) + (a.offset + i) * 32, sizeof(low));
      store_decimal(dst, src.type, low);
      return;
    }
    case S::kDate32: store(dst, load<int32_t>(a, 1, i)); return;
    case S::kDate64: store(dst, static_cast<int32_t>(floor_div(load<int64_t>(a, 1, i), 86400000))); return;
    case S::kTimestamp: store(dst, to_micros(load<int64_t>(a, 1, i), src.unit, src.name)); return;
    case S::kDuration: store(dst, Interval{0, 0, to_micros(load<int64_t>(a, 1, i), src.unit, src.name)}); return;
    case S::kIntervalMonths: store(dst, Interval{load<int32_t>(a, 1, i), 0, 0}); return;
    case S::kIntervalDayTime: {
      const auto* p = static_cast<const int32_t*>(a.buffers[1]) + 2 * (a.offset + i);
      store(dst, Interval{0, p[0], int64_t{p[1]} * 1000});
      return;
    }
    case S::kIntervalMonthDayNano: {
      Interval v = load<Interval>(a, 1, i);
      v.micros /= 1000;
      store(dst, v);
      return;
    }
    default: throw InternalError("Arrow import: fixed-width value of a string column");
  }
}

std::string_view string_value(const ArrowColumnSource& src, const ArrowArray& a, int64_t i) {
  const auto* data = static_cast<const char*>(a.buffers[2]);
  switch (src.storage) {
    case S::kUtf8: {
      const auto* off = static_cast<const int32_t*>(a.buffers[1]) + a.offset + i;
      return {data + off[0], static_cast<size_t>(off[1] - off[0])};
    }
    case S::kLargeUtf8: {
      const auto* off = static_cast<const int64_t*>(a.buffers[1]) + a.offset + i;
      return {data + off[0], static_cast<size_t>(off[1] - off[0])};
    }
    case S::kUtf8View: {
      // 16 bytes: int32 length, then the bytes inline (up to 12), or a 4-byte prefix, buffer index and offset.
      const auto* view = static_cast<const uint8_t*>(a.buffers[1]) + 16 * (a.offset + i);
      int32_t length, buffer, offset;
      std::memcpy(&length, view, 4);
      if (length <= 12) return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(length)};
      std::memcpy(&buffer, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      if (buffer < 0 || 2 + buffer >= a.n_buffers - 1) {
        throw InvalidInput("column '" + src.name + "': a string view names data buffer " + std::to_string(buffer) +
                           " of " + std::to_string(a.n_buffers - 3));
      }
      return {static_cast<const char*>(a.buffers[2 + buffer]) + offset, static_cast<size_t>(length)};
    }
    default: throw InternalError("Arrow import: string value of a fixed-width column");
  }
}

void check_array(const ArrowColumnSource& src, const ArrowArray& a) {
  const int64_t needed = arrow_fixed_buffer_count(src.storage);
  // Some producers give the null type the one (absent) validity buffer of older Arrow versions.
  const bool ok = src.storage == S::kUtf8View ? a.n_buffers >= needed
                  : src.storage == S::kNull   ? a.n_buffers <= 1
                                              : a.n_buffers == needed;
  if (!ok) {
    throw InvalidInput("column '" + src.name + "': an Arrow array with " + std::to_string(a.n_buffers) +
                       " buffers where its type has " + std::to_string(needed));
  }
  for (int64_t b = 1; b < a.n_buffers; ++b) {
    if (a.buffers[b] == nullptr && a.length > 0 && src.storage != S::kNull) {
      throw InvalidInput("column '" + src.name + "': an Arrow array of " + std::to_string(a.length) +
                         " rows without its buffer " + std::to_string(b));
    }
  }
  if (src.dictionary) {
    if (a.dictionary == nullptr) {
      throw InvalidInput("column '" + src.name + "': a dictionary-encoded Arrow array without its dictionary");
    }
    check_array(*src.dictionary, *a.dictionary);
  }
}

/// Calls `f(array, index)` for each row of `slices`, `index` the row in the array holding its value, or
/// `f(nullptr, 0)` for a NULL row. Dictionary indices are followed into the dictionary.
template <typename F>
void for_each_row(const ArrowColumnSource& src, const std::vector<Slice>& slices, F&& f) {
  for (const Slice& s : slices) {
    const ArrowArray& a = *s.array;
    for (int64_t r = s.begin; r < s.begin + s.count; ++r) {
      if (!is_valid(a, r)) {
        f(nullptr, 0);
      } else if (!src.dictionary) {
        f(&a, r);
      } else {
        const int64_t index = index_at(src.storage, a, r);
        const ArrowArray& dict = *a.dictionary;
        if (index < 0 || index >= dict.length) {
          throw InvalidInput("column '" + src.name + "': dictionary index " + std::to_string(index) + " of " +
                             std::to_string(dict.length) + " values");
        }
        if (is_valid(dict, index)) {
          f(&dict, index);
        } else {
          f(nullptr, 0);
        }
      }
    }
  }
}

/// A column from its buffers, without a validity bitmap when no row is NULL.
ColumnPtr finish(const LogicalType& type, size_t rows, BufferPtr validity, BufferPtr values, BufferPtr offsets) {
  size_t nulls = validity ? rows - bits::count_set(validity->as<uint8_t>(), rows) : 0;
  return Column::from_buffers(type, ColumnEncoding::kPlain, rows, nulls, nulls > 0 ? std::move(validity) : nullptr,
                              std::move(values), std::move(offsets), nullptr);
}

BufferPtr host_buffer(size_t bytes) {
  return Buffer::allocate(bytes, gpu::host_memory_resource(), gpu::Stream::host());
}

ColumnPtr import_strings(const ArrowColumnSource& src, const std::vector<Slice>& slices, size_t rows) {
  const ArrowColumnSource& values = src.dictionary ? *src.dictionary : src;
  size_t bytes = 0;
  for_each_row(src, slices, [&](const ArrowArray* a, int64_t i) {
    if (a != nullptr) bytes += string_value(values, *a, i).size();
  });
  auto validity = host_buffer(bits::bytes_for(rows));
  auto offsets = host_buffer((rows + 1) * sizeof(int64_t));
  auto chars = host_buffer(bytes);
  auto* valid = validity->as<uint8_t>();
  std::memset(valid, 0, validity->size());
  auto* off = offsets->as<int64_t>();
  char* out = chars->as<char>();
  size_t row = 0;
  off[0] = 0;
  for_each_row(src, slices, [&](const ArrowArray* a, int64_t i) {
    int64_t n = 0;
    if (a != nullptr) {
      std::string_view s = string_value(values, *a, i);
      if (!s.empty()) std::memcpy(out + off[row], s.data(), s.size());
      n = static_cast<int64_t>(s.size());
      bits::set(valid, row);
    }
    off[row + 1] = off[row] + n;
    ++row;
  });
  return finish(src.type, rows, std::move(validity), std::move(chars), std::move(offsets));
}

ColumnPtr import_fixed(const ArrowColumnSource& src, const std::vector<Slice>& slices, size_t rows) {
  const ArrowColumnSource& values = src.dictionary ? *src.dictionary : src;
  const size_t width = src.type.physical_width();
  auto validity = host_buffer(bits::bytes_for(rows));
  auto data = host_buffer(rows * width);
  auto* valid = validity->as<uint8_t>();
  auto* out = data->as<uint8_t>();
  std::memset(valid, 0, validity->size());
  std::memset(out, 0, data->size());
  size_t row = 0;
  if (src.same_layout && !src.dictionary) {
    // Kestrel's layout: copy the values whole, then the validity bit by bit (Arrow's may start mid-byte).
    for (const Slice& s : slices) {
      const auto* in = static_cast<const uint8_t*>(s.array->buffers[1]) + (s.array->offset + s.begin) * width;
      std::memcpy(out + row * width, in, static_cast<size_t>(s.count) * width);
      for (int64_t r = 0; r < s.count; ++r) bits::assign(valid, row + r, is_valid(*s.array, s.begin + r));
      row += static_cast<size_t>(s.count);
    }
  } else {
    for_each_row(src, slices, [&](const ArrowArray* a, int64_t i) {
      if (a != nullptr && values.storage != S::kNull) {
        load_value(values, *a, i, out + row * width);
        bits::set(valid, row);
      }
      ++row;
    });
  }
  return finish(src.type, rows, std::move(validity), std::move(data), nullptr);
}

ColumnPtr import_column(const ArrowColumnSource& src, const std::vector<Slice>& slices, size_t rows) {
  for (const Slice& s : slices) check_array(src, *s.array);
  return src.type.is_variable_width() ? import_strings(src, slices, rows) : import_fixed(src, slices, rows);
}

/// An array (a record batch) taken from the stream, released when dropped, and how many of its rows are imported.
struct PendingArray {
  ArrowArray array{};
  int64_t consumed = 0;

  PendingArray() = default;
  PendingArray(const PendingArray&) = delete;
  PendingArray& operator=(const PendingArray&) = delete;
  ~PendingArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

std::string stream_error(ArrowArrayStream* stream, int code) {
  const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  return message != nullptr ? std::string(message) : "error code " + std::to_string(code);
}

}  // namespace

SchemaPtr import_schema(const ArrowSchema& schema) {
  if (schema.format == nullptr || std::string_view(schema.format) != "+s") {
    throw InvalidInput("an Arrow stream of '" + std::string(schema.format ? schema.format : "") +
                       "' arrays, where a table needs struct arrays (record batches)");
  }
  std::vector<Field> fields;
  for (int64_t c = 0; c < schema.n_children; ++c) {
    auto src = describe_arrow_column(*schema.children[c], static_cast<size_t>(c));
    fields.push_back({src.name, src.type, src.nullable});
  }
  return std::make_shared<Schema>(std::move(fields));
}

ImportedBatches import_stream(ArrowArrayStream* stream, size_t batch_rows) {
  KESTREL_CHECK_GT(batch_rows, 0u);
  struct StreamGuard {
    ArrowArrayStream* s;
    ~StreamGuard() {
      if (s->release != nullptr) s->release(s);
    }
  } stream_guard{stream};
  ArrowSchema schema{};
  if (int rc = stream->get_schema(stream, &schema); rc != 0) {
    throw InvalidInput("Arrow stream: reading its schema failed: " + stream_error(stream, rc));
  }
  struct SchemaGuard {
    ArrowSchema* s;
    ~SchemaGuard() {
      if (s->release != nullptr) s->release(s);
    }
  } schema_guard{&schema};
  ImportedBatches out;
  out.schema = import_schema(schema);
  std::vector<ArrowColumnSource> sources;
  for (int64_t c = 0; c < schema.n_children; ++c) {
    sources.push_back(describe_arrow_column(*schema.children[c], static_cast<size_t>(c)));
  }

  std::deque<std::unique_ptr<PendingArray>> pending;
  size_t pending_rows = 0;
  auto emit = [&](size_t rows) {
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < sources.size(); ++c) {
      std::vector<Slice> slices;
      size_t left = rows;
      for (const auto& p : pending) {
        if (left == 0) break;
        const int64_t take = std::min<int64_t>(static_cast<int64_t>(left), p->array.length - p->consumed);
        // A struct array's offset shifts its children's rows too.
        slices.push_back({p->array.children[c], p->array.offset + p->consumed, take});
        left -= static_cast<size_t>(take);
      }
      columns.push_back(import_column(sources[c], slices, rows));
    }
    out.batches.emplace_back(out.schema, std::move(columns), rows, gpu::MemoryKind::kHost);
    size_t left = rows;
    while (left > 0) {
      PendingArray& p = *pending.front();
      const int64_t take = std::min<int64_t>(static_cast<int64_t>(left), p.array.length - p.consumed);
      p.consumed += take;
      left -= static_cast<size_t>(take);
      if (p.consumed == p.array.length) pending.pop_front();
    }
    pending_rows -= rows;
  };

  while (true) {
    auto next = std::make_unique<PendingArray>();
    if (int rc = stream->get_next(stream, &next->array); rc != 0) {
      next->array.release = nullptr;
      throw InvalidInput("Arrow stream: reading a batch failed: " + stream_error(stream, rc));
    }
    if (next->array.release == nullptr) break;  // the end of the stream
    if (next->array.n_children != static_cast<int64_t>(sources.size())) {
      throw InvalidInput("Arrow stream: a batch of " + std::to_string(next->array.n_children) + " columns where " +
                         "its schema has " + std::to_string(sources.size()));
    }
    if (next->array.length == 0) continue;
    pending_rows += static_cast<size_t>(next->array.length);
    pending.push_back(std::move(next));
    while (pending_rows >= batch_rows) emit(batch_rows);
  }
  if (pending_rows > 0) emit(pending_rows);
  return out;
}

}  // namespace kestrel::arrow
