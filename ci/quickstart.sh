#!/usr/bin/env bash
# README command 1: set up and build, then the main job on the bundled
# default input: tgpu-opt parses, verifies and prints a vector-add kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
BUILD_DIR=${TGPU_BUILD_DIR:-build}
INPUT=${1:-corpus/kernels/vector_add.ttir}
echo "== tgpu-opt $INPUT"
"$BUILD_DIR/bin/tgpu-opt" "$INPUT"
