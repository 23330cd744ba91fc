#include "server/sql_literal.hpp"

namespace kestrel::server {

std::string sql_literal(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace kestrel::server
