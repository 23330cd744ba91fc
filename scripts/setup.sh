#!/usr/bin/env bash
# Installs everything Kestrel needs to build and test on a Debian 12 machine: compilers' libraries from Debian
# packages and the Python tools into .venv. Idempotent: installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build ccache pkg-config python3-venv python3-dev
          libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libbrotli-dev
          libedit-dev libncurses-dev libbsd-dev libmd-dev
          libcli11-dev nlohmann-json3-dev libgtest-dev libgmock-dev
          libssl-dev openssl libre2-dev libutf8proc-dev postgresql-client tzdata)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc is at /usr/local/cuda/bin (scripts/build.sh adds it to PATH)"
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
if ! .venv/bin/python -m pip freeze 2>/dev/null | sort | diff -q - <(grep -v '^#' requirements.txt | sort) >/dev/null; then
  echo "setup: installing Python tools from requirements.txt"
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
fi
if [ ! -x .venv-tpcds/bin/python ]; then
  echo "setup: creating .venv-tpcds"
  python3 -m venv .venv-tpcds
fi
if ! .venv-tpcds/bin/python -m pip freeze 2>/dev/null | sort | diff -q - <(grep -v '^#' requirements-tpcds.txt | sort) >/dev/null; then
  echo "setup: installing the TPC-DS tools from requirements-tpcds.txt"
  .venv-tpcds/bin/python -m pip install -q --disable-pip-version-check -r requirements-tpcds.txt
fi
echo "setup: done"
