#!/usr/bin/env bash
# Runs tgpu-opt with the given pass options on every kernel of
# corpus/kernels/run_args.txt, writing OUT_DIR/<stem>.<tag>.ttgir.
# usage: run_pass_on_corpus.sh CORPUS_DIR OUT_DIR TAG tgpu-opt-args...
set -uo pipefail
corpus=$1 out=$2 tag=$3
shift 3
mkdir -p "$out"
status=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  IFS='|' read -r stem file _ <<< "$line"
  stem=$(echo "$stem" | xargs)
  file=$(echo "$file" | xargs)
  if ! tgpu-opt "$corpus/$file" "$@" -o "$out/$stem.$tag.ttgir"; then
    echo "FAIL (pass): $file"; status=1
  fi
done < "$corpus/run_args.txt"
exit $status
