#!/usr/bin/env bash
# Copies the built binaries into .device/bin (ignored by git) so a device run can carry just them:
# run the device tool with carry [".device"] and the command `bash scripts/device-test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KESTREL_BUILD_DIR:-build}
rm -rf .device/bin
mkdir -p .device/bin
for b in kestrel kestrel_unit_tests kestrel_gpu_tests kestrel-sqllogictest kestrel-parquet-cat kestrel-csv-cat; do
  [ -x "$BUILD_DIR/$b" ] && cp "$BUILD_DIR/$b" .device/bin/
done
strip --strip-debug .device/bin/* 2>/dev/null || true
du -sh .device/bin
