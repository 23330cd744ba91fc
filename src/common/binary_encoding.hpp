#pragma once
/// Text encodings of bytes (VARBINARY values): hex and base64 (RFC 4648, standard and URL-safe alphabets), shared
/// by the binary SQL functions and the client protocols.

#include <string>
#include <string_view>

namespace kestrel {

/// Appends `bytes` as hex digits, two a byte (`upper`: A-F, else a-f).
void append_hex(std::string& out, std::string_view bytes, bool upper);

/// Appends `bytes` in base64, padded with `=`; `url` picks the URL-safe alphabet (`-` and `_` for `+` and `/`).
void append_base64(std::string& out, std::string_view bytes, bool url);

/// Appends the bytes `text` encodes in base64 (`url`: the URL-safe alphabet). The padding may be left out; when
/// present it must complete the last group of 4. Throws InvalidInput (22023) starting with `function` otherwise.
void append_from_base64(std::string& out, std::string_view text, bool url, const char* function);

}  // namespace kestrel
