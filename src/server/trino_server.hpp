#pragma once
/// The Trino (and Presto) client protocol of `kestrel serve`: POST /v1/statement starts a query, GET on the nextUri
/// of each response pages through the result, DELETE cancels; GET /v1/info describes the server. Keeps the queries
/// in a registry and drops those their clients abandoned.

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "server/auth_users.hpp"
#include "server/sql_backend.hpp"
#include "server/tls_context.hpp"
#include "server/trino_http.hpp"

namespace kestrel::server::trino {

class TrinoQuery;

/// Where and how the Trino protocol is served.
struct TrinoServerOptions {
  std::string listen = "127.0.0.1";  ///< address to bind (loopback unless authentication is configured)
  int port = 8080;                   ///< 0 picks a free port
  /// A query nobody asked about for this long is cancelled and its result dropped.
  std::chrono::seconds idle_timeout{300};
  /// When set, the port speaks HTTPS only.
  std::shared_ptr<const tls::TlsContext> tls;
  /// When set, every request needs HTTP Basic credentials of one of these users, and X-Trino-User (when given) must
  /// name that same user: Kestrel has no impersonation rules.
  std::shared_ptr<const auth::UserFile> users;
};

/// The version reported by /v1/info.
inline constexpr const char* kNodeVersion = "kestrel-0.1.0";

class TrinoServer {
 public:
  TrinoServer(SqlBackend& backend, TrinoServerOptions options);
  ~TrinoServer();
  TrinoServer(const TrinoServer&) = delete;
  TrinoServer& operator=(const TrinoServer&) = delete;

  /// Binds and listens; returns the port bound. Throws IoError when the address cannot be bound.
  int bind();
  /// Serves requests until stop().
  void run();
  /// Makes run() return within a fraction of a second (async-signal-safe).
  void stop() { listener_.stop(); }

  /// Answers one HTTP request (public so that the routes can be exercised without a socket).
  HttpResponse handle(const HttpRequest& request);

 private:
  /// The user of the request's Basic credentials; an error response (401, or 403 for an X-Trino-User naming someone
  /// else) when they are missing or wrong. Only called when users are configured.
  std::variant<std::string, HttpResponse> authenticate(const HttpRequest& request) const;
  /// `principal` is the authenticated user (empty without authentication).
  HttpResponse post_statement(const HttpRequest& request, const std::string& principal);
  /// With users configured, only `principal` (the authenticated user) who started a query may read or cancel it.
  HttpResponse get_page(const std::string& id, const std::string& token, const HttpRequest& request,
                        const std::string& principal);
  HttpResponse delete_query(const std::string& id, const std::string& principal);
  HttpResponse info() const;
  /// Cancels and drops the queries whose clients went away; re-sends cancel requests to statements still running.
  void expire_queries();

  std::shared_ptr<TrinoQuery> find(const std::string& id);
  std::string next_query_id();
  /// "http://host:port" (https with TLS) as the client reached the server (its Host header when that is well-formed).
  std::string base_uri(const HttpRequest& request) const;

  SqlBackend& backend_;
  TrinoServerOptions options_;
  HttpListener listener_;
  int port_ = 0;
  const std::chrono::steady_clock::time_point started_;
  std::mutex queries_mutex_;
  std::map<std::string, std::shared_ptr<TrinoQuery>> queries_;
  std::vector<std::shared_ptr<TrinoQuery>> cancelling_;  ///< cancelled queries whose statement may still run
  uint64_t next_query_number_ = 0;
  std::mt19937_64 random_;
};

}  // namespace kestrel::server::trino
