"""The host memory limit (setting host_memory_mb): a query whose batches and buffers would outgrow it fails with a
clean error naming the operator and the limit, and the same query passes without the limit."""

import csv
import io
import re


def test_a_query_past_the_host_memory_limit_fails_cleanly(run_kestrel, tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x,s\n" + "".join(f"{i},{'v' * 40}{i}\n" for i in range(3000)))
    query = f"SELECT a.x, b.s FROM read_csv('{path}') a, read_csv('{path}') b ORDER BY a.x, b.s LIMIT 3"
    r = run_kestrel("--device", "cpu", "-c", f"SET host_memory_mb = 64; {query}")
    assert r.returncode == 1, r.describe()
    assert "host memory limit of 64 MiB (host_memory_mb) exceeded" in r.stderr, r.stderr
    assert re.search(r"Resource Exhausted Error: \w+.*: host memory limit", r.stderr), r.stderr  # the operator
    r = run_kestrel("--device", "cpu", "--format", "csv", "-c", f"SET host_memory_mb = 0; {query}")
    assert r.returncode == 0, r.describe()
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[1][0] == "0" and len(rows) == 4


def test_the_default_limit_is_a_fraction_of_the_machine(run_kestrel):
    r = run_kestrel("--device", "cpu", "--format", "csv", "-c", "SHOW host_memory_mb")
    assert r.returncode == 0, r.describe()
    value = int(list(csv.reader(io.StringIO(r.stdout)))[1][-1])
    with open("/proc/meminfo") as f:
        total_kib = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
    assert 0 < value <= total_kib // 1024
    assert value >= total_kib // 1024 // 2
