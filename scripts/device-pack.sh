#!/usr/bin/env bash
# Copies the built binaries (stripped) and nvCOMP's library into .device/bin (ignored by git) and packs them as
# .device/bin.tar.xz, the form that fits the device tool's carry limit: carry [".device"]; the device scripts
# unpack the tarball when they find it (scripts/device-validate.sh) or use .device/bin as it is.
# Arguments name the binaries to pack (default: the ones the device scripts run).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KESTREL_BUILD_DIR:-build}
binaries=("$@")
((${#binaries[@]})) || binaries=(kestrel kestrel_gpu_tests kestrel-sqllogictest kestrel-gpu-scan-bench)
rm -rf .device/bin .device/bin.tar.xz
mkdir -p .device/bin
for b in "${binaries[@]}"; do
  [ -x "$BUILD_DIR/$b" ] && cp "$BUILD_DIR/$b" .device/bin/
done
strip --strip-unneeded .device/bin/* 2>/dev/null || true
nvcomp=$(find -L .venv -name 'libnvcomp.so.6' 2>/dev/null | head -1)
[ -n "$nvcomp" ] && cp -L "$nvcomp" .device/bin/
tar cf - -C .device bin | xz -T2 -6 >.device/bin.tar.xz
rm -rf .device/bin
du -sh .device/bin.tar.xz
