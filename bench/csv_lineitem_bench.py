#!/usr/bin/env python3
"""Parse time of TPC-H lineitem.tbl: Kestrel's CSV reader (kestrel-csv-cat --count) vs DuckDB read_csv and
pyarrow.csv, same file, same thread count, best of N runs. A benchmark, not a test.

  .venv/bin/python bench/csv_lineitem_bench.py --file data/tpch-sf1/lineitem.tbl --threads 2 --runs 3
"""
import argparse
import os
import resource
import subprocess
import time

COLUMNS = [
    ("l_orderkey", "BIGINT"), ("l_partkey", "BIGINT"), ("l_suppkey", "BIGINT"), ("l_linenumber", "INTEGER"),
    ("l_quantity", "DECIMAL(15,2)"), ("l_extendedprice", "DECIMAL(15,2)"), ("l_discount", "DECIMAL(15,2)"),
    ("l_tax", "DECIMAL(15,2)"), ("l_returnflag", "VARCHAR"), ("l_linestatus", "VARCHAR"),
    ("l_shipdate", "DATE"), ("l_commitdate", "DATE"), ("l_receiptdate", "DATE"), ("l_shipinstruct", "VARCHAR"),
    ("l_shipmode", "VARCHAR"), ("l_comment", "VARCHAR"),
]


def best(fn, runs):
    """Best wall time and best CPU time (user + system, this process and its children) of `runs` runs. On a shared
    machine the CPU time is the steadier measure."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu0 = time.perf_counter(), cpu_seconds()
        rows = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_seconds() - cpu0)
    return min(walls), min(cpus), rows


def cpu_seconds():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def kestrel(binary, path, threads, explicit):
    args = [binary, "--count", "--delim", "|", "--header", "false", "--threads", str(threads)]
    if explicit:
        args += ["--columns", ", ".join(f"{n} {t}" for n, t in COLUMNS)]
    out = subprocess.run(args + [path], check=True, capture_output=True, text=True).stdout
    return int(out.strip())


def duckdb_read(path, threads, explicit):
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    cols = ""
    if explicit:
        cols = ", columns={" + ", ".join(f"'{n}': '{t}'" for n, t in COLUMNS) + "}"
    # Materialize every column (a count(*) alone could skip the parsing of values).
    con.execute(f"CREATE TABLE t AS SELECT * FROM read_csv('{path}', delim='|', header=false{cols})")
    return con.execute("SELECT count(*) FROM t").fetchone()[0]


def pyarrow_read(path, threads):
    import pyarrow as pa
    import pyarrow.csv as pc
    pa.set_cpu_count(threads)
    pa.set_io_thread_count(threads)
    names = [n for n, _ in COLUMNS] + ["trailing"]
    table = pc.read_csv(path, read_options=pc.ReadOptions(column_names=names, block_size=16 << 20),
                        parse_options=pc.ParseOptions(delimiter="|"))
    return table.num_rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default="data/tpch-sf1/lineitem.tbl")
    ap.add_argument("--binary", default="build-csv/kestrel-csv-cat")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    size = os.path.getsize(args.file)
    print(f"load average {os.getloadavg()[0]:.1f}; file {args.file}: {size / 1e6:.0f} MB, {args.threads} threads, best of {args.runs}, cpus={os.cpu_count()}")
    cases = [
        ("kestrel (sniffed types)", lambda: kestrel(args.binary, args.file, args.threads, False)),
        ("kestrel (explicit schema)", lambda: kestrel(args.binary, args.file, args.threads, True)),
        ("duckdb read_csv (sniffed)", lambda: duckdb_read(args.file, args.threads, False)),
        ("duckdb read_csv (explicit)", lambda: duckdb_read(args.file, args.threads, True)),
        ("pyarrow.csv.read_csv", lambda: pyarrow_read(args.file, args.threads)),
    ]
    for name, fn in cases:
        seconds, cpu, rows = best(fn, args.runs)
        print(f"{name:30s} wall {seconds:7.3f} s  {size / seconds / 1e6:5.0f} MB/s   cpu {cpu:7.3f} s  rows={rows}")


if __name__ == "__main__":
    main()
