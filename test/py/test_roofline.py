"""bench/roofline.py over EXPLAIN ANALYZE's step statistics (CPU, TPC-H SF0.01): every step of every pipeline is
read, the byte accounting follows the batches (what a step writes goes into the next step's input, which holds
nothing but that and what the step passed on), table scans produce bytes and each query gets a floor and a ratio.
Timings are not checked (a benchmark's job)."""

import json
import subprocess
import sys

import pytest

import tpch_support as tpch
from conftest import REPO_ROOT as REPO

MIB = 1 << 20


@pytest.fixture(scope="module")
def report(kestrel_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("roofline")
    r = subprocess.run([sys.executable, str(REPO / "bench" / "roofline.py"), "--data", str(tpch.generate("0.01")),
                        "--sf", "0.01", "--device", "cpu", "--bandwidth-gbs", "20", "--queries", "1,3,6,13",
                        "--kestrel", str(kestrel_bin), "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads((out / "roofline.json").read_text()), (out / "roofline.md").read_text()


def test_every_query_has_steps_a_floor_and_a_ratio(report):
    data, markdown = report
    assert data["bandwidth_gbs"] == 20
    assert sorted(data["queries"]) == ["1", "13", "3", "6"]
    for q, query in data["queries"].items():
        assert query["steps"], q
        assert query["scan_bytes"] > 0 and query["floor_ms"] > 0 and query["ratio"] > 0, (q, query)
        assert f"### q{int(q):02d}" in markdown


def test_bytes_follow_the_batches_from_step_to_step(report):
    data, _ = report
    for q, query in data["queries"].items():
        by_pipeline = {}
        for step in query["steps"]:
            by_pipeline.setdefault(step["pipeline"], []).append(step)
        for pipeline, steps in by_pipeline.items():
            assert [s["position"] for s in steps] == list(range(len(steps)))
            for before, after in zip(steps, steps[1:]):
                # Printed in MiB with three decimals. The next input holds what this step wrote, and besides that
                # only buffers this step took in and passed on.
                slack = 0.002 * MIB
                assert before["out_bytes"] <= after["in_bytes"] + slack, (q, pipeline, before, after)
                assert after["in_bytes"] <= before["in_bytes"] + before["out_bytes"] + slack, (q, pipeline, before,
                                                                                              after)
        scans = [s for s in query["steps"] if s["position"] == 0 and s["name"].startswith("Scan ")]
        assert scans and all(s["in_bytes"] == 0 and s["out_bytes"] > 0 for s in scans), q
