#!/usr/bin/env bash
# tgpu's pipeliner against Triton 3.6's on the same kernels
# (corpus/kernels/triton_pipeline): for each <stem>.<target>.s<N>.pipeline.ttgir
# of REF_DIR with the target given, the structure (pipeline_structure.py) of
#  - pass:  tgpu's tritongpu-assign-latencies, -schedule-loops and -pipeline run
#           on Triton's own input to its pipeliner (<...>.pre-pipeline.ttgir), and
#  - ttir:  tgpu's whole TTIR -> TTGIR pipeline (prefetch off) run on the
#           kernel's TTIR (CORPUS_DIR/<stem>.ttir or CORPUS_DIR/triton/<stem>.ttir)
# must be Triton's. And where the kernel's loops have no stage count of
# their own (the pipeliner then leaves them unpipelined at 1 stage), tgpu's
# whole TTIR -> TTGIR pipeline at 1 stage must print as Triton's whole
# make_ttgir at 1 stage (<...>.s1.ttgir), up to SSA names and locations.
# usage: pipeline_as_triton.sh CORPUS_DIR REF_DIR TARGET
set -uo pipefail
corpus=$1 ref=$2 target=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
status=0
n=0
for want in "$ref"/*."${target/:/}".s*.pipeline.ttgir; do
  cfg=$(basename "$want" .pipeline.ttgir)
  stem=${cfg%%.*}
  stages=${cfg##*.s}
  warps=$(grep -o '"ttg.num-warps" = [0-9]*' "$want" | grep -o '[0-9]*$')
  ttir=$corpus/$stem.ttir
  [ -f "$ttir" ] || ttir=$corpus/triton/$stem.ttir
  if ! tgpu-opt "$ref/$cfg.pre-pipeline.ttgir" --tritongpu-assign-latencies=num-stages="$stages" \
      --tritongpu-schedule-loops --tritongpu-pipeline -o "$tmp/pass.ttgir"; then
    echo "FAIL (tgpu-opt on Triton's pipeliner input): $cfg"; status=1; continue
  fi
  if ! tgpu-opt "$ttir" --tgpu-ttir-pipeline \
      --tgpu-ttir-to-ttgir="target=$target num-warps=$warps num-stages=$stages prefetch=false" \
      -o "$tmp/ttir.ttgir"; then
    echo "FAIL (tgpu-opt on the TTIR): $cfg"; status=1; continue
  fi
  for how in pass ttir; do
    if ! diff=$("${PYTHON:-python3}" "$here/pipeline_structure.py" --compare "$want" "$tmp/$how.ttgir"); then
      echo "FAIL (structure differs from Triton's, $how): $cfg"; echo "$diff"; status=1; continue
    fi
    n=$((n + 1))
  done
  echo "$cfg: $("${PYTHON:-python3}" "$here/pipeline_structure.py" "$want" | grep -c 'pipelined loop') pipelined loops"
done
same=0
for want in "$ref"/*."${target/:/}".s1.ttgir; do
  cfg=$(basename "$want" .s1.ttgir)
  stem=${cfg%%.*}
  warps=$(grep -o '"ttg.num-warps" = [0-9]*' "$want" | grep -o '[0-9]*$')
  ttir=$corpus/$stem.ttir
  [ -f "$ttir" ] || ttir=$corpus/triton/$stem.ttir
  grep -q "tt.num_stages" "$ttir" && continue
  tgpu-opt "$ttir" --tgpu-ttir-pipeline \
      --tgpu-ttir-to-ttgir="target=$target num-warps=$warps num-stages=1 prefetch=false" \
      -o "$tmp/ours.ttgir" && tgpu-opt "$want" -o "$tmp/ref.ttgir" || {
    echo "FAIL (tgpu-opt): $cfg"; status=1; continue; }
  "${PYTHON:-python3}" "$here/normalize_ir.py" "$tmp/ref.ttgir" > "$tmp/ref.n"
  "${PYTHON:-python3}" "$here/normalize_ir.py" "$tmp/ours.ttgir" > "$tmp/ours.n"
  if ! diff -u "$tmp/ref.n" "$tmp/ours.n" > "$tmp/d"; then
    echo "FAIL (differs from Triton's make_ttgir output): $cfg"; head -12 "$tmp/d"; status=1; continue
  fi
  same=$((same + 1))
done
rm -rf "$tmp"
echo "$n pipelines structured as Triton's"
echo "$same modules print as Triton's make_ttgir output"
exit $status
