#!/usr/bin/env bash
# Runs tgpu-opt with the given pass options on every Triton 3.6 dump
# REF_DIR/<stem>.<cfg>.<STAGE>.ttgir (the input Triton gave its next pass),
# writing OUT_DIR/<stem>.<cfg>.ttgir for same_as_triton.sh and
# pass_differential.sh.
# usage: run_pass_on_triton_stage.sh REF_DIR OUT_DIR STAGE tgpu-opt-args...
set -uo pipefail
ref=$1 out=$2 stage=$3
shift 3
mkdir -p "$out"
status=0
n=0
for f in "$ref"/*."$stage".ttgir; do
  [ -f "$f" ] || continue
  name=$(basename "$f" ".$stage.ttgir")
  if ! tgpu-opt "$f" "$@" -o "$out/$name.ttgir"; then
    echo "FAIL (pass): $f"; status=1; continue
  fi
  n=$((n + 1))
done
echo "ran on $n inputs"
exit $status
