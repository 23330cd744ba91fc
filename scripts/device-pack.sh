#!/usr/bin/env bash
# Copies the built binaries (stripped) and nvCOMP's library into .device/bin (ignored by git) and packs them as
# .device/bin.tar.xz, the form that fits the device tool's carry limit: carry [".device"]; the device scripts
# unpack the tarball when they find it (scripts/device-validate.sh) or use .device/bin as it is.
# Arguments name the binaries to pack (default: the ones the device scripts run); libkestrel-cupti-trace.so may be
# one of them (bench/kernel_timeline.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KESTREL_BUILD_DIR:-build}
binaries=("$@")
((${#binaries[@]})) || binaries=(kestrel kestrel_gpu_tests kestrel-sqllogictest kestrel-gpu-scan-bench)
rm -rf .device/bin
mkdir -p .device/bin
for b in "${binaries[@]}"; do
  [ -x "$BUILD_DIR/$b" ] && cp "$BUILD_DIR/$b" .device/bin/
done
strip --strip-unneeded .device/bin/* 2>/dev/null || true
nvcomp=$(find -L .venv -name 'libnvcomp.so.6' 2>/dev/null | head -1)
[ -n "$nvcomp" ] && cp -L "$nvcomp" .device/bin/
# The kernel timeline library (tools/cupti_trace) needs the toolkit's CUPTI, which the GPU machine's image may lack.
if [ -f .device/bin/libkestrel-cupti-trace.so ]; then
  cupti=$(find -L /usr/local/cuda/lib /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI/lib64 -name 'libcupti.so.1[0-9]' \
    2>/dev/null | head -1 || true)
  [ -n "$cupti" ] && cp -L "$cupti" .device/bin/
fi
# Written aside and renamed, so that a device call starting meanwhile carries the previous tarball whole.
tar cf - -C .device bin | xz -T2 -6 >.device/bin.tar.xz.tmp
mv .device/bin.tar.xz.tmp .device/bin.tar.xz
rm -rf .device/bin
du -sh .device/bin.tar.xz
