"""End-to-end tests of `kestrel serve --trino-port`: a real server process on a loopback port, the `trino` Python
client (DB-API) as the client, and raw HTTP (urllib, requests, a socket) for the protocol's details and for what a
well-behaved client never sends."""

from __future__ import annotations

import datetime
import decimal
import json
import select
import socket
import subprocess
import threading
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import trino  # noqa: E402  (pinned in requirements.txt: a missing client fails, not skips)
import requests  # noqa: E402
psycopg = pytest.importorskip("psycopg")

STARTUP_TIMEOUT_S = 60
BIG_ROWS = 20_000


def _write_tables(data: Path) -> None:
    (data / "typed").mkdir(parents=True)
    typed = pa.table({
        "b": pa.array([True, False, None], pa.bool_()),
        "i1": pa.array([-8, 7, None], pa.int8()),
        "i2": pa.array([-3, 300, None], pa.int16()),
        "i4": pa.array([1, -70000, None], pa.int32()),
        "i8": pa.array([2**40, -5, None], pa.int64()),
        "f4": pa.array([1.5, 0.1, None], pa.float32()),
        "f8": pa.array([3.25, 1e100, None], pa.float64()),
        "d": pa.array([decimal.Decimal("12.34"), decimal.Decimal("-0.05"), None], pa.decimal128(10, 2)),
        "s": pa.array(["alpha", "βeta \"q\"", None], pa.string()),
        "dt": pa.array([datetime.date(2024, 2, 29), datetime.date(1969, 12, 31), None], pa.date32()),
        "ts": pa.array([datetime.datetime(2024, 2, 29, 13, 14, 15, 250000), datetime.datetime(1969, 12, 31, 23, 59, 59,
                                                                                             999999), None],
                       pa.timestamp("us")),
    })
    pq.write_table(typed, data / "typed" / "part-0.parquet")
    (data / "big").mkdir()
    ids = list(range(BIG_ROWS))
    pq.write_table(pa.table({"id": pa.array(ids, pa.int64()), "name": pa.array([f"name-{i}" for i in ids])}),
                   data / "big" / "part-0.parquet")


def _start(kestrel_bin: Path, args: list[str], protocols: list[str]):
    """Starts `kestrel serve ARGS` and returns (process, {protocol: port}) once every protocol reported its port."""
    # Unbuffered stdout: a buffered reader could hold the second port's line where select() no longer sees it.
    # stderr (a log line per query) goes to a file, so that a long test never fills a pipe nobody reads.
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([str(kestrel_bin), "serve", "--device", "cpu", *args], stdout=subprocess.PIPE,
                               stderr=log, bufsize=0)
    ports: dict[str, int] = {}
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while len(ports) < len(protocols) and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            line = process.stdout.readline().decode()
            name, _, rest = line.partition(": listening on 127.0.0.1:")
            if rest:
                ports[name] = int(rest)
    if sorted(ports) != sorted(protocols):
        process.kill()
        log.seek(0)
        pytest.fail(f"kestrel serve reported {ports}, expected {protocols}; stderr: {log.read().decode()}")
    return process, ports


def _stop(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("kestrel serve did not stop on SIGTERM")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("trino_data")
    _write_tables(data)
    return data


@pytest.fixture(scope="module")
def server(kestrel_bin: Path, data_dir: Path):
    """A server with both protocols; yields {"trino": port, "pg": port}."""
    process, ports = _start(kestrel_bin, ["--trino-port", "0", "--pg-port", "0", "--data", str(data_dir)],
                            ["pg", "trino"])
    yield ports
    _stop(process)


@pytest.fixture()
def cursor(server):
    connection = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me")
    yield connection.cursor()
    connection.close()


def _url(server, path: str) -> str:
    return f"http://127.0.0.1:{server['trino']}{path}"


def _post(server, sql: str, **headers) -> dict:
    response = requests.post(_url(server, "/v1/statement"), data=sql.encode(), headers={"X-Trino-User": "me", **headers},
                             timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def test_every_type_with_nulls(cursor):
    cursor.execute("SELECT b, i1, i2, i4, i8, f4, f8, d, s, dt, ts FROM typed ORDER BY i4 DESC NULLS LAST")
    rows = cursor.fetchall()
    types = [column[1] for column in cursor.description]
    assert types == ["boolean", "tinyint", "smallint", "integer", "bigint", "real", "double", "decimal(10,2)",
                     "varchar", "date", "timestamp(6)"]
    assert rows[0] == [True, -8, -3, 1, 2**40, 1.5, 3.25, decimal.Decimal("12.34"), "alpha",
                       datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 14, 15, 250000)]
    assert rows[1] == [False, 7, 300, -70000, -5, 0.1, 1e100, decimal.Decimal("-0.05"), "βeta \"q\"",
                       datetime.date(1969, 12, 31), datetime.datetime(1969, 12, 31, 23, 59, 59, 999999)]
    assert rows[2] == [None] * 11


def test_wire_forms_of_values(server):
    body = _post(server, "SELECT d, f4, dt, ts, CAST('NaN' AS DOUBLE) AS nan, NULL AS n FROM typed WHERE i4 = 1")
    columns = {c["name"]: c for c in body["columns"]}
    assert columns["d"]["typeSignature"] == {"rawType": "decimal", "arguments": [{"kind": "LONG", "value": 10},
                                                                                  {"kind": "LONG", "value": 2}]}
    assert columns["ts"]["typeSignature"] == {"rawType": "timestamp", "arguments": [{"kind": "LONG", "value": 6}]}
    assert columns["n"]["type"] == "unknown"
    assert body["data"] == [["12.34", 1.5, "2024-02-29", "2024-02-29 13:14:15.250000", "NaN", None]]
    assert body["stats"]["state"] == "FINISHED" and "nextUri" not in body


def test_varbinary_is_base64_on_the_wire(server, cursor):
    body = _post(server, "SELECT X'00ff41' AS b, X'' AS e, CAST(NULL AS VARBINARY) AS n")
    assert [c["type"] for c in body["columns"]] == ["varbinary"] * 3
    assert body["columns"][0]["typeSignature"] == {"rawType": "varbinary", "arguments": []}
    assert body["data"] == [["AP9B", "", None]]
    cursor.execute("SELECT to_utf8('kestrel')")
    assert cursor.fetchall() == [[b"kestrel"]]


def test_nested_values_on_the_wire(server, cursor):
    body = _post(server, "SELECT ARRAY[1, NULL] AS a, map(ARRAY['k'], ARRAY[2.5]) AS m, "
                         "CAST(ROW(1, 'a') AS ROW(x INTEGER, y VARCHAR)) AS r, ARRAY[ARRAY['p']] AS n")
    assert [c["type"] for c in body["columns"]] == ["array(integer)", "map(varchar, decimal(2,1))",
                                                   "row(x integer, y varchar)", "array(array(varchar))"]
    assert body["columns"][0]["typeSignature"] == {
        "rawType": "array", "arguments": [{"kind": "TYPE", "value": {"rawType": "integer", "arguments": []}}]}
    assert body["data"] == [[[1, None], {"k": "2.5"}, [1, "a"], [["p"]]]]
    cursor.execute("SELECT ARRAY[1, 2], map(ARRAY['k'], ARRAY[1])")
    assert cursor.fetchall() == [[[1, 2], {"k": 1}]]


def test_json_is_its_text_on_the_wire(server):
    body = _post(server, """SELECT JSON '{"b": [1, 2], "a": "x"}' AS j, CAST(NULL AS JSON) AS n""")
    assert [c["type"] for c in body["columns"]] == ["json"] * 2
    assert body["data"] == [['{"a":"x","b":[1,2]}', None]]


def test_intervals(cursor):
    cursor.execute("SELECT INTERVAL '1 day' + INTERVAL '2 hours' + INTERVAL '3 seconds' AS ds, -INTERVAL '2 hours' AS neg, "
                   "CAST(NULL AS INTERVAL) AS n, INTERVAL '-14 months' AS ym, INTERVAL '1 month 1 day' AS mixed")
    assert [c[1] for c in cursor.description] == ["interval day to second", "interval day to second",
                                                  "interval day to second", "interval year to month", "varchar"]
    ds, neg, n, ym, mixed = cursor.fetchone()
    assert ds == datetime.timedelta(days=1, hours=2, seconds=3)
    assert neg == -datetime.timedelta(hours=2)
    assert n is None
    assert (ym.years, ym.months) == (-1, -2)
    assert mixed == "1 mon 1 day"


def test_multi_page_result(cursor):
    cursor.execute("SELECT id, name FROM big ORDER BY id")
    rows = cursor.fetchall()
    assert len(rows) == BIG_ROWS
    assert rows[0] == [0, "name-0"] and rows[-1] == [BIG_ROWS - 1, f"name-{BIG_ROWS - 1}"]
    assert [r[0] for r in rows] == list(range(BIG_ROWS))


def test_pages_are_bounded_and_retries_repeat(server):
    body = _post(server, "SELECT id FROM big ORDER BY id")
    pages, seen = 0, []
    while True:
        if "data" in body:
            pages += 1
            assert len(body["data"]) <= 4096
            seen += [row[0] for row in body["data"]]
        if "nextUri" not in body:
            break
        next_uri = body["nextUri"]
        body = requests.get(next_uri, timeout=30).json()
        again = requests.get(next_uri, timeout=30).json()  # a retry of the same token gets the same page
        assert again.get("data") == body.get("data")
    assert body["stats"]["state"] == "FINISHED"
    assert pages >= BIG_ROWS // 4096
    assert seen == list(range(BIG_ROWS))


def test_syntax_error_location(cursor):
    with pytest.raises(trino.exceptions.TrinoUserError) as raised:
        cursor.execute("SELECT 1 +\nFROM big")
    assert raised.value.error_name == "SYNTAX_ERROR"
    assert raised.value.error_location == (2, 1)
    assert raised.value.message.startswith("line 2:1: ")


def test_binder_error_location(cursor):
    with pytest.raises(trino.exceptions.TrinoUserError) as raised:
        cursor.execute("SELECT id,\n  no_such_column FROM big")
    assert raised.value.error_name == "COLUMN_NOT_FOUND"
    assert raised.value.error_type == "USER_ERROR"
    assert raised.value.error_location == (2, 3)
    with pytest.raises(trino.exceptions.TrinoUserError) as raised:
        cursor.execute("SELECT * FROM no_such_table")
    assert raised.value.error_name == "TABLE_NOT_FOUND"
    assert raised.value.error_location == (1, 15)


def test_session_property_applies_to_its_statements_only(server):
    with_property = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me",
                                        session_properties={"table_format": "kcol"})
    cursor = with_property.cursor()
    cursor.execute("SHOW table_format")
    assert cursor.fetchall() == [["kcol"]]
    plain = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me").cursor()
    plain.execute("SHOW table_format")
    assert plain.fetchall() == [["parquet"]]


def test_client_time_zone_is_the_session_zone(server):
    """The client's X-Trino-Time-Zone sets the zone of its queries (the time_zone setting), and only of its own."""
    zoned = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me", timezone="America/New_York").cursor()
    zoned.execute("SELECT current_timezone()")
    assert zoned.fetchall() == [["America/New_York"]]
    plain = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me").cursor()
    plain.execute("SELECT current_timezone()")
    assert plain.fetchall() == [["UTC"]]


def test_unknown_session_property(server):
    cursor = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me",
                                 session_properties={"no_such_setting": "1"}).cursor()
    with pytest.raises(trino.exceptions.TrinoUserError) as raised:
        cursor.execute("SELECT 1")
    assert raised.value.error_name == "INVALID_SESSION_PROPERTY"
    assert "no_such_setting" in raised.value.message


HEAVY_SQL = "SELECT count(*) FROM big a, big b, typed t WHERE a.id + b.id + t.i4 < -1000000"


def test_cancel_with_delete_on_next_uri(server, cursor):
    body = _post(server, HEAVY_SQL)
    assert body["stats"]["state"] in ("QUEUED", "RUNNING") and "nextUri" in body
    time.sleep(0.5)
    assert requests.delete(body["nextUri"], timeout=10).status_code == 204
    assert requests.get(body["nextUri"], timeout=10).status_code == 404
    # The cancelled statement stops: the next statement (statements run one at a time) does not wait for it.
    started = time.monotonic()
    cursor.execute("SELECT count(*) FROM typed")
    assert cursor.fetchall() == [[3]]
    assert time.monotonic() - started < 30


def test_cancel_through_the_client(server):
    cursor = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me").cursor()
    outcome: dict = {}

    def run():
        try:
            cursor.execute(HEAVY_SQL)
            outcome["rows"] = cursor.fetchall()
        except trino.exceptions.TrinoQueryError as e:
            outcome["error"] = e.error_name

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 10
    while cursor.query_id is None:  # wait until the POST was answered
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    cursor.cancel()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert outcome.get("error") == "USER_CANCELED" or outcome.get("rows") == []


def test_info(server):
    with urllib.request.urlopen(_url(server, "/v1/info"), timeout=10) as response:
        info = json.load(response)
    assert info["coordinator"] is True and info["starting"] is False
    assert info["nodeVersion"]["version"].startswith("kestrel")
    assert info["environment"] and info["uptime"].endswith("s")


def test_create_table_as_then_select(cursor, server):
    cursor.execute("CREATE TABLE trino_ctas AS SELECT id, name FROM big WHERE id < 10")
    assert cursor.fetchall() == [[10]]
    assert cursor.rowcount == 10
    cursor.execute("SELECT count(*), max(name) FROM trino_ctas")
    assert cursor.fetchall() == [[10, "name-9"]]
    cursor.execute("CREATE TABLE trino_plain (a INTEGER)")
    assert cursor.fetchall() == [[True]]
    cursor.execute("INSERT INTO trino_plain VALUES (1), (2), (3)")
    assert cursor.fetchall() == [[3]] and cursor.rowcount == 3
    # The PostgreSQL protocol serves the same database beside the Trino one.
    with psycopg.connect(host="127.0.0.1", port=server["pg"], user="tester", dbname="kestrel", autocommit=True,
                         connect_timeout=10) as pg:
        assert pg.execute("SELECT count(*) FROM trino_ctas").fetchone() == (10,)
        assert pg.execute("SELECT sum(a) FROM trino_plain").fetchone() == (6,)


def test_malformed_requests(server):
    no_user = requests.post(_url(server, "/v1/statement"), data=b"SELECT 1", timeout=10)
    assert no_user.status_code == 400 and "User" in no_user.text
    empty = requests.post(_url(server, "/v1/statement"), data=b"  ", headers={"X-Trino-User": "me"}, timeout=10)
    assert empty.status_code == 400
    bad_session = requests.post(_url(server, "/v1/statement"), data=b"SELECT 1",
                                headers={"X-Trino-User": "me", "X-Trino-Session": "novalue"}, timeout=10)
    assert bad_session.status_code == 400
    assert requests.get(_url(server, "/v1/nowhere"), timeout=10).status_code == 404
    assert requests.get(_url(server, "/v1/statement"), timeout=10).status_code == 405
    assert requests.get(_url(server, "/v1/statement/executing/nosuch/1"), timeout=10).status_code == 404
    body = _post(server, "SELECT 1")
    query_path = f"/v1/statement/executing/{body['id']}"
    assert requests.get(_url(server, query_path + "/abc"), timeout=10).status_code == 404
    with socket.create_connection(("127.0.0.1", server["trino"]), timeout=10) as raw:
        raw.sendall(b"NONSENSE\r\n\r\n")
        assert raw.recv(4096).startswith(b"HTTP/1.1 400")


def test_abandoned_query_is_dropped(kestrel_bin: Path, data_dir: Path):
    process, ports = _start(kestrel_bin, ["--trino-port", "0", "--trino-idle-timeout", "1", "--data", str(data_dir)],
                            ["trino"])
    try:
        body = _post({"trino": ports["trino"]}, "SELECT id FROM big")
        assert "nextUri" in body
        time.sleep(3.5)  # past the idle timeout, and past the once-a-second sweep
        assert requests.get(body["nextUri"], timeout=10).status_code == 404
    finally:
        _stop(process)


def test_parameters_arrive_as_execute_immediate(server):
    """The trino client sends statements with ? parameters as EXECUTE IMMEDIATE '...' USING ...; quotes inside the
    statement and the values, and ? inside string literals, stay as they are."""
    cursor = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me").cursor()
    cursor.execute("SELECT ? || '?' AS s, ? + 1 AS n, ? AS d", ("it's", 41, datetime.date(2024, 2, 29)))
    assert cursor.fetchall() == [["it's?", 42, datetime.date(2024, 2, 29)]]
    with pytest.raises(trino.exceptions.TrinoUserError) as raised:
        cursor.execute("EXECUTE IMMEDIATE 'SELECT ?, ?' USING 1")
    assert "1 values for 2 ? placeholders" in raised.value.message or "more ? placeholders" in raised.value.message


def test_sqlalchemy_trino_dialect(server):
    """SQLAlchemy's trino dialect: reflection through information_schema (parameterized) and pandas.read_sql."""
    sqlalchemy = pytest.importorskip("sqlalchemy")
    import pandas as pd
    engine = sqlalchemy.create_engine(f"trino://me@127.0.0.1:{server['trino']}/kestrel/public")
    inspector = sqlalchemy.inspect(engine)
    assert "typed" in inspector.get_table_names()
    columns = inspector.get_columns("typed")
    assert [c["name"] for c in columns][:3] == ["b", "i1", "i2"]
    # information_schema answers Trino sessions with Trino's type names, which the dialect maps to SQL types (a name
    # it did not know would come back as NullType with a warning).
    for column in columns:
        assert not isinstance(column["type"], sqlalchemy.types.NullType), column
    with engine.connect() as connection:
        frame = pd.read_sql(sqlalchemy.text("SELECT i4 FROM typed WHERE i4 <= :high ORDER BY i4"), connection,
                            params={"high": 1})
    assert frame["i4"].tolist() == [-70000, 1]
