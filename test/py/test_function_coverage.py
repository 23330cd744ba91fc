"""scripts/function-coverage.py (issue 15's coverage table) against docs/presto-function-list.txt and the registry."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO_ROOT, RunResult, run_binary

SCRIPT = REPO_ROOT / "scripts" / "function-coverage.py"
REFERENCE = REPO_ROOT / "docs" / "presto-function-list.txt"
AREAS = ["math", "string", "regexp", "url", "json", "binary", "datetime", "conditional", "array", "map", "aggregate",
         "window"]


def reference_lines() -> list[tuple[str, str]]:
    pairs = []
    for line in REFERENCE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            area, name = line.split("\t")
            pairs.append((area, name))
    return pairs


def run_script(kestrel_bin: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), "--kestrel", str(kestrel_bin), *args], capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def registry_names(kestrel_bin: Path) -> set[str]:
    result: RunResult = run_binary(kestrel_bin, ["--list-functions-markdown"])
    assert result.returncode == 0, result.describe()
    names = set()
    for line in result.stdout.splitlines():
        if line.startswith("### "):
            names.update(re.findall(r"`([^`]+)`", line))
    assert len(names) > 100, "the registry's markdown lost its `### ` headings"
    return names


@pytest.fixture(scope="module")
def figures(kestrel_bin: Path) -> dict:
    return json.loads(run_script(kestrel_bin, "--json"))


def test_reference_list_is_well_formed():
    pairs = reference_lines()
    assert {a for a, _ in pairs} == set(AREAS), "every area has names, and no other area appears"
    for area in AREAS:
        counts = Counter(name for a, name in pairs if a == area)
        duplicates = [n for n, c in counts.items() if c > 1]
        assert not duplicates, f"{area} lists {duplicates} more than once"
    across = [n for n, c in Counter(name for _, name in pairs).items() if c > 1]
    assert not across, f"names listed in two areas (the header says each stays in its first area): {across}"
    for _, name in pairs:
        assert re.fullmatch(r"[a-z_][a-z0-9_]*", name), name


def test_table_totals_equal_the_list(kestrel_bin: Path):
    pairs = reference_lines()
    table = run_script(kestrel_bin)
    rows = {}
    for line in table.splitlines():
        m = re.fullmatch(r"\| (\*\*all\*\*|\w+) \| (\d+) \| (\d+) \((\d+)%\) \| (\d+) \((\d+)%\) \|", line)
        if m:
            rows[m.group(1)] = tuple(int(g) for g in m.groups()[1:])
    assert set(rows) == set(AREAS) | {"**all**"}, table
    for area in AREAS:
        total, cpu, cpu_pct, gpu, gpu_pct = rows[area]
        assert total == sum(1 for a, _ in pairs if a == area), area
        assert round(100 * cpu / total) == cpu_pct and round(100 * gpu / total) == gpu_pct, area
    assert rows["**all**"][0] == len(pairs)
    assert rows["**all**"][1] == sum(rows[a][1] for a in AREAS)
    assert rows["**all**"][3] == sum(rows[a][3] for a in AREAS)


def test_counted_functions_exist_in_the_registry(figures: dict, registry_names: set[str]):
    pairs = reference_lines()
    for area in AREAS:
        a = figures["areas"][area]
        names = [n for ar, n in pairs if ar == area]
        assert a["total"] == len(names)
        for name in a["cpu"]:
            assert name in registry_names, f"{name} counted on the CPU but not in --list-functions-markdown"
        # Nothing in the registry is reported missing, and the two lists split the area.
        assert sorted(a["cpu"] + a["missing_cpu"]) == sorted(names), area
        assert not set(a["missing_cpu"]) & registry_names, area


def test_gpu_never_exceeds_cpu(figures: dict):
    for area in AREAS:
        a = figures["areas"][area]
        assert set(a["gpu"]) <= set(a["cpu"]), f"{area}: on the GPU but not on the CPU: {set(a['gpu']) - set(a['cpu'])}"
        assert len(a["gpu"]) <= len(a["cpu"])
        assert sorted(a["gpu"] + a["missing_gpu"]) == sorted(a["cpu"] + a["missing_cpu"]), area


def test_gpu_column_follows_the_source(figures: dict):
    """Spot checks of how the GPU column is decided (see the script's docstring): functions the GPU evaluator
    accepts, and functions documented as CPU only."""
    gpu = {n for a in figures["areas"].values() for n in a["gpu"]}
    for name in ("abs", "length", "upper", "substr", "coalesce", "count", "avg", "rank", "ln", "power", "date_trunc", "hour",
                 "reverse", "levenshtein_distance"):
        assert name in gpu, name
    for name in ("regexp_like", "json_extract", "md5", "max_by", "geometric_mean", "format_datetime",
                 "jarowinkler_similarity"):
        assert name not in gpu, name
    assert figures["gpu_unknown"] == [], "a registry rewrite the script does not know: add it to REWRITES"
