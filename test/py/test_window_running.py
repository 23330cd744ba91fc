"""Running window aggregates (frames from UNBOUNDED PRECEDING to the current row or to its last peer) over many
partitions with ties and NULLs, against DuckDB on the same Parquet file. Kestrel computes them as a prefix scan
of the accumulators (log2 rounds of merges), which must equal row-by-row accumulation."""

import csv
import io
import math
import random

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq


def test_running_aggregates_match_duckdb(tmp_path, run_kestrel):
    rnd = random.Random(5)
    n = 20000
    part = [rnd.randrange(300) if rnd.random() > 0.01 else None for _ in range(n)]
    order = [rnd.randrange(50) for _ in range(n)]  # many ties: peer groups
    value = [rnd.randrange(-1000, 1000) if rnd.random() > 0.1 else None for _ in range(n)]
    pq.write_table(pa.table({"id": list(range(n)), "p": part, "o": order, "v": value}), tmp_path / "t.parquet")
    select = ("SELECT id, "
              "sum(v) OVER (PARTITION BY p ORDER BY o, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s1, "
              "min(v) OVER (PARTITION BY p ORDER BY o, id ROWS UNBOUNDED PRECEDING) AS mn, "
              "max(v) OVER (PARTITION BY p ORDER BY o) AS mx, "
              "count(v) OVER (PARTITION BY p ORDER BY o) AS c, "
              "avg(v) OVER (PARTITION BY p ORDER BY o, id ROWS UNBOUNDED PRECEDING) AS a "
              "FROM {t} ORDER BY id")
    path = tmp_path / "t.parquet"
    r = run_kestrel("--device", "cpu", "--format", "csv", "-c", select.format(t=f"read_parquet('{path}')"))
    assert r.returncode == 0, r.describe()
    got = list(csv.reader(io.StringIO(r.stdout)))[1:]
    expected = duckdb.sql(select.format(t=f"read_parquet('{path}')")).fetchall()
    assert len(got) == len(expected) == n
    for g, e in zip(got, expected):
        for x, y in zip(g, e):
            if y is None:
                assert x == "", (g, e)
            elif isinstance(y, float):
                assert math.isclose(float(x), y, rel_tol=1e-9, abs_tol=1e-6), (g, e)
            else:
                assert float(x) == float(y), (g, e)
