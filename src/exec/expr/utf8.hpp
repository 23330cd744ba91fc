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

/// Simple (one code point to one) case mapping of letters whose two forms are both ASCII or both two-byte UTF-8:
/// ASCII, Latin-1, Latin Extended-A, basic Greek and Cyrillic. Every other code point maps to itself (so byte
/// positions never move): among them the few whose other form has another length (ı, ſ, İ, ß), and Latin
/// Extended-B, IPA and the rest of the two-byte range (not mapped yet).
KESTREL_HD inline uint32_t map_case(uint32_t cp, bool upper) {
  if (cp < 0x80) {
    if (upper && cp >= 'a' && cp <= 'z') return cp - 0x20;
    if (!upper && cp >= 'A' && cp <= 'Z') return cp + 0x20;
    return cp;
  }
  if (upper) {
    if (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) return cp - 0x20;
    if (cp == 0xFF) return 0x178;
    if (cp == 0xB5) return 0x39C;  // micro sign: Greek capital mu
    // Latin Extended-A pairs: upper even, lower odd, except 0x139..0x148 and 0x179..0x17E (upper odd).
    if ((cp >= 0x100 && cp <= 0x12F) || (cp >= 0x132 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) {
      return (cp & 1) ? cp - 1 : cp;
    }
    if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) return (cp & 1) ? cp : cp - 1;
    if (cp >= 0x3B1 && cp <= 0x3CB) return cp == 0x3C2 ? 0x3A3 : cp - 0x20;
    if (cp == 0x3AC) return 0x386;
    if (cp >= 0x3AD && cp <= 0x3AF) return cp - 0x25;
    if (cp == 0x3CC) return 0x38C;
    if (cp == 0x3CD || cp == 0x3CE) return cp - 0x3F;
    if (cp >= 0x430 && cp <= 0x44F) return cp - 0x20;
    if (cp >= 0x450 && cp <= 0x45F) return cp - 0x50;
    return cp;
  }
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 0x20;
  if (cp == 0x178) return 0xFF;
  if ((cp >= 0x100 && cp <= 0x12F) || (cp >= 0x132 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) {
    return (cp & 1) ? cp : cp + 1;
  }
  if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) return (cp & 1) ? cp + 1 : cp;
  if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) return cp + 0x20;
  if (cp == 0x386) return 0x3AC;
  if (cp >= 0x388 && cp <= 0x38A) return cp + 0x25;
  if (cp == 0x38C) return 0x3CC;
  if (cp == 0x38E || cp == 0x38F) return cp + 0x3F;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
  return cp;
}

/// Case-maps the bytes of in[begin, end) (of `total`) into out: ASCII letters, and two-byte sequences through
/// map_case (both bytes written by whoever holds the lead byte, also when the second lies at `end`); every other
/// byte is copied. A continuation byte at `begin` whose two-byte lead lies before it is left to that lead's owner,
/// so ranges can be mapped independently (the GPU maps eight bytes per thread).
KESTREL_HD inline void map_case_bytes(const char* in, char* out, size_t begin, size_t end, size_t total, bool upper) {
  auto two_byte_lead = [](uint8_t b) { return (b & 0xE0) == 0xC0; };
  auto continuation = [](uint8_t b) { return (b & 0xC0) == 0x80; };
  for (size_t b = begin; b < end; ++b) {
    const auto c = static_cast<uint8_t>(in[b]);
    if (b == begin && b > 0 && continuation(c) && two_byte_lead(static_cast<uint8_t>(in[b - 1]))) continue;
    if (two_byte_lead(c) && b + 1 < total && continuation(static_cast<uint8_t>(in[b + 1]))) {
      const uint32_t cp = ((c & 0x1Fu) << 6) | (static_cast<uint8_t>(in[b + 1]) & 0x3Fu);
      const uint32_t m = cp < 0x80 ? cp : map_case(cp, upper);  // an overlong form stays as it is
      out[b] = static_cast<char>(0xC0 | (m >> 6));
      out[b + 1] = static_cast<char>(0x80 | (m & 0x3F));
      ++b;
      continue;
    }
    out[b] = c < 0x80 ? static_cast<char>(map_case(c, upper)) : static_cast<char>(c);
  }
}

}  // namespace kestrel::exec::utf8
