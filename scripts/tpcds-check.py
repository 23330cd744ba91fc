#!/usr/bin/env python3
"""Runs the 99 TPC-DS queries with Kestrel and checks each result against DuckDB's answer on the same Parquet files.

The data and the query texts come from DuckDB's TPC-DS extension (dsdgen, tpcds_queries()), pinned to
duckdb==1.5.5 with duckdb-extension-tpcds==1.5.5 in their own environment (.venv-tpcds, made by scripts/setup.sh),
so run this script with that environment's Python:

  .venv-tpcds/bin/python scripts/tpcds-check.py --kestrel build/kestrel --sf 0.1 [--device cpu] [--queries 1-99]

Data is generated once per scale factor into .cache/tpcds/sfN (KESTREL_DATA_CACHE/tpcds overrides the root).
Comparison as for TPC-H: numbers within a relative 1e-9 (or the printed precision), rows in order where the query
orders (ties in any order), as a multiset otherwise. Prints one line per query and ends with
"N passed, N failed, 0 skipped"; exits non-zero on any failure."""

import argparse
import os
import pathlib
import resource
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support  # noqa: E402  (parse_csv, compare_rows)


def extension_path():
    import duckdb_extension_tpcds
    found = sorted(pathlib.Path(duckdb_extension_tpcds.__file__).parent.rglob("*.duckdb_extension"))
    if not found:
        raise SystemExit("duckdb-extension-tpcds ships no extension file")
    return found[-1]


def generate(sf):
    """Parquet files of the 24 tables and the 99 query texts at scale factor `sf`, cached; returns the folder."""
    import duckdb
    root = pathlib.Path(os.environ.get("KESTREL_DATA_CACHE", REPO / ".cache")) / "tpcds"
    folder = root / f"sf{sf}"
    marker = folder / ".complete"
    if marker.exists():
        return folder
    (folder / "queries").mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"LOAD '{extension_path()}'")
    con.execute(f"CALL dsdgen(sf={sf})")
    for (table,) in con.execute("SHOW TABLES").fetchall():
        con.execute(f"COPY {table} TO '{folder / (table + '.parquet')}' (FORMAT parquet)")
    for number, text in con.execute("SELECT query_nr, query FROM tpcds_queries()").fetchall():
        (folder / "queries" / f"q{number:02d}.sql").write_text(text)
    marker.touch()
    return folder


def expected_rows(con, text):
    return [[tpch_support.duckdb_text(v) for v in row] for row in con.execute(text).fetchall()]


def run_kestrel(kestrel, data, device, fallback_off, text, timeout, memory_gb):
    args = [kestrel, "--data", str(data), "--device", device, "--format", "csv"]
    if fallback_off:
        args.append("--no-gpu-fallback")
    args += ["-c", text]

    def limit():
        if memory_gb:
            cap = int(memory_gb * (1 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    start = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return None, f"timed out after {timeout:.0f} s", time.monotonic() - start, 0
    elapsed = time.monotonic() - start
    # The process was reaped by communicate(); its peak resident set is among the children's usage.
    peak_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    if p.returncode != 0:
        last = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {p.returncode}"
        return None, last, elapsed, peak_rss
    return tpch_support.parse_csv(stdout)[1] if stdout.strip() else [], None, elapsed, peak_rss


def parse_numbers(spec):
    out = []
    for part in spec.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += list(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kestrel", required=True)
    ap.add_argument("--sf", default="0.1")
    ap.add_argument("--data", help="an existing folder made by this script (default: generate into the cache)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--no-gpu-fallback", action="store_true")
    ap.add_argument("--queries", default="1-99", help="e.g. 1-99 or 3,8,15")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--memory-gb", type=float, default=0, help="address-space limit of each Kestrel process")
    a = ap.parse_args()
    import duckdb
    data = pathlib.Path(a.data) if a.data else generate(a.sf)
    con = duckdb.connect()
    for path in sorted(data.glob("*.parquet")):
        con.execute(f"CREATE VIEW {path.stem} AS SELECT * FROM read_parquet('{path}')")
    passed = failed = 0
    kestrel_total = duckdb_total = 0.0
    peak_rss, peak_query = 0, None
    for n in parse_numbers(a.queries):
        text = (data / "queries" / f"q{n:02d}.sql").read_text()
        t0 = time.monotonic()
        expected = expected_rows(con, text)
        duckdb_total += time.monotonic() - t0
        rows, error, elapsed, rss = run_kestrel(a.kestrel, data, a.device, a.no_gpu_fallback, text, a.timeout,
                                                a.memory_gb)
        if rss > peak_rss:
            peak_rss, peak_query = rss, n
        kestrel_total += elapsed
        problems = [error] if error else []
        if not problems:
            ordered = "order by" in text.lower()
            problems = tpch_support.compare_rows(expected, rows, ordered)
            if problems and ordered and not tpch_support.compare_rows(expected, rows, False):
                problems = []  # the same rows; only ties came out in another order
        status = "ok" if not problems else "FAILED"
        print(f"q{n:02d} {status} {elapsed:.2f}s" + ("" if not problems else ": " + "; ".join(problems[:3])),
              flush=True)
        passed += 0 if problems else 1
        failed += 1 if problems else 0
    print(f"kestrel {kestrel_total:.1f} s (one process per query), duckdb {duckdb_total:.1f} s")
    if peak_query is not None:
        # RUSAGE_CHILDREN keeps the largest peak of any child so far: the first query to reach it is the one named.
        print(f"largest Kestrel peak resident set: {peak_rss / (1 << 30):.2f} GiB (first reached by q{peak_query:02d})")
    print(f"{passed} passed, {failed} failed, 0 skipped")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
