#pragma once
/// Query results as plain Python values, for the DB-API fetch methods:
///   NULL None, BOOLEAN bool, TINYINT..BIGINT int, REAL and DOUBLE float, DECIMAL decimal.Decimal,
///   DATE datetime.date, TIMESTAMP datetime.datetime (naive), INTERVAL kestrel.Interval, VARCHAR str (bytes that are
///   not UTF-8 kept as surrogate escapes).

#include <nanobind/nanobind.h>

#include <vector>

#include "vector/batch.hpp"

namespace kestrel::python {

/// Rows [begin, end) of `batches` (host, all of `schema`) as a list of tuples. Needs the GIL.
nanobind::list rows_to_python(const Schema& schema, const std::vector<Batch>& batches, size_t begin, size_t end);

}  // namespace kestrel::python
