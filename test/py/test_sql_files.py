"""SQL access to files: read_parquet/read_csv table functions, data folders, DESCRIBE, COPY ... TO and CREATE TABLE AS
into a data folder, checked against pyarrow and DuckDB reading the same files."""

import csv
import decimal
import io

import pyarrow as pa
import pyarrow.parquet as pq


def rows_of(result):
    return list(csv.reader(io.StringIO(result.stdout)))


def test_read_parquet_and_describe(run_kestrel, tmp_path):
    table = pa.table({"id": pa.array([1, 2, None], pa.int64()), "name": ["a", None, "c"],
                      "price": pa.array([decimal.Decimal("1.50"), decimal.Decimal("2.25"), None], pa.decimal128(10, 2))})
    pq.write_table(table, tmp_path / "t.parquet")
    r = run_kestrel("--device", "cpu", "--format", "csv", "-c",
                    f"SELECT id, name, price FROM read_parquet('{tmp_path / 't.parquet'}') ORDER BY id NULLS LAST")
    assert r.returncode == 0, r.describe()
    assert rows_of(r) == [["id", "name", "price"], ["1", "a", "1.50"], ["2", "", "2.25"], ["", "c", ""]]
    r = run_kestrel("--device", "cpu", "--format", "csv", "--data", str(tmp_path), "-c", "DESCRIBE t")
    assert r.returncode == 0, r.describe()
    assert rows_of(r)[1:] == [["id", "BIGINT", "YES"], ["name", "VARCHAR", "YES"], ["price", "DECIMAL(10,2)", "YES"]]


def test_copy_to_parquet_is_read_back_by_pyarrow_and_duckdb(run_kestrel, tmp_path):
    out = tmp_path / "out.parquet"
    sql = (f"COPY (SELECT x, x * 1.25 AS d, 'v' || x AS s, DATE '2000-01-01' + x AS day "
           f"FROM (VALUES (1), (2), (3)) v(x)) TO '{out}' (FORMAT parquet, COMPRESSION zstd)")
    r = run_kestrel("--device", "cpu", "-c", sql)
    assert r.returncode == 0, r.describe()
    got = pq.read_table(out).to_pylist()
    assert [row["s"] for row in got] == ["v1", "v2", "v3"]
    assert [str(row["d"]) for row in got] == ["1.25", "2.50", "3.75"]
    assert str(got[0]["day"]) == "2000-01-02"
    import duckdb
    assert duckdb.sql(f"SELECT sum(x), max(s) FROM read_parquet('{out}')").fetchall() == [(6, "v3")]


def test_create_table_as_writes_into_the_data_folder(run_kestrel, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    r = run_kestrel("--device", "cpu", "--data", str(data), "-c",
                    "CREATE TABLE squares AS SELECT x, x * x AS sq FROM (VALUES (1), (2), (3)) v(x)")
    assert r.returncode == 0, r.describe()
    assert pq.read_table(data / "squares.parquet").column("sq").to_pylist() == [1, 4, 9]
    r = run_kestrel("--device", "cpu", "--data", str(data), "--format", "csv", "-c", "SELECT sum(sq) FROM squares")
    assert rows_of(r) == [["sum"], ["14"]]


def test_failed_copy_leaves_no_file(run_kestrel, tmp_path):
    out = tmp_path / "bad.parquet"
    r = run_kestrel("--device", "cpu", "-c", f"COPY (SELECT 1 / 0 AS x) TO '{out}'")
    assert r.returncode != 0
    assert "division by zero" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_read_csv_table_function(run_kestrel, tmp_path):
    (tmp_path / "f.csv").write_text("a|b\n1|x\n2|y\n")
    r = run_kestrel("--device", "cpu", "--format", "csv", "-c",
                    f"SELECT b, a + 1 AS a1 FROM read_csv('{tmp_path / 'f.csv'}', delim = '|') ORDER BY a")
    assert r.returncode == 0, r.describe()
    assert rows_of(r) == [["b", "a1"], ["x", "2"], ["y", "3"]]


def _parquet_data_files():
    import os
    import pathlib
    shared = pathlib.Path(os.environ.get("KESTREL_SHARED_DIR", pathlib.Path(__file__).resolve().parents[2].parent / "shared"))
    return sorted((shared / "parquet-testing" / "data").glob("*.parquet"))


import pytest  # noqa: E402


def _kestrel_text_of(type_text, value):
    """The text Kestrel prints for a nested value of type `type_text`, from the JSON kestrel-parquet-cat prints for
    it: arrays as [a, b], maps ([[k, v], ...] in JSON) as {k=v, ...}, rows as {name=v, ...}, NULL inside as NULL."""
    import re
    if value is None:
        return "NULL"
    if type_text.startswith("MAP("):
        key_type, value_type = _split_type_args(type_text[4:-1])
        return "{" + ", ".join(f"{_kestrel_text_of(key_type, k)}={_kestrel_text_of(value_type, v)}"
                               for k, v in value) + "}"
    if type_text.startswith("ARRAY("):
        element = type_text[6:-1]
        return "[" + ", ".join(_kestrel_text_of(element, v) for v in value) + "]"
    if type_text.startswith("ROW("):
        fields = _split_type_args(type_text[4:-1])
        parts = []
        for (name, v), field in zip(value.items(), fields):
            field_type = re.sub(r"^\S+ ", "", field, count=1)
            parts.append(f"{name}={_kestrel_text_of(field_type, v)}")
        return "{" + ", ".join(parts) + "}"
    return value


def _split_type_args(text):
    """Top-level comma-separated parts of a type's argument list."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


@pytest.mark.parametrize("path", _parquet_data_files(), ids=lambda p: p.name)
def test_select_star_matches_the_verified_reader(kestrel_bin, parquet_cat_bin, path):
    """SELECT * FROM read_parquet(f) prints what kestrel-parquet-cat prints (which test_parquet_read.py checks
    against pyarrow), or fails with the same clean error. Nested columns, which the tool prints as JSON, are
    compared through the text Kestrel gives their JSON."""
    import csv
    import io
    import json
    import subprocess
    if path.name == "large_string_map.brotli.parquet":
        pytest.skip("1 GiB map keys: test_parquet_read.py checks this file by a query")
    schema = subprocess.run([str(parquet_cat_bin), "--schema", str(path)], capture_output=True, timeout=120)
    types = [line.split("\t")[1] for line in schema.stdout.decode(errors="replace").splitlines()
             if not line.startswith("#")]
    cat = subprocess.run([str(parquet_cat_bin), str(path)], capture_output=True, timeout=120)
    sql = subprocess.run([str(kestrel_bin), "--device", "cpu", "--format", "csv", "-c",
                          f"SELECT * FROM read_parquet('{path}')"], capture_output=True, timeout=120)
    stderr = sql.stderr.decode(errors="replace")
    if cat.returncode != 0:
        assert sql.returncode != 0, stderr
        assert "Not Implemented Error" in stderr and ("nested" in stderr or "encrypt" in stderr), stderr
        return
    assert sql.returncode == 0, stderr
    nested = [i for i, t in enumerate(types) if t.startswith(("ARRAY(", "MAP(", "ROW("))]
    if not nested:
        assert sql.stdout == cat.stdout
        return
    ours = list(csv.reader(io.StringIO(sql.stdout.decode())))
    theirs = list(csv.reader(io.StringIO(cat.stdout.decode())))
    for row in theirs[1:]:
        for i in nested:
            if row[i] != "":
                row[i] = _kestrel_text_of(types[i], json.loads(row[i]))
    assert ours == theirs
