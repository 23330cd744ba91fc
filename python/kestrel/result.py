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
    Results live in host memory, except those of ``con.sql(..., keep_on_gpu=True)`` run on the GPU, whose rows stay
    in GPU memory (``memory == "device"``): ``column()`` hands their numeric columns to CuPy, PyTorch and other
    DLPack / CUDA Array Interface consumers without a copy, and the row and Arrow views copy them to the host once.

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

    @property
    def memory(self) -> str:
        """Where the rows are: ``"device"`` (GPU memory) or ``"host"``."""
        return self._native.memory

    def column(self, key: int | str) -> "Column":
        """One column as an array for DLPack (``numpy.from_dlpack``, ``cupy.from_dlpack``, ``torch.from_dlpack``)
        and the array interfaces (``__cuda_array_interface__`` for device rows, ``__array_interface__`` for host
        rows). Shared with the result, not copied, when the result is one batch (else concatenated once in the
        same memory). BOOLEAN, integers, REAL, DOUBLE, DATE (int32 days since 1970-01-01) and TIMESTAMP (int64
        microseconds) without NULLs; other types and NULLs raise TypeError."""
        if isinstance(key, str):
            names = self.columns
            if key not in names:
                raise KeyError(f"no column {key!r} (columns: {', '.join(names)})")
            key = names.index(key)
        if not 0 <= key < len(self._columns):
            raise IndexError(f"column {key} out of range ({len(self._columns)} columns)")
        return Column(self._columns[key][0], self._native.column_array(key), self._native.memory == "device")

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


class Column:
    """One result column as an array (see ``Result.column``): ``__dlpack__`` / ``__dlpack_device__``, and
    ``__cuda_array_interface__`` (device rows) or ``__array_interface__`` (host rows). It keeps the result's memory
    (and, for device rows, the database's GPU memory pool) alive while it exists."""

    __slots__ = ("name", "_array", "_address", "_rows", "_typestr", "_on_device")

    def __init__(self, name: str, native: tuple, on_device: bool):
        self.name = name
        self._array, self._address, self._rows, self._typestr = native
        self._on_device = on_device

    @property
    def shape(self) -> tuple[int]:
        return (self._rows,)

    @property
    def typestr(self) -> str:
        """The element type in the array interfaces' spelling: ``<i8``, ``<f8``, ``|b1``, ..."""
        return self._typestr

    @property
    def on_device(self) -> bool:
        """Whether the values are in GPU memory."""
        return self._on_device

    def __len__(self) -> int:
        return self._rows

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    def _interface(self) -> dict:
        return {"shape": (self._rows,), "typestr": self._typestr, "data": (self._address, True), "version": 3,
                "strides": None}

    @property
    def __cuda_array_interface__(self) -> dict:
        if not self._on_device:
            raise AttributeError("the column is in host memory: use __array_interface__ or DLPack")
        return self._interface()

    @property
    def __array_interface__(self) -> dict:
        if self._on_device:
            raise AttributeError("the column is in GPU memory: use __cuda_array_interface__ or DLPack")
        return self._interface()

    def __repr__(self) -> str:
        where = "GPU" if self._on_device else "host"
        return f"<kestrel.Column {self.name!r}: {self._rows} x {self._typestr} in {where} memory>"
