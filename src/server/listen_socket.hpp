#pragma once
/// The listening TCP socket of a server (PostgreSQL, Trino): resolved, bound and listening, port 0 picking a free one.

#include <string>

namespace kestrel::server {

/// A socket listening on `address`:`port` (the first resolved address that binds); returns its descriptor and
/// writes the port actually bound to `bound_port`. Throws IoError naming the address when none can be bound.
int open_listen_socket(const std::string& address, int port, int* bound_port);

}  // namespace kestrel::server
