#!/usr/bin/env bash
# Every program tgpu-gen wrote to DIR parses, verifies and runs on the CPU
# oracle without undefined behaviour (its TTGIR variant too): a generated
# program the oracle rejects is a generator bug.
set -euo pipefail
dir=$1
n=0
while IFS='|' read -r stem file opts args; do
  stem=$(echo $stem)
  case "$stem" in \#*|"") continue ;; esac
  for f in "$dir/$(echo $file)" "$dir/$stem.ttgir"; do
    [ -f "$f" ] || continue
    tgpu-opt "$f" > /dev/null
    tgpu-run "$f" $opts -- $args
    n=$((n + 1))
  done
done < "$dir/run_args.txt"
echo "checked $n programs"
