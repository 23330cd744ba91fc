#!/usr/bin/env bash
# Runs Kestrel's tests on a machine with a GPU: the CPU unit tests, the GPU tests and the SQL corpus in gpu mode.
# Binaries come from BIN_DIR (default: .device/bin when scripts/device-pack.sh made it, else build/). The GPU machine
# has no Debian -dev packages, so the binaries are built on a development machine (they link third-party libraries
# statically) and copied there. Ends with the line "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN_DIR=${1:-}
if [ -z "$BIN_DIR" ]; then
  # scripts/device-pack.sh leaves the binaries packed as .device/bin.tar.xz.
  [ ! -x .device/bin/kestrel ] && [ -f .device/bin.tar.xz ] && tar xJf .device/bin.tar.xz -C .device
  if [ -x .device/bin/kestrel ]; then BIN_DIR=.device/bin; else BIN_DIR=build; fi
fi
LOG_DIR=${OUT:-/tmp}/kestrel-device-test
mkdir -p "$LOG_DIR"
passed=0 failed=0 skipped=0

echo "== device"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi not found"

# Adds the counts of a GoogleTest run (its log in $1) to the totals.
count_gtest() {
  local log=$1 p f s
  p=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | head -1)
  f=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | head -1)
  s=$(grep -E '^\[  SKIPPED \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | head -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + ${s:-0}))
}

run_gtest() {
  local name=$1 binary=$2
  echo "== $name"
  if [ ! -x "$binary" ]; then
    echo "missing $binary"; failed=$((failed + 1)); return
  fi
  "$binary" --gtest_color=no >"$LOG_DIR/$name.log" 2>&1
  local rc=$?
  grep -E '^\[  (PASSED|FAILED|SKIPPED) +\]|^device:' "$LOG_DIR/$name.log"
  count_gtest "$LOG_DIR/$name.log"
  if [ $rc -ne 0 ] && ! grep -qE '^\[  FAILED  \]' "$LOG_DIR/$name.log"; then
    echo "$name exited with status $rc"; tail -20 "$LOG_DIR/$name.log"; failed=$((failed + 1))
  fi
}

# KESTREL_SKIP_UNIT=1 skips the CPU unit tests (CI runs them) to save device time.
# KESTREL_SKIP_GPU_TESTS=1 skips kestrel_gpu_tests (about 150 s), for a call after one that ran them on the same
# binary's GPU code.
if [ -z "${KESTREL_SKIP_UNIT:-}" ]; then run_gtest unit "$BIN_DIR/kestrel_unit_tests"; fi
if [ -z "${KESTREL_SKIP_GPU_TESTS:-}" ]; then run_gtest gpu "$BIN_DIR/kestrel_gpu_tests"; fi

# The corpus runs with the GPU as the device and fallback off (--mode gpu): every operator must run on the GPU.
# KESTREL_SQL_MODE=gpu-fallback lets operators without a GPU side run on the CPU instead.
SQL_MODE=${KESTREL_SQL_MODE:-gpu}
echo "== sql corpus ($SQL_MODE mode)"
if [ -x "$BIN_DIR/kestrel-sqllogictest" ] && [ -d test/sql ]; then
  "$BIN_DIR/kestrel-sqllogictest" --mode "$SQL_MODE" test/sql >"$LOG_DIR/sql.log" 2>&1
  tail -5 "$LOG_DIR/sql.log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$LOG_DIR/sql.log" | tail -1)
  if [ -n "$line" ]; then
    read -r p _ f _ s _ <<<"${line//,/}"
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  else
    echo "the sqllogictest runner printed no summary"; failed=$((failed + 1))
  fi
else
  echo "no sqllogictest runner in $BIN_DIR"
fi

# TPC-H with every operator on the GPU (fallback off): at SF1 against the official answers, at other scale factors
# against the CPU results. KESTREL_TPCH_DIRS lists "SF:FOLDER" pairs of Parquet data (tpchgen-cli output).
for entry in ${KESTREL_TPCH_DIRS:-}; do
  sf=${entry%%:*} dir=${entry#*:}
  echo "== TPC-H SF$sf (gpu, fallback off)"
  python3 scripts/tpch-check.py --kestrel "$BIN_DIR/kestrel" --data "$dir" --sf "$sf" --device gpu --no-gpu-fallback \
    >"$LOG_DIR/tpch-sf$sf.log" 2>&1
  cat "$LOG_DIR/tpch-sf$sf.log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$LOG_DIR/tpch-sf$sf.log" | tail -1)
  if [ -n "$line" ]; then
    read -r p _ f _ s _ <<<"${line//,/}"
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  else
    echo "the TPC-H check printed no summary"; failed=$((failed + 1))
  fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
