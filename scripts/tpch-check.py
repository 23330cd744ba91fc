#!/usr/bin/env python3
"""Runs the 22 TPC-H queries with Kestrel on one device and checks the results: at SF1 against the official answers
(../shared/tpch), at other scale factors against Kestrel's own CPU results on the same files. Used by the device
script with `--device gpu --no-gpu-fallback`, where every operator must run on the GPU.

  scripts/tpch-check.py --kestrel build/kestrel --data DIR --sf 1 --device gpu --no-gpu-fallback

Prints one line per query and ends with "N passed, N failed, 0 skipped"; exits non-zero on any failure."""

import argparse
import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "test" / "py"))
import tpch_support as tpch  # noqa: E402


def run(kestrel, data, device, fallback_off, number, timeout):
    args = [kestrel, "--data", str(data), "--device", device, "--format", "csv"]
    if fallback_off:
        args.append("--no-gpu-fallback")
    args += ["-c", tpch.query_text(number)]
    start = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    elapsed = time.monotonic() - start
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}", elapsed
    return tpch.parse_csv(p.stdout)[1], None, elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kestrel", required=True)
    ap.add_argument("--data", required=True, help="folder with the TPC-H Parquet files")
    ap.add_argument("--sf", required=True, help="scale factor of the data (1: compare with the official answers)")
    ap.add_argument("--device", default="gpu")
    ap.add_argument("--no-gpu-fallback", action="store_true")
    ap.add_argument("--queries", default="1-22", help="e.g. 1-22 or 1,3,5")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    if "-" in a.queries:
        lo, hi = a.queries.split("-")
        numbers = list(range(int(lo), int(hi) + 1))
    else:
        numbers = [int(q) for q in a.queries.split(",")]
    passed = failed = 0
    for n in numbers:
        rows, error, elapsed = run(a.kestrel, a.data, a.device, a.no_gpu_fallback, n, a.timeout)
        problems = [error] if error else []
        if not problems:
            if float(a.sf) == 1:
                problems = tpch.compare_with_answer(n, rows)
            else:
                expected, cpu_error, _ = run(a.kestrel, a.data, "cpu", False, n, a.timeout)
                ordered = "order by" in tpch.query_text(n).lower()
                problems = [f"CPU run failed: {cpu_error}"] if cpu_error else tpch.compare_rows(expected, rows, ordered)
        status = "ok" if not problems else "FAILED"
        print(f"q{n:02d} {status} {elapsed:.2f}s" + ("" if not problems else ": " + "; ".join(problems[:3])),
              flush=True)
        if problems:
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed, 0 skipped")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
