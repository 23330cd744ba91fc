"""End-to-end tests of `kestrel serve` over the PostgreSQL wire protocol v3: a real server process on a loopback port,
psycopg 3 as the client, and a raw socket for what a well-behaved client never sends."""

from __future__ import annotations

import datetime
import decimal
import select
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

psycopg = pytest.importorskip("psycopg")

STARTUP_TIMEOUT_S = 60


def _write_tables(data: Path) -> None:
    (data / "typed").mkdir(parents=True)
    table = pa.table({
        "b": pa.array([True, False, None], pa.bool_()),
        "i2": pa.array([-3, 7, None], pa.int16()),
        "i4": pa.array([1, 2, None], pa.int32()),
        "i8": pa.array([2**40, -5, None], pa.int64()),
        "f4": pa.array([1.5, -0.25, None], pa.float32()),
        "f8": pa.array([3.25, 1e100, None], pa.float64()),
        "d": pa.array([decimal.Decimal("12.34"), decimal.Decimal("-0.05"), None], pa.decimal128(10, 2)),
        "s": pa.array(["alpha", "βeta", None], pa.string()),
        "dt": pa.array([datetime.date(2024, 2, 29), datetime.date(1970, 1, 1), None], pa.date32()),
        "ts": pa.array([datetime.datetime(2024, 2, 29, 13, 14, 15, 250000), datetime.datetime(2000, 1, 1), None],
                       pa.timestamp("us")),
    })
    pq.write_table(table, data / "typed" / "part-0.parquet")


@pytest.fixture(scope="module")
def server(kestrel_bin: Path, tmp_path_factory):
    """A `kestrel serve` process on a free port; yields (port, process)."""
    data = tmp_path_factory.mktemp("pg_data")
    _write_tables(data)
    process = subprocess.Popen([str(kestrel_bin), "serve", "--pg-port", "0", "--device", "cpu", "--data", str(data)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    line = ""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            line = process.stdout.readline()
            break
        if process.poll() is not None:
            break
    if not line.startswith("pg: listening on 127.0.0.1:"):
        process.kill()
        pytest.fail(f"kestrel serve did not report its port: {line!r}; stderr: {process.stderr.read()}")
    port = int(line.rsplit(":", 1)[1])
    yield port, process
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("kestrel serve did not stop on SIGTERM")


@pytest.fixture()
def conn(server):
    port, _ = server
    with psycopg.connect(host="127.0.0.1", port=port, user="tester", dbname="kestrel", autocommit=True,
                         connect_timeout=10) as connection:
        yield connection


def test_connect_reports_parameters(conn):
    assert conn.info.parameter_status("server_encoding") == "UTF8"
    assert conn.info.parameter_status("integer_datetimes") == "on"
    assert conn.info.server_version == 160000
    assert conn.execute("SHOW server_version").fetchone() == ("16.0 (Kestrel)",)
    assert "Kestrel" in conn.execute("SELECT version()").fetchone()[0]


def test_each_type_arrives_as_its_python_type(conn):
    cur = conn.execute("SELECT b, i2, i4, i8, f4, f8, d, s, dt, ts FROM typed ORDER BY i4")
    oids = [column.type_code for column in cur.description]
    assert oids == [16, 21, 23, 20, 700, 701, 1700, 1043, 1082, 1114]
    rows = cur.fetchall()
    assert rows[0] == (True, -3, 1, 2**40, 1.5, 3.25, decimal.Decimal("12.34"), "alpha", datetime.date(2024, 2, 29),
                       datetime.datetime(2024, 2, 29, 13, 14, 15, 250000))
    assert rows[1] == (False, 7, 2, -5, -0.25, 1e100, decimal.Decimal("-0.05"), "βeta", datetime.date(1970, 1, 1),
                       datetime.datetime(2000, 1, 1))
    assert rows[2] == (None,) * 10
    assert conn.execute("SELECT INTERVAL '3' DAY").fetchone() == (datetime.timedelta(days=3),)


def test_varbinary_arrives_as_bytea(conn):
    cur = conn.execute("SELECT X'00ff41' AS b, X'' AS e, CAST(NULL AS VARBINARY) AS n")
    assert [column.type_code for column in cur.description] == [17, 17, 17]
    assert cur.fetchone() == (b"\x00\xffA", b"", None)


def test_arrays_arrive_as_postgresql_arrays(conn):
    cur = conn.execute("SELECT ARRAY[1, NULL, 3] AS a, ARRAY['x', 'y z', ''] AS s, ARRAY[ARRAY[1]] AS nested, "
                       "map(ARRAY['k'], ARRAY[1]) AS m, CAST(ROW(1, 'a') AS ROW(x INTEGER, y VARCHAR)) AS r")
    # int4[] and varchar[] decode into lists; nested arrays, maps and rows go as their text.
    assert [column.type_code for column in cur.description] == [1007, 1015, 25, 25, 25]
    assert cur.fetchone() == ([1, None, 3], ["x", "y z", ""], "[[1]]", "{k=1}", "{x=1, y=a}")


def test_json_arrives_as_json(conn):
    cur = conn.execute("""SELECT JSON '{"b": [1, 2], "a": "x"}' AS j, CAST(NULL AS JSON) AS n""")
    assert [column.type_code for column in cur.description] == [114, 114]
    # psycopg parses the json type's text.
    assert cur.fetchone() == ({"a": "x", "b": [1, 2]}, None)


def test_error_has_sqlstate_and_position(conn):
    with pytest.raises(psycopg.errors.UndefinedColumn) as caught:
        conn.execute("SELECT i4, nope FROM typed")
    assert caught.value.diag.sqlstate == "42703"
    assert caught.value.diag.statement_position == "12"
    with pytest.raises(psycopg.Error) as caught:
        conn.execute("SELECT FROM WHERE")
    assert caught.value.diag.sqlstate == "42601"
    # the session goes on after an error
    assert conn.execute("SELECT 1").fetchone() == (1,)


def test_error_position_counts_characters_and_skips_parameters(conn):
    with pytest.raises(psycopg.errors.UndefinedColumn) as caught:
        conn.execute("SELECT 'βββ', %s, nope FROM typed", ("a much longer parameter value",))
    assert caught.value.diag.statement_position == "19"


def test_parameters(conn):
    assert conn.execute("SELECT s FROM typed WHERE i4 = %s", (2,)).fetchall() == [("βeta",)]
    assert conn.execute("SELECT i4 FROM typed WHERE s = %s", ("alpha",)).fetchall() == [(1,)]
    assert conn.execute("SELECT count(*) FROM typed WHERE i8 > %s", (-10,)).fetchone() == (2,)
    assert conn.execute("SELECT %s, %s, %s", ("it's", -7, None)).fetchone() == ("it's", -7, None)
    assert conn.execute("SELECT i4 FROM typed WHERE f8 < %s AND d > %s", (5.0, decimal.Decimal("1.5"))).fetchall() \
        == [(1,)]
    assert conn.execute("SELECT i4 FROM typed WHERE dt = %s", (datetime.date(2024, 2, 29),)).fetchall() == [(1,)]


def test_multiple_statements_in_one_simple_query(conn):
    cur = conn.cursor()
    cur.execute("SELECT 1 AS a; SELECT 'two' AS b, 3 AS c")
    assert cur.fetchall() == [(1,)]
    assert cur.nextset()
    assert cur.fetchall() == [("two", 3)]
    assert not cur.nextset()


def test_create_insert_select_round_trip(conn):
    cur = conn.cursor()
    cur.execute("CREATE TABLE pg_round_trip (k INTEGER, v VARCHAR)")
    assert cur.statusmessage == "CREATE TABLE"
    cur.execute("INSERT INTO pg_round_trip VALUES (1, 'one'), (2, NULL)")
    assert cur.statusmessage == "INSERT 0 2"
    cur.execute("INSERT INTO pg_round_trip VALUES (%s, %s)", (3, "three"))
    assert cur.rowcount == 1
    assert conn.execute("SELECT k, v FROM pg_round_trip ORDER BY k").fetchall() == [(1, "one"), (2, None),
                                                                                  (3, "three")]
    conn.execute("DROP TABLE pg_round_trip")


def test_transaction_statements_are_accepted(server):
    port, _ = server
    with psycopg.connect(host="127.0.0.1", port=port, user="tester") as connection:  # not autocommit: BEGIN first
        assert connection.execute("SELECT 5").fetchone() == (5,)
        assert connection.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        connection.commit()
        assert connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_two_concurrent_connections(server):
    port, _ = server
    results: dict[int, list] = {}
    errors: list[BaseException] = []

    def client(n: int) -> None:
        try:
            with psycopg.connect(host="127.0.0.1", port=port, user=f"user{n}", autocommit=True) as c:
                results[n] = [c.execute("SELECT %s + i4 FROM typed WHERE i4 IS NOT NULL ORDER BY i4", (n,)).fetchall()
                              for _ in range(20)]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=client, args=(n,)) for n in (10, 20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert results[10] == [[(11,), (12,)]] * 20
    assert results[20] == [[(21,), (22,)]] * 20


# --- raw protocol -------------------------------------------------------------------------------------------------

def _message(kind: bytes, payload: bytes) -> bytes:
    return kind + struct.pack("!i", len(payload) + 4) + payload


def _startup(user: str = "raw", **parameters: str) -> bytes:
    body = struct.pack("!i", 3 << 16) + b"user\0" + user.encode() + b"\0"
    for name, value in parameters.items():
        body += name.encode() + b"\0" + value.encode() + b"\0"
    body += b"\0"
    return struct.pack("!i", len(body) + 4) + body


def _read_messages(sock: socket.socket, until: bytes = b"Z", timeout: float = 10) -> list[tuple[bytes, bytes]]:
    """Messages up to and including the first of type `until`, or up to the end of the stream."""
    sock.settimeout(timeout)
    buffer = b""
    messages = []
    while True:
        while len(buffer) >= 5:
            length = struct.unpack("!i", buffer[1:5])[0]
            if len(buffer) < 1 + length:
                break
            messages.append((buffer[:1], buffer[5:1 + length]))
            buffer = buffer[1 + length:]
            if messages[-1][0] == until:
                return messages
        chunk = sock.recv(65536)
        if not chunk:
            return messages
        buffer += chunk


def _raw_connection(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(_startup())
    assert _read_messages(sock)[-1] == (b"Z", b"I")
    return sock


def _error_fields(payload: bytes) -> dict[str, str]:
    return {part[:1].decode(): part[1:].decode() for part in payload.split(b"\0") if part}


def test_ssl_request_is_declined_and_startup_continues(server):
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(struct.pack("!ii", 8, 80877103))
        assert sock.recv(1) == b"N"
        sock.sendall(_startup())
        kinds = [k for k, _ in _read_messages(sock)]
        assert kinds[0] == b"R" and b"K" in kinds and kinds[-1] == b"Z"


def test_empty_query_and_multi_statement_raw(server):
    port, _ = server
    with _raw_connection(port) as sock:
        sock.sendall(_message(b"Q", b"  \0"))
        assert [k for k, _ in _read_messages(sock)] == [b"I", b"Z"]
        sock.sendall(_message(b"Q", b"SELECT 1; SELECT nope; SELECT 3\0"))
        messages = _read_messages(sock)
        assert [k for k, _ in messages] == [b"T", b"D", b"C", b"E", b"Z"]
        fields = _error_fields(messages[3][1])
        assert fields["C"] == "42703" and fields["P"] == "18"


def test_portal_row_limit_suspends(server):
    port, _ = server
    with _raw_connection(port) as sock:
        sock.sendall(_message(b"P", b"\0SELECT i4 FROM typed ORDER BY i4\0\0\0")
                     + _message(b"B", b"\0\0\0\0\0\0\0\0")
                     + _message(b"E", b"\0" + struct.pack("!i", 2))
                     + _message(b"E", b"\0" + struct.pack("!i", 2))
                     + _message(b"S", b""))
        kinds = [k for k, _ in _read_messages(sock)]
        assert kinds == [b"1", b"2", b"D", b"D", b"s", b"D", b"C", b"Z"]


def test_truncated_message_gets_protocol_error_and_close(server):
    port, _ = server
    with _raw_connection(port) as sock:
        sock.sendall(b"Q" + struct.pack("!i", 100) + b"SELECT")
        sock.shutdown(socket.SHUT_WR)
        messages = _read_messages(sock, until=b"-")
        assert [k for k, _ in messages] == [b"E"]
        fields = _error_fields(messages[0][1])
        assert fields["S"] == "FATAL" and fields["C"] == "08P01"


def test_oversized_message_is_refused(server):
    port, _ = server
    with _raw_connection(port) as sock:
        sock.sendall(b"Q" + struct.pack("!I", 0x7FFFFFFF))
        messages = _read_messages(sock, until=b"-")
        assert [k for k, _ in messages] == [b"E"]
        assert _error_fields(messages[0][1])["C"] == "08P01"


def test_garbage_connection_is_closed_and_server_keeps_serving(server, conn):
    port, process = server
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(bytes(range(256)) * 4)
        sock.settimeout(10)
        received = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
        assert received[:1] in (b"", b"E")
    assert process.poll() is None
    assert conn.execute("SELECT 42").fetchone() == (42,)


def test_non_loopback_listen_requires_authentication(run_kestrel):
    result = run_kestrel("serve", "--listen", "0.0.0.0", "--pg-port", "0", timeout=30)
    assert result.returncode == 2, result.describe()
    assert "requires authentication" in result.stderr


def test_isolation_level_and_savepoints(server):
    """What client libraries send around their statements: SHOW TRANSACTION ISOLATION LEVEL, and savepoints inside
    a transaction block (psycopg's nested transactions); ROLLBACK TO a savepoint makes a failed block usable again."""
    port, _ = server
    with psycopg.connect(host="127.0.0.1", port=port, user="tester", dbname="kestrel") as conn:
        assert conn.execute("SHOW TRANSACTION ISOLATION LEVEL").fetchone() == ("read committed",)
        assert conn.execute("show transaction_isolation").fetchone() == ("read committed",)
        with conn.transaction():
            with pytest.raises(psycopg.errors.UndefinedTable):
                with conn.transaction():  # SAVEPOINT, then ROLLBACK TO SAVEPOINT after the error
                    conn.execute("SELECT * FROM no_such_table")
            assert conn.execute("SELECT i4 FROM typed WHERE i4 = 2").fetchone() == (2,)
            with conn.transaction():  # SAVEPOINT, RELEASE SAVEPOINT
                assert conn.execute("SELECT 1").fetchone() == (1,)


def test_sqlalchemy_psycopg_dialect(server):
    """SQLAlchemy's postgresql+psycopg dialect: connect (its type lookups by to_regtype and ::regtype), parameters,
    pandas.read_sql, and reflection of table and view names (= ANY (ARRAY[...]), pg_table_is_visible) and of columns
    (format_type, the catalog's default/comment/sequence/collation tables, a correlated sub-query whose select list
    reads the outer row). Constraints and indexes need arrays (unnest, array_agg): not yet."""
    sqlalchemy = pytest.importorskip("sqlalchemy")
    import pandas as pd
    port, _ = server
    engine = sqlalchemy.create_engine(f"postgresql+psycopg://alchemist@127.0.0.1:{port}/kestrel")
    try:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("CREATE TABLE alchemy_t AS SELECT 1 AS a, 'x' AS b, "
                                               "CAST(2.5 AS DECIMAL(10,2)) AS m, DATE '2020-01-01' AS d"))
            connection.execute(sqlalchemy.text("CREATE VIEW alchemy_v AS SELECT a FROM alchemy_t"))
            frame = pd.read_sql(sqlalchemy.text("SELECT a + :k AS s, b FROM alchemy_t"), connection, params={"k": 41})
            assert frame.to_dict("records") == [{"s": 42, "b": "x"}]
            inspector = sqlalchemy.inspect(connection)
            assert "alchemy_t" in inspector.get_table_names()
            assert "alchemy_v" not in inspector.get_table_names()
            assert "alchemy_v" in inspector.get_view_names()
            assert inspector.has_table("alchemy_t") and not inspector.has_table("no_such_table")
            columns = inspector.get_columns("alchemy_t")
            assert [c["name"] for c in columns] == ["a", "b", "m", "d"]
            types = [c["type"] for c in columns]
            assert isinstance(types[0], sqlalchemy.Integer) and isinstance(types[1], sqlalchemy.String)
            assert isinstance(types[2], sqlalchemy.Numeric) and (types[2].precision, types[2].scale) == (10, 2)
            assert isinstance(types[3], sqlalchemy.Date)
            assert all(c["default"] is None and c["comment"] is None for c in columns)
            connection.execute(sqlalchemy.text("DROP VIEW alchemy_v"))
            connection.execute(sqlalchemy.text("DROP TABLE alchemy_t"))
    finally:
        engine.dispose()


def test_startup_time_zone_is_the_session_zone(server):
    """A client's TimeZone startup parameter (JDBC sends one) sets the session zone and is reported back; an
    unknown zone ends the connection with SQLSTATE 22023, as PostgreSQL does."""
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(_startup(TimeZone="Asia/Kolkata"))
        messages = _read_messages(sock)
        assert (b"S", b"TimeZone\0Asia/Kolkata\0") in messages
        sock.sendall(_message(b"Q", b"SELECT current_timezone()\0"))
        rows = [payload for kind, payload in _read_messages(sock) if kind == b"D"]
        assert len(rows) == 1 and rows[0].endswith(b"Asia/Kolkata")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(_startup(TimeZone="Mars/Olympus_Mons"))
        kind, payload = _read_messages(sock, until=b"E")[-1]
        assert kind == b"E"
        fields = _error_fields(payload)
        assert fields["S"] == "FATAL" and fields["C"] == "22023" and "Mars/Olympus_Mons" in fields["M"]


def test_set_time_zone_statement(conn):
    with conn.cursor() as cur:
        cur.execute("SET TIME ZONE 'America/New_York'")
        cur.execute("SELECT current_timezone()")
        assert cur.fetchone()[0] == "America/New_York"
        cur.execute("SET TIME ZONE LOCAL")
        cur.execute("SELECT current_timezone()")
        assert cur.fetchone()[0] == "UTC"
