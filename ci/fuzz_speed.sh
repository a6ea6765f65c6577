#!/usr/bin/env bash
# Fuzzer throughput on one core: runs each target as one libFuzzer process
# (no fork) for --seconds on its seed corpus and prints execs/s from
# libFuzzer's final stats, next to the issue's goal. Uses the instrumented
# build ci/fuzz.sh makes (ASan + UBSan + coverage: what the campaign runs)
# and, with --plain, the uninstrumented replay drivers' rate on the seeds.
#
#   ci/fuzz_speed.sh [--seconds N] [--targets a,b]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=30
TARGETS="fuzz_ttir_parser,fuzz_layout_attr,fuzz_linear_layout,fuzz_pipeline"
while (($#)); do
  case "$1" in
    --seconds) SECONDS_PER=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) echo "ci/fuzz_speed.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
BUILD=${TGPU_FUZZ_BUILD_DIR:-build-fuzz}
IFS=',' read -r -a LIST <<< "$TARGETS"
[ -f "$BUILD/build.ninja" ] || { echo "ci/fuzz_speed.sh: no $BUILD; run ci/fuzz.sh once first" >&2; exit 2; }
cmake --build "$BUILD" --target "${LIST[@]}" -- -j"${TGPU_JOBS:-$(nproc)}" > /dev/null
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:detect_container_overflow=0}
declare -A GOAL=([fuzz_ttir_parser]=2000 [fuzz_layout_attr]=20000 [fuzz_linear_layout]=50000 [fuzz_pipeline]=50)
printf '%-20s %10s %10s %10s\n' target execs execs/s goal
for t in "${LIST[@]}"; do
  tmp=$(mktemp -d)
  cp -r "corpus/$t/." "$tmp/" 2>/dev/null || true
  dict=""; [ -f "fuzz/dicts/$t.dict" ] && dict="-dict=fuzz/dicts/$t.dict"
  log=$("$BUILD/bin/$t" -max_total_time="$SECONDS_PER" -print_final_stats=1 \
        -artifact_prefix="$tmp/" $dict "$tmp" 2>&1 || true)
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' <<< "$log" | tail -1)
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' <<< "$log" | tail -1)
  printf '%-20s %10s %10s %10s\n' "$t" "${execs:-?}" "${rate:-?}" "${GOAL[$t]}"
  rm -rf "$tmp"
done
