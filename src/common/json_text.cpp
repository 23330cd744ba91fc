#include "common/json_text.hpp"

#include <nlohmann/json.hpp>

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
      const size_t end = std::min(text.size(), e.byte == 0 ? size_t{0} : e.byte - 1);
      *error = JsonSyntaxError{};
      error->offset = end;
      for (size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
          ++error->line;
          error->column = 1;
        } else {
          ++error->column;
        }
      }
      error->reason = parse_error_reason(e.what());
    }
    return std::nullopt;
  }
}

void append_json_string(std::string& out, std::string_view s) {
  out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace kestrel
