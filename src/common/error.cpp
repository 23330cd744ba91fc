#include "common/error.hpp"

#include <sstream>

namespace kestrel {

namespace {

std::string full_message(ErrorCategory category, const std::string& message,
                         const std::optional<SourcePosition>& position) {
  std::ostringstream out;
  out << category_name(category);
  if (position) out << " at line " << position->line << ", column " << position->column;
  out << ": " << message;
  return out.str();
}

}  // namespace

Error::Error(ErrorCategory category, std::string code, std::string message,
             std::optional<SourcePosition> position)
    : std::runtime_error(full_message(category, message, position)),
      category_(category),
      code_(std::move(code)),
      message_(std::move(message)),
      position_(position) {}

const char* category_name(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::kSyntax: return "Syntax Error";
    case ErrorCategory::kBinder: return "Binder Error";
    case ErrorCategory::kInvalidInput: return "Invalid Input Error";
    case ErrorCategory::kNotImplemented: return "Not Implemented Error";
    case ErrorCategory::kResourceExhausted: return "Resource Exhausted Error";
    case ErrorCategory::kCancelled: return "Cancelled";
    case ErrorCategory::kIo: return "IO Error";
    case ErrorCategory::kInternal: return "Internal Error";
  }
  return "Error";
}

std::string format_error(const Error& error, const std::string& statement_text) {
  std::ostringstream out;
  out << error.what() << " [" << error.code() << "]";
  const auto& pos = error.position();
  if (pos && !statement_text.empty() && pos->offset <= statement_text.size()) {
    size_t begin = statement_text.rfind('\n', pos->offset == 0 ? 0 : pos->offset - 1);
    begin = (begin == std::string::npos || pos->offset == 0) ? 0 : begin + 1;
    if (pos->offset > 0 && statement_text[pos->offset - 1] == '\n') begin = pos->offset;
    size_t end = statement_text.find('\n', begin);
    if (end == std::string::npos) end = statement_text.size();
    std::string line = statement_text.substr(begin, end - begin);
    out << "\n  " << line << "\n  ";
    for (size_t i = begin; i < pos->offset; ++i) out << (statement_text[i] == '\t' ? '\t' : ' ');
    out << '^';
  }
  return out.str();
}

}  // namespace kestrel
