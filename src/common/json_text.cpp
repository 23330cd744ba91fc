#include "common/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kestrel {

namespace {

using Json = nlohmann::json;

/// The part of a parse error's message after its position ("syntax error while parsing value - ...").
std::string parse_error_reason(const std::string& what) {
  const size_t column = what.find("column ");
  const size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
  // The text read so far adds nothing to the line and column.
  const size_t last_read = reason.find("; last read:");
  if (last_read != std::string::npos) reason.resize(last_read);
  return reason;
}

/// Sets `error`'s line and column to those of byte `offset` of `text`.
void locate(std::string_view text, size_t offset, JsonSyntaxError& error) {
  error.line = 1;
  error.column = 1;
  error.offset = std::min(offset, text.size());
  for (size_t i = 0; i < error.offset; ++i) {
    if (text[i] == '\n') {
      ++error.line;
      error.column = 1;
    } else {
      ++error.column;
    }
  }
}

}  // namespace

std::string JsonSyntaxError::describe() const {
  return reason + " at line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::optional<std::string> canonical_json(std::string_view text, JsonSyntaxError* error) {
  try {
    const Json doc = Json::parse(text.begin(), text.end());
    return doc.dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (const Json::parse_error& e) {
    if (error != nullptr) {
      // e.byte counts from 1 and points at the character that failed (one past the end for a truncated text).
      locate(text, e.byte == 0 ? 0 : e.byte - 1, *error);
      error->reason = parse_error_reason(e.what());
    }
    return std::nullopt;
  } catch (const Json::out_of_range& e) {  // a number beyond a double ("number overflow parsing '1e400'")
    if (error != nullptr) {
      std::string reason = e.what();
      const size_t start = reason.find("] ");
      if (start != std::string::npos) reason.erase(0, start + 2);
      const size_t quote = reason.find('\'');
      const size_t end = quote == std::string::npos ? std::string::npos : reason.find('\'', quote + 1);
      size_t at = 0;
      if (end != std::string::npos) {
        at = text.find(std::string_view(reason).substr(quote + 1, end - quote - 1));
        if (at == std::string_view::npos) at = 0;
      }
      locate(text, at, *error);
      error->reason = reason;
    }
    return std::nullopt;
  }
}

void append_json_string(std::string& out, std::string_view s) {
  out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace kestrel
