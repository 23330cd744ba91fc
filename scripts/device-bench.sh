#!/usr/bin/env bash
# TPC-H on the GPU machine: generates the Parquet data with tpchgen-cli, checks Kestrel's GPU results (fallback off)
# against its CPU results, and runs bench/tpch/run.py (Kestrel hot and warm vs DuckDB with in-memory tables, all
# cores) plus the stream comparison (Q1, Q15, Q20 with 1 and 8 streams). Needs the wheels of tpchgen-cli and duckdb
# in WHEEL_DIR (carried: see /work/.library/device/README.md) and the packed binaries in BIN_DIR.
#   bash scripts/device-bench.sh BIN_DIR WHEEL_DIR SF [check|bench|warm|streams|profile]...
set -uo pipefail
cd "$(dirname "$0")/.."
BIN_DIR=$1 WHEEL_DIR=$2 SF=$3
shift 3
OUT_DIR=${OUT:-/tmp}/tpch-sf$SF
mkdir -p "$OUT_DIR"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$WHEEL_DIR"/*.whl || exit 1
export PATH=/tmp/site/bin:$PATH PYTHONPATH=/tmp/site
DATA=/tmp/tpch-sf$SF
# The machine's disk (about 64 GB) holds SF100 (39 GB) and little else: drop other scale factors first.
for other in /tmp/tpch-sf*; do [ "$other" = "$DATA" ] || rm -rf "$other"; done
if [ ! -f "$DATA/.complete" ]; then
  start=$(date +%s)
  (cd /tmp && tpchgen-cli parquet -s "$SF" --output-dir "$DATA" >/dev/null) || exit 1
  touch "$DATA/.complete"
  echo "generated SF$SF in $(( $(date +%s) - start )) s: $(du -sh "$DATA" | cut -f1)"
fi
threads=$(nproc)
# At SF100 every query runs in one Kestrel process (the table cache fills once), and DuckDB's compressed in-memory
# tables (loaded after Kestrel's runs) stay under a memory limit that leaves the host room. The warm runs (about
# 75 s) do not fit one call beside DuckDB's load (about 100 s) and runs there: the `warm` step times them alone.
DEFAULT_BENCH_ARGS=""
if [ "$SF" -ge 100 ] 2>/dev/null; then DEFAULT_BENCH_ARGS="--one-process --duckdb-memory-limit 100GB --no-warm"; fi
for step in "$@"; do
  case $step in
    check)
      python3 scripts/tpch-check.py --kestrel "$BIN_DIR/kestrel" --data "$DATA" --sf "$SF" --device gpu \
        --no-gpu-fallback 2>&1 | tee "$OUT_DIR/check.log" ;;
    bench)
      python3 bench/tpch/run.py --sf "$SF" --data "$DATA" --threads "$threads" --runs 3 --device gpu \
        --no-gpu-fallback --duckdb-tables memory --binary "$BIN_DIR/kestrel" --out "$OUT_DIR/bench" \
        ${BENCH_ARGS:-$DEFAULT_BENCH_ARGS} 2>&1 |
        tee "$OUT_DIR/bench.log" ;;
    warm)
      # Kestrel alone, hot and warm (gpu_cache off: every run decodes the Parquet files again), no DuckDB.
      python3 bench/tpch/run.py --sf "$SF" --data "$DATA" --threads "$threads" --runs "${WARM_RUNS:-3}" --device gpu \
        --no-gpu-fallback --no-duckdb --one-process --binary "$BIN_DIR/kestrel" --out "$OUT_DIR/warm" 2>&1 |
        tee "$OUT_DIR/warm.log" ;;
    profile)
      # EXPLAIN ANALYZE of a hot run (after one run filled the table cache) of each query in PROFILE_QUERIES.
      for q in ${PROFILE_QUERIES:-1 2 8 17 19}; do
        sql=$(sed "s/;[[:space:]]*$//" /work/shared/tpch/queries/q$(printf %02d $q).sql)
        echo "== q$q"
        "$BIN_DIR/kestrel" --data "$DATA" --device gpu --no-gpu-fallback --format csv \
          -c "$sql; EXPLAIN ANALYZE $sql" 2>&1 | sed -n '/^plan$/,$p'
      done >"$OUT_DIR/profile.log" 2>&1
      grep -E "^== q|^Pipeline|Total|GPU memory" "$OUT_DIR/profile.log" ;;
    streams)
      for q in 1 15 20; do
        for s in 1 8; do
          sql=$(sed "s/;[[:space:]]*$//" /work/shared/tpch/queries/q$(printf %02d $q).sql)
          t=$("$BIN_DIR/kestrel" --data "$DATA" --device gpu --no-gpu-fallback --format csv --timing \
                -c "SET gpu_streams = $s; $sql; $sql; $sql; $sql" 2>&1 >/dev/null |
              grep -oE 'Run Time: [0-9.]+' | tail -3 | awk '{print $3}' | sort -n | head -1)
          echo "q$q streams=$s best of 3 (hot): $t ms"
        done
      done 2>&1 | tee "$OUT_DIR/streams.log" ;;
  esac
done
