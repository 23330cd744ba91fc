"""The 22 TPC-H queries on Kestrel's CPU path: at SF1 against the official answers (from the Parquet files and from
their kcol conversion), at SF0.1 against DuckDB reading the same Parquet files."""

import pytest

import tpch_support as tpch

QUERIES = list(range(1, 23))


@pytest.fixture(scope="module")
def sf1():
    return tpch.generate(1)


@pytest.fixture(scope="module")
def sf1_kcol(sf1, run_kestrel):
    """The SF1 tables converted to kcol by COPY (cached beside the Parquet files; the marker names the layout
    revision of docs/kcol.md, so a cache written before a layout change is rewritten)."""
    folder = sf1.parent / "sf1-kcol"
    marker = folder / ".complete-lz4-frames"
    if not marker.exists():
        folder.mkdir(parents=True, exist_ok=True)
        for table in tpch.TABLES:
            r = run_kestrel("-c", f"COPY (SELECT * FROM read_parquet('{sf1 / (table + '.parquet')}')) TO "
                                  f"'{folder / (table + '.kcol')}'", timeout=600)
            assert r.returncode == 0, r.describe()
        marker.touch()
    return folder


@pytest.fixture(scope="module")
def sf01():
    return tpch.generate(0.1)


def run_query(run_kestrel, data, number):
    result = run_kestrel("--data", str(data), "--device", "cpu", "--format", "csv", "-c", tpch.query_text(number),
                         timeout=600)
    assert result.returncode == 0, f"q{number} failed: {result.stderr}"
    return tpch.parse_csv(result.stdout)


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_matches_official_answers(run_kestrel, sf1, number):
    _, rows = run_query(run_kestrel, sf1, number)
    problems = tpch.compare_with_answer(number, rows)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf1_from_kcol_matches_official_answers(run_kestrel, sf1_kcol, number):
    _, rows = run_query(run_kestrel, sf1_kcol, number)
    problems = tpch.compare_with_answer(number, rows)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("number", QUERIES)
def test_tpch_sf01_matches_duckdb(run_kestrel, sf01, number):
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    for table in tpch.TABLES:
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{sf01 / (table + '.parquet')}')")
    expected = [["" if v is None else str(v) for v in row] for row in con.execute(tpch.query_text(number)).fetchall()]
    _, rows = run_query(run_kestrel, sf01, number)
    ordered = "order by" in tpch.query_text(number).lower()
    problems = tpch.compare_rows(expected, rows, ordered)
    assert not problems, "\n".join(problems[:20])
