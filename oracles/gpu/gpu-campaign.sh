#!/usr/bin/env bash
# The GPU machine's half of the GPU oracle: builds tgpu-gpu-run (CUDA driver
# API only, no LLVM), compiles tgpu's PTX into cubins with ptxas on every
# core (ptxas_images.py; the driver's JIT would compile them one worker at a
# time), optionally adds Triton's compilation of every kernel
# (add_triton_images.py, for the three-way comparison), runs every bundle
# and writes the report.
#
#   oracles/gpu/gpu-campaign.sh [--triton] [--triton-budget S] [--out DIR]
#                               [--no-ptxas] [--ptxas-timeout S]
#                               [--jobs N] [--timeout S] [--budget S] BUNDLE_DIR...
#
# --no-ptxas leaves the PTX to the driver's JIT (also when no ptxas is
# found); --ptxas-timeout (default 240) is the most one kernel's ptxas may
# take, after which its image is reported as TIMEOUT without a run.
# --out (default gpu-report/, or $OUT/ when that is set, as on the device
# machine) receives report.txt (the runner's output), report.json (every
# case), failed/ (the GPU buffers of failing images) and build.log.
# Exit status: the runner's (0 all passed, 1 some did not, 2 no GPU or bad
# bundles), or 3 when the build failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
triton=0
triton_budget=0
ptxas=1
ptxas_timeout=240
out=${OUT:-gpu-report}
runner_args=()
paths=()
while (($#)); do
  case "$1" in
    --triton) triton=1; shift ;;
    --triton-budget) triton=1; triton_budget=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --jobs|--timeout|--budget) runner_args+=("$1" "$2"); shift 2 ;;
    --no-ptxas) ptxas=0; shift ;;
    --ptxas-timeout) ptxas_timeout=$2; shift 2 ;;
    -h|--help) sed -n 2,23p "$0"; exit 0 ;;
    -*) echo "gpu-campaign.sh: unknown option '$1'" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -gt 0 ] || { echo "gpu-campaign.sh: no bundle folder given" >&2; exit 2; }
mkdir -p "$out"

# A fresh build folder unless TGPU_GPU_BUILD_DIR names one to reuse (a few
# seconds either way).
build=${TGPU_GPU_BUILD_DIR:-$(mktemp -d /tmp/tgpu-gpu-build.XXXXXX)}
if ! { cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"
  echo "gpu-campaign.sh: building tgpu-gpu-run failed (log: $out/build.log)" >&2
  exit 3
fi

if [ "$ptxas" = 1 ]; then
  # The GPU's target, for bundles made for an older one (sm_80 PTX).
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  device_arch=()
  [[ "$cap" =~ ^[0-9]+$ ]] && device_arch=(--device-arch "sm_$cap")
  if python3 "$here/ptxas_images.py" --kernel-timeout "$ptxas_timeout" "${device_arch[@]}" "${paths[@]}" > "$out/ptxas.txt" 2>&1; then
    head -1 "$out/ptxas.txt"
  else
    cat "$out/ptxas.txt"
    echo "gpu-campaign.sh: no cubins made; the driver's JIT compiles the PTX"
  fi
fi

if [ "$triton" = 1 ]; then
  start=$(date +%s)
  python3 "$here/add_triton_images.py" --budget "$triton_budget" "${paths[@]}" 2>&1 | tee "$out/triton.txt"
  echo "gpu-campaign.sh: Triton images in $(( $(date +%s) - start )) s"
fi

"$build/bin/tgpu-gpu-run" --quiet --json "$out/report.json" --save-failed "$out/failed" \
  "${runner_args[@]}" "${paths[@]}" 2>&1 | tee "$out/report.txt"
exit "${PIPESTATUS[0]}"
