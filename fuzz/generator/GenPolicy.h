// The generation policy: what a campaign aims at (op family weights, size
// limits, the GPU-safe and Triton-safe restrictions, the TTGIR variants'
// knobs), with its defaults, and the `key=value,...` overrides tgpu-gen's
// --policy takes. The generator reads it and never changes it; keeping it
// apart from the generation code lets a campaign be described (and a new
// knob added) without reading how programs are built.
#ifndef TGPU_FUZZ_GENERATOR_GENPOLICY_H
#define TGPU_FUZZ_GENERATOR_GENPOLICY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tgpu::gen {

// What a campaign aims at: weights per op family (0 turns a family off) and
// sizes. Defaults give small programs (about 16 steps) over tensors of up to
// 512 elements: small kernels compile fast, and bugs rarely need big ones.
struct GenPolicy {
  // clang-format off: a table, one knob per line with its meaning
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
  // How the program's TTIR is compiled, written into its launch: software
  // pipelining stages (0: random 1..4) and GPU target (0: random between
  // sm_80 and sm_90; else 80 or 90). Drawn after the program, so that the
  // program itself does not depend on them.
  unsigned numStages = 0;
  unsigned arch = 0;
  // Swarm testing (Groce et al., ISSTA 2012): 1 makes each program draw its
  // own policy from this one (drawSwarmPolicy) before anything else, so a
  // campaign's programs differ in kind and not only in detail: an op family
  // that crowds out another is missing from some programs, and two in three
  // aim at tensor cores. fuzz_pipeline and tgpu-gen --from-bytes use it.
  unsigned swarm = 0;
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
  // clang-format on
};

class ByteSource;

// The policy one program of a swarm campaign is generated with, drawn from
// `base`: each op family with a weight is left out with chance 1/3; then
// with chance 2/3 the program aims at tensor cores (dot weight at least 40,
// tensors of up to 2^11 elements, so K loops, software pipelining and wgmma
// shapes come often), else with chance 1/2 one family is weighted eight times
// and the rest as drawn. Sizes, safety flags and the variants' knobs stay.
GenPolicy drawSwarmPolicy(ByteSource &src, const GenPolicy &base);

// One `--policy` key and the number it sets.
struct PolicyKey {
  const char *name;
  unsigned GenPolicy::*field;
};
// Every key, in the order tgpu-gen's help lists them.
llvm::ArrayRef<PolicyKey> policyKeys();
// "int, float, ...": the keys for a help text.
std::string policyKeyList();

// Applies `key=value,...` overrides to `policy` and checks the limits the
// generator relies on (numel-log2 in 4..14, rank 1..3, trips and outputs at
// least 1). False, with `why`, on an unknown key, a non-number or a value out
// of range; `policy` may then be partly changed.
bool applyPolicyOverrides(llvm::StringRef text, GenPolicy &policy,
                          std::string &why);

} // namespace tgpu::gen

#endif
