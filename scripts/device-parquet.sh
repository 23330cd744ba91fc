#!/usr/bin/env bash
# GPU Parquet decoding on the GPU machine: the device differential test over the parquet-testing files and the
# generated corpus (.device/parquet-corpus from scripts/make-parquet-corpus.py), then optionally TPC-H at scale
# factor SF read from Parquet with the table cache off (every query decodes its files on the GPU), checked and timed.
#   bash scripts/device-parquet.sh BIN_DIR [SF]
# Expects BIN_DIR to hold the binaries and libnvcomp.so.6, .device/shared a copy of ../shared (tpch, parquet-testing)
# and .device/whl the tpchgen-cli wheel. Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN_DIR=$1 SF=${2:-}
OUT_DIR=${OUT:-/tmp}
export KESTREL_SHARED_DIR=$PWD/.device/shared
export KESTREL_PARQUET_CORPUS=$PWD/.device/shared/parquet-testing:$PWD/.device/parquet-corpus
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "== device Parquet differential test"
"$BIN_DIR/kestrel_gpu_tests" --gtest_filter="${GPU_TEST_FILTER:-ParquetDeviceDecode*}" --gtest_color=no \
  >"$OUT_DIR/gpu-parquet.log" 2>&1
grep -E "^\[  (PASSED|FAILED|SKIPPED) +\]|device Parquet corpus|Failure|CPU .*GPU|Expected|Which is|actual" \
  "$OUT_DIR/gpu-parquet.log" | head -60
[ -z "$SF" ] && exit 0
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/whl/*.whl || exit 1
export PATH=/tmp/site/bin:$PATH PYTHONPATH=/tmp/site
DATA=/tmp/tpch-sf$SF
if [ ! -f "$DATA/.complete" ]; then
  start=$(date +%s)
  (cd /tmp && tpchgen-cli parquet -s "$SF" --output-dir "$DATA" >/dev/null) || exit 1
  touch "$DATA/.complete"
  echo "generated SF$SF in $(( $(date +%s) - start )) s"
fi
echo "== TPC-H SF$SF from Parquet (gpu, fallback off, one process per query)"
python3 scripts/tpch-check.py --kestrel "$BIN_DIR/kestrel" --data "$DATA" --sf "$SF" --device gpu --no-gpu-fallback \
  2>&1 | tee "$OUT_DIR/tpch-check-sf$SF.log"
