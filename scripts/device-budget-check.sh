#!/usr/bin/env bash
# TPC-H under a GPU memory budget, on the GPU machine: every query at SF (default 100) with gpu_cache off, fallback
# off and gpu_memory_mb = BUDGET (default 24000), its answer compared with the same query's answer without the
# budget. Prints per query "ok", "differs" or the error (an operator whose own state does not fit must fail with a
# clean out-of-memory error naming it), and the times. Expects TPC-H data in /tmp/tpch-sf$SF (as
# scripts/device-scan-profile.sh generates it) and the binaries in /tmp/bin.
#   bash scripts/device-budget-check.sh [SF] [BUDGET_MB] [QUERIES]
set -uo pipefail
cd "$(dirname "$0")/.."
SF=${1:-100} BUDGET=${2:-24000} QUERIES=${3:-$(seq -s ' ' 1 22)}
DATA=/tmp/tpch-sf$SF OUTDIR=${OUT:-/tmp}/budget
mkdir -p "$OUTDIR"
export PYTHONPATH=/tmp/devsite:${PYTHONPATH:-}
ok=0 bad=0
for q in $QUERIES; do
  qq=$(printf %02d "$q")
  sql=$(python3 -c "import sys; sys.path.insert(0, 'test/py'); import tpch_support as t; print(t.query_text($q, float('$SF')))")
  for mode in full budget; do
    settings="SET gpu_cache = false;"
    [ $mode = budget ] && settings+=" SET gpu_memory_mb = $BUDGET;"
    start=$EPOCHREALTIME
    /tmp/bin/kestrel --data "$DATA" --device gpu --no-gpu-fallback --format csv -c "$settings $sql" \
      >"$OUTDIR/q$qq-$mode.csv" 2>"$OUTDIR/q$qq-$mode.err"
    echo $? >"$OUTDIR/q$qq-$mode.rc"
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }' >"$OUTDIR/q$qq-$mode.s"
  done
  t="full $(cat "$OUTDIR/q$qq-full.s") s, budget $(cat "$OUTDIR/q$qq-budget.s") s, with process start"
  if [ "$(cat "$OUTDIR/q$qq-budget.rc")" != 0 ]; then
    echo "q$qq failed under the budget ($t): $(tail -1 "$OUTDIR/q$qq-budget.err")"
    bad=$((bad + 1))
  elif [ "$(cat "$OUTDIR/q$qq-full.rc")" != 0 ]; then
    echo "q$qq failed without the budget ($t): $(tail -1 "$OUTDIR/q$qq-full.err")"
    bad=$((bad + 1))
  elif cmp -s "$OUTDIR/q$qq-full.csv" "$OUTDIR/q$qq-budget.csv"; then
    echo "q$qq ok ($t, $(($(wc -l <"$OUTDIR/q$qq-full.csv") - 1)) rows)"
    ok=$((ok + 1))
  else
    echo "q$qq differs ($t)"
    bad=$((bad + 1))
  fi
done
echo "budget $BUDGET MiB: $ok ok, $bad not"
