#!/usr/bin/env bash
# On the GPU machine: runs every bundle made by make_bundles.sh with
# run_ptx.py and compares each buffer with the CPU oracle's
# (compare_buffers.py: integers exactly, floats within per-type bounds).
# Prints one line per kernel and exits nonzero if any differs.
# usage: check_bundles.sh BUNDLE_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
status=0
for d in "$1"/*/; do
  stem=$(basename "$d")
  IFS='|' read -r entry grid threads shared args < "$d/launch.txt"
  rm -rf "$d/out"
  # A hung kernel (a barrier not every thread reaches) must not stall the
  # rest: each run gets $TGPU_KERNEL_TIMEOUT seconds (default 60).
  if ! timeout "${TGPU_KERNEL_TIMEOUT:-60}" python3 "$here/run_ptx.py" "$d/kernel.ptx" --entry "$entry" --grid "$grid" \
        --threads "$threads" --shared "$shared" --inputs "$d/in" --out "$d/out" -- $args 2> "$d/gpu_error.txt"; then
    echo "FAIL $stem: $(tail -1 "$d/gpu_error.txt" | cut -c1-200)"; status=1; continue
  fi
  if detail=$(python3 "$here/compare_buffers.py" "$d/ref" "$d/out" $args); then
    echo "same $stem ${detail:+($detail)}"
  else
    echo "DIFF $stem: $detail"; status=1
  fi
done
exit $status
