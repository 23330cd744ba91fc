"""The result of a statement: its rows in Kestrel's host memory, handed out as Arrow without copying, as pandas or
polars frames, or as tuples of Python values."""

from __future__ import annotations

from typing import Any, Iterator


def _require(module: str, purpose: str):
    try:
        return __import__(module)
    except ImportError as e:
        raise ImportError(f"{purpose} needs {module} (pip install {module})") from e


class Result:
    """The rows (or status message) of one statement, held in Kestrel's host memory.

    The result implements the Arrow PyCapsule interface (``__arrow_c_stream__``), so ``pyarrow.table(result)``,
    ``polars.DataFrame(result)`` and DuckDB (``duckdb.sql("SELECT * FROM result")``) read it directly. Arrow
    consumers share the result's buffers: no value is copied, except BOOLEAN (a byte per value in Kestrel, a bit in
    Arrow), INTERVAL (microseconds become Arrow's nanoseconds) and dictionary-encoded strings, which are decoded.
    Results always live in host memory; GPU queries copy their final rows to the host.

    Types in Arrow: BOOLEAN bool, TINYINT..BIGINT int8..int64, REAL float32, DOUBLE float64, DECIMAL(p,s)
    decimal64 up to 18 digits and decimal128 above, DATE date32, TIMESTAMP timestamp[us], INTERVAL
    month_day_nano_interval, VARCHAR large_string.
    """

    __slots__ = ("_native", "_columns")

    def __init__(self, native):
        self._native = native
        self._columns = native.columns()

    # -- shape --------------------------------------------------------------------------------------------------

    @property
    def columns(self) -> list[str]:
        """The column names."""
        return [c[0] for c in self._columns]

    @property
    def types(self) -> list[str]:
        """The SQL types of the columns: ``INTEGER``, ``DECIMAL(15,2)``, ``VARCHAR``, ..."""
        return [c[1] for c in self._columns]

    @property
    def description(self) -> list[tuple] | None:
        """PEP 249's description: (name, type_code, display_size, internal_size, precision, scale, null_ok) per
        column, the type code being the SQL type (it compares equal to kestrel.NUMBER, STRING, DATETIME, ...);
        None for a statement without rows."""
        if not self._native.has_rows:
            return None
        return [(name, sql_type, None, None, precision, scale, nullable)
                for name, sql_type, _, precision, scale, nullable in self._columns]

    @property
    def has_rows(self) -> bool:
        """Whether the statement returned rows (a query) rather than a status message only."""
        return self._native.has_rows

    @property
    def message(self) -> str:
        """The status of a statement without rows: ``CREATE TABLE``, ``INSERT 0 3``, ... (empty for queries)."""
        return self._native.message

    @property
    def elapsed_ms(self) -> float:
        """How long the statement ran, in milliseconds."""
        return self._native.elapsed_ms

    @property
    def row_count(self) -> int:
        return self._native.row_count

    def __len__(self) -> int:
        return self._native.row_count

    # -- rows as Python values ----------------------------------------------------------------------------------

    def fetchall(self) -> list[tuple]:
        """Every row as a tuple of Python values (None, bool, int, float, Decimal, str, date, datetime,
        kestrel.Interval)."""
        return self._native.rows(0, self._native.row_count)

    def rows(self, begin: int, end: int) -> list[tuple]:
        """Rows [begin, end) as tuples."""
        return self._native.rows(max(begin, 0), max(end, 0))

    def __iter__(self) -> Iterator[tuple]:
        step = 10_000
        for begin in range(0, self._native.row_count, step):
            yield from self._native.rows(begin, begin + step)

    # -- Arrow and data frames ----------------------------------------------------------------------------------

    def __arrow_c_stream__(self, requested_schema: Any = None):
        """The Arrow C stream of the result (PyCapsule ``arrow_array_stream``); it shares the result's buffers."""
        return self._native.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self):
        return self._native.__arrow_c_schema__()

    def record_batch_reader(self):
        """A pyarrow.RecordBatchReader over the result's batches."""
        pa = _require("pyarrow", "Result.record_batch_reader()")
        return pa.RecordBatchReader.from_stream(self)

    def arrow(self):
        """The result as a pyarrow.Table, one chunk per Kestrel batch, sharing Kestrel's buffers (see the class)."""
        return self.record_batch_reader().read_all()

    def df(self):
        """The result as a pandas.DataFrame (through pyarrow; pandas copies into its own layout)."""
        _require("pandas", "Result.df()")
        return self.arrow().to_pandas()

    def pl(self):
        """The result as a polars.DataFrame (polars reads the Arrow stream)."""
        pl = _require("polars", "Result.pl()")
        return pl.DataFrame(self)

    def __repr__(self) -> str:
        if not self._native.has_rows:
            return f"<kestrel.Result {self.message!r}>"
        columns = ", ".join(f"{n} {t}" for n, t in zip(self.columns, self.types))
        return f"<kestrel.Result {self.row_count} rows: {columns}>"
