"""The 22 TPC-H queries at SF1 through `kestrel serve`, by the real clients of both protocols (psql, psycopg 3 and
SQLAlchemy's psycopg dialect over the PostgreSQL wire protocol; the trino client, presto-python-client and
SQLAlchemy's trino dialect over HTTP), against the official answers."""

import csv
import io
import shutil
import subprocess

import prestodb
import psycopg
import pytest
import sqlalchemy
import trino

import tpch_support as tpch
from test_trino_server import _start, _stop

QUERIES = list(range(1, 23))


@pytest.fixture(scope="module")
def server(kestrel_bin):
    process, ports = _start(kestrel_bin, ["--pg-port", "0", "--trino-port", "0", "--data", str(tpch.generate(1))],
                            ["pg", "trino"])
    yield ports
    _stop(process)


def _text_rows(rows):
    return [[tpch.duckdb_text(v) for v in row] for row in rows]


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_through_psycopg(server, number):
    with psycopg.connect(host="127.0.0.1", port=server["pg"], user="tpch", autocommit=True) as conn:
        rows = conn.execute(tpch.query_text(number).strip().rstrip(";")).fetchall()
    problems = tpch.compare_with_answer(number, _text_rows(rows))
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_through_the_trino_client(server, number):
    cursor = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="tpch").cursor()
    cursor.execute(tpch.query_text(number).strip().rstrip(";"))
    problems = tpch.compare_with_answer(number, _text_rows(cursor.fetchall()))
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_through_presto_python_client(server, number):
    cursor = prestodb.dbapi.connect(host="127.0.0.1", port=server["trino"], user="tpch", catalog="kestrel",
                                    schema="public").cursor()
    cursor.execute(tpch.query_text(number).strip().rstrip(";"))
    problems = tpch.compare_with_answer(number, _text_rows(cursor.fetchall()))
    assert not problems, "\n".join(problems[:20])


@pytest.fixture(scope="module")
def psycopg_engine(server):
    engine = sqlalchemy.create_engine(f"postgresql+psycopg://tpch@127.0.0.1:{server['pg']}/kestrel")
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def trino_engine(server):
    engine = sqlalchemy.create_engine(f"trino://tpch@127.0.0.1:{server['trino']}/kestrel/public")
    yield engine
    engine.dispose()


@pytest.mark.parametrize("number", QUERIES)
@pytest.mark.parametrize("dialect", ["psycopg_engine", "trino_engine"])
def test_tpch_sf1_through_sqlalchemy(request, dialect, number):
    with request.getfixturevalue(dialect).connect() as conn:
        rows = conn.execute(sqlalchemy.text(tpch.query_text(number).strip().rstrip(";"))).fetchall()
    problems = tpch.compare_with_answer(number, _text_rows(rows))
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_through_psql(server, number):
    psql = shutil.which("psql")
    assert psql, "psql (Debian's postgresql-client, which scripts/setup.sh installs) is not on PATH"
    result = subprocess.run([psql, "-X", "--csv", "-h", "127.0.0.1", "-p", str(server["pg"]), "-U", "tpch", "-d",
                             "kestrel", "-v", "ON_ERROR_STOP=1", "-c", tpch.query_text(number).strip().rstrip(";")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))[1:]  # the header line first
    problems = tpch.compare_with_answer(number, rows)
    assert not problems, "\n".join(problems[:20])
