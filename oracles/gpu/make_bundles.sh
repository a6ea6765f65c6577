#!/usr/bin/env bash
# Compiles each kernel of corpus/kernels/run_args.txt (or the stems given) to
# PTX for sm_90 at $NUM_WARPS warps (default 4) with tgpu-compile and bundles it with its inputs and the CPU
# oracle's result, for oracles/gpu/check_bundles.sh to run on the GPU:
#   OUT/<stem>/kernel.ptx  launch.txt (entry|grid|threads|shared bytes|args)
#   OUT/<stem>/in/argK.bin (tgpu-run --dump-inputs)  ref/argK.bin (--dump)
# Kernels the compiler cannot lower yet are listed and skipped.
# usage: make_bundles.sh BUILD_DIR OUT [STEM...]
set -uo pipefail
build=$1 out=$2
shift 2
warps=${NUM_WARPS:-4}
here=$(cd "$(dirname "$0")" && pwd)
# RUN_ARGS: another run_args.txt (its files relative to its directory).
runargs=${RUN_ARGS:-$here/../../corpus/kernels/run_args.txt}
corpus=$(cd "$(dirname "$runargs")" && pwd)
mkdir -p "$out"
want=" $* "
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  IFS='|' read -r stem file opts args <<< "$line"
  stem=$(echo "$stem" | xargs); file=$(echo "$file" | xargs)
  [ $# -gt 0 ] && [[ "$want" != *" $stem "* ]] && continue
  d=$out/$stem
  rm -rf "$d"; mkdir -p "$d"
  # A TTGIR kernel carries its own ttg.num-warps.
  warpopt=(--num-warps "$warps")
  [[ "$file" == *.ttgir ]] && warpopt=()
  if ! "$build/bin/tgpu-compile" "$corpus/$file" --arch sm_90 "${warpopt[@]}" \
        -o "$d/kernel.ptx" --metadata "$d/meta.json" 2> "$d/error.txt"; then
    echo "skip $stem: $(grep -m1 'error' "$d/error.txt" | sed 's/.*error: //' | cut -c1-90)"
    rm -rf "$d"; continue
  fi
  read -r entry threads shared < <(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["kernel"], m["threads_per_cta"], m["shared_memory_bytes"])' "$d/meta.json")
  grid=$(echo "$opts" | sed -n 's/.*--grid \([0-9,]*\).*/\1/p')
  "$build/bin/tgpu-run" "$corpus/$file" $opts --dump-inputs "$d/in" --dump "$d/ref" -- $args > /dev/null ||
    { echo "skip $stem: tgpu-run failed"; rm -rf "$d"; continue; }
  echo "$entry|$grid|$threads|$shared|$args" > "$d/launch.txt"
  rm -f "$d/error.txt"
  echo "bundled $stem"
done < "$runargs"
