#!/usr/bin/env bash
# One call's worth of validation on the GPU machine, everything that checks answers (no timings): the GPU tests and
# the SQL corpus in gpu mode (scripts/device-test.sh), the shared sqllogictest corpus in gpu mode, TPC-H SF1 and TPC-DS SF1 on the GPU with fallback off
# against the official answers and DuckDB's, and the SQL fuzzer with Kestrel on the GPU (TPC-H, then TPC-DS) running
# beside them for FUZZ_SECONDS (default 420). Optionally starts the generation of TPC-DS at TPCDS_GEN_SF in a
# process of its own session, so it outlives this call and a next call on the same machine finds the data.
#
# Carry `.device`, prepared here (each part is an xz tarball, so that they fit the carry limit together):
#   .device/bin.tar.xz            scripts/device-pack.sh (the binaries and nvCOMP's library)
#   .device/site.tar.xz           a folder `devsite` holding duckdb==1.5.5, duckdb_extension_tpcds==1.5.5 and
#                                 tpchgen-cli installed for the machine's Python 3.12 (pip install --target with
#                                 --python-version 3.12 and its manylinux platforms); DuckDB 1.5.5 is the oracle of
#                                 the TPC-DS check and of the fuzzer there
#   .device/shared.tar.xz         ../shared as a folder `shared` (it does not travel by itself)
#   .device/parquet-corpus.tar.xz scripts/make-parquet-corpus.py's output as a folder `pqcorpus` (optional)
# and run `bash scripts/device-validate.sh`. Logs go to $OUT/validate; the last line is "N passed, N failed, N skipped"
# over the device tests and the two checks, and the fuzzer's summary lines come just before it.
set -uo pipefail
cd "$(dirname "$0")/.."
LOG=${OUT:-/tmp}/validate
mkdir -p "$LOG"
for part in bin site shared parquet-corpus; do
  [ -f .device/$part.tar.xz ] && { tar xJf .device/$part.tar.xz -C /tmp || exit 1; }
done
BIN=/tmp/bin
[ -f "$BIN/libnvcomp.so.6" ] && export KESTREL_NVCOMP_LIB=$BIN/libnvcomp.so.6
export PYTHONPATH=/tmp/devsite PATH=/tmp/devsite/bin:$PATH
export KESTREL_SHARED_DIR=/tmp/shared KESTREL_DATA_CACHE=/tmp/kestrel-data
export KESTREL_PARQUET_CORPUS=/tmp/shared/parquet-testing
[ -d /tmp/pqcorpus ] && KESTREL_PARQUET_CORPUS+=:/tmp/pqcorpus
mkdir -p "$KESTREL_DATA_CACHE"

if [ -n "${TPCDS_GEN_SF:-}" ]; then
  setsid bash -c "python3 -c 'import importlib.util, sys; s = importlib.util.spec_from_file_location(\"c\", \"scripts/tpcds-check.py\"); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); print(m.generate(sys.argv[1]))' $TPCDS_GEN_SF" \
    >/tmp/tpcds-gen.log 2>&1 </dev/null &
  echo $! >/tmp/tpcds-gen.pid
  echo "== generating TPC-DS SF$TPCDS_GEN_SF in the background (into $KESTREL_DATA_CACHE/tpcds)"
fi

# The fuzzer's data first (small), then the fuzzer in the background beside the checks.
python3 -c "import sys; sys.path.insert(0, 'test/py'); import tpch_support as t; t.generate('0.01'); t.generate(1)" \
  || { echo "TPC-H generation failed"; exit 1; }
python3 -c "import importlib.util; s = importlib.util.spec_from_file_location('c', 'scripts/tpcds-check.py'); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); m.generate('0.01'); m.generate(1)" \
  || { echo "TPC-DS generation failed"; exit 1; }
FUZZ_SECONDS=${FUZZ_SECONDS:-420}
(
  half=$((FUZZ_SECONDS / 2))
  python3 scripts/sql-fuzz.py --device gpu --kestrel "$BIN/kestrel" --seed "${FUZZ_SEED:-505}" --seconds "$half" \
    >"$LOG/fuzz-tpch.log" 2>&1
  python3 scripts/sql-fuzz.py --device gpu --kestrel "$BIN/kestrel" --schema tpcds --seed "${FUZZ_SEED:-505}" \
    --seconds "$half" >"$LOG/fuzz-tpcds.log" 2>&1
) &
fuzz=$!

passed=0 failed=0 skipped=0
add_summary() {  # adds the "N passed, N failed, N skipped" line of log $1 to the totals
  local line p f s
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$1" | tail -1)
  if [ -z "$line" ]; then echo "no summary in $1"; failed=$((failed + 1)); return; fi
  read -r p _ f _ s _ <<<"${line//,/}"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

KESTREL_SKIP_UNIT=1 KESTREL_TPCH_DIRS="1:$KESTREL_DATA_CACHE/sf1" bash scripts/device-test.sh "$BIN" \
  >"$LOG/device-test.log" 2>&1
grep -E '^==|PASSED|FAILED|passed,' "$LOG/device-test.log" | tail -30
add_summary "$LOG/device-test.log"

echo "== TPC-DS SF1 (gpu, fallback off)"
python3 scripts/tpcds-check.py --kestrel "$BIN/kestrel" --sf 1 --device gpu --no-gpu-fallback >"$LOG/tpcds-sf1.log" 2>&1
grep -vE ' ok ' "$LOG/tpcds-sf1.log" | tail -20
add_summary "$LOG/tpcds-sf1.log"

echo "== shared sqllogictest corpus (gpu, fallback off; the known differences from SQLite fail here too)"
"$BIN/kestrel-sqllogictest" --mode gpu /tmp/shared/sqllogictest >"$LOG/shared-corpus.log" 2>&1
tail -1 "$LOG/shared-corpus.log"

wait "$fuzz"
echo "== fuzzer (gpu)"
tail -n 4 "$LOG/fuzz-tpch.log" "$LOG/fuzz-tpcds.log"
[ -n "${TPCDS_GEN_SF:-}" ] && { echo "== TPC-DS SF$TPCDS_GEN_SF generation so far"; cat /tmp/tpcds-gen.log; }
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
