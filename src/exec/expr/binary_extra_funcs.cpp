// Presto's binary functions of issue 15's last slice on the CPU: the IEEE 754 conversions (big-endian bytes of a
// REAL or DOUBLE), SpookyHash V2 (common/spooky_hash.hpp) and HMAC with MD5, SHA-1, SHA-256 and SHA-512 (OpenSSL).

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <bit>
#include <cstring>
#include <string>

#include "common/spooky_hash.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

template <typename T>
void append_big_endian(std::string& out, T value) {
  for (int shift = (sizeof(T) - 1) * 8; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

template <typename T>
T read_big_endian(std::string_view s, const char* function) {
  if (s.size() != sizeof(T)) {
    throw InvalidInput(std::string(function) + ": expected " + std::to_string(sizeof(T)) + " bytes, got " +
                           std::to_string(s.size()),
                       "22023");
  }
  T v = 0;
  for (const char c : s) v = static_cast<T>(v << 8 | static_cast<uint8_t>(c));
  return v;
}

const EVP_MD* hmac_digest(F f) {
  switch (f) {
    case F::kHmacMd5: return EVP_md5();
    case F::kHmacSha1: return EVP_sha1();
    case F::kHmacSha256: return EVP_sha256();
    default: return EVP_sha512();
  }
}

void append_hmac(std::string& out, std::string_view message, std::string_view key, const EVP_MD* md) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // A NULL key pointer with length 0 is read as "no key" by OpenSSL: point at a byte for an empty key.
  static const unsigned char kNoBytes = 0;
  const void* key_bytes = key.empty() ? static_cast<const void*>(&kNoBytes) : key.data();
  const auto* data = message.empty() ? &kNoBytes : reinterpret_cast<const unsigned char*>(message.data());
  if (HMAC(md, key_bytes, static_cast<int>(key.size()), data, message.size(), mac, &size) == nullptr) {
    throw InternalError(std::string("OpenSSL HMAC with ") + EVP_MD_get0_name(md) + " failed");
  }
  out.append(reinterpret_cast<const char*>(mac), size);
}

}  // namespace

Operand binary_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  switch (e.function) {
    case F::kToIeee754_32: {
      const float* v = args[0].data<float>();
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            append_big_endian(out, std::bit_cast<uint32_t>(v[args[0].index(i)]));
            return true;
          },
          e.type);
    }
    case F::kToIeee754_64: {
      const double* v = args[0].data<double>();
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            append_big_endian(out, std::bit_cast<uint64_t>(v[args[0].index(i)]));
            return true;
          },
          e.type);
    }
    case F::kFromIeee754_32: {
      const StringReader in(args[0]);
      return map_rows_to_fixed<float>(e.type, args, rows, ctx, [&](size_t i, float& out) {
        out = std::bit_cast<float>(read_big_endian<uint32_t>(in[i], "from_ieee754_32"));
        return true;
      });
    }
    case F::kFromIeee754_64: {
      const StringReader in(args[0]);
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        out = std::bit_cast<double>(read_big_endian<uint64_t>(in[i], "from_ieee754_64"));
        return true;
      });
    }
    case F::kSpookyHashV2_32:
    case F::kSpookyHashV2_64: {
      const bool wide = e.function == F::kSpookyHashV2_64;
      const StringReader in(args[0]);
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            const std::string_view s = in[i];
            if (wide) {
              append_big_endian(out, spooky_hash64(s.data(), s.size()));
            } else {
              append_big_endian(out, spooky_hash32(s.data(), s.size()));
            }
            return true;
          },
          e.type);
    }
    case F::kHmacMd5:
    case F::kHmacSha1:
    case F::kHmacSha256:
    case F::kHmacSha512: {
      const EVP_MD* md = hmac_digest(e.function);
      const StringReader message(args[0]), key(args[1]);
      return map_rows_to_string(
          args, rows, ctx,
          [&](size_t i, std::string& out) {
            append_hmac(out, message[i], key[i], md);
            return true;
          },
          e.type);
    }
    default: throw InternalError(std::string("binary function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
