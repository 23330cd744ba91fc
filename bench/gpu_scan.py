#!/usr/bin/env python3
"""GPU scans from files, on the GPU machine: the 22 TPC-H-derived queries warm (gpu_cache off, the Parquet files in
the operating system's file cache: every run reads and decodes them on the GPU) against hot (tables resident in the
GPU table cache), the file bytes each query reads, the pinned host-to-device bandwidth measured in the same run, and
DuckDB reading the same files through views with all cores. Per query it checks warm <= hot + 1.5 x bytes / H2D +
50 ms and warm < DuckDB, and writes results.md and results.csv into --out.

    python3 bench/gpu_scan.py --data /tmp/tpch-sf100 --sf 100 --bin .device/bin --out $OUT/scan
"""

import argparse
import csv
import pathlib
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support as tpch  # noqa: E402

MARKER = "kestrel_scan_marker"


def session(binary, data, queries, sf, runs, settings, explain, extra, timeout):
    """One Kestrel process running every query `runs` times (after `settings`), then EXPLAIN ANALYZE once when
    `explain`. Returns {q: (best seconds, rows, explain text or '', error)}."""
    script = "".join(f"SET {s};\n" for s in settings)
    for q in queries:
        query = tpch.query_text(q, sf).strip().rstrip(";") + ";\n"
        script += f"SELECT '{q}' AS {MARKER};\n" + query * runs + (f"EXPLAIN ANALYZE {query}" if explain else "")
    r = subprocess.run([str(binary), "--data", str(data), "--device", "gpu", "--format", "csv", "--timing", *extra,
                        "-c", script], capture_output=True, text=True, timeout=timeout)
    times = [float(t) / 1000 for t in re.findall(r"Run Time: ([0-9.]+) ms", r.stderr)][len(settings):]
    per_query = 1 + runs + (1 if explain else 0)
    out = {}
    for i, section in enumerate(r.stdout.split(f"{MARKER}\n")[1:]):
        q = int(section.split("\n", 1)[0])
        body = section.split("\n", 1)[1] if "\n" in section else ""
        mine = times[i * per_query + 1:i * per_query + 1 + runs]
        if len(mine) < runs:
            out[q] = (None, None, "", r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed", "")
            continue
        result = body.split("\nplan\n")[0].rstrip("\n") + "\n"
        rows = max(0, result.count("\n") // runs - 1)
        first = "\n".join(result.splitlines()[:1 + rows])  # the first run's result (header and rows)
        out[q] = (min(mine), rows, body.split("\nplan\n")[1] if "\nplan\n" in body else "", None, first)
    error = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
    missing = [q for q in queries if q not in out or out[q][0] is None]
    if missing:
        # The process stopped at the first failing query: it keeps its error, the ones after it run in a new process.
        out[missing[0]] = (None, None, "", error, "")
        rest = queries[queries.index(missing[0]) + 1:]
        if rest:
            out.update(session(binary, data, rest, sf, runs, settings, explain, extra, timeout))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--sf", default="1")
    ap.add_argument("--bin", required=True, help="folder with kestrel and kestrel-gpu-scan-bench")
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--duckdb-runs", type=int, default=1)
    ap.add_argument("--queries", default="1-22")
    ap.add_argument("--no-duckdb", action="store_true")
    ap.add_argument("--settings", default="", help="extra SET statements for both sessions, ';'-separated")
    ap.add_argument("--timeout", type=int, default=1200)
    ap.add_argument("--warm-only", action="store_true", help="no hot session (and no bounds)")
    a = ap.parse_args()
    lo, _, hi = a.queries.partition("-")
    queries = list(range(int(lo), int(hi or lo) + 1)) if "," not in a.queries else [int(x) for x in a.queries.split(",")]
    sf = float(a.sf)
    binary = pathlib.Path(a.bin) / "kestrel"
    out_dir = pathlib.Path(a.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    extra = ["--no-gpu-fallback"]
    settings = [s.strip() for s in a.settings.split(";") if s.strip()]

    h2d = subprocess.run([str(pathlib.Path(a.bin) / "kestrel-gpu-scan-bench"), "h2d", "4"], capture_output=True,
                         text=True)
    m = re.search(r"([0-9.]+) GB/s", h2d.stdout)
    h2d_gbps = float(m.group(1)) if m else None
    print(h2d.stdout.strip() or h2d.stderr.strip(), flush=True)

    start = time.perf_counter()
    warm = session(binary, a.data, queries, sf, a.runs, ["gpu_cache = false"] + settings, True, extra, a.timeout)
    print(f"warm session: {time.perf_counter() - start:.1f} s", flush=True)
    start = time.perf_counter()
    if a.warm_only:
        hot = {q: (None, None, "", None, None) for q in queries}
    else:
        hot = session(binary, a.data, queries, sf, a.runs + 1, settings, False, extra, a.timeout)
    print(f"hot session: {time.perf_counter() - start:.1f} s", flush=True)

    duck = {}
    if not a.no_duckdb:
        import duckdb
        con = duckdb.connect()
        for table in tpch.TABLES:
            con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{pathlib.Path(a.data) / (table + '.parquet')}')")
        for q in queries:
            best = None
            for _ in range(a.duckdb_runs):
                t0 = time.perf_counter()
                rows = len(con.execute(tpch.query_text(q, sf)).fetchall())
                best = min(best or 1e9, time.perf_counter() - t0)
            duck[q] = (best, rows)

    rows_out = []
    for q in queries:
        w_t, w_rows, explain, w_err, w_text = warm[q]
        h_t, h_rows, _, h_err, h_text = hot[q]
        m = re.search(r"GPU (?:Parquet |kcol |Parquet and kcol )scan: .*?([0-9.]+) MiB read", explain)
        read_mib = float(m.group(1)) if m else 0.0
        bound = (h_t + 1.5 * read_mib * 1.048576e6 / (h2d_gbps * 1e9) + 0.05) if (h_t is not None and h2d_gbps) else None
        d_t, d_rows = duck.get(q, (None, None))
        note = w_err or h_err or ""
        if not note and d_rows is not None and w_rows != d_rows:
            note = f"rows {w_rows} vs DuckDB {d_rows}"
        if not note and h_text is not None and w_text != h_text:
            note = "warm result differs from the hot one"
            with open(out_dir / f"diff-q{q:02d}.txt", "w") as f:
                f.write("hot:\n" + h_text + "\nwarm:\n" + w_text + "\n")
        with open(out_dir / f"warm-q{q:02d}.csv", "w") as f:
            f.write(w_text + "\n")
        if explain:
            with open(out_dir / f"explain-q{q:02d}.txt", "w") as f:
                f.write(explain + "\n")
        scan_line = next((l.strip('"') for l in explain.splitlines() if re.search(r"GPU (Parquet |kcol |Parquet and kcol )scan:", l)), "")
        with open(out_dir / "scan-stats.txt", "a") as f:
            f.write(f"q{q:02d}: {scan_line}\n")
        rows_out.append({"query": f"q{q:02d}", "hot_s": h_t, "warm_s": w_t, "read_mib": read_mib, "bound_s": bound,
                         "within_bound": bool(w_t is not None and bound is not None and w_t <= bound),
                         "duckdb_s": d_t, "faster_than_duckdb": bool(w_t is not None and d_t and w_t < d_t),
                         "note": note})
        r = rows_out[-1]
        fmt = lambda v: "-" if v is None else f"{v:.3f}"
        print(f"q{q:02d} hot {fmt(h_t)} warm {fmt(w_t)} read {read_mib:.0f} MiB bound {fmt(bound)} "
              f"{'ok' if r['within_bound'] else 'OVER'} duckdb {fmt(d_t)} {note}", flush=True)
    with open(out_dir / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows_out[0].keys()))
        w.writeheader()
        w.writerows(rows_out)
    tot = lambda k: sum(r[k] or 0 for r in rows_out)
    with open(out_dir / "results.md", "w") as f:
        fmt_name = "kcol" if any(pathlib.Path(a.data).glob("*.kcol")) else "Parquet"
        f.write(f"GPU scans from {fmt_name}, TPC-H-derived SF {a.sf}, best of {a.runs}; pinned H2D {h2d_gbps} GB/s\n\n")
        f.write("| query | hot (s) | warm (s) | read (MiB) | bound (s) | within | DuckDB views (s) | DuckDB/warm | note |\n")
        f.write("|---|---|---|---|---|---|---|---|---|\n")
        for r in rows_out:
            fmt = lambda v: "-" if v is None else f"{v:.3f}"
            ratio = f"{r['duckdb_s'] / r['warm_s']:.1f}" if r["duckdb_s"] and r["warm_s"] else "-"
            f.write(f"| {r['query']} | {fmt(r['hot_s'])} | {fmt(r['warm_s'])} | {r['read_mib']:.0f} | "
                    f"{fmt(r['bound_s'])} | {'yes' if r['within_bound'] else 'no'} | {fmt(r['duckdb_s'])} | {ratio} | "
                    f"{r['note']} |\n")
        f.write(f"| total | {tot('hot_s'):.3f} | {tot('warm_s'):.3f} | {tot('read_mib'):.0f} | | | "
                f"{tot('duckdb_s'):.3f} | | |\n")
    print(f"total: hot {tot('hot_s'):.3f} s, warm {tot('warm_s'):.3f} s, read {tot('read_mib'):.0f} MiB, "
          f"duckdb {tot('duckdb_s'):.3f} s, within bound {sum(r['within_bound'] for r in rows_out)}/{len(rows_out)}, "
          f"faster than duckdb {sum(r['faster_than_duckdb'] for r in rows_out)}/{len(rows_out)}, "
          f"warm results equal to hot {sum(1 for r in rows_out if not r['note'])}/{len(rows_out)}")


if __name__ == "__main__":
    main()
