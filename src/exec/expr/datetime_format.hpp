#pragma once
/// Text forms of timestamps for Presto's date_format, date_parse (MySQL format specifiers) and format_datetime
/// (Joda-Time patterns). A format is compiled once into pieces, then applied to every row. Timestamps are UTC
/// microseconds since 1970 (wall-clock times); format_datetime of a TIMESTAMP WITH TIME ZONE passes its zone.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::exec {

/// One piece of a compiled format: literal text, or a field letter (the MySQL specifier, or the Joda letter with
/// how often it was repeated).
struct FormatPiece {
  std::string literal;
  char field = 0;  ///< 0 for literal text
  int count = 0;   ///< Joda: the letter's repetitions (the minimum digits of a number, text length for names)
};

/// A MySQL format (`%Y-%m-%d`) compiled for date_format (`parsing` false) or date_parse. Throws InvalidInput
/// naming `function` for the specifiers Presto does not support (%D %U %u %V %w %X).
std::vector<FormatPiece> compile_mysql_format(std::string_view format, const char* function);

/// Appends `micros` written with a compiled MySQL format.
void append_mysql_format(std::string& out, int64_t micros, const std::vector<FormatPiece>& format);

/// Reads `text` with a compiled MySQL format; fields it does not set take 1970-01-01 00:00:00. Throws InvalidInput
/// when `text` does not match all of the format (`format_text` is named in the message) or a field is out of range.
int64_t parse_mysql_format(std::string_view text, const std::vector<FormatPiece>& format,
                           std::string_view format_text);

/// A Joda-Time pattern (`yyyy-MM-dd HH:mm`) compiled for format_datetime or parse_datetime (`function`, named in
/// errors). Throws InvalidInput for a letter that is not a Joda field or an unclosed quote.
std::vector<FormatPiece> compile_joda_pattern(std::string_view pattern, const char* function = "format_datetime");

/// The zone a Joda pattern's z and Z letters print: its name (z, ZZZ) and its offset at the instant (Z, ZZ).
struct FormatZone {
  std::string name = "UTC";
  int32_t offset_seconds = 0;
};

/// Appends the wall-clock time `micros` written with a compiled Joda pattern, the zone letters from `zone`.
void append_joda_format(std::string& out, int64_t micros, const std::vector<FormatPiece>& pattern,
                        const FormatZone& zone = FormatZone{});

}  // namespace kestrel::exec
