#!/usr/bin/env bash
# README command 1: set up and build, then the main jobs on the bundled
# vector-add kernel: tgpu-opt parses, verifies and prints it; tgpu-run runs
# it on the CPU reference oracle (4 programs of 1024) and the sum is checked;
# tgpu-compile compiles it to PTX for sm_90 and says where it wrote it.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
BUILD_DIR=${TGPU_BUILD_DIR:-build}
INPUT=${1:-corpus/kernels/vector_add.ttir}
echo "== tgpu-opt $INPUT"
"$BUILD_DIR/bin/tgpu-opt" "$INPUT"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "== tgpu-run corpus/kernels/vector_add.ttir --grid 4 --dump $OUT -- ..."
"$BUILD_DIR/bin/tgpu-run" corpus/kernels/vector_add.ttir --grid 4 --dump "$OUT" -- \
  ptr:f32=rand:4096:1 ptr:f32=rand:4096:2 ptr:f32=zeros:4096 i32=4096
python3 compiler/test/Tools/tgpu-run/Inputs/check_vector_add.py "$OUT" 4096
PTX_DIR=${TGPU_QUICKSTART_OUT:-$BUILD_DIR/quickstart}
mkdir -p "$PTX_DIR"
echo "== tgpu-compile corpus/kernels/vector_add.ttir --arch sm_90 -o $PTX_DIR/vector_add.ptx"
"$BUILD_DIR/bin/tgpu-compile" corpus/kernels/vector_add.ttir --arch sm_90 \
  -o "$PTX_DIR/vector_add.ptx" --metadata "$PTX_DIR/vector_add.json"
grep -q '^\.visible \.entry vector_add' "$PTX_DIR/vector_add.ptx"
echo "wrote $PTX_DIR/vector_add.ptx (PTX for sm_90) and $PTX_DIR/vector_add.json (launch metadata)"
