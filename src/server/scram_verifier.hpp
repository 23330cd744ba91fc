#pragma once
/// SCRAM-SHA-256 password verifiers in PostgreSQL's stored form (`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:
/// <ServerKey>`, RFC 5802 and 7677) and the primitives both protocols need to check a password against one: the
/// PostgreSQL protocol through the SASL exchange, the Trino protocol from an HTTP Basic password.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kestrel::server::auth {

/// The iteration count of verifiers that Kestrel makes (PostgreSQL's default, scram_iterations = 4096).
inline constexpr int kDefaultScramIterations = 4096;

/// What the server keeps of a password: enough to check a proof, not enough to log in with.
struct ScramVerifier {
  int iterations = kDefaultScramIterations;
  std::string salt;        ///< raw bytes
  std::string stored_key;  ///< H(ClientKey), 32 raw bytes
  std::string server_key;  ///< HMAC(SaltedPassword, "Server Key"), 32 raw bytes
};

/// Parses `text` in PostgreSQL's form; nullopt when it is not one (wrong prefix, bad base64, keys not 32 bytes).
std::optional<ScramVerifier> parse_scram_verifier(std::string_view text);
/// The verifier in PostgreSQL's form.
std::string format_scram_verifier(const ScramVerifier& verifier);
/// A verifier of `password` with a fresh random 16-byte salt.
ScramVerifier make_scram_verifier(std::string_view password, int iterations = kDefaultScramIterations);
/// Whether `password` is the one `verifier` was made from: derives SaltedPassword with PBKDF2-HMAC-SHA-256 and
/// compares the StoredKey in constant time.
bool scram_password_matches(const ScramVerifier& verifier, std::string_view password);

/// SHA-256 of `data`, 32 raw bytes.
std::string sha256(std::string_view data);
/// HMAC-SHA-256 of `data` under `key`, 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view data);
/// PBKDF2-HMAC-SHA-256 of `password` (SCRAM's Hi()), 32 raw bytes.
std::string salted_password(std::string_view password, std::string_view salt, int iterations);
/// `n` bytes from the operating system's random source (OpenSSL's RAND_bytes).
std::string random_bytes(size_t n);
/// Constant-time equality of two byte strings (false when the lengths differ).
bool constant_time_equal(std::string_view a, std::string_view b);

/// Standard base64 with padding.
std::string base64_encode(std::string_view data);
/// nullopt when `text` is not valid padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace kestrel::server::auth
