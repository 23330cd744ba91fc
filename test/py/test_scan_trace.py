"""bench/scan_trace.py over a KESTREL_SCAN_TRACE file (the lines GPU file scans append; written here by hand, as a
CPU machine makes none): scans split where the table changes or the morsel number restarts, and the copy engine's
busy time, span, rate and the drivers' waits come from the right fields."""

import importlib.util

from conftest import REPO_ROOT as REPO

spec = importlib.util.spec_from_file_location("scan_trace", REPO / "bench" / "scan_trace.py")
scan_trace = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scan_trace)

TRACE = """\
trace orders m=0 bytes=1000000000 stage=10.000-12.000 turn_wait=0.000 copy=11.000-31.000 take=10.000-31.500 decoded=40.000
trace orders m=1 bytes=1000000000 stage=10.000-13.000 turn_wait=18.000 copy=41.000-61.000 take=32.000-61.000 decoded=70.000
trace lineitem m=0 bytes=2000000000 stage=20.000-25.000 turn_wait=0.000 copy=61.000-101.000 take=70.000-101.000 decoded=120.000
trace lineitem m=0 bytes=500000000 stage=200.000-201.000 turn_wait=0.000 copy=-1.000--1.000 take=200.000-202.000 decoded=210.000
not a trace line
"""


def test_scans_split_at_a_new_table_or_a_restarted_morsel():
    found = scan_trace.scans(TRACE.splitlines())
    assert [(table, len(m)) for table, m in found] == [("orders", 2), ("lineitem", 1), ("lineitem", 1)]
    assert found[0][1][1]["turn_wait"] == 18.0 and found[0][1][1]["copy_begin"] == 41.0


def test_summary_reads_busy_time_span_and_waits():
    found = scan_trace.scans(TRACE.splitlines())
    text, t0 = scan_trace.summary(*found[0])
    assert t0 == 10.0
    # copies 11-31 and 41-61: 40 ms busy over a 50 ms span, 2 GB in 40 ms; drivers waited 21.5 + 29 ms.
    assert "copies busy 40.0 ms over 50.0 ms (50.0 GB/s while busy)" in text
    assert "first copy +1.0 ms" in text and "last decoded +60.0 ms" in text and "drivers waited 50.5 ms" in text
    # A morsel without a read-ahead copy (the decode copied it) has no copy interval.
    text, _ = scan_trace.summary(*found[2])
    assert "copies busy 0.0 ms over 0.0 ms" in text
