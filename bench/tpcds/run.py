#!/usr/bin/env python3
"""TPC-DS-derived benchmark: the 99 queries (DuckDB's dsdgen data and query texts) on Kestrel and on DuckDB over
the same Parquet files, best of N runs each, the same thread count for both. Run it with the pinned TPC-DS
environment (scripts/setup.sh makes .venv-tpcds; its DuckDB is the peer):

    .venv-tpcds/bin/python bench/tpcds/run.py --sf 1 --threads 2 --runs 3 --device cpu --out bench/results/tpcds-sf1-cpu

Kestrel runs each query N times in one process and reports its own per-statement times (--timing), like
bench/tpch/run.py; DuckDB runs in this process over views of the same files, or over in-memory tables loaded from
them (--duckdb-tables memory). For hot GPU runs at larger scale factors, --one-process runs all queries in one
Kestrel process after one untimed warm-up run each, so the GPU table cache fills once, as in a server:

    python3 bench/tpcds/run.py --data DIR --sf 10 --device gpu --no-gpu-fallback --one-process \
        --threads 16 --duckdb-tables memory --out OUT
 Row counts are compared so that a fast
wrong answer does not count (scripts/tpcds-check.py checks the values). Writes results.csv and results.md: per query
both times and DuckDB/Kestrel, then the totals and the geometric mean of the ratios.
"""

import argparse
import csv
import importlib.util
import math
import pathlib
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test" / "py"))
sys.path.insert(0, str(REPO / "bench" / "tpch"))
from run import run_kestrel, run_kestrel_session  # noqa: E402  (bench/tpch/run.py)


def tpcds_check():
    spec = importlib.util.spec_from_file_location("tpcds_check", REPO / "scripts" / "tpcds-check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sf", default="1")
    ap.add_argument("--data", help="a folder made by scripts/tpcds-check.py (default: generate into the cache)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--settings", default="", help="extra SET statements for Kestrel, ';'-separated")
    ap.add_argument("--queries", default="1-99")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--out", required=True)
    ap.add_argument("--binary", default=str(REPO / "build" / "kestrel"))
    ap.add_argument("--no-gpu-fallback", action="store_true")
    ap.add_argument("--one-process", action="store_true",
                    help="all queries in one Kestrel process, each after one untimed warm-up run")
    ap.add_argument("--duckdb-tables", default="views", choices=["views", "memory"],
                    help="DuckDB reads views over the files, or tables loaded into memory first")
    a = ap.parse_args()
    import duckdb
    check = tpcds_check()
    data = pathlib.Path(a.data) if a.data else check.generate(a.sf)
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = [s.strip() for s in a.settings.split(";") if s.strip()]
    binary = pathlib.Path(a.binary)
    extra = ["--no-gpu-fallback"] if a.no_gpu_fallback else []
    numbers = check.parse_numbers(a.queries)
    texts = {n: (data / "queries" / f"q{n:02d}.sql").read_text() for n in numbers}
    session = None
    if a.one_process:
        start = time.perf_counter()
        session = run_kestrel_session(binary, data, a.device, a.threads, texts, a.runs, a.timeout, settings,
                                      warmup=1, extra_args=extra)
        print(f"kestrel: one process, {time.perf_counter() - start:.1f} s in all", flush=True)
    # DuckDB loads its tables after Kestrel's session so the two never hold the data in host memory at once.
    con = duckdb.connect()
    con.execute(f"SET threads = {a.threads}")
    start = time.perf_counter()
    kind = "TABLE" if a.duckdb_tables == "memory" else "VIEW"
    for path in sorted(data.glob("*.parquet")):
        con.execute(f"CREATE {kind} {path.stem} AS SELECT * FROM read_parquet('{path}')")
    print(f"duckdb: {a.duckdb_tables} tables created in {time.perf_counter() - start:.1f} s", flush=True)
    rows_out = []
    for n in numbers:
        text = texts[n]
        best = math.inf
        duck_rows = None
        for _ in range(a.runs):
            start = time.perf_counter()
            result = con.execute(text).fetchall()
            best = min(best, time.perf_counter() - start)
            duck_rows = len(result)
        if session is not None:
            k_time, k_rows, _, error, *_ = session[n]
        else:
            k_time, k_rows, _, error, *_ = run_kestrel(binary, data, a.device, a.threads, text, a.runs, a.timeout,
                                                   settings, extra_args=extra)
        note = error or ("" if k_rows == duck_rows else f"{k_rows} rows, DuckDB {duck_rows}")
        ratio = best / k_time if k_time and not note else None
        rows_out.append({"query": f"q{n:02d}", "kestrel_s": k_time, "duckdb_s": best, "ratio": ratio, "note": note})
        print(f"q{n:02d} kestrel {k_time if k_time is not None else float('nan'):.3f} s duckdb {best:.3f} s"
              + (f" ratio {ratio:.2f}" if ratio else f" ({note})"), flush=True)
    ok = [r for r in rows_out if r["ratio"]]
    total_k = sum(r["kestrel_s"] for r in ok)
    total_d = sum(r["duckdb_s"] for r in ok)
    geo = math.exp(sum(math.log(r["ratio"]) for r in ok) / len(ok)) if ok else float("nan")
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows_out[0].keys()))
        w.writeheader()
        w.writerows(rows_out)
    with open(out / "results.md", "w") as f:
        f.write(f"TPC-DS-derived SF {a.sf}, Kestrel ({a.device}{', one process' if a.one_process else ''}) vs "
                f"DuckDB {duckdb.__version__} ({a.duckdb_tables}), {a.threads} threads, best of {a.runs}\n\n| query | Kestrel (s) | DuckDB (s) | DuckDB/Kestrel | note |\n|---|---|---|---|---|\n")
        for r in rows_out:
            k = f"{r['kestrel_s']:.3f}" if r["kestrel_s"] is not None else "-"
            f.write(f"| {r['query']} | {k} | {r['duckdb_s']:.3f} | {r['ratio']:.2f} | {r['note']} |\n" if r["ratio"]
                    else f"| {r['query']} | {k} | {r['duckdb_s']:.3f} | - | {r['note']} |\n")
        f.write(f"| total ({len(ok)} queries) | {total_k:.3f} | {total_d:.3f} | {total_d / total_k:.2f} | |\n")
        f.write(f"\ngeometric mean of DuckDB/Kestrel: {geo:.2f}\n")
    print(f"total ({len(ok)} of {len(rows_out)} queries): kestrel {total_k:.2f} s, duckdb {total_d:.2f} s, "
          f"duckdb/kestrel {total_d / total_k if total_k else float('nan'):.2f}, geometric mean {geo:.2f}")
    return 0 if len(ok) == len(rows_out) else 1


if __name__ == "__main__":
    sys.exit(main())
