#pragma once
/// The server side of one SCRAM-SHA-256 exchange (RFC 5802, RFC 7677) as the PostgreSQL protocol carries it in
/// SASL messages: client-first, server-first, client-final, server-final. No channel binding (SCRAM-SHA-256-PLUS is
/// not offered), so a client's "y" flag is accepted and "p" refused.

#include <optional>
#include <string>
#include <string_view>

#include "server/scram_verifier.hpp"

namespace kestrel::server::auth {

/// One exchange; its messages must come in order. Malformed client messages throw InvalidInput with SQLSTATE 08P01.
class ScramExchange {
 public:
  /// `verifier` is the user's, or nullptr for an unknown user: the exchange then runs to the end against a made-up
  /// verifier derived from `user` (as PostgreSQL does) and fails there, so that it does not tell who exists.
  ScramExchange(const std::string& user, const ScramVerifier* verifier);

  /// Reads client-first-message and returns server-first-message (combined nonce, salt, iterations).
  std::string server_first(std::string_view client_first);
  /// Reads client-final-message; returns server-final-message (the server signature) when the client proved it knows
  /// the password, nullopt when the proof is wrong or the user unknown.
  std::optional<std::string> server_final(std::string_view client_final);

 private:
  ScramVerifier verifier_;
  bool known_user_;
  std::string gs2_header_;         ///< "n,," or "y,,", as the client sent it
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;              ///< client nonce followed by the server's
};

}  // namespace kestrel::server::auth
