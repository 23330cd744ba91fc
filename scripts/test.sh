#!/usr/bin/env bash
# Kestrel's whole test suite on a machine of the development kind (no GPU needed): sets up what is missing,
# builds, then runs the unit tests (ctest), the SQL corpus through the sqllogictest runner (cpu mode, and gpu mode,
# which reports its records as skipped when there is no GPU) and the end-to-end pytest suite. Ends with one line
# "total: N passed, N failed, N skipped" and exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
passed=0 failed=0 skipped=0
status=0

step() { printf '\n== %s\n' "$*"; }
add_counts() { passed=$((passed + ${1:-0})); failed=$((failed + ${2:-0})); skipped=$((skipped + ${3:-0})); }

step "setup"
scripts/setup.sh || { echo "setup failed"; exit 1; }
step "build"
scripts/build.sh -j"$(nproc)" || { echo "build failed"; exit 1; }

step "unit tests (ctest)"
log=$(mktemp)
ctest --test-dir build --output-on-failure -j"$(nproc)" >"$log" 2>&1
rc=$?
grep -E 'tests passed|tests failed|\*\*\*Failed|Exception|Not Run' "$log" | head -40
total=$(grep -oE 'out of [0-9]+' "$log" | grep -oE '[0-9]+' | tail -1)
bad=$(grep -oE 'tests passed, [0-9]+ tests failed' "$log" | grep -oE '[0-9]+ tests failed' | grep -oE '[0-9]+')
if [ -z "$total" ]; then echo "ctest printed no summary"; tail -20 "$log"; add_counts 0 1 0; status=1
else add_counts $((total - ${bad:-0})) "${bad:-0}" 0; fi
[ $rc -eq 0 ] || status=1

run_slt() {
  local mode=$1
  step "SQL corpus ($mode mode)"
  build/kestrel-sqllogictest --mode "$mode" test/sql >"$log" 2>&1
  local rc=$?
  grep -vE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -30
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
  echo "$line"
  if [ -z "$line" ]; then echo "the runner printed no summary"; add_counts 0 1 0; status=1; return; fi
  read -r p _ f _ s _ <<<"${line//,/}"
  add_counts "$p" "$f" "$s"
  [ $rc -eq 0 ] || status=1
}
if [ -x build/kestrel-sqllogictest ]; then
  run_slt cpu
  run_slt gpu
else
  echo "build/kestrel-sqllogictest is missing"; add_counts 0 1 0; status=1
fi

step "shared SQL corpus (../shared/sqllogictest, cpu mode, as postgresql)"
shared_corpus=${KESTREL_SHARED_DIR:-../shared}/sqllogictest
if [ -d "$shared_corpus" ] && [ -x build/kestrel-sqllogictest ]; then
  build/kestrel-sqllogictest --mode cpu "$shared_corpus" >"$log" 2>&1
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
  echo "$line"
  if [ -z "$line" ]; then
    echo "the runner printed no summary"; add_counts 0 1 0; status=1
  else
    read -r p f s <<<"$(sed -E 's/([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped/\1 \2 \3/' <<<"$line")"
    known=test/sql/shared_corpus_differences.txt
    failed_records=$(grep -oE '^FAILED [^ ]+:[0-9]+' "$log" | sed -E 's#^FAILED .*/##' | sort)
    expected_records=$(grep -vE '^#|^$' "$known" | awk '{print $1}' | sort)
    unexpected=$(comm -23 <(echo "$failed_records") <(echo "$expected_records") | grep -v '^$')
    now_passing=$(comm -13 <(echo "$failed_records") <(echo "$expected_records") | grep -v '^$')
    known_count=$(comm -12 <(echo "$failed_records") <(echo "$expected_records") | grep -vc '^$')
    echo "$known_count known differences from the files' SQLite expectations (listed with reasons in $known)"
    add_counts "$p" 0 "$((s + known_count))"
    if [ -n "$unexpected" ]; then
      echo "unexpected failures:"; echo "$unexpected"; grep -A8 -F -f <(sed 's/^/FAILED /' <<<"$unexpected" | sed 's#FAILED #/#') "$log" | head -60
      add_counts 0 "$(wc -l <<<"$unexpected")" 0; status=1
    fi
    if [ -n "$now_passing" ]; then
      echo "listed differences that now pass (remove them from $known):"; echo "$now_passing"; status=1
    fi
    total_records=$((p + f))
    [ "$total_records" -gt 0 ] && echo "pass rate: $(( 10000 * p / total_records / 100 )).$(( 10000 * p / total_records % 100 ))%"
  fi
else
  echo "no shared corpus at $shared_corpus"
fi

step "end-to-end tests (pytest)"
.venv/bin/python -m pytest test/py -q -p no:cacheprovider >"$log" 2>&1
rc=$?
tail -15 "$log"
line=$(tail -1 "$log")
p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+'); f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
e=$(grep -oE '[0-9]+ error' <<<"$line" | grep -oE '[0-9]+'); s=$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+')
add_counts "${p:-0}" $(( ${f:-0} + ${e:-0} )) "${s:-0}"
if [ $rc -ne 0 ] && [ $rc -ne 5 ]; then status=1; fi
[ $rc -eq 5 ] && echo "pytest collected no tests"
rm -f "$log"

if [ -x scripts/fuzz-parquet.sh ]; then
  step "Parquet fuzzing (bounded)"
  if scripts/fuzz-parquet.sh "${KESTREL_FUZZ_SECONDS:-60}"; then add_counts 1 0 0; else add_counts 0 1 0; status=1; fi
fi

echo
echo "test suite took $(( $(date +%s) - start )) s"
echo "total: $passed passed, $failed failed, $skipped skipped"
[ $status -eq 0 ] && [ $failed -eq 0 ]
