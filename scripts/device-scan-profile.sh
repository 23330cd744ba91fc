#!/usr/bin/env bash
# Where warm GPU scans spend their time, on the GPU machine: generates TPC-H at SF (default 100) with tpchgen-cli,
# measures pinned H2D, then runs bench/scan_variants.py: TPC-H queries and scan-only probes over lineitem (4 columns,
# all 16) with the table cache off, under variants of the scan's settings and developer knobs, keeping each query's
# EXPLAIN ANALYZE (its "GPU Parquet scan:" line sums the drivers' waits for staged reads, the read-ahead copies'
# time on their stream, and the decode's GPU time after the bytes arrived, with its decompression part).
# Expects what scripts/device-validate.sh documents in .device (bin.tar.xz, site.tar.xz, shared.tar.xz).
#   bash scripts/device-scan-profile.sh [SF] [QUERIES] [VARIANT...]
# About 81 s of generation at SF100, then about 10 s per variant and query set of five. Results in $OUT/variants.
set -uo pipefail
cd "$(dirname "$0")/.."
SF=${1:-100} QUERIES=${2:-1,6,9,15,21}
shift 2 2>/dev/null || shift $#
variants=("$@")
((${#variants[@]})) || variants=(default: hot:gpu_cache=true streams2:gpu_streams=2 ahead8:KESTREL_READ_AHEAD=8)
for part in bin site shared; do
  case $part in bin) d=/tmp/bin ;; site) d=/tmp/devsite ;; shared) d=/tmp/shared ;; esac
  [ -d $d ] || { tar xJf .device/$part.tar.xz -C /tmp || exit 1; }
done
export PYTHONPATH=/tmp/devsite PATH=/tmp/devsite/bin:$PATH KESTREL_NVCOMP_LIB=/tmp/bin/libnvcomp.so.6
export KESTREL_SHARED_DIR=/tmp/shared
DATA=/tmp/tpch-sf$SF
if [ ! -f "$DATA/.complete" ]; then
  start=$(date +%s)
  (cd /tmp && tpchgen-cli parquet -s "$SF" --output-dir "$DATA" >/dev/null) || exit 1
  touch "$DATA/.complete"
  echo "generated SF$SF in $(( $(date +%s) - start )) s: $(du -sh "$DATA" | cut -f1)"
fi
[ -x /tmp/bin/kestrel-gpu-scan-bench ] && /tmp/bin/kestrel-gpu-scan-bench h2d 4
args=()
for v in "${variants[@]}"; do args+=(--variant "$v"); done
cols=l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_extendedprice,l_discount,l_tax,l_returnflag,l_linestatus
cols+=,l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct,l_shipmode,l_comment
python3 bench/scan_variants.py --data "$DATA" --sf "$SF" --bin /tmp/bin/kestrel --out "${OUT:-/tmp}/variants" \
  --runs 2 --queries "$QUERIES" --probe lineitem:l_suppkey,l_extendedprice,l_discount,l_shipdate \
  --probe "lineitem:$cols" "${args[@]}"
grep -h "GPU Parquet scan" "${OUT:-/tmp}"/variants/explain-*.txt
