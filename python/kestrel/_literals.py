"""Parameter values as SQL literals. The engine puts each literal in place of its parameter before parsing
(src/main/statement_parameters.hpp), so a parameter binds exactly as the literal would: a str compared with a DATE
column is read as a date, an int is INTEGER or BIGINT as its size says."""

from __future__ import annotations

import datetime
import decimal
import math
import numbers

from . import exceptions
from .types import Interval


def _number(text: str) -> str:
    # A negative number in parentheses: after a '-' in the statement, "--5" would start a comment.
    return f"({text})" if text.startswith("-") else text


def _string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _timestamp(value: datetime.datetime) -> str:
    if value.tzinfo is not None:
        # TIMESTAMP has no time zone: an aware value becomes its UTC time.
        value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return f"TIMESTAMP '{value.isoformat(sep=' ', timespec='microseconds')}'"


def _interval(months: int, days: int, microseconds: int) -> str:
    return f"CAST('{months} mon {days} days {microseconds} us' AS INTERVAL)"


def to_sql_literal(value: object) -> str:
    """The SQL literal for one parameter value; ProgrammingError for a value of a type Kestrel cannot take."""
    if value is None:
        return "NULL"
    if isinstance(value, bool) or type(value).__name__ == "bool_":  # numpy.bool_ is no bool
        return "TRUE" if value else "FALSE"
    if isinstance(value, numbers.Integral):
        return _number(str(int(value)))
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise exceptions.ProgrammingError(f"a DECIMAL parameter cannot be {value}")
        text = format(value, "f")
        # A point makes it a DECIMAL literal even without a fraction: "100." is DECIMAL(3,0), "100" an INTEGER.
        return _number(text if "." in text else text + ".")
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return "CAST('NaN' AS DOUBLE)"
        if math.isinf(v):
            return "CAST('Infinity' AS DOUBLE)" if v > 0 else "CAST('-Infinity' AS DOUBLE)"
        text = repr(v)
        # An exponent makes it a DOUBLE literal; without one, 1.5 would be DECIMAL(2,1).
        return _number(text if "e" in text else text + "e0")
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.datetime):
        return _timestamp(value)
    if isinstance(value, datetime.date):
        return f"DATE '{value.isoformat()}'"
    if isinstance(value, datetime.timedelta):
        return _interval(0, value.days, value.seconds * 1_000_000 + value.microseconds)
    if isinstance(value, Interval):
        return _interval(value.months, value.days, value.microseconds)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise exceptions.NotSupportedError("Kestrel has no binary type: a bytes parameter cannot be used")
    raise exceptions.ProgrammingError(f"a parameter of type {type(value).__name__} is not supported "
                                      "(None, bool, int, float, Decimal, str, date, datetime, timedelta, Interval)")
