#pragma once
/// A connected socket as the protocol layers read and write it: plain bytes, or TLS once start_tls() has done the
/// server side of the handshake. The socket descriptor stays the caller's to close.

#include <sys/types.h>

#include <string_view>

#include "server/tls_context.hpp"

typedef struct ssl_st SSL;

namespace kestrel::server::tls {

class TlsSocket {
 public:
  explicit TlsSocket(int fd) : fd_(fd) {}
  ~TlsSocket();
  TlsSocket(const TlsSocket&) = delete;
  TlsSocket& operator=(const TlsSocket&) = delete;

  /// Does the server side of the TLS handshake on the socket. Throws IoError with OpenSSL's reason when it fails
  /// (a client speaking plain text, no common protocol version, a timeout of the socket).
  void start_tls(const TlsContext& context);
  bool is_tls() const { return ssl_ != nullptr; }

  /// Reads up to `n` bytes; returns how many, 0 when the peer closed, broke the connection or the socket's receive
  /// timeout passed.
  size_t read_some(char* data, size_t n);
  /// Sends all of `bytes`; false when the peer is gone.
  bool write_all(std::string_view bytes);
  /// Whether decrypted bytes wait in the TLS layer, which a poll() of the descriptor would not see.
  bool has_buffered() const;
  /// Sends TLS close_notify (when TLS is on); the descriptor stays open.
  void close_notify();
  int fd() const { return fd_; }

 private:
  int fd_;
  SSL* ssl_ = nullptr;
};

}  // namespace kestrel::server::tls
