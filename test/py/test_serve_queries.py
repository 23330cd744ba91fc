"""`kestrel serve` with many sessions: statements of several sessions run at once up to --max-queries (2 here), a
statement that changes the catalog waits for the queries running beside it; SHOW QUERIES lists every session's
statements (running, or queued for a turn), KILL QUERY stops one (its client gets SQLSTATE 57014 naming the reason, and only the
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
                                "--data", str(data), "--query-timeout", str(TIMEOUT_S), "--max-queries", "2"],
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
                cursor = c.execute(sql)
                if cursor.description is not None:
                    cursor.fetchall()
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
        # Two statements run at once (--max-queries 2); the third waits for a turn.
        second, second_outcome = run_in_thread(server, "alice", LONG_QUERY + " AND l.x > 0")
        wait_for(lambda: len(queries()) == 2)
        third, third_outcome = run_in_thread(server, "alice", LONG_QUERY + " AND l.x > 1")
        rows = wait_for(lambda: (lambda q: q if len(q) == 3 else None)(queries()))
        states = sorted(r[2] for r in rows)
        assert states == ["queued", "running", "running"], rows
        by_text = {r[4]: r for r in rows}
        assert by_text[LONG_QUERY][0] == running[0][0] and by_text[LONG_QUERY][2] == "running"
        assert by_text[LONG_QUERY][1] == "alice"
        queued = by_text[LONG_QUERY + " AND l.x > 1"]
        assert queued[2] == "queued" and queued[3] >= 0
        assert [d.name for d in admin.execute("SHOW QUERIES").description] == [
            "query_id", "user", "state", "elapsed_ms", "query"]

        # Another user may not stop it.
        with connect(server, "bob") as bob:
            with pytest.raises(psycopg.Error) as refused:
                bob.execute(f"KILL QUERY {running[0][0]}")
            assert refused.value.sqlstate == "42704", refused.value
        killed_at = time.monotonic()
        admin.execute(f"KILL QUERY {running[0][0]}")
        first.join(timeout=10)
        assert not first.is_alive()
        assert isinstance(first_outcome["error"], psycopg.Error), first_outcome
        assert first_outcome["error"].sqlstate == "57014"
        assert "killed" in str(first_outcome["error"]), first_outcome["error"]
        assert first_outcome["ended"] - killed_at < 3

        # The queued one gets the free turn; killing the others stops them too, and the board is empty again.
        wait_for(lambda: [r for r in queries() if r[0] == queued[0] and r[2] == "running"])
        for row in queries():
            if row[4] != "SHOW QUERIES":
                admin.execute(f"KILL QUERY {row[0]}")
        for thread, outcome in ((second, second_outcome), (third, third_outcome)):
            thread.join(timeout=10)
            assert outcome["error"].sqlstate == "57014", outcome
        wait_for(lambda: queries() == [])

        with pytest.raises(psycopg.Error) as missing:
            admin.execute("KILL QUERY 999999")
        assert "no such query" in str(missing.value)
        with pytest.raises(psycopg.Error) as malformed:
            admin.execute("KILL QUERY abc")
        assert malformed.value.sqlstate == "22023"
        # The session still answers.
        assert admin.execute("SELECT count(*) FROM big").fetchall() == [(300_000,)]


def test_queries_run_beside_each_other_and_ddl_waits_for_them(server):
    long_running, long_outcome = run_in_thread(server, "gina", LONG_QUERY)
    with connect(server, "gina") as other:
        wait_for(lambda: [r for r in other.execute("SHOW QUERIES").fetchall() if r[2] == "running"])
        # A query of another session answers while the long one runs.
        started = time.monotonic()
        assert other.execute("SELECT count(*), sum(x) FROM big WHERE x % 3 = 0").fetchall() == [
            (100_000, sum(range(0, 300_000, 3)))]
        assert time.monotonic() - started < 5
        assert long_running.is_alive()
        # A statement that changes the catalog waits until the running query has ended.
        created, created_outcome = run_in_thread(server, "gina", "CREATE TABLE made_beside AS SELECT 1 AS one")
        time.sleep(1.0)
        assert created.is_alive(), created_outcome
        long_id = [r[0] for r in other.execute("SHOW QUERIES").fetchall() if r[4] == LONG_QUERY][0]
        other.execute(f"KILL QUERY {long_id}")
        long_running.join(timeout=10)
        assert long_outcome["error"].sqlstate == "57014"
        created.join(timeout=10)
        assert created_outcome["error"] is None, created_outcome
        assert other.execute("SELECT one FROM made_beside").fetchall() == [(1,)]
        other.execute("DROP TABLE made_beside")


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
