#!/usr/bin/env bash
# Configures and builds Kestrel into build/ (Ninja, ccache, sm_90 unless KESTREL_CUDA_ARCHITECTURES says otherwise).
# Extra arguments go to ninja (targets, -j).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
BUILD_DIR=${KESTREL_BUILD_DIR:-build}
args=(-G Ninja -DKESTREL_CUDA_ARCHITECTURES="${KESTREL_CUDA_ARCHITECTURES:-90}")
[ -n "${KESTREL_BUILD_TYPE:-}" ] && args+=(-DCMAKE_BUILD_TYPE="$KESTREL_BUILD_TYPE")
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" "${args[@]}" >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
