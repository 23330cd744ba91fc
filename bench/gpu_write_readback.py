#!/usr/bin/env python3
"""Parquet written by Kestrel's GPU encoder, read back by pyarrow: a table of a data folder is loaded into the GPU
table cache, written with `COPY t TO 'x.parquet'` in GPU mode (gpu_encode on, fallback off), and pyarrow's reading
of the written file must equal pyarrow's reading of the source file, value by value (string and decimal types
normalized, rows in the source's order). Prints one line per table and exits non-zero on a difference.

    python bench/gpu_write_readback.py --data /tmp/tpch-sf1 --kestrel build/kestrel --out /dev/shm/kw [--table T ...]
"""
import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def normalized(table: pa.Table) -> pa.Table:
    columns = []
    for column in table.columns:
        t = column.type
        if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
            column = column.cast(pa.large_string())
        elif pa.types.is_dictionary(t):
            column = column.cast(t.value_type).cast(pa.large_string())
        columns.append(column.combine_chunks())
    return pa.table(columns, names=table.column_names)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", required=True)
    p.add_argument("--kestrel", required=True)
    p.add_argument("--out", default="/dev/shm/kestrel-readback")
    p.add_argument("--table", action="append")
    a = p.parse_args()
    out = Path(a.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    tables = a.table or sorted(f.stem for f in Path(a.data).glob("*.parquet"))
    failed = 0
    for t in tables:
        source = Path(a.data) / f"{t}.parquet"
        target = out / f"{t}.parquet"
        script = f"SET gpu_encode = true;\nSELECT count(*) FROM {t};\nCOPY {t} TO '{target}';\n"
        r = subprocess.run([a.kestrel, "--data", a.data, "--device", "gpu", "--no-gpu-fallback", "-c", script],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{t}: Kestrel failed: {r.stderr.strip()[-400:]}", flush=True)
            failed += 1
            continue
        want = normalized(pq.read_table(source))
        got = normalized(pq.read_table(target))
        if got.schema.names != want.schema.names or got.num_rows != want.num_rows:
            print(f"{t}: {got.num_rows} rows {got.schema.names} against {want.num_rows} {want.schema.names}")
            failed += 1
            continue
        bad = []
        for name in want.schema.names:
            w, g = want.column(name), got.column(name)
            if w.type != g.type:
                try:
                    g = g.cast(w.type)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    bad.append(f"{name} ({g.type} against {w.type})")
                    continue
            if not w.equals(g):
                bad.append(name)
        size = target.stat().st_size
        print(f"{t}: {want.num_rows} rows, {len(want.schema.names)} columns, {size / 2**20:.1f} MiB: "
              f"{'equal' if not bad else 'DIFFERENT in ' + ', '.join(bad)}", flush=True)
        failed += 1 if bad else 0
        target.unlink()
    shutil.rmtree(out, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
