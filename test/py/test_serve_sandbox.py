"""A served session reads and writes files only below the data folders and --allow-dir folders: read_csv and
read_parquet of other files, COPY TO elsewhere, `..` and symbolic links leading out are refused with SQLSTATE 42501
naming the file; files inside work; the local shell keeps full access."""

import os

import psycopg
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_trino_server import _start, _stop


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("sandbox")
    data, allowed, outside = root / "data", root / "allowed", root / "outside"
    for f in (data / "t", allowed, outside):
        f.mkdir(parents=True)
    pq.write_table(pa.table({"a": [1, 2, 3]}), data / "t" / "part.parquet")
    (allowed / "extra.csv").write_text("x,y\n1,a\n2,b\n")
    (outside / "secret.csv").write_text("x,y\n7,secret\n")
    pq.write_table(pa.table({"a": [9]}), outside / "secret.parquet")
    os.symlink(outside / "secret.csv", allowed / "link.csv")
    return {"data": data, "allowed": allowed, "outside": outside}


@pytest.fixture(scope="module")
def conn(kestrel_bin, folders):
    process, ports = _start(kestrel_bin, ["--pg-port", "0", "--data", str(folders["data"]), "--allow-dir",
                                          str(folders["allowed"])], ["pg"])
    with psycopg.connect(host="127.0.0.1", port=ports["pg"], user="sandbox", autocommit=True) as c:
        yield c
    _stop(process)


def refused(conn, sql, path_fragment):
    with pytest.raises(psycopg.Error) as info:
        conn.execute(sql).fetchall()
    assert info.value.sqlstate == "42501", info.value
    assert path_fragment in str(info.value) and "may only use files below" in str(info.value), info.value


def test_files_inside_are_readable_and_writable(conn, folders):
    assert conn.execute("SELECT sum(a) FROM t").fetchone() == (6,)
    assert conn.execute(f"SELECT count(*) FROM read_csv('{folders['allowed'] / 'extra.csv'}')").fetchone() == (2,)
    conn.execute(f"COPY (SELECT a FROM t) TO '{folders['allowed'] / 'out.parquet'}'")
    assert pq.read_table(folders["allowed"] / "out.parquet").column("a").to_pylist() == [1, 2, 3]
    assert conn.execute(f"SELECT count(*) FROM read_parquet('{folders['data'] / 't' / '*.parquet'}')").fetchone() == (3,)


def test_files_outside_are_refused(conn, folders):
    refused(conn, "SELECT * FROM read_csv('/etc/passwd')", "/etc/passwd")
    refused(conn, f"SELECT * FROM read_parquet('{folders['outside'] / 'secret.parquet'}')", "secret.parquet")
    refused(conn, f"SELECT * FROM read_csv('{folders['allowed'] / '..' / 'outside' / 'secret.csv'}')", "secret.csv")
    refused(conn, f"SELECT * FROM read_csv('{folders['allowed'] / 'link.csv'}')", "link.csv")
    refused(conn, f"SELECT * FROM read_csv('{folders['allowed'] / '*.csv'}')", "link.csv")
    refused(conn, f"COPY (SELECT 1) TO '{folders['outside'] / 'x.csv'}'", "x.csv")
    assert not (folders["outside"] / "x.csv").exists()
    # The session still works after the refusals.
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (3,)


def test_the_local_shell_keeps_full_access(run_kestrel, folders):
    r = run_kestrel("--device", "cpu", "--format", "csv", "-c",
                    f"SELECT y FROM read_csv('{folders['outside'] / 'secret.csv'}')")
    assert r.returncode == 0 and "secret" in r.stdout, r.describe()
