#!/usr/bin/env python3
"""Summarizes a KESTREL_SCAN_TRACE file: per GPU file scan (a run of consecutive morsels of one table) its bytes, when
its first copy started after its staging began, how long the copy stream was busy with it and over what span (the
difference is idle copy engine), when its last morsel was decoded, and how long the drivers waited for its staged
morsels; with --morsels, one line per morsel (times in ms from the scan's first staging).

    KESTREL_SCAN_TRACE=/tmp/trace.txt build/kestrel --data DIR --device gpu -f query.sql
    python3 bench/scan_trace.py /tmp/trace.txt --morsels
"""

import argparse
import re
import sys

N = r"(-?[0-9.]+)"
LINE = re.compile(rf"trace (\S*) m=(\d+) bytes=(\d+) stage={N}-{N} turn_wait={N} copy={N}-{N} take={N}-{N} "
                  rf"decoded={N}")
FIELDS = ("bytes", "stage_begin", "stage_end", "turn_wait", "copy_begin", "copy_end", "take_begin", "take_end",
          "decoded")


def scans(lines):
    """[(table, [morsel dict, ...])]: a new scan starts at a new table or a morsel number not above the last."""
    out, last = [], None
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        morsel = {"m": int(m.group(2)), **{k: float(v) for k, v in zip(FIELDS, m.groups()[2:])}}
        if not out or out[-1][0] != m.group(1) or morsel["m"] <= last:
            out.append((m.group(1), []))
        out[-1][1].append(morsel)
        last = morsel["m"]
    return out


def summary(table, morsels):
    t0 = min(x["stage_begin"] for x in morsels)
    copies = sorted((x["copy_begin"], x["copy_end"]) for x in morsels if x["copy_begin"] >= 0)
    busy = sum(b - a for a, b in copies)
    span = copies[-1][1] - copies[0][0] if copies else 0.0
    gb = sum(x["bytes"] for x in morsels) / 1e9
    first = copies[0][0] - t0 if copies else float("nan")
    rate = gb / (busy / 1000) if busy > 0 else 0.0
    waited = sum(x["take_end"] - x["take_begin"] for x in morsels)
    end = max(x["decoded"] for x in morsels) - t0
    return (f"{table}: {len(morsels)} morsels, {gb:.2f} GB, first copy +{first:.1f} ms, copies busy {busy:.1f} ms "
            f"over {span:.1f} ms ({rate:.1f} GB/s while busy), last decoded +{end:.1f} ms, drivers waited "
            f"{waited:.1f} ms"), t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--morsels", action="store_true", help="one line per morsel too")
    a = ap.parse_args()
    for path in a.files:
        with open(path) as f:
            found = scans(f)
        print(f"== {path}: {len(found)} scans")
        for table, morsels in found:
            text, t0 = summary(table, morsels)
            print("  " + text)
            if a.morsels:
                for x in morsels:
                    print(f"    m{x['m']}: {x['bytes'] / 1e6:.0f} MB, staged {x['stage_begin'] - t0:.1f}-"
                          f"{x['stage_end'] - t0:.1f}, turn waited {x['turn_wait']:.1f}, copy "
                          f"{x['copy_begin'] - t0:.1f}-{x['copy_end'] - t0:.1f}, taken {x['take_begin'] - t0:.1f}-"
                          f"{x['take_end'] - t0:.1f}, decoded {x['decoded'] - t0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
