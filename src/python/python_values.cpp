#include "python/python_values.hpp"

// datetime.h is CPython's C API for the datetime module; PyDateTime_IMPORT fills this file's PyDateTimeAPI.
#include <datetime.h>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "common/temporal.hpp"
#include "common/time_zone.hpp"

namespace nb = nanobind;

namespace kestrel::python {

namespace {

/// Python objects the conversion calls, looked up once per call of rows_to_python.
struct Converters {
  nb::object decimal;   ///< decimal.Decimal
  nb::object interval;  ///< kestrel.types.Interval
};

nb::object steal_or_raise(PyObject* p) {
  if (p == nullptr) throw nb::python_error();
  return nb::steal(p);
}

nb::object date_object(int32_t days) {
  const CivilDate d = civil_from_days(days);
  return steal_or_raise(PyDate_FromDate(d.year, d.month, d.day));
}

nb::object timestamp_object(int64_t micros) {
  const int64_t days = micros >= 0 ? micros / kMicrosPerDay : -((-micros + kMicrosPerDay - 1) / kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  const CivilDate d = civil_from_days(static_cast<int32_t>(days));
  const int us = static_cast<int>(rest % 1'000'000);
  rest /= 1'000'000;
  return steal_or_raise(PyDateTime_FromDateAndTime(d.year, d.month, d.day, static_cast<int>(rest / 3600),
                                                   static_cast<int>(rest / 60 % 60), static_cast<int>(rest % 60), us));
}

nb::object value_object(const Column& column, size_t row, const Converters& py);

/// Value `row` of `column` (host) as a Python object, None when NULL.
nb::object nullable_object(const Column& column, size_t row, const Converters& py) {
  return column.is_valid(row) ? value_object(column, row, py) : nb::none();
}

/// ARRAY as a list, MAP as a dict, ROW as a tuple.
nb::object nested_object(const Column& column, size_t row, const Converters& py) {
  const LogicalType& type = column.type();
  if (type.id() == TypeId::kRow) {
    nb::object tuple = steal_or_raise(PyTuple_New(static_cast<Py_ssize_t>(column.children().size())));
    for (size_t f = 0; f < column.children().size(); ++f) {
      PyTuple_SET_ITEM(tuple.ptr(), static_cast<Py_ssize_t>(f), nullable_object(*column.child(f), row, py).release().ptr());
    }
    return tuple;
  }
  const int64_t* off = column.list_offsets();
  const Column& child = *column.child(0);
  if (type.id() == TypeId::kMap) {
    nb::dict out;
    for (int64_t i = off[row]; i < off[row + 1]; ++i) {
      const auto e = static_cast<size_t>(i);
      out[nullable_object(*child.child(0), e, py)] = nullable_object(*child.child(1), e, py);
    }
    return out;
  }
  nb::list out;
  for (int64_t i = off[row]; i < off[row + 1]; ++i) out.append(nullable_object(child, static_cast<size_t>(i), py));
  return out;
}

/// Value `row` of `column` (host, valid) as a Python object.
nb::object value_object(const Column& column, size_t row, const Converters& py) {
  const LogicalType& type = column.type();
  switch (type.id()) {
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: return nested_object(column, row, py);
    case TypeId::kNull: return nb::none();
    case TypeId::kBoolean: return nb::bool_(column.data<uint8_t>()[row] != 0);
    case TypeId::kTinyInt: return steal_or_raise(PyLong_FromLong(column.data<int8_t>()[row]));
    case TypeId::kSmallInt: return steal_or_raise(PyLong_FromLong(column.data<int16_t>()[row]));
    case TypeId::kInteger: return steal_or_raise(PyLong_FromLong(column.data<int32_t>()[row]));
    case TypeId::kBigInt: return steal_or_raise(PyLong_FromLongLong(column.data<int64_t>()[row]));
    case TypeId::kReal: return steal_or_raise(PyFloat_FromDouble(column.data<float>()[row]));
    case TypeId::kDouble: return steal_or_raise(PyFloat_FromDouble(column.data<double>()[row]));
    case TypeId::kDecimal: {
      const int128_t v = type.is_wide_decimal() ? column.data<int128_t>()[row] : column.data<int64_t>()[row];
      return py.decimal(nb::str(format_decimal(v, type.scale()).c_str()));
    }
    case TypeId::kDate: return date_object(column.data<int32_t>()[row]);
    case TypeId::kTimestamp: return timestamp_object(column.data<int64_t>()[row]);
    case TypeId::kTimestampTz: {
      // An aware datetime: the wall clock of the value's zone with that zone's offset at the instant.
      const TimestampTz& v = column.data<TimestampTz>()[row];
      const int32_t offset = tz::offset_seconds(v.zone, v.micros);
      nb::object naive = timestamp_object(v.micros + int64_t{offset} * kMicrosPerSecond);
      nb::object delta = steal_or_raise(PyDelta_FromDSU(0, offset, 0));
      nb::object zone = steal_or_raise(PyTimeZone_FromOffset(delta.ptr()));
      return naive.attr("replace")(nb::arg("tzinfo") = zone);
    }
    case TypeId::kInterval: {
      const Interval& v = column.data<Interval>()[row];
      return py.interval(v.months, v.days, v.micros);
    }
    case TypeId::kVarchar: {
      std::string_view s = column.string_at(row);
      return steal_or_raise(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape"));
    }
    case TypeId::kJson: {  // the JSON text, as a str
      std::string_view s = column.string_at(row);
      return steal_or_raise(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "strict"));
    }
    case TypeId::kVarbinary: {
      std::string_view s = column.string_at(row);
      return steal_or_raise(PyBytes_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size())));
    }
  }
  throw InternalError("Python value of type " + type.to_string());
}

}  // namespace

nb::list rows_to_python(const Schema& schema, const std::vector<Batch>& batches, size_t begin, size_t end) {
  if (PyDateTimeAPI == nullptr) {
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == nullptr) throw nb::python_error();
  }
  Converters py{nb::module_::import_("decimal").attr("Decimal"),
                nb::module_::import_("kestrel.types").attr("Interval")};
  nb::list out;
  const size_t columns = schema.size();
  size_t first = 0;  // the result row of the batch's first row
  for (const Batch& batch : batches) {
    const size_t last = first + batch.num_rows();
    for (size_t r = std::max(begin, first); r < std::min(end, last); ++r) {
      nb::object row = steal_or_raise(PyTuple_New(static_cast<Py_ssize_t>(columns)));
      for (size_t c = 0; c < columns; ++c) {
        const Column& column = *batch.column(c);
        nb::object v = column.is_valid(r - first) && schema.field(c).type.id() != TypeId::kNull
                           ? value_object(column, r - first, py)
                           : nb::none();
        PyTuple_SET_ITEM(row.ptr(), static_cast<Py_ssize_t>(c), v.release().ptr());
      }
      out.append(row);
    }
    first = last;
    if (first >= end) break;
  }
  return out;
}

}  // namespace kestrel::python
