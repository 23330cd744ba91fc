#!/usr/bin/env bash
# Sets up and runs Kestrel: installs what is missing, builds, generates a small TPC-H sample (scale factor 0.01,
# Parquet) into data/, then opens the interactive shell on it (on a terminal) or runs the demo script demo/tour.sql.
# Idempotent: a second run only rebuilds what changed and reuses the sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh -j"$(nproc)" kestrel
SAMPLE=data/tpch-sf0.01
if [ ! -f "$SAMPLE/.complete" ]; then
  echo "run: generating the TPC-H sample (SF 0.01) into $SAMPLE"
  rm -rf "$SAMPLE"
  mkdir -p "$SAMPLE"
  .venv/bin/tpchgen-cli parquet -s 0.01 --output-dir "$SAMPLE" >/dev/null
  touch "$SAMPLE/.complete"
fi
if [ -t 0 ] && [ -t 1 ]; then
  exec build/kestrel --data "$SAMPLE" "$@"
fi
echo "run: demo/tour.sql on $SAMPLE"
exec build/kestrel --data "$SAMPLE" --format aligned --timing -f demo/tour.sql "$@"
