"""End-to-end tests of TLS and authentication in `kestrel serve`: a self-signed certificate made with the openssl
command line tool, a users file made with `kestrel passwd`, psycopg over TLS and plain text (SCRAM-SHA-256), the
trino client over HTTPS with Basic authentication, and the checks of the command line. Nothing here connects to a
non-loopback address."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import re
import select
import shutil
import socket
import ssl
import struct
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from test_trino_server import _stop

psycopg = pytest.importorskip("psycopg")
trino = pytest.importorskip("trino")

STARTUP_TIMEOUT_S = 60
PASSWORD = "correct horse: battery"
VERIFIER = re.compile(r"^(\w+):SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$")


def _openssl(*args: str) -> None:
    if shutil.which("openssl") is None:
        pytest.fail("the openssl command line tool is missing: run scripts/setup.sh")
    subprocess.run(["openssl", *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def files(tmp_path_factory, run_kestrel) -> dict[str, Path]:
    """A self-signed certificate for 127.0.0.1, its key, a key of another certificate, and a users file."""
    folder = tmp_path_factory.mktemp("server_auth")
    cert, key, other_key = folder / "cert.pem", folder / "key.pem", folder / "other_key.pem"
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost")
    _openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", str(other_key))
    lines = []
    for name, password in (("alice", PASSWORD), ("bob", "bobs password")):
        result = run_kestrel("passwd", name, stdin=password + "\n")
        assert result.returncode == 0, result.describe()
        lines.append(result.stdout.strip())
    users = folder / "users"
    users.write_text("# Kestrel users\n" + "\n".join(lines) + "\n")
    return {"cert": cert, "key": key, "other_key": other_key, "users": users, "folder": folder}


def _start(kestrel_bin: Path, args: list[str], listen: str = "127.0.0.1"):
    """Starts `kestrel serve ARGS` and returns (process, {protocol: port}, stderr file) once both ports are reported."""
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([str(kestrel_bin), "serve", "--device", "cpu", "--listen", listen, "--pg-port", "0",
                                "--trino-port", "0", *args], stdout=subprocess.PIPE, stderr=log, bufsize=0)
    ports: dict[str, int] = {}
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while len(ports) < 2 and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            name, _, rest = process.stdout.readline().decode().partition(f": listening on {listen}:")
            if rest:
                ports[name] = int(rest)
    if sorted(ports) != ["pg", "trino"]:
        process.kill()
        log.seek(0)
        pytest.fail(f"kestrel serve reported {ports}; stderr: {log.read().decode()}")
    return process, ports, log



@pytest.fixture(scope="module")
def server(kestrel_bin: Path, files):
    """A server with TLS and users on loopback ports; yields {protocol: port}."""
    process, ports, log = _start(kestrel_bin, ["--tls-cert", str(files["cert"]), "--tls-key", str(files["key"]),
                                               "--users", str(files["users"])])
    yield ports
    _stop(process)
    log.close()


def _pg_connect(port: int, user: str, password: str | None, sslmode: str):
    return psycopg.connect(host="127.0.0.1", port=port, user=user, password=password, dbname="kestrel",
                           sslmode=sslmode, autocommit=True, connect_timeout=10)


def test_passwd_prints_a_postgresql_scram_verifier(run_kestrel):
    first = run_kestrel("passwd", "carol", stdin="s3cret\n")
    second = run_kestrel("passwd", "carol", stdin="s3cret\n")
    assert first.returncode == 0, first.describe()
    match = VERIFIER.match(first.stdout.strip())
    assert match, first.describe()
    name, iterations, salt, stored_key, server_key = match.groups()
    assert (name, iterations) == ("carol", "4096")
    # The keys are RFC 5802's, computed here independently of Kestrel.
    salted = hashlib.pbkdf2_hmac("sha256", b"s3cret", base64.b64decode(salt), int(iterations))
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    assert base64.b64decode(stored_key) == hashlib.sha256(client_key).digest()
    assert base64.b64decode(server_key) == hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    assert first.stdout != second.stdout  # a fresh salt each time


def test_passwd_refuses_an_empty_password_and_a_bad_name(run_kestrel):
    empty = run_kestrel("passwd", "carol", stdin="\n")
    assert empty.returncode == 2 and "empty password" in empty.stderr, empty.describe()
    bad_name = run_kestrel("passwd", "a:b", stdin="x\n")
    assert bad_name.returncode == 2 and "without ':'" in bad_name.stderr, bad_name.describe()


def test_pg_over_tls_with_the_right_password_runs_a_query(server):
    with _pg_connect(server["pg"], "alice", PASSWORD, "require") as conn:
        assert conn.pgconn.ssl_in_use
        assert conn.execute("SELECT 40 + 2").fetchone() == (42,)


def test_pg_wrong_password_fails_with_28p01(server):
    with pytest.raises(psycopg.OperationalError, match='password authentication failed for user "alice"'):
        _pg_connect(server["pg"], "alice", "not the password", "require")
    with pytest.raises(psycopg.OperationalError, match='password authentication failed for user "alice"'):
        _pg_connect(server["pg"], "alice", "bobs password", "require")  # another user's password


def test_pg_unknown_user_fails_with_the_same_message(server):
    with pytest.raises(psycopg.OperationalError, match='password authentication failed for user "mallory"'):
        _pg_connect(server["pg"], "mallory", PASSWORD, "require")


def test_pg_without_tls_still_authenticates_with_scram(server):
    with _pg_connect(server["pg"], "bob", "bobs password", "disable") as conn:
        assert not conn.pgconn.ssl_in_use
        assert conn.execute("SELECT 'plain'").fetchone() == ("plain",)
    with pytest.raises(psycopg.OperationalError, match='password authentication failed for user "bob"'):
        _pg_connect(server["pg"], "bob", "wrong", "disable")
    with pytest.raises(psycopg.OperationalError):
        _pg_connect(server["pg"], "bob", None, "disable")  # no password at all


def test_pg_ssl_request_is_accepted_and_sasl_offers_only_scram(server, files):
    with socket.create_connection(("127.0.0.1", server["pg"]), timeout=10) as raw:
        raw.sendall(struct.pack("!ii", 8, 80877103))
        assert raw.recv(1) == b"S"
        context = ssl.create_default_context(cafile=str(files["cert"]))
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.version() in ("TLSv1.2", "TLSv1.3")
            body = struct.pack("!i", 3 << 16) + b"user\0alice\0\0"
            tls.sendall(struct.pack("!i", len(body) + 4) + body)
            head = tls.recv(5)
            kind, length = head[:1], struct.unpack("!i", head[1:])[0]
            payload = b""
            while len(payload) < length - 4:
                payload += tls.recv(length - 4 - len(payload))
    assert kind == b"R" and struct.unpack("!i", payload[:4])[0] == 10  # AuthenticationSASL
    assert payload[4:] == b"SCRAM-SHA-256\0\0"


def _trino_query(port: int, user: str, password: str, cert: Path, sql: str, acting_user: str | None = None):
    conn = trino.dbapi.connect(host="127.0.0.1", port=port, user=acting_user or user, http_scheme="https",
                               auth=trino.auth.BasicAuthentication(user, password), verify=str(cert), max_attempts=1)
    cursor = conn.cursor()
    cursor.execute(sql)
    return cursor.fetchall()


@pytest.fixture()
def trusted_cert(files, monkeypatch) -> Path:
    # requests lets REQUESTS_CA_BUNDLE (set on some machines) override a session's `verify`: point it at our cert.
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(files["cert"]))
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)
    return files["cert"]


def test_trino_over_https_with_basic_auth_runs_a_query(server, trusted_cert):
    assert _trino_query(server["trino"], "alice", PASSWORD, trusted_cert, "SELECT 1 + 2, 'tls'") == [[3, "tls"]]


def test_trino_wrong_password_gives_401(server, trusted_cert):
    with pytest.raises(trino.exceptions.HttpError, match="401"):
        _trino_query(server["trino"], "alice", "wrong", trusted_cert, "SELECT 1")
    with pytest.raises(trino.exceptions.HttpError, match="401"):
        _trino_query(server["trino"], "mallory", PASSWORD, trusted_cert, "SELECT 1")


def test_trino_user_header_must_match_the_authenticated_user(server, trusted_cert):
    with pytest.raises(trino.exceptions.HttpError, match="403"):
        _trino_query(server["trino"], "alice", PASSWORD, trusted_cert, "SELECT 1", acting_user="bob")


def test_trino_request_without_credentials_gets_a_basic_challenge(server, files):
    context = ssl.create_default_context(cafile=str(files["cert"]))
    conn = http.client.HTTPSConnection("127.0.0.1", server["trino"], context=context, timeout=10)
    conn.request("POST", "/v1/statement", body="SELECT 1", headers={"X-Trino-User": "alice"})
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 401
    assert response.getheader("WWW-Authenticate") == 'Basic realm="kestrel"'


def test_non_loopback_listen_without_users_is_refused(run_kestrel):
    result = run_kestrel("serve", "--listen", "0.0.0.0", "--pg-port", "0", timeout=30)
    assert result.returncode == 2, result.describe()
    assert "requires authentication" in result.stderr and "--users" in result.stderr


def test_non_loopback_listen_with_users_starts(kestrel_bin, files):
    # Only checks that the server starts and reports its ports: nothing connects to the non-loopback address.
    process, ports, log = _start(kestrel_bin, ["--users", str(files["users"])], listen="0.0.0.0")
    _stop(process)
    log.seek(0)
    stderr = log.read().decode()
    log.close()
    assert ports["pg"] > 0 and ports["trino"] > 0
    assert "TLS is off" in stderr and "clear text" in stderr


@pytest.mark.parametrize("case", ["cert_only", "missing_cert", "mismatched_key", "bad_users"])
def test_bad_tls_and_users_options_are_refused_with_the_file_named(run_kestrel, files, case):
    missing = files["folder"] / "missing.pem"
    bad_users = files["folder"] / "bad_users"
    bad_users.write_text("alice:md5abcdef\n")
    args, expected = {
        "cert_only": (["--tls-cert", str(files["cert"])], "--tls-cert and --tls-key go together"),
        "missing_cert": (["--tls-cert", str(missing), "--tls-key", str(files["key"])], f"'{missing}'"),
        "mismatched_key": (["--tls-cert", str(files["cert"]), "--tls-key", str(files["other_key"])],
                           f"'{files['other_key']}' does not match"),
        "bad_users": (["--users", str(bad_users)], f"'{bad_users}' line 1"),
    }[case]
    result = run_kestrel("serve", "--pg-port", "0", *args, timeout=30)
    assert result.returncode == 2, result.describe()
    assert expected in result.stderr, result.describe()


def test_pg_oversized_message_before_authentication_is_refused_at_once(server):
    """An unauthenticated client announcing a huge SASL message gets a protocol error and the connection closes,
    without the server waiting for (or allocating) the announced bytes."""
    with socket.create_connection(("127.0.0.1", server["pg"]), timeout=10) as raw:
        body = struct.pack("!i", 3 << 16) + b"user\0alice\0\0"
        raw.sendall(struct.pack("!i", len(body) + 4) + body)
        assert raw.recv(1) == b"R"  # AuthenticationSASL
        raw.recv(65536)
        raw.sendall(b"p" + struct.pack("!i", 1 << 29))
        reply = b""
        while True:
            chunk = raw.recv(65536)
            if not chunk:
                break
            reply += chunk
    assert reply[:1] == b"E" and b"08P01" in reply and b"invalid message length" in reply, reply


def test_trino_query_pages_belong_to_the_user_who_started_it(server, files):
    """Another authenticated user cannot read or cancel a query (it answers as missing); ids are long and random."""
    import base64
    import json
    context = ssl.create_default_context(cafile=str(files["cert"]))

    def request(method, path, user, password, body=None):
        conn = http.client.HTTPSConnection("127.0.0.1", server["trino"], context=context, timeout=10)
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        conn.request(method, path, body=body, headers={"Authorization": "Basic " + token})
        response = conn.getresponse()
        return response.status, response.read()

    values = ", ".join(f"({i})" for i in range(100))
    sql = f"SELECT a.x * 100 + b.x AS n FROM (VALUES {values}) a(x) CROSS JOIN (VALUES {values}) b(x)"
    status, body = request("POST", "/v1/statement", "alice", PASSWORD, sql)  # 10000 rows: several pages
    assert status == 200, body
    started = json.loads(body)
    assert len(started["id"].rsplit("_", 1)[1]) == 16, started["id"]
    path = "/" + started["nextUri"].split("/", 3)[3]
    assert request("GET", path, "bob", "bobs password")[0] == 404
    assert request("DELETE", path, "bob", "bobs password")[0] == 404
    status, body = request("GET", path, "alice", PASSWORD)
    assert status == 200 and b'"data"' in body, body
    assert request("DELETE", path, "alice", PASSWORD)[0] in (200, 204)
