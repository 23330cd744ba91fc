"""Catalog views as SQL clients read them: psycopg over the PostgreSQL protocol (information_schema, and pg_class /
pg_attribute / pg_type joins as psql's \\d and SQLAlchemy's reflection send them) and the trino client over the
Trino protocol (SHOW TABLES, SHOW COLUMNS, information_schema.columns), against one `kestrel serve` with a data
folder, tables created over the connection and a view."""

from __future__ import annotations

import datetime
import decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_trino_server import _start, _stop

import trino  # noqa: E402  (pinned in requirements.txt)
psycopg = pytest.importorskip("psycopg")



def _write_tables(data: Path) -> None:
    (data / "sales").mkdir(parents=True)
    pq.write_table(pa.table({
        "id": pa.array([1, 2], pa.int64()),
        "amount": pa.array([decimal.Decimal("1.50"), decimal.Decimal("2.25")], pa.decimal128(9, 2)),
        "region": pa.array(["north", "south"], pa.string()),
        "sold": pa.array([datetime.date(2024, 1, 1), datetime.date(2024, 1, 2)], pa.date32()),
    }), data / "sales" / "part-0.parquet")


@pytest.fixture(scope="module")
def server(kestrel_bin: Path, tmp_path_factory):
    """`kestrel serve` with both protocols over a data folder holding `sales`; yields {"pg": port, "trino": port}."""
    data = tmp_path_factory.mktemp("catalog_data")
    _write_tables(data)
    process, ports = _start(kestrel_bin, ["--pg-port", "0", "--trino-port", "0", "--data", str(data)], ["pg", "trino"])
    yield ports
    _stop(process)


@pytest.fixture(scope="module")
def pg(server):
    with psycopg.connect(host="127.0.0.1", port=server["pg"], user="tester", dbname="kestrel", autocommit=True,
                         connect_timeout=10) as connection:
        connection.execute("CREATE TABLE notes(id INTEGER NOT NULL, body VARCHAR, weight DOUBLE)")
        connection.execute("CREATE VIEW north_sales AS SELECT id, amount FROM sales WHERE region = 'north'")
        yield connection


@pytest.fixture()
def trino_cursor(server, pg):  # pg: the tables it creates exist before Trino reads the catalog
    connection = trino.dbapi.connect(host="127.0.0.1", port=server["trino"], user="me", catalog="kestrel",
                                     schema="default")
    yield connection.cursor()
    connection.close()


def test_pg_information_schema_columns(pg):
    rows = pg.execute(
        "SELECT column_name, data_type, is_nullable, numeric_precision, numeric_scale "
        "FROM information_schema.columns WHERE table_schema = 'public' AND table_name = %s "
        "ORDER BY ordinal_position", ("sales",)).fetchall()
    assert rows == [("id", "bigint", "YES", 64, 0), ("amount", "numeric", "YES", 9, 2),
                    ("region", "character varying", "YES", None, None), ("sold", "date", "YES", None, None)]
    tables = pg.execute("SELECT table_name, table_type FROM information_schema.tables "
                        "WHERE table_schema = current_schema() ORDER BY table_name").fetchall()
    assert tables == [("north_sales", "VIEW"), ("notes", "BASE TABLE"), ("sales", "BASE TABLE")]


def test_pg_session_functions(pg):
    assert pg.execute("SELECT current_schema(), current_database(), current_catalog").fetchone() == \
        ("public", "kestrel", "kestrel")


def test_pg_table_listing_like_psql(pg):
    # psql's \dt, reduced to what Kestrel answers: relations of the visible user schema.
    rows = pg.execute(
        "SELECT n.nspname, c.relname, CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' END "
        "FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'v') AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' "
        "ORDER BY 1, 2").fetchall()
    assert rows == [("public", "north_sales", "view"), ("public", "notes", "table"), ("public", "sales", "table")]


def test_pg_reflection_by_oid(pg):
    # Reflection reads a table's OID in one query and its attributes in the next, as SQLAlchemy's dialect does.
    oid = pg.execute("SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
                     "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = %s", ("notes",)).fetchone()[0]
    assert isinstance(oid, int) and oid >= 16384
    rows = pg.execute(
        "SELECT a.attname, t.typname, a.attnotnull FROM pg_catalog.pg_attribute a "
        "JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
        "WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum", (oid,)).fetchall()
    assert rows == [("id", "int4", True), ("body", "varchar", False), ("weight", "float8", False)]
    # The OIDs pg_attribute reports are the ones the wire protocol describes result columns with.
    cursor = pg.execute("SELECT id, body, weight FROM notes")
    wire_oids = [column.type_code for column in cursor.description]
    catalog_oids = [row[0] for row in pg.execute(
        "SELECT atttypid FROM pg_attribute WHERE attrelid = %s ORDER BY attnum", (oid,)).fetchall()]
    assert wire_oids == catalog_oids


def test_pg_dropped_table_disappears(pg):
    pg.execute("CREATE TABLE scratch(x INTEGER)")
    assert pg.execute("SELECT count(*) FROM pg_class WHERE relname = 'scratch'").fetchone() == (1,)
    pg.execute("DROP TABLE scratch")
    assert pg.execute("SELECT count(*) FROM pg_class WHERE relname = 'scratch'").fetchone() == (0,)
    assert pg.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = 'scratch'").fetchone() == (0,)


def test_trino_show_tables(trino_cursor):
    trino_cursor.execute("SHOW TABLES")
    assert [d[0] for d in trino_cursor.description] == ["Table"]
    assert trino_cursor.fetchall() == [["north_sales"], ["notes"], ["sales"]]
    trino_cursor.execute("SHOW SCHEMAS")
    assert ["public"] in trino_cursor.fetchall()
    trino_cursor.execute("SHOW CATALOGS")
    assert trino_cursor.fetchall() == [["kestrel"]]


def test_trino_show_columns(trino_cursor):
    trino_cursor.execute("SHOW COLUMNS FROM sales")
    assert [d[0] for d in trino_cursor.description] == ["Column", "Type", "Extra", "Comment"]
    assert trino_cursor.fetchall() == [["id", "bigint", "", ""], ["amount", "decimal(9,2)", "", ""],
                                       ["region", "varchar", "", ""], ["sold", "date", "", ""]]
    trino_cursor.execute("SHOW COLUMNS FROM north_sales")
    assert [row[:2] for row in trino_cursor.fetchall()] == [["id", "bigint"], ["amount", "decimal(9,2)"]]


def test_trino_information_schema_columns(trino_cursor):
    trino_cursor.execute("SELECT column_name, data_type, ordinal_position FROM information_schema.columns "
                         "WHERE table_name = 'notes' ORDER BY ordinal_position")
    # Trino's type names for Trino sessions (PostgreSQL sessions get the SQL-standard ones).
    assert trino_cursor.fetchall() == [["id", "integer", 1], ["body", "varchar", 2], ["weight", "double", 3]]


def test_trino_missing_table_is_a_clean_error(trino_cursor):
    with pytest.raises(trino.exceptions.TrinoUserError) as failure:
        trino_cursor.execute("SHOW COLUMNS FROM nothing_here")
        trino_cursor.fetchall()
    assert "does not exist" in str(failure.value)
