"""End-to-end tests of the `kestrel` command (issue 2, item 5): -c, -f, stdin, output formats, devices, errors."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_select_csv(run_kestrel):
    result = run_kestrel("-c", "SELECT 1+2 AS x", "--format", "csv")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["x", "3"], result.describe()


def test_csv_is_the_default_when_stdout_is_not_a_terminal(run_kestrel):
    result = run_kestrel("-c", "SELECT 1+2 AS x, 'a' AS s")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["x,s", "3,a"], result.describe()


def test_syntax_error_has_line_and_column(run_kestrel):
    result = run_kestrel("-c", "SELEC 1")
    assert result.returncode != 0, result.describe()
    message = result.stderr + result.stdout
    assert "line 1" in message, result.describe()
    assert "column 1" in message, result.describe()


def test_syntax_error_position_points_at_the_token(run_kestrel):
    result = run_kestrel("-c", "SELECT 1 +* 2")
    assert result.returncode != 0, result.describe()
    assert re.search(r"line 1\D+column 1[01]\b", result.stderr + result.stdout), result.describe()


def test_file_with_several_statements(run_kestrel, tmp_path):
    script = tmp_path / "script.sql"
    script.write_text("SELECT 1 AS a;\n-- a comment\nSELECT 'x' AS b;\n\nSELECT 2+3 AS c\n")
    result = run_kestrel("-f", str(script), "--format", "csv")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["a", "1", "b", "x", "c", "5"], result.describe()


def test_statements_on_stdin(run_kestrel):
    result = run_kestrel("--format", "csv", stdin="SELECT 1 AS a;\nSELECT 'two' AS b;\n")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["a", "1", "b", "two"], result.describe()


def test_csv_quoting_and_null(run_kestrel):
    result = run_kestrel("-c", "SELECT 'a,b' AS s, NULL AS n", "--format", "csv")
    assert result.returncode == 0, result.describe()
    # RFC 4180: a header row, a field holding a comma is quoted, NULL is an empty field.
    assert result.stdout.splitlines() == ["s,n", '"a,b",'], result.describe()
    assert csv_rows(result.stdout) == [["s", "n"], ["a,b", ""]]


def test_csv_quotes_inside_values_are_doubled(run_kestrel):
    result = run_kestrel("-c", "SELECT 'say \"hi\"' AS q", "--format", "csv")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["q", '"say ""hi"""'], result.describe()
    assert csv_rows(result.stdout) == [["q"], ['say "hi"']]


def test_json_is_an_array_of_objects(run_kestrel):
    result = run_kestrel("-c", "SELECT 1+2 AS x, 'a' AS s, NULL AS n", "--format", "json")
    assert result.returncode == 0, result.describe()
    rows = json.loads(result.stdout)
    assert rows == [{"x": 3, "s": "a", "n": None}], result.describe()


def test_script_exit_status_is_non_zero_when_a_statement_fails(run_kestrel, tmp_path):
    script = tmp_path / "bad.sql"
    script.write_text("SELECT 1 AS a;\nSELEC 2;\n")
    result = run_kestrel("-f", str(script), "--format", "csv")
    assert result.returncode != 0, result.describe()
    # The statement before the failing one ran and printed its result.
    assert result.stdout.splitlines()[:2] == ["a", "1"], result.describe()
    assert "line" in result.stderr and "column" in result.stderr, result.describe()


def test_stdin_exit_status_is_non_zero_when_a_statement_fails(run_kestrel):
    result = run_kestrel("--format", "csv", stdin="SELECT 1 AS a;\nSELEC 2;\n")
    assert result.returncode != 0, result.describe()


def test_device_cpu(run_kestrel):
    result = run_kestrel("--device", "cpu", "-c", "SELECT 1+2 AS x", "--format", "csv")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["x", "3"], result.describe()
    # Asking for the CPU is not worth a note.
    assert "GPU" not in result.stderr, result.describe()


def test_unknown_device_is_refused(run_kestrel):
    result = run_kestrel("--device", "quantum", "-c", "SELECT 1")
    assert result.returncode != 0, result.describe()


def test_device_auto_without_gpu_says_so_once(run_kestrel, gpu_usable):
    if gpu_usable:
        pytest.skip("a GPU is usable here: --device auto runs on it")
    result = run_kestrel("--device", "auto", "--format", "csv", stdin="SELECT 1 AS a;\nSELECT 2 AS b;\n")
    assert result.returncode == 0, result.describe()
    assert result.stdout.splitlines() == ["a", "1", "b", "2"], result.describe()
    notes = [line for line in result.stderr.splitlines() if "cpu" in line.lower()]
    assert len(notes) == 1, result.describe()


def test_device_gpu_without_gpu_fails_cleanly(run_kestrel, gpu_usable):
    if gpu_usable:
        pytest.skip("a GPU is usable here")
    result = run_kestrel("--device", "gpu", "-c", "SELECT 1")
    assert result.returncode != 0, result.describe()
    assert "GPU" in result.stderr, result.describe()


def test_explain_analyze_reports_steps_and_pipeline_phases(run_kestrel):
    sql = ("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'a')) AS v(i, s); "
           "EXPLAIN ANALYZE SELECT s, count(*) FROM t WHERE i > 1 GROUP BY s")
    result = run_kestrel("--device", "cpu", "--format", "csv", "-c", sql)
    assert result.returncode == 0, result.describe()
    pipelines = re.findall(r"Pipeline (\d+)[^,]*, ([0-9.]+) ms \(prepare ([0-9.]+), (\d+) drivers? ([0-9.]+), "
                           r"finalize ([0-9.]+)\)", result.stdout)
    assert len(pipelines) >= 2, result.describe()
    for _, wall, prepare, drivers, driving, finalize in pipelines:
        assert int(drivers) >= 1, result.describe()
        # The phases are parts of the pipeline's time (printed rounded to microseconds).
        assert float(prepare) + float(driving) + float(finalize) <= float(wall) + 0.003, result.describe()
    # Every input row that passes the filter reaches the aggregation; both groups come out.
    assert re.search(r"HashAggregate\(single\) \(rows in\)\s+rows\s+2\b", result.stdout), result.describe()
    assert re.search(r"Total [0-9.]+ ms, 2 rows", result.stdout), result.describe()


def test_update_and_delete_report_their_counts(run_kestrel):
    sql = ("CREATE TABLE t (a INTEGER, b VARCHAR); INSERT INTO t VALUES (1, 'x'), (2, NULL), (3, 'z'); "
           "UPDATE t SET b = 'y' WHERE b IS NULL OR a = 3; DELETE FROM t WHERE a < 3; SELECT * FROM t")
    result = run_kestrel("--device", "cpu", "--format", "aligned", "-c", sql)
    assert result.returncode == 0, result.describe()
    lines = result.stdout.splitlines()
    assert "UPDATE 2" in lines and "DELETE 2" in lines, result.describe()


@pytest.mark.parametrize("file_name", ["events.parquet", "events.csv"])
def test_update_and_delete_refuse_file_backed_tables(run_kestrel, tmp_path, file_name):
    data = tmp_path / "data"
    data.mkdir()
    written = run_kestrel("--device", "cpu", "-c", f"COPY (SELECT 1 AS a) TO '{data / file_name}'")
    assert written.returncode == 0, written.describe()
    for sql in ["UPDATE events SET a = 2", "DELETE FROM events WHERE a = 1"]:
        result = run_kestrel("--device", "cpu", "--data", str(data), "-c", sql)
        assert result.returncode != 0, result.describe()
        assert "table 'events'" in result.stderr and "only in-memory tables" in result.stderr, result.describe()
    # The file is as it was.
    read = run_kestrel("--device", "cpu", "--data", str(data), "-c", "SELECT a FROM events")
    assert read.stdout.splitlines() == ["a", "1"], read.describe()
