#include "server/auth_users.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace kestrel::server::auth {

UserFile UserFile::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput("cannot read the users file '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), "users file '" + path + "'");
}

UserFile UserFile::parse(std::string_view text, const std::string& source) {
  UserFile users;
  size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = source + " line " + std::to_string(line_number);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      throw InvalidInput(where + ": expected name:SCRAM-SHA-256$... (make one with `kestrel passwd NAME`)");
    }
    std::string name(line.substr(0, colon));
    std::optional<ScramVerifier> verifier = parse_scram_verifier(line.substr(colon + 1));
    if (!verifier) {
      throw InvalidInput(where + ": the password of user '" + name +
                         "' is not a SCRAM-SHA-256 verifier (SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:"
                         "<ServerKey>)");
    }
    if (!users.users_.emplace(name, std::move(*verifier)).second) {
      throw InvalidInput(where + ": user '" + name + "' is listed twice");
    }
  }
  if (users.users_.empty()) throw InvalidInput(source + " names no user");
  return users;
}

const ScramVerifier* UserFile::find(const std::string& name) const {
  auto it = users_.find(name);
  return it == users_.end() ? nullptr : &it->second;
}

bool UserFile::check_password(const std::string& name, std::string_view password) const {
  const ScramVerifier* verifier = find(name);
  if (verifier == nullptr) {
    // The same work as for a known user, against a verifier nobody's password matches.
    static const ScramVerifier kNobody = make_scram_verifier(random_bytes(32));
    scram_password_matches(kNobody, password);
    return false;
  }
  return scram_password_matches(*verifier, password);
}

}  // namespace kestrel::server::auth
