#!/usr/bin/env bash
# README command 2: set up and build, then run every test (gtest binaries and
# the lit suite, through ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
BUILD_DIR=${TGPU_BUILD_DIR:-build}
cd "$BUILD_DIR"
ctest --output-on-failure -j"$(nproc)"
