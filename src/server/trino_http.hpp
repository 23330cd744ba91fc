#pragma once
/// The small HTTP/1.1 server under the Trino client protocol: requests with a Content-Length body (no chunked
/// uploads), keep-alive connections, one thread per connection; HTTPS on the same port when a TLS context is given.
/// Authentication is the routes' business (TrinoServer).

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "server/tls_context.hpp"
#include "server/tls_socket.hpp"

namespace kestrel::server::trino {

/// One request as the routes see it.
struct HttpRequest {
  std::string method;                          ///< GET, POST, DELETE, ...
  std::string path;                            ///< the target without its query string, still percent-encoded
  std::string query;                           ///< the text after '?', if any
  std::map<std::string, std::string> headers;  ///< names lower-cased; a repeated header's values joined by ','
  std::string body;

  /// The value of header `lower_name`, or empty.
  const std::string& header(const std::string& lower_name) const;
};

/// One response; Content-Length and Connection are added when it is sent.
struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;

  /// A response with a plain-text body (errors of the transport, such as an unknown path).
  static HttpResponse text(int status, std::string body);
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

/// Limits of what a client may send in one request.
struct HttpLimits {
  size_t max_header_bytes = 64 << 10;
  size_t max_body_bytes = 16 << 20;
  /// How long a connection may stay silent between requests before it is closed.
  std::chrono::seconds idle_timeout{300};
};

/// Binds a TCP port and serves HTTP/1.1 requests with `handler` until stop(); HTTPS only when `tls` is set.
class HttpListener {
 public:
  HttpListener(std::string listen, int port, HttpHandler handler, HttpLimits limits = {},
               std::shared_ptr<const tls::TlsContext> tls = nullptr);
  ~HttpListener();
  HttpListener(const HttpListener&) = delete;
  HttpListener& operator=(const HttpListener&) = delete;

  /// Binds and listens; returns the port bound. Throws IoError when the address cannot be bound.
  int bind();
  /// Accepts connections until stop(), each on its own thread; calls `tick` about once a second.
  void run(const std::function<void()>& tick);
  /// Makes run() return within a fraction of a second (async-signal-safe).
  void stop() { stopping_.store(true); }

 private:
  void serve_connection(int fd);

  std::string listen_;
  int port_;
  HttpHandler handler_;
  HttpLimits limits_;
  std::shared_ptr<const tls::TlsContext> tls_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
};

/// `text` with %XX escapes decoded (and '+' kept as is, as in a path or a Trino header value).
std::string percent_decode(std::string_view text);

}  // namespace kestrel::server::trino
