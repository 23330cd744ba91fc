"""The Python module: results as Python values and as Arrow (zero-copy), tables registered from Arrow streams (every
type, both ways), consumers (pandas, DuckDB, polars), the DB-API 2.0 surface, errors and cancellation."""

import datetime
import decimal
import gc
import subprocess
import sys
import textwrap
import threading
import time

import pyarrow as pa
import pytest

from conftest import python_module_dir

D = decimal.Decimal


@pytest.fixture
def con(kestrel):
    connection = kestrel.connect(device="cpu")
    yield connection
    connection.close()


# A table with a column of every Kestrel type, NULLs in each, in two chunks (the second a slice, so its arrays start
# at an offset), as pyarrow builds it and as Kestrel gives it back.
ROUND_TRIP_ROWS = 7


def every_type_table():
    def col(values, type_):
        return pa.array(values, type_)

    columns = {
        "b": col([True, False, None, True, True, False, None], pa.bool_()),
        "i8": col([1, -128, None, 127, 0, 5, 6], pa.int8()),
        "i16": col([1, -32768, None, 32767, 0, 5, 6], pa.int16()),
        "i32": col([1, -2**31, None, 2**31 - 1, 0, 5, 6], pa.int32()),
        "i64": col([1, -2**63, None, 2**63 - 1, 0, 5, 6], pa.int64()),
        "f32": col([1.5, -0.25, None, 3.0e38, 0.0, float("inf"), 6.0], pa.float32()),
        "f64": col([1.5, -0.25, None, 1e308, -0.0, float("-inf"), 6.0], pa.float64()),
        "dec": col([D("1.25"), D("-99999999999.99"), None, D("0.01"), D("0"), D("5"), D("6.5")], pa.decimal128(15, 2)),
        "wide": col([D("1.0000000001"), D("-1234567890123456789012345678.0123456789"), None, D("0"), D("1"),
                     D("2"), D("3")], pa.decimal128(38, 10)),
        "d": col([datetime.date(1992, 1, 1), datetime.date(1, 1, 1), None, datetime.date(9999, 12, 31),
                  datetime.date(1970, 1, 1), datetime.date(2000, 2, 29), datetime.date(1969, 12, 31)], pa.date32()),
        "ts": col([datetime.datetime(1992, 1, 1, 12, 30, 15, 123456), datetime.datetime(1, 1, 1), None,
                   datetime.datetime(9999, 12, 31, 23, 59, 59, 999999), datetime.datetime(1970, 1, 1),
                   datetime.datetime(1969, 12, 31, 23, 59, 59, 1), datetime.datetime(2024, 2, 29)], pa.timestamp("us")),
        "iv": col([pa.MonthDayNano([1, 2, 3000]), pa.MonthDayNano([-1, -2, -3000]), None,
                   pa.MonthDayNano([0, 0, 0]), pa.MonthDayNano([12, 0, 86_400_000_000_000]),
                   pa.MonthDayNano([0, 1, 0]), pa.MonthDayNano([0, 0, 1000])], pa.month_day_nano_interval()),
        "s": col(["a", "", None, "héllo wörld", "x" * 1000, "it's", "6"], pa.string()),
    }
    table = pa.table(columns)
    return pa.concat_tables([table.slice(0, 3), table.slice(3)])


def kestrel_types(schema):
    """The Arrow types a table of `schema` comes back with from Kestrel."""
    fields = []
    for f in schema:
        t = f.type
        if pa.types.is_string(t):
            t = pa.large_string()
        elif pa.types.is_decimal(t) and t.precision <= 18:
            t = pa.decimal64(t.precision, t.scale)
        fields.append(pa.field(f.name, t))
    return pa.schema(fields)


# -- results ------------------------------------------------------------------------------------------------------


def test_result_values_and_shape(kestrel, con):
    result = con.sql("SELECT 1 AS i, CAST(2 AS BIGINT) AS l, 2.50 AS dec, 1.5e0 AS f, 'x''y' AS s, DATE '2020-02-29' "
                     "AS d, TIMESTAMP '2020-01-02 03:04:05.123456' AS ts, CAST('1 mon -3 days 4000005 us' AS INTERVAL) "
                     "AS iv, true AS b, NULL AS n, CAST(NULL AS INTEGER) AS ni")
    assert result.columns == ["i", "l", "dec", "f", "s", "d", "ts", "iv", "b", "n", "ni"]
    assert result.types == ["INTEGER", "BIGINT", "DECIMAL(3,2)", "DOUBLE", "VARCHAR", "DATE", "TIMESTAMP", "INTERVAL",
                            "BOOLEAN", "NULL", "INTEGER"]
    assert len(result) == 1 and result.has_rows and result.message == ""
    assert result.fetchall() == [(1, 2, D("2.50"), 1.5, "x'y", datetime.date(2020, 2, 29),
                                  datetime.datetime(2020, 1, 2, 3, 4, 5, 123456), kestrel.Interval(1, -3, 4000005),
                                  True, None, None)]
    description = result.description
    assert [d[0] for d in description] == result.columns
    assert description[2] == ("dec", "DECIMAL(3,2)", None, None, 3, 2, True)
    assert description[2][1] == kestrel.NUMBER and description[4][1] == kestrel.STRING
    assert description[5][1] == kestrel.DATETIME and description[4][1] != kestrel.NUMBER
    assert "1 rows" in repr(result)


def test_statement_without_rows_and_scripts(con):
    result = con.sql("CREATE TABLE t (a INTEGER)")
    assert not result.has_rows and result.message == "CREATE TABLE" and result.description is None
    assert result.fetchall() == []
    # A script runs every statement and returns the last result.
    last = con.sql("INSERT INTO t VALUES (1), (2); INSERT INTO t VALUES (3); SELECT sum(a) AS total FROM t;")
    assert last.fetchall() == [(6,)]


def test_arrow_export_shares_kestrel_buffers(con):
    source = every_type_table()
    con.register("t", source, batch_rows=4)
    result = con.sql("SELECT * FROM t")
    table = result.arrow()
    assert table.num_rows == ROUND_TRIP_ROWS and table.column(0).num_chunks == 2
    copied = {"b", "iv"}  # BOOLEAN: bytes become bits; INTERVAL: microseconds become nanoseconds
    checked = 0
    for c, name in enumerate(result.columns):
        for b, chunk in enumerate(table.column(c).chunks):
            kestrel_buffers = result._native.buffer_addresses(b, c)
            assert kestrel_buffers["memory"] == "host"
            arrow_buffers = chunk.buffers()
            if kestrel_buffers["validity"] is not None:
                assert arrow_buffers[0].address == kestrel_buffers["validity"], name
            if name in copied:
                assert arrow_buffers[1].address != kestrel_buffers["values"], name
                continue
            if name == "s":
                assert arrow_buffers[1].address == kestrel_buffers["offsets"]
                assert arrow_buffers[2].address == kestrel_buffers["values"]
            else:
                assert arrow_buffers[1].address == kestrel_buffers["values"], name
            checked += 1
    assert checked == 2 * 11  # the 13 columns but b and iv, in both batches
    # The Arrow table keeps Kestrel's buffers alive after the result is gone.
    expected = source.cast(kestrel_types(source.schema)).combine_chunks()
    del result
    gc.collect()
    assert table.combine_chunks().equals(expected)


def test_arrow_round_trip_of_every_type(con):
    source = every_type_table()
    con.register("t", source, batch_rows=3)  # regrouped into batches of 3 rows across the source's chunks
    result = con.sql("SELECT * FROM t")
    assert result.types == ["BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE", "DECIMAL(15,2)",
                            "DECIMAL(38,10)", "DATE", "TIMESTAMP", "INTERVAL", "VARCHAR"]
    assert result._native.batch_count == 3
    back = result.arrow()
    assert back.schema == kestrel_types(source.schema)
    assert back.combine_chunks().equals(source.cast(back.schema).combine_chunks())
    # The same values through the DB-API conversion.
    rows = result.fetchall()
    assert rows[2] == (None,) * 13
    assert rows[0][7] == D("1.25") and rows[1][8] == D("-1234567890123456789012345678.0123456789")
    assert rows[5][11] == (0, 1, 0) and rows[4][11].microseconds == 86_400_000_000
    assert rows[3][12] == "héllo wörld" and rows[4][12] == "x" * 1000


def test_arrow_import_conversions(con):
    ns = pa.array([1_500, -1_500, None], pa.timestamp("ns"))
    table = pa.table({
        "u8": pa.array([255, 0, None], pa.uint8()),
        "u16": pa.array([65535, 0, None], pa.uint16()),
        "u32": pa.array([2**32 - 1, 0, None], pa.uint32()),
        "u64": pa.array([2**64 - 1, 0, None], pa.uint64()),
        "f16": pa.array([1.5, -2.0, None], pa.float16()) if hasattr(pa, "float16") else pa.array([1.5, -2.0, None]),
        "d64": pa.array([datetime.date(2020, 1, 2), datetime.date(1960, 1, 2), None], pa.date64()),
        "ts_s": pa.array([1, -1, None], pa.timestamp("s")),
        "ts_ms": pa.array([1, -1, None], pa.timestamp("ms")),
        "ts_ns": ns,
        "ts_tz": pa.array([0, 1_000_000, None], pa.timestamp("us", tz="Europe/Paris")),
        "dur": pa.array([1_000_000, -5, None], pa.duration("us")),
        "ls": pa.array(["a", "bb", None], pa.large_string()),
        "sv": pa.array(["short", "a string longer than twelve bytes", None], pa.string_view()),
        "dict": pa.array(["x", "y", None]).dictionary_encode(),
        "dec256": pa.array([D("1.5"), D("-2.25"), None], pa.decimal256(40 - 10, 2)),
        "dec32": pa.array([D("1.5"), D("-2.25"), None], pa.decimal32(5, 2)),
        "empty": pa.array([None, None, None], pa.null()),
    })
    con.register("c", table)
    result = con.sql("SELECT * FROM c")
    assert result.types == ["SMALLINT", "INTEGER", "BIGINT", "DECIMAL(20,0)", "REAL", "DATE", "TIMESTAMP", "TIMESTAMP",
                            "TIMESTAMP", "TIMESTAMP", "INTERVAL", "VARCHAR", "VARCHAR", "VARCHAR", "DECIMAL(30,2)",
                            "DECIMAL(5,2)", "INTEGER"]
    rows = result.fetchall()
    epoch = datetime.datetime(1970, 1, 1)
    assert rows[0] == (255, 65535, 2**32 - 1, D(2**64 - 1), 1.5, datetime.date(2020, 1, 2),
                       epoch + datetime.timedelta(seconds=1), epoch + datetime.timedelta(milliseconds=1),
                       epoch + datetime.timedelta(microseconds=1), epoch, (0, 0, 1_000_000), "a", "short", "x",
                       D("1.50"), D("1.50"), None)
    assert rows[1][6] == epoch - datetime.timedelta(seconds=1)
    assert rows[1][8] == epoch - datetime.timedelta(microseconds=2)  # -1500 ns floors to -2 us
    assert rows[1][12] == "a string longer than twelve bytes" and rows[1][14] == D("-2.25")
    assert rows[2] == (None,) * 17


def test_register_refuses_types_kestrel_lacks(kestrel, con):
    with pytest.raises(kestrel.FeatureNotSupportedError, match="column 'blob' has the Arrow type fixed_size_binary"):
        con.register("t", pa.table({"ok": [1], "blob": pa.array([b"xy"], pa.binary(2))}))
    with pytest.raises(kestrel.NotSupportedError, match="column 'l' has the Arrow type list"):
        con.register("t", pa.table({"l": [[1, 2]]}))
    with pytest.raises(kestrel.ProgrammingError, match="no __arrow_c_stream__"):
        con.register("t", object())


def test_varbinary_is_bytes_in_python_and_arrow(kestrel, con):
    con.register("t", pa.table({"b": pa.array([b"\x00\xff", None, b""], pa.binary())}))
    result = con.sql("SELECT b, length(b) AS n FROM t")
    assert result.fetchall() == [(b"\x00\xff", 2), (None, None), (b"", 0)]
    table = con.sql("SELECT b, X'0a' AS x FROM t").arrow()
    assert table.schema.field("b").type == pa.large_binary()
    assert table.column("b").to_pylist() == [b"\x00\xff", None, b""]
    assert table.column("x").to_pylist() == [b"\n"] * 3


def test_nested_values_in_python_and_arrow(con):
    result = con.sql("SELECT ARRAY[1, NULL] AS a, map(ARRAY['k'], ARRAY[2]) AS m, "
                     "CAST(ROW(1, 'x') AS ROW(n INTEGER, s VARCHAR)) AS r, CAST(NULL AS ARRAY(INTEGER)) AS z")
    assert result.fetchall() == [([1, None], {"k": 2}, (1, "x"), None)]
    table = con.sql("SELECT ARRAY[ARRAY[1], ARRAY[]] AS a, map(ARRAY['k'], ARRAY[2]) AS m, "
                    "CAST(ROW(1, 'x') AS ROW(n INTEGER, s VARCHAR)) AS r").arrow()
    assert table.schema.field("a").type == pa.large_list(pa.large_list(pa.int32()))
    assert table.schema.field("m").type == pa.map_(pa.large_string(), pa.int32())
    assert table.schema.field("r").type == pa.struct([("n", pa.int32()), ("s", pa.large_string())])
    assert table.to_pylist() == [{"a": [[1], []], "m": [("k", 2)], "r": {"n": 1, "s": "x"}}]


def test_json_is_text_in_python_and_arrow(con):
    result = con.sql("""SELECT JSON '{"b": 1, "a": [true]}' AS j, CAST(NULL AS JSON) AS n""")
    assert result.fetchall() == [('{"a":[true],"b":1}', None)]
    table = con.sql("""SELECT JSON '[1, "x"]' AS j""").arrow()
    assert table.schema.field("j").type == pa.large_string()
    assert table.column("j").to_pylist() == ['[1,"x"]']


def test_register_replaces_and_unregister(kestrel, con):
    con.register("t", pa.table({"a": [1, 2]}))
    con.register("t", pa.table({"b": ["x"]}))
    assert con.sql("SELECT * FROM t").fetchall() == [("x",)]
    # The rows were copied: the source may go away.
    con.unregister("t")
    with pytest.raises(kestrel.BinderError):
        con.sql("SELECT * FROM t")
    with pytest.raises(kestrel.ProgrammingError):
        con.unregister("t")


def test_register_a_result_and_record_batches(kestrel, con):
    other = kestrel.connect(device="cpu")
    result = other.sql("SELECT 1 AS a, 'x' AS s UNION ALL SELECT 2, NULL")
    con.register("from_result", result)
    other.close()
    assert con.sql("SELECT * FROM from_result ORDER BY a").fetchall() == [(1, "x"), (2, None)]
    batch = pa.record_batch({"a": [1, 2, 3]})
    con.register("from_batch", batch)
    reader = pa.RecordBatchReader.from_batches(batch.schema, [batch, batch])
    con.register("from_reader", reader)
    assert con.sql("SELECT (SELECT count(*) FROM from_batch), (SELECT count(*) FROM from_reader)").fetchall() == [
        (3, 6)]


def test_pandas_df(con):
    pd = pytest.importorskip("pandas")
    df = con.sql("SELECT 1 AS a, 'x' AS s, 1.25 AS d, DATE '2020-01-02' AS dt UNION ALL SELECT 2, NULL, NULL, NULL "
                 "ORDER BY a").df()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["a", "s", "d", "dt"]
    assert df["a"].tolist() == [1, 2]
    assert df["s"][0] == "x" and pd.isna(df["s"][1])
    assert df["d"][0] == D("1.25")
    con.register("from_pandas", df[["a", "s"]])
    assert con.sql("SELECT a, s FROM from_pandas ORDER BY a").fetchall() == [(1, "x"), (2, None)]


def test_duckdb_reads_a_result(con):
    duckdb = pytest.importorskip("duckdb")
    con.register("t", every_type_table())
    res = con.sql("SELECT i64, dec, wide, d, ts, s, b FROM t")  # noqa: F841 - DuckDB finds it by name
    assert duckdb.sql("SELECT count(*), sum(i64 // 1024), sum(dec), max(s) FROM res").fetchall() == [
        (7, 1 // 1024 + -2**63 // 1024 + (2**63 - 1) // 1024 + 5 // 1024 + 6 // 1024, D("-99999999987.23"), "x" * 1000)]
    assert duckdb.sql("SELECT d, ts FROM res WHERE b").fetchall() == [
        (datetime.date(1992, 1, 1), datetime.datetime(1992, 1, 1, 12, 30, 15, 123456)),
        (datetime.date(9999, 12, 31), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999)),
        (datetime.date(1970, 1, 1), datetime.datetime(1970, 1, 1))]


def test_polars_reads_a_result_and_registers_a_frame(con):
    pl = pytest.importorskip("polars")
    result = con.sql("SELECT 1 AS a, 'x' AS s, 2.5 AS d UNION ALL SELECT 2, NULL, NULL ORDER BY a")
    frame = pl.DataFrame(result)
    assert frame.columns == ["a", "s", "d"]
    assert frame["a"].to_list() == [1, 2] and frame["s"].to_list() == ["x", None]
    assert result.pl().equals(frame)
    # polars hands strings over as string views.
    con.register("from_polars", pl.DataFrame({"k": [3, 1, 2], "v": ["a long string value here", "b", None]}))
    assert con.sql("SELECT k, v FROM from_polars ORDER BY k").fetchall() == [
        (1, "b"), (2, None), (3, "a long string value here")]


# -- DB-API 2.0 ---------------------------------------------------------------------------------------------------


def test_module_globals(kestrel):
    assert kestrel.apilevel == "2.0" and kestrel.threadsafety == 2 and kestrel.paramstyle == "qmark"
    assert issubclass(kestrel.SQLSyntaxError, kestrel.ProgrammingError)
    assert issubclass(kestrel.ProgrammingError, kestrel.DatabaseError)
    assert issubclass(kestrel.DatabaseError, kestrel.Error) and issubclass(kestrel.Error, Exception)
    assert issubclass(kestrel.ConstraintError, kestrel.IntegrityError)
    assert kestrel.Connection.Error is kestrel.Error


def test_cursor_fetching(kestrel, con):
    cur = con.cursor()
    assert cur.description is None and cur.rowcount == -1
    assert cur.execute("CREATE TABLE t (a INTEGER NOT NULL, s VARCHAR)") is cur
    assert cur.rowcount == -1 and cur.description is None
    cur.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"s{i}") for i in range(5)])
    assert cur.rowcount == 5
    cur.execute("SELECT a, s FROM t ORDER BY a")
    assert cur.rowcount == 5
    assert [d[:2] for d in cur.description] == [("a", "INTEGER"), ("s", "VARCHAR")]
    assert cur.fetchone() == (0, "s0")
    assert cur.fetchmany(2) == [(1, "s1"), (2, "s2")]
    cur.arraysize = 3
    assert cur.fetchmany() == [(3, "s3"), (4, "s4")]
    assert cur.fetchone() is None and cur.fetchall() == []
    assert [row for row in cur.execute("SELECT a FROM t WHERE a < 2 ORDER BY a")] == [(0,), (1,)]
    assert cur.execute("UPDATE t SET s = 'u' WHERE a >= 3").rowcount == 2
    assert cur.execute("DELETE FROM t WHERE a = 0").rowcount == 1
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(4,)]
    assert cur.execute("SELECT a FROM t ORDER BY a").arrow().column("a").to_pylist() == [1, 2, 3, 4]
    con.commit()
    with pytest.raises(kestrel.NotSupportedError):
        con.rollback()
    cur.close()
    with pytest.raises(kestrel.InterfaceError):
        cur.execute("SELECT 1")
    with pytest.raises(kestrel.ProgrammingError, match="no result rows"):
        con.cursor().fetchall()


@pytest.mark.parametrize("value, sql_type", [
    (None, None), (True, "BOOLEAN"), (-5, "INTEGER"), (2**40, "BIGINT"), (D("-12.50"), "DECIMAL(4,2)"),
    (D("100"), "DECIMAL(3,0)"), (1.25, "DOUBLE"), (-1e300, "DOUBLE"), ("it's -- not a comment", "VARCHAR"),
    ("", "VARCHAR"), (datetime.date(1998, 12, 1), "DATE"), (datetime.datetime(2001, 2, 3, 4, 5, 6, 7), "TIMESTAMP"),
])
def test_parameters_round_trip(con, value, sql_type):
    cur = con.cursor().execute("SELECT ? AS v, typeof(?) AS t", [value, value])
    v, t = cur.fetchone()
    assert v == value
    if sql_type is not None:
        assert cur.description[0][1] == sql_type


def test_parameters_bind_as_literals(kestrel, con):
    con.sql("CREATE TABLE t (d DATE, n INTEGER)")
    con.execute("INSERT INTO t VALUES (?, ?)", ["2020-01-01", 7])  # a string parameter read as a DATE
    con.execute("INSERT INTO t VALUES ($2, $1)", [8, datetime.date(2021, 1, 1)])
    assert con.execute("SELECT n FROM t WHERE d > ? ORDER BY n", ["2019-12-31"]).fetchall() == [(7,), (8,)]
    assert con.execute("SELECT ? - ?", [10, -5]).fetchall() == [(15,)]  # no "--" comment from a negative value
    assert con.execute("SELECT CAST(? AS INTERVAL)", ["1 day"]).fetchall() == [(kestrel.Interval(0, 1, 0),)]
    assert con.execute("SELECT ?", [datetime.timedelta(days=2, microseconds=5)]).fetchall() == [
        (kestrel.Interval(0, 2, 5),)]
    assert con.execute("SELECT '?' AS q, ? AS p -- ?", [1]).fetchall() == [("?", 1)]


def test_parameter_errors(kestrel, con):
    with pytest.raises(kestrel.ProgrammingError, match="2 parameters but 1 value was given") as e:
        con.execute("SELECT ?, ?", [1])
    assert e.value.sqlstate == "07001"
    with pytest.raises(kestrel.ProgrammingError, match="1 parameter but 0 values were given"):
        con.execute("SELECT ?")
    with pytest.raises(kestrel.ProgrammingError, match="qmark"):
        con.execute("SELECT ?", {"a": 1})
    with pytest.raises(kestrel.NotSupportedError, match="binary"):
        con.execute("SELECT ?", [b"x"])
    with pytest.raises(kestrel.ProgrammingError, match="not supported"):
        con.execute("SELECT ?", [object()])


# -- errors -------------------------------------------------------------------------------------------------------


def test_errors_carry_sqlstate_and_position(kestrel, con):
    with pytest.raises(kestrel.SQLSyntaxError) as e:
        con.sql("SELECT 1\nFROM FROM")
    assert e.value.sqlstate == "42601" and e.value.position == (2, 6) and e.value.offset == 14
    assert "FROM FROM" in str(e.value) and "^" in str(e.value)
    with pytest.raises(kestrel.BinderError) as e:
        con.sql("SELECT nope FROM missing_table")
    assert e.value.sqlstate == "42P01" and e.value.column == 18 and "missing_table" in e.value.message
    with pytest.raises(kestrel.InvalidInputError) as e:
        con.sql("SELECT 1 / 0")
    assert e.value.sqlstate == "22012" and isinstance(e.value, kestrel.DataError)
    con.sql("CREATE TABLE nn (a INTEGER NOT NULL)")
    with pytest.raises(kestrel.IntegrityError) as e:
        con.sql("INSERT INTO nn VALUES (NULL)")
    assert e.value.sqlstate == "23502" and isinstance(e.value, kestrel.ConstraintError)
    with pytest.raises(kestrel.FeatureNotSupportedError) as e:
        con.sql("SELECT INTERVAL '1-2' YEAR TO MONTH")
    assert e.value.sqlstate == "0A000" and isinstance(e.value, kestrel.NotSupportedError)


def test_error_positions_in_scripts_and_with_parameters(kestrel, con):
    with pytest.raises(kestrel.BinderError) as e:
        con.sql("SELECT 1;\nSELECT 2;\n  SELECT missing_column")
    assert e.value.position == (3, 10)
    with pytest.raises(kestrel.BinderError) as e:
        con.execute("SELECT ?, ?, missing_column", ["a long string parameter", 12345])
    assert e.value.position == (1, 14) and e.value.offset == 13
    with pytest.raises(kestrel.BinderError) as e:
        con.execute("SELECT ? + 'x'", [D("1.5")])
    assert e.value.column is not None and e.value.column <= 10


# -- cancellation, threads, lifetime -------------------------------------------------------------------------------

# A nested-loop join of 300,000 rows with themselves (9e10 pairs; no join key to hash): minutes even on many cores,
# so it is still running when the tests cancel it.
LONG_QUERY = "SELECT count(*) FROM big AS l, big AS r WHERE (l.x * 31 + r.x * 17) % 1000003 = 7"
BIG_ROWS = 300_000


def register_big(con, rows=BIG_ROWS):
    con.register("big", pa.table({"x": pa.array(range(rows), pa.int64())}), batch_rows=2048)


def test_cancel_from_another_thread_releases_the_gil(kestrel, con):
    register_big(con)
    outcome = {}

    def run():
        try:
            con.sql(LONG_QUERY)
            outcome["error"] = None
        except Exception as e:  # noqa: BLE001 - recorded for the assertion below
            outcome["error"] = e

    worker = threading.Thread(target=run)
    worker.start()
    # The statement runs without the GIL: this thread keeps running Python meanwhile.
    spins, deadline = 0, time.monotonic() + 1.0
    while time.monotonic() < deadline:
        spins += 1
    assert worker.is_alive(), "the long query finished too soon to test cancellation"
    start = time.monotonic()
    con.cancel()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert time.monotonic() - start < 10
    assert isinstance(outcome["error"], kestrel.QueryCancelledError)
    assert outcome["error"].sqlstate == "57014"
    assert spins > 10_000
    assert con.sql("SELECT 42").fetchall() == [(42,)]


def test_keyboard_interrupt_cancels_the_running_query():
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(python_module_dir())!r})
        import kestrel, pyarrow as pa
        con = kestrel.connect(device="cpu")
        con.register("big", pa.table({{"x": pa.array(range({BIG_ROWS}), pa.int64())}}), batch_rows=2048)
        print("ready", flush=True)
        start = time.monotonic()
        try:
            con.sql({LONG_QUERY!r})
            print("finished", flush=True)
        except KeyboardInterrupt:
            print(f"interrupted after {{time.monotonic() - start:.1f}} s", flush=True)
        print(con.sql("SELECT 42").fetchall(), flush=True)
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        process.send_signal(2)  # SIGINT, as Ctrl-C sends it
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert "interrupted after" in out, out + err
    seconds = float(out.split("interrupted after ")[1].split(" s")[0])
    assert seconds < 10
    assert "[(42,)]" in out


def test_one_connection_shared_by_threads(con):
    con.sql("CREATE TABLE t (a INTEGER)")
    con.sql("INSERT INTO t VALUES (1), (2), (3)")
    answers = []

    def run():
        cur = con.cursor()
        for _ in range(20):
            answers.append(cur.execute("SELECT sum(a) FROM t").fetchone()[0])

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [6] * 80


def test_closed_connection(kestrel):
    con = kestrel.connect(device="cpu")
    result = con.sql("SELECT 'kept' AS s")
    with con:
        pass
    assert con.closed
    with pytest.raises(kestrel.InterfaceError, match="closed"):
        con.sql("SELECT 1")
    with pytest.raises(kestrel.InterfaceError):
        con.cursor()
    # Results outlive their connection.
    assert result.fetchall() == [("kept",)] and result.arrow().column(0).to_pylist() == ["kept"]


def test_connect_options(kestrel, tmp_path):
    pa_parquet = pytest.importorskip("pyarrow.parquet")
    folder = tmp_path / "data"
    folder.mkdir()
    pa_parquet.write_table(pa.table({"a": [1, 2]}), folder / "one.parquet")
    single = tmp_path / "two.parquet"
    pa_parquet.write_table(pa.table({"b": ["x"]}), single)
    with kestrel.connect([folder, str(single)], device="cpu") as con:
        assert con.device == "cpu"
        assert con.sql("SELECT sum(a) FROM one").fetchall() == [(3,)]
        assert con.sql("SELECT b FROM two").fetchall() == [("x",)]
    with pytest.raises(ValueError, match="device"):
        kestrel.connect(device="tpu")
    with pytest.raises(kestrel.FileIOError, match="neither a folder nor a file"):
        kestrel.connect(tmp_path / "missing")
    with kestrel.connect() as con:
        assert con.device in ("cpu", "gpu")
