#!/usr/bin/env python3
"""Issue 15's function coverage: how many of the functions in Presto's reference Kestrel has, on the CPU and on the GPU.

Usage:
  scripts/function-coverage.py [--kestrel build/kestrel] [--list docs/presto-function-list.txt] [--json]

Prints a markdown table (area, Presto total, on the CPU, on the GPU), then per area the names missing on the CPU and
those missing on the GPU, then how the GPU column was decided for the functions it counts. `--json` prints the same
figures as JSON instead (the test reads them).

Inputs:
- Presto's reference: docs/presto-function-list.txt, `area<TAB>name` lines (its header says where the names come from
  and which areas may be incomplete).
- On the CPU: a name counts when it is a heading of `kestrel --list-functions-markdown` (the function registry, the
  same text as docs/functions.md; `### \`name\`, \`alias\`` headings). Every registered function runs on the CPU.
- On the GPU: a name counts when a query using it (with column arguments of its main types) can run with
  `gpu_fallback = false`, read from the source, not from a run (the binary here has no GPU):
  1. Scalar functions the registry binds to a ScalarFunction (`scalar("name", F::kX` / `alias("name", "base",
     F::kX` in src/planner/functions/registry_*.cpp): on the GPU when `function_supported` in
     src/exec/expr/evaluate_gpu_support.cpp (what placement asks through can_evaluate_gpu before it puts a Filter or
     Project on the GPU) has a case for kX whose body is not `return false;`. The file is parsed, so this follows
     the code. Some are accepted only for some argument shapes (GPU_LIMITS below, printed with the table).
  2. Functions the binder rewrites into other expressions (`rewrite(...)` entries; src/planner/binder/bind_presto.cpp):
     REWRITES below says what each becomes and whether the GPU evaluator takes that (a DOUBLE/DATE/VARCHAR constant,
     a CASE, extract of a DATE or TIMESTAMP field: yes; kTry, a TIMESTAMP WITH TIME ZONE constant: no). A rewrite
     missing from the table counts as CPU only and is printed as unknown.
  3. Aggregates: the GPU aggregation (check_aggregate_gpu_supported in
     src/exec/ops/hash_aggregate/hash_aggregate_gpu.cpp) refuses the "ordered" aggregates (is_ordered_aggregate:
     max_by, min_by, string_agg/listagg, percentile_cont/disc and median / approx_percentile bound to them, checksum,
     skewness, kurtosis, entropy, bitwise_*_agg); the Presto aggregates the binder rewrites (presto_aggregates.cpp)
     are on the GPU when their parts are: count_if (count of a CASE), bool_and/every/bool_or (min/max of BOOLEAN),
     approx_distinct (count DISTINCT), corr/covar_*/regr_* (sums of products, arithmetic and sqrt);
     geometric_mean is not (avg of ln(x), then exp: ln and exp are CPU only). AGGREGATES_ON_GPU below.
  4. Window functions: WindowSinkGpu (src/exec/ops/window/window_gpu.cpp) takes every ranking and value function
     the registry has but nth_value (WINDOWS_CPU_ONLY), and aggregates as the GPU aggregation does.
  README.md and docs/functions.md agree with 1, 3 and 4 (README: "GPU expressions cover ..."; the regular
  expression, JSON and VARBINARY sections of docs/functions.md say "CPU only"). For 2 the README's issue-15 paragraph
  calls year, quarter, month, day, pi, e, if, typeof, ... "CPU only": their own kernels are, but the binder replaces
  them by constants, CASE or extract before placement, so such a query runs on the GPU. They are printed apart so a
  reader can discount them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AREAS = ["math", "string", "regexp", "url", "json", "binary", "datetime", "conditional", "array", "map", "aggregate",
         "window"]

# Binder rewrites (registry `rewrite` entries) and whether what they become runs on the GPU, with why.
REWRITES: dict[str, tuple[bool, str]] = {
    "pi": (True, "a DOUBLE constant"),
    "e": (True, "a DOUBLE constant"),
    "nan": (True, "a DOUBLE constant"),
    "infinity": (True, "a DOUBLE constant"),
    "degrees": (True, "CAST(x AS DOUBLE) * constant"),
    "radians": (True, "CAST(x AS DOUBLE) * constant"),
    "log": (True, "ln(CAST(x AS DOUBLE)) / ln(CAST(b AS DOUBLE))"),
    "current_date": (True, "a DATE constant"),
    "localtimestamp": (True, "a TIMESTAMP constant"),
    "current_timestamp": (False, "a TIMESTAMP WITH TIME ZONE constant (not a GPU column type)"),
    "now": (False, "a TIMESTAMP WITH TIME ZONE constant (not a GPU column type)"),
    "current_timezone": (True, "a VARCHAR constant"),
    "typeof": (True, "a VARCHAR constant"),
    "if": (True, "CASE WHEN c THEN a ELSE b END"),
    "try": (False, "ScalarFunction::kTry (not in the GPU evaluator)"),
    "try_cast": (False, "try(CAST(...)): kTry"),
    "year": (True, "extract('year', x) of a DATE or TIMESTAMP"),
    "quarter": (True, "extract('quarter', x)"),
    "month": (True, "extract('month', x)"),
    "day": (True, "extract('day', x)"),
    "day_of_month": (True, "extract('day', x)"),
    "day_of_week": (True, "extract('isodow', x) of a DATE or TIMESTAMP"),
    "dow": (True, "extract('isodow', x) of a DATE or TIMESTAMP"),
    "day_of_year": (True, "extract('doy', x) of a DATE or TIMESTAMP"),
    "doy": (True, "extract('doy', x) of a DATE or TIMESTAMP"),
    "week": (True, "extract('week', x) of a DATE or TIMESTAMP"),
    "week_of_year": (True, "extract('week', x) of a DATE or TIMESTAMP"),
    "hour": (True, "extract('hour', x) of a DATE or TIMESTAMP"),
    "minute": (True, "extract('minute', x) of a DATE or TIMESTAMP"),
    "second": (True, "extract('second', x) of a DATE or TIMESTAMP"),
    "millisecond": (True, "extract('millisecond', x) of a DATE or TIMESTAMP"),
    "grouping": (False, "GROUPING(): not counted"),
    "date": (False, "CAST(x AS DATE): not counted"),
    "current_time": (True, "a VARCHAR constant"),
    "localtime": (True, "a VARCHAR constant"),
}

# Window functions check_window_gpu_supported refuses outright.
WINDOWS_CPU_ONLY = {"nth_value"}

AGGREGATES_ON_GPU = {
    "count", "sum", "avg", "min", "max", "any_value", "arbitrary", "stddev", "stddev_samp", "stddev_pop", "variance",
    "var_samp", "var_pop", "count_if", "bool_and", "every", "bool_or", "approx_distinct", "corr", "covar_pop",
    "covar_samp", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx",
    "regr_sxy", "regr_syy",
}

# What evaluate_gpu_support.cpp accepts of a function counted on the GPU, where that is not every argument shape.
GPU_LIMITS = {
    "extract": "DATE and TIMESTAMP (not TIMESTAMP WITH TIME ZONE, not INTERVAL)",
    "date_trunc": "DATE and TIMESTAMP (not TIMESTAMP WITH TIME ZONE)",
    "date_add": "DATE and TIMESTAMP (not TIMESTAMP WITH TIME ZONE)",
    "date_diff": "DATE and TIMESTAMP (not TIMESTAMP WITH TIME ZONE)",
    "last_day_of_month": "DATE and TIMESTAMP (not TIMESTAMP WITH TIME ZONE)",
    "year_of_week": "DATE and TIMESTAMP", "yow": "DATE and TIMESTAMP",
    "to_unixtime": "TIMESTAMP (not TIMESTAMP WITH TIME ZONE)",
    "from_unixtime": "the one-argument form (TIMESTAMP) only",
    "reverse": "VARCHAR only (not VARBINARY)", "lpad": "VARCHAR only (not VARBINARY)",
    "rpad": "VARCHAR only (not VARBINARY)",
    "substr": "constant bounds only",
    "substring": "constant bounds only",
    "replace": "the three-argument form only",
    "greatest": "2 to 8 arguments, not REAL, DOUBLE or BOOLEAN",
    "least": "2 to 8 arguments, not REAL, DOUBLE or BOOLEAN",
    "concat": "VARCHAR arguments only",
    "length": "VARCHAR only (not VARBINARY)",
    "trim": "ASCII trim sets", "ltrim": "ASCII trim sets", "rtrim": "ASCII trim sets",
    "round": "INTEGER digits", "mod": "operands of the result type",
}


def read_reference(path: Path) -> dict[str, list[str]]:
    """Presto's names per area, in file order; raises ValueError on a malformed line or an unknown area."""
    ref: dict[str, list[str]] = {a: [] for a in AREAS}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or parts[0] not in ref or not re.fullmatch(r"[a-z_][a-z0-9_]*", parts[1]):
            raise ValueError(f"{path}:{number}: expected `area<TAB>name` with a known area: {line!r}")
        ref[parts[0]].append(parts[1])
    return ref


def kestrel_functions(kestrel: Path) -> set[str]:
    """Every name (aliases included) of a `### ` heading in `kestrel --list-functions-markdown`."""
    out = subprocess.run([str(kestrel), "--list-functions-markdown"], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    return parse_markdown_names(out)


def parse_markdown_names(markdown: str) -> set[str]:
    names: set[str] = set()
    for line in markdown.splitlines():
        if line.startswith("### "):
            names.update(re.findall(r"`([^`]+)`", line))
    return names


def _registry_sources() -> str:
    return "\n".join(p.read_text() for p in sorted((REPO / "src/planner/functions").glob("registry_*.cpp")))


def registry_entries() -> dict[str, tuple[str, str | None]]:
    """name -> (kind, ScalarFunction enumerator or the aliased name) from the registry sources."""
    entries: dict[str, tuple[str, str | None]] = {}
    pattern = re.compile(r'\b(scalar|alias|rewrite|rewrite_alias|aggregate|aggregate_alias|window|op)\(\s*"([^"]+)"'
                         r'(?:\s*,\s*"([^"]+)")?(?:\s*,\s*F::(k\w+))?')
    for kind, name, base, enum in pattern.findall(_registry_sources()):
        entries.setdefault(name, (kind, enum or base or None))
    return entries


def gpu_scalar_enums() -> set[str]:
    """ScalarFunction enumerators whose case in function_supported does not start with `return false;`."""
    text = (REPO / "src/exec/expr/evaluate_gpu_support.cpp").read_text()
    start = text.index("bool function_supported(const Expr& e) {")
    end = text.index("\nbool case_supported", start)
    body = text[start:end]
    body = body[:body.index("default:")] if "default:" in body else body
    pieces = re.split(r"case ScalarFunction::(k\w+):", body)
    supported: set[str] = set()
    pending: list[str] = []
    for i in range(1, len(pieces), 2):
        pending.append(pieces[i])
        after = pieces[i + 1].strip()
        if not after:
            continue  # falls through to the next label
        if not after.startswith("return false;"):
            supported.update(pending)
        pending = []
    # function_supported hands launch_double_math's functions to double_math_supported before its switch: those
    # named by is_double_math (math_double_gpu.cu: the cases of unary() and classifies(), and the ones it names).
    if "gpu_expr::is_double_math(e.function)" in text:
        cu = (REPO / "src/exec/expr/math_double_gpu.cu").read_text()
        for function in ("bool unary(", "bool classifies(", "bool is_double_math("):
            at = cu.index(function)
            supported.update(re.findall(r"ScalarFunction::(k\w+)", cu[at:cu.index("\n}\n", at)]))
    return supported


def gpu_status(name: str, entries: dict[str, tuple[str, str | None]], gpu_enums: set[str]) -> tuple[bool | None, str]:
    """(on the GPU?, how decided); None when the source does not tell."""
    if name not in entries:
        return None, "not in the registry sources"
    kind, target = entries[name]
    if kind in ("rewrite_alias", "aggregate_alias") and target in entries:
        return gpu_status(target, entries, gpu_enums)
    if kind in ("scalar", "alias", "op"):
        ok = target in gpu_enums
        return ok, f"ScalarFunction::{target} {'accepted' if ok else 'refused'} by function_supported"
    if kind == "rewrite":
        if name in REWRITES:
            ok, how = REWRITES[name]
            return ok, f"binder rewrite: {how}"
        return None, "binder rewrite not in REWRITES"
    if kind == "aggregate":
        return name in AGGREGATES_ON_GPU, "aggregate (AGGREGATES_ON_GPU)"
    if kind == "window":
        if name in WINDOWS_CPU_ONLY:
            return False, "window function WindowSinkGpu refuses (check_window_gpu_supported)"
        return True, "window function (WindowSinkGpu)"
    return None, f"unknown registry kind {kind}"


def coverage(reference: dict[str, list[str]], cpu_names: set[str]) -> dict:
    entries = registry_entries()
    gpu_enums = gpu_scalar_enums()
    result: dict = {"areas": {}, "gpu_by_rewrite": [], "gpu_limits": {}, "gpu_unknown": []}
    for area in AREAS:
        names = reference[area]
        cpu = [n for n in names if n in cpu_names]
        gpu = []
        for n in cpu:
            ok, how = gpu_status(n, entries, gpu_enums)
            if ok is None:
                result["gpu_unknown"].append(f"{n} ({how})")
            elif ok:
                gpu.append(n)
                if how.startswith("binder rewrite"):
                    result["gpu_by_rewrite"].append(n)
                if n in GPU_LIMITS:
                    result["gpu_limits"][n] = GPU_LIMITS[n]
        result["areas"][area] = {
            "total": len(names), "cpu": cpu, "gpu": gpu,
            "missing_cpu": [n for n in names if n not in cpu_names],
            "missing_gpu": [n for n in names if n not in gpu],
        }
    return result


def pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "-"


def markdown(result: dict) -> str:
    lines = ["| area | Presto | on the CPU | on the GPU |", "| --- | ---: | ---: | ---: |"]
    total = cpu = gpu = 0
    for area in AREAS:
        a = result["areas"][area]
        t, c, g = a["total"], len(a["cpu"]), len(a["gpu"])
        total, cpu, gpu = total + t, cpu + c, gpu + g
        lines.append(f"| {area} | {t} | {c} ({pct(c, t)}) | {g} ({pct(g, t)}) |")
    lines.append(f"| **all** | {total} | {cpu} ({pct(cpu, total)}) | {gpu} ({pct(gpu, total)}) |")
    lines += ["", "## Missing on the CPU", ""]
    for area in AREAS:
        missing = result["areas"][area]["missing_cpu"]
        lines.append(f"- {area} ({len(missing)}): {', '.join(missing) if missing else 'none'}")
    lines += ["", "## Missing on the GPU (on the CPU only, or not at all)", ""]
    for area in AREAS:
        missing = result["areas"][area]["missing_gpu"]
        lines.append(f"- {area} ({len(missing)}): {', '.join(missing) if missing else 'none'}")
    lines += ["", "## Notes on the GPU column", ""]
    lines.append("- Counted on the GPU through a binder rewrite (constant, CASE or extract; their own kernels are CPU "
                 f"only): {', '.join(result['gpu_by_rewrite']) or 'none'}")
    limits = "; ".join(f"{n}: {why}" for n, why in sorted(result["gpu_limits"].items()))
    lines.append(f"- Counted on the GPU for some argument shapes only: {limits or 'none'}")
    if result["gpu_unknown"]:
        lines.append(f"- GPU status unknown, counted as CPU only: {', '.join(result['gpu_unknown'])}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    build = Path(os.environ.get("KESTREL_BUILD_DIR", REPO / "build"))
    parser.add_argument("--kestrel", type=Path, default=(build if build.is_absolute() else REPO / build) / "kestrel")
    parser.add_argument("--list", type=Path, default=REPO / "docs/presto-function-list.txt")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    result = coverage(read_reference(args.list), kestrel_functions(args.kestrel))
    print(json.dumps(result, indent=1) if args.json else markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
