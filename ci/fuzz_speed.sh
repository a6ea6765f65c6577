#!/usr/bin/env bash
# Fuzzer throughput on one core: runs each target as one libFuzzer process
# (no fork) for --seconds on its seed corpus and prints execs/s from
# libFuzzer's final stats, next to the goal. Uses the instrumented
# build ci/fuzz.sh makes (ASan + UBSan + coverage: what the campaign runs).
# --plain instead times the uninstrumented replay drivers of build/ (the same
# target functions, inputs read once and run round after round for --seconds)
# over a fixed input set: the parser's seeds, and for the generator-driven
# targets random inputs from a fixed seed (2 KiB each for fuzz_pipeline,
# whose seeds are too few to average over).
#
#   ci/fuzz_speed.sh [--seconds N] [--targets a,b] [--plain]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=30
TARGETS="fuzz_ttir_parser,fuzz_layout_attr,fuzz_linear_layout,fuzz_pipeline,fuzz_ttgir_mutate"
PLAIN=0
while (($#)); do
  case "$1" in
    --seconds) SECONDS_PER=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --plain) PLAIN=1; shift ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    *) echo "ci/fuzz_speed.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
IFS=',' read -r -a LIST <<< "$TARGETS"
declare -A GOAL=([fuzz_ttir_parser]=2000 [fuzz_layout_attr]=20000 [fuzz_linear_layout]=50000 [fuzz_pipeline]=50 [fuzz_ttgir_mutate]=20)

if [ "$PLAIN" = 1 ]; then
  [ -f build/build.ninja ] || { echo "ci/fuzz_speed.sh: no build/; run ci/test.sh first" >&2; exit 2; }
  cmake --build build --target $(printf '%s-replay ' "${LIST[@]}") -- -j"${TGPU_JOBS:-$(nproc)}" > /dev/null
  printf '%-20s %10s %10s %10s   (plain replay driver, one core)\n' target inputs execs/s goal
  for t in "${LIST[@]}"; do
    tmp=$(mktemp -d)
    case "$t" in
      fuzz_ttir_parser) cp corpus/$t/* "$tmp/" ;;
      # 100 mutants of each seed (what the libFuzzer binary's mutator makes).
      fuzz_ttgir_mutate) for f in corpus/$t/*; do
          build/bin/tgpu-gen --mutate "$f" --seed 1 --count 100 -o "$tmp/$(basename "$f")" > /dev/null
        done ;;
      fuzz_pipeline) python3 -c "
import random, sys; r = random.Random(1)
for i in range(100): open(f'$tmp/{i}', 'wb').write(bytes(r.getrandbits(8) for _ in range(2048)))" ;;
      *) python3 -c "
import random; r = random.Random(1)
for i in range(3000): open(f'$tmp/{i}', 'wb').write(bytes(r.getrandbits(8) for _ in range(r.randint(16, 512))))" ;;
    esac
    n=$(find "$tmp" -type f | wc -l)
    line=$(build/bin/$t-replay --repeat-for "$SECONDS_PER" "$tmp" 2>/dev/null | tail -1)
    rate=$(sed -nE 's/.* ([0-9]+) execs\/s$/\1/p' <<< "$line")
    printf '%-20s %10s %10s %10s\n' "$t" "$n" "${rate:-?}" "${GOAL[$t]}"
    rm -rf "$tmp"
  done
  exit 0
fi

BUILD=${TGPU_FUZZ_BUILD_DIR:-build-fuzz}
[ -f "$BUILD/build.ninja" ] || { echo "ci/fuzz_speed.sh: no $BUILD; run ci/fuzz.sh once first" >&2; exit 2; }
cmake --build "$BUILD" --target "${LIST[@]}" -- -j"${TGPU_JOBS:-$(nproc)}" > /dev/null
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:detect_container_overflow=0:malloc_context_size=4:quarantine_size_mb=64}
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
