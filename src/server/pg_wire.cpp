#include "server/pg_wire.hpp"

#include <algorithm>
#include <cstring>

namespace kestrel::server::pg {

namespace {

uint32_t decode_u32(const char* p) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(p[0])) << 24) |
         (static_cast<uint32_t>(static_cast<uint8_t>(p[1])) << 16) |
         (static_cast<uint32_t>(static_cast<uint8_t>(p[2])) << 8) | static_cast<uint32_t>(static_cast<uint8_t>(p[3]));
}

void append_u32(std::string& out, uint32_t v) {
  out.push_back(static_cast<char>(v >> 24));
  out.push_back(static_cast<char>(v >> 16));
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v));
}

}  // namespace

bool MessageStream::read_exact(char* data, size_t n, size_t* got) {
  *got = 0;
  while (*got < n) {
    size_t r = socket_.read_some(data + *got, n - *got);
    if (r == 0) return false;  // closed, reset, or the receive timeout of the startup phase
    *got += r;
  }
  return true;
}

std::optional<Message> MessageStream::read_startup() {
  char header[4];
  size_t got = 0;
  if (!read_exact(header, 4, &got)) {
    if (got == 0) return std::nullopt;
    throw ProtocolViolation("incomplete startup packet");
  }
  uint32_t length = decode_u32(header);
  if (length < 8 || length > kMaxStartupBytes) {
    throw ProtocolViolation("invalid length of startup packet: " + std::to_string(length));
  }
  Message message;
  message.payload.resize(length - 4);
  if (!read_exact(message.payload.data(), message.payload.size(), &got)) {
    throw ProtocolViolation("incomplete startup packet");
  }
  return message;
}

std::optional<Message> MessageStream::read_message(uint32_t max_bytes) {
  char header[5];
  size_t got = 0;
  if (!read_exact(header, 5, &got)) {
    if (got == 0) return std::nullopt;
    throw ProtocolViolation("incomplete message header from the client");
  }
  uint32_t length = decode_u32(header + 1);
  if (length < 4 || length > std::min<uint32_t>(max_bytes, kMaxMessageBytes)) {
    throw ProtocolViolation("invalid message length " + std::to_string(length) + " for message type '" +
                            std::string(1, header[0]) + "'");
  }
  Message message;
  message.type = header[0];
  message.payload.resize(length - 4);
  if (!read_exact(message.payload.data(), message.payload.size(), &got)) {
    throw ProtocolViolation("incomplete message from the client: " + std::to_string(got) + " of " +
                            std::to_string(length - 4) + " bytes of a '" + std::string(1, header[0]) + "' message");
  }
  return message;
}

bool MessageStream::flush() {
  bool sent = socket_.write_all(out_);
  out_.clear();
  return sent;
}

int16_t PayloadReader::int16() {
  auto b = bytes(2);
  return static_cast<int16_t>((static_cast<uint8_t>(b[0]) << 8) | static_cast<uint8_t>(b[1]));
}

int32_t PayloadReader::int32() { return static_cast<int32_t>(decode_u32(bytes(4).data())); }

uint8_t PayloadReader::byte() { return static_cast<uint8_t>(bytes(1)[0]); }

std::string_view PayloadReader::cstring() {
  size_t end = data_.find('\0', pos_);
  if (end == std::string_view::npos) throw ProtocolViolation("unterminated string in message");
  std::string_view s = data_.substr(pos_, end - pos_);
  pos_ = end + 1;
  return s;
}

std::string_view PayloadReader::bytes(size_t n) {
  if (n > remaining()) throw ProtocolViolation("message field runs past the end of the message");
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

MessageBuilder::MessageBuilder(char type) {
  buffer_.push_back(type);
  buffer_.append(4, '\0');
}

MessageBuilder& MessageBuilder::int16(int16_t v) {
  buffer_.push_back(static_cast<char>(static_cast<uint16_t>(v) >> 8));
  buffer_.push_back(static_cast<char>(v));
  return *this;
}

MessageBuilder& MessageBuilder::int32(int32_t v) {
  append_u32(buffer_, static_cast<uint32_t>(v));
  return *this;
}

MessageBuilder& MessageBuilder::byte(uint8_t v) {
  buffer_.push_back(static_cast<char>(v));
  return *this;
}

MessageBuilder& MessageBuilder::cstring(std::string_view text) {
  buffer_.append(text);
  buffer_.push_back('\0');
  return *this;
}

MessageBuilder& MessageBuilder::bytes(std::string_view data) {
  buffer_.append(data);
  return *this;
}

std::string MessageBuilder::finish() {
  uint32_t length = static_cast<uint32_t>(buffer_.size() - 1);
  std::string length_bytes;
  append_u32(length_bytes, length);
  std::memcpy(buffer_.data() + 1, length_bytes.data(), 4);
  return std::move(buffer_);
}

int64_t read_big_endian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  if (!bytes.empty() && bytes.size() < 8 && (static_cast<uint8_t>(bytes[0]) & 0x80)) {
    v |= ~uint64_t{0} << (8 * bytes.size());  // sign-extend
  }
  return static_cast<int64_t>(v);
}

}  // namespace kestrel::server::pg
