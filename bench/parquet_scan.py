#!/usr/bin/env python3
"""Parquet scan benchmark (not a test): a full scan of every column of TPC-H lineitem written by tpchgen-cli,
Kestrel (kestrel-parquet-cat --scan-only) against pyarrow (pq.read_table), single-threaded and on all cores.

    .venv/bin/python bench/parquet_scan.py [--scale 1] [--runs 3] [--data DIR] [--tool PATH]

Prints the best of --runs for each side and the ratio Kestrel / pyarrow (below 1 means Kestrel is faster). Kestrel's
time is the wall time of the tool (process start and footer included); its decode-only time is shown beside it.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def find_tool(explicit):
    for c in [explicit, os.environ.get("KESTREL_PARQUET_CAT")] + [
            str(REPO / d / "kestrel-parquet-cat") for d in ("build-release", "build", "build-parquet")]:
        if c and os.access(c, os.X_OK):
            return c
    sys.exit("kestrel-parquet-cat not found: build it or pass --tool")


def ensure_lineitem(data_dir: Path, scale):
    path = data_dir / "lineitem.parquet"
    if path.exists():
        return path
    data_dir.mkdir(parents=True, exist_ok=True)
    gen = shutil.which("tpchgen-cli", path=str(REPO / ".venv" / "bin")) or shutil.which("tpchgen-cli")
    if gen is None:
        sys.exit("tpchgen-cli not found: .venv/bin/pip install tpchgen-cli")
    print(f"generating TPC-H SF{scale} lineitem into {data_dir} ...", flush=True)
    subprocess.run([gen, "parquet", "-s", str(scale), "--tables", "lineitem", "-o", str(data_dir)], check=True)
    return path


def time_kestrel(tool, path, threads, runs, extra=()):
    best_wall, best_decode, rows = None, None, None
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run([tool, "--scan-only", "--threads", str(threads), *extra, str(path)],
                              capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        rows = int(proc.stdout.strip())
        m = re.search(r"in ([0-9.]+) s", proc.stderr)
        decode = float(m.group(1)) if m else wall
        best_wall = wall if best_wall is None else min(best_wall, wall)
        best_decode = decode if best_decode is None else min(best_decode, decode)
    return best_wall, best_decode, rows


def time_pyarrow(path, threads, runs):
    import pyarrow.parquet as pq
    best, rows = None, None
    for _ in range(runs):
        start = time.perf_counter()
        table = pq.read_table(path, use_threads=threads)
        elapsed = time.perf_counter() - start
        rows = table.num_rows
        del table
        best = elapsed if best is None else min(best, elapsed)
    return best, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", default="1")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--tool", default=None)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads of the all-cores run")
    args = parser.parse_args()

    tool = find_tool(args.tool)
    data_dir = args.data or REPO / "data" / f"parquet-bench-sf{args.scale}"
    path = ensure_lineitem(data_dir, args.scale)
    print(f"file: {path} ({path.stat().st_size / 1e6:.1f} MB), tool: {tool}, best of {args.runs}")

    rows_py = None
    results = []
    # Kestrel keeps dictionary-encoded string chunks as dictionary columns; the "expanded" row makes it build plain
    # strings like pyarrow does.
    for label, k_threads, py_threads, extra in (("1 thread", 1, False, ()),
                                                ("1 thr, exp.", 1, False, ("--no-dictionary",)),
                                                (f"{args.threads} threads", args.threads, True, ())):
        k_wall, k_decode, rows_k = time_kestrel(tool, path, k_threads, args.runs, extra)
        p_time, rows_py = time_pyarrow(path, py_threads, args.runs)
        if rows_k != rows_py:
            sys.exit(f"row counts differ: Kestrel {rows_k}, pyarrow {rows_py}")
        results.append((label, k_wall, k_decode, p_time))

    print(f"rows: {rows_py}")
    print(f"{'scan':<12} {'kestrel s':>10} {'(decode s)':>11} {'pyarrow s':>10} {'kestrel/pyarrow':>16}")
    for label, k_wall, k_decode, p_time in results:
        print(f"{label:<12} {k_wall:>10.3f} {k_decode:>11.3f} {p_time:>10.3f} {k_wall / p_time:>16.2f}")


if __name__ == "__main__":
    main()
