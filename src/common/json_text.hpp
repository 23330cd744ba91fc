#pragma once
/// JSON text as the JSON type stores it: canonical form (compact, object keys sorted, duplicate keys keeping the
/// last value, strings in UTF-8 with only the escapes JSON requires), so that equal documents have equal bytes and
/// equality, hashing, GROUP BY and joins can compare the bytes.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kestrel {

/// Where and why a text is not JSON: `line` and `column` count from 1 within the text, `offset` from 0.
struct JsonSyntaxError {
  size_t line = 1;
  size_t column = 1;
  size_t offset = 0;
  std::string reason;

  /// "<reason> at line L, column C".
  std::string describe() const;
};

/// The canonical text of the JSON document `text` (white space around it allowed), or nullopt when `text` is not
/// one JSON value; `error`, when given, then says where. Integers beyond 64 bits are kept as doubles.
std::optional<std::string> canonical_json(std::string_view text, JsonSyntaxError* error = nullptr);

/// Appends `s` as a JSON string: quoted, with `"`, `\` and control characters escaped.
void append_json_string(std::string& out, std::string_view s);

}  // namespace kestrel
