#!/usr/bin/env bash
# Builds the libFuzzer target over Kestrel's Parquet decoders and the kcol reader (test/fuzz/fuzz_parquet.cpp) with clang, ASan and
# UBSan in build-fuzz/, replays every input in test/fuzz/parquet_regressions/, then fuzzes for a bounded time over a
# corpus seeded from ../shared/parquet-testing.
#
#   scripts/fuzz-parquet.sh [SECONDS]     (default 60)
#
# Exit status 0 when nothing crashed; otherwise non-zero, with each crashing input copied into
# test/fuzz/parquet_regressions/ (commit it with the fix). Safe to call from the test suite: time and memory are
# bounded and it never asks for input.
set -euo pipefail

seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
regressions=$root/test/fuzz/parquet_regressions
shared=$root/../shared/parquet-testing

if ! command -v clang++ >/dev/null; then
  echo "fuzz-parquet: clang++ not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi

mkdir -p "$build"
cmake -S "$root/test/fuzz" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  >"$build/cmake.log" 2>&1 || { cat "$build/cmake.log" >&2; exit 2; }
ninja -C "$build" -j2 fuzz_parquet >"$build/ninja.log" 2>&1 || { tail -50 "$build/ninja.log" >&2; exit 2; }
fuzzer=$build/fuzz_parquet
limits=(-timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=1024)

# Replay the regressions first: each must run clean.
mkdir -p "$regressions"
shopt -s nullglob
replay=("$regressions"/*)
if ((${#replay[@]} > 0)); then
  "$fuzzer" "${limits[@]}" "${replay[@]}" >"$build/replay.log" 2>&1 || {
    tail -40 "$build/replay.log" >&2
    echo "fuzz-parquet: a regression input crashes again" >&2
    exit 1
  }
fi

# Seeds: every parquet-testing file as a whole file (mode byte 0) and as a footer (mode byte 1).
corpus=$build/corpus
if [[ ! -d $corpus ]]; then
  mkdir -p "$corpus"
  n=0
  for f in "$shared"/data/*.parquet "$shared"/bad_data/*.parquet; do
    n=$((n + 1))
    { printf '\x00'; cat "$f"; } >"$corpus/file_$n"
    size=$(stat -c %s "$f")
    if ((size > 12)); then
      footer=$(od -An -t u4 -j $((size - 8)) -N 4 "$f" | tr -d ' ')
      if ((footer > 0 && footer < size - 8)); then
        { printf '\x01'; tail -c $((footer + 8)) "$f" | head -c "$footer"; } >"$corpus/footer_$n"
      fi
    fi
  done
fi
# kcol files (mode byte 'K'), kept small in test/fuzz/kcol_seeds.
for f in "$root"/test/fuzz/kcol_seeds/*.kcol; do
  { printf 'K'; cat "$f"; } >"$corpus/kcol_$(basename "$f" .kcol)"
done

artifacts=$build/artifacts
rm -rf "$artifacts"
mkdir -p "$artifacts"
status=0
"$fuzzer" "${limits[@]}" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$corpus" "$regressions" >"$build/fuzz.log" 2>&1 || status=$?
tail -15 "$build/fuzz.log"
found=()
for a in "$artifacts"/*; do
  # A timeout on a loaded machine is confirmed by replaying the input alone before it counts.
  if [[ $(basename "$a") == timeout-* ]] && timeout 60 "$fuzzer" -timeout=30 "$a" >/dev/null 2>&1; then
    echo "fuzz-parquet: $(basename "$a") ran in time when replayed alone (machine load); not a regression" >&2
    continue
  fi
  found+=("$a")
done
if [[ $status != 0 && ${#found[@]} == 0 ]] && ! grep -q "timeout after" "$build/fuzz.log"; then
  found+=("(no input saved)")
fi
if ((${#found[@]} > 0)); then
  for a in "${found[@]}"; do
    [[ -f $a ]] || continue
    cp "$a" "$regressions/$(basename "$a")"
    echo "fuzz-parquet: crashing input saved as test/fuzz/parquet_regressions/$(basename "$a")" >&2
  done
  grep -m1 -A25 "ERROR\|==ERROR\|runtime error\|deadly signal" "$build/fuzz.log" >&2 || true
  exit 1
fi
echo "fuzz-parquet: no crash in ${seconds}s"
