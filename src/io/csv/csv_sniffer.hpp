#pragma once
/// Type inference for CSV columns from a sample of their values.
///
/// The rule, per column, over the non-NULL values of the sample (NULL: empty, or an unquoted `nullstr`):
///   BOOLEAN    every value is `true` or `false` (any case; 0/1 stay integers)
///   BIGINT     every value is `[+-]digits` within int64 (always BIGINT, never INTEGER: a later value past the
///              sample must not overflow a type chosen too narrow)
///   DECIMAL    every value is plain decimal notation `[+-]digits[.digits]`, some with a point, at most
///              kCsvSniffMaxDecimalScale (6) digits after the point. Scale s = the most fraction digits seen;
///              precision 18 when the widest integer part fits 18 - s digits, else 38 when it fits 38 - s,
///              else DOUBLE. Values past the sample with more fraction digits are an error, not rounded.
///   DOUBLE     every value reads as a double (scientific notation, inf, nan, or decimals past the bounds above)
///   DATE       every value is `YYYY-MM-DD`
///   TIMESTAMP  every value is `YYYY-MM-DD[ T]HH:MM[:SS[.f]]` or a date (DATE and TIMESTAMP mixed)
///   VARCHAR    anything else, and columns with no non-NULL value in the sample
/// The first type in this order that fits wins.

#include <string>
#include <string_view>
#include <vector>

#include "common/types.hpp"

namespace kestrel {

/// The largest scale a sniffed DECIMAL gets; more fraction digits make the column DOUBLE.
inline constexpr int kCsvSniffMaxDecimalScale = 6;

/// Accumulates what the sampled values of each column could be.
class CsvTypeSniffer {
 public:
  CsvTypeSniffer(size_t columns, std::string null_string);

  /// Looks at one (unescaped) field of `column`.
  void observe(size_t column, std::string_view text, bool quoted);
  /// The inferred type of `column`.
  LogicalType type_of(size_t column) const;

 private:
  struct Candidates {
    bool boolean = true;
    bool bigint = true;
    bool decimal = true;
    bool floating = true;
    bool date = true;
    bool timestamp = true;
    int max_integer_digits = 0;
    int max_scale = 0;
    size_t values = 0;
  };

  std::vector<Candidates> columns_;
  std::string null_string_;
};

}  // namespace kestrel
