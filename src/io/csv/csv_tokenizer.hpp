#pragma once
/// Splitting CSV text into records and fields. The tokenizer only finds where each field's text lies; converting
/// the text into typed values is the column builder's job (csv_column_builder.hpp). It never reads outside the
/// bytes it is given and reports malformed text as a status, never by throwing, so that a speculative parse of a
/// block chunk (which may have started inside a quoted field) can be thrown away without side effects.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/csv/csv_options.hpp"

namespace kestrel {

/// Where one field's text lies in its block. For a quoted field, the text between the quotes.
struct CsvFieldSpan {
  uint32_t begin;
  /// length << 2 | kQuoted | kEscaped
  uint32_t length_flags;

  static constexpr uint32_t kQuoted = 1;   ///< the field was quoted (never NULL as text, "" is an empty string)
  static constexpr uint32_t kEscaped = 2;  ///< the text holds escape sequences that must be removed

  uint32_t length() const { return length_flags >> 2; }
  bool quoted() const { return (length_flags & kQuoted) != 0; }
  bool escaped() const { return (length_flags & kEscaped) != 0; }
};

/// The largest block (and so the longest record) the reader handles; field offsets and lengths fit 30 bits.
inline constexpr size_t kCsvMaxBlockBytes = size_t{1} << 30;

/// How a record ended when it did not end normally.
enum class CsvRecordStatus : uint8_t {
  kRecord,             ///< one complete record was read
  kEnd,                ///< no record left: only blank lines up to the end of the file
  kNeedMore,           ///< the record is cut by the end of the bytes available; read more and retry
  kUnterminatedQuote,  ///< a quoted field runs to the end of the file
  kBadAfterQuote,      ///< a closing quote is followed by something other than a delimiter or a line break
};

/// Splits records into fields for one CSV dialect.
class CsvTokenizer {
 public:
  explicit CsvTokenizer(const CsvOptions& options);

  /// Reads one record starting at `pos` from `data[0, limit)`, skipping blank lines first, and appends its fields
  /// to `fields`. On kRecord, `pos` moves past the record's line break and `record_start` is where its text begins.
  /// `at_eof` says that `limit` is the end of the file. On an error status, `error_pos` is the offending byte
  /// (the opening quote for kUnterminatedQuote) and `pos` and `fields` are left as they were.
  CsvRecordStatus next_record(const char* data, size_t limit, bool at_eof, size_t& pos, size_t& record_start,
                              std::vector<CsvFieldSpan>& fields, size_t& error_pos) const;

  /// The text of a field with escape sequences removed, appended to `out`.
  void unescape(std::string_view raw, std::string& out) const;
  /// Writes the unescaped text of `raw` to `out` (room for raw.size() bytes) and returns its length.
  size_t unescape_to(std::string_view raw, char* out) const;

 private:
  char delimiter_;
  char quote_;
  bool has_quote_;
  char escape_;
  /// Bytes that end an unquoted field: the delimiter, '\n' and '\r'.
  bool field_end_[256] = {};
  /// Bytes that matter inside a quoted field: the quote and the escape.
  bool quoted_stop_[256] = {};
};

}  // namespace kestrel
