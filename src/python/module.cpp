// kestrel._kestrel: the native half of the Python module. The pure-Python package `kestrel` (python/kestrel/) builds
// the public API (connect, Connection, Result, the DB-API cursor, the exceptions) on these two classes.

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include "main/statement_parameters.hpp"
#include "python/native_connection.hpp"
#include "python/native_result.hpp"
#include "python/python_errors.hpp"

namespace nb = nanobind;
using namespace nb::literals;

NB_MODULE(_kestrel, m) {
  using kestrel::python::NativeConnection;
  using kestrel::python::NativeResult;
  m.doc() = "Kestrel's engine for the kestrel package; use kestrel.connect() rather than this module.";
  kestrel::python::register_error_translator();

  nb::class_<NativeResult>(m, "NativeResult", "The host batches of one statement's result.")
      .def_prop_ro("has_rows", &NativeResult::has_rows)
      .def_prop_ro("message", &NativeResult::message)
      .def_prop_ro("elapsed_ms", &NativeResult::elapsed_ms)
      .def_prop_ro("row_count", &NativeResult::row_count)
      .def_prop_ro("batch_count", &NativeResult::batch_count)
      .def("columns", &NativeResult::columns,
           "(name, SQL type, type name, precision, scale, nullable) of each column.")
      .def("rows", &NativeResult::rows, "begin"_a, "end"_a, "Rows [begin, end) as a list of tuples.")
      .def("__arrow_c_stream__", &NativeResult::arrow_c_stream, "requested_schema"_a = nb::none(),
           "The result as an Arrow C stream (PyCapsule 'arrow_array_stream'); buffers are shared, not copied.")
      .def("__arrow_c_schema__", &NativeResult::arrow_c_schema, "The result's schema (PyCapsule 'arrow_schema').")
      .def("buffer_addresses", &NativeResult::buffer_addresses, "batch"_a, "column"_a,
           "Addresses of the buffers of one column of one batch (for tests of zero-copy exports).")
      .def_prop_ro("memory", &NativeResult::memory, "'device' when the rows are in GPU memory, else 'host'.")
      .def("column_array", &NativeResult::column_array, "column"_a,
           "(array with __dlpack__, data address) of one column without NULLs.");

  nb::class_<NativeConnection>(m, "NativeConnection", "A database and a session on it.")
      .def(nb::init<const std::vector<std::string>&, const std::string&, int, bool>(), "data"_a, "device"_a,
           "threads"_a, "gpu_fallback"_a)
      .def("execute", &NativeConnection::execute, "sql"_a, "literals"_a = nb::none(), "device_rows"_a = false,
           "Runs a statement with parameters given as SQL literals, or a script; returns the last result.")
      .def("register_arrow", &NativeConnection::register_arrow, "name"_a, "stream"_a, "batch_rows"_a,
           "Copies an Arrow C stream (PyCapsule) into the in-memory table `name`; returns its rows.")
      .def("unregister", &NativeConnection::unregister, "name"_a)
      .def("cancel", &NativeConnection::cancel)
      .def("close", &NativeConnection::close)
      .def_prop_ro("closed", &NativeConnection::closed)
      .def_prop_ro("device", &NativeConnection::device)
      .def_prop_ro("device_note", &NativeConnection::device_note);

  m.def(
      "count_parameters", [](const std::string& sql) { return kestrel::count_parameters(sql); }, "sql"_a,
      "The number of parameters (? or $n) of a statement.");
  m.attr("with_cuda") = static_cast<bool>(KESTREL_WITH_CUDA);
}
