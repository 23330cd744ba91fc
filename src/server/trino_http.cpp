#include "server/trino_http.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <system_error>
#include <thread>

#include "common/error.hpp"
#include "server/listen_socket.hpp"

namespace kestrel::server::trino {

namespace {

const char* reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 410:
      return "Gone";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

/// A parse failure of a request: answered with `status` and the connection closed.
struct BadRequest {
  int status;
  std::string message;
};

/// Parses the request line and headers (without the blank line that ends them) into `request`.
void parse_head(std::string_view head, HttpRequest& request) {
  size_t end = head.find("\r\n");
  std::string_view line = head.substr(0, end);
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.substr(sp2 + 1).rfind("HTTP/1.", 0) != 0) {
    throw BadRequest{400, "malformed request line"};
  }
  request.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  if (target.empty() || target.front() != '/') throw BadRequest{400, "request target must be a path"};
  size_t q = target.find('?');
  request.path = std::string(target.substr(0, q));
  if (q != std::string_view::npos) request.query = std::string(target.substr(q + 1));
  if (line.substr(sp2 + 1) == "HTTP/1.0") request.headers["connection"] = "close";
  while (end != std::string_view::npos) {
    size_t start = end + 2;
    end = head.find("\r\n", start);
    std::string_view field = head.substr(start, end == std::string_view::npos ? end : end - start);
    if (field.empty()) continue;
    size_t colon = field.find(':');
    if (colon == std::string_view::npos || colon == 0) throw BadRequest{400, "malformed header line"};
    std::string name = lower(std::string(field.substr(0, colon)));
    std::string value(trim(field.substr(colon + 1)));
    auto [it, inserted] = request.headers.emplace(name, value);
    if (!inserted) it->second += "," + value;
  }
}

/// A client has this long to finish the TLS handshake (and later, to finish a TLS record it started).
constexpr int kTlsReceiveTimeoutSeconds = 30;

bool send_response(tls::TlsSocket& socket, const HttpResponse& response, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " + reason_phrase(response.status) + "\r\n";
  if (response.status != 204) out += "Content-Type: " + response.content_type + "\r\n";
  for (const auto& [name, value] : response.headers) out += name + ": " + value + "\r\n";
  out += "Content-Length: " + std::to_string(response.status == 204 ? 0 : response.body.size()) + "\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  if (response.status != 204) out += response.body;
  return socket.write_all(out);
}

}  // namespace

const std::string& HttpRequest::header(const std::string& lower_name) const {
  static const std::string kEmpty;
  auto it = headers.find(lower_name);
  return it == headers.end() ? kEmpty : it->second;
}

HttpResponse HttpResponse::text(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.content_type = "text/plain; charset=utf-8";
  response.body = std::move(body);
  return response;
}

HttpListener::HttpListener(std::string listen, int port, HttpHandler handler, HttpLimits limits,
                           std::shared_ptr<const tls::TlsContext> tls)
    : listen_(std::move(listen)), port_(port), handler_(std::move(handler)), limits_(limits), tls_(std::move(tls)) {}

HttpListener::~HttpListener() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

int HttpListener::bind() {
  int port = 0;
  listen_fd_ = open_listen_socket(listen_, port_, &port);
  return port;
}

void HttpListener::run(const std::function<void()>& tick) {
  auto last_tick = std::chrono::steady_clock::now();
  while (!stopping_.load()) {
    if (std::chrono::steady_clock::now() - last_tick >= std::chrono::seconds(1)) {
      tick();
      last_tick = std::chrono::steady_clock::now();
    }
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    try {
      std::thread([this, fd] { serve_connection(fd); }).detach();
    } catch (const std::system_error& e) {  // no thread to be had: refuse this client, keep serving the others
      std::cerr << "trino: cannot start a connection thread: " << e.what() << std::endl;
      ::close(fd);
    }
  }
}

void HttpListener::serve_connection(int fd) {
  tls::TlsSocket socket(fd);
  if (tls_) {
    timeval timeout{kTlsReceiveTimeoutSeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    try {
      socket.start_tls(*tls_);
    } catch (const std::exception& e) {
      std::cerr << "trino: connection closed: " << e.what() << std::endl;
      ::close(fd);
      return;
    }
  }
  std::string buffer;
  char chunk[16 << 10];
  // Reads more bytes into `buffer`; false when the peer closed, broke or stayed silent too long.
  auto read_more = [&] {
    if (!socket.has_buffered()) {
      pollfd p{fd, POLLIN, 0};
      int timeout_ms = static_cast<int>(std::chrono::milliseconds(limits_.idle_timeout).count());
      if (::poll(&p, 1, timeout_ms) <= 0) return false;
    }
    size_t n = socket.read_some(chunk, sizeof(chunk));
    if (n == 0) return false;
    buffer.append(chunk, n);
    return true;
  };
  bool open = true;
  while (open && !stopping_.load()) {
    size_t head_end;
    while ((head_end = buffer.find("\r\n\r\n")) == std::string::npos && buffer.size() <= limits_.max_header_bytes) {
      if (!read_more()) {
        open = false;
        break;
      }
    }
    if (!open) break;
    HttpRequest request;
    try {
      if (head_end == std::string::npos) {
        throw BadRequest{431, "request headers exceed " + std::to_string(limits_.max_header_bytes) + " bytes"};
      }
      parse_head(std::string_view(buffer).substr(0, head_end), request);
      if (!request.header("transfer-encoding").empty()) {
        throw BadRequest{411, "chunked request bodies are not supported: send Content-Length"};
      }
      size_t length = 0;
      const std::string& length_text = request.header("content-length");
      if (!length_text.empty()) {
        if (length_text.find_first_not_of("0123456789") != std::string::npos || length_text.size() > 12) {
          throw BadRequest{400, "malformed Content-Length"};
        }
        length = std::stoull(length_text);
      }
      if (length > limits_.max_body_bytes) {
        throw BadRequest{413, "request body exceeds " + std::to_string(limits_.max_body_bytes) + " bytes"};
      }
      buffer.erase(0, head_end + 4);
      while (buffer.size() < length && open) open = read_more();
      if (!open) break;
      request.body = buffer.substr(0, length);
      buffer.erase(0, length);
    } catch (const BadRequest& bad) {
      send_response(socket, HttpResponse::text(bad.status, bad.message + "\n"), false);
      break;
    }
    bool keep_alive = lower(request.header("connection")) != "close";
    HttpResponse response;
    try {
      response = handler_(request);
    } catch (const std::exception& e) {
      response = HttpResponse::text(500, std::string("internal error: ") + e.what() + "\n");
    }
    open = send_response(socket, response, keep_alive) && keep_alive;
  }
  socket.close_notify();
  ::close(fd);
}

std::string percent_decode(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int hi = hex(text[i + 1]), lo = hex(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace kestrel::server::trino
