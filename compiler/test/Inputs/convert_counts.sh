#!/usr/bin/env bash
# Every OURS_DIR/<stem>.<cfg>.ttgir must keep as many layout conversions as
# Triton's REF_DIR/<stem>.<cfg>.<stage>.ttgir (where a reference exists for
# that configuration); prints one line per file and a summary. A conversion
# is a ttg.convert_layout, or a ttg.local_alloc of a tensor: what
# tritongpu-reduce-data-duplication stages a conversion into a dot operand
# layout through (with the local_load that reads it back).
# usage: convert_counts.sh OURS_DIR REF_DIR STAGE STEM...
set -uo pipefail
ours=$1 ref=$2 stage=$3
shift 3
status=0 n=0 total=0
for stem in "$@"; do
  for f in "$ours/$stem".*.ttgir; do
    [ -f "$f" ] || { echo "FAIL (no output): $stem"; status=1; continue; }
    cfg=$(basename "$f" .ttgir)
    cfg=${cfg#"$stem".}
    r="$ref/$stem.$cfg.$stage.ttgir"
    [ -f "$r" ] || continue
    conversions='ttg.convert_layout\|ttg.local_alloc %[^ ]* : (tensor<'
    have=$(grep -c "$conversions" "$f")
    want=$(grep -c "$conversions" "$r")
    total=$((total + have))
    if [ "$have" != "$want" ]; then
      echo "FAIL: $stem $cfg keeps $have conversions, Triton $want"; status=1; continue
    fi
    echo "$stem $cfg: $have"
    n=$((n + 1))
  done
done
echo "$n outputs keep Triton's conversion count ($total in all)"
exit $status
