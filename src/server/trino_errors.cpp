#include "server/trino_errors.hpp"

#include <string_view>

#include "common/error.hpp"

namespace kestrel::server::trino {

namespace {

constexpr TrinoErrorCode kGenericUserError{0, "GENERIC_USER_ERROR", "USER_ERROR"};
constexpr TrinoErrorCode kSyntaxError{1, "SYNTAX_ERROR", "USER_ERROR"};
constexpr TrinoErrorCode kGenericInternalError{65536, "GENERIC_INTERNAL_ERROR", "INTERNAL_ERROR"};
constexpr TrinoErrorCode kInsufficientResources{131072, "GENERIC_INSUFFICIENT_RESOURCES", "INSUFFICIENT_RESOURCES"};

/// Kestrel's SQLSTATE codes that have a Trino error code of their own.
struct SqlStateCode {
  std::string_view sqlstate;
  TrinoErrorCode code;
};
constexpr SqlStateCode kBySqlState[] = {
    {"42601", kSyntaxError},
    {"42P01", {46, "TABLE_NOT_FOUND", "USER_ERROR"}},
    {"42703", {47, "COLUMN_NOT_FOUND", "USER_ERROR"}},
    {"42883", {6, "FUNCTION_NOT_FOUND", "USER_ERROR"}},
    {"42P07", {12, "ALREADY_EXISTS", "USER_ERROR"}},
    {"22012", {8, "DIVISION_BY_ZERO", "USER_ERROR"}},
    {"21000", {28, "SUBQUERY_MULTIPLE_ROWS", "USER_ERROR"}},
    {"57014", kUserCanceled},
    {"0A000", {13, "NOT_SUPPORTED", "USER_ERROR"}},
};

nlohmann::json error_object(const std::string& message, const TrinoErrorCode& code, const char* exception_type) {
  return {{"message", message},
          {"errorCode", code.code},
          {"errorName", code.name},
          {"errorType", code.type},
          {"failureInfo",
           {{"type", exception_type},
            {"message", message},
            {"suppressed", nlohmann::json::array()},
            {"stack", nlohmann::json::array()}}}};
}

}  // namespace

TrinoErrorCode trino_error_code(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  if (error == nullptr) return kGenericInternalError;
  for (const auto& entry : kBySqlState) {
    if (entry.sqlstate == error->code()) return entry.code;
  }
  switch (error->category()) {
    case ErrorCategory::kSyntax:
      return kSyntaxError;
    case ErrorCategory::kBinder:
    case ErrorCategory::kInvalidInput:
    case ErrorCategory::kNotImplemented:
      return kGenericUserError;
    case ErrorCategory::kCancelled:
      return kUserCanceled;
    case ErrorCategory::kResourceExhausted:
      return kInsufficientResources;
    case ErrorCategory::kIo:
    case ErrorCategory::kInternal:
      return kGenericInternalError;
  }
  return kGenericInternalError;
}

nlohmann::json trino_error_json(const std::exception& e, const TrinoErrorCode* code, bool with_location) {
  TrinoErrorCode chosen = code != nullptr ? *code : trino_error_code(e);
  const auto* error = dynamic_cast<const Error*>(&e);
  if (error == nullptr) return error_object(e.what(), chosen, "std::exception");
  std::string type = "kestrel.";
  for (const char* c = category_name(error->category()); *c != 0; ++c) {
    if (*c != ' ') type += *c;  // "Syntax Error" -> kestrel.SyntaxError
  }
  if (!with_location || !error->position()) return error_object(error->message(), chosen, type.c_str());
  const SourcePosition& at = *error->position();
  std::string message = "line " + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + error->message();
  nlohmann::json out = error_object(message, chosen, type.c_str());
  nlohmann::json location = {{"lineNumber", at.line}, {"columnNumber", at.column}};
  out["errorLocation"] = location;
  out["failureInfo"]["errorLocation"] = location;
  return out;
}

nlohmann::json trino_cancelled_error_json() {
  return error_object("Query was canceled", kUserCanceled, "kestrel.Cancelled");
}

}  // namespace kestrel::server::trino
