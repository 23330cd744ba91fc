"""Expressions over dictionary-encoded string columns (Parquet dictionary chunks stay dictionaries in Kestrel):
results computed on the distinct values and spread back to the rows must equal the same query over plain strings.
A regression: `substr(col, 1, 5) IN (...)` read a column that the IN list had already released (TPC-DS q08, q15, q45
stopped with "check failed: encoded.is_dictionary()")."""

import csv
import io

import pyarrow as pa
import pyarrow.parquet as pq


def _rows(result):
    assert result.returncode == 0, result.describe()
    return list(csv.reader(io.StringIO(result.stdout)))[1:]


def test_in_list_over_a_function_of_a_dictionary_column(tmp_path, run_kestrel):
    zips = [f"{10000 + (i * 7919) % 900:05d}{i % 10}" for i in range(5000)]
    table = pa.table({"zip": zips, "n": list(range(5000))})
    dictionary = tmp_path / "dict.parquet"
    plain = tmp_path / "plain.parquet"
    pq.write_table(table, dictionary, use_dictionary=True)
    pq.write_table(table, plain, use_dictionary=False)
    wanted = ["10007", "10014", "10900", "10333"]
    expected = sum(1 for z in zips if z[:5] in wanted)
    assert expected > 0
    in_list = ", ".join(f"'{w}'" for w in wanted)
    for path in (dictionary, plain):
        for query in (f"SELECT count(*), sum(n) FROM read_parquet('{path}') WHERE substr(zip, 1, 5) IN ({in_list})",
                      f"SELECT count(*), sum(n) FROM read_parquet('{path}') "
                      f"WHERE CASE WHEN substr(zip, 1, 5) IN ({in_list}) THEN true ELSE false END"):
            rows = _rows(run_kestrel("--device", "cpu", "--format", "csv", "-c", query))
            assert int(rows[0][0]) == expected, (path.name, query)
            assert int(rows[0][1]) == sum(i for i, z in enumerate(zips) if z[:5] in wanted)
