#!/usr/bin/env python3
"""Warm GPU scans under variants of the scan's knobs, on the GPU machine: for each variant (settings and developer
environment variables) one Kestrel process runs every query once untimed (files mapped and registered) and then
--runs times with the table cache off, and the best time of each query is printed as a table of queries by
variants. The queries are TPC-H-derived queries by number and scan-only probes (count(*) under always-true
predicates over given columns, so that the scan is nearly all the work). The first variant also keeps each query's
EXPLAIN ANALYZE in --out. Tells whether a warm query is bound by the scan or by its operators, and which knob moves it.

    python3 bench/scan_variants.py --data /tmp/tpch-sf100 --sf 100 --bin /tmp/bin/kestrel --out $OUT/variants \\
        --queries 1,6,15,21 --probe lineitem:l_suppkey,l_extendedprice,l_discount,l_shipdate \\
        --variant default: --variant streams8:gpu_streams=8 --variant ahead8:KESTREL_READ_AHEAD=8
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support as tpch  # noqa: E402

MARKER = "kestrel_variant_marker"


def probe_sql(spec):
    table, _, columns = spec.partition(":")
    cols = [c for c in columns.split(",") if c]
    # IS NOT NULL OR IS NULL holds for every row and reads the column on every device.
    where = " AND ".join(f"({c} IS NOT NULL OR {c} IS NULL)" for c in cols)
    return f"SELECT count(*) FROM {table} WHERE {where}"


def run_variant(binary, data, texts, settings, env, runs, explain, timeout):
    script = "SET gpu_cache = false;\n" + "".join(f"SET {s};\n" for s in settings)
    for name, text in texts.items():
        q = text.strip().rstrip(";") + ";\n"
        script += f"SELECT '{name}' AS {MARKER};\n" + q * (1 + runs) + (f"EXPLAIN ANALYZE {q}" if explain else "")
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as f:
        f.write(script)
        f.flush()
        r = subprocess.run([str(binary), "--data", str(data), "--device", "gpu", "--no-gpu-fallback", "--format",
                            "csv", "--timing", "-f", f.name], capture_output=True, text=True, timeout=timeout,
                           env={**os.environ, **env})
    times = [float(t) / 1000 for t in re.findall(r"Run Time: ([0-9.]+) ms", r.stderr)][1 + len(settings):]
    per = 2 + runs + (1 if explain else 0)
    out = {}
    for i, section in enumerate(r.stdout.split(f"{MARKER}\n")[1:]):
        name = section.split("\n", 1)[0]
        mine = times[i * per + 2:i * per + 2 + runs]
        plan = section.split("\nplan\n")[1] if "\nplan\n" in section else ""
        out[name] = (min(mine) if len(mine) == runs else None, plan)
    if r.returncode != 0:
        print(f"  failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--sf", default="1")
    ap.add_argument("--bin", required=True, help="the kestrel binary")
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--queries", default="1,6,15,21", help="TPC-H query numbers")
    ap.add_argument("--probe", action="append", default=[], help="TABLE:COL,COL,... a scan-only query")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME:KEY=VALUE,... (upper-case keys are environment variables, others SET statements)")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    texts = {f"q{int(q):02d}": tpch.query_text(int(q), float(a.sf)) for q in a.queries.split(",") if q}
    for i, spec in enumerate(a.probe):
        texts[f"scan{i + 1}"] = probe_sql(spec)
        print(f"scan{i + 1}: {texts[f'scan{i + 1}']}")
    variants = a.variant or ["default:"]
    table = {}
    for v, spec in enumerate(variants):
        name, _, kvs = spec.partition(":")
        settings, env = [], {}
        for kv in filter(None, kvs.split(",")):
            key, _, value = kv.partition("=")
            (env.__setitem__(key, value) if key.isupper() else settings.append(f"{key} = {value}"))
        print(f"== variant {name}: settings {settings} env {env}", flush=True)
        result = run_variant(a.bin, a.data, texts, settings, env, a.runs, v == 0, a.timeout)
        for q, (t, plan) in result.items():
            table.setdefault(q, {})[name] = t
            if v == 0 and plan:
                (out / f"explain-{q}.txt").write_text(plan)
        print("  " + "  ".join(f"{q} {t:.3f}" if t is not None else f"{q} -" for q, (t, _) in result.items()),
              flush=True)
    names = [s.partition(":")[0] for s in variants]
    lines = ["| query | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for q in texts:
        row = table.get(q, {})
        lines.append(f"| {q} | " + " | ".join(f"{row[n]:.3f}" if row.get(n) is not None else "-" for n in names) + " |")
    (out / "variants.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
