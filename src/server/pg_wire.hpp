#pragma once
/// The byte level of the PostgreSQL wire protocol v3: reading framed messages from a socket with length limits,
/// decoding their fields, and building outgoing messages.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "server/tls_socket.hpp"

namespace kestrel::server::pg {

/// The largest message a client may send (PostgreSQL's own limit for most messages is 1 GiB).
inline constexpr uint32_t kMaxMessageBytes = 1u << 30;
/// The largest message accepted before the client has authenticated (PostgreSQL's limit on SASL tokens): an
/// unauthenticated client must not make the server allocate much.
inline constexpr uint32_t kMaxAuthMessageBytes = 65535;
/// The largest startup packet (PostgreSQL: 10000 bytes).
inline constexpr uint32_t kMaxStartupBytes = 10000;

/// A malformed, truncated or oversized message: the connection gets an 08P01 error and is closed.
class ProtocolViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One message from the client: its type byte (0 for the startup packet) and payload (without type and length).
struct Message {
  char type = 0;
  std::string payload;
};

/// Reads framed messages from a connected socket, plain or TLS.
class MessageStream {
 public:
  explicit MessageStream(tls::TlsSocket& socket) : socket_(socket) {}

  /// The startup packet (length-prefixed, no type byte). nullopt when the client closed before sending anything.
  std::optional<Message> read_startup();
  /// The next typed message; nullopt when the client closed the connection between messages. Throws
  /// ProtocolViolation for a truncated message or one longer than `max_bytes` (and kMaxMessageBytes).
  std::optional<Message> read_message(uint32_t max_bytes = kMaxMessageBytes);

  /// Queues bytes to send; they leave on flush().
  void queue(std::string_view bytes) { out_.append(bytes); }
  /// Sends what is queued. Returns false when the client is gone.
  bool flush();
  /// Bytes queued and not yet sent.
  size_t queued() const { return out_.size(); }

 private:
  /// Reads exactly `n` bytes; false at end of stream (a partial read counts as end of stream: `*got` says how much).
  bool read_exact(char* data, size_t n, size_t* got);

  tls::TlsSocket& socket_;
  std::string out_;
};

/// Decodes the fields of a message payload in order; throws ProtocolViolation when a field runs past the end.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view payload) : data_(payload) {}

  int16_t int16();
  int32_t int32();
  uint8_t byte();
  /// A NUL-terminated string.
  std::string_view cstring();
  /// `n` raw bytes.
  std::string_view bytes(size_t n);
  size_t remaining() const { return data_.size() - pos_; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

/// Builds one outgoing message: the type byte, a length filled in by finish(), then the fields.
class MessageBuilder {
 public:
  explicit MessageBuilder(char type);

  MessageBuilder& int16(int16_t v);
  MessageBuilder& int32(int32_t v);
  MessageBuilder& byte(uint8_t v);
  /// The text and a terminating NUL.
  MessageBuilder& cstring(std::string_view text);
  MessageBuilder& bytes(std::string_view data);
  /// The framed message.
  std::string finish();

 private:
  std::string buffer_;
};

/// Big-endian integer decoding for binary parameter values.
int64_t read_big_endian(std::string_view bytes);

}  // namespace kestrel::server::pg
