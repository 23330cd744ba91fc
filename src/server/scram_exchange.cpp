#include "server/scram_exchange.hpp"

#include "common/error.hpp"

namespace kestrel::server::auth {

namespace {

constexpr size_t kServerNonceBytes = 18;

[[noreturn]] void malformed(const std::string& what) {
  throw InvalidInput("malformed SCRAM message: " + what, "08P01");
}

/// The value of attribute `name` ("r=...") at the start of `text`; advances `text` past it and its comma.
std::string_view take_attribute(std::string_view& text, char name) {
  if (text.size() < 2 || text[0] != name || text[1] != '=') {
    malformed(std::string("expected attribute '") + name + "'");
  }
  size_t comma = text.find(',');
  std::string_view value = text.substr(2, comma == std::string_view::npos ? std::string_view::npos : comma - 2);
  text.remove_prefix(comma == std::string_view::npos ? text.size() : comma + 1);
  return value;
}

/// A made-up verifier for an unknown user, the same for each run of the server and name.
ScramVerifier mock_verifier(const std::string& user) {
  static const std::string kSecret = random_bytes(32);
  ScramVerifier verifier;
  verifier.salt = sha256(kSecret + user).substr(0, 16);
  verifier.stored_key = sha256(kSecret + "stored" + user);
  verifier.server_key = sha256(kSecret + "server" + user);
  return verifier;
}

}  // namespace

ScramExchange::ScramExchange(const std::string& user, const ScramVerifier* verifier)
    : verifier_(verifier != nullptr ? *verifier : mock_verifier(user)), known_user_(verifier != nullptr) {}

std::string ScramExchange::server_first(std::string_view client_first) {
  if (client_first.empty()) malformed("empty client-first-message");
  char flag = client_first[0];
  if (flag == 'p') throw InvalidInput("channel binding is not supported by this server", "08P01");
  if ((flag != 'n' && flag != 'y') || client_first.size() < 2 || client_first[1] != ',') {
    malformed("unexpected channel-binding flag");
  }
  size_t authzid_end = client_first.find(',', 2);
  if (authzid_end == std::string_view::npos) malformed("missing client-first-message-bare");
  if (authzid_end != 2) throw InvalidInput("client uses authorization identity, but it is not supported", "08P01");
  gs2_header_ = std::string(client_first.substr(0, authzid_end + 1));
  std::string_view bare = client_first.substr(authzid_end + 1);
  client_first_bare_ = std::string(bare);
  if (!bare.empty() && bare[0] == 'm') malformed("mandatory extensions are not supported");
  take_attribute(bare, 'n');  // the user name of the startup packet counts, as in PostgreSQL
  std::string_view client_nonce = take_attribute(bare, 'r');
  if (client_nonce.empty()) malformed("empty client nonce");
  for (char c : client_nonce) {
    if (c < 0x21 || c > 0x7e || c == ',') malformed("invalid character in the client nonce");
  }
  nonce_ = std::string(client_nonce) + base64_encode(random_bytes(kServerNonceBytes));
  server_first_ =
      "r=" + nonce_ + ",s=" + base64_encode(verifier_.salt) + ",i=" + std::to_string(verifier_.iterations);
  return server_first_;
}

std::optional<std::string> ScramExchange::server_final(std::string_view client_final) {
  if (server_first_.empty()) malformed("client-final-message before client-first-message");
  size_t proof_at = client_final.rfind(",p=");
  if (proof_at == std::string_view::npos) malformed("missing proof");
  std::string_view without_proof = client_final.substr(0, proof_at);
  std::optional<std::string> proof = base64_decode(client_final.substr(proof_at + 3));
  if (!proof || proof->size() != verifier_.stored_key.size()) malformed("invalid proof");
  std::string_view rest = without_proof;
  std::optional<std::string> binding = base64_decode(take_attribute(rest, 'c'));
  if (!binding || *binding != gs2_header_) malformed("unexpected channel-binding data");
  if (take_attribute(rest, 'r') != nonce_) malformed("nonce does not match");
  std::string auth_message = client_first_bare_ + "," + server_first_ + "," + std::string(without_proof);
  std::string client_signature = hmac_sha256(verifier_.stored_key, auth_message);
  std::string client_key(proof->size(), '\0');
  for (size_t i = 0; i < client_key.size(); ++i) client_key[i] = static_cast<char>((*proof)[i] ^ client_signature[i]);
  bool matches = constant_time_equal(sha256(client_key), verifier_.stored_key);
  if (!matches || !known_user_) return std::nullopt;
  return "v=" + base64_encode(hmac_sha256(verifier_.server_key, auth_message));
}

}  // namespace kestrel::server::auth
