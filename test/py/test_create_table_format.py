"""CREATE TABLE ... [WITH (format = ..., options)] AS with a data folder: the table is a Parquet or kcol file there,
by the table_format setting or the statement's WITH; pyarrow reads the Parquet files back, a new process attaches
both kinds, OR REPLACE leaves one file per table, and bad formats or options fail with their position and leave
nothing behind."""

import csv
import io

import pyarrow.parquet as pq


def rows_of(result):
    return list(csv.reader(io.StringIO(result.stdout)))


def run_ok(run_kestrel, data, sql):
    r = run_kestrel("--device", "cpu", "--data", str(data), "--format", "csv", "-c", sql)
    assert r.returncode == 0, r.describe()
    return r


SOURCE = "SELECT x, 'v' || x AS s, x * 1.5 AS d FROM (VALUES (1), (2), (NULL)) t(x)"


def test_format_by_setting_and_by_with(run_kestrel, tmp_path):
    run_ok(run_kestrel, tmp_path, f"CREATE TABLE p AS {SOURCE}; CREATE TABLE k WITH (format = 'kcol') AS {SOURCE}; "
                                  f"SET table_format = kcol; CREATE TABLE k2 AS {SOURCE}; "
                                  f"CREATE TABLE p2 WITH (format = 'parquet', compression = 'zstd') AS {SOURCE}")
    assert sorted(f.name for f in tmp_path.iterdir()) == ["k.kcol", "k2.kcol", "p.parquet", "p2.parquet"]
    table = pq.read_table(tmp_path / "p2.parquet")
    assert table.column_names == ["x", "s", "d"]
    assert table.column("x").to_pylist() == [1, 2, None]
    assert pq.ParquetFile(tmp_path / "p2.parquet").metadata.row_group(0).column(0).compression == "ZSTD"
    # A new process attaches every file as a table; all four hold the same rows.
    r = run_ok(run_kestrel, tmp_path, "SELECT count(*), count(DISTINCT x || s || d) FROM (SELECT * FROM p UNION ALL "
                                      "SELECT * FROM k UNION ALL SELECT * FROM k2 UNION ALL SELECT * FROM p2) u")
    assert rows_of(r)[1] == ["12", "2"]
    r = run_ok(run_kestrel, tmp_path, "SELECT * FROM k EXCEPT SELECT * FROM p")
    assert rows_of(r)[1:] == []


def test_or_replace_in_another_format_keeps_one_file(run_kestrel, tmp_path):
    run_ok(run_kestrel, tmp_path, "CREATE TABLE t AS SELECT 1 AS a")
    run_ok(run_kestrel, tmp_path, "CREATE OR REPLACE TABLE t WITH (format = 'kcol') AS SELECT 2 AS a")
    assert sorted(f.name for f in tmp_path.iterdir()) == ["t.kcol"]
    assert rows_of(run_ok(run_kestrel, tmp_path, "SELECT a FROM t")) == [["a"], ["2"]]


def test_bad_format_and_options_fail_cleanly(run_kestrel, tmp_path):
    r = run_kestrel("--device", "cpu", "--data", str(tmp_path), "-c",
                    "CREATE TABLE t WITH (format = 'orc') AS SELECT 1 AS a")
    assert r.returncode != 0 and "format must be parquet or kcol, not 'orc'" in r.stderr, r.describe()
    assert "line 1, column 22" in r.stderr
    r = run_kestrel("--device", "cpu", "--data", str(tmp_path), "-c",
                    "CREATE TABLE t WITH (bogus = 1) AS SELECT 1 AS a")
    assert r.returncode != 0 and "unknown Parquet write option 'bogus'" in r.stderr, r.describe()
    r = run_kestrel("--device", "cpu", "--data", str(tmp_path), "-c",
                    "CREATE TABLE t WITH (format = 'kcol') AS SELECT 1 / (a - 1) FROM (VALUES (1)) v(a)")
    assert r.returncode != 0 and "division by zero" in r.stderr, r.describe()
    assert list(tmp_path.iterdir()) == []
    r = run_kestrel("--device", "cpu", "-c", "CREATE TABLE t WITH (format = 'kcol') AS SELECT 1 AS a")
    assert r.returncode != 0 and "none is attached" in r.stderr, r.describe()


def test_convert_command(run_kestrel, tmp_path):
    """`kestrel convert` writes every table (or the named ones) into the target folder; the converted tables hold
    the same rows; bad arguments fail before anything is written."""
    source = tmp_path / "src"
    source.mkdir()
    run_ok(run_kestrel, source, f"CREATE TABLE a AS {SOURCE}; CREATE TABLE b AS SELECT 'x' AS s")
    r = run_kestrel("convert", "--data", str(source), "--to", str(tmp_path / "k"))
    assert r.returncode == 0, r.describe()
    assert "[1/2] a: 3 rows" in r.stdout and "2 of 2 tables converted" in r.stdout, r.stdout
    assert sorted(f.name for f in (tmp_path / "k").iterdir()) == ["a.kcol", "b.kcol"]
    r = run_ok(run_kestrel, tmp_path / "k", "SELECT count(*) FROM (SELECT * FROM a UNION SELECT * FROM a) u")
    assert rows_of(r)[1] == ["3"]
    r = run_kestrel("convert", "--data", str(tmp_path / "k"), "--to", str(tmp_path / "p"), "--format", "parquet",
                    "--table", "a", "--option", "compression=zstd")
    assert r.returncode == 0, r.describe()
    assert pq.read_table(tmp_path / "p" / "a.parquet").column("s").to_pylist() == ["v1", "v2", None]
    r = run_kestrel("convert", "--data", str(source), "--to", str(source))
    assert r.returncode == 2 and "the data folder itself" in r.stderr, r.describe()
    r = run_kestrel("convert", "--data", str(source), "--to", str(tmp_path / "n"), "--table", "nope")
    assert r.returncode == 2 and "no table 'nope'" in r.stderr, r.describe()
    r = run_kestrel("convert", "--data", str(source), "--to", str(tmp_path / "o"), "--option", "bogus=1")
    assert r.returncode == 1 and "bogus" in r.stderr, r.describe()
    assert list((tmp_path / "o").iterdir()) == []


def test_a_table_name_cannot_lead_out_of_the_data_folder(run_kestrel, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for name in ['"../escaped"', '"a/b"', '".hidden"']:
        r = run_kestrel("--device", "cpu", "--data", str(data), "-c", f"CREATE TABLE {name} AS SELECT 1 AS a")
        assert r.returncode != 0 and "cannot name a file in the data folder" in r.stderr, r.describe()
    assert list(tmp_path.iterdir()) == [data] and list(data.iterdir()) == []
