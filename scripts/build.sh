#!/usr/bin/env bash
# Configures and builds Kestrel into build/ (Ninja, ccache, sm_90 unless KESTREL_CUDA_ARCHITECTURES says otherwise).
# The Python module (build/python/kestrel) is built too when .venv has nanobind (scripts/setup.sh installs it) unless
# KESTREL_BUILD_PYTHON=OFF. Extra arguments go to ninja (targets, -j).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
BUILD_DIR=${KESTREL_BUILD_DIR:-build}
args=(-G Ninja -DKESTREL_CUDA_ARCHITECTURES="${KESTREL_CUDA_ARCHITECTURES:-90}")
[ -n "${KESTREL_BUILD_TYPE:-}" ] && args+=(-DCMAKE_BUILD_TYPE="$KESTREL_BUILD_TYPE")
python_module=OFF
if [ "${KESTREL_BUILD_PYTHON:-AUTO}" != OFF ] && [ -x .venv/bin/python ] && .venv/bin/python -c "import nanobind" 2>/dev/null
then
  python_module=ON
  args+=(-DKESTREL_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PWD/.venv/bin/python")
fi
# Configure a new build folder, and an old one that does not build the Python module yet.
if [ ! -f "$BUILD_DIR/build.ninja" ] ||
   { [ $python_module = ON ] && ! grep -q '^KESTREL_BUILD_PYTHON:BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; }; then
  cmake -S . -B "$BUILD_DIR" "${args[@]}" >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
