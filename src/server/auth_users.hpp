#pragma once
/// The users of `kestrel serve --users FILE`: one `name:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`
/// line per user (`kestrel passwd NAME` prints one), blank lines and lines starting with '#' ignored.

#include <map>
#include <string>
#include <string_view>

#include "server/scram_verifier.hpp"

namespace kestrel::server::auth {

/// The user names and their SCRAM-SHA-256 verifiers; read once at startup, then only read (shared by all threads).
class UserFile {
 public:
  /// Reads and checks `path`; throws InvalidInput naming the file and line when it cannot be read or a line is not a
  /// user entry, or when it names no user.
  static UserFile load(const std::string& path);
  /// Parses the text of a user file; `source` names it in errors.
  static UserFile parse(std::string_view text, const std::string& source);

  /// The verifier of `name`, or nullptr for an unknown user.
  const ScramVerifier* find(const std::string& name) const;
  /// Whether `name` is a user and `password` is theirs (the Trino protocol's Basic authentication). Derives the key
  /// even for an unknown user, so that the time taken does not tell which users exist.
  bool check_password(const std::string& name, std::string_view password) const;
  size_t size() const { return users_.size(); }

 private:
  std::map<std::string, ScramVerifier> users_;
};

}  // namespace kestrel::server::auth
