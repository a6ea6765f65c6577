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

#include "ByteSource.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tgpu::gen {

// What a campaign aims at: weights per op family (0 turns a family off) and
// sizes. Defaults give small programs (about 16 steps) over tensors of up to
// 512 elements: small kernels compile fast, and bugs rarely need big ones.
struct GenPolicy {
  // Op families.
  unsigned wIntArith = 6;   // addi subi muli and/or/xor, guarded div/rem/shifts, min/max
  unsigned wFloatArith = 8; // addf subf mulf guarded divf, fma, min/max, neg/abs
  unsigned wMath = 3;       // exp log sqrt sin cos tanh floor/ceil on tame domains
  unsigned wCompare = 3;    // cmpi/cmpf, select, i1 logic
  unsigned wCast = 3;       // ext/trunc, si/ui<->fp, f16<->f32, bitcast
  unsigned wView = 6;       // expand_dims broadcast reshape trans join split splat
  unsigned wLoad = 5;       // masked loads with `other`, gathers through in-bounds offsets
  unsigned wReduce = 3;     // tt.reduce with random combine regions (1-2 operands)
  unsigned wScan = 2;       // tt.scan
  unsigned wDot = 1;        // tt.dot (FMA-sized shapes)
  unsigned wAtomic = 1;     // tt.atomic_rmw (commutative kinds on i32)
  unsigned wFor = 2;        // scf.for with a bounded trip count and iter_args
  unsigned wIf = 2;         // scf.if yielding values
  unsigned wWhile = 1;      // scf.while counting to a bounded trip count
  unsigned wPermute = 2;    // tt.gather, tt.histogram, tt.cat (then reduced)
  // Sizes.
  unsigned maxOps = 16;          // top-level generation steps (at most; each program draws its own)
  unsigned maxDepth = 2;         // nesting of scf.for / scf.if
  unsigned maxLog2Numel = 9;     // largest tensor: 2^9 elements
  unsigned maxRank = 3;
  unsigned maxOutputs = 3;
  unsigned maxTripCount = 4;
  // Only operations whose GPU result stays within a stated tolerance of the
  // reference: no compares, float->int casts, floor/ceil or argmax on values
  // that approximate math may have perturbed (they would flip).
  bool gpuSafe = false;
  // Only what Triton 3.6 compiles, and compiles right, so a three-way
  // campaign spends its cases on new ground: none of the ops its NVIDIA
  // lowering lacks (arith.negf, math.tanh, ctpop/ctlz/cttz, math.trunc and
  // roundeven, f16 arith.divf, tensor arith.bitcast), no float -> i1 casts (fptoui to i1:
  // docs/FINDINGS.md finding 1; a compare with 1.0 instead), and no layout that
  // holds an element twice through non-zero bases (#ttg.linear with a basis
  // repeating others: finding 2). Most choices draw as without it (an op
  // is swapped for another); a skipped bitcast or a redrawn layout changes
  // the rest of the program.
  bool tritonSafe = false;
  // TTGIR variants.
  unsigned numWarps = 4;                 // 0: random among 1, 2, 4, 8
  // Upper ends: each variant draws its own counts in [0, these] (swarm
  // testing: some variants relayout nothing, others several ops) and picks
  // that many ops at random. Counts, not rates: one convert_layout through
  // shared memory is hundreds of PTX lines, and a rate per op made the
  // large programs' kernels huge and the campaign slow.
  unsigned maxRelayouts = 8;     // ops given a random layout
  unsigned maxConvertPairs = 4;  // values sent through a random layout and back
  // #ttg.linear among the random layouts.
  bool allowLinearLayouts = true;
};

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
