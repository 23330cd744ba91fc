#!/usr/bin/env bash
# TPC-DS hot on the GPU machine: bench/tpcds/run.py at scale factor SF, Kestrel on the GPU with fallback off in one
# process (each query once untimed to fill the table cache, then best of 3) against DuckDB 1.5.5 on in-memory tables,
# all cores, same run. Expects what scripts/device-validate.sh unpacked in /tmp (binaries, devsite) and generates the
# data into /tmp/kestrel-data/tpcds/sfSF unless a generation started by device-validate.sh (TPCDS_GEN_SF) is still
# running, which it waits for.
#   bash scripts/device-tpcds-bench.sh SF [QUERIES]
set -uo pipefail
cd "$(dirname "$0")/.."
SF=$1 QUERIES=${2:-1-99}
for part in bin site; do
  [ -d /tmp/$([ $part = site ] && echo devsite || echo bin) ] || { tar xJf .device/$part.tar.xz -C /tmp || exit 1; }
done
export PYTHONPATH=/tmp/devsite PATH=/tmp/devsite/bin:$PATH KESTREL_DATA_CACHE=/tmp/kestrel-data
export KESTREL_NVCOMP_LIB=/tmp/bin/libnvcomp.so.6
DATA=$KESTREL_DATA_CACHE/tpcds/sf$SF
if [ -f /tmp/tpcds-gen.pid ] && kill -0 "$(cat /tmp/tpcds-gen.pid)" 2>/dev/null; then
  echo "waiting for the TPC-DS generation started by device-validate.sh"
  while kill -0 "$(cat /tmp/tpcds-gen.pid)" 2>/dev/null; do sleep 2; done
fi
start=$(date +%s)
python3 -c "import importlib.util, sys; s = importlib.util.spec_from_file_location('c', 'scripts/tpcds-check.py'); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); m.generate(sys.argv[1])" "$SF" || exit 1
echo "data ready after $(( $(date +%s) - start )) s: $(du -sh "$DATA" | cut -f1)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
python3 bench/tpcds/run.py --data "$DATA" --sf "$SF" --device gpu --no-gpu-fallback --one-process \
  --threads "$(nproc)" --duckdb-tables memory --runs 3 --queries "$QUERIES" --binary /tmp/bin/kestrel \
  --out "${OUT:-/tmp}/tpcds-sf$SF" 2>&1 | tee "${OUT:-/tmp}/tpcds-sf$SF.log"
