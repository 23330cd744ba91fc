"""VARBINARY through Parquet, against pyarrow and DuckDB: Kestrel writes VARBINARY columns as BYTE_ARRAY without
an annotation (pyarrow reads `binary`, DuckDB BLOB) with the exact bytes; pyarrow's `binary`, `large_binary` and
`fixed_size_binary` columns read into Kestrel as VARBINARY, `string` columns stay VARCHAR; and the CLI's output
formats print bytes as Presto's CLI does (hex bytes separated by spaces), JSON as base64."""

from __future__ import annotations

import base64
import csv
import io
import json

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
duckdb = pytest.importorskip("duckdb")

#: Values with the edges: empty, NUL bytes, 0xff (unsigned order), bytes that are not UTF-8, a long value, NULL.
VALUES = [b"", b"\x00", b"\x00\x00\xff", b"\xff\xfe", b"a\xffb", "é✓".encode(), bytes(range(256)) * 40, None,
          b"kestrel", b"\x80"]


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def hex_literal(v: bytes | None) -> str:
    return "NULL" if v is None else "X'" + v.hex() + "'"


def query(run_kestrel, sql: str, fmt: str = "csv"):
    result = run_kestrel("--device", "cpu", "--format", fmt, "-c", sql)
    assert result.returncode == 0, result.describe()
    return result.stdout


def write_from_kestrel(run_kestrel, path, dictionary: str = "true"):
    rows = ", ".join(f"({i}, {hex_literal(v)})" for i, v in enumerate(VALUES))
    query(run_kestrel, f"COPY (SELECT id, b FROM (VALUES {rows}) t(id, b) ORDER BY id) TO '{path}' "
                       f"WITH (dictionary {dictionary})")


@pytest.mark.parametrize("dictionary", ["true", "false"])
def test_kestrel_writes_binary_that_pyarrow_and_duckdb_read(run_kestrel, tmp_path, dictionary):
    path = tmp_path / "b.parquet"
    write_from_kestrel(run_kestrel, path, dictionary)
    table = pq.read_table(path)
    assert table.schema.field("b").type == pa.binary()
    assert table.column("b").to_pylist() == VALUES
    # No logical annotation: plain bytes.
    column = pq.ParquetFile(path).schema.column(1)
    assert column.physical_type == "BYTE_ARRAY"
    assert column.logical_type.type == "NONE"
    con = duckdb.connect()
    assert con.execute(f"SELECT typeof(b) FROM read_parquet('{path}') LIMIT 1").fetchone()[0] == "BLOB"
    assert [r[0] for r in con.execute(f"SELECT b FROM read_parquet('{path}') ORDER BY id").fetchall()] == VALUES
    # Statistics order bytes unsigned.
    stats = pq.ParquetFile(path).metadata.row_group(0).column(1).statistics
    present = [v for v in VALUES if v is not None]
    assert stats.null_count == 1
    assert (stats.min, stats.max) == (min(present), max(present))


def test_kestrel_reads_back_what_it_wrote(run_kestrel, tmp_path):
    path = tmp_path / "b.parquet"
    write_from_kestrel(run_kestrel, path)
    out = query(run_kestrel, f"SELECT typeof(b), b IS NULL, to_hex(b), length(b) FROM read_parquet('{path}') "
                             "ORDER BY id")
    rows = csv_rows(out)[1:]
    got = [None if null == "true" else bytes.fromhex(hex_text) for _, null, hex_text, _ in rows]
    assert got == VALUES
    assert [r[0] for r in rows] == ["varbinary"] * len(VALUES)
    assert [r[3] for r in rows] == ["" if v is None else str(len(v)) for v in VALUES]


def test_pyarrow_binary_columns_read_as_varbinary(run_kestrel, tmp_path):
    path = tmp_path / "arrow.parquet"
    fixed = [None if v is None else (v + b"\x00" * 4)[:4] for v in VALUES]
    table = pa.table({
        "id": pa.array(range(len(VALUES)), pa.int32()),
        "bin": pa.array(VALUES, pa.binary()),
        "large": pa.array(VALUES, pa.large_binary()),
        "fixed": pa.array(fixed, pa.binary(4)),
        "text": pa.array([None if v is None else v.hex() for v in VALUES], pa.string()),
    })
    for use_dictionary in (True, False):
        pq.write_table(table, path, use_dictionary=use_dictionary)
        described = csv_rows(query(run_kestrel, f"DESCRIBE SELECT * FROM read_parquet('{path}')"))
        types = {row[0]: row[1] for row in described[1:]}
        assert types == {"id": "INTEGER", "bin": "VARBINARY", "large": "VARBINARY", "fixed": "VARBINARY",
                         "text": "VARCHAR"}, described
        out = query(run_kestrel, "SELECT id, bin, large, fixed, text, from_hex(text) = bin "
                                 f"FROM read_parquet('{path}') ORDER BY id")
        rows = csv_rows(out)[1:]
        assert len(rows) == len(VALUES)
        for row, v, f in zip(rows, VALUES, fixed):
            if v is None:
                assert row[1:] == ["", "", "", "", ""], row
                continue
            assert bytes.fromhex(row[1]) == v and bytes.fromhex(row[2]) == v and bytes.fromhex(row[3]) == f, row
            assert row[5] == "true", row


def test_output_formats(run_kestrel):
    sql = "SELECT X'00ff10' AS b, X'' AS e, CAST(NULL AS VARBINARY) AS n"
    assert csv_rows(query(run_kestrel, sql)) == [["b", "e", "n"], ["00 ff 10", '', '']]
    assert json.loads(query(run_kestrel, sql, "json")) == [
        {"b": base64.b64encode(b"\x00\xff\x10").decode(), "e": "", "n": None}]
    aligned = query(run_kestrel, sql, "aligned")
    assert "00 ff 10" in aligned and "VARBINARY" in aligned


def test_kcol_stores_varbinary(run_kestrel, tmp_path):
    """kcol keeps VARBINARY as offsets + bytes (plain, dictionary and compressed sections) and reads it back as
    VARBINARY, bytes for bytes."""
    path = tmp_path / "b.kcol"
    source = tmp_path / "b.parquet"
    rows = 30000
    pq.write_table(pa.table({
        "id": pa.array(range(rows), pa.int64()),
        "blob": pa.array([None if i % 31 == 0 else bytes([i % 256, 0, 255]) * (1 + i % 40) for i in range(rows)],
                         pa.binary()),
        "flag": pa.array([bytes([i % 3]) for i in range(rows)], pa.binary()),
    }), source)
    result = run_kestrel("--device", "cpu", "-c",
                         f"COPY (SELECT * FROM read_parquet('{source}')) TO '{path}' (FORMAT kcol, ROW_GROUP_SIZE 7000)")
    assert result.returncode == 0, result.describe()
    sql = "SELECT id, to_hex(blob), to_hex(flag), typeof(blob) FROM {} ORDER BY id"
    expected = query(run_kestrel, sql.format(f"read_parquet('{source}')"))
    assert query(run_kestrel, sql.format(f"read_kcol('{path}')")) == expected
    assert "varbinary" in expected
