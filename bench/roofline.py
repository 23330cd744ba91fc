#!/usr/bin/env python3
"""A roofline of TPC-H queries from EXPLAIN ANALYZE of hot runs: per query and per step (scan, operator, sink) the
rows, the time (the GPU time of the step's kernels when it ran on the GPU, else its host time summed over drivers),
the bytes it read (its input batches) and wrote (the buffers of its output that it made, not those it passed on), its
throughput and the fraction of the memory bandwidth that is; per query the ratio of its time to the floor (bytes its
table scans produced / bandwidth). GPU scans give out every column they read, so on the GPU that is the bytes they
must read; CPU scans apply pushed-down filters first, so there it is a lower bound and the ratio an upper bound.

Every query runs in one Kestrel process after `--warmup` untimed runs (the GPU table cache filled: hot), then once
under EXPLAIN ANALYZE, whose step statistics this reads.

    .venv/bin/python bench/roofline.py --data .cache/tpch/sf1 --device cpu --bandwidth-gbs 20 --queries 1,6
    python3 bench/roofline.py --data /tmp/tpch-sf100 --device gpu --bandwidth-gbs 4300 --out $OUT/roofline
"""

import argparse
import csv
import io
import json
import pathlib
import re
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support as tpch  # noqa: E402

MARKER = "kestrel_roofline_marker"
STEP = re.compile(r"^\s*(?P<name>.+?)\s+rows\s+(?P<rows>\d+)\s+time\s+(?P<ms>[0-9.]+) ms"
                  r"(?:\s+gpu\s+(?P<gpu>[0-9.]+) ms)?\s+in\s+(?P<inm>[0-9.]+) MiB\s+out\s+(?P<outm>[0-9.]+) MiB\s*$")
PIPELINE = re.compile(r"^Pipeline (\d+)")
TOTAL = re.compile(r"^Total ([0-9.]+) ms")
MIB = 1 << 20


def parse_plan(lines):
    """The steps of an EXPLAIN ANALYZE text: [{pipeline, position, name, rows, ms, gpu_ms, in_bytes, out_bytes}] and
    the total milliseconds."""
    steps, total, pipeline, position = [], None, None, 0
    for line in lines:
        m = PIPELINE.match(line)
        if m:
            pipeline, position = int(m.group(1)), 0
            continue
        m = TOTAL.match(line)
        if m:
            total = float(m.group(1))
            continue
        m = STEP.match(line)
        if m and pipeline is not None:
            steps.append({"pipeline": pipeline, "position": position, "name": m.group("name").strip(),
                          "rows": int(m.group("rows")), "ms": float(m.group("ms")),
                          "gpu_ms": float(m.group("gpu")) if m.group("gpu") else None,
                          "in_bytes": float(m.group("inm")) * MIB, "out_bytes": float(m.group("outm")) * MIB})
            position += 1
    return steps, total


def is_table_scan(step):
    return step["position"] == 0 and step["name"].startswith("Scan ")


def roofline(steps, total_ms, bandwidth_gbs):
    """Adds throughput and bandwidth fraction to each step; returns the query summary."""
    for s in steps:
        ms = s["gpu_ms"] if s["gpu_ms"] is not None else s["ms"]
        moved = s["in_bytes"] + s["out_bytes"]
        s["gbs"] = moved / (ms / 1000) / 1e9 if ms > 0 else None
        s["fraction"] = s["gbs"] / bandwidth_gbs if s["gbs"] is not None else None
    scan_bytes = sum(s["out_bytes"] for s in steps if is_table_scan(s))
    floor_ms = scan_bytes / (bandwidth_gbs * 1e9) * 1000
    return {"total_ms": total_ms, "scan_bytes": scan_bytes, "floor_ms": floor_ms,
            "ratio": (total_ms / floor_ms) if floor_ms > 0 and total_ms else None}


def run(binary, data, device, queries, warmup, timeout, settings, sf):
    script = "".join(f"SET {s};\n" for s in settings)
    for q in queries:
        text = tpch.query_text(q, sf).strip().rstrip(";") + ";\n"
        script += f"SELECT '{q}' AS {MARKER};\n" + text * warmup + "EXPLAIN ANALYZE " + text
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as f:
        f.write(script)
        f.flush()
        r = subprocess.run([str(binary), "--data", str(data), "--device", device, "--format", "csv", "-f", f.name],
                           capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise SystemExit(f"kestrel failed: {r.stderr.strip()[-2000:]}")
    plans = {}
    for section in r.stdout.split(f"{MARKER}\n")[1:]:
        number = int(section.split("\n", 1)[0])
        body = section.split("\nplan\n")[-1]
        plans[number] = [row[0] if row else "" for row in csv.reader(io.StringIO(body))]
    return plans


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="TPC-H Parquet (or kcol) folder")
    ap.add_argument("--sf", default="1", help="scale factor of --data (for Q11's parameter)")
    ap.add_argument("--device", default="gpu", choices=["cpu", "gpu"])
    ap.add_argument("--queries", default=",".join(str(q) for q in range(1, 23)))
    ap.add_argument("--bandwidth-gbs", type=float, default=4300.0,
                    help="memory bandwidth in GB/s (the H200's HBM measured 4300)")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1200)
    ap.add_argument("--setting", action="append", default=[], help="a `name = value` to SET first (repeatable)")
    ap.add_argument("--kestrel", default=str(REPO / "build" / "kestrel"))
    ap.add_argument("--out", help="folder for roofline.json and roofline.md")
    a = ap.parse_args()
    queries = [int(q) for q in a.queries.split(",")]
    sf = int(float(a.sf)) if float(a.sf).is_integer() else float(a.sf)
    plans = run(a.kestrel, a.data, a.device, queries, a.warmup, a.timeout, a.setting, sf)
    report, lines = {}, []
    summary = ["| query | time (ms) | scans produced (MiB) | floor (ms) | time / floor |", "|---|---|---|---|---|"]
    for q in queries:
        steps, total = parse_plan(plans.get(q, []))
        if not steps:
            summary.append(f"| q{q:02d} | failed | | | |")
            continue
        s = roofline(steps, total, a.bandwidth_gbs)
        report[q] = {"steps": steps, **s}
        ratio = f"{s['ratio']:.1f}" if s["ratio"] else "-"
        summary.append(f"| q{q:02d} | {total:.3f} | {s['scan_bytes'] / MIB:.1f} | {s['floor_ms']:.3f} | {ratio} |")
        lines.append(f"\n### q{q:02d}: {total:.3f} ms, floor {s['floor_ms']:.3f} ms\n")
        lines.append("| pipeline | step | rows | ms | GPU ms | MiB in | MiB out | GB/s | of bandwidth |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for st in steps:
            gpu = f"{st['gpu_ms']:.3f}" if st["gpu_ms"] is not None else ""
            gbs = f"{st['gbs']:.1f}" if st["gbs"] is not None else ""
            frac = f"{100 * st['fraction']:.1f}%" if st["fraction"] is not None else ""
            lines.append(f"| {st['pipeline']} | {st['name']} | {st['rows']} | {st['ms']:.3f} | {gpu} | "
                         f"{st['in_bytes'] / MIB:.1f} | {st['out_bytes'] / MIB:.1f} | {gbs} | {frac} |")
    text = "\n".join(summary + lines) + "\n"
    print(text)
    if a.out:
        out = pathlib.Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "roofline.md").write_text(text)
        (out / "roofline.json").write_text(json.dumps({"bandwidth_gbs": a.bandwidth_gbs, "queries": report},
                                                      indent=1))
        for q, plan in plans.items():  # the whole EXPLAIN ANALYZE texts (scan statistics lines included)
            (out / f"plan-q{q:02d}.txt").write_text("\n".join(plan) + "\n")
    return 0 if all(q in report for q in queries) else 1


if __name__ == "__main__":
    sys.exit(main())
