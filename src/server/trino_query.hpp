#pragma once
/// One query of the Trino client protocol: its statement runs on a thread of its own through a SqlSession, and the
/// result goes out page by page, each response naming the next page's token in its nextUri.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/sql_backend.hpp"
#include "server/trino_types.hpp"

namespace kestrel::server::trino {

/// What a POST /v1/statement carries.
struct QueryRequest {
  std::string sql;
  std::string user;
  /// X-Trino-Session pairs, decoded; each becomes a Kestrel setting for this statement only.
  std::vector<std::pair<std::string, std::string>> session_properties;
};

/// A query from its POST until it is cancelled, fully read or abandoned.
class TrinoQuery : public std::enable_shared_from_this<TrinoQuery> {
 public:
  TrinoQuery(std::string id, QueryRequest request);

  /// Opens the session and runs the statement on a new thread, which holds the query until the statement ends.
  /// Throws std::system_error when no thread can be started.
  void start(SqlBackend& backend);

  /// The response (JSON text) for page `token`, waiting up to `wait` for the statement to end. Asking again for
  /// the last token answered repeats its response (a client's retry); nullopt for any token other than that one
  /// or the next. `base_uri` is "http://host:port" as the client reached the server.
  std::optional<std::string> response(uint64_t token, const std::string& base_uri, std::chrono::milliseconds wait);

  /// Asks the statement to stop and drops the result; a request still waiting gets a USER_CANCELED error.
  void cancel();
  /// Repeats the cancel request to the session while the statement still runs (a request that arrived before
  /// the statement started is lost otherwise); true once the statement has ended.
  bool reassert_cancel();

  const std::string& id() const { return id_; }

  /// The user the query runs as (with users configured, the authenticated one).

  const std::string& user() const { return request_.user; }
  /// Whether nobody asked for the query for longer than `idle`, or for longer than `done` after its last page.
  bool expired(std::chrono::steady_clock::time_point now, std::chrono::seconds idle, std::chrono::seconds done);

 private:
  void execute();
  /// Applies the session properties, saving the values they replace into `saved`; throws on an unknown property
  /// or a bad value.
  void apply_session_properties(std::vector<std::pair<std::string, std::string>>& saved);
  /// Builds the response for `token`; called with mutex_ held.
  nlohmann::json build_response(uint64_t token, const std::string& base_uri);
  nlohmann::json stats_json(const char* state) const;
  /// The answer to a request that was waiting (or arrived through an old reference) when the query was cancelled.
  std::string cancelled_response(const std::string& base_uri) const;
  /// Adds the next page of rows to `out`; true when rows remain after it.
  bool add_page(nlohmann::json& out);
  void add_update_result(nlohmann::json& out) const;

  const std::string id_;
  const QueryRequest request_;
  const std::chrono::steady_clock::time_point created_;
  std::unique_ptr<SqlSession> session_;  ///< set before the statement's thread starts, constant after

  std::mutex mutex_;
  std::condition_variable ended_;  ///< signalled when the statement has ended
  bool running_ = false;           ///< the statement's thread has begun
  bool ended_flag_ = false;        ///< the statement returned or threw
  bool cancelled_ = false;
  bool drained_ = false;  ///< the last response (the final page, an error) has been built
  StatementResult result_;
  std::vector<TrinoColumn> columns_;
  std::optional<nlohmann::json> error_;
  size_t rows_total_ = 0;
  size_t batch_ = 0, row_ = 0;  ///< the next row to send
  bool answered_ = false;
  uint64_t last_token_ = 0;
  std::string last_response_;
  std::chrono::steady_clock::time_point last_access_;
  double elapsed_ms_ = 0;
};

}  // namespace kestrel::server::trino
