#pragma once
/// Rendering of query results for the `kestrel` command: aligned tables for people, CSV and JSON for programs.

#include <optional>
#include <ostream>
#include <string_view>

#include "main/database.hpp"

namespace kestrel::cli {

enum class OutputFormat : uint8_t { kAligned, kCsv, kJson };

std::optional<OutputFormat> parse_output_format(std::string_view text);

/// Writes `result` to `out`. Aligned: a boxed table with a row count; CSV: RFC 4180 with a header row, NULL as an
/// empty field; JSON: an array with one object per row (NULL as null, numbers as numbers).
void write_result(const QueryResult& result, OutputFormat format, std::ostream& out);

/// Quotes a CSV field when it holds the delimiter, a quote, CR or LF (doubling quotes inside).
std::string csv_field(std::string_view text);

}  // namespace kestrel::cli
