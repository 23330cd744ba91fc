#include "server/pg_connection.hpp"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <random>

#include "common/error.hpp"
#include "server/pg_builtins.hpp"
#include "server/pg_server.hpp"
#include "server/scram_exchange.hpp"
#include "server/sql_literal.hpp"

namespace kestrel::server::pg {

namespace {

constexpr int32_t kProtocol3 = 3 << 16;
constexpr int32_t kCancelRequestCode = 80877102;
constexpr int32_t kSslRequestCode = 80877103;
constexpr int32_t kGssEncRequestCode = 80877104;
/// A client has this long to finish its startup packet.
constexpr int kStartupTimeoutSeconds = 30;

void set_receive_timeout(int fd, int seconds) {
  timeval tv{seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

int32_t random_secret() {
  static thread_local std::mt19937 generator{std::random_device{}()};
  return static_cast<int32_t>(generator());
}

}  // namespace

PgConnection::PgConnection(int fd, uint64_t id, PgServer& server)
    : fd_(fd), id_(id), secret_(random_secret()), server_(server), socket_(fd), stream_(socket_) {}

PgConnection::~PgConnection() { ::close(fd_); }

void PgConnection::cancel() {
  if (session_) session_->cancel();
}

void PgConnection::serve() {
  try {
    if (!startup()) return;
    server_.register_connection(this);
    while (true) {
      std::optional<Message> message = stream_.read_message();
      if (!message || message->type == 'X') break;
      if (skipping_to_sync_ && message->type != 'S') continue;
      if (message->type == 'Q') {
        PayloadReader in(message->payload);
        simple_query(in.cstring());
      } else if (!extended_message(*message)) {
        throw ProtocolViolation("invalid frontend message type " + std::to_string(static_cast<uint8_t>(message->type)));
      }
      if (stream_.queued() > 0 && message->type != 'P' && message->type != 'B' && message->type != 'D' &&
          message->type != 'E' && message->type != 'C') {
        if (!stream_.flush()) break;
      }
    }
  } catch (const ProtocolViolation& e) {
    send_error({"FATAL", "08P01", e.what(), std::nullopt});
    stream_.flush();
    server_.log_line("pg conn=" + std::to_string(id_) + " user=" + user_ + " closed: protocol violation: " + e.what());
  } catch (const std::exception& e) {
    send_error({"FATAL", "XX000", e.what(), std::nullopt});
    stream_.flush();
  } catch (...) {
    send_error({"FATAL", "XX000", "unknown internal error", std::nullopt});
    stream_.flush();
  }
  server_.unregister_connection(this);
  socket_.close_notify();
  ::shutdown(fd_, SHUT_RDWR);
}

bool PgConnection::startup() {
  set_receive_timeout(fd_, kStartupTimeoutSeconds);
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::optional<Message> packet = stream_.read_startup();
    if (!packet) return false;
    PayloadReader in(packet->payload);
    int32_t code = in.int32();
    if (code == kSslRequestCode) {
      if (!answer_ssl_request()) return false;
      continue;
    }
    if (code == kGssEncRequestCode) {
      stream_.queue("N");  // no GSSAPI encryption: the client continues without it or gives up
      if (!stream_.flush()) return false;
      continue;
    }
    if (code == kCancelRequestCode) {
      int32_t process_id = in.int32();
      int32_t secret = in.int32();
      server_.cancel(process_id, secret);
      return false;
    }
    if ((code >> 16) != 3) {
      send_error({"FATAL", "0A000",
                  "unsupported frontend protocol " + std::to_string(code >> 16) + "." + std::to_string(code & 0xFFFF) +
                      ": server supports 3.0",
                  std::nullopt});
      stream_.flush();
      return false;
    }
    std::vector<std::string> unknown_options;
    while (true) {
      std::string name(in.cstring());
      if (name.empty()) break;
      std::string value(in.cstring());
      if (name == "user")
        user_ = value;
      else if (name == "database")
        database_ = value;
      else if (name == "TimeZone")
        time_zone_ = value;
      else if (name.rfind("_pq_.", 0) == 0)
        unknown_options.push_back(name);
    }
    if (user_.empty()) {
      send_error({"FATAL", "28000", "no PostgreSQL user name specified in startup packet", std::nullopt});
      stream_.flush();
      return false;
    }
    if (code != kProtocol3 || !unknown_options.empty()) {
      MessageBuilder negotiate('v');
      negotiate.int32(kProtocol3).int32(static_cast<int32_t>(unknown_options.size()));
      for (const auto& o : unknown_options) negotiate.cstring(o);
      stream_.queue(negotiate.finish());
    }
    if (!authenticate()) return false;
    session_ = server_.backend().open_session(user_, ClientProtocol::kPostgres);
    if (!time_zone_.empty()) {
      // The client's TimeZone is the session zone (the time_zone setting); an unknown zone ends the connection.
      try {
        session_->execute("SET time_zone = " + sql_literal(time_zone_));
      } catch (const std::exception&) {
        send_error({"FATAL", "22023", "invalid value for parameter \"TimeZone\": \"" + time_zone_ + "\"", std::nullopt});
        stream_.flush();
        return false;
      }
    }
    set_receive_timeout(fd_, 0);
    send_startup_answer();
    return stream_.flush();
  }
  throw ProtocolViolation("too many encryption requests before the startup packet");
}

bool PgConnection::answer_ssl_request() {
  if (server_.tls() == nullptr || socket_.is_tls()) {
    stream_.queue("N");  // no certificate configured: the client continues in plain text or gives up
    return stream_.flush();
  }
  stream_.queue("S");
  if (!stream_.flush()) return false;
  try {
    socket_.start_tls(*server_.tls());
  } catch (const Error& e) {
    server_.log_line("pg conn=" + std::to_string(id_) + " closed: " + e.what());
    return false;
  }
  return true;
}

bool PgConnection::authenticate() {
  const auth::UserFile* users = server_.users();
  if (users == nullptr) return true;
  // AuthenticationSASL: only SCRAM-SHA-256, no channel binding (so no SCRAM-SHA-256-PLUS).
  stream_.queue(MessageBuilder('R').int32(10).cstring("SCRAM-SHA-256").byte(0).finish());
  if (!stream_.flush()) return false;
  auth::ScramExchange exchange(user_, users->find(user_));
  try {
    std::optional<Message> initial = stream_.read_message(kMaxAuthMessageBytes);
    if (!initial) return false;
    if (initial->type != 'p') throw ProtocolViolation("expected SASLInitialResponse, got a message of another type");
    PayloadReader in(initial->payload);
    std::string mechanism(in.cstring());
    if (mechanism != "SCRAM-SHA-256") {
      send_error({"FATAL", "28000", "client selected an invalid SASL authentication mechanism", std::nullopt});
      stream_.flush();
      return false;
    }
    int32_t length = in.int32();
    if (length < 0 || static_cast<size_t>(length) != in.remaining()) {
      throw ProtocolViolation("malformed SASLInitialResponse: bad length of the client's first message");
    }
    std::string server_first = exchange.server_first(in.bytes(static_cast<size_t>(length)));
    stream_.queue(MessageBuilder('R').int32(11).bytes(server_first).finish());  // AuthenticationSASLContinue
    if (!stream_.flush()) return false;
    std::optional<Message> response = stream_.read_message(kMaxAuthMessageBytes);
    if (!response) return false;
    if (response->type != 'p') throw ProtocolViolation("expected SASLResponse, got a message of another type");
    std::optional<std::string> server_final = exchange.server_final(response->payload);
    if (!server_final) {
      fail_authentication(users->find(user_) == nullptr ? "unknown user" : "wrong password");
      return false;
    }
    stream_.queue(MessageBuilder('R').int32(12).bytes(*server_final).finish());  // AuthenticationSASLFinal
    return true;
  } catch (const Error& e) {
    send_error({"FATAL", e.code(), e.what(), std::nullopt});
    stream_.flush();
    server_.log_line("pg conn=" + std::to_string(id_) + " user=" + user_ + " authentication failed: " + e.what());
    return false;
  }
}

void PgConnection::fail_authentication(const std::string& reason) {
  send_error({"FATAL", "28P01", "password authentication failed for user \"" + user_ + "\"", std::nullopt});
  stream_.flush();
  server_.log_line("pg conn=" + std::to_string(id_) + " user=" + user_ + " authentication failed: " + reason);
}

void PgConnection::send_startup_answer() {
  stream_.queue(MessageBuilder('R').int32(0).finish());  // AuthenticationOk
  for (const auto& [name, value] : server_.parameters()) {
    const std::string& shown = name == "TimeZone" && !time_zone_.empty() ? time_zone_ : value;
    stream_.queue(MessageBuilder('S').cstring(name).cstring(shown).finish());
  }
  stream_.queue(MessageBuilder('K').int32(static_cast<int32_t>(id_)).int32(secret_).finish());
  send_ready();
}

void PgConnection::simple_query(std::string_view query) {
  std::vector<std::string> statements = server_.backend().split_statements(query);
  if (statements.empty()) stream_.queue(MessageBuilder('I').finish());  // EmptyQueryResponse
  size_t search_from = 0;
  for (const auto& text : statements) {
    size_t offset = query.find(text, search_from);
    if (offset == std::string_view::npos) offset = search_from;
    search_from = offset + text.size();
    try {
      std::string tag;
      StatementResult result = run_statement(text, &tag);
      Portal portal;
      if (result.schema) send_row_description(*result.schema);
      portal.result = std::move(result);
      send_rows(portal, 0);
      send_command_complete(tag);
    } catch (const std::exception& e) {
      send_error(client_error(e, query, offset, nullptr));
      if (transaction_ == 'T') transaction_ = 'E';
      break;
    }
    if (stream_.queued() > (1 << 20) && !stream_.flush()) return;
  }
  send_ready();
}

StatementResult PgConnection::run_statement(std::string_view sql, std::string* tag, std::string_view log_sql) {
  if (log_sql.empty()) log_sql = sql;
  auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  StatementResult result;
  try {
    if (auto transaction_tag = transaction_statement(sql, transaction_)) {
      *tag = *transaction_tag;
      log_query(log_sql, "ok", 0, elapsed_ms());
      return result;
    }
    if (transaction_ == 'E') {
      throw InvalidInput("current transaction is aborted, commands ignored until end of transaction block", "25P02");
    }
    if (auto answer = builtin_query(sql, server_.parameters())) {
      result = std::move(*answer);
    } else {
      result = session_->execute(sql);
    }
  } catch (const Error& e) {
    log_query(log_sql, "error " + e.code(), 0, elapsed_ms());
    throw;
  } catch (const std::exception& e) {
    log_query(log_sql, "error XX000", 0, elapsed_ms());
    throw;
  }
  std::string keyword = first_keyword(sql);
  if (!result.message.empty()) {
    *tag = result.message;
  } else if (keyword == "show" || keyword == "explain" || keyword == "set" || keyword == "reset") {
    *tag = keyword == "show" ? "SHOW" : keyword == "explain" ? "EXPLAIN" : keyword == "set" ? "SET" : "RESET";
  } else if (result.schema) {
    *tag = "SELECT " + std::to_string(result.row_count());
  } else {
    *tag = "OK";
  }
  log_query(log_sql, "ok", result.row_count(), elapsed_ms());
  return result;
}

}  // namespace kestrel::server::pg
