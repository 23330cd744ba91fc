#pragma once
/// Options of Kestrel's CSV reader. Each field maps 1:1 to a named option of the `read_csv('glob', ...)` table
/// function and of `kestrel-csv-cat`; `CsvOptions::set(name, value)` is that mapping, so every front end spells the
/// options the same way.
///
/// Option names (value syntax in brackets; aliases after a slash):
///   delim / sep / delimiter  [one character; `\t` for a tab]           the field separator, default ','
///   quote                    [one character, or '' for no quoting]      default '"'
///   escape                   [one character]                            default: the quote character ("" inside
///                                                                        quotes stands for one quote)
///   header                   [true|false]                               first record holds the names, default true
///   nullstr / null           [text]                                     an unquoted field equal to it is NULL
///                                                                        (see null rules below)
///   skip                     [count]                                    physical lines skipped before anything
///   columns                  ['name TYPE, name TYPE, ...']              the whole schema; no type sniffing
///   types                    ['name TYPE, ...']                         types of some columns; the rest sniffed
///   names                    ['a, b, c']                                column names replacing header/defaults
///   sample_size              [rows]                                     rows sniffed for types, default 20480
///   trailing_delimiter       [auto|true|false]                          lines end with a delimiter (TPC-H .tbl)
///   batch_size               [rows]                                     rows per output batch, default 65536
///   threads                  [count, 0 = all cores]                     parse threads, default 0
///   block_size               [bytes]                                    bytes read per block, default 32 MiB
///
/// Null rules: an empty field (quoted or not) of a non-VARCHAR column is NULL. Without `nullstr`, empty VARCHAR
/// fields are empty strings. With `nullstr` set (to any text, '' included), an unquoted field equal to it is NULL
/// in every column; `nullstr=''` thus reads files that write NULL as an empty field and '' as "" (DuckDB's COPY TO).
/// A quoted VARCHAR field is never NULL.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.hpp"
#include "vector/batch.hpp"

namespace kestrel {

/// Whether lines end with one extra delimiter (`a|b|c|`), as in the TPC-H `.tbl` files.
enum class CsvTrailingDelimiter : uint8_t {
  kAuto,  ///< sniffed: every sampled line ends with an empty extra field; with an explicit schema, accepted per line
  kYes,   ///< every line has one extra, empty, last field that is dropped
  kNo,    ///< an extra field is a field-count error
};

/// Everything that decides how a CSV file is read. Defaults follow RFC 4180 with a header row.
struct CsvOptions {
  char delimiter = ',';
  /// The quote character; `has_quote` false disables quoting entirely.
  char quote = '"';
  bool has_quote = true;
  /// The escape character inside quoted fields; unset means the quote character itself (`""` -> `"`).
  std::optional<char> escape;
  bool header = true;
  /// Unset: the default null rules above; set: unquoted fields equal to it are NULL in every column.
  std::optional<std::string> null_string;
  size_t skip_rows = 0;
  /// The full schema (names and types); when non-empty no types are sniffed and the header's names are ignored.
  std::vector<Field> columns;
  /// Types for some columns by name (case-insensitive); the other columns are sniffed.
  std::vector<Field> column_types;
  /// Column names replacing those of the header (or of the default `column0..`).
  std::vector<std::string> names;
  size_t sample_size = 20480;
  CsvTrailingDelimiter trailing_delimiter = CsvTrailingDelimiter::kAuto;
  size_t batch_size = 65536;
  /// Parse threads; 0 means all hardware threads.
  size_t threads = 0;
  /// Bytes read from the file at a time (the unit of parallel parsing).
  size_t block_size = size_t{32} << 20;

  /// The effective escape character.
  char escape_char() const { return escape.value_or(quote); }

  /// Sets the option called `name` from its text form (see the list above); throws InvalidInput for an unknown
  /// option or a malformed value, naming both.
  void set(std::string_view name, std::string_view value);

  /// Throws InvalidInput when the options contradict each other (same delimiter and quote, zero batch size, ...).
  void validate() const;
};

/// Parses a Kestrel type name as SQL spells it: `BIGINT`, `INT`, `DECIMAL(15,2)`, `VARCHAR(25)`, `TEXT`,
/// `DOUBLE PRECISION`, ...; throws InvalidInput naming the text when unknown.
LogicalType parse_csv_type_name(std::string_view text);

/// Parses `name TYPE, name TYPE, ...` (commas inside parentheses belong to the type); throws InvalidInput.
std::vector<Field> parse_csv_column_list(std::string_view text);

}  // namespace kestrel
