#!/usr/bin/env python3
"""Throughput of `kestrel serve` with concurrent clients against one client: the 22 TPC-H queries at --sf, first one
after the other by a single client (the reference answers and time), then by --clients clients at once (half over the
PostgreSQL protocol with psycopg 3, half over the Trino protocol with the trino client), each running all 22 in its
own random order. Every concurrent answer must equal the single client's (numbers within a relative 1e-9), no query
may fail (an out-of-memory error included). Prints both times, the throughput ratio (queries per second concurrent /
one after the other) and ends with "N passed, N failed, 0 skipped"; exits non-zero on any failure.

    .venv/bin/python bench/serve_concurrency.py --device gpu --sf 10 --clients 8
"""

import argparse
import pathlib
import random
import sys
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
sys.path.insert(0, str(REPO / "bench"))
import tpch_support as tpch  # noqa: E402
from serve_soak import start_server  # noqa: E402


def runner(kind, ports, user):
    """A function that runs one statement and returns its rows, over protocol `kind`."""
    if kind == "pg":
        import psycopg
        conn = psycopg.connect(host="127.0.0.1", port=ports["pg"], user=user, autocommit=True)
        return lambda sql: conn.execute(sql).fetchall()
    import trino
    cur = trino.dbapi.connect(host="127.0.0.1", port=ports["trino"], user=user).cursor()
    return lambda sql: (cur.execute(sql), cur.fetchall())[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--sf", default="1")
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu", "auto"])
    ap.add_argument("--data", help="TPC-H Parquet folder (default: generated at --sf)")
    ap.add_argument("--kestrel", default=str(REPO / "build" / "kestrel"))
    ap.add_argument("--server-option", action="append", default=[], help="extra `kestrel serve` option (repeatable)")
    a = ap.parse_args()
    sf = int(float(a.sf)) if float(a.sf).is_integer() else float(a.sf)
    data = a.data or tpch.generate(sf)
    server, ports = start_server(a.kestrel, data, a.device, a.server_option)
    texts = {n: tpch.query_text(n, sf).strip().rstrip(";") for n in range(1, 23)}
    problems = []
    try:
        run = runner("pg", ports, "reference")
        for n in (1, 6):  # warm-up: the table cache, the file pages
            run(texts[n])
        reference = {}
        start = time.monotonic()
        for n in range(1, 23):
            reference[n] = run(texts[n])
        sequential = time.monotonic() - start
        print(f"one client: 22 queries in {sequential:.2f} s", flush=True)

        checked = [0]
        lock = threading.Lock()

        def client(i):
            kind = "trino" if i % 2 else "pg"
            order = list(range(1, 23))
            random.Random(i).shuffle(order)
            try:
                go = runner(kind, ports, f"client{i}")
            except Exception as e:  # noqa: BLE001 - a refused connection is a server problem
                with lock:
                    problems.append(f"client {i} ({kind}): cannot connect: {e}")
                return
            for n in order:
                try:
                    rows = go(texts[n])
                except Exception as e:  # noqa: BLE001
                    with lock:
                        problems.append(f"client {i} ({kind}) q{n}: {type(e).__name__}: {str(e)[:300]}")
                    continue
                diff = tpch.compare_rows([list(r) for r in reference[n]], [list(r) for r in rows], ordered=False)
                with lock:
                    if diff:
                        problems.append(f"client {i} ({kind}) q{n}: {diff[0] if isinstance(diff, list) else diff}")
                    else:
                        checked[0] += 1

        threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(a.clients)]
        start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        concurrent = time.monotonic() - start
        total = 22 * a.clients
        ratio = (total / concurrent) / (22 / sequential)
        print(f"{a.clients} clients: {total} queries in {concurrent:.2f} s; throughput {total / concurrent:.2f} "
              f"queries/s against {22 / sequential:.2f} one after the other: {ratio:.2f}x")
        if server.poll() is not None:
            problems.append(f"the server exited with {server.returncode}")
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(30)
    for p in problems[:20]:
        print("PROBLEM", p)
    print(f"{checked[0]} passed, {len(problems)} failed, 0 skipped")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
