#!/usr/bin/env bash
# README command 2: set up and build, then run every test (gtest binaries and
# the lit suite, through ctest), and check that the GPU runner's standalone
# project (what the GPU machine builds) configures twice and builds.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
BUILD_DIR=${TGPU_BUILD_DIR:-build}
gpu_build=$(mktemp -d)
trap 'rm -rf "$gpu_build"' EXIT
log=$gpu_build/ci.log
for pass in 1 2; do
  cmake -S oracles/gpu -B "$gpu_build" -DCMAKE_BUILD_TYPE=Release > "$log" 2>&1 ||
    { cat "$log"; echo "ci/test.sh: oracles/gpu does not configure (pass $pass)" >&2; exit 1; }
done
cmake --build "$gpu_build" -j"$(nproc)" > "$log" 2>&1 ||
  { cat "$log"; echo "ci/test.sh: oracles/gpu does not build standalone" >&2; exit 1; }
cd "$BUILD_DIR"
ctest --output-on-failure -j"$(nproc)"
