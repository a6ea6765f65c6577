// The program generator: valid, verifying, UB-free TTIR kernels built the way
// Csmith and YARPGen build C programs (a typed pool of live values, value
// ranges tracked so every division, shift, cast and memory access is defined
// by construction), each with its launch; and TTGIR variants of them with
// random layouts on ops and random convert_layouts.
//
// Every decision is drawn from a ByteSource, so libFuzzer's mutations steer
// the generator (fuzz_pipeline) and a seed reproduces a program (tgpu-gen).
#ifndef TGPU_FUZZ_GENERATOR_GENERATOR_H
#define TGPU_FUZZ_GENERATOR_GENERATOR_H

#include "fuzz/generator/ByteSource.h"
#include "fuzz/generator/GenPolicy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tgpu::gen {

// One output buffer: which kernel argument, and how the GPU may differ from
// the reference there (0 for integers: exact).
struct OutputSpec {
  unsigned argIndex = 0;
  std::string elementType; // "f32", "i32", ...
  double absTolerance = 0;
};

struct GeneratedProgram {
  std::string ttir;   // a module with one public kernel @kernel
  std::string launch; // "--grid X,Y -- ARG..." in tgpu-run syntax
  std::vector<OutputSpec> outputs;
  unsigned numOps = 0; // ops emitted, for statistics
};

// Builds one program from the bytes; never fails (an exhausted source
// answers the first choice everywhere).
GeneratedProgram generateProgram(ByteSource &src, const GenPolicy &policy);

// The launch a generated module carries in its `tgpu.launch` attribute (the
// same text as GeneratedProgram::launch), so a reduced or hand-edited
// reproducer keeps how to run it. Empty when absent.
std::string launchOf(mlir::ModuleOp module);
constexpr const char *kLaunchAttrName = "tgpu.launch";

// The choices fuzz_pipeline and tgpu-gen draw after generateProgram, in this
// order, so both make the same TTGIR variant from the same bytes.
struct VariantChoices {
  int pipelineWarps = 4;  // num-warps of the TTIR -> TTGIR pipeline
  int variantWarps = 4;   // num-warps of the TTGIR variant
  bool optimizeVariant = false; // run the TTGIR passes on the variant
};
VariantChoices drawVariantChoices(ByteSource &src, const GenPolicy &policy);

// TTIR module -> TTGIR variant, in place: convert-triton-to-tritongpu with
// `numWarps`, then randomizeLayouts. Failure (with diagnostics on the
// context) means a generator or converter bug.
mlir::LogicalResult makeTtgirVariant(mlir::ModuleOp module, ByteSource &src,
                                     const GenPolicy &policy, int numWarps);

// Rewrites a TTGIR module (fresh from convert-triton-to-tritongpu) in place:
// gives random ops random distributed layouts (operands converted to it,
// results converted back) and sends random values through a random layout and
// back. The result verifies and means the same.
mlir::LogicalResult randomizeLayouts(mlir::ModuleOp module, ByteSource &src,
                                     const GenPolicy &policy);

} // namespace tgpu::gen

#endif
