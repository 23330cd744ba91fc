#include "io/csv/csv_column_builder.hpp"

#include <cstring>
#include <limits>

#include "common/bit_util.hpp"
#include "common/error.hpp"
#include "io/csv/csv_value_parsers.hpp"
#include "vector/buffer.hpp"

namespace kestrel {

namespace {

constexpr size_t kMaxQuotedValue = 100;

/// The value as an error message quotes it: cut to a readable length.
std::string quote_value(std::string_view text) {
  if (text.size() <= kMaxQuotedValue) return std::string(text);
  return std::string(text.substr(0, kMaxQuotedValue)) + "...";
}

/// The validity bitmap of a column under construction, allocated at the first NULL.
class ValidityBuilder {
 public:
  ValidityBuilder(size_t rows, gpu::MemoryResource& mr) : rows_(rows), mr_(mr) {}

  void set_null(size_t row) {
    if (!bitmap_) {
      bitmap_ = Buffer::allocate(bits::bytes_for(rows_), mr_, gpu::Stream::host());
      std::memset(bitmap_->data(), 0xff, bitmap_->size());
    }
    bits::clear(bitmap_->as<uint8_t>(), row);
    ++nulls_;
  }
  BufferPtr take() { return std::move(bitmap_); }
  size_t nulls() const { return nulls_; }

 private:
  size_t rows_;
  gpu::MemoryResource& mr_;
  BufferPtr bitmap_;
  size_t nulls_ = 0;
};

/// Calls `fn(row, text, span)` for each field of the column, unescaped where needed; stops when `fn` returns false.
template <typename Fn>
bool for_each_field(const CsvColumnSpec& spec, const std::vector<CsvRecordRun>& runs, Fn&& fn) {
  std::string scratch;
  size_t row = 0;
  for (const CsvRecordRun& run : runs) {
    const char* base = run.block->data.get();
    const CsvFieldSpan* field = run.fields + spec.index;
    for (size_t r = 0; r < run.records; ++r, ++row, field += spec.num_columns) {
      std::string_view text(base + field->begin, field->length());
      if (field->escaped()) {
        scratch.clear();
        spec.tokenizer->unescape(text, scratch);
        text = scratch;
      }
      if (!fn(row, text, *field, run.block)) return false;
    }
  }
  return true;
}

void fail(CsvCellError& error, size_t row, const CsvBlock* block, const CsvFieldSpan& field, std::string what) {
  error.row = row;
  error.block = block;
  error.offset = field.begin;
  error.what = std::move(what);
}

template <typename T, typename Parse>
ColumnPtr build_fixed(const CsvColumnSpec& spec, const std::vector<CsvRecordRun>& runs, size_t rows,
                      gpu::MemoryResource& mr, CsvCellError& error, Parse&& parse) {
  BufferPtr values = Buffer::allocate(rows * sizeof(T), mr, gpu::Stream::host());
  T* out = values->as<T>();
  ValidityBuilder validity(rows, mr);
  const std::string null_string = spec.null_string->value_or("");
  bool ok = for_each_field(spec, runs, [&](size_t row, std::string_view text, const CsvFieldSpan& field,
                                           const CsvBlock* block) {
    if (text.empty() || (!field.quoted() && text == null_string)) {
      out[row] = T{};
      validity.set_null(row);
      return true;
    }
    if (parse(text, out[row])) return true;
    fail(error, row, block, field,
         "cannot read '" + quote_value(text) + "' as " + spec.type.to_string());
    return false;
  });
  if (!ok) return nullptr;
  size_t nulls = validity.nulls();
  return Column::from_buffers(spec.type, ColumnEncoding::kPlain, rows, nulls, validity.take(), std::move(values),
                              nullptr, nullptr);
}

template <typename T>
auto integer_parser() {
  return [](std::string_view text, T& out) {
    int64_t v;
    if (!csv::parse_int64(text, v)) return false;
    if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      return false;
    }
    out = static_cast<T>(v);
    return true;
  };
}

ColumnPtr build_varchar(const CsvColumnSpec& spec, const std::vector<CsvRecordRun>& runs, size_t rows,
                        gpu::MemoryResource& mr, CsvCellError& error) {
  size_t bytes = 0;
  for (const CsvRecordRun& run : runs) {
    const CsvFieldSpan* field = run.fields + spec.index;
    for (size_t r = 0; r < run.records; ++r, field += spec.num_columns) bytes += field->length();
  }
  BufferPtr offsets_buffer = Buffer::allocate((rows + 1) * sizeof(int64_t), mr, gpu::Stream::host());
  BufferPtr chars_buffer = Buffer::allocate(bytes, mr, gpu::Stream::host());
  int64_t* offsets = offsets_buffer->as<int64_t>();
  char* chars = chars_buffer->as<char>();
  ValidityBuilder validity(rows, mr);
  const bool has_null_string = spec.null_string->has_value();
  const std::string null_string = spec.null_string->value_or("");
  const CsvTokenizer& tokenizer = *spec.tokenizer;
  offsets[0] = 0;
  size_t row = 0;
  for (const CsvRecordRun& run : runs) {
    const char* base = run.block->data.get();
    const CsvFieldSpan* field = run.fields + spec.index;
    for (size_t r = 0; r < run.records; ++r, ++row, field += spec.num_columns) {
      std::string_view raw(base + field->begin, field->length());
      int64_t at = offsets[row];
      if (has_null_string && !field->quoted() && raw == null_string) {
        validity.set_null(row);
        offsets[row + 1] = at;
        continue;
      }
      size_t n = raw.size();
      if (field->escaped()) {
        n = tokenizer.unescape_to(raw, chars + at);
      } else if (n > 0) {
        std::memcpy(chars + at, raw.data(), n);
      }
      if (!csv::is_valid_utf8(std::string_view(chars + at, n))) {
        fail(error, row, run.block, *field, "invalid UTF-8 in '" + quote_value(raw) + "'");
        return nullptr;
      }
      offsets[row + 1] = at + static_cast<int64_t>(n);
    }
  }
  size_t nulls = validity.nulls();
  return Column::from_buffers(TypeId::kVarchar, ColumnEncoding::kPlain, rows, nulls, validity.take(),
                              std::move(chars_buffer), std::move(offsets_buffer), nullptr);
}

}  // namespace

ColumnPtr build_csv_column(const CsvColumnSpec& spec, const std::vector<CsvRecordRun>& runs, size_t rows,
                           gpu::MemoryResource& mr, CsvCellError& error) {
  const LogicalType& type = spec.type;
  switch (type.id()) {
    case TypeId::kBoolean:
      return build_fixed<uint8_t>(spec, runs, rows, mr, error, [](std::string_view text, uint8_t& out) {
        bool v;
        if (!csv::parse_bool(text, v)) return false;
        out = v ? 1 : 0;
        return true;
      });
    case TypeId::kTinyInt: return build_fixed<int8_t>(spec, runs, rows, mr, error, integer_parser<int8_t>());
    case TypeId::kSmallInt: return build_fixed<int16_t>(spec, runs, rows, mr, error, integer_parser<int16_t>());
    case TypeId::kInteger: return build_fixed<int32_t>(spec, runs, rows, mr, error, integer_parser<int32_t>());
    case TypeId::kBigInt:
      return build_fixed<int64_t>(spec, runs, rows, mr, error,
                                  [](std::string_view text, int64_t& out) { return csv::parse_int64(text, out); });
    case TypeId::kReal:
      return build_fixed<float>(spec, runs, rows, mr, error,
                                [](std::string_view text, float& out) { return csv::parse_float(text, out); });
    case TypeId::kDouble:
      return build_fixed<double>(spec, runs, rows, mr, error,
                                 [](std::string_view text, double& out) { return csv::parse_double(text, out); });
    case TypeId::kDecimal: {
      const int p = type.precision(), s = type.scale();
      const bool rounding = spec.allow_decimal_rounding;
      if (type.is_wide_decimal()) {
        return build_fixed<int128_t>(spec, runs, rows, mr, error, [=](std::string_view text, int128_t& out) {
          return csv::parse_decimal_value(text, p, s, rounding, out);
        });
      }
      return build_fixed<int64_t>(spec, runs, rows, mr, error, [=](std::string_view text, int64_t& out) {
        int128_t v;
        if (!csv::parse_decimal_value(text, p, s, rounding, v)) return false;
        out = static_cast<int64_t>(v);
        return true;
      });
    }
    case TypeId::kDate:
      return build_fixed<int32_t>(spec, runs, rows, mr, error,
                                  [](std::string_view text, int32_t& out) { return csv::parse_date_value(text, out); });
    case TypeId::kTimestamp:
      return build_fixed<int64_t>(spec, runs, rows, mr, error, [](std::string_view text, int64_t& out) {
        return csv::parse_timestamp_value(text, out);
      });
    case TypeId::kVarchar: return build_varchar(spec, runs, rows, mr, error);
    default: break;
  }
  throw NotImplemented("CSV reader: columns of type " + type.to_string() + " are not supported");
}

}  // namespace kestrel
