"""Kestrel's array functions against DuckDB's equivalents on random arrays (NULL elements, empty and nested arrays),
where the two define the same result: array_sort_desc / list_reverse_sort, remove_nulls / list_filter(IS NOT NULL),
zip / list_zip, array_sum / coalesce(list_sum, 0) (DuckDB's sum of no non-NULL element is NULL, Presto's 0),
array_average / list_avg, flatten / flatten, array_cum_sum / a running list_sum over list_slice (without NULLs),
map_concat / map_concat. Test/sql/functions/array.test holds Presto's documented examples and the edge cases."""

import json
import random

import pytest

duckdb = pytest.importorskip("duckdb")


def _array(rng: random.Random, n: int | None = None) -> str:
    n = rng.randint(0, 6) if n is None else n
    items = [rng.choice(["NULL", str(rng.randint(-5, 9)), str(rng.randint(-5, 9))]) for _ in range(n)]
    return "[" + ", ".join(items) + "]"


def _nested(rng: random.Random) -> str:
    return "[" + ", ".join(rng.choice(["NULL", _array(rng), _array(rng)]) for _ in range(rng.randint(1, 4))) + "]"


def _cases(rng: random.Random) -> list[tuple[str, str]]:
    """(Kestrel expression, DuckDB expression) pairs of equal value; `ARRAY[...]` on Kestrel's side, `[...]` on DuckDB's."""
    cases = []
    for _ in range(30):
        a, b = _array(rng), _array(rng)
        ka, kb = f"CAST(ARRAY{a} AS ARRAY(INTEGER))", f"CAST(ARRAY{b} AS ARRAY(INTEGER))"
        da, db = f"CAST({a} AS INTEGER[])", f"CAST({b} AS INTEGER[])"
        cases.append((f"array_sort_desc({ka})", f"list_reverse_sort({da})"))
        cases.append((f"remove_nulls({ka})", f"list_filter({da}, lambda x: x IS NOT NULL)"))
        cases.append((f"zip({ka}, {kb})", f"list_zip({da}, {db})"))
        n = _array(rng, rng.randint(1, 6))
        cases.append((f"array_sum(CAST(ARRAY{n} AS ARRAY(INTEGER)))", f"coalesce(list_sum(CAST({n} AS INTEGER[])), 0)"))
        cases.append((f"array_average(CAST(ARRAY{n} AS ARRAY(INTEGER)))", f"list_avg(CAST({n} AS INTEGER[]))"))
        x = _nested(rng)
        cases.append((f"flatten(CAST({x.replace('[', 'ARRAY[')} AS ARRAY(ARRAY(INTEGER))))",
                      f"flatten(CAST({x} AS INTEGER[][]))"))
        plain = "[" + ", ".join(str(rng.randint(-9, 9)) for _ in range(rng.randint(0, 5))) + "]"
        cases.append((f"array_cum_sum(CAST(ARRAY{plain} AS ARRAY(BIGINT)))",
                      f"list_transform(generate_series(1, len(CAST({plain} AS BIGINT[]))), "
                      f"lambda i: list_sum(list_slice(CAST({plain} AS BIGINT[]), 1, i)))"))
        keys1, keys2 = rng.sample(range(6), rng.randint(0, 4)), rng.sample(range(6), rng.randint(0, 4))
        m1 = (f"map(ARRAY{keys1}, ARRAY{[k * 10 for k in keys1]})", f"map({keys1}, {[k * 10 for k in keys1]})")
        m2 = (f"map(ARRAY{keys2}, ARRAY{[k * 100 for k in keys2]})", f"map({keys2}, {[k * 100 for k in keys2]})")
        if keys1 and keys2:  # an empty ARRAY[] is ARRAY(INTEGER) in Kestrel, so map(ARRAY[], ...) needs a cast
            cases.append((f"map_concat({m1[0]}, {m2[0]})", f"map_concat(CAST({m1[1]} AS MAP(INTEGER, INTEGER)), "
                          f"CAST({m2[1]} AS MAP(INTEGER, INTEGER)))"))
    return cases


def _text(value) -> str:
    """A DuckDB value as Kestrel prints it: [1, NULL], {k=v}, rows as {field0=.., field1=..}."""
    if value is None:
        return "NULL"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "{" + ", ".join(f"field{i}={_text(v)}" for i, v in enumerate(value)) + "}"
    if isinstance(value, dict):
        if set(value) == {"key", "value"}:  # DuckDB's map as a list of entries
            return f"{_text(value['key'])}={_text(value['value'])}"
        return "{" + ", ".join(f"{_text(k)}={_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def test_array_functions_agree_with_duckdb(run_kestrel):
    rng = random.Random(15)
    cases = _cases(rng)
    con = duckdb.connect()
    query = "SELECT " + ", ".join(f"{k} AS c{i}" for i, (k, _) in enumerate(cases))
    result = run_kestrel("--device", "cpu", "--format", "json", "-c", query)
    assert result.returncode == 0, result.describe()
    row = json.loads(result.stdout)[0]
    differences = []
    for i, (kestrel_sql, duckdb_sql) in enumerate(cases):
        got = row[f"c{i}"]
        got = got if isinstance(got, str) else _text(got)
        want = _text(con.sql("SELECT " + duckdb_sql).fetchall()[0][0])
        if got != want:
            differences.append(f"{kestrel_sql}: Kestrel {got}, DuckDB {want}")
    assert not differences, "\n".join(differences)
    assert len(cases) > 200
