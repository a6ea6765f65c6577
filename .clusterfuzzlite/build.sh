#!/bin/bash -eu
# Builds tgpu's libFuzzer targets the OSS-Fuzz way: with the compilers and
# flags of the environment (CC, CXX, CFLAGS, CXXFLAGS: the sanitizer and
# coverage flags), linked with $LIB_FUZZING_ENGINE, into $OUT together with
# <target>_seed_corpus.zip, <target>.dict and <target>.options. ClusterFuzzLite
# runs it in the image of the Dockerfile beside it; it also runs on any
# machine with LLVM/MLIR 22 and those variables set (docs/FUZZING.md).
#
# The runner has no LLVM: the targets link MLIR and LLVM statically
# (TGPU_STATIC_LLVM). Those archives are built against libstdc++ and without
# RTTI, so OSS-Fuzz's -stdlib=libc++ is dropped and UBSan's vptr check,
# which needs RTTI, is off.
set -eu
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -f "$src/CMakeLists.txt" ] || src=$SRC/tgpu
build=${WORK:-/tmp}/tgpu-fuzz-build
: "${OUT:?}" "${CC:?}" "${CXX:?}" "${LIB_FUZZING_ENGINE:?}"
export CFLAGS="${CFLAGS:-} -fno-sanitize=vptr"
export CXXFLAGS="${CXXFLAGS:-}"
export CXXFLAGS="${CXXFLAGS//-stdlib=libc++/} -fno-sanitize=vptr"

# TGPU_FUZZ_TARGETS="a b" builds fewer (a quick local check of this script).
read -r -a targets <<< "${TGPU_FUZZ_TARGETS:-fuzz_ttir_parser fuzz_layout_attr fuzz_linear_layout fuzz_pipeline fuzz_ttgir_mutate}"
cmake -G Ninja -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DTGPU_ENABLE_FUZZERS=ON -DTGPU_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DTGPU_STATIC_LLVM=ON -DTGPU_ENABLE_CUDA_RUNNER=OFF -DTGPU_USE_MIMALLOC=OFF
cmake --build "$build" --target "${targets[@]}" -- -j"$(nproc)"

for t in "${targets[@]}"; do
  cp "$build/bin/$t" "$OUT/$t"
  if [ -n "$(ls -A "$src/corpus/$t" 2>/dev/null)" ]; then
    rm -f "$OUT/${t}_seed_corpus.zip"
    python3 - "$src/corpus/$t" "$OUT/${t}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
folder, archive = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(folder)):
        z.write(os.path.join(folder, name), name)
PY
  fi
  # ci/fuzz.sh's settings: 30 s per input; fuzz_pipeline's inputs stay at
  # its seeds' 2 KiB of generator bytes, as libFuzzer keeps them there.
  printf '[libfuzzer]\ntimeout = 30\n' > "$OUT/$t.options"
  if [ -f "$src/fuzz/dicts/$t.dict" ]; then
    cp "$src/fuzz/dicts/$t.dict" "$OUT/$t.dict"
    echo "dict = $t.dict" >> "$OUT/$t.options"
  fi
  if [ "$t" = fuzz_pipeline ]; then
    echo "max_len = 2048" >> "$OUT/$t.options"
  fi
done
