#include "common/binary_encoding.hpp"

#include <array>
#include <cstdint>

#include "common/error.hpp"

namespace kestrel {

namespace {

constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

[[noreturn]] void bad_base64(const char* function, const std::string& what) {
  throw InvalidInput(std::string(function) + ": " + what, "22023");
}

uint32_t byte_at(std::string_view s, size_t i) { return static_cast<uint8_t>(s[i]); }

}  // namespace

void append_hex(std::string& out, std::string_view bytes, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  for (const char c : bytes) {
    out.push_back(digits[static_cast<uint8_t>(c) >> 4]);
    out.push_back(digits[static_cast<uint8_t>(c) & 15]);
  }
}

void append_base64(std::string& out, std::string_view bytes, bool url) {
  const std::string_view alphabet = url ? kBase64Url : kBase64;
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = byte_at(bytes, i) << 16 | byte_at(bytes, i + 1) << 8 | byte_at(bytes, i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(alphabet[(v >> shift) & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest == 0) return;
  const uint32_t v = byte_at(bytes, i) << 16 | (rest == 2 ? byte_at(bytes, i + 1) << 8 : 0);
  out.push_back(alphabet[(v >> 18) & 63]);
  out.push_back(alphabet[(v >> 12) & 63]);
  out.push_back(rest == 2 ? alphabet[(v >> 6) & 63] : '=');
  out.push_back('=');
}

void append_from_base64(std::string& out, std::string_view text, bool url, const char* function) {
  const std::string_view alphabet = url ? kBase64Url : kBase64;
  std::array<int8_t, 256> value;
  value.fill(-1);
  for (size_t k = 0; k < alphabet.size(); ++k) value[static_cast<uint8_t>(alphabet[k])] = static_cast<int8_t>(k);
  size_t end = text.size();
  size_t padding = 0;
  while (end > 0 && text[end - 1] == '=' && padding < 2) {
    --end;
    ++padding;
  }
  if (padding > 0 && text.size() % 4 != 0) {
    bad_base64(function, "the padding does not complete a group of 4 characters");
  }
  if (end % 4 == 1) bad_base64(function, "the input ends in a group of a single character");
  uint32_t bits = 0;
  int count = 0;
  for (size_t i = 0; i < end; ++i) {
    const int8_t v = value[static_cast<uint8_t>(text[i])];
    if (v < 0) {
      bad_base64(function, "invalid character '" + std::string(1, text[i]) + "' at position " + std::to_string(i + 1));
    }
    bits = bits << 6 | static_cast<uint32_t>(v);
    if (++count == 4) {
      out.push_back(static_cast<char>(bits >> 16));
      out.push_back(static_cast<char>(bits >> 8));
      out.push_back(static_cast<char>(bits));
      bits = 0;
      count = 0;
    }
  }
  if (count == 2) out.push_back(static_cast<char>(bits >> 4));
  if (count == 3) {
    out.push_back(static_cast<char>(bits >> 10));
    out.push_back(static_cast<char>(bits >> 2));
  }
}

}  // namespace kestrel
