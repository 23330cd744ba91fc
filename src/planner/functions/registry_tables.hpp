#pragma once
/// The per-family tables of the function registry (internal to planner/functions) and the shorthands that build
/// their entries.

#include "planner/functions/function_registry.hpp"

namespace kestrel::plan::registry {

inline constexpr size_t kVariadic = static_cast<size_t>(-1);

/// A scalar function `name` of `f` taking `min_args`..`max_args` arguments.
constexpr FunctionEntry scalar(std::string_view name, ScalarFunction f, size_t min_args, size_t max_args,
                               FunctionDoc doc) {
  return FunctionEntry{name, FunctionKind::kScalar, f, min_args, max_args, {}, doc};
}

/// An operator (documented in the operators section).
constexpr FunctionEntry op(std::string_view name, ScalarFunction f, size_t min_args, size_t max_args, FunctionDoc doc) {
  return FunctionEntry{name, FunctionKind::kOperator, f, min_args, max_args, {}, doc};
}

/// Another name of the scalar function or operator `of`.
constexpr FunctionEntry alias(std::string_view name, std::string_view of, ScalarFunction f, size_t min_args,
                              size_t max_args) {
  return FunctionEntry{name, FunctionKind::kScalar, f, min_args, max_args, of, {}};
}

/// A name the binder rewrites into another expression.
constexpr FunctionEntry rewrite(std::string_view name, FunctionDoc doc) {
  return FunctionEntry{name, FunctionKind::kRewrite, ScalarFunction::kAdd, 0, 0, {}, doc};
}

/// Another name of the rewritten function `of`.
constexpr FunctionEntry rewrite_alias(std::string_view name, std::string_view of) {
  return FunctionEntry{name, FunctionKind::kRewrite, ScalarFunction::kAdd, 0, 0, of, {}};
}

/// An aggregate or window function (documentation only).
constexpr FunctionEntry aggregate(std::string_view name, FunctionDoc doc) {
  return FunctionEntry{name, FunctionKind::kAggregate, ScalarFunction::kAdd, 0, 0, {}, doc};
}
constexpr FunctionEntry aggregate_alias(std::string_view name, std::string_view of) {
  return FunctionEntry{name, FunctionKind::kAggregate, ScalarFunction::kAdd, 0, 0, of, {}};
}
constexpr FunctionEntry window(std::string_view name, FunctionDoc doc) {
  return FunctionEntry{name, FunctionKind::kWindow, ScalarFunction::kAdd, 0, 0, {}, doc};
}

// The tables, one per file.
std::span<const FunctionEntry> math_functions();        // registry_math.cpp
std::span<const FunctionEntry> string_functions();      // registry_strings.cpp
std::span<const FunctionEntry> regexp_functions();      // registry_strings.cpp
std::span<const FunctionEntry> url_functions();         // registry_strings.cpp
std::span<const FunctionEntry> json_functions();        // registry_strings.cpp
std::span<const FunctionEntry> binary_functions();      // registry_binary.cpp
std::span<const FunctionEntry> array_functions();       // registry_arrays.cpp (with the two below)
std::span<const FunctionEntry> array_more_functions();  // registry_arrays_more.cpp
std::span<const FunctionEntry> map_functions();         // registry_maps.cpp
std::span<const FunctionEntry> datetime_functions();    // registry_datetime.cpp
std::span<const FunctionEntry> conditional_functions(); // registry_other.cpp
std::span<const FunctionEntry> session_functions();     // registry_other.cpp
std::span<const FunctionEntry> operators();             // registry_other.cpp
std::span<const FunctionEntry> aggregate_functions();   // registry_aggregates.cpp
std::span<const FunctionEntry> window_functions();      // registry_aggregates.cpp

}  // namespace kestrel::plan::registry
