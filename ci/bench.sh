#!/usr/bin/env bash
# Builds and runs the benchmarks; prints Google Benchmark's tables.
# Usage: ci/bench.sh [benchmark args, e.g. --benchmark_filter=Apply]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TGPU_BUILD_DIR:-$root/build}"
"$root/ci/setup.sh" >/dev/null
ninja -C "$build" -j"${TGPU_JOBS:-2}" tgpu-layout-bench tgpu-oracle-bench \
  tgpu-compile-bench >/dev/null
for bench in tgpu-layout-bench tgpu-oracle-bench tgpu-compile-bench; do
  "$build/bin/$bench" --benchmark_repetitions="${TGPU_BENCH_REPS:-3}" \
    --benchmark_report_aggregates_only=true "$@"
done
