#!/usr/bin/env bash
# Per-pass differential on the CPU oracle: for each kernel of
# corpus/kernels/run_args.txt, run its TTIR and each TTGIR made from it
# (files named <stem>.*.ttgir in DIR) and require bit-identical buffers --
# except for the TTGIR files whose tag (<stem>.TAG.ttgir) ends in ROUNDED_TAG:
# passes that split a dot along K round its partial sums, so their float
# buffers may differ by ULPS units in the last place (compare_dumps.py).
# usage: pass_differential.sh CORPUS_DIR DIR [ROUNDED_TAG ULPS]
set -uo pipefail
corpus=$1
dir=$2
rounded_tag=${3:-}
ulps=${4:-0}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
status=0
checked=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  IFS='|' read -r stem file opts args <<< "$line"
  stem=$(echo "$stem" | xargs)
  src=$corpus/$(echo "$file" | xargs)
  rm -rf "$tmp/ref"
  if ! tgpu-run "$src" $opts --dump "$tmp/ref" -- $args > /dev/null; then
    echo "FAIL (reference run): $src"; status=1; continue
  fi
  for out in "$dir"/"$stem".*.ttgir; do
    [ -f "$out" ] || continue
    rm -rf "$tmp/out"
    if ! tgpu-run "$out" $opts --dump "$tmp/out" -- $args > /dev/null; then
      echo "FAIL (run): $out"; status=1; continue
    fi
    if [ -n "$rounded_tag" ] && [[ "$out" == *"$rounded_tag.ttgir" ]]; then
      if ! why=$(python3 "$here/compare_dumps.py" --ulps "$ulps" "$tmp/ref" "$tmp/out" $args); then
        echo "FAIL (buffers differ from the TTIR's beyond $ulps ulps: $why): $out"; status=1; continue
      fi
    elif ! diff -r "$tmp/ref" "$tmp/out" > /dev/null; then
      echo "FAIL (buffers differ from the TTIR's): $out"; status=1; continue
    fi
    checked=$((checked + 1))
  done
done < "$corpus/run_args.txt"
rm -rf "$tmp"
echo "checked $checked TTGIR files"
exit $status
