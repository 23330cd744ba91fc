#pragma once
/// Kestrel errors as the Python exceptions of kestrel.exceptions (a PEP 249 hierarchy): the class is chosen there
/// from the error's category and SQLSTATE; the exception carries the message, the SQLSTATE and the position.

#include <string_view>

#include "common/error.hpp"

namespace kestrel::python {

/// Sets the Python exception for `error`, whose position is already one in `statement` (the text the caller wrote),
/// and throws nanobind::python_error. Needs the GIL.
[[noreturn]] void raise_error(const Error& error, std::string_view statement);

/// Installs the translation of kestrel::Error thrown out of a bound function (positions as they are, no statement
/// text); other C++ exceptions keep nanobind's translation.
void register_error_translator();

}  // namespace kestrel::python
