#!/usr/bin/env python3
"""Fuzzes `kestrel serve`'s two client protocols with malformed input and checks that the server survives it.

Starts `kestrel serve --pg-port 0 --trino-port 0` on loopback, then for --seconds sends, over fresh connections,
random bytes, truncated and oversized messages, wrong lengths and random SQL: PostgreSQL startup packets and
messages (with and without a valid startup), and Trino HTTP requests (bad request lines, headers and lengths, random
paths, tokens and statement bodies). Every so often, and at the end, a real client (psycopg and the trino client)
must still get a right answer. A finding is the server process exiting, a liveness check failing, or the server
keeping a connection open past --hang-seconds after the fuzzer's input ended. Prints one line per finding and ends
with "N passed, N failed, 0 skipped" (cases sent, findings); exits non-zero on any finding.

    .venv/bin/python scripts/protocol-fuzz.py --seconds 600 [--seed 1] [--kestrel build/kestrel]
"""

import argparse
import pathlib
import random
import socket
import struct
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]

SQL_WORDS = ["SELECT", "FROM", "WHERE", "1", "'x'", "(", ")", ",", "*", "count(*)", "t", "GROUP BY", "ORDER BY",
             "NULL", "CAST(", "AS", "INTEGER", "VARCHAR", ";", "--", "/*", "'", "\"", "1e999", "-", "+", "/", "0",
             "JOIN", "ON", "UNION", "WITH", "x", "AS (", "LIMIT", "99999999999999999999", "SET", "threads", "=",
             "CREATE TABLE", "DROP TABLE", "EXPLAIN", "\x00", "é", "\U0001F600"]


def random_sql(rng):
    return " ".join(rng.choice(SQL_WORDS) for _ in range(rng.randint(0, 30)))


def pg_message(tag, body):
    return tag + struct.pack("!i", len(body) + 4) + body


def pg_startup(user=b"fuzz"):
    body = struct.pack("!i", 196608) + b"user\x00" + user + b"\x00database\x00kestrel\x00\x00"
    return struct.pack("!i", len(body) + 4) + body


def pg_case(rng):
    """Bytes for one PostgreSQL connection."""
    kind = rng.randrange(8)
    if kind == 0:
        return rng.randbytes(rng.randint(0, 200))
    if kind == 1:  # a startup packet with a wrong length or protocol
        body = struct.pack("!i", rng.choice([196608, 80877103, 80877102, 0, -1, rng.getrandbits(31)]))
        body += rng.randbytes(rng.randint(0, 60))
        return struct.pack("!i", rng.choice([len(body) + 4, 0, 3, -5, 1 << 30, rng.getrandbits(31)])) + body
    start = pg_startup(rng.choice([b"fuzz", b"", b"x" * 5000, rng.randbytes(8).replace(b"\x00", b"a")]))
    messages = []
    for _ in range(rng.randint(1, 6)):
        tag = rng.choice([b"Q", b"P", b"B", b"D", b"E", b"S", b"H", b"C", b"X", b"F", b"d", b"c", b"f",
                          bytes([rng.randrange(256)])])
        if kind == 2:
            body = random_sql(rng).encode("utf-8", "replace") + b"\x00"
            messages.append(pg_message(b"Q", body))
        elif kind == 3:  # wrong lengths
            body = rng.randbytes(rng.randint(0, 40))
            messages.append(tag + struct.pack("!i", rng.choice([-1, 0, 3, 1 << 30, 0x7fffffff])) + body)
        elif kind == 4:  # extended protocol with random parts
            messages.append(pg_message(b"P", b"s\x00" + random_sql(rng).encode() + b"\x00" +
                                       struct.pack("!h", rng.randint(-2, 3)) + rng.randbytes(rng.randint(0, 12))))
            messages.append(pg_message(b"B", b"\x00s\x00" + rng.randbytes(rng.randint(0, 30))))
            messages.append(pg_message(b"E", b"\x00" + struct.pack("!i", rng.randint(-1, 5))))
            messages.append(pg_message(b"S", b""))
        else:
            messages.append(pg_message(tag, rng.randbytes(rng.randint(0, 60))))
    data = start + b"".join(messages)
    if rng.random() < 0.3:
        data = data[:rng.randint(0, len(data))]  # truncated
    return data


def http_case(rng, port):
    """Bytes for one Trino HTTP connection."""
    kind = rng.randrange(8)
    if kind == 0:
        return rng.randbytes(rng.randint(0, 300))
    method = rng.choice(["POST", "GET", "DELETE", "PUT", "HEAD", "OPTIONS", "GARBAGE", ""])
    path = rng.choice(["/v1/statement", "/v1/info", "/v1/statement/executing/" + rng.randbytes(6).hex() + "/1",
                       "/v1/query/" + rng.randbytes(4).hex(), "/", "/" + "a" * rng.randint(0, 20000),
                       "/v1/statement/executing/%00/../x", "*"])
    body = random_sql(rng).encode("utf-8", "replace") if kind != 5 else rng.randbytes(rng.randint(0, 2000))
    headers = [f"Host: 127.0.0.1:{port}"]
    if rng.random() < 0.8:
        headers.append(rng.choice(["X-Trino-User: fuzz", "X-Presto-User: fuzz", "X-Trino-User:", "X-Trino-User: " +
                                   "u" * 10000]))
    if rng.random() < 0.3:
        headers.append("X-Trino-Session: " + rng.choice(["threads=1", "=", "a", "threads=abc", ",,,", "x=y=z",
                                                          "threads=" + "9" * 40]))
    length = len(body)
    if kind == 3:
        length = rng.choice([-1, length + 100, 1 << 40, 0, "abc", ""])
    if rng.random() < 0.9:
        headers.append(f"Content-Length: {length}")
    if kind == 4:
        headers.append("Transfer-Encoding: chunked")
    if kind == 6:
        headers.append("X-" + "h" * rng.randint(1, 100000) + ": v")
    version = rng.choice(["HTTP/1.1", "HTTP/1.0", "HTTP/2", "", "HTTP/1.1 extra"])
    data = f"{method} {path} {version}\r\n".encode() + "\r\n".join(headers).encode("utf-8", "replace") + b"\r\n\r\n" + body
    if kind == 7:
        data = data[:rng.randint(0, len(data))]
    return data


def send_case(port, data, hang_seconds):
    """Sends `data` on a new connection, half-closes, and reads until the server closes. Returns a problem or None."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError as e:
        return f"cannot connect: {e}"
    try:
        try:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
        except OSError:
            return None  # the server closed first: fine
        s.settimeout(hang_seconds)
        deadline = time.monotonic() + hang_seconds
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return f"the server kept the connection open {hang_seconds:.0f} s after the input ended"
            except OSError:
                return None
            if not chunk:
                return None
        return f"the server kept sending for {hang_seconds:.0f} s"
    finally:
        s.close()


def start_server(kestrel, data):
    p = subprocess.Popen([str(kestrel), "serve", "--device", "cpu", "--pg-port", "0", "--trino-port", "0", "--data",
                          str(data)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ports = {}
    deadline = time.monotonic() + 60
    while len(ports) < 2 and time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        for proto in ("pg", "trino"):
            if line.startswith(proto + ": listening on "):
                ports[proto] = int(line.rsplit(":", 1)[1])
    if len(ports) < 2:
        p.kill()
        raise SystemExit("kestrel serve did not print both ports")
    return p, ports


def alive(ports):
    """A real query through each protocol; returns a problem or None."""
    import psycopg
    import trino
    try:
        with psycopg.connect(host="127.0.0.1", port=ports["pg"], user="check", connect_timeout=10) as c:
            if c.execute("SELECT count(*) FROM t").fetchone() != (3,):
                return "pg: wrong answer"
        cur = trino.dbapi.connect(host="127.0.0.1", port=ports["trino"], user="check", request_timeout=10).cursor()
        cur.execute("SELECT sum(a) FROM t")
        if cur.fetchall() != [[6]]:
            return "trino: wrong answer"
    except Exception as e:  # noqa: BLE001 - any failure of a real client is a finding
        return f"a real client failed: {type(e).__name__}: {e}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kestrel", default=str(REPO / "build" / "kestrel"))
    ap.add_argument("--hang-seconds", type=float, default=15)
    ap.add_argument("--check-every", type=int, default=200, help="cases between liveness checks")
    a = ap.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq
    import tempfile
    rng = random.Random(a.seed)
    findings = []
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        (pathlib.Path(tmp) / "t").mkdir()
        pq.write_table(pa.table({"a": [1, 2, 3]}), pathlib.Path(tmp) / "t" / "part.parquet")
        server, ports = start_server(a.kestrel, tmp)
        try:
            problem = alive(ports)
            if problem:
                raise SystemExit(f"the server does not answer before fuzzing: {problem}")
            end = time.monotonic() + a.seconds
            while time.monotonic() < end:
                proto = rng.choice(["pg", "trino"])
                data = pg_case(rng) if proto == "pg" else http_case(rng, ports["trino"])
                cases += 1
                problem = send_case(ports[proto], data, a.hang_seconds)
                if server.poll() is not None:
                    findings.append(f"case {cases} ({proto}): the server exited with {server.returncode}")
                    break
                if problem:
                    findings.append(f"case {cases} ({proto}): {problem}; input {data[:120]!r}")
                if cases % a.check_every == 0:
                    problem = alive(ports)
                    if problem:
                        findings.append(f"after case {cases}: {problem}")
                        break
            if server.poll() is None:
                problem = alive(ports)
                if problem:
                    findings.append(f"at the end: {problem}")
        finally:
            if server.poll() is None:
                server.terminate()
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    findings.append("the server did not stop on SIGTERM within 10 s")
    for f in findings:
        print("FINDING", f)
    print(f"protocol fuzz: seed {a.seed}, {cases} cases in {a.seconds:.0f} s")
    print(f"{cases} passed, {len(findings)} failed, 0 skipped")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
