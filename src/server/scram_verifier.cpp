#include "server/scram_verifier.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cctype>
#include <charconv>

#include "common/error.hpp"

namespace kestrel::server::auth {

namespace {

constexpr std::string_view kScramPrefix = "SCRAM-SHA-256$";
constexpr size_t kKeyBytes = 32;
constexpr size_t kSaltBytes = 16;

const unsigned char* bytes_of(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

std::string sha256(std::string_view data) {
  std::string out(SHA256_DIGEST_LENGTH, '\0');
  SHA256(bytes_of(data), data.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::string out(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes_of(data), data.size(),
           reinterpret_cast<unsigned char*>(out.data()), &length) == nullptr) {
    throw InternalError("HMAC-SHA-256 failed");
  }
  out.resize(length);
  return out;
}

std::string salted_password(std::string_view password, std::string_view salt, int iterations) {
  std::string out(kKeyBytes, '\0');
  if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), bytes_of(salt),
                        static_cast<int>(salt.size()), iterations, EVP_sha256(), static_cast<int>(kKeyBytes),
                        reinterpret_cast<unsigned char*>(out.data())) != 1) {
    throw InternalError("PBKDF2-HMAC-SHA-256 failed");
  }
  return out;
}

std::string random_bytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    throw InternalError("the random number generator failed");
  }
  return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string base64_encode(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes_of(data),
                               static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(length));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/' && c != '=') return std::nullopt;
  }
  std::string out(text.size() / 4 * 3, '\0');
  int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes_of(text),
                               static_cast<int>(text.size()));
  if (length < 0) return std::nullopt;
  // EVP_DecodeBlock keeps the bytes that padding stands for: drop them.
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
  out.resize(static_cast<size_t>(length) - padding);
  return out;
}

std::optional<ScramVerifier> parse_scram_verifier(std::string_view text) {
  if (text.substr(0, kScramPrefix.size()) != kScramPrefix) return std::nullopt;
  text.remove_prefix(kScramPrefix.size());
  size_t colon = text.find(':');
  size_t dollar = text.find('$');
  if (colon == std::string_view::npos || dollar == std::string_view::npos || dollar < colon) return std::nullopt;
  size_t key_colon = text.find(':', dollar);
  if (key_colon == std::string_view::npos) return std::nullopt;
  ScramVerifier verifier;
  std::string_view iterations = text.substr(0, colon);
  auto [end, error] = std::from_chars(iterations.data(), iterations.data() + iterations.size(), verifier.iterations);
  if (error != std::errc() || end != iterations.data() + iterations.size() || verifier.iterations < 1) {
    return std::nullopt;
  }
  auto salt = base64_decode(text.substr(colon + 1, dollar - colon - 1));
  auto stored_key = base64_decode(text.substr(dollar + 1, key_colon - dollar - 1));
  auto server_key = base64_decode(text.substr(key_colon + 1));
  if (!salt || salt->empty() || !stored_key || stored_key->size() != kKeyBytes || !server_key ||
      server_key->size() != kKeyBytes) {
    return std::nullopt;
  }
  verifier.salt = std::move(*salt);
  verifier.stored_key = std::move(*stored_key);
  verifier.server_key = std::move(*server_key);
  return verifier;
}

std::string format_scram_verifier(const ScramVerifier& verifier) {
  return std::string(kScramPrefix) + std::to_string(verifier.iterations) + ":" + base64_encode(verifier.salt) + "$" +
         base64_encode(verifier.stored_key) + ":" + base64_encode(verifier.server_key);
}

ScramVerifier make_scram_verifier(std::string_view password, int iterations) {
  ScramVerifier verifier;
  verifier.iterations = iterations;
  verifier.salt = random_bytes(kSaltBytes);
  std::string salted = salted_password(password, verifier.salt, iterations);
  verifier.stored_key = sha256(hmac_sha256(salted, "Client Key"));
  verifier.server_key = hmac_sha256(salted, "Server Key");
  return verifier;
}

bool scram_password_matches(const ScramVerifier& verifier, std::string_view password) {
  std::string salted = salted_password(password, verifier.salt, verifier.iterations);
  return constant_time_equal(sha256(hmac_sha256(salted, "Client Key")), verifier.stored_key);
}

}  // namespace kestrel::server::auth
