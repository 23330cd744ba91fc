#pragma once
/// What the servers need from the engine: sessions that run SQL text and return typed host batches. The server
/// layer sits below the embedding API (main/), so `kestrel serve` in cli/ implements these over Database and
/// Connection; a test can implement them with canned results.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vector/batch.hpp"

namespace kestrel::server {

/// The outcome of one statement: rows (a schema and host batches) or only a status tag.
struct StatementResult {
  SchemaPtr schema;            ///< null for statements that return no rows
  std::vector<Batch> batches;  ///< host batches, in result order
  /// The engine's status message ("CREATE TABLE", "INSERT 0 3"); empty for queries.
  std::string message;

  size_t row_count() const {
    size_t n = 0;
    for (const auto& b : batches) n += b.num_rows();
    return n;
  }
};

/// One client session on the engine. Runs statements one after another; throws kestrel::Error subclasses, whose
/// positions are relative to the text passed in. cancel() may be called from another thread.
class SqlSession {
 public:
  virtual ~SqlSession() = default;
  virtual StatementResult execute(std::string_view sql) = 0;
  virtual void cancel() = 0;
  /// The session's time zone (a common/time_zone.hpp key; UTC = 0): PostgreSQL clients read timestamptz text in it.
  virtual int32_t time_zone() { return 0; }
};

/// The protocol a session's client speaks.
enum class ClientProtocol : uint8_t { kPostgres, kTrino };

/// The engine as the servers see it.
class SqlBackend {
 public:
  virtual ~SqlBackend() = default;
  /// A new session for one client connection, as `user`, over `protocol` (Trino sessions see Trino's type names in
  /// information_schema).
  virtual std::unique_ptr<SqlSession> open_session(const std::string& user, ClientProtocol protocol) = 0;
  /// Splits a script into statement texts at top-level `;` (each an exact substring of `script`, in order).
  virtual std::vector<std::string> split_statements(std::string_view script) const = 0;
};

}  // namespace kestrel::server
