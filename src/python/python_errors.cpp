#include "python/python_errors.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

namespace nb = nanobind;

namespace kestrel::python {

namespace {

/// The category as kestrel.exceptions names it.
const char* category_key(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::kSyntax: return "syntax";
    case ErrorCategory::kBinder: return "binder";
    case ErrorCategory::kInvalidInput: return "invalid_input";
    case ErrorCategory::kNotImplemented: return "not_implemented";
    case ErrorCategory::kResourceExhausted: return "resource_exhausted";
    case ErrorCategory::kCancelled: return "cancelled";
    case ErrorCategory::kIo: return "io";
    case ErrorCategory::kInternal: return "internal";
  }
  return "internal";
}

/// Sets the Python exception made by kestrel.exceptions._from_engine from the parts of an error.
void set_python_error(const char* category, const std::string& code, const std::string& message,
                      const std::string& text, const std::optional<SourcePosition>& position) {
  nb::object make = nb::module_::import_("kestrel.exceptions").attr("_from_engine");
  nb::object line = nb::none(), column = nb::none(), offset = nb::none();
  if (position) {
    line = nb::int_(position->line);
    column = nb::int_(position->column);
    offset = nb::int_(position->offset);
  }
  nb::object exception = make(category, code, message, text, line, column, offset);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    set_python_error(category_key(e.category()), e.code(), e.message(), format_error(e), e.position());
  }
  // Anything else goes on to nanobind's own translators.
}

}  // namespace

void raise_error(const Error& error, std::string_view statement) {
  set_python_error(category_key(error.category()), error.code(), error.message(),
                   format_error(error, std::string(statement)), error.position());
  throw nb::python_error();
}

void register_error_translator() { nb::register_exception_translator(translate); }

}  // namespace kestrel::python
