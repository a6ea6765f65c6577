#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages only) and configures + builds
# tgpu into build/. Safe to run again: installs nothing already there and
# rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 lld-22 libclang-rt-22-dev
          libfuzzer-22-dev librapidcheck-dev libgtest-dev googletest libbenchmark-dev
          libmimalloc-dev
          clang-format-22 ninja-build cmake ccache python3)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

BUILD_DIR=${TGPU_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
JOBS=${TGPU_JOBS:-$(nproc)}
cmake --build "$BUILD_DIR" -- -j"$JOBS"
