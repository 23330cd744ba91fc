"""A bounded run of scripts/protocol-fuzz.py: malformed PostgreSQL and Trino HTTP input for a few seconds, after
which `kestrel serve` still answers real clients on both protocols (the 10-minute runs are for the issue notes)."""

import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_protocol_fuzz_bounded(kestrel_bin):
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "protocol-fuzz.py"), "--seconds", "8", "--seed", "1",
                        "--hang-seconds", "10", "--kestrel", str(kestrel_bin)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    summary = r.stdout.strip().splitlines()[-1]
    cases = int(summary.split()[0])
    assert cases > 100 and " 0 failed" in summary, summary
