"""The 99 TPC-DS queries at SF0.1 on the CPU, each result checked against DuckDB's answer on the same Parquet files.

Data and query texts come from DuckDB's TPC-DS extension in the pinned .venv-tpcds (scripts/setup.sh makes it);
scripts/tpcds-check.py generates the data once (cached under .cache/tpcds), runs Kestrel one process per query
with an 8 GiB address-space limit, and compares (TPC-H's rules: numbers within a relative 1e-9 or the printed
precision, rows in order where the query orders, ties in any order)."""

import re
import subprocess

import pytest

from conftest import REPO_ROOT as REPO

TPCDS_PYTHON = REPO / ".venv-tpcds" / "bin" / "python"


@pytest.fixture(scope="module")
def tpcds_results(kestrel_bin):
    assert TPCDS_PYTHON.exists(), f"{TPCDS_PYTHON} is missing: run scripts/setup.sh"
    p = subprocess.run([str(TPCDS_PYTHON), str(REPO / "scripts" / "tpcds-check.py"), "--kestrel", str(kestrel_bin),
                        "--sf", "0.1", "--memory-gb", "8", "--timeout", "120"],
                       capture_output=True, text=True, timeout=1800)
    lines = {}
    for line in p.stdout.splitlines():
        m = re.match(r"q(\d\d) (ok|FAILED) ", line)
        if m:
            lines[int(m.group(1))] = line
    assert lines, f"tpcds-check printed no results:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    return lines


@pytest.mark.parametrize("number", range(1, 100))
def test_tpcds_sf01_matches_duckdb(tpcds_results, number):
    line = tpcds_results.get(number)
    assert line is not None, f"q{number:02d} has no result"
    assert " ok " in line, line
