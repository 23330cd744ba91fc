"""Values and type objects of the DB-API (PEP 249): the Interval that INTERVAL values become, the type objects that a
cursor description's type codes compare equal to, and the constructors of parameter values."""

from __future__ import annotations

import datetime
import time
from typing import NamedTuple


class Interval(NamedTuple):
    """An INTERVAL value: months, days and microseconds, independent of each other as in SQL (a month is not a fixed
    number of days)."""

    months: int
    days: int
    microseconds: int

    def to_timedelta(self) -> datetime.timedelta:
        """The interval as a timedelta; ValueError when it has months, which a timedelta cannot hold."""
        if self.months:
            raise ValueError(f"an interval of {self.months} months has no fixed length")
        return datetime.timedelta(days=self.days, microseconds=self.microseconds)


class DBAPITypeObject:
    """Compares equal to the type codes (SQL type names, such as ``DECIMAL(15,2)``) of the types it stands for."""

    def __init__(self, name: str, *types: str):
        self.name = name
        self.types = frozenset(types)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DBAPITypeObject):
            return self.types == other.types
        if isinstance(other, str):
            return other.split("(", 1)[0].strip().upper() in self.types
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.types)

    def __repr__(self) -> str:
        return f"kestrel.{self.name}"


STRING = DBAPITypeObject("STRING", "VARCHAR")
BINARY = DBAPITypeObject("BINARY")  # Kestrel has no binary type
NUMBER = DBAPITypeObject("NUMBER", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE", "DECIMAL")
DATETIME = DBAPITypeObject("DATETIME", "DATE", "TIMESTAMP", "INTERVAL")
ROWID = DBAPITypeObject("ROWID")
BOOLEAN = DBAPITypeObject("BOOLEAN", "BOOLEAN")

Date = datetime.date
Time = datetime.time
Timestamp = datetime.datetime
Binary = bytes


def DateFromTicks(ticks: float) -> datetime.date:  # noqa: N802 - PEP 249 names
    return Date(*time.localtime(ticks)[:3])


def TimeFromTicks(ticks: float) -> datetime.time:  # noqa: N802
    return Time(*time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks: float) -> datetime.datetime:  # noqa: N802
    return Timestamp(*time.localtime(ticks)[:6])
