"""Connections and cursors: the DuckDB-like API (Connection.sql returning a Result) and the DB-API 2.0 (PEP 249) one
(Connection.cursor, Cursor.execute/fetch*) over the same engine."""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, Sequence

from . import _kestrel, exceptions
from ._literals import to_sql_literal
from .result import Result

#: Rows per batch of a table made by Connection.register: the morsel the engine's drivers share out.
DEFAULT_BATCH_ROWS = 122_880


def connect(data: str | os.PathLike | Sequence[str | os.PathLike] | None = None, device: str = "auto", *,
            threads: int = 0, gpu_fallback: bool = True) -> "Connection":
    """Opens a Kestrel database and returns a connection to it.

    data: a folder (each sub-folder or Parquet/CSV/kcol file in it becomes a table named after it), a single file
        (one table, named after the file), or a list of these. ``CREATE TABLE ... AS`` writes its table as a file
        into the first folder given; without folders, tables live in memory.
    device: ``"auto"`` (the GPU when one is usable, else the CPU), ``"cpu"`` or ``"gpu"`` (an error without a GPU).
    threads: worker threads of CPU execution; 0 uses every core.
    gpu_fallback: with the GPU, run operators the GPU cannot run on the CPU (True) or fail (False).
    """
    if data is None:
        paths: list[str] = []
    elif isinstance(data, (str, os.PathLike)):
        paths = [os.fspath(data)]
    else:
        paths = [os.fspath(p) for p in data]
    return Connection(_kestrel.NativeConnection(paths, device, threads, gpu_fallback))


def _literals(sql: str, params: Sequence[Any] | None) -> list[str] | None:
    if params is None:
        # A statement with parameters but no values: bind none, so that the error says how many it needs.
        return [] if ("?" in sql or "$" in sql) and _kestrel.count_parameters(sql) > 0 else None
    if isinstance(params, (str, bytes)) or not isinstance(params, Sequence):
        if isinstance(params, dict):
            raise exceptions.ProgrammingError("named parameters are not supported: paramstyle is 'qmark' (?)")
        raise exceptions.ProgrammingError(f"parameters must be a sequence (list or tuple), not {type(params).__name__}")
    return [to_sql_literal(v) for v in params]


class Connection:
    """A connection to a Kestrel database (kestrel.connect). Statements run one at a time; the GIL is released
    while one runs, and Ctrl-C (KeyboardInterrupt) cancels it. A connection may be shared between threads
    (threadsafety 2); its cursors may not."""

    # PEP 249's optional extension: the exception classes as connection attributes.
    Warning = exceptions.Warning
    Error = exceptions.Error
    InterfaceError = exceptions.InterfaceError
    DatabaseError = exceptions.DatabaseError
    DataError = exceptions.DataError
    OperationalError = exceptions.OperationalError
    IntegrityError = exceptions.IntegrityError
    InternalError = exceptions.InternalError
    ProgrammingError = exceptions.ProgrammingError
    NotSupportedError = exceptions.NotSupportedError

    def __init__(self, native):
        self._native = native

    # -- the DuckDB-like API ------------------------------------------------------------------------------------

    def sql(self, query: str, params: Sequence[Any] | None = None, *, keep_on_gpu: bool = False) -> Result:
        """Runs ``query`` and returns its Result. With ``params``, the query is one statement whose ``?`` (or
        ``$1``, ``$2``, ...) parameters take these values; without, it may be several statements separated by
        ``;``, and the result is the last one's. With ``keep_on_gpu``, a query that runs on the GPU leaves its rows
        in GPU memory (``Result.memory == "device"``, ``Result.column()`` for DLPack consumers); on the CPU it
        changes nothing."""
        return Result(self._native.execute(query, _literals(query, params), keep_on_gpu))

    def register(self, name: str, data: Any, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> "Connection":
        """Makes ``data`` the in-memory table ``name`` (replacing a table of that name): a pyarrow Table or
        RecordBatchReader, a polars or pandas DataFrame, a kestrel Result, or anything else with
        ``__arrow_c_stream__``. The rows are copied into Kestrel's memory now, so later changes to ``data`` are not
        seen. Columns of types Kestrel has no counterpart for raise FeatureNotSupportedError naming the column."""
        self._native.register_arrow(name, _arrow_stream(data), batch_rows)
        return self

    def unregister(self, name: str) -> None:
        """Drops the table ``name``; ProgrammingError when there is none."""
        if not self._native.unregister(name):
            raise exceptions.ProgrammingError(f"table '{name}' does not exist")

    def cancel(self) -> None:
        """Asks the statement running on this connection (in another thread) to stop; it then raises
        QueryCancelledError."""
        self._native.cancel()

    @property
    def device(self) -> str:
        """Where queries run: ``"cpu"`` or ``"gpu"``."""
        return self._native.device

    @property
    def device_note(self) -> str:
        """Why the GPU is or is not used."""
        return self._native.device_note

    # -- DB-API 2.0 ---------------------------------------------------------------------------------------------

    def cursor(self) -> "Cursor":
        """A new DB-API cursor on this connection."""
        self._check_open()
        return Cursor(self)

    def execute(self, operation: str, parameters: Sequence[Any] | None = None) -> "Cursor":
        """A new cursor that has run ``operation`` (as Cursor.execute)."""
        return self.cursor().execute(operation, parameters)

    def executemany(self, operation: str, seq_of_parameters: Iterable[Sequence[Any]]) -> "Cursor":
        return self.cursor().executemany(operation, seq_of_parameters)

    def commit(self) -> None:
        """Does nothing: every statement commits as it ends (each changes its table completely or not at all)."""
        self._check_open()

    def rollback(self) -> None:
        """Kestrel has no transactions to roll back."""
        raise exceptions.NotSupportedError("Kestrel has no transactions: every statement commits as it ends")

    def close(self) -> None:
        """Frees the database (its memory, the GPU's pool and table cache). Results already returned stay valid."""
        self._native.close()

    @property
    def closed(self) -> bool:
        return self._native.closed

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._native.closed:
            raise exceptions.InterfaceError("the connection is closed")


def _arrow_stream(data: Any):
    """An Arrow C stream capsule for ``data``."""
    if hasattr(data, "__arrow_c_stream__"):
        return data.__arrow_c_stream__()
    if hasattr(data, "__arrow_c_array__"):
        import pyarrow as pa  # a single record batch: pyarrow makes it a stream

        batch = pa.record_batch(data)
        return pa.RecordBatchReader.from_batches(batch.schema, [batch]).__arrow_c_stream__()
    if type(data).__module__.startswith("pandas"):
        import pyarrow as pa

        return pa.Table.from_pandas(data, preserve_index=False).__arrow_c_stream__()
    raise exceptions.ProgrammingError(f"cannot register a {type(data).__name__}: it has no __arrow_c_stream__ "
                                      "(a pyarrow Table, a polars or pandas DataFrame, a kestrel Result, ...)")


_ROWS_CHANGED = re.compile(r"^(?:INSERT \d+|UPDATE|DELETE|COPY|CREATE TABLE AS) (\d+)$")


class Cursor:
    """A DB-API 2.0 cursor. Results are computed whole when a statement runs; fetch* hands them out in order."""

    arraysize = 1

    def __init__(self, connection: Connection):
        self.connection = connection
        self._result: Result | None = None
        self._position = 0
        self._closed = False
        self.rowcount = -1
        self.lastrowid = None

    @property
    def description(self):
        """(name, type_code, None, None, precision, scale, null_ok) per column of the last result; None when it
        has no rows or nothing ran."""
        return self._result.description if self._result is not None else None

    def execute(self, operation: str, parameters: Sequence[Any] | None = None) -> "Cursor":
        """Runs one statement (``?`` parameters take ``parameters``); without parameters, also a script of
        statements separated by ``;``, whose last result the cursor then holds. Returns the cursor."""
        self._check_open()
        self._result = None
        self.rowcount = -1
        self._result = self.connection.sql(operation, parameters)
        self._position = 0
        self.rowcount = _rowcount(self._result)
        return self

    def executemany(self, operation: str, seq_of_parameters: Iterable[Sequence[Any]]) -> "Cursor":
        """Runs ``operation`` once for each parameter sequence; rowcount adds up the rows each changed."""
        self._check_open()
        total = 0
        for parameters in seq_of_parameters:
            self.execute(operation, parameters)
            total += max(self.rowcount, 0)
        self.rowcount = total
        return self

    def fetchone(self) -> tuple | None:
        rows = self._fetch(1)
        return rows[0] if rows else None

    def fetchmany(self, size: int | None = None) -> list[tuple]:
        return self._fetch(self.arraysize if size is None else size)

    def fetchall(self) -> list[tuple]:
        return self._fetch(None)

    def arrow(self):
        """The last result as a pyarrow.Table (all of its rows, wherever fetch* stand)."""
        return self._require_rows().arrow()

    fetch_arrow_table = arrow

    def df(self):
        """The last result as a pandas.DataFrame."""
        return self._require_rows().df()

    def __arrow_c_stream__(self, requested_schema: Any = None):
        return self._require_rows().__arrow_c_stream__(requested_schema)

    def close(self) -> None:
        self._closed = True
        self._result = None

    def setinputsizes(self, sizes) -> None:
        """Does nothing (PEP 249 allows it)."""

    def setoutputsize(self, size, column=None) -> None:
        """Does nothing (PEP 249 allows it)."""

    def __iter__(self) -> "Cursor":
        return self

    def __next__(self) -> tuple:
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row

    def __enter__(self) -> "Cursor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise exceptions.InterfaceError("the cursor is closed")
        self.connection._check_open()

    def _require_rows(self) -> Result:
        self._check_open()
        if self._result is None or not self._result.has_rows:
            raise exceptions.ProgrammingError("no result rows: execute a query first")
        return self._result

    def _fetch(self, size: int | None) -> list[tuple]:
        result = self._require_rows()
        end = len(result) if size is None else min(len(result), self._position + max(size, 0))
        rows = result.rows(self._position, end)
        self._position = end
        return rows


def _rowcount(result: Result) -> int:
    if result.has_rows:
        return len(result)
    m = _ROWS_CHANGED.match(result.message)
    return int(m.group(1)) if m else -1
