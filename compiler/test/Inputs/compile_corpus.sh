#!/usr/bin/env bash
# Compiles every kernel of corpus/kernels/run_args.txt with tgpu-compile for
# ARCH (4 warps) into OUT_DIR/<stem>.ptx; when $PTXAS is set, ptxas must
# accept each PTX. Kernels named in EXPECTED_FAILURES (space-separated stems:
# ops the lowering does not have yet) must fail with a diagnostic, and only
# those. Prints one line per kernel and a summary.
# usage: compile_corpus.sh CORPUS_DIR OUT_DIR ARCH "EXPECTED_FAILURES"
set -uo pipefail
corpus=$1 out=$2 arch=$3 expected=" $4 "
mkdir -p "$out"
status=0 compiled=0 failed=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  IFS='|' read -r stem file _ <<< "$line"
  stem=$(echo "$stem" | xargs); file=$(echo "$file" | xargs)
  if tgpu-compile "$corpus/$file" --arch "$arch" --num-warps 4 -o "$out/$stem.ptx" \
       2> "$out/$stem.err"; then
    if [[ "$expected" == *" $stem "* ]]; then
      echo "FAIL (compiles now; drop it from the expected failures): $stem"; status=1
    fi
    # The PTX's own target: sm_90a where a kernel uses wgmma.
    target=$(grep -m1 -o '^\.target [a-z0-9_]*' "$out/$stem.ptx" | cut -d' ' -f2)
    if [ -n "${PTXAS:-}" ] && ! "$PTXAS" --gpu-name "${target:-$arch}" "$out/$stem.ptx" -o /dev/null; then
      echo "FAIL (ptxas rejects the PTX): $stem"; status=1; continue
    fi
    echo "compiled $stem"; compiled=$((compiled + 1))
  else
    rc=$?
    if [[ "$expected" != *" $stem "* ]]; then
      echo "FAIL (does not compile): $stem: $(grep -m1 error: "$out/$stem.err")"; status=1
    elif [ "$rc" != 1 ] || ! grep -q 'error:' "$out/$stem.err"; then
      echo "FAIL (no diagnostic, or exit $rc): $stem"; status=1
    else
      echo "not yet $stem: $(grep -m1 -o 'error: .*' "$out/$stem.err" | cut -c8-90)"
      failed=$((failed + 1))
    fi
  fi
done < "$corpus/run_args.txt"
echo "$compiled kernels compile for $arch, $failed not yet"
exit $status
