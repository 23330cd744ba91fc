"""`kestrel serve` with many sessions: SHOW QUERIES lists every session's statements (running, or queued behind the
one the engine is running), KILL QUERY stops one (its client gets SQLSTATE 57014 naming the reason, and only the
user who started it may kill it), and --query-timeout cancels a statement past the limit, queued time included.
Real server process on a loopback port, psycopg 3 clients."""

from __future__ import annotations

import select
import subprocess
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

psycopg = pytest.importorskip("psycopg")

TIMEOUT_S = 6
# A nested-loop join of 300,000 rows with themselves (no join key to hash): minutes on this machine, so it is still
# running when a test stops it.
LONG_QUERY = "SELECT count(*) FROM big AS l, big AS r WHERE (l.x * 31 + r.x * 17) % 1000003 = 7"


@pytest.fixture(scope="module")
def servers(kestrel_bin: Path, tmp_path_factory):
    """One server with both protocols; yields {"pg": port, "trino": port}."""
    data = tmp_path_factory.mktemp("serve_queries")
    (data / "big").mkdir()
    pq.write_table(pa.table({"x": pa.array(range(300_000), pa.int64())}), data / "big" / "part-0.parquet")
    process = subprocess.Popen([str(kestrel_bin), "serve", "--pg-port", "0", "--trino-port", "0", "--device", "cpu",
                                "--data", str(data), "--query-timeout", str(TIMEOUT_S)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    ports: dict[str, int] = {}
    deadline = time.monotonic() + 60
    while len(ports) < 2 and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            # Unbuffered: each line is read as it arrives, so select() sees the next one.
            name, _, rest = process.stdout.readline().decode().partition(": listening on 127.0.0.1:")
            if rest:
                ports[name] = int(rest)
    if sorted(ports) != ["pg", "trino"]:
        process.kill()
        pytest.fail(f"kestrel serve reported {ports}")
    yield ports
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def server(servers):
    return servers["pg"]


def connect(port: int, user: str):
    return psycopg.connect(host="127.0.0.1", port=port, user=user, dbname="kestrel", autocommit=True,
                           connect_timeout=10)


def run_in_thread(port: int, user: str, sql: str) -> tuple[threading.Thread, dict]:
    outcome: dict = {}

    def run():
        try:
            with connect(port, user) as c:
                c.execute(sql).fetchall()
            outcome["error"] = None
        except Exception as e:  # noqa: BLE001 - examined by the test
            outcome["error"] = e
        outcome["ended"] = time.monotonic()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def wait_for(predicate, seconds: float = 10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail("condition not reached in time")


def test_show_queries_and_kill_query(server):
    first, first_outcome = run_in_thread(server, "alice", LONG_QUERY)
    with connect(server, "alice") as admin:
        def queries():
            return admin.execute("SHOW QUERIES").fetchall()

        running = wait_for(lambda: [r for r in queries() if r[2] == "running"])
        second, second_outcome = run_in_thread(server, "alice", LONG_QUERY + " AND l.x > 0")
        rows = wait_for(lambda: (lambda q: q if len(q) == 2 else None)(queries()))
        by_state = {r[2]: r for r in rows}
        assert set(by_state) == {"running", "queued"}, rows
        assert by_state["running"][0] == running[0][0]
        assert by_state["running"][1] == "alice" and by_state["running"][4] == LONG_QUERY
        assert by_state["queued"][4].endswith("AND l.x > 0") and by_state["queued"][3] >= 0
        assert [d.name for d in admin.execute("SHOW QUERIES").description] == [
            "query_id", "user", "state", "elapsed_ms", "query"]

        # Another user may not stop it.
        with connect(server, "bob") as bob:
            with pytest.raises(psycopg.Error) as refused:
                bob.execute(f"KILL QUERY {by_state['running'][0]}")
            assert refused.value.sqlstate == "42704", refused.value
        killed_at = time.monotonic()
        admin.execute(f"KILL QUERY {by_state['running'][0]}")
        first.join(timeout=10)
        assert not first.is_alive()
        assert isinstance(first_outcome["error"], psycopg.Error), first_outcome
        assert first_outcome["error"].sqlstate == "57014"
        assert "killed" in str(first_outcome["error"]), first_outcome["error"]
        assert first_outcome["ended"] - killed_at < 3

        # The queued one runs next; killing it stops it too, and the board is empty again.
        wait_for(lambda: [r for r in queries() if r[2] == "running"])
        admin.execute(f"KILL QUERY {by_state['queued'][0]}")
        second.join(timeout=10)
        assert second_outcome["error"].sqlstate == "57014"
        wait_for(lambda: queries() == [])

        with pytest.raises(psycopg.Error) as missing:
            admin.execute("KILL QUERY 999999")
        assert "no such query" in str(missing.value)
        with pytest.raises(psycopg.Error) as malformed:
            admin.execute("KILL QUERY abc")
        assert malformed.value.sqlstate == "22023"
        # The session still answers.
        assert admin.execute("SELECT count(*) FROM big").fetchall() == [(300_000,)]


def test_query_timeout_cancels_with_a_message_naming_the_limit(server):
    started = time.monotonic()
    with connect(server, "carol") as c:
        with pytest.raises(psycopg.Error) as timed_out:
            c.execute(LONG_QUERY)
        elapsed = time.monotonic() - started
        assert timed_out.value.sqlstate == "57014"
        assert f"time limit of {TIMEOUT_S} s" in str(timed_out.value), timed_out.value
        assert TIMEOUT_S - 0.5 < elapsed < TIMEOUT_S + 4, elapsed
        assert c.execute("SELECT 1").fetchall() == [(1,)]


def test_settings_belong_to_the_session(server):
    with connect(server, "dave") as a, connect(server, "erin") as b:
        default = b.execute("SHOW threads").fetchall()
        a.execute("SET threads = 1")
        a.execute("SET gpu_fallback = false")
        assert a.execute("SHOW threads").fetchall()[0][-1] == "1"
        assert b.execute("SHOW threads").fetchall() == default
        assert b.execute("SHOW gpu_fallback").fetchall()[0][-1] == "true"
        b.execute("SET threads = 2")
        assert a.execute("SHOW threads").fetchall()[0][-1] == "1"
        a.execute("RESET threads")
        assert a.execute("SHOW threads").fetchall() == default
        # A failed SET changes nothing.
        with pytest.raises(psycopg.Error):
            a.execute("SET threads = 'many'")
        assert a.execute("SHOW threads").fetchall() == default


def test_trino_clients_see_and_kill_statements_of_postgresql_clients(servers):
    trino = pytest.importorskip("trino")
    running, outcome = run_in_thread(servers["pg"], "frank", LONG_QUERY)
    cursor = trino.dbapi.connect(host="127.0.0.1", port=servers["trino"], user="frank").cursor()

    def frank_running():
        cursor.execute("SHOW QUERIES")
        return [r for r in cursor.fetchall() if r[1] == "frank" and r[2] == "running"]

    rows = wait_for(frank_running)
    cursor.execute(f"KILL QUERY {rows[0][0]}")
    cursor.fetchall()
    running.join(timeout=10)
    assert outcome["error"].sqlstate == "57014" and "killed" in str(outcome["error"])
