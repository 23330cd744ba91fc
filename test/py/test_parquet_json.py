"""JSON through Parquet, against pyarrow: Kestrel writes JSON columns as BYTE_ARRAY with the JSON annotation and
their canonical text (pyarrow reads its `json` extension type, or the annotation in the file's schema); columns
with the JSON annotation read into Kestrel as JSON, their text made canonical (so equal documents group
together); kcol files keep JSON values."""

from __future__ import annotations

import json

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

#: Documents with the edges: nested, unicode, big numbers, JSON null (not SQL NULL), a scalar string, SQL NULL.
DOCS = ['{"b": [1, {"c": null}], "a": "x"}', '"caf\\u00e9 \\ud83d\\ude00"', "18446744073709551615", "null",
        "[]", None, '{"a": "x", "b": [1, {"c": null}]}']


def query(run_kestrel, sql: str, fmt: str = "csv"):
    result = run_kestrel("--device", "cpu", "--format", fmt, "-c", sql)
    assert result.returncode == 0, result.describe()
    return result.stdout


def json_literal(doc: str | None) -> str:
    return "NULL" if doc is None else "JSON '" + doc.replace("'", "''") + "'"


def canonical(doc: str | None) -> str | None:
    return None if doc is None else json.dumps(json.loads(doc), separators=(",", ":"), sort_keys=True,
                                               ensure_ascii=False)


@pytest.mark.parametrize("dictionary", ["true", "false"])
def test_kestrel_writes_json_with_the_annotation(run_kestrel, tmp_path, dictionary):
    path = tmp_path / "j.parquet"
    rows = ", ".join(f"({i}, {json_literal(d)})" for i, d in enumerate(DOCS))
    query(run_kestrel, f"COPY (SELECT id, j FROM (VALUES {rows}) t(id, j) ORDER BY id) TO '{path}' "
                       f"WITH (dictionary {dictionary})")
    column = pq.ParquetFile(path).schema.column(1)
    assert column.physical_type == "BYTE_ARRAY"
    assert column.logical_type.type == "JSON"
    values = pq.read_table(path).column("j").to_pylist()
    assert values == [canonical(d) for d in DOCS]
    # Read back by Kestrel: JSON again, equal documents equal.
    out = query(run_kestrel, f"SELECT typeof(j), count(*) FROM read_parquet('{path}') WHERE j IS NOT NULL GROUP BY 1, j "
                             "ORDER BY 2 DESC, 1 LIMIT 1")
    assert out.strip().splitlines()[-1] == "json,2"


def test_pyarrow_json_column_reads_as_json(run_kestrel, tmp_path):
    path = tmp_path / "p.parquet"
    docs = ['{ "z" : 1, "a" : [ 1 , 2 ] }', "[true, false]", None, '{"a": [1, 2], "z": 1}']
    if hasattr(pa, "json_"):
        array = pa.array(docs, pa.string()).cast(pa.json_())
    else:  # older pyarrow: the annotation comes from the schema's logical type only through json_
        pytest.skip("pyarrow has no json_ type")
    pq.write_table(pa.table({"id": pa.array(range(len(docs)), pa.int32()), "j": array}), path)
    assert pq.ParquetFile(path).schema.column(1).logical_type.type == "JSON"
    out = query(run_kestrel, f"SELECT id, typeof(j), j, json_extract(j, '$.a[1]') FROM read_parquet('{path}') ORDER BY id")
    lines = out.strip().splitlines()[1:]
    assert lines == ['0,json,"{""a"":[1,2],""z"":1}",2', "1,json,\"[true,false]\",", "2,json,,",
                     '3,json,"{""a"":[1,2],""z"":1}",2']
    out = query(run_kestrel, f"SELECT count(DISTINCT j) FROM read_parquet('{path}')")
    assert out.strip().splitlines()[-1] == "2"


def test_kcol_keeps_json(run_kestrel, tmp_path):
    """kcol stores JSON as it stores VARCHAR (offsets + bytes) and reads it back as JSON."""
    path = tmp_path / "j.kcol"
    rows = ", ".join(f"({i}, {json_literal(d)})" for i, d in enumerate(DOCS))
    query(run_kestrel, f"COPY (SELECT id, j FROM (VALUES {rows}) t(id, j) ORDER BY id) TO '{path}' (FORMAT kcol)")
    sql = "SELECT id, typeof(j), j FROM {} ORDER BY id"
    expected = query(run_kestrel, sql.format(f"(SELECT id, j FROM (VALUES {rows}) t(id, j))"))
    assert query(run_kestrel, sql.format(f"read_kcol('{path}')")) == expected
    assert "json" in expected
