#pragma once
/// Rendering of result values as sqllogictest text, sorting, hashing and the comparison of a query result with the
/// expected output of a record. Works on plain text so the rules can be tested without an engine.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.hpp"
#include "record_parser.hpp"

namespace kestrel::slt {

/// Rows of rendered values, one inner vector per row.
using TextRows = std::vector<std::vector<std::string>>;

/// Renders one cell the way the column's type letter asks:
/// - NULL is `NULL`; an empty string is `(empty)` whatever the letter.
/// - `I`: integers as they are; REAL, DOUBLE and DECIMAL as their integer part (truncated toward zero, as SQLite's
///   runner does); booleans as 1 / 0; anything else as its text.
/// - `R`: numbers with three decimals (`%.3f`); booleans as 1.000 / 0.000; anything else as its text.
/// - `B`: booleans and numbers as `true` / `false`; anything else as its text.
/// - `T` (and any other letter): the value's text (Value::to_string), booleans as `true` / `false`.
std::string render_value(const Value& value, char type_letter);

/// Lowercase hex MD5 of `data`.
std::string md5_hex(std::string_view data);

/// The hash of a result the way SQLite's runner computes it: MD5 over every value followed by "\n".
std::string hash_values(const std::vector<std::string>& values);

/// Orders rows (kRowSort: lexicographically, value by value) or values (kValueSort) and returns all values in
/// row-major order. kNoSort keeps the order.
std::vector<std::string> sorted_values(TextRows rows, SortMode mode);

/// The expected output of a query record, decoded.
struct ExpectedResult {
  bool is_hash = false;      ///< the form `N values hashing to <md5>`
  size_t hash_count = 0;     ///< N of that form
  std::string hash;          ///< <md5> of that form
  bool row_wise = false;     ///< DuckDB style: one row per line, values separated by tabs
  std::vector<std::string> values;  ///< all expected values in row-major order (unsorted)
};

/// Decodes the lines after `----` for a result with `columns` columns. Lines are rows of tab-separated values when
/// every line holds exactly `columns` values and there is more than one column; otherwise each line is one value.
ExpectedResult parse_expected(const std::vector<std::string>& lines, size_t columns);

/// The outcome of comparing one query result.
struct Comparison {
  bool ok = false;
  std::string reason;  ///< why it differs (empty when ok)
  /// The expected and actual output, formatted for a failure report (one line per entry).
  std::vector<std::string> expected_lines;
  std::vector<std::string> actual_lines;
};

/// Compares the rendered result of `record` (a query) with its expected lines. `column_count` is the number of
/// columns the engine returned. A hashed expectation is compared by count and hash; listed values are compared value
/// by value after the record's sort mode is applied to both sides. `hash_threshold` decides only how the actual
/// output is shown: above it, as a hash line.
Comparison compare_query_result(const Record& record, const TextRows& actual, size_t column_count,
                                int64_t hash_threshold);

/// Whether an error message satisfies the expected text of a `statement error` record (from its header line or from
/// the lines after `----`: the same rule for both). An empty expectation takes any error. Otherwise the text matches
/// when it is a case-sensitive substring of the message (no regular expressions), or when it names the error's
/// category, case-insensitively (Kestrel's names such as `Binder Error`, or DuckDB's such as `Parser Error` and
/// `Catalog Error`), optionally followed by `:` and a substring of the message.
bool error_matches(std::string_view expected, std::string_view message, std::string_view category_name);

}  // namespace kestrel::slt
