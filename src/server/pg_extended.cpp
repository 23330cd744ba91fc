/// The extended query protocol of PgConnection: Parse, Bind, Describe, Execute, Close, Flush and Sync.

#include "common/error.hpp"
#include "server/pg_connection.hpp"
#include "server/pg_server.hpp"
#include "server/pg_types.hpp"

namespace kestrel::server::pg {

bool PgConnection::extended_message(const Message& message) {
  PayloadReader in(message.payload);
  // An error in one of these skips the messages up to the next Sync, as PostgreSQL does.
  auto guarded = [&](auto&& handle, std::string_view query) {
    try {
      handle();
    } catch (const ProtocolViolation&) {
      throw;
    } catch (const AlreadyReported&) {
      // run_portal sent the error with the position in the client's statement
    } catch (const std::exception& e) {
      send_error(client_error(e, query, 0, nullptr));
      if (transaction_ == 'T') transaction_ = 'E';
      skipping_to_sync_ = true;
    }
  };
  switch (message.type) {
    case 'P': guarded([&] { parse(in); }, {}); return true;
    case 'B': guarded([&] { bind(in); }, {}); return true;
    case 'D': guarded([&] { describe(in); }, {}); return true;
    case 'E': guarded([&] { execute(in); }, {}); return true;
    case 'C': guarded([&] { close_object(in); }, {}); return true;
    case 'H': return true;  // Flush: the caller sends what is queued
    case 'S':
      skipping_to_sync_ = false;
      portals_.erase("");
      send_ready();
      return true;
    default: return false;
  }
}

void PgConnection::parse(PayloadReader& in) {
  std::string name(in.cstring());
  std::string sql(in.cstring());
  int16_t count = in.int16();
  if (count < 0) throw ProtocolViolation("negative parameter type count in Parse");
  Prepared prepared{sql, {}};
  for (int16_t i = 0; i < count; ++i) prepared.parameter_types.push_back(in.int32());
  if (server_.backend().split_statements(sql).size() > 1) {
    throw InvalidInput("cannot insert multiple commands into a prepared statement", "42601");
  }
  int highest = highest_parameter(sql);
  if (static_cast<int>(prepared.parameter_types.size()) < highest) prepared.parameter_types.resize(highest, 0);
  if (!name.empty() && prepared_.count(name)) {
    throw InvalidInput("prepared statement \"" + name + "\" already exists", "42P05");
  }
  prepared_[name] = std::move(prepared);
  stream_.queue(MessageBuilder('1').finish());  // ParseComplete
}

void PgConnection::bind(PayloadReader& in) {
  std::string portal_name(in.cstring());
  std::string statement_name(in.cstring());
  std::vector<int16_t> formats(static_cast<size_t>(std::max<int16_t>(in.int16(), 0)));
  for (auto& f : formats) f = in.int16();
  int16_t count = in.int16();
  if (count < 0) throw ProtocolViolation("negative parameter count in Bind");
  std::vector<ParameterValue> values(count);
  for (int16_t i = 0; i < count; ++i) {
    int32_t length = in.int32();
    if (length >= 0)
      values[i].bytes = std::string(in.bytes(static_cast<size_t>(length)));
    else if (length != -1)
      throw ProtocolViolation("invalid parameter length in Bind");
    int16_t format = formats.empty()                            ? 0
                     : formats.size() == 1                      ? formats[0]
                     : i < static_cast<int16_t>(formats.size()) ? formats[i]
                                                                : -1;
    if (format != 0 && format != 1) throw ProtocolViolation("invalid parameter format code in Bind");
    values[i].format = format;
  }
  int16_t result_formats = std::max<int16_t>(in.int16(), 0);
  for (int16_t i = 0; i < result_formats; ++i) {
    if (in.int16() != 0) throw NotImplemented("binary result format (Kestrel sends results in text format)");
  }
  auto it = prepared_.find(statement_name);
  if (it == prepared_.end()) {
    throw InvalidInput("prepared statement \"" + statement_name + "\" does not exist", "26000");
  }
  const Prepared& prepared = it->second;
  if (values.size() != prepared.parameter_types.size()) {
    throw InvalidInput("bind message supplies " + std::to_string(values.size()) +
                           " parameters, but prepared statement \"" + statement_name + "\" requires " +
                           std::to_string(prepared.parameter_types.size()),
                       "08P01");
  }
  for (size_t i = 0; i < values.size(); ++i) values[i].type_oid = prepared.parameter_types[i];
  if (!portal_name.empty() && portals_.count(portal_name)) {
    throw InvalidInput("cursor \"" + portal_name + "\" already exists", "42P03");
  }
  Portal portal;
  portal.original_sql = prepared.sql;
  portal.bound = bind_parameters(prepared.sql, values);
  portals_[portal_name] = std::move(portal);
  stream_.queue(MessageBuilder('2').finish());  // BindComplete
}

void PgConnection::describe(PayloadReader& in) {
  char kind = static_cast<char>(in.byte());
  std::string name(in.cstring());
  if (kind == 'S') {
    auto it = prepared_.find(name);
    if (it == prepared_.end()) throw InvalidInput("prepared statement \"" + name + "\" does not exist", "26000");
    MessageBuilder description('t');
    description.int16(static_cast<int16_t>(it->second.parameter_types.size()));
    for (int32_t oid : it->second.parameter_types)
      description.int32(oid == 0 ? static_cast<int32_t>(TypeOid::kText) : oid);
    stream_.queue(description.finish());
    // The result columns are known only once the statement runs (Describe of its portal gives them).
    stream_.queue(MessageBuilder('n').finish());
    return;
  }
  if (kind != 'P') throw ProtocolViolation("invalid Describe kind");
  auto it = portals_.find(name);
  if (it == portals_.end()) throw InvalidInput("portal \"" + name + "\" does not exist", "34000");
  run_portal(it->second);
  if (it->second.result->schema)
    send_row_description(*it->second.result->schema);
  else
    stream_.queue(MessageBuilder('n').finish());  // NoData
}

void PgConnection::execute(PayloadReader& in) {
  std::string name(in.cstring());
  int32_t limit = in.int32();
  auto it = portals_.find(name);
  if (it == portals_.end()) throw InvalidInput("portal \"" + name + "\" does not exist", "34000");
  Portal& portal = it->second;
  if (portal.bound.sql().find_first_not_of(" \t\r\n;") == std::string::npos) {
    stream_.queue(MessageBuilder('I').finish());  // EmptyQueryResponse
    return;
  }
  run_portal(portal);
  if (send_rows(portal, limit > 0 ? static_cast<size_t>(limit) : 0)) {
    stream_.queue(MessageBuilder('s').finish());  // PortalSuspended
  } else {
    send_command_complete(portal.tag);
  }
}

void PgConnection::run_portal(Portal& portal) {
  if (portal.result) return;
  if (portal.bound.sql().find_first_not_of(" \t\r\n;") == std::string::npos) {
    portal.result = StatementResult{};
    return;
  }
  try {
    portal.result = run_statement(portal.bound.sql(), &portal.tag, portal.original_sql);
  } catch (const std::exception& e) {
    // Positions refer to the statement the client sent, before its parameters were substituted.
    send_error(client_error(e, portal.original_sql, 0, &portal.bound));
    if (transaction_ == 'T') transaction_ = 'E';
    skipping_to_sync_ = true;
    throw AlreadyReported();
  }
}

void PgConnection::close_object(PayloadReader& in) {
  char kind = static_cast<char>(in.byte());
  std::string name(in.cstring());
  if (kind == 'S')
    prepared_.erase(name);
  else if (kind == 'P')
    portals_.erase(name);
  else
    throw ProtocolViolation("invalid Close kind");
  stream_.queue(MessageBuilder('3').finish());  // CloseComplete
}

}  // namespace kestrel::server::pg
