// Presto's binary (VARBINARY) functions on the CPU: to_utf8 / from_utf8, hex and base64, the digests (OpenSSL),
// xxhash64, crc32 (zlib), the big-endian integer conversions, and reverse, lpad and rpad counted in bytes.

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>

#include "common/binary_encoding.hpp"
#include "common/xxhash64.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

const LogicalType kVarbinary(TypeId::kVarbinary);

[[noreturn]] void bad_input(const char* function, const std::string& what) {
  throw InvalidInput(std::string(function) + ": " + what, "22023");
}

// ---- UTF-8 -------------------------------------------------------------------------------------------------------

/// The length of the well-formed UTF-8 sequence at s[i] (Unicode's table of well-formed byte sequences: no overlong
/// forms, no surrogates, nothing past U+10FFFF), or the negated length of the longest prefix of one (its "maximal
/// subpart", at least 1 byte), which from_utf8 replaces as one unit.
int utf8_sequence(std::string_view s, size_t i) {
  const auto b0 = static_cast<uint8_t>(s[i]);
  if (b0 < 0x80) return 1;
  int length;
  uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return -1;
  }
  for (int k = 1; k < length; ++k) {
    if (i + k >= s.size()) return -k;
    const auto b = static_cast<uint8_t>(s[i + k]);
    const bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return -k;
  }
  return length;
}

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_sequence(s, i);
    if (n < 0) return false;
    i += static_cast<size_t>(n);
  }
  return true;
}


/// `s` with each maximal subpart of an invalid sequence replaced by `replacement`.
void append_fixed_utf8(std::string& out, std::string_view s, std::string_view replacement) {
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_sequence(s, i);
    if (n > 0) {
      out.append(s.substr(i, static_cast<size_t>(n)));
      i += static_cast<size_t>(n);
    } else {
      out.append(replacement);
      i += static_cast<size_t>(-n);
    }
  }
}

/// The replacement text of from_utf8's second argument: a string of at most one character, or a code point.
std::string replacement_text(const plan::Expr& e, const Operand& arg, size_t row) {
  if (e.children[1]->type.id() == TypeId::kVarchar) {
    const std::string_view r = arg.string_at(row);
    if (!r.empty() && (!is_valid_utf8(r) || static_cast<size_t>(utf8_sequence(r, 0)) != r.size())) {
      bad_input("from_utf8", "the replacement must be empty or one character, got '" + std::string(r) + "'");
    }
    return std::string(r);
  }
  const int64_t cp = arg.data<int64_t>()[arg.index(row)];
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    bad_input("from_utf8", "the replacement is not a valid code point: " + std::to_string(cp));
  }
  std::string out;
  utf8::append(out, static_cast<uint32_t>(cp));
  return out;
}

Operand from_utf8(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader in(args[0]);
  if (args.size() == 1) {
    // Valid text (the usual case) keeps its buffers.
    bool valid = true;
    for (size_t i = 0; i < rows && valid; ++i) valid = !args[0].valid(i) || is_valid_utf8(in[i]);
    if (valid) return Operand{Column::retyped(args[0].column, e.type), args[0].constant};
  }
  const std::string kDefault = "\xEF\xBF\xBD";  // U+FFFD
  return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
    const std::string replacement = args.size() == 1 ? kDefault : replacement_text(e, args[1], i);
    append_fixed_utf8(out, in[i], replacement);
    return true;
  });
}

// ---- hex and base64 ----------------------------------------------------------------------------------------------

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_from_hex(std::string& out, std::string_view s) {
  if (s.size() % 2 != 0) {
    bad_input("from_hex", "the input must have an even number of hex digits, got " + std::to_string(s.size()));
  }
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
    if (hi < 0 || lo < 0) {
      const char bad = hi < 0 ? s[i] : s[i + 1];
      bad_input("from_hex", "invalid hex digit '" + std::string(1, bad) + "' at position " +
                                std::to_string(i + (hi < 0 ? 1 : 2)));
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
}

// ---- digests and checksums ---------------------------------------------------------------------------------------

void append_digest(std::string& out, std::string_view s, const EVP_MD* md) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(s.data(), s.size(), digest, &size, md, nullptr) != 1) {
    throw InternalError(std::string("OpenSSL digest ") + EVP_MD_get0_name(md) + " failed");
  }
  out.append(reinterpret_cast<const char*>(digest), size);
}

template <typename T>
void append_big_endian(std::string& out, T value) {
  auto v = static_cast<std::make_unsigned_t<T>>(value);
  for (int shift = (sizeof(T) - 1) * 8; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
}

template <typename T>
T read_big_endian(std::string_view s, const char* function) {
  if (s.size() != sizeof(T)) {
    bad_input(function, "expected " + std::to_string(sizeof(T)) + " bytes, got " + std::to_string(s.size()));
  }
  std::make_unsigned_t<T> v = 0;
  for (const char c : s) v = static_cast<std::make_unsigned_t<T>>(v << 8 | static_cast<uint8_t>(c));
  return static_cast<T>(v);
}

// ---- byte forms of the string functions --------------------------------------------------------------------------

/// lpad / rpad(binary, size, padding) in bytes, as the string forms count characters.
void append_padded_bytes(std::string& out, std::string_view s, int64_t size, std::string_view padding, bool left) {
  const char* name = left ? "lpad" : "rpad";
  if (size < 0 || size > std::numeric_limits<int32_t>::max()) {
    bad_input(name, "target length must be in the range [0..2147483647], got " + std::to_string(size));
  }
  if (padding.empty()) bad_input(name, "padding must not be empty");
  const auto target = static_cast<size_t>(size);
  if (target <= s.size()) {
    out.append(s.substr(0, target));
    return;
  }
  if (!left) out.append(s);
  for (size_t fill = target - s.size(); fill > 0;) {
    const size_t n = std::min(fill, padding.size());
    out.append(padding.substr(0, n));
    fill -= n;
  }
  if (left) out.append(s);
}

/// A VARBINARY (or VARCHAR) result from `fn(bytes, out)` on the first argument's value.
template <typename Fn>
Operand map_bytes(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx, Fn&& fn) {
  const StringReader in(args[0]);
  return map_rows_to_string(
      args, rows, ctx,
      [&](size_t i, std::string& out) {
        fn(in[i], out);
        return true;
      },
      e.type);
}

}  // namespace

Operand binary_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  switch (e.function) {
    case ScalarFunction::kToUtf8: return Operand{Column::retyped(args[0].column, kVarbinary), args[0].constant};
    case ScalarFunction::kFromUtf8: return from_utf8(e, args, rows, ctx);
    case ScalarFunction::kToHex:
      return map_bytes(e, args, rows, ctx, [](std::string_view s, std::string& out) { append_hex(out, s, true); });
    case ScalarFunction::kFromHex:
      return map_bytes(e, args, rows, ctx, [](std::string_view s, std::string& out) { append_from_hex(out, s); });
    case ScalarFunction::kToBase64:
    case ScalarFunction::kToBase64Url: {
      const bool url = e.function == ScalarFunction::kToBase64Url;
      return map_bytes(e, args, rows, ctx, [&](std::string_view s, std::string& out) { append_base64(out, s, url); });
    }
    case ScalarFunction::kFromBase64:
    case ScalarFunction::kFromBase64Url: {
      const bool url = e.function == ScalarFunction::kFromBase64Url;
      return map_bytes(e, args, rows, ctx, [&](std::string_view s, std::string& out) {
        append_from_base64(out, s, url, url ? "from_base64url" : "from_base64");
      });
    }
    case ScalarFunction::kMd5:
    case ScalarFunction::kSha1:
    case ScalarFunction::kSha256:
    case ScalarFunction::kSha512: {
      const EVP_MD* md = e.function == ScalarFunction::kMd5    ? EVP_md5()
                         : e.function == ScalarFunction::kSha1 ? EVP_sha1()
                         : e.function == ScalarFunction::kSha256 ? EVP_sha256()
                                                                 : EVP_sha512();
      return map_bytes(e, args, rows, ctx, [&](std::string_view s, std::string& out) { append_digest(out, s, md); });
    }
    case ScalarFunction::kXxhash64:
      return map_bytes(e, args, rows, ctx, [](std::string_view s, std::string& out) {
        append_big_endian(out, xxhash64(s.data(), s.size()));
      });
    case ScalarFunction::kCrc32: {
      const StringReader in(args[0]);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        const std::string_view s = in[i];
        uLong crc = crc32(0L, Z_NULL, 0);
        // zlib takes at most a uInt of bytes a call.
        for (size_t at = 0; at < s.size();) {
          const auto n = static_cast<uInt>(std::min<size_t>(s.size() - at, 1u << 30));
          crc = crc32(crc, reinterpret_cast<const Bytef*>(s.data() + at), n);
          at += n;
        }
        out = static_cast<int64_t>(crc);
        return true;
      });
    }
    case ScalarFunction::kToBigEndian64: {
      const int64_t* v = args[0].data<int64_t>();
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            append_big_endian(out, v[args[0].index(i)]);
            return true;
          },
          e.type);
    }
    case ScalarFunction::kToBigEndian32: {
      const int32_t* v = args[0].data<int32_t>();
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            append_big_endian(out, v[args[0].index(i)]);
            return true;
          },
          e.type);
    }
    case ScalarFunction::kFromBigEndian64: {
      const StringReader in(args[0]);
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        out = read_big_endian<int64_t>(in[i], "from_big_endian_64");
        return true;
      });
    }
    case ScalarFunction::kFromBigEndian32: {
      const StringReader in(args[0]);
      return map_rows_to_fixed<int32_t>(e.type, args, rows, ctx, [&](size_t i, int32_t& out) {
        out = read_big_endian<int32_t>(in[i], "from_big_endian_32");
        return true;
      });
    }
    case ScalarFunction::kReverse:
      return map_bytes(e, args, rows, ctx,
                       [](std::string_view s, std::string& out) { out.append(s.rbegin(), s.rend()); });
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad: {
      const bool left = e.function == ScalarFunction::kLpad;
      const int64_t* size = args[1].data<int64_t>();
      const StringReader in(args[0]), padding(args[2]);
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            append_padded_bytes(out, in[i], size[args[1].index(i)], padding[i], left);
            return true;
          },
          e.type);
    }
    default: throw InternalError(std::string("binary function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
