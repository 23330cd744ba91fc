// Presto's URL extraction functions on the CPU: url_extract_protocol, _host, _port, _path, _query, _fragment and
// _parameter. A URL is split as java.net.URI (RFC 2396) splits it, which is what Presto uses: a text that is not a
// valid URI gives NULL, an authority that is not `[user@]host[:port]` has no host or port, and the path, query and
// fragment come back with their %XX escapes decoded (the parameter value is returned as written).

#include <optional>
#include <string>
#include <string_view>

#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// The parts of a URI; a missing part is nullopt.
struct UrlParts {
  std::optional<std::string_view> scheme;
  std::optional<std::string_view> host;
  int64_t port = -1;
  std::optional<std::string_view> path;
  std::optional<std::string_view> query;
  std::optional<std::string_view> fragment;
};

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hex_value(char c) { return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

/// True when every character may appear in a URI: RFC 2396's unreserved, reserved and escaped characters, one `#`,
/// brackets (IPv6 hosts) and, as Java allows, any non-ASCII character.
bool has_only_uri_characters(std::string_view s) {
  static constexpr std::string_view kMarks = "-_.!~*'();/?:@&=+$,[]";
  bool fragment = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<uint8_t>(c) >= 0x80 || is_alnum(c) || kMarks.find(c) != std::string_view::npos) continue;
    if (c == '%' && i + 2 < s.size() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
      i += 2;
      continue;
    }
    if (c == '#' && !fragment) {
      fragment = true;
      continue;
    }
    return false;
  }
  return true;
}

/// A DNS name whose labels are letters, digits and inner dashes and whose last label starts with a letter, or an
/// IPv4 address, or an IPv6 address in brackets.
bool is_server_host(std::string_view host) {
  if (host.empty()) return false;
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return false;
    for (char c : host.substr(1, host.size() - 2)) {
      if (!is_hex(c) && c != ':' && c != '.') return false;
    }
    return true;
  }
  if (host.back() == '.') host.remove_suffix(1);
  bool all_digits = true;
  size_t last_label = 0;
  size_t begin = 0;
  while (begin <= host.size()) {
    size_t end = host.find('.', begin);
    if (end == std::string_view::npos) end = host.size();
    const std::string_view label = host.substr(begin, end - begin);
    if (label.empty() || !is_alnum(label.front()) || !is_alnum(label.back())) return false;
    for (char c : label) {
      if (!is_alnum(c) && c != '-') return false;
      all_digits = all_digits && is_digit(c);
    }
    last_label = begin;
    begin = end + 1;
  }
  return all_digits || is_alpha(host[last_label]);
}

/// Sets the host and port of `parts` from a server-based authority `[userinfo@]host[:port]`; leaves them unset for
/// another (registry-based) authority.
void parse_authority(std::string_view authority, UrlParts& parts) {
  const size_t at = authority.find('@');
  std::string_view hostport = at == std::string_view::npos ? authority : authority.substr(at + 1);
  std::string_view port;
  const size_t colon = hostport.rfind(':');
  if (colon != std::string_view::npos && (hostport.front() != '[' || colon > hostport.rfind(']'))) {
    port = hostport.substr(colon + 1);
    hostport = hostport.substr(0, colon);
  }
  if (!is_server_host(hostport) || port.size() > 9) return;
  int64_t number = 0;
  for (char c : port) {
    if (!is_digit(c)) return;
    number = number * 10 + (c - '0');
  }
  parts.host = hostport;
  if (!port.empty()) parts.port = number;
}

/// The parts of `url`, or nullopt when it is not a valid URI.
std::optional<UrlParts> parse_url(std::string_view url) {
  if (!has_only_uri_characters(url)) return std::nullopt;
  UrlParts parts;
  std::string_view rest = url;
  const size_t hash = rest.find('#');
  if (hash != std::string_view::npos) {
    parts.fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  const size_t colon = rest.find(':');
  if (colon != std::string_view::npos && rest.find_first_of("/?") > colon) {
    const std::string_view scheme = rest.substr(0, colon);
    if (scheme.empty() || !is_alpha(scheme.front())) return std::nullopt;
    for (char c : scheme) {
      if (!is_alnum(c) && c != '+' && c != '-' && c != '.') return std::nullopt;
    }
    parts.scheme = scheme;
    rest = rest.substr(colon + 1);
    if (rest.empty()) return std::nullopt;
    if (rest.front() != '/') return parts;  // opaque: mailto:someone@example.com
  }
  if (rest.substr(0, 2) == "//") {
    rest = rest.substr(2);
    const size_t end = rest.find_first_of("/?");
    parse_authority(rest.substr(0, end), parts);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  }
  const size_t question = rest.find('?');
  if (question != std::string_view::npos) {
    parts.query = rest.substr(question + 1);
    rest = rest.substr(0, question);
  }
  parts.path = rest;
  return parts;
}

/// Appends `s` with its %XX escapes decoded.
void append_decoded(std::string& out, std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
      out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
}

/// url_extract_parameter: the value of the first `name=value` pair of `query` whose name is `name`.
std::optional<std::string_view> query_parameter(std::string_view query, std::string_view name) {
  size_t begin = 0;
  while (begin <= query.size()) {
    size_t end = query.find('&', begin);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(begin, end - begin);
    const size_t equals = pair.find('=');
    if (pair.substr(0, equals) == name) {
      return equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    }
    begin = end + 1;
  }
  return std::nullopt;
}

}  // namespace

Operand url_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  const StringReader url(args[0]);
  if (e.function == ScalarFunction::kUrlExtractPort) {
    return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
      const std::optional<UrlParts> parts = parse_url(url[i]);
      if (!parts || parts->port < 0) return false;
      out = parts->port;
      return true;
    });
  }
  const StringReader name(args.size() > 1 ? args[1] : args[0]);
  return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
    const std::optional<UrlParts> parts = parse_url(url[i]);
    if (!parts) return false;
    std::optional<std::string_view> part;
    switch (e.function) {
      case ScalarFunction::kUrlExtractProtocol: part = parts->scheme; break;
      case ScalarFunction::kUrlExtractHost: part = parts->host; break;
      case ScalarFunction::kUrlExtractPath: part = parts->path; break;
      case ScalarFunction::kUrlExtractQuery: part = parts->query; break;
      case ScalarFunction::kUrlExtractFragment: part = parts->fragment; break;
      case ScalarFunction::kUrlExtractParameter:
        if (parts->query) part = query_parameter(*parts->query, name[i]);
        break;
      default: throw InternalError(std::string("URL function ") + plan::scalar_function_name(e.function));
    }
    if (!part) return false;
    const bool decode = e.function == ScalarFunction::kUrlExtractPath ||
                        e.function == ScalarFunction::kUrlExtractQuery ||
                        e.function == ScalarFunction::kUrlExtractFragment;
    if (decode) {
      append_decoded(out, *part);
    } else {
      out.append(*part);
    }
    return true;
  });
}

}  // namespace kestrel::exec
