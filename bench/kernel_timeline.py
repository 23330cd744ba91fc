#!/usr/bin/env python3
"""Summarizes a kernel timeline written by libkestrel-cupti-trace.so (tools/cupti_trace).

Run a program with
    CUDA_INJECTION64_PATH=/path/libkestrel-cupti-trace.so KESTREL_CUPTI_OUT=trace.tsv kestrel ...
then `bench/kernel_timeline.py trace.tsv`. The timeline is cut into segments where the GPU sat idle for longer than
--gap ms (one query after another in one process gives one segment each). Per segment it prints: the span, the
time the GPU had a kernel running, the time a host-to-device copy was running, both at once, the copies' bytes and
rate, a strip of 20 slices (percent of each slice with a kernel / with a copy running), and the kernels by total
time and by the time they ran alone (nothing else on the GPU: the stretches that kept everything else waiting).

With --ranges the timeline is cut by the statements' ranges instead (Kestrel marks each statement's start and end
through the tracer library), and each statement gets one line: its wall time, the time a
kernel ran, the kernels launched, and the host time inside CUDA calls by kind (synchronizations, copies,
allocations, launches); --api lists every call name per statement too.
"""
import argparse
import collections
import shutil
import subprocess


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5:
                continue
            kind, start, end, stream, what = parts[:5]
            rows.append((kind, int(start), int(end), int(stream), what))
    rows.sort(key=lambda r: r[1])
    return rows


def demangle(names):
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    return {n: short(d) for n, d in zip(names, out)}


def short(name):
    """Drops template arguments and parameter lists: `ns::kernel<...>(...)` becomes `ns::kernel`."""
    depth, out = 0, []
    for ch in name:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    text = "".join(out).strip()
    return text.split(" ")[-1] if " " in text else text


def union(intervals):
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def intersect_total(a, b):
    """Time covered by both interval sets."""
    events = []
    for s, e in a:
        events += [(s, 0, 1), (e, 0, -1)]
    for s, e in b:
        events += [(s, 1, 1), (e, 1, -1)]
    events.sort()
    count, total, last = [0, 0], 0, None
    for t, which, d in events:
        if last is not None and count[0] > 0 and count[1] > 0:
            total += t - last
        count[which] += d
        last = t
    return total


def alone_times(kernels):
    """Per kernel name: time during which it was the only kernel running."""
    events = []
    for i, (s, e, _) in enumerate(kernels):
        events += [(s, 1, i), (e, -1, i)]
    events.sort()
    running, alone, last = set(), collections.Counter(), None
    for t, d, i in events:
        if last is not None and len(running) == 1:
            alone[kernels[next(iter(running))][2]] += t - last
        if d > 0:
            running.add(i)
        else:
            running.discard(i)
        last = t
    return alone


def segments(rows, gap_ns):
    seg, end = [], None
    for r in rows:
        if end is not None and r[1] - end > gap_ns:
            yield seg
            seg, end = [], None
        seg.append(r)
        end = r[2] if end is None else max(end, r[2])
    if seg:
        yield seg


def report(seg, names, t0, top):
    start = min(r[1] for r in seg)
    end = max(r[2] for r in seg)
    span = end - start
    kernels = [(r[1], r[2], names.get(r[4], r[4])) for r in seg if r[0] == "K"]
    h2d = [(r[1], r[2]) for r in seg if r[0] == "C1"]
    h2d_bytes = sum(int(r[4]) for r in seg if r[0] == "C1")
    k_busy = union([(s, e) for s, e, _ in kernels])
    c_busy = union(h2d)
    both = intersect_total([(s, e) for s, e, _ in kernels], h2d)
    ms = lambda ns: ns / 1e6  # noqa: E731
    print(f"== segment at {ms(start - t0):.1f} ms: span {ms(span):.1f} ms, {len(kernels)} kernels, "
          f"{len(h2d)} H2D copies")
    print(f"   kernel busy {ms(k_busy):.1f} ms ({100 * k_busy / span:.0f}%), H2D busy {ms(c_busy):.1f} ms "
          f"({100 * c_busy / span:.0f}%), both {ms(both):.1f} ms, idle "
          f"{ms(span - k_busy - c_busy + both):.1f} ms")
    if c_busy:
        print(f"   H2D {h2d_bytes / 1e9:.2f} GB, {h2d_bytes / c_busy:.1f} GB/s while busy, "
              f"{h2d_bytes / span:.1f} GB/s over the span")
    slices = 20
    width = span / slices
    strip = []
    for i in range(slices):
        a, b = start + i * width, start + (i + 1) * width
        clip = lambda iv: [(max(s, a), min(e, b)) for s, e in iv if e > a and s < b]  # noqa: E731
        strip.append(f"{100 * union(clip([(s, e) for s, e, _ in kernels])) / width:3.0f}/"
                     f"{100 * union(clip(h2d)) / width:3.0f}")
    print(f"   slices of {ms(width):.1f} ms, kernel%/copy%: " + " ".join(strip))
    total = collections.Counter()
    count = collections.Counter()
    for s, e, n in kernels:
        total[n] += e - s
        count[n] += 1
    alone = alone_times(kernels)
    print(f"   {'kernel':60} {'n':>6} {'total ms':>9} {'alone ms':>9}")
    for n, t in total.most_common(top):
        print(f"   {n[:60]:60} {count[n]:6} {ms(t):9.2f} {ms(alone[n]):9.2f}")
    rest = [n for n, _ in alone.most_common(top) if n not in dict(total.most_common(top))]
    for n in rest[:5]:
        print(f"   {n[:60]:60} {count[n]:6} {ms(total[n]):9.2f} {ms(alone[n]):9.2f}  (alone)")


API_KINDS = (
    ("sync", ("Synchronize", "cudaStreamWaitEvent", "cudaEventQuery", "cudaStreamQuery")),
    ("copy", ("Memcpy", "Memset")),
    ("alloc", ("Malloc", "Free", "HostRegister", "HostUnregister", "HostAlloc")),
    ("launch", ("Launch",)),
)


def api_kind(name):
    for kind, parts in API_KINDS:
        if any(p in name for p in parts):
            return kind
    return "other"


def ranges(rows):
    """(name, start, end) for every statement range, in start order."""
    open_, out = {}, []
    for r in rows:
        if r[0] == "MS":
            open_[r[3]] = (r[4], r[1])
        elif r[0] == "ME" and r[3] in open_:
            name, start = open_.pop(r[3])
            out.append((name, start, r[1]))
    return sorted(out, key=lambda x: x[1])


def report_ranges(rows, show_api, min_ms):
    import bisect
    marks = ranges(rows)
    if not marks:
        print("no statement ranges in the trace")
        return
    body = [r for r in rows if r[0] in ("K", "R") or r[0].startswith("C")]
    starts = [r[1] for r in body]
    ms = lambda ns: ns / 1e6  # noqa: E731
    print(f"{'#':>4} {'wall ms':>8} {'kernel ms':>9} {'kernels':>7} {'sync ms':>8} {'n sync':>6} {'copy ms':>8} "
          f"{'n copy':>6} {'alloc ms':>8} {'n alloc':>7} {'launch ms':>9}  statement")
    totals = collections.Counter()
    for i, (name, s, e) in enumerate(marks):
        if ms(e - s) < min_ms:
            continue
        inside = body[bisect.bisect_left(starts, s):bisect.bisect_right(starts, e)]
        kernels = [(r[1], min(r[2], e)) for r in inside if r[0] == "K"]
        api_t, api_n, per_name = collections.Counter(), collections.Counter(), collections.Counter()
        for r in inside:
            if r[0] == "R":
                k = api_kind(r[4])
                api_t[k] += r[2] - r[1]
                api_n[k] += 1
                per_name[r[4]] += r[2] - r[1]
        busy = union(kernels)
        totals.update({"wall": e - s, "kernel": busy, "kernels": len(kernels), **{f"t_{k}": v for k, v in
                       api_t.items()}, **{f"n_{k}": v for k, v in api_n.items()}})
        print(f"{i:4} {ms(e - s):8.2f} {ms(busy):9.2f} {len(kernels):7} {ms(api_t['sync']):8.2f} "
              f"{api_n['sync']:6} {ms(api_t['copy']):8.2f} {api_n['copy']:6} {ms(api_t['alloc']):8.2f} "
              f"{api_n['alloc']:7} {ms(api_t['launch']):9.2f}  {name[:70]}")
        if show_api:
            for n, t in per_name.most_common(8):
                print(f"        {n:40} {ms(t):8.2f} ms")
    print(f"total {ms(totals['wall']):.1f} ms wall, {ms(totals['kernel']):.1f} ms with a kernel running, "
          f"{totals['kernels']} kernels; in CUDA calls: sync {ms(totals['t_sync']):.1f} ms ({totals['n_sync']}), "
          f"copy {ms(totals['t_copy']):.1f} ms ({totals['n_copy']}), alloc {ms(totals['t_alloc']):.1f} ms "
          f"({totals['n_alloc']}), launch {ms(totals['t_launch']):.1f} ms ({totals['n_launch']})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--gap", type=float, default=30.0, help="idle ms that ends a segment (default 30)")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--min-span", type=float, default=5.0, help="skip segments shorter than this many ms")
    ap.add_argument("--ranges", action="store_true", help="one line per statement instead")
    ap.add_argument("--api", action="store_true", help="with --ranges: the CUDA calls of each statement by name")
    args = ap.parse_args()
    rows = load(args.trace)
    if args.ranges:
        report_ranges(rows, args.api, 0.0)
        return
    if not rows:
        print("no records")
        return
    names = demangle(sorted({r[4] for r in rows if r[0] == "K"}))
    t0 = rows[0][1]
    for seg in segments(rows, int(args.gap * 1e6)):
        if (max(r[2] for r in seg) - seg[0][1]) / 1e6 >= args.min_span:
            report(seg, names, t0, args.top)


if __name__ == "__main__":
    main()
