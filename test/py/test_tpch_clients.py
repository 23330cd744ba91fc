"""The 22 TPC-H queries at SF1 through `kestrel serve`, by the real clients of both protocols (psycopg 3 over the
PostgreSQL wire protocol, the trino client and presto-python-client over HTTP), against the official answers."""

import prestodb
import psycopg
import pytest
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
