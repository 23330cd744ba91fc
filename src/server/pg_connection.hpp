#pragma once
/// One client connection of the PostgreSQL wire protocol v3: startup, the simple and the extended query
/// protocol, over one engine session. Runs on its own thread until the client terminates or breaks the protocol.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/pg_parameters.hpp"
#include "server/pg_wire.hpp"
#include "server/sql_backend.hpp"

namespace kestrel::server::pg {

class PgServer;

/// An error as the client receives it in an ErrorResponse.
struct ClientError {
  std::string severity = "ERROR";  ///< ERROR, or FATAL when the connection closes
  std::string code;                ///< SQLSTATE
  std::string message;
  std::optional<size_t> position;  ///< 1-based character offset into the query string
};

/// The protocol state of one connection.
class PgConnection {
 public:
  PgConnection(int fd, uint64_t id, PgServer& server);
  ~PgConnection();

  /// Speaks the protocol until the client leaves; never throws.
  void serve();

  uint64_t id() const { return id_; }
  int32_t secret() const { return secret_; }
  /// Cancels the running statement (from a CancelRequest on another connection).
  void cancel();

 private:
  /// A statement created by Parse.
  struct Prepared {
    std::string sql;
    std::vector<int32_t> parameter_types;
  };
  /// A portal created by Bind: a bound statement and, once run, its result and how far Execute got.
  struct Portal {
    std::string original_sql;
    BoundStatement bound;
    std::optional<StatementResult> result;
    std::string tag;
    size_t batch = 0, row = 0;  ///< the next row to send
  };

  /// Thrown by run_portal after it has sent the error itself.
  struct AlreadyReported {};

  // Startup (pg_connection.cpp).
  bool startup();
  /// Answers an SSLRequest: 'S' and the TLS handshake when a certificate is configured, 'N' otherwise. False when
  /// the connection is lost.
  bool answer_ssl_request();
  /// The SCRAM-SHA-256 exchange when users are configured (nothing otherwise); true when the client may go on. On a
  /// wrong password or unknown user sends FATAL 28P01 and returns false.
  bool authenticate();
  /// Sends FATAL 28P01 for the user of the startup packet and logs the failure.
  void fail_authentication(const std::string& reason);
  void send_startup_answer();
  // The simple query protocol.
  void simple_query(std::string_view query);
  // The extended query protocol (pg_extended.cpp).
  void parse(PayloadReader& in);
  void bind(PayloadReader& in);
  void describe(PayloadReader& in);
  void execute(PayloadReader& in);
  void close_object(PayloadReader& in);
  void run_portal(Portal& portal);
  /// Handles one extended-protocol message; false for a type that is not one.
  bool extended_message(const Message& message);

  /// Runs one statement, with the statements the protocol layer answers itself (transactions, SHOW of the
  /// reported parameters, version()); logs it as `log_sql` (the client's text, without parameter values) when
  /// given. Throws on failure.
  StatementResult run_statement(std::string_view sql, std::string* tag, std::string_view log_sql = {});

  // Responses (pg_responses.cpp).
  void send_row_description(const Schema& schema);
  /// Sends rows from the position of `portal` on, at most `limit` (0: all); true when rows remain.
  bool send_rows(Portal& portal, size_t limit);
  void send_command_complete(const std::string& tag);
  void send_error(const ClientError& error);
  void send_ready();
  /// The client's view of an exception from `sql`, which starts at byte `statement_offset` of `query`.
  ClientError client_error(const std::exception& e, std::string_view query, size_t statement_offset,
                           const BoundStatement* bound) const;
  void log_query(std::string_view sql, const std::string& state, size_t rows, double ms) const;

  int fd_;
  uint64_t id_;
  int32_t secret_;
  PgServer& server_;
  tls::TlsSocket socket_;
  MessageStream stream_;
  std::unique_ptr<SqlSession> session_;
  std::string user_;
  std::string database_;
  std::string time_zone_;  ///< the startup packet's TimeZone, if any
  /// 'I' idle, 'T' in a transaction block, 'E' in a failed one (what ReadyForQuery reports).
  char transaction_ = 'I';
  /// After an error in the extended protocol, messages up to the next Sync are skipped.
  bool skipping_to_sync_ = false;
  std::map<std::string, Prepared> prepared_;
  std::map<std::string, Portal> portals_;
};

}  // namespace kestrel::server::pg
