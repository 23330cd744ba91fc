#pragma once
/// The TLS configuration of `kestrel serve --tls-cert FILE --tls-key FILE`: one OpenSSL server context (TLS 1.2 and
/// later) shared by the PostgreSQL and the Trino listeners and all their connections.

#include <memory>
#include <string>

typedef struct ssl_ctx_st SSL_CTX;

namespace kestrel::server::tls {

/// A certificate chain and its private key, loaded and checked once at startup.
class TlsContext {
 public:
  /// Loads the PEM certificate chain `cert_path` and the PEM private key `key_path`. Throws InvalidInput naming the
  /// file when one cannot be read or parsed, or when the key does not belong to the certificate.
  static std::shared_ptr<const TlsContext> load(const std::string& cert_path, const std::string& key_path);

  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  /// The OpenSSL context connections are made from (thread-safe to use from several connections at once).
  SSL_CTX* native() const { return context_; }

 private:
  explicit TlsContext(SSL_CTX* context) : context_(context) {}

  SSL_CTX* context_;
};

/// The text of OpenSSL's most recent error on this thread (and clears its error queue), or `fallback`.
std::string last_tls_error(const std::string& fallback);

}  // namespace kestrel::server::tls
