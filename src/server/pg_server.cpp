#include "server/pg_server.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <system_error>
#include <thread>

#include "common/error.hpp"
#include "server/listen_socket.hpp"
#include "server/pg_connection.hpp"

namespace kestrel::server::pg {

PgServer::PgServer(SqlBackend& backend, PgServerOptions options)
    : backend_(backend),
      options_(std::move(options)),
      parameters_({{"server_version", kServerVersion},
                   {"server_encoding", "UTF8"},
                   {"client_encoding", "UTF8"},
                   {"DateStyle", "ISO, MDY"},
                   {"IntervalStyle", "postgres"},
                   {"TimeZone", "UTC"},
                   {"integer_datetimes", "on"},
                   {"standard_conforming_strings", "on"},
                   {"is_superuser", "off"},
                   {"application_name", ""}}) {}

PgServer::~PgServer() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

int PgServer::bind() {
  int port = 0;
  listen_fd_ = open_listen_socket(options_.listen, options_.port, &port);
  return port;
}

void PgServer::run() {
  while (!stopping_.load()) {
    pollfd p{listen_fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, 200);
    if (ready <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    uint64_t id = next_connection_id_.fetch_add(1);
    try {
      std::thread([this, fd, id] {
        PgConnection connection(fd, id, *this);
        connection.serve();
      }).detach();
    } catch (const std::system_error& e) {  // no thread to be had: refuse this client, keep serving the others
      log_line(std::string("pg: cannot start a connection thread: ") + e.what());
      ::close(fd);
    }
  }
}

void PgServer::register_connection(PgConnection* connection) {
  std::lock_guard lock(connections_mutex_);
  connections_[connection->id()] = connection;
}

void PgServer::unregister_connection(PgConnection* connection) {
  std::lock_guard lock(connections_mutex_);
  connections_.erase(connection->id());
}

void PgServer::cancel(int32_t process_id, int32_t secret) {
  std::lock_guard lock(connections_mutex_);
  auto it = connections_.find(static_cast<uint64_t>(process_id));
  if (it != connections_.end() && it->second->secret() == secret) it->second->cancel();
}

void PgServer::log_line(const std::string& line) {
  std::lock_guard lock(log_mutex_);
  std::cerr << line << std::endl;
}

bool is_loopback_address(const std::string& address) {
  if (address == "localhost" || address == "::1") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  return false;
}

}  // namespace kestrel::server::pg
