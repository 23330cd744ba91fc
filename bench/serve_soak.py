#!/usr/bin/env python3
"""Soak test of `kestrel serve`: concurrent clients, half over the Trino protocol (trino client) and half over the
PostgreSQL protocol (psycopg 3), run the 22 TPC-H queries in random order for --seconds, some of them cancelled at a
random moment. Every completed answer is checked against the official SF1 answers (at --sf 1); a failed query that
was not cancelled is a server error. The server's resident memory is sampled every few seconds. Prints queries per
minute, errors, and the memory curve, and ends with "N passed, N failed, 0 skipped" (answers checked, problems);
exits non-zero on any problem or when the memory at the end exceeds the level after the first minute by more than
--memory-slack (default 10%).

    .venv/bin/python bench/serve_soak.py --clients 32 --seconds 600 --sf 1
"""

import argparse
import pathlib
import random
import subprocess
import sys
import tempfile
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "py"))
import tpch_support as tpch  # noqa: E402


def start_server(kestrel, data, device="cpu", extra=()):
    log = tempfile.TemporaryFile()
    p = subprocess.Popen([str(kestrel), "serve", "--device", device, "--pg-port", "0", "--trino-port", "0", "--data",
                          str(data), *extra], stdout=subprocess.PIPE, stderr=log, bufsize=0)
    ports = {}
    deadline = time.monotonic() + 120
    while len(ports) < 2 and time.monotonic() < deadline:
        line = p.stdout.readline().decode()
        if not line:
            break
        name, _, rest = line.partition(": listening on 127.0.0.1:")
        if rest:
            ports[name] = int(rest)
    if len(ports) < 2:
        p.kill()
        raise SystemExit("kestrel serve did not report both ports")
    return p, ports


def rss_bytes(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.done = self.cancelled = 0
        self.problems = []

    def add(self, done=0, cancelled=0, problem=None):
        with self.lock:
            self.done += done
            self.cancelled += cancelled
            if problem:
                self.problems.append(problem)


def client(kind, ports, sf, end, seed, cancel_rate, stats):
    import psycopg
    import trino
    rng = random.Random(seed)
    while time.monotonic() < end:
        number = rng.randint(1, 22)
        text = tpch.query_text(number, sf).strip().rstrip(";")
        cancel_after = rng.uniform(0.01, 1.0) if rng.random() < cancel_rate else None
        try:
            if kind == "pg":
                conn = psycopg.connect(host="127.0.0.1", port=ports["pg"], user=f"soak{seed}", autocommit=True)
                canceller = conn.cancel
                run = lambda: conn.execute(text).fetchall()  # noqa: E731
                close = conn.close
            else:
                cur = trino.dbapi.connect(host="127.0.0.1", port=ports["trino"], user=f"soak{seed}").cursor()
                canceller = cur.cancel
                run = lambda: (cur.execute(text), cur.fetchall())[1]  # noqa: E731
                close = lambda: None  # noqa: E731
        except Exception as e:  # noqa: BLE001 - a refused connection is a server problem
            stats.add(problem=f"{kind}: cannot connect: {e}")
            time.sleep(1)
            continue
        timer = threading.Timer(cancel_after, canceller) if cancel_after is not None else None
        if timer:
            timer.start()
        try:
            rows = run()
            if timer:
                timer.cancel()
            if sf == 1:
                problems = tpch.compare_with_answer(number, [[tpch.duckdb_text(v) for v in r] for r in rows])
                if problems:
                    stats.add(problem=f"{kind} q{number}: {problems[0]}")
                    continue
            stats.add(done=1)
        except Exception as e:  # noqa: BLE001
            if timer:
                timer.cancel()
            text_e = str(e).lower()
            if cancel_after is not None and ("cancel" in text_e or "57014" in text_e):
                stats.add(cancelled=1)
            else:
                stats.add(problem=f"{kind} q{number}: {type(e).__name__}: {str(e)[:200]}")
        finally:
            try:
                close()
            except Exception:  # noqa: BLE001
                pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--sf", default="1")
    ap.add_argument("--cancel-rate", type=float, default=0.1)
    ap.add_argument("--memory-slack", type=float, default=0.10)
    ap.add_argument("--kestrel", default=str(REPO / "build" / "kestrel"))
    a = ap.parse_args()
    sf = int(float(a.sf)) if float(a.sf).is_integer() else float(a.sf)
    data = tpch.generate(sf)
    server, ports = start_server(a.kestrel, data)
    stats = Stats()
    start = time.monotonic()
    end = start + a.seconds
    threads = [threading.Thread(target=client, args=("trino" if i % 2 else "pg", ports, sf, end, i, a.cancel_rate,
                                                      stats), daemon=True) for i in range(a.clients)]
    for t in threads:
        t.start()
    curve = []
    while any(t.is_alive() for t in threads):
        time.sleep(5)
        if server.poll() is not None:
            stats.add(problem=f"the server exited with {server.returncode}")
            break
        curve.append((time.monotonic() - start, rss_bytes(server.pid)))
        if len(curve) % 12 == 0:
            print(f"[{curve[-1][0]:.0f} s] {stats.done} answers, {stats.cancelled} cancelled, "
                  f"{len(stats.problems)} problems, RSS {curve[-1][1] / 2**20:.0f} MiB", flush=True)
    for t in threads:
        t.join(timeout=120)
    elapsed = time.monotonic() - start
    # "After the soak": every client has finished; the server idles with its sessions closed.
    time.sleep(3)
    last = rss_bytes(server.pid) if server.poll() is None else 0
    curve.append((time.monotonic() - start, last))
    if server.poll() is None:
        server.terminate()
        server.wait(30)
    after_first_minute = next((r for t, r in curve if t >= 60), curve[0][1] if curve else 0)
    if after_first_minute and last > after_first_minute * (1 + a.memory_slack):
        stats.add(problem=f"resident memory grew from {after_first_minute / 2**20:.0f} MiB after the first minute "
                          f"to {last / 2**20:.0f} MiB at the end")
    print("memory curve (s, MiB): " + ", ".join(f"{t:.0f}:{r / 2**20:.0f}" for t, r in curve[::6]))
    print(f"resident memory after the first minute {after_first_minute / 2**20:.0f} MiB, after the soak "
          f"{last / 2**20:.0f} MiB")
    print(f"{a.clients} clients, {elapsed:.0f} s: {stats.done} answers checked "
          f"({stats.done / elapsed * 60:.1f} per minute), {stats.cancelled} cancelled")
    for p in stats.problems[:20]:
        print("PROBLEM", p)
    print(f"{stats.done} passed, {len(stats.problems)} failed, 0 skipped")
    return 1 if stats.problems else 0


if __name__ == "__main__":
    sys.exit(main())
