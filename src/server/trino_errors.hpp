#pragma once
/// Kestrel's errors as Trino clients receive them: the `error` object of a failed query's response, with Trino's
/// error code, name and type, and the line and column of the offending token.

#include <exception>
#include <nlohmann/json.hpp>
#include <string>

namespace kestrel::server::trino {

/// One of Trino's standard error codes (io.trino.spi.StandardErrorCode) with its type.
struct TrinoErrorCode {
  int code;
  const char* name;  ///< SYNTAX_ERROR, COLUMN_NOT_FOUND, GENERIC_INTERNAL_ERROR, ...
  const char* type;  ///< USER_ERROR, INTERNAL_ERROR or INSUFFICIENT_RESOURCES
};

inline constexpr TrinoErrorCode kUserCanceled{3, "USER_CANCELED", "USER_ERROR"};
inline constexpr TrinoErrorCode kInvalidSessionProperty{14, "INVALID_SESSION_PROPERTY", "USER_ERROR"};

/// The Trino error code of an exception thrown by a statement: by its SQLSTATE where Trino has a matching code,
/// otherwise by its category (syntax, binder and data errors are the user's, memory limits are resources, the
/// rest internal).
TrinoErrorCode trino_error_code(const std::exception& e);

/// The `error` object of a response: message (prefixed with "line L:C: " as Trino does when the error has a
/// position), errorCode, errorName, errorType, errorLocation and failureInfo. `code` replaces the derived one.
nlohmann::json trino_error_json(const std::exception& e, const TrinoErrorCode* code = nullptr,
                                bool with_location = true);

/// The `error` object of a query cancelled by its client.
nlohmann::json trino_cancelled_error_json();

}  // namespace kestrel::server::trino
