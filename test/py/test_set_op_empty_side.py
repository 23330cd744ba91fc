"""An INTERSECT or EXCEPT whose left side finished empty reads none of its right side's input (EXPLAIN ANALYZE shows
the right pipeline's source produced no rows), and a UNION still reads both."""

from __future__ import annotations

import re


def source_rows(text: str, pipeline: int) -> int:
    """Rows the first step (the source) of pipeline `pipeline` produced, from EXPLAIN ANALYZE text."""
    block = text.split(f'"Pipeline {pipeline}')[1].split('"Pipeline')[0]
    first = [line for line in block.splitlines()[1:] if line.strip()][0]
    return int(re.search(r"rows\s+(\d+)", first).group(1))


def test_empty_left_side_skips_the_right_input(run_kestrel):
    right = "SELECT y FROM (VALUES (1), (2), (3)) u(y)"
    for op, skipped in [("INTERSECT", True), ("EXCEPT", True), ("INTERSECT ALL", True), ("UNION", False)]:
        r = run_kestrel("--device", "cpu", "-c",
                        f"EXPLAIN ANALYZE SELECT x FROM (VALUES (1), (2)) t(x) WHERE x > 5 {op} {right}")
        assert r.returncode == 0, r.describe()
        assert source_rows(r.stdout, 0) == 2, r.stdout
        assert source_rows(r.stdout, 1) == (0 if skipped else 3), (op, r.stdout)
