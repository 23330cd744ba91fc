"""TPC-H helpers shared by the tests and the benchmark: data generation with tpchgen-cli (cached), the query texts,
and the comparison of a result with the official answers (rules of ../shared/tpch/README.md)."""

import csv
import datetime
import decimal
import io
import math
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("KESTREL_SHARED_DIR", REPO.parent / "shared"))
TPCH_DIR = SHARED / "tpch"
TABLES = ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"]


def tpchgen_binary():
    candidate = pathlib.Path(sys.executable).parent / "tpchgen-cli"
    return str(candidate) if candidate.exists() else "tpchgen-cli"


def generate(scale_factor, root=None):
    """Parquet files of every TPC-H table at `scale_factor` in a cached folder; returns the folder."""
    root = pathlib.Path(root or os.environ.get("KESTREL_DATA_CACHE", REPO / ".cache" / "tpch"))
    folder = root / f"sf{scale_factor}"
    marker = folder / ".complete"
    if marker.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([tpchgen_binary(), "parquet", "-s", str(scale_factor), "--output-dir", str(folder)], check=True,
                   stdout=subprocess.DEVNULL)
    marker.touch()
    return folder


# Q11's substitution parameter FRACTION is 0.0001 / SF (TPC-H 2.4.11.3); the query files carry SF1's value.
Q11_FRACTION_SF1 = "0.0001000000"


def query_text(number, sf=1):
    """The text of query `number`, with Q11's FRACTION set for scale factor `sf`."""
    text = (TPCH_DIR / "queries" / f"q{number:02d}.sql").read_text()
    if number == 11 and sf != 1:
        if Q11_FRACTION_SF1 not in text:
            raise ValueError("q11.sql does not carry the SF1 FRACTION " + Q11_FRACTION_SF1)
        text = text.replace(Q11_FRACTION_SF1, f"{0.0001 / sf:.12f}")
    return text


def column_kinds(number):
    lines = (TPCH_DIR / "answers-sf1" / "colprecision.txt").read_text().splitlines()
    return lines[number - 1].split()


def read_answer(number):
    """The official SF1 answer: header and rows of trimmed fields."""
    lines = (TPCH_DIR / "answers-sf1" / f"q{number}.out").read_text().splitlines()
    rows = [[f.strip() for f in line.split("|")] for line in lines if line.strip()]
    return rows[0], rows[1:]


def duckdb_text(v):
    """A DuckDB Python value as Kestrel's CSV prints it (NULL as the empty field), for compare_rows."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (decimal.Decimal, float, int)):
        return str(v)
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat(sep=" ") if isinstance(v, datetime.datetime) else v.isoformat()
    return str(v)


def parse_csv(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def _close(kind, expected, actual):
    # The answer files are padded and compared trimmed (../shared/tpch/README.md); trim both sides alike.
    expected, actual = expected.strip(), actual.strip()
    if kind in ("str",):
        return expected == actual
    if kind in ("int", "cnt"):
        try:
            return int(float(expected)) == int(float(actual))
        except ValueError:
            return expected == actual
    try:
        e, a = float(expected), float(actual)
    except ValueError:
        return False
    if kind == "sum":
        return abs(e - a) <= 100
    if kind in ("avg", "rat"):
        return abs(round(a, 2) - e) <= max(0.01, abs(e) * 0.01)
    return abs(round(a, 2) - e) <= 0.01 + 1e-9


def compare_with_answer(number, actual_rows):
    """Returns a list of differences (empty when the result matches the official answer)."""
    _, expected = read_answer(number)
    kinds = column_kinds(number)
    problems = []
    if len(expected) != len(actual_rows):
        problems.append(f"q{number}: {len(actual_rows)} rows, expected {len(expected)}")
        return problems
    for r, (e_row, a_row) in enumerate(zip(expected, actual_rows)):
        if len(e_row) != len(a_row):
            problems.append(f"q{number} row {r}: {len(a_row)} columns, expected {len(e_row)}")
            continue
        for c, (e, a) in enumerate(zip(e_row, a_row)):
            if not _close(kinds[c] if c < len(kinds) else "str", e, a):
                problems.append(f"q{number} row {r} column {c}: {a!r}, expected {e!r}")
    return problems


def compare_rows(expected_rows, actual_rows, ordered, rel=1e-9):
    """Compares two results value by value (numbers within a relative tolerance); rows sorted unless ordered."""
    def norm(v):
        if v is None or v == "":
            return ""
        try:
            x = float(v)
        except (TypeError, ValueError):
            return str(v)
        # NaN compares as text: a DOUBLE NaN in any spelling as "nan", a word such as the name "Nan" as itself
        # (float() accepts it, and NaN never equals NaN nor sorts).
        return x if x == x else ("nan" if str(v).strip().lower() == "nan" else str(v))

    e = [[norm(v) for v in row] for row in expected_rows]
    a = [[norm(v) for v in row] for row in actual_rows]
    if not ordered:
        key = lambda row: [(0, x) if isinstance(x, float) else (1, x) for x in row]
        e.sort(key=key)
        a.sort(key=key)
    problems = []
    if len(e) != len(a):
        return [f"{len(a)} rows, expected {len(e)}"]
    for r, (er, ar) in enumerate(zip(e, a)):
        for c, (x, y) in enumerate(zip(er, ar)):
            same = x == y
            if isinstance(x, float) and isinstance(y, float):
                same = math.isclose(x, y, rel_tol=rel, abs_tol=0.005)
            if not same:
                problems.append(f"row {r} column {c}: {y!r}, expected {x!r}")
    return problems
