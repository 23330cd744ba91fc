#!/usr/bin/env bash
# Where the time of hot GPU queries goes, on the GPU machine. Every query of a suite runs in one Kestrel process
# (fallback off): once untimed (the table cache fills), once hot under the CUPTI library (tools/cupti_trace), then
# under EXPLAIN ANALYZE. bench/kernel_timeline.py --ranges then prints one line per statement: its wall time, the
# time a kernel ran, and the host time inside CUDA synchronizations, copies, allocations and launches.
#   bash scripts/device-profile.sh tpcds|tpch SF [QUERIES, e.g. 1-99 or 1,6,13]
# Expects the binaries packed with libkestrel-cupti-trace.so (scripts/device-pack.sh kestrel
# libkestrel-cupti-trace.so ...) and, as scripts/device-validate.sh, .device/site.tar.xz and .device/shared.tar.xz.
# Writes $OUT/profile-SUITE-sfSF$PROFILE_TAG/{trace.tsv.xz, ranges.txt, explain.txt, timing.txt}. PROFILE_TRACE=0
# leaves the traced run out (timings and EXPLAIN ANALYZE only: compare settings or KESTREL_* switches with it).
# KESTREL_BIN names another kestrel binary (an A/B of two builds); KESTREL_DATA_CACHE another data folder.
set -uo pipefail
cd "$(dirname "$0")/.."
SUITE=$1 SF=$2 QUERIES=${3:-}
for part in bin site shared; do
  dir=$(case $part in site) echo devsite ;; *) echo $part ;; esac)
  [ -d /tmp/$dir ] || [ ! -f .device/$part.tar.xz ] || tar xJf .device/$part.tar.xz -C /tmp || exit 1
done
export PYTHONPATH=/tmp/devsite PATH=/tmp/devsite/bin:$PATH KESTREL_DATA_CACHE=${KESTREL_DATA_CACHE:-/tmp/kestrel-data}
BIN=${KESTREL_BIN:-/tmp/bin/kestrel}
export KESTREL_SHARED_DIR=/tmp/shared KESTREL_NVCOMP_LIB=/tmp/bin/libnvcomp.so.6
OUTDIR=${OUT:-/tmp}/profile-$SUITE-sf$SF${PROFILE_TAG:-}
mkdir -p "$OUTDIR"
script=$OUTDIR/queries.sql
python3 - "$SUITE" "$SF" "$QUERIES" "$script" <<'PY' || exit 1
import importlib.util, pathlib, sys
suite, sf, spec, out = sys.argv[1:5]
def numbers(spec, last):
    if not spec:
        return list(range(1, last + 1))
    got = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        got += list(range(int(a), int(b or a) + 1))
    return got
if suite == "tpcds":
    s = importlib.util.spec_from_file_location("c", "scripts/tpcds-check.py")
    m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
    folder = m.generate(sf)
    texts = {q: (folder / "queries" / f"q{q:02d}.sql").read_text() for q in numbers(spec, 99)}
else:
    sys.path.insert(0, "test/py")
    import tpch_support as t
    folder = t.generate(sf)
    texts = {q: t.query_text(q, float(sf) if "." in sf else int(sf)) for q in numbers(spec, 22)}
with open(out, "w") as f:
    for q, text in texts.items():
        body = text.strip().rstrip(";")
        f.write(f"-- q{q:02d}\n{body};\n{body};\nEXPLAIN ANALYZE {body};\n")
print(folder, file=open(out + ".data", "w"))
PY
DATA=$(cat "$script.data")
echo "data: $DATA ($(du -sh "$DATA" | cut -f1))"
# The hot statements' wall times, without the tracer.
"$BIN" --data "$DATA" --device gpu --no-gpu-fallback --timing --format csv -f "$script" \
  >"$OUTDIR/explain.txt" 2>"$OUTDIR/timing.txt" || echo "untraced run failed: $(tail -3 "$OUTDIR/timing.txt")"
[ "${PROFILE_TRACE:-1}" = 0 ] && { tail -1 "$OUTDIR/timing.txt"; exit 0; }
CUDA_INJECTION64_PATH=/tmp/bin/libkestrel-cupti-trace.so KESTREL_CUPTI_API=${KESTREL_CUPTI_API:-1} \
  KESTREL_CUPTI_OUT=$OUTDIR/trace.tsv "$BIN" --data "$DATA" --device gpu --no-gpu-fallback --format csv \
  -f "$script" >/dev/null 2>"$OUTDIR/traced-stderr.txt" || echo "traced run failed: $(tail -3 "$OUTDIR/traced-stderr.txt")"
python3 bench/kernel_timeline.py --ranges "$OUTDIR/trace.tsv" >"$OUTDIR/ranges.txt" 2>&1
python3 bench/kernel_timeline.py --ranges --api "$OUTDIR/trace.tsv" >"$OUTDIR/ranges-api.txt" 2>&1
xz -T0 -6 "$OUTDIR/trace.tsv"
# Files over 16 MiB do not come back from the machine.
[ "$(stat -c %s "$OUTDIR/trace.tsv.xz")" -lt 16000000 ] || rm -f "$OUTDIR/trace.tsv.xz"
tail -2 "$OUTDIR/ranges.txt"
