// The fuzz targets. Each lives in its own library (one binary per target
// links one); tgpu-repro links them all through allTargets().
#ifndef TGPU_FUZZ_TARGETS_TARGETS_H
#define TGPU_FUZZ_TARGETS_TARGETS_H

#include "fuzz/targets/FuzzTarget.h"

namespace tgpu::fuzz {

// bytes -> parse -> verify -> print -> reparse -> print, a fixed point.
const TargetInfo &ttirParserTarget();
// bytes -> layout attribute (valid or malformed) + shape -> verifier,
// toLinearLayout, invariants, rendering.
const TargetInfo &layoutAttrTarget();
// bytes -> LinearLayout operations checked against a GF(2) matrix model.
const TargetInfo &linearLayoutTarget();
// bytes -> generated program -> every pass, the CPU oracle after each, PTX.
const TargetInfo &pipelineTarget();
// TTIR/TTGIR text with a launch, mutated structurally by its libFuzzer
// binary -> the reference on the mutant (undefined ones dropped) -> every
// pass, as fuzz_pipeline's text inputs.
const TargetInfo &mutateTarget();

// All of the above, for tgpu-repro and tgpu-reduce.
llvm::ArrayRef<const TargetInfo *> allTargets();
const TargetInfo *findTarget(llvm::StringRef name);

} // namespace tgpu::fuzz

#endif
