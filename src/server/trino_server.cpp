#include "server/trino_server.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>
#include <system_error>

#include "server/trino_query.hpp"

namespace kestrel::server::trino {

namespace {

/// How long a POST waits for its statement before answering QUEUED, and a GET before answering RUNNING.
constexpr std::chrono::milliseconds kPostWait{100};
constexpr std::chrono::milliseconds kPageWait{1000};
/// How long a query stays after its last page went out, so that a client's retry still gets that page.
constexpr std::chrono::seconds kKeepFinished{60};

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (!parts.empty() && parts.back().empty()) parts.pop_back();  // a trailing slash
  return parts;
}

bool all_of(const std::string& text, const char* allowed_punctuation) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](unsigned char c) {
    return std::isalnum(c) || std::strchr(allowed_punctuation, c) != nullptr;
  });
}

HttpResponse json_response(std::string body) {
  HttpResponse response;
  response.body = std::move(body);
  return response;
}

/// Parses X-Trino-Session ("name=value,name=value", values percent-encoded); false when an entry has no '='.
bool parse_session_header(const std::string& header, std::vector<std::pair<std::string, std::string>>& out) {
  size_t start = 0;
  while (start < header.size()) {
    size_t end = header.find(',', start);
    if (end == std::string::npos) end = header.size();
    std::string entry = header.substr(start, end - start);
    start = end + 1;
    entry.erase(0, entry.find_first_not_of(' '));
    if (entry.empty()) continue;
    size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) return false;
    std::string name = entry.substr(0, equals);
    name.erase(name.find_last_not_of(' ') + 1);
    out.emplace_back(percent_decode(name), percent_decode(entry.substr(equals + 1)));
  }
  return true;
}

/// 401 with the challenge that makes a client send Basic credentials.
HttpResponse unauthorized(const std::string& message) {
  HttpResponse response = HttpResponse::text(401, message + "\n");
  response.headers.emplace_back("WWW-Authenticate", "Basic realm=\"kestrel\"");
  return response;
}

}  // namespace

TrinoServer::TrinoServer(SqlBackend& backend, TrinoServerOptions options)
    : backend_(backend),
      options_(std::move(options)),
      listener_(
          options_.listen, options_.port, [this](const HttpRequest& request) { return handle(request); }, HttpLimits{},
          options_.tls),
      started_(std::chrono::steady_clock::now()),
      random_(std::random_device{}()) {}

TrinoServer::~TrinoServer() = default;

int TrinoServer::bind() {
  port_ = listener_.bind();
  return port_;
}

void TrinoServer::run() {
  listener_.run([this] { expire_queries(); });
}

std::variant<std::string, HttpResponse> TrinoServer::authenticate(const HttpRequest& request) const {
  const std::string& authorization = request.header("authorization");
  if (authorization.empty()) return unauthorized("authentication required: send HTTP Basic credentials");
  size_t space = authorization.find(' ');
  std::string scheme = authorization.substr(0, space);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
  if (scheme != "basic" || space == std::string::npos) {
    return unauthorized("unsupported authentication scheme: use HTTP Basic");
  }
  std::string encoded = authorization.substr(space + 1);
  encoded.erase(0, encoded.find_first_not_of(' '));
  std::optional<std::string> decoded = auth::base64_decode(encoded);
  size_t colon = decoded ? decoded->find(':') : std::string::npos;
  if (colon == std::string::npos) return unauthorized("malformed Basic credentials");
  std::string user = decoded->substr(0, colon);
  if (!options_.users->check_password(user, std::string_view(*decoded).substr(colon + 1))) {
    return unauthorized("invalid credentials for user '" + user + "'");
  }
  std::string acting = request.header("x-trino-user");
  if (acting.empty()) acting = request.header("x-presto-user");
  if (!acting.empty() && acting != user) {
    return HttpResponse::text(403, "Access Denied: user '" + user + "' cannot act as user '" + acting + "'\n");
  }
  return user;
}

HttpResponse TrinoServer::handle(const HttpRequest& request) {
  std::string principal;
  if (options_.users) {
    auto checked = authenticate(request);
    if (auto* refusal = std::get_if<HttpResponse>(&checked)) return std::move(*refusal);
    principal = std::get<std::string>(std::move(checked));
  }
  std::vector<std::string> parts = split_path(request.path);
  const std::string& method = request.method;
  if (parts.size() >= 2 && parts[0] == "v1" && parts[1] == "statement") {
    if (parts.size() == 2) {
      return method == "POST" ? post_statement(request, principal)
                              : HttpResponse::text(405, "use POST /v1/statement\n");
    }
    if (parts.size() == 5 && parts[2] == "executing") {
      if (method == "GET") return get_page(parts[3], parts[4], request, principal);
      if (method == "DELETE") return delete_query(parts[3], principal);
      return HttpResponse::text(405, "use GET or DELETE on a query's nextUri\n");
    }
  }
  if (parts.size() == 3 && parts[0] == "v1" && parts[1] == "query") {
    return method == "DELETE" ? delete_query(parts[2], principal)
                              : HttpResponse::text(405, "use DELETE /v1/query/ID\n");
  }
  if (parts.size() >= 2 && parts[0] == "v1" && parts[1] == "info" && parts.size() <= 3) {
    if (method != "GET") return HttpResponse::text(405, "use GET\n");
    if (parts.size() == 2) return info();
    if (parts[2] == "state") return json_response("\"ACTIVE\"");
  }
  return HttpResponse::text(404, "no such resource: " + request.path + "\n");
}

HttpResponse TrinoServer::post_statement(const HttpRequest& request, const std::string& principal) {
  QueryRequest query_request;
  query_request.user = request.header("x-trino-user");
  if (query_request.user.empty()) query_request.user = request.header("x-presto-user");
  if (query_request.user.empty()) query_request.user = principal;
  if (query_request.user.empty()) return HttpResponse::text(400, "User must be set (X-Trino-User)\n");
  query_request.sql = request.body;
  if (query_request.sql.find_first_not_of(" \t\r\n;") == std::string::npos) {
    return HttpResponse::text(400, "SQL statement is empty\n");
  }
  std::string session = request.header("x-trino-session");
  if (session.empty()) session = request.header("x-presto-session");
  if (!parse_session_header(session, query_request.session_properties)) {
    return HttpResponse::text(400, "malformed X-Trino-Session header: entries must be name=value\n");
  }
  // The client's time zone is the query's session zone (the time_zone setting).
  std::string zone = request.header("x-trino-time-zone");
  if (zone.empty()) zone = request.header("x-presto-time-zone");
  if (!zone.empty()) query_request.session_properties.emplace_back("time_zone", zone);
  // X-Trino-Catalog and X-Trino-Schema are accepted and ignored: Kestrel has one catalog of tables.
  auto query = std::make_shared<TrinoQuery>(next_query_id(), std::move(query_request));
  try {
    query->start(backend_);
  } catch (const std::system_error& e) {
    return HttpResponse::text(503, std::string("cannot start the query: ") + e.what() + "\n");
  }
  {
    std::lock_guard lock(queries_mutex_);
    queries_[query->id()] = query;
  }
  return json_response(*query->response(0, base_uri(request), kPostWait));
}

HttpResponse TrinoServer::get_page(const std::string& id, const std::string& token, const HttpRequest& request,
                                   const std::string& principal) {
  std::shared_ptr<TrinoQuery> query = find(id);
  // Another user's query answers as a missing one.
  if (query != nullptr && options_.users && query->user() != principal) query = nullptr;
  if (query == nullptr) return HttpResponse::text(404, "no query " + id + " (finished, cancelled or expired)\n");
  if (token.empty() || token.size() > 18 || token.find_first_not_of("0123456789") != std::string::npos) {
    return HttpResponse::text(404, "malformed token " + token + "\n");
  }
  std::optional<std::string> body = query->response(std::stoull(token), base_uri(request), kPageWait);
  if (!body) return HttpResponse::text(410, "query " + id + " has no page " + token + "\n");
  return json_response(std::move(*body));
}

HttpResponse TrinoServer::delete_query(const std::string& id, const std::string& principal) {
  std::shared_ptr<TrinoQuery> query;
  {
    std::lock_guard lock(queries_mutex_);
    auto it = queries_.find(id);
    if (it == queries_.end() || (options_.users && it->second->user() != principal)) {
      return HttpResponse::text(404, "no query " + id + "\n");
    }
    query = std::move(it->second);
    queries_.erase(it);
    cancelling_.push_back(query);
  }
  query->cancel();
  HttpResponse response;
  response.status = 204;
  return response;
}

HttpResponse TrinoServer::info() const {
  double uptime_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  char uptime[32];
  std::snprintf(uptime, sizeof(uptime), "%.2fs", uptime_s);  // Trino writes a Duration ("1.50m")
  nlohmann::json out = {{"nodeVersion", {{"version", kNodeVersion}}},
                        {"environment", "kestrel"},
                        {"coordinator", true},
                        {"starting", false},
                        {"uptime", uptime}};
  return json_response(out.dump());
}

void TrinoServer::expire_queries() {
  auto now = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<TrinoQuery>> expired;
  {
    std::lock_guard lock(queries_mutex_);
    for (auto it = queries_.begin(); it != queries_.end();) {
      if (it->second->expired(now, options_.idle_timeout, kKeepFinished)) {
        expired.push_back(it->second);
        cancelling_.push_back(it->second);
        it = queries_.erase(it);
      } else {
        ++it;
      }
    }
    std::erase_if(cancelling_, [](const auto& query) { return query->reassert_cancel(); });
  }
  for (const auto& query : expired) query->cancel();
}

std::shared_ptr<TrinoQuery> TrinoServer::find(const std::string& id) {
  std::lock_guard lock(queries_mutex_);
  auto it = queries_.find(id);
  return it == queries_.end() ? nullptr : it->second;
}

std::string TrinoServer::next_query_id() {
  // Trino's form, YYYYMMDD_HHMMSS_NNNNN_xxxxx; the random suffix keeps other clients from guessing ids.
  static constexpr char kAlphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", &utc);
  std::lock_guard lock(queries_mutex_);
  char number[16];
  std::snprintf(number, sizeof(number), "_%05llu_", static_cast<unsigned long long>(next_query_number_++ % 100000));
  std::string id = std::string(stamp) + number;
  // 16 characters from OpenSSL's generator (80 bits): ids cannot be guessed from earlier ones.
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    for (auto& b : bytes) b = static_cast<unsigned char>(random_());
  }
  for (unsigned char b : bytes) id += kAlphabet[b % (sizeof(kAlphabet) - 1)];
  return id;
}

std::string TrinoServer::base_uri(const HttpRequest& request) const {
  const std::string scheme = options_.tls ? "https://" : "http://";
  const std::string& host = request.header("host");
  if (all_of(host, ".-:[]_") && host.size() < 256) return scheme + host;
  bool v6 = options_.listen.find(':') != std::string::npos;
  return scheme + (v6 ? "[" + options_.listen + "]" : options_.listen) + ":" + std::to_string(port_);
}

}  // namespace kestrel::server::trino
