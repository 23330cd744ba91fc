#pragma once
/// The PostgreSQL wire protocol listener of `kestrel serve`: binds a TCP port, runs one thread per connection, and
/// keeps what the connections share (the engine, the parameters reported at startup, cancel keys, the query log).

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "server/auth_users.hpp"
#include "server/sql_backend.hpp"
#include "server/tls_context.hpp"

namespace kestrel::server::pg {

class PgConnection;

/// Where and how the PostgreSQL protocol is served.
struct PgServerOptions {
  std::string listen = "127.0.0.1";  ///< address to bind (loopback unless authentication is configured)
  int port = 5432;                   ///< 0 picks a free port
  /// When set, an SSLRequest is answered 'S' and the connection continues over TLS; else 'N'.
  std::shared_ptr<const tls::TlsContext> tls;
  /// When set, every connection authenticates with SCRAM-SHA-256 against these users; else none does.
  std::shared_ptr<const auth::UserFile> users;
};

/// The server version reported to clients: PostgreSQL 16 protocol behaviour, by Kestrel.
inline constexpr const char* kServerVersion = "16.0 (Kestrel)";

class PgServer {
 public:
  PgServer(SqlBackend& backend, PgServerOptions options);
  ~PgServer();
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;

  /// Binds and listens; returns the port bound. Throws IoError when the address cannot be bound.
  int bind();
  /// Accepts connections until stop(); each runs on its own thread.
  void run();
  /// Makes run() return within a fraction of a second (safe to call from a signal-watching thread).
  void stop() { stopping_.store(true); }

  SqlBackend& backend() { return backend_; }
  /// The TLS context, or nullptr when TLS is off.
  const tls::TlsContext* tls() const { return options_.tls.get(); }
  /// The users that must authenticate, or nullptr when authentication is off.
  const auth::UserFile* users() const { return options_.users.get(); }
  /// The ParameterStatus pairs sent at startup; SHOW answers them too.
  const std::vector<std::pair<std::string, std::string>>& parameters() const { return parameters_; }

  void register_connection(PgConnection* connection);
  void unregister_connection(PgConnection* connection);
  /// Handles a CancelRequest: cancels the statement of the connection with that key, if any.
  void cancel(int32_t process_id, int32_t secret);
  /// Writes one line to the query log (stderr), whole.
  void log_line(const std::string& line);

 private:
  SqlBackend& backend_;
  PgServerOptions options_;
  std::vector<std::pair<std::string, std::string>> parameters_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> next_connection_id_{1};
  std::mutex connections_mutex_;
  std::map<uint64_t, PgConnection*> connections_;
  std::mutex log_mutex_;
};

/// Whether `address` is a loopback address (127.0.0.0/8, ::1 or "localhost").
bool is_loopback_address(const std::string& address);

}  // namespace kestrel::server::pg
