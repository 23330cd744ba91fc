#include "server/tls_socket.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <cerrno>

#include "common/error.hpp"

namespace kestrel::server::tls {

TlsSocket::~TlsSocket() {
  if (ssl_ != nullptr) SSL_free(ssl_);
}

void TlsSocket::start_tls(const TlsContext& context) {
  ERR_clear_error();
  ssl_ = SSL_new(context.native());
  if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1) {
    throw IoError("cannot start TLS on a connection: " + last_tls_error("out of memory"));
  }
  while (true) {
    int rc = SSL_accept(ssl_);
    if (rc == 1) return;
    int error = SSL_get_error(ssl_, rc);
    if (error == SSL_ERROR_SYSCALL && errno == EINTR) continue;
    std::string reason = last_tls_error(error == SSL_ERROR_SYSCALL ? "the client closed the connection or timed out"
                                                                   : "handshake failed");
    SSL_free(ssl_);
    ssl_ = nullptr;
    throw IoError("TLS handshake failed: " + reason);
  }
}

size_t TlsSocket::read_some(char* data, size_t n) {
  while (true) {
    if (ssl_ == nullptr) {
      ssize_t r = ::recv(fd_, data, n, 0);
      if (r < 0 && errno == EINTR) continue;
      return r <= 0 ? 0 : static_cast<size_t>(r);
    }
    size_t got = 0;
    int rc = SSL_read_ex(ssl_, data, n, &got);
    if (rc == 1) return got;
    int error = SSL_get_error(ssl_, rc);
    if (error == SSL_ERROR_SYSCALL && errno == EINTR) continue;
    ERR_clear_error();
    return 0;
  }
}

bool TlsSocket::write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    if (ssl_ == nullptr) {
      ssize_t r = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(r));
      continue;
    }
    size_t sent = 0;
    int rc = SSL_write_ex(ssl_, bytes.data(), bytes.size(), &sent);
    if (rc != 1) {
      int error = SSL_get_error(ssl_, rc);
      if (error == SSL_ERROR_SYSCALL && errno == EINTR) continue;
      ERR_clear_error();
      return false;
    }
    bytes.remove_prefix(sent);
  }
  return true;
}

bool TlsSocket::has_buffered() const { return ssl_ != nullptr && SSL_pending(ssl_) > 0; }

void TlsSocket::close_notify() {
  if (ssl_ != nullptr) {
    SSL_shutdown(ssl_);
    ERR_clear_error();
  }
}

}  // namespace kestrel::server::tls

