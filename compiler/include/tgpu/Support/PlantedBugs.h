// Deliberate bugs for the acceptance tests of the fuzzing toolkit and of the
// GPU oracle (docs/FUZZING.md): a test turns one on, checks that fuzz_pipeline
// finds it, that tgpu-repro reproduces it and tgpu-reduce minimizes it.
//
// Compiled in only where TGPU_PLANTED_BUGS is defined: in the fuzzing build
// (every object) and in the test-only twins of a few tools (tgpu-repro-planted,
// tgpu-reduce-planted, tgpu-oracle-planted; CMake option TGPU_PLANTED_BUGS),
// which link their own copies of the translation units that hold planted
// code. Shipped tools neither include this header nor read the variable.
#ifndef TGPU_SUPPORT_PLANTEDBUGS_H
#define TGPU_SUPPORT_PLANTEDBUGS_H

#ifndef TGPU_PLANTED_BUGS
#error "tgpu/Support/PlantedBugs.h is for builds with TGPU_PLANTED_BUGS only"
#endif

#include "llvm/ADT/StringRef.h"

#include <cstdlib>

namespace tgpu {

// On when the environment says TGPU_PLANTED_BUG=<name>. Names:
// "cvt-constant-fold" (ttg.convert_layout of an integer splat constant folds
// to the constant's low 16 bits, zero-extended; for fuzz_pipeline),
// "reduce-skip-lane-step" (the tt.reduce lowering leaves out its last
// butterfly shuffle; only the GPU oracle can see it), "reduce-maxsi-abort"
// (the tt.reduce lowering aborts, LLVM ERROR, on a reduction that combines
// with arith.maxsi: a compile crash for tgpu-repro and tgpu-reduce),
// "pipeline-short-wait" (tritongpu-pipeline's async_wait leaves one commit
// group more pending than the consumers allow: the CPU reference reports the
// read of a slot still being copied; on the GPU it reads stale data).
inline bool isPlantedBugEnabled(llvm::StringRef name) {
  static const char *value = std::getenv("TGPU_PLANTED_BUG");
  return value && name == value;
}

} // namespace tgpu

#endif
