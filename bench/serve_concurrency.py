#!/usr/bin/env python3
"""Throughput of `kestrel serve` with concurrent clients against the same clients one after the other: --clients
client processes (half over the PostgreSQL protocol with psycopg 3, half over the Trino protocol with the trino
client), each running the 22 TPC-H queries at --sf in its own random order, first one client after the other (the
reference answers and time), then all at once. Every concurrent answer must equal the same client's answer from the
first round (numbers within a relative 1e-9), and no query may fail (an out-of-memory error included). Prints both
times, the throughput ratio (one after the other / at once) and ends with "N passed, N failed, 0 skipped"; exits
non-zero on any failure.

    .venv/bin/python bench/serve_concurrency.py --device gpu --sf 10 --clients 8
"""

import argparse
import multiprocessing
import pathlib
import random
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
sys.path.insert(0, str(REPO / "bench"))
import tpch_support as tpch  # noqa: E402
from serve_soak import start_server  # noqa: E402


def run_client(job):
    """One client: connects over its protocol and runs its queries in order. Returns (seconds, {query: rows} or an
    error text per query)."""
    kind, ports, user, texts, order = job
    if kind == "pg":
        import psycopg
        conn = psycopg.connect(host="127.0.0.1", port=ports["pg"], user=user, autocommit=True)
        go = lambda sql: conn.execute(sql).fetchall()  # noqa: E731
    else:
        import trino
        cur = trino.dbapi.connect(host="127.0.0.1", port=ports["trino"], user=user).cursor()
        go = lambda sql: (cur.execute(sql), cur.fetchall())[1]  # noqa: E731
    answers = {}
    start = time.monotonic()
    for n in order:
        try:
            answers[n] = [list(r) for r in go(texts[n])]
        except Exception as e:  # noqa: BLE001 - reported by the caller
            answers[n] = f"{type(e).__name__}: {str(e)[:300]}"
    return time.monotonic() - start, answers


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
    checked = 0
    jobs = []
    for i in range(a.clients):
        order = list(range(1, 23))
        random.Random(i).shuffle(order)
        jobs.append(("trino" if i % 2 else "pg", ports, f"client{i}", texts, order))
    try:
        with multiprocessing.get_context("spawn").Pool(a.clients) as pool:
            pool.apply(run_client, (("pg", ports, "warmup", texts, list(range(1, 23))),))  # the table cache, file pages
            start = time.monotonic()
            reference = [pool.apply(run_client, (job,))[1] for job in jobs]
            serial = time.monotonic() - start
            print(f"{a.clients} clients one after the other: {22 * a.clients} queries in {serial:.2f} s", flush=True)
            start = time.monotonic()
            results = pool.map(run_client, jobs)
            concurrent = time.monotonic() - start
        for i, (job, ref, (_, answers)) in enumerate(zip(jobs, reference, results)):
            for n in job[4]:
                if isinstance(ref[n], str) or isinstance(answers[n], str):
                    problems.append(f"client {i} ({job[0]}) q{n}: {ref[n] if isinstance(ref[n], str) else answers[n]}")
                    continue
                diff = tpch.compare_rows(ref[n], answers[n], ordered=False)
                if diff:
                    problems.append(f"client {i} ({job[0]}) q{n}: {diff[0]}")
                else:
                    checked += 1
        total = 22 * a.clients
        print(f"{a.clients} clients at once: {total} queries in {concurrent:.2f} s; throughput "
              f"{total / concurrent:.2f} queries/s against {total / serial:.2f} one after the other: "
              f"{serial / concurrent:.2f}x")
        if server.poll() is not None:
            problems.append(f"the server exited with {server.returncode}")
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(30)
    for p in problems[:20]:
        print("PROBLEM", p)
    print(f"{checked} passed, {len(problems)} failed, 0 skipped")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
