"""End-to-end tests of `kestrel-sqllogictest` on small .test files: counting, reporting, exit status, modes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$")


def summary(result) -> tuple[int, int, int]:
    """The counts of the closing line, which must be the last line of stdout."""
    lines = result.stdout.splitlines()
    assert lines, result.describe()
    match = SUMMARY.match(lines[-1])
    assert match, f"last line is not the summary\n{result.describe()}"
    return tuple(int(g) for g in match.groups())


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# Passes whatever the engine can run: any error satisfies a bare `statement error`, and the other records are
# skipped by their conditions or after `halt`.
ENGINE_INDEPENDENT = """\
# name: engine_independent.test
# description: records whose outcome does not depend on what SQL the engine supports

statement error
SELEC 1

skipif postgresql
query I
SELECT 1
----
2

onlyif sqlite
statement ok
SELECT nonsense

halt

statement ok
SELECT nonsense
"""

PASSING = """\
# name: passing.test
# description: constant SELECTs

query I
SELECT 1+2
----
3

query IT rowsort
SELECT 2, 'b'
----
2\tb

query T
SELECT ''
----
(empty)

statement error
SELEC 1
----
Syntax Error
"""

FAILING = """\
# name: failing.test
# description: one wrong answer

query I
SELECT 1
----
2
"""


def test_engine_independent_file_passes(run_sqllogictest, tmp_path):
    path = write(tmp_path, "engine_independent.test", ENGINE_INDEPENDENT)
    result = run_sqllogictest("--mode", "cpu", str(path))
    assert summary(result) == (1, 0, 3), result.describe()
    assert result.returncode == 0, result.describe()


def test_passing_file(run_sqllogictest, tmp_path):
    path = write(tmp_path, "passing.test", PASSING)
    result = run_sqllogictest("--mode", "cpu", str(path))
    assert summary(result) == (4, 0, 0), result.describe()
    assert result.returncode == 0, result.describe()


def test_failing_file_reports_and_exits_non_zero(run_sqllogictest, tmp_path):
    path = write(tmp_path, "failing.test", FAILING)
    result = run_sqllogictest("--mode", "cpu", str(path))
    assert summary(result) == (0, 1, 0), result.describe()
    assert result.returncode != 0, result.describe()
    # The report names the record's file and line, and shows the SQL and the expectation.
    assert f"{path}:4" in result.stdout, result.describe()
    assert "SELECT 1" in result.stdout and "expected" in result.stdout, result.describe()


def test_failures_do_not_stop_the_run(run_sqllogictest, tmp_path):
    failing = write(tmp_path, "a_failing.test", FAILING)
    independent = write(tmp_path, "b_independent.test", ENGINE_INDEPENDENT)
    result = run_sqllogictest(str(failing), str(independent))
    assert summary(result) == (1, 1, 3), result.describe()
    assert result.returncode != 0


def test_stop_on_failure(run_sqllogictest, tmp_path):
    first = write(tmp_path, "a.test", FAILING)
    second = write(tmp_path, "b.test", FAILING)
    result = run_sqllogictest("--stop-on-failure", str(first), str(second))
    assert summary(result) == (0, 1, 0), result.describe()
    assert result.returncode != 0


def test_folders_are_searched_recursively(run_sqllogictest, tmp_path):
    write(tmp_path, "corpus/one.test", ENGINE_INDEPENDENT)
    write(tmp_path, "corpus/deeper/two.test", ENGINE_INDEPENDENT)
    write(tmp_path, "corpus/deeper/three.test_slow", ENGINE_INDEPENDENT)
    write(tmp_path, "corpus/notes.txt", FAILING)
    result = run_sqllogictest(str(tmp_path / "corpus"))
    assert summary(result) == (2, 0, 6), result.describe()
    slow = run_sqllogictest("--slow", str(tmp_path / "corpus"))
    assert summary(slow) == (3, 0, 9), slow.describe()


def test_verbose_prints_each_record(run_sqllogictest, tmp_path):
    path = write(tmp_path, "engine_independent.test", ENGINE_INDEPENDENT)
    result = run_sqllogictest("--verbose", str(path))
    assert f"{path}:4: statement error" in result.stdout, result.describe()


def test_malformed_record_is_a_failure(run_sqllogictest, tmp_path):
    path = write(tmp_path, "bad.test", "query X\nSELECT 1\n----\n1\n")
    result = run_sqllogictest(str(path))
    assert summary(result) == (0, 1, 0), result.describe()
    assert f"{path}:1" in result.stdout


def test_missing_file_is_a_failure(run_sqllogictest, tmp_path):
    result = run_sqllogictest(str(tmp_path / "nope.test"))
    assert summary(result) == (0, 1, 0), result.describe()
    assert result.returncode != 0


def test_usage_errors(run_sqllogictest, tmp_path):
    assert run_sqllogictest().returncode == 2
    path = write(tmp_path, "engine_independent.test", ENGINE_INDEPENDENT)
    assert run_sqllogictest("--mode", "tpu", str(path)).returncode == 2


@pytest.mark.parametrize("mode", ["gpu", "gpu-fallback"])
def test_gpu_modes_without_gpu_skip_visibly(run_sqllogictest, gpu_usable, tmp_path, mode):
    if gpu_usable:
        pytest.skip("a GPU is usable here: GPU modes run")
    path = write(tmp_path, "failing.test", FAILING)
    other = write(tmp_path, "engine_independent.test", ENGINE_INDEPENDENT)
    result = run_sqllogictest("--mode", mode, str(path), str(other))
    assert summary(result) == (0, 0, 5), result.describe()
    assert result.returncode == 0, result.describe()
    notes = [line for line in result.stdout.splitlines() if "no usable GPU" in line]
    assert len(notes) == 1, result.describe()
    assert notes[0].startswith(f"{mode} mode: no usable GPU") and notes[0].endswith("5 records skipped")


def test_corpus_file_select_constants_parses(run_sqllogictest, repo_root):
    # Whatever SQL the engine supports today, the corpus file must parse: a malformed record would be a failure.
    path = repo_root / "test/sql/basic/select_constants.test"
    result = run_sqllogictest("--mode", "cpu", "--verbose", str(path))
    assert "cannot parse" not in result.stdout, result.describe()
