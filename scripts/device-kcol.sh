#!/usr/bin/env bash
# TPC-H from kcol on the GPU machine: converts the Parquet tables of DATA (tpchgen-cli output) to kcol in DATA-kcol
# with COPY, one table at a time, then checks and times the 22 queries on the GPU from the kcol files
# (bench/gpu_scan.py, warm and hot, no DuckDB), and times kcol unpacking from device memory on lineitem.
#   bash scripts/device-kcol.sh BIN_DIR DATA SF [--drop-parquet]
# --drop-parquet deletes each Parquet file once converted (SF100: Parquet 39 GB and kcol about 52 GB do not both fit
# the 64 GB disk). Needs KESTREL_SHARED_DIR for the query texts.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN_DIR=$1 DATA=$2 SF=$3 DROP=${4:-}
KCOL=$DATA-kcol
mkdir -p "$KCOL"
start=$(date +%s)
for t in lineitem orders partsupp part customer supplier nation region; do
  [ -f "$KCOL/$t.kcol" ] && continue
  "$BIN_DIR/kestrel" --device cpu -c "COPY (SELECT * FROM read_parquet('$DATA/$t.parquet')) TO '$KCOL/$t.kcol'" \
    >/dev/null || exit 1
  [ "$DROP" = "--drop-parquet" ] && rm -f "$DATA/$t.parquet"
done
echo "converted to kcol in $(( $(date +%s) - start )) s: $(du -sh "$KCOL" | cut -f1)"
python3 bench/gpu_scan.py --data "$KCOL" --sf "$SF" --bin "$BIN_DIR" --out "${OUT:-/tmp}/kcol-scan" --runs 2 \
  --no-duckdb 2>&1 | tail -25
"$BIN_DIR/kestrel-gpu-scan-bench" kcol "$KCOL/lineitem.kcol"
