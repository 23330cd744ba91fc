#!/usr/bin/env python3
"""Issue-3 benchmark: SELECT sum(l_extendedprice), count(*) FROM lineitem on TPC-H lineitem Parquet (tpchgen-cli),
all cores, Kestrel vs DuckDB on the same file in the same run, best of N. Not a test."""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support as tpch  # noqa: E402

SQL = "SELECT sum(l_extendedprice), count(*) FROM lineitem"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--sf", default="1")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    args = p.parse_args()
    data = tpch.generate(args.sf)
    script = f"SET threads = {args.threads};\n" + (SQL + ";\n") * args.runs
    r = subprocess.run([str(REPO / "build" / "kestrel"), "--data", str(data), "--device", "cpu", "--format", "csv",
                        "--timing", "-c", script], capture_output=True, text=True, check=True)
    kestrel = min(float(t) for t in re.findall(r"Run Time: ([0-9.]+) ms", r.stderr)[1:]) / 1000
    k_answer = r.stdout.splitlines()[1]
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads = {args.threads}")
    best = None
    for _ in range(args.runs):
        t = time.perf_counter()
        d_answer = con.execute(SQL.replace("lineitem", f"read_parquet('{data / 'lineitem.parquet'}')")).fetchall()
        best = min(best or 1e9, time.perf_counter() - t)
    print(f"SF {args.sf}, {args.threads} threads, best of {args.runs}")
    print(f"kestrel {kestrel:.3f} s ({k_answer}); duckdb {best:.3f} s ({d_answer[0]}); ratio {kestrel / best:.2f}")


if __name__ == "__main__":
    main()
