#!/usr/bin/env bash
# On the GPU machine: times tgpu's vector_add (corpus/kernels/vector_add.ttir,
# BLOCK 1024, 4 warps, compiled into BUNDLE_DIR/vector_add/kernel.ptx) and
# Triton's own kernel for the same program on N float32 elements, both
# launched back to back and timed with CUDA events, and prints a table.
# usage: bench_vector_add.sh BUNDLE_DIR [N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${2:-67108864}
grid=$(( (n + 1023) / 1024 ))
ours=$(python3 "$here/run_ptx.py" "$1/vector_add/kernel.ptx" --entry vector_add --grid $grid \
  --threads 128 --inputs /dev/null --out /dev/null --bench 100 -- \
  ptr:f32=rand:$n ptr:f32=rand:$n ptr:f32=zeros:$n i32=$n | awk '{print $1}')
theirs=$(python3 "$here/triton_vector_add.py" "$n")
bytes=$(( 3 * 4 * n ))
printf "| kernel | N | tgpu (us) | Triton 3.6 (us) | tgpu GB/s | Triton GB/s | tgpu / Triton |\n|---|---|---|---|---|---|---|\n"
python3 -c "o=$ours; t=$theirs; b=$bytes; print('| vector_add f32 | $n | %.1f | %.1f | %.0f | %.0f | %.3f |' % (o, t, b/o/1e3, b/t/1e3, o/t))"
