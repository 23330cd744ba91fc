"""Kestrel, a SQL engine for NVIDIA GPUs (and CPUs), embedded in Python.

    import kestrel
    con = kestrel.connect("data/tpch-sf1")           # every sub-folder or file becomes a table
    con.sql("SELECT count(*) FROM lineitem").fetchall()
    table = con.sql("SELECT * FROM nation").arrow()   # a pyarrow.Table sharing Kestrel's buffers
    con.register("people", table)                     # any Arrow stream as an in-memory table
    cur = con.cursor()                                # DB-API 2.0: qmark parameters
    cur.execute("SELECT n_name FROM nation WHERE n_regionkey = ?", [1]).fetchall()

Results implement the Arrow PyCapsule interface, so pyarrow, polars and DuckDB read them directly.
"""

from . import _kestrel
from .connection import Connection, Cursor, connect
from .exceptions import (BinderError, ConstraintError, DatabaseError, DataError, Error, FeatureNotSupportedError,
                         FileIOError, IntegrityError, InterfaceError, InternalError, InvalidInputError,
                         NotSupportedError, OperationalError, ProgrammingError, QueryCancelledError,
                         ResourceExhaustedError, SQLSyntaxError, Warning)
from .result import Column, Result
from .types import (BINARY, BOOLEAN, DATETIME, NUMBER, ROWID, STRING, Binary, Date, DateFromTicks, Interval, Time,
                    TimeFromTicks, Timestamp, TimestampFromTicks)

__version__ = "0.1.0"

#: PEP 249 module globals.
apilevel = "2.0"
threadsafety = 2  # threads may share the module and connections (statements of a connection run one at a time)
paramstyle = "qmark"

__all__ = [
    "connect", "Connection", "Cursor", "Result", "Interval",
    "apilevel", "threadsafety", "paramstyle",
    "Warning", "Error", "InterfaceError", "DatabaseError", "DataError", "OperationalError", "IntegrityError",
    "InternalError", "ProgrammingError", "NotSupportedError", "SQLSyntaxError", "BinderError", "InvalidInputError",
    "ConstraintError", "FeatureNotSupportedError", "ResourceExhaustedError", "QueryCancelledError", "FileIOError",
    "STRING", "BINARY", "NUMBER", "DATETIME", "ROWID", "BOOLEAN",
    "Date", "Time", "Timestamp", "DateFromTicks", "TimeFromTicks", "TimestampFromTicks", "Binary",
]
