#include "server/tls_context.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"

namespace kestrel::server::tls {

namespace {

/// Throws InvalidInput naming `path` when it cannot be opened for reading (before OpenSSL's vaguer message).
void check_readable(const std::string& what, const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw InvalidInput("cannot read the TLS " + what + " '" + path + "': " + std::strerror(errno));
  std::fclose(file);
}

}  // namespace

std::string last_tls_error(const std::string& fallback) {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return fallback;
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

std::shared_ptr<const TlsContext> TlsContext::load(const std::string& cert_path, const std::string& key_path) {
  check_readable("certificate file", cert_path);
  check_readable("key file", key_path);
  // Kestrel's binaries carry their own OpenSSL: do not read the host's openssl.cnf, which may name providers or
  // settings of a different OpenSSL build.
  OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr);
  ERR_clear_error();
  SSL_CTX* context = SSL_CTX_new(TLS_server_method());
  if (context == nullptr) throw InternalError("cannot create a TLS context: " + last_tls_error("unknown error"));
  std::shared_ptr<const TlsContext> result(new TlsContext(context));
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_mode(context, SSL_MODE_AUTO_RETRY);
  if (SSL_CTX_use_certificate_chain_file(context, cert_path.c_str()) != 1) {
    throw InvalidInput("TLS certificate file '" + cert_path +
                       "' holds no usable PEM certificate: " + last_tls_error("unknown error"));
  }
  if (SSL_CTX_use_PrivateKey_file(context, key_path.c_str(), SSL_FILETYPE_PEM) != 1) {
    if (ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH) {
      throw InvalidInput("TLS key file '" + key_path + "' does not match the certificate in '" + cert_path +
                         "': " + last_tls_error("key values mismatch"));
    }
    throw InvalidInput("TLS key file '" + key_path + "' holds no usable PEM private key: " +
                       last_tls_error("unknown error"));
  }
  if (SSL_CTX_check_private_key(context) != 1) {
    throw InvalidInput("TLS key file '" + key_path + "' does not match the certificate in '" + cert_path +
                       "': " + last_tls_error("unknown error"));
  }
  return result;
}

TlsContext::~TlsContext() { SSL_CTX_free(context_); }

}  // namespace kestrel::server::tls
