#!/usr/bin/env bash
# For each file given: it must parse and verify, printing must be a fixed
# point (print -> parse -> print), and with --same-as-source the printed text
# must equal the source up to SSA names and locations (the source being what
# Triton printed).
set -uo pipefail
same=0
if [ "${1:-}" = "--same-as-source" ]; then same=1; shift; fi
here=$(dirname "$0")
status=0
tmp=$(mktemp -d)
for f in "$@"; do
  if ! tgpu-opt "$f" -mlir-print-debuginfo -o "$tmp/a.mlir"; then
    echo "FAIL (parse/verify): $f"; status=1; continue
  fi
  tgpu-opt "$tmp/a.mlir" -mlir-print-debuginfo -o "$tmp/b.mlir" || { echo "FAIL (reparse): $f"; status=1; continue; }
  if ! cmp -s "$tmp/a.mlir" "$tmp/b.mlir"; then
    echo "FAIL (not a fixed point): $f"; diff "$tmp/a.mlir" "$tmp/b.mlir" | head -5; status=1; continue
  fi
  if [ $same = 1 ]; then
    "${PYTHON:-python3}" "$here/normalize_ir.py" "$f" > "$tmp/src.n"
    "${PYTHON:-python3}" "$here/normalize_ir.py" "$tmp/a.mlir" > "$tmp/ours.n"
    if ! diff -u "$tmp/src.n" "$tmp/ours.n" > "$tmp/d"; then
      echo "FAIL (prints differently from the source): $f"; head -20 "$tmp/d"; status=1; continue
    fi
  fi
  echo "ok: $f"
done
rm -rf "$tmp"
exit $status
