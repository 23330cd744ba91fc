"""Parquet files written by Kestrel (through kestrel-parquet-write) read back by pyarrow and DuckDB with exactly the
values Kestrel was given: every type, NULLs, each codec, dictionary on and off, many row groups; and a failed
write leaves no file behind."""

from __future__ import annotations

import datetime as dt
from decimal import Context, Decimal
from pathlib import Path

import pytest

from conftest import build_dir, run_binary

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

#: (name, Kestrel type, pyarrow type, DuckDB type)
COLUMNS = [
    ("b", "BOOLEAN", pa.bool_(), "BOOLEAN"),
    ("ti", "TINYINT", pa.int8(), "TINYINT"),
    ("si", "SMALLINT", pa.int16(), "SMALLINT"),
    ("i", "INTEGER", pa.int32(), "INTEGER"),
    ("bi", "BIGINT", pa.int64(), "BIGINT"),
    ("r", "REAL", pa.float32(), "FLOAT"),
    ("d", "DOUBLE", pa.float64(), "DOUBLE"),
    ("d4", "DECIMAL(4,2)", pa.decimal128(4, 2), "DECIMAL(4,2)"),
    ("d18", "DECIMAL(18,6)", pa.decimal128(18, 6), "DECIMAL(18,6)"),
    ("d38", "DECIMAL(38,10)", pa.decimal128(38, 10), "DECIMAL(38,10)"),
    ("dt", "DATE", pa.date32(), "DATE"),
    ("ts", "TIMESTAMP", pa.timestamp("us"), "TIMESTAMP"),
    ("s", "VARCHAR", pa.string(), "VARCHAR"),
]
SCHEMA = ", ".join(f"{name} {kestrel_type}" for name, kestrel_type, _, _ in COLUMNS)
CODECS = ["uncompressed", "snappy", "zstd", "gzip", "lz4_raw", "brotli"]
ROWS = 400


def value(column: int, row: int):
    """The value of a cell: NULL on a per-column stride, edge values on the first rows, repeats otherwise (so
    dictionaries are useful)."""
    if (row + 3 * column) % 9 == 0:
        return None
    k = (row * 7919) % 61 - 30
    name = COLUMNS[column][0]
    edges = {
        "ti": [-128, 127], "si": [-32768, 32767], "i": [-2**31, 2**31 - 1], "bi": [-2**63, 2**63 - 1],
        "r": [3.4028234663852886e38, -1.401298464324817e-45], "d": [1.7976931348623157e308, -5e-324],
        "d4": [Decimal("99.99"), Decimal("-99.99")],
        "d18": [Decimal("999999999999.999999"), Decimal("-999999999999.999999")],
        "d38": [Decimal("9999999999999999999999999999.9999999999"), Decimal("-9999999999999999999999999999.9999999999")],
        "dt": [dt.date(1, 1, 1), dt.date(9999, 12, 31)],
        "ts": [dt.datetime(1900, 1, 1, 0, 0, 0, 1), dt.datetime(2262, 4, 11, 23, 47, 16, 854775)],
        "s": ["", "a \"quoted\", comma'd\nline — ünïcødé ✓"],
        "b": [True, False],
    }
    if row < 2:
        return edges[name][row]
    if name == "b":
        return k % 3 == 0
    if name in ("ti", "si", "i", "bi"):
        return k * {"ti": 3, "si": 1000, "i": 70000000, "bi": 300000000000000000}[name]
    if name == "r":
        return k * 0.25
    if name == "d":
        return k / 10
    if name == "d4":
        return Decimal(k * 3) / 100
    if name == "d18":
        return Decimal(k * 123456789) / 1000000
    if name == "d38":
        return Decimal(k) * Decimal("1234567890123456789012345.6789012345")
    if name == "dt":
        return dt.date(1970, 1, 1) + dt.timedelta(days=k * 1000)
    if name == "ts":
        return dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=k * 86_400_000_123_457)
    return f"str{k}" if k % 4 else f"longer string number {k}"


def expected_rows() -> list[tuple]:
    return [tuple(value(c, r) for c in range(len(COLUMNS))) for r in range(ROWS)]


def csv_field(v) -> str:
    if v is None:
        return r"\N"
    if isinstance(v, str):
        return '"' + v.replace('"', '""') + '"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, dt.datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, dt.date):
        return f"{v.year:04d}-{v.month:02d}-{v.day:02d}"
    return str(v)


@pytest.fixture(scope="module")
def writer_bin() -> Path:
    path = build_dir() / "kestrel-parquet-write"
    if not path.is_file():
        pytest.skip(f"{path} is not built")
    return path


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("csv") / "all_types.csv"
    lines = [",".join(name for name, _, _, _ in COLUMNS)]
    lines += [",".join(csv_field(v) for v in row) for row in expected_rows()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_parquet(writer_bin: Path, csv_file: Path, out: Path, *options: str):
    args = ["--columns", SCHEMA, "--csv", str(csv_file), "--csv-option", r"nullstr=\N"]
    for option in options:
        args += ["--option", option]
    result = run_binary(writer_bin, [*args, str(out)])
    assert result.returncode == 0, result.describe()
    assert result.stdout.strip() == str(ROWS)


def check_readers(path: Path, expected: list[tuple]):
    table = pq.read_table(path)
    assert [(f.name, f.type) for f in table.schema] == [(n, t) for n, _, t, _ in COLUMNS]
    got = [tuple(row[name] for name, _, _, _ in COLUMNS) for row in table.to_pylist()]
    assert got == expected

    con = duckdb.connect()
    described = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
    assert [(d[0], d[1]) for d in described] == [(n, t) for n, _, _, t in COLUMNS]
    assert con.execute(f"SELECT * FROM read_parquet('{path}')").fetchall() == expected
    # Decimals exact, not merely equal as numbers: the text forms match too.
    for c, (name, kestrel_type, _, _) in enumerate(COLUMNS):
        if kestrel_type.startswith("DECIMAL"):
            texts = [r[0] for r in con.execute(f"SELECT CAST({name} AS VARCHAR) FROM read_parquet('{path}')").fetchall()]
            scale = int(kestrel_type.split(",")[1].rstrip(")"))
            want = [None if row[c] is None else format(row[c].quantize(Decimal(1).scaleb(-scale), context=Context(prec=60)), "f") for row in expected]
            assert texts == want, name


@pytest.mark.parametrize("dictionary", ["true", "false"])
@pytest.mark.parametrize("codec", CODECS)
def test_every_type_codec_and_dictionary(writer_bin, csv_file, tmp_path, codec, dictionary):
    out = tmp_path / f"t_{codec}_{dictionary}.parquet"
    write_parquet(writer_bin, csv_file, out, f"compression={codec}", f"dictionary={dictionary}",
                  "row_group_size=150", "page_size=512")
    check_readers(out, expected_rows())
    meta = pq.ParquetFile(out).metadata
    assert meta.num_row_groups == 3
    assert meta.created_by.startswith("Kestrel")
    for g in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            col = meta.row_group(g).column(c)
            # pyarrow names LZ4_RAW (codec 7) "LZ4"; the footer holds 7, which Kestrel's own reader checks in C++.
            assert col.compression.lower() == {"lz4_raw": "lz4"}.get(codec, codec)
            uses_dictionary = col.dictionary_page_offset is not None and col.dictionary_page_offset > 0
            assert uses_dictionary == (dictionary == "true" and COLUMNS[c][0] != "b")
            stats = col.statistics
            assert stats is not None and stats.has_null_count
    assert sum(1 for _ in tmp_path.iterdir()) == 1  # no temporary file left


def test_statistics_match_the_data(writer_bin, csv_file, tmp_path):
    out = tmp_path / "stats.parquet"
    write_parquet(writer_bin, csv_file, out, "compression=zstd")
    rows = expected_rows()
    meta = pq.ParquetFile(out).metadata
    assert meta.num_row_groups == 1
    for c, (name, _, _, _) in enumerate(COLUMNS):
        present = [r[c] for r in rows if r[c] is not None]
        stats = meta.row_group(0).column(c).statistics
        assert stats.null_count == len(rows) - len(present), name
        if name == "s":  # unsigned byte order
            present = [v.encode() for v in present]
            assert (stats.min.encode(), stats.max.encode()) == (min(present), max(present))
        else:
            assert (stats.min, stats.max) == (min(present), max(present)), name


def test_generated_table_many_row_groups(writer_bin, tmp_path):
    out = tmp_path / "gen.parquet"
    result = run_binary(writer_bin, ["--columns", "a BIGINT, s VARCHAR, d DECIMAL(20,3)", "--generate", "10000",
                                     "--batch-rows", "777", "--option", "row_group_size=1000", str(out)])
    assert result.returncode == 0, result.describe()
    assert pq.ParquetFile(out).metadata.num_row_groups == 10
    from_arrow = pq.read_table(out).to_pylist()
    from_duckdb = duckdb.sql(f"SELECT a, s, d FROM read_parquet('{out}')").fetchall()
    assert len(from_arrow) == 10000
    assert [(r["a"], r["s"], r["d"]) for r in from_arrow] == from_duckdb
    assert sum(r["a"] is None for r in from_arrow) == len([i for i in range(10000) if i % 7 == 0])


def test_failed_write_leaves_no_file(writer_bin, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n" + "".join(f"{i},x\n" for i in range(1000)) + "oops,x\n")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    result = run_binary(writer_bin, ["--columns", "a INTEGER, b VARCHAR", "--csv", str(bad), str(out_dir / "t.parquet")])
    assert result.returncode != 0
    assert "oops" in result.stderr or "bad.csv" in result.stderr, result.describe()
    assert list(out_dir.iterdir()) == []


def test_bad_options_are_clean_errors(writer_bin, csv_file, tmp_path):
    for option, needle in [("compression=lzo", "lzo"), ("row_group_size=0", "row_group_size"),
                           ("colour=red", "unknown Parquet write option")]:
        result = run_binary(writer_bin, ["--columns", SCHEMA, "--csv", str(csv_file), "--option", option,
                                         str(tmp_path / "x.parquet")])
        assert result.returncode == 1 and needle in result.stderr, result.describe()
    interval = run_binary(writer_bin, ["--columns", "x INTERVAL", "--generate", "1", str(tmp_path / "i.parquet")])
    assert interval.returncode == 1 and "INTERVAL" in interval.stderr, interval.describe()
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------------------------
# Nested columns: ARRAY, MAP and ROW of every type, written by COPY ... TO through the kestrel CLI, read back by
# pyarrow, DuckDB and Kestrel itself.

#: Flat types inside the nested ones: (SQL type, values of it; the first NULL-free ones feed maps' keys).
FLAT = {
    "BOOLEAN": [True, False],
    "TINYINT": [-128, 127, 5],
    "SMALLINT": [-32768, 32767, 7],
    "INTEGER": [-2**31, 2**31 - 1, 0],
    "BIGINT": [-2**63, 2**63 - 1, 42],
    "REAL": [1.5, -0.25, 3.4028234663852886e38],
    "DOUBLE": [1e308, -5e-324, 0.1],
    "DECIMAL(9,2)": [Decimal("1234567.89"), Decimal("-0.01")],
    "DECIMAL(18,6)": [Decimal("999999999999.999999"), Decimal("-1.5")],
    "DECIMAL(38,10)": [Decimal("9999999999999999999999999999.9999999999"), Decimal("-1")],
    "DATE": [dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1970, 1, 1)],
    "TIMESTAMP": [dt.datetime(1900, 1, 1, 0, 0, 0, 1), dt.datetime(2262, 4, 11, 23, 47, 16, 854775)],
    "VARCHAR": ["", "a \"quoted\", comma'd\nline — ünïcødé ✓", "x" * 300],
    "VARBINARY": [b"", b"\x00\xff\x10", b"abc"],
}


def sql_scalar(type_: str, v) -> str:
    if v is None:
        return f"CAST(NULL AS {type_})"
    if type_ == "VARBINARY":
        return f"from_hex('{v.hex()}')"
    if type_ == "BOOLEAN":
        return "true" if v else "false"
    if isinstance(v, dt.datetime):
        text = v.strftime("%Y-%m-%d %H:%M:%S.%f")
    elif isinstance(v, dt.date):
        text = f"{v.year:04d}-{v.month:02d}-{v.day:02d}"
    elif isinstance(v, float):
        text = repr(v)
    else:
        text = str(v)
    return "CAST('" + text.replace("'", "''") + f"' AS {type_})"


def sql_type(t) -> str:
    if isinstance(t, str):
        return t
    if t[0] == "ARRAY":
        return f"ARRAY({sql_type(t[1])})"
    if t[0] == "MAP":
        return f"MAP({sql_type(t[1])}, {sql_type(t[2])})"
    return "ROW(" + ", ".join(f"{n} {sql_type(ft)}" for n, ft in t[1]) + ")"


def sql_value(t, v) -> str:
    """A Kestrel SQL expression of type t for python value v (lists, lists of (key, value) pairs, dicts)."""
    if isinstance(t, str):
        return sql_scalar(t, v)
    if v is None:
        return f"CAST(NULL AS {sql_type(t)})"
    if t[0] == "ARRAY":
        return f"CAST(ARRAY[{', '.join(sql_value(t[1], x) for x in v)}] AS {sql_type(t)})"
    if t[0] == "MAP":
        keys = sql_value(("ARRAY", t[1]), [k for k, _ in v])
        values = sql_value(("ARRAY", t[2]), [x for _, x in v])
        return f"map({keys}, {values})"
    return f"CAST(ROW({', '.join(sql_value(ft, v[n]) for n, ft in t[1])}) AS {sql_type(t)})"


def nested_columns():
    """(name, type, values of 5 rows): every flat type in an ARRAY, as a MAP's value (and a key where it can be
    one), in a ROW beside a list of it; then lists of lists, maps with list values, lists of rows, rows of maps,
    empty lists and maps beside NULL ones, NULL fields beside NULL rows."""
    columns = []
    for i, (type_, vals) in enumerate(FLAT.items()):
        short = f"c{i}"
        v0, v1 = vals[0], vals[1]
        columns.append((f"{short}_a", ("ARRAY", type_), [[v0, None, v1], [], None, [None], vals]))
        columns.append((f"{short}_m", ("MAP", "VARCHAR", type_),
                        [[("k", v0), ("n", None)], [], None, [("z", v1)], [(str(j), x) for j, x in enumerate(vals)]]))
        if type_ not in ("REAL", "DOUBLE", "BOOLEAN"):
            columns.append((f"{short}_k", ("MAP", type_, "INTEGER"), [[(v0, 1), (v1, None)], None, [], [(v1, 2)],
                                                                      [(v0, 3)]]))
        row_type = ("ROW", [("v", type_), ("l", ("ARRAY", type_))])
        columns.append((f"{short}_r", row_type, [{"v": v0, "l": [v1]}, {"v": None, "l": None}, None,
                                                 {"v": v1, "l": []}, {"v": None, "l": [None, v0]}]))
    columns += [
        ("lol", ("ARRAY", ("ARRAY", "INTEGER")), [[[1, 2], [], None, [3]], [], None, [None], [[None]]]),
        ("lolol", ("ARRAY", ("ARRAY", ("ARRAY", "VARCHAR"))),
         [[[["a"], []], None], [[None, ["b", None]]], None, [], [[[]]]]),
        ("mol", ("MAP", "INTEGER", ("ARRAY", "VARCHAR")), [[(1, ["a", None]), (2, []), (3, None)], [], None,
                                                           [(4, ["b"])], [(5, [])]]),
        ("mom", ("MAP", "VARCHAR", ("MAP", "VARCHAR", "BIGINT")),
         [[("x", [("y", 1)]), ("e", []), ("n", None)], None, [], [("q", [("r", None)])], [("s", [])]]),
        ("lor", ("ARRAY", ("ROW", [("a", "INTEGER"), ("b", "VARCHAR")])),
         [[{"a": 1, "b": "x"}, None, {"a": None, "b": None}], [], None, [None], [{"a": 2, "b": ""}]]),
        ("rom", ("ROW", [("m", ("MAP", "VARCHAR", "DOUBLE")), ("r", ("ROW", [("x", "DATE")]))]),
         [{"m": [("a", 1.5)], "r": {"x": dt.date(2020, 2, 29)}}, {"m": None, "r": None}, None,
          {"m": [], "r": {"x": None}}, {"m": [("b", None)], "r": None}]),
    ]
    return columns


def arrow_expected(t, v):
    """v as pyarrow's to_pylist gives it (maps as lists of (key, value) tuples)."""
    if v is None or isinstance(t, str):
        return v
    if t[0] == "ARRAY":
        return [arrow_expected(t[1], x) for x in v]
    if t[0] == "MAP":
        return [(arrow_expected(t[1], k), arrow_expected(t[2], x)) for k, x in v]
    return {n: arrow_expected(ft, v[n]) for n, ft in t[1]}


def duckdb_expected(t, v):
    """v as DuckDB's fetchall gives it (maps as dicts)."""
    if v is None or isinstance(t, str):
        return v
    if t[0] == "ARRAY":
        return [duckdb_expected(t[1], x) for x in v]
    if t[0] == "MAP":
        return {duckdb_expected(t[1], k): duckdb_expected(t[2], x) for k, x in v}
    return {n: duckdb_expected(ft, v[n]) for n, ft in t[1]}


@pytest.mark.parametrize("options", ["", "compression 'zstd', dictionary false, page_size 64, row_group_size 2"])
def test_nested_round_trip(kestrel_bin, tmp_path, options):
    columns = nested_columns()
    rows = len(columns[0][2])
    out = tmp_path / "nested.parquet"
    selects = []
    for r in range(rows):
        cells = [f"{r} AS id"] + [f"{sql_value(t, vals[r])} AS {name}" for name, t, vals in columns]
        selects.append("SELECT " + ", ".join(cells))
    create = "CREATE TABLE t AS " + " UNION ALL ".join(selects)
    copy_options = "FORMAT parquet" + (", " + options if options else "")
    sql = (f"{create}; COPY (SELECT * FROM t ORDER BY id) TO '{out}' ({copy_options}); "
           f"SELECT * FROM t ORDER BY id; SELECT * FROM read_parquet('{out}') ORDER BY id")
    result = run_binary(kestrel_bin, ["--device", "cpu", "--format", "csv", "-c", sql], timeout=300)
    assert result.returncode == 0, result.describe()

    # Kestrel reads back exactly what it wrote: both SELECTs print the same text.
    lines = result.stdout.splitlines(keepends=True)
    header = lines[0]
    second = lines.index(header, 1)
    assert lines[:second] == lines[second:]
    assert len(lines[:second]) > rows  # the header and the rows (values may span lines)

    # pyarrow: the standard schema and the same values.
    table = pq.read_table(out)
    assert table.num_rows == rows
    names = ["id"] + [name for name, _, _ in columns]
    assert table.column_names == names
    got = table.to_pylist()
    for name, t, vals in columns:
        expected = [arrow_expected(t, v) for v in vals]
        assert [row[name] for row in got] == expected, name
    schema = str(pq.ParquetFile(out).schema).replace("field_id=-1 ", "")
    assert "optional group c3_a (List) {\n    repeated group list {\n      optional int32 element;" in schema
    assert ("optional group c3_m (Map) {\n    repeated group key_value {\n      required binary key (String);\n"
            "      optional int32 value;") in schema

    # DuckDB: the same values.
    con = duckdb.connect()
    fetched = con.execute(f"SELECT * FROM read_parquet('{out}') ORDER BY id").fetchall()
    for c, (name, t, vals) in enumerate(columns, start=1):
        expected = [duckdb_expected(t, v) for v in vals]
        assert [row[c] for row in fetched] == expected, name


def test_nested_statistics_and_levels(kestrel_bin, tmp_path):
    """Each leaf's statistics are those of its non-NULL values; its null count counts NULL elements and NULL or
    empty lists above them; level entries (num_values) count one per element and one per NULL or empty list."""
    out = tmp_path / "stats.parquet"
    sql = ("COPY (SELECT * FROM (VALUES (ARRAY[3, NULL, 7]), (CAST(ARRAY[] AS ARRAY(INTEGER))), (NULL), "
           f"(ARRAY[-2])) AS t(a)) TO '{out}' (FORMAT parquet)")
    result = run_binary(kestrel_bin, ["--device", "cpu", "-c", sql])
    assert result.returncode == 0, result.describe()
    chunk = pq.ParquetFile(out).metadata.row_group(0).column(0)
    assert chunk.path_in_schema == "a.list.element"
    assert chunk.num_values == 6  # 3 elements, the empty list, the NULL list, 1 element
    stats = chunk.statistics
    assert (stats.min, stats.max, stats.null_count) == (-2, 7, 3)


def test_nested_column_with_an_unwritable_leaf_is_a_clean_error(kestrel_bin, tmp_path):
    """INTERVAL inside a ROW: refused when the writer opens, naming the column and the field; no file is left."""
    out = tmp_path / "bad.parquet"
    sql = f"COPY (SELECT CAST(ROW(INTERVAL '1' DAY) AS ROW(i INTERVAL)) AS r) TO '{out}' (FORMAT parquet)"
    result = run_binary(kestrel_bin, ["--device", "cpu", "-c", sql])
    assert result.returncode != 0
    assert "column 'r' (ROW(i INTERVAL)), field 'r.i'" in result.stderr, result.describe()
    assert not out.exists()
