#pragma once
/// Errors that end a query, one class per category (STYLE.md). Each carries a stable SQLSTATE-style code that
/// clients and tests can match on, and user errors carry the line:column of the offending SQL token.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace kestrel {

/// The category of an error; decides its class, its default code and how the CLI reports it.
enum class ErrorCategory : uint8_t {
  kSyntax,
  kBinder,
  kInvalidInput,
  kNotImplemented,
  kResourceExhausted,
  kCancelled,
  kIo,
  kInternal,
};

/// A 1-based position in the SQL text of a statement.
struct SourcePosition {
  uint32_t line = 1;
  uint32_t column = 1;
  /// Byte offset into the statement text, used to draw a caret under the token.
  uint32_t offset = 0;
};

/// Base class of every Kestrel error. `what()` returns the full message including the position.
class Error : public std::runtime_error {
 public:
  Error(ErrorCategory category, std::string code, std::string message,
        std::optional<SourcePosition> position = std::nullopt);

  ErrorCategory category() const { return category_; }
  /// Stable five-character code (SQLSTATE classes: 42601 syntax, 42703 unknown column, 22000 bad data, ...).
  const std::string& code() const { return code_; }
  /// The message without the position prefix.
  const std::string& message() const { return message_; }
  const std::optional<SourcePosition>& position() const { return position_; }

 private:
  ErrorCategory category_;
  std::string code_;
  std::string message_;
  std::optional<SourcePosition> position_;
};

/// Human name of a category ("Syntax Error", "Binder Error", ...).
const char* category_name(ErrorCategory category);

/// Malformed SQL text.
class SyntaxError : public Error {
 public:
  SyntaxError(std::string message, SourcePosition position, std::string code = "42601")
      : Error(ErrorCategory::kSyntax, std::move(code), std::move(message), position) {}
};

/// Well-formed SQL that does not make sense: unknown names, type mismatches.
class BinderError : public Error {
 public:
  BinderError(std::string message, std::optional<SourcePosition> position, std::string code = "42000")
      : Error(ErrorCategory::kBinder, std::move(code), std::move(message), position) {}
};

/// Bad data or bad files: a malformed Parquet page, a CSV row that does not parse, a division by zero.
class InvalidInput : public Error {
 public:
  explicit InvalidInput(std::string message, std::string code = "22000",
                        std::optional<SourcePosition> position = std::nullopt)
      : Error(ErrorCategory::kInvalidInput, std::move(code), std::move(message), position) {}
};

/// A feature Kestrel does not have (yet). Placement catches it from GPU operators to fall back to the CPU.
class NotImplemented : public Error {
 public:
  explicit NotImplemented(std::string message, std::optional<SourcePosition> position = std::nullopt)
      : Error(ErrorCategory::kNotImplemented, "0A000", std::move(message), position) {}
};

/// A memory budget or another limit was exceeded.
class ResourceExhausted : public Error {
 public:
  explicit ResourceExhausted(std::string message)
      : Error(ErrorCategory::kResourceExhausted, "53000", std::move(message)) {}
};

/// The query was cancelled by the user.
class Cancelled : public Error {
 public:
  Cancelled() : Error(ErrorCategory::kCancelled, "57014", "query cancelled") {}
};

/// Reading or writing a file failed at the operating-system level.
class IoError : public Error {
 public:
  explicit IoError(std::string message) : Error(ErrorCategory::kIo, "58030", std::move(message)) {}
};

/// A broken invariant inside Kestrel: a bug, never the user's fault.
class InternalError : public Error {
 public:
  explicit InternalError(std::string message)
      : Error(ErrorCategory::kInternal, "XX000", std::move(message)) {}
};

/// Renders an error for a person: the category, the code, the message and, when the statement text is given and
/// the error has a position, the offending line with a caret under the column.
std::string format_error(const Error& error, const std::string& statement_text = {});

}  // namespace kestrel
