#pragma once
/// UTF-8 helpers for the string kernels (code point counting and positions), shared with the GPU twin.
/// Input is assumed to be valid UTF-8; invalid bytes count as one character each and never read out of range.

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/temporal.hpp"  // KESTREL_HD

namespace kestrel::exec::utf8 {

/// True for a byte that starts a code point (not a 10xxxxxx continuation byte).
KESTREL_HD inline bool is_lead(uint8_t b) { return (b & 0xC0) != 0x80; }

/// Number of code points in s[0, n).
KESTREL_HD inline size_t length(const char* s, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) count += is_lead(static_cast<uint8_t>(s[i]));
  return count;
}

/// Byte length of the code point starting with lead byte `b` (1 for invalid bytes).
KESTREL_HD inline size_t char_bytes(uint8_t b) {
  if (b < 0x80) return 1;
  if ((b & 0xE0) == 0xC0) return 2;
  if ((b & 0xF0) == 0xE0) return 3;
  if ((b & 0xF8) == 0xF0) return 4;
  return 1;
}

/// Byte offset of code point number `chars` (0-based) in s[0, n), or n when the string is shorter.
KESTREL_HD inline size_t offset_of(const char* s, size_t n, size_t chars) {
  size_t i = 0;
  while (chars > 0 && i < n) {
    i += char_bytes(static_cast<uint8_t>(s[i]));
    --chars;
  }
  return i < n ? i : n;
}

/// The code point starting at s[i] (i < n); advances i past it.
KESTREL_HD inline uint32_t decode(const char* s, size_t n, size_t& i) {
  const uint8_t b = static_cast<uint8_t>(s[i]);
  size_t len = char_bytes(b);
  if (i + len > n) len = 1;
  uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<uint8_t>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

/// Appends the UTF-8 encoding of the valid code point `cp` (host code).
inline void append(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace kestrel::exec::utf8
