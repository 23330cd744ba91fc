#pragma once
/// A type as written in SQL (CAST targets, column definitions, typed literals), mapped to a Kestrel LogicalType.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/types.hpp"

namespace kestrel::ast {

/// A type name with its modifiers. The parser maps every name Kestrel knows (INT, INTEGER, INT4, BIGINT, REAL,
/// FLOAT4, DOUBLE [PRECISION], FLOAT8, FLOAT, DECIMAL/NUMERIC(p[,s]), DATE, TIMESTAMP, INTERVAL, VARCHAR[(n)],
/// TEXT, STRING, CHAR(n), BOOLEAN/BOOL, TINYINT, SMALLINT, TIMESTAMP WITH TIME ZONE / TIMESTAMPTZ) to `type`; names
/// it does not know (TIME, user words) keep `type` empty so the binder can report them with the written name.
///
/// Mapping choices: DECIMAL without modifiers is DECIMAL(38,0) and DECIMAL(p) is DECIMAL(p,0) (Presto); FLOAT is
/// DOUBLE, FLOAT(p) is REAL for p <= 24; CHAR(n) and VARCHAR(n) are VARCHAR (the length stays in `modifiers`).
struct TypeName {
  /// The name as written, upper-cased and with single spaces: "DOUBLE PRECISION", "VARCHAR", "INT",
  /// "TIMESTAMP WITH TIME ZONE"; no modifiers.
  std::string name;
  /// The numbers in parentheses after the name, as written: {15, 2} for DECIMAL(15,2), {25} for VARCHAR(25).
  std::vector<int64_t> modifiers;
  /// The Kestrel type, or nullopt when the name is not a type Kestrel has.
  std::optional<LogicalType> type;
  /// Where the type name starts.
  SourcePosition position;

  /// The written form with modifiers, for messages and printing: "DECIMAL(15,2)", "DOUBLE PRECISION".
  std::string to_string() const;
};

}  // namespace kestrel::ast
