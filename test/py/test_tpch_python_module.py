"""The 22 TPC-H queries at SF1 through the Python module (kestrel.connect), against the official answers: the rows as
Python values (fetchall) and the same result through Arrow (the zero-copy export) must both match."""

import pytest

import tpch_support as tpch

QUERIES = list(range(1, 23))


@pytest.fixture(scope="module")
def connection(kestrel):
    con = kestrel.connect(tpch.generate(1))
    yield con
    con.close()


def _text_rows(rows):
    return [[tpch.duckdb_text(v) for v in row] for row in rows]


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_through_the_python_module(connection, number):
    result = connection.sql(tpch.query_text(number).strip().rstrip(";"))
    problems = tpch.compare_with_answer(number, _text_rows(result.fetchall()))
    assert not problems, "\n".join(problems[:20])
    table = result.arrow()
    assert table.column_names == result.columns
    arrow_rows = [tuple(row.values()) for row in table.to_pylist()]
    problems = tpch.compare_with_answer(number, _text_rows(arrow_rows))
    assert not problems, "through Arrow:\n" + "\n".join(problems[:20])
