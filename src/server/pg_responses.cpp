/// The responses of PgConnection: row descriptions, data rows, command tags, errors and ReadyForQuery, and the
/// query log line.

#include "common/error.hpp"
#include "server/pg_connection.hpp"
#include "server/pg_server.hpp"
#include "server/pg_types.hpp"

namespace kestrel::server::pg {

namespace {

/// Characters (UTF-8 code points) in the first `bytes` bytes of `text`.
size_t character_count(std::string_view text, size_t bytes) {
  size_t n = 0;
  for (size_t i = 0; i < bytes && i < text.size(); ++i) n += (static_cast<uint8_t>(text[i]) & 0xC0) != 0x80;
  return n;
}

}  // namespace

void PgConnection::send_row_description(const Schema& schema) {
  MessageBuilder m('T');
  m.int16(static_cast<int16_t>(schema.size()));
  for (const auto& field : schema.fields()) {
    PgColumnType type = pg_column_type(field.type);
    m.cstring(field.name).int32(0).int16(0);  // no table OID or column number
    m.int32(static_cast<int32_t>(type.oid)).int16(type.size).int32(type.modifier).int16(0);  // text format
  }
  stream_.queue(m.finish());
}

bool PgConnection::send_rows(Portal& portal, size_t limit) {
  const StatementResult& result = *portal.result;
  size_t sent = 0;
  while (portal.batch < result.batches.size()) {
    const Batch& batch = result.batches[portal.batch];
    if (portal.row >= batch.num_rows()) {
      ++portal.batch;
      portal.row = 0;
      continue;
    }
    if (limit != 0 && sent == limit) return true;
    MessageBuilder m('D');
    m.int16(static_cast<int16_t>(batch.num_columns()));
    for (size_t c = 0; c < batch.num_columns(); ++c) {
      Value v = batch.column(c)->value_at(portal.row);
      if (v.is_null()) {
        m.int32(-1);
      } else {
        std::string text = pg_text(v, session_->time_zone());
        m.int32(static_cast<int32_t>(text.size())).bytes(text);
      }
    }
    stream_.queue(m.finish());
    ++portal.row;
    ++sent;
    if (stream_.queued() > (1 << 20)) stream_.flush();  // bound the bytes held for one result
  }
  return false;
}

void PgConnection::send_command_complete(const std::string& tag) {
  stream_.queue(MessageBuilder('C').cstring(tag).finish());
}

void PgConnection::send_error(const ClientError& error) {
  MessageBuilder m('E');
  m.byte('S').cstring(error.severity).byte('V').cstring(error.severity);
  m.byte('C').cstring(error.code).byte('M').cstring(error.message);
  if (error.position) m.byte('P').cstring(std::to_string(*error.position));
  m.byte(0);
  stream_.queue(m.finish());
}

void PgConnection::send_ready() {
  stream_.queue(MessageBuilder('Z').byte(static_cast<uint8_t>(transaction_)).finish());
}

ClientError PgConnection::client_error(const std::exception& e, std::string_view query, size_t statement_offset,
                                       const BoundStatement* bound) const {
  ClientError out;
  const auto* error = dynamic_cast<const Error*>(&e);
  if (error == nullptr) {
    out.code = "XX000";
    out.message = e.what();
    return out;
  }
  out.code = error->code().size() == 5 ? error->code() : "XX000";
  out.message = error->message();
  if (error->position() && !query.empty()) {
    size_t offset = error->position()->offset;
    if (bound != nullptr) offset = bound->original_offset(offset);
    offset = std::min(statement_offset + offset, query.size());
    out.position = character_count(query, offset) + 1;
  }
  return out;
}

void PgConnection::log_query(std::string_view sql, const std::string& state, size_t rows, double ms) const {
  std::string text(sql.substr(0, 300));
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (sql.size() > 300) text += "...";
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f", ms);
  server_.log_line("pg conn=" + std::to_string(id_) + " user=" + user_ + " state=" + state +
                   " rows=" + std::to_string(rows) + " ms=" + elapsed + " sql=\"" + text + "\"");
}

}  // namespace kestrel::server::pg
