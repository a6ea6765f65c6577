#!/usr/bin/env bash
# Continuous fuzzing: builds the libFuzzer targets (ASan + UBSan, build-fuzz/),
# runs each in fork mode on its corpus, merges new units back into
# corpus/<target>/, deduplicates findings by signature and writes new ones to
# corpus/regressions/<target>/ (never deleting a file), prints a live progress
# line and a final table, and exits 1 when a new finding appeared.
#
#   ci/fuzz.sh [--budget SECONDS] [--jobs N] [--targets a,b] [--no-merge]
#              [--runs a=N,b=M,...] [--seed S]
#
# --budget is per target (default 60). --jobs is libFuzzer's -fork (default:
# the core count). --runs switches to a reproducible smoke: one process per
# target, libFuzzer -seed=S (default 1), N executions instead of a time
# budget, the checked-in corpus only, no address randomisation, stopping at
# the first crash: what .ci/run uses, so a developer can run CI's smoke.
# TGPU_FUZZ_BUILD_DIR sets the build folder, TGPU_FUZZ_OUT where logs and
# crash artifacts go (default build-fuzz/campaign). Units that crash in a fork job but pass alone are
# listed as unreproducible (artifact kept) and do not fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BUDGET=60
JOBS=$(nproc)
TARGETS="fuzz_ttir_parser,fuzz_layout_attr,fuzz_linear_layout,fuzz_pipeline,fuzz_ttgir_mutate"
MERGE=1
RUNS=""
SEED=1
while (($#)); do
  case "$1" in
    --budget) BUDGET=$2; shift 2 ;;
    --budget=*) BUDGET=${1#*=}; shift ;;
    --jobs) JOBS=$2; shift 2 ;;
    --jobs=*) JOBS=${1#*=}; shift ;;
    --targets) TARGETS=$2; shift 2 ;;
    --targets=*) TARGETS=${1#*=}; shift ;;
    --no-merge) MERGE=0; shift ;;
    --runs) RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#*=}; shift ;;
    --seed) SEED=$2; shift 2 ;;
    --seed=*) SEED=${1#*=}; shift ;;
    -h|--help) sed -n 2,19p "$0"; exit 0 ;;
    *) echo "ci/fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$BUDGET" =~ ^[0-9]+$ && "$BUDGET" -ge 1 ]] || { echo "ci/fuzz.sh: --budget needs a positive number of seconds" >&2; exit 2; }
[[ "$JOBS" =~ ^[0-9]+$ && "$JOBS" -ge 1 ]] || { echo "ci/fuzz.sh: --jobs needs a positive count" >&2; exit 2; }
[[ "$SEED" =~ ^[0-9]+$ && "$SEED" -ge 1 ]] || { echo "ci/fuzz.sh: --seed needs a positive number" >&2; exit 2; }
declare -A RUNS_OF
if [ -n "$RUNS" ]; then
  IFS=',' read -r -a pairs <<< "$RUNS"
  for p in "${pairs[@]}"; do
    [[ "$p" =~ ^([a-z_]+)=([0-9]+)$ ]] || { echo "ci/fuzz.sh: --runs wants target=count pairs, got '$p'" >&2; exit 2; }
    RUNS_OF[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
  done
fi

CLANG=/usr/bin/clang++-22
if [ ! -x "$CLANG" ] || [ ! -f "$(ls /usr/lib/llvm-22/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -1)" ]; then
  echo "ci/fuzz.sh: needs clang-22 with libFuzzer (clang-22, libclang-rt-22-dev); run ci/setup.sh" >&2
  exit 2
fi

BUILD=${TGPU_FUZZ_BUILD_DIR:-build-fuzz}
OUT=${TGPU_FUZZ_OUT:-$BUILD/campaign}
IFS=',' read -r -a TARGET_LIST <<< "$TARGETS"
for t in "${TARGET_LIST[@]}"; do
  case "$t" in
    fuzz_ttir_parser|fuzz_layout_attr|fuzz_linear_layout|fuzz_pipeline|fuzz_ttgir_mutate) ;;
    *) echo "ci/fuzz.sh: unknown target '$t'" >&2; exit 2 ;;
  esac
  if [ -n "$RUNS" ] && [ -z "${RUNS_OF[$t]:-}" ]; then
    echo "ci/fuzz.sh: --runs gives no count for $t (name it, or leave it out of --targets)" >&2; exit 2
  fi
done

if [ ! -f "$BUILD/build.ninja" ]; then
  mkdir -p "$BUILD"
  cmake -G Ninja -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTGPU_ENABLE_FUZZERS=ON -DCMAKE_C_COMPILER=/usr/bin/clang-22 \
    -DCMAKE_CXX_COMPILER="$CLANG" > "$BUILD/configure.log" 2>&1 ||
    { cat "$BUILD/configure.log"; exit 1; }
fi
echo "ci/fuzz.sh: building ${TARGET_LIST[*]} in $BUILD"
cmake --build "$BUILD" --target "${TARGET_LIST[@]}" tgpu-gen tgpu-repro -- -j"${TGPU_JOBS:-$(nproc)}" > "$BUILD/fuzz-build.log" 2>&1 ||
  { tail -40 "$BUILD/fuzz-build.log"; exit 1; }

# Leaks: the targets keep one MLIR context per process on purpose.
# Container-overflow: libLLVM/libMLIR are not instrumented, and their inline
# std::vector code would give false reports.
# malloc_context_size / quarantine: see fuzz/targets/LibFuzzerEntry.cpp.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:detect_container_overflow=0:malloc_context_size=4:quarantine_size_mb=64:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$OUT"
NEW_TOTAL=0
declare -a ROWS

# The signature of a crash input: the tgpu finding line, else the first
# three frames of our code in the sanitizer's stack, else the report title.
signature_of() { # target input -> "kind<TAB>signature"
  local target=$1 input=$2 log rc=0
  log=$(timeout 120 "$BUILD/bin/$target" "$input" 2>&1) || rc=$?
  # A unit that passes when run alone crashed only through state left by
  # earlier units of its fork job (or memory past the input): not a
  # regression file, but reported, with the artifact kept.
  if [ "$rc" = 0 ]; then
    printf 'unreproducible\t-\n'
    return
  fi
  [ "$rc" = 124 ] && { printf 'timeout\treplay took over 120 s\n'; return; }
  if grep -q '==tgpu-finding==' <<< "$log"; then
    grep -m1 '==tgpu-finding==' <<< "$log" |
      sed -E 's/.*kind=([^ ]*) signature=(.*)/\1\t\2/'
    return
  fi
  local title frames
  title=$(grep -m1 -oE 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer): [a-zA-Z-]+|runtime error: [^0-9]*' <<< "$log" || true)
  frames=$(grep -E '^ *#[0-9]+ 0x[0-9a-f]+ in ' <<< "$log" |
    grep -vE 'in (__sanitizer|__asan|__ubsan|fuzzer::|std::|abort|raise|__libc|__GI_|gsignal|llvm::sys::|SignalHandler|LLVMFuzzerTestOneInput)' |
    sed -E 's/\(anonymous namespace\):://g' |
    head -3 | sed -E 's/.* in ([^ (]+).*/\1/' | paste -sd'|' - || true)
  [ -z "$title" ] && title="crash"
  printf 'crash\t%s %s\n' "$(sed 's/ERROR: //' <<< "$title")" "$frames"
}

# Writes a regression file unless one with this signature exists. For
# fuzz_pipeline the program is kept as TTIR or TTGIR text when that
# reproduces (readable, and stable when the generator changes), except for
# generator bugs: their text is the invalid program itself, which would
# never parse; the bytes replay through the fixed generator.
record_finding() { # target input kind signature -> 0 new / 1 known
  local target=$1 input=$2 kind=$3 sig=$4 dir="corpus/regressions/$1"
  mkdir -p "$dir"
  if grep -rqsF "signature=$sig" "$dir" 2>/dev/null; then return 1; fi
  local hash name
  hash=$(printf '%s' "$sig" | sha1sum | cut -c1-10)
  name="$dir/$kind-$hash"
  if [ "$target" = fuzz_pipeline ] && [[ "$kind" != generator-* ]]; then
    local tmp; tmp=$(mktemp -d)
    "$BUILD/bin/tgpu-gen" --from-bytes "$input" -o "$tmp" --ttgir > /dev/null 2>&1 || true
    local stem; stem=$(basename "$input")
    for k in ttir ttgir; do
      if [ -f "$tmp/$stem.$k" ] && ! "$BUILD/bin/tgpu-repro" --quiet --input "$k" \
            --target fuzz_pipeline "$tmp/$stem.$k" > /dev/null 2>&1; then
        { printf '// tgpu-regression: target=%s kind=%s input=%s signature=%s\n' "$target" "$kind" "$k" "$sig"
          cat "$tmp/$stem.$k"; } > "$name.$k"
        rm -rf "$tmp"
        echo "$name.$k"
        return 0
      fi
    done
    rm -rf "$tmp"
  fi
  if [ "$target" = fuzz_ttgir_mutate ]; then
    # Its inputs are TTIR/TTGIR text already.
    local k=ttir
    grep -q '"ttg.num-warps"' "$input" && k=ttgir
    { printf '// tgpu-regression: target=%s kind=%s input=%s signature=%s\n' "$target" "$kind" "$k" "$sig"
      cat "$input"; } > "$name.$k"
    echo "$name.$k"
    return 0
  fi
  { printf '// tgpu-regression: target=%s kind=%s input=bytes signature=%s\n' "$target" "$kind" "$sig"
    cat "$input"; } > "$name"
  echo "$name"
  return 0
}

for t in "${TARGET_LIST[@]}"; do
  work="$OUT/$t"
  # Artifacts of an earlier campaign were either recorded or reported then.
  # A reproducible smoke starts from the checked-in corpus alone.
  rm -rf "$work/artifacts"
  [ -n "$RUNS" ] && rm -rf "$work/new-corpus"
  mkdir -p "$work/new-corpus" "$work/artifacts" "corpus/$t"
  dict=""
  [ -f "fuzz/dicts/$t.dict" ] && dict="-dict=fuzz/dicts/$t.dict"
  log="$work/fuzz.log"
  start=$(date +%s)
  # Fork mode keeps going past crashes; each is saved under artifacts/.
  launcher=()
  if [ -n "$RUNS" ]; then
    mode=(-seed="$SEED" -runs="${RUNS_OF[$t]:-0}")
    # Without address randomisation, pointer-keyed hash maps in MLIR iterate
    # alike from run to run, and so does the coverage libFuzzer steers by.
    if setarch "$(uname -m)" -R true 2>/dev/null; then launcher=(setarch "$(uname -m)" -R); fi
  else
    mode=(-fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$BUDGET")
  fi
  ( "${launcher[@]}" "$BUILD/bin/$t" "${mode[@]}" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/" $dict "$work/new-corpus" "corpus/$t" \
      > "$log" 2>&1 ) &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    line=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<< "$line")
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<< "$line")
    crashes=$(ls "$work/artifacts" 2>/dev/null | grep -vc '^slow-unit-' || true)
    printf '\r[%s] %4ss  execs %-9s cov %-6s crashes %-3s' "$t" "$(( $(date +%s) - start ))" "${execs:-0}" "${cov:-?}" "$crashes"
  done
  wait "$pid" || true
  elapsed=$(( $(date +%s) - start ))
  printf '\n'
  line=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<< "$line"); execs=${execs:-0}
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<< "$line"); cov=${cov:-?}

  if [ "$MERGE" = 1 ] && [ -n "$(ls "$work/new-corpus" 2>/dev/null)" ]; then
    "$BUILD/bin/$t" -merge=1 -timeout=30 "corpus/$t" "$work/new-corpus" > "$work/merge.log" 2>&1 || true
  fi
  # The campaign's corpus (libFuzzer's last count) and what corpus/ keeps
  # (the same after a merge; the checked-in seeds alone with --no-merge).
  corpus=$(sed -nE 's/.*corp: ([0-9]+).*/\1/p' <<< "$line"); corpus=${corpus:-?}
  kept=$(ls "corpus/$t" | wc -l)

  new=0 flaky=0 slow=0
  for a in "$work"/artifacts/*; do
    [ -f "$a" ] || continue
    # libFuzzer keeps a unit that ran past -report_slow_units (10 s) as
    # slow-unit-*: not a crash. Reported with its time alone, kept.
    if [[ "$(basename "$a")" == slow-unit-* ]]; then
      t0=$(date +%s%N)
      timeout 120 "$BUILD/bin/$t" "$a" > /dev/null 2>&1 || true
      echo "  SLOW $t: $a ran over 10 s in its fork job, $(( ($(date +%s%N) - t0) / 1000000 )) ms alone"
      slow=$((slow + 1))
      continue
    fi
    IFS=$'\t' read -r kind sig < <(signature_of "$t" "$a")
    [ -z "${sig:-}" ] && continue
    if [ "$kind" = unreproducible ]; then
      echo "  UNREPRODUCIBLE $t: $a crashed in its fork job but passes alone"
      flaky=$((flaky + 1))
      continue
    fi
    if file=$(record_finding "$t" "$a" "${kind:-crash}" "$sig"); then
      echo "  NEW $t: ${kind:-crash}: $sig -> $file"
      new=$((new + 1))
    fi
  done
  NEW_TOTAL=$((NEW_TOTAL + new))
  rate=$(( elapsed > 0 ? execs / elapsed : execs ))
  ROWS+=("$(printf '%-20s %8s %10s %10s %8s %8s %8s %6s %7s %5s' "$t" "${elapsed}s" "$execs" "$rate" "$cov" "$corpus" "$kept" "$new" "$flaky" "$slow")")
done

printf '\n%-20s %8s %10s %10s %8s %8s %8s %6s %7s %5s\n' target time execs execs/s cov corpus in-repo new unrepro slow
for r in "${ROWS[@]}"; do echo "$r"; done
if [ -n "$RUNS" ]; then
  echo "(reproducible smoke: one process per target, -seed=$SEED)"
else
  echo "(fork mode with $JOBS jobs; execs/s counts all jobs)"
fi
if [ "$NEW_TOTAL" -gt 0 ]; then
  echo "ci/fuzz.sh: $NEW_TOTAL new finding(s) written to corpus/regressions/"
  exit 1
fi
