#!/usr/bin/env bash
# Our pass output OURS_DIR/<stem>.<cfg>.ttgir must print as Triton's
# REF_DIR/<stem>.<cfg>.<stage>.ttgir up to SSA names and locations, for each
# stem given and every configuration we produced.
# usage: same_as_triton.sh OURS_DIR REF_DIR STAGE STEM...
set -uo pipefail
ours=$1 ref=$2 stage=$3
shift 3
here=$(dirname "$0")
tmp=$(mktemp -d)
status=0
n=0
for stem in "$@"; do
  for f in "$ours/$stem".*.ttgir; do
    cfg=$(basename "$f" .ttgir)
    cfg=${cfg#"$stem".}
    r="$ref/$stem.$cfg.$stage.ttgir"
    [ -f "$r" ] || { echo "FAIL (no reference): $r"; status=1; continue; }
    tgpu-opt "$r" -o "$tmp/r.mlir"
    "${PYTHON:-python3}" "$here/normalize_ir.py" "$tmp/r.mlir" > "$tmp/r.n"
    "${PYTHON:-python3}" "$here/normalize_ir.py" "$f" > "$tmp/o.n"
    if ! diff -u "$tmp/r.n" "$tmp/o.n" > "$tmp/d"; then
      echo "FAIL (differs from Triton): $stem $cfg"; head -12 "$tmp/d"; status=1; continue
    fi
    n=$((n + 1))
  done
done
rm -rf "$tmp"
echo "$n outputs print as Triton's"
exit $status
