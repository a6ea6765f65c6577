// Deliberate bugs behind a flag: the acceptance tests of the fuzzing toolkit
// (fuzz/README.md) and of the GPU oracle turn one on, checks that fuzz_pipeline finds it, that
// tgpu-repro reproduces it and tgpu-reduce minimizes it, then turns it off.
// Off unless the environment says TGPU_PLANTED_BUG=<name>; no shipped
// behaviour depends on it.
#ifndef TGPU_SUPPORT_PLANTEDBUGS_H
#define TGPU_SUPPORT_PLANTEDBUGS_H

#include "llvm/ADT/StringRef.h"

#include <cstdlib>

namespace tgpu {

// Names: "cvt-constant-fold" (ttg.convert_layout of an integer splat
// constant folds to the constant's low 16 bits, zero-extended; for
// fuzz_pipeline), "reduce-skip-lane-step" (the tt.reduce lowering leaves out
// its last butterfly shuffle; only the GPU oracle can see it).
inline bool isPlantedBugEnabled(llvm::StringRef name) {
  static const char *value = std::getenv("TGPU_PLANTED_BUG");
  return value && name == value;
}

} // namespace tgpu

#endif
