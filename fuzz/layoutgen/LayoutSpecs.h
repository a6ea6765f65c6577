// Random ttg layouts, drawn once for every client.
//
// A layout is drawn as a plain description (LayoutSpec) from a ChoiceSource;
// each client turns the description into what it needs:
//   - the program generator and the layout fuzzer (fuzz/generator/
//     RandomLayouts.h) build ttg attributes or print attribute text, valid
//     or broken on purpose, from ByteSource's bytes;
//   - the property tests (properties/EncodingGenerators.h) take the plain
//     tgpu::layout::Encoding (toEncoding) from RapidCheck's choices.
// How each kind is drawn lives here and only here: a new encoding kind is a
// draw function below (with its fields in LayoutSpec and its case in
// toEncoding) that the mixtures offer; RandomLayouts.cpp then builds and
// prints it. The fuzz side's draws must keep their order (LayoutSpecs.cpp
// says why).
//
// Nothing here needs MLIR (the library links TGPULayout only).
#ifndef TGPU_FUZZ_LAYOUTGEN_LAYOUTSPECS_H
#define TGPU_FUZZ_LAYOUTGEN_LAYOUTSPECS_H

#include "fuzz/layoutgen/ChoiceSource.h"

#include "tgpu/Layout/Encodings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tgpu::gen {

enum class LayoutKind {
  Blocked,
  Slice,
  Linear,
  NvidiaMma,
  DotOperand,
  SwizzledShared,
  NVMMAShared,
  SharedLinear,
  Other, // not a ttg layout at all (a builtin attribute, garbage)
};

// Bases of a linear map, one coordinate per tensor dim each.
using Bases = std::vector<std::vector<int64_t>>;

// Every field any layout has; a kind reads the ones it needs (the
// attribute's fields, in its own words). Values are int64 so that a broken
// variant (RandomLayouts.cpp) can hold anything.
struct LayoutSpec {
  LayoutKind kind = LayoutKind::Blocked;
  std::vector<int64_t> sizePerThread, threadsPerWarp, warpsPerCTA, order,
      instrShape;
  Bases cga, reg, lane, warp, block, offset;
  bool legacyCTA = false; // CTAsPerCGA / CTASplitNum / CTAOrder instead
  int64_t versionMajor = 2, versionMinor = 0, dim = 0, opIdx = 0, kWidth = 0,
          vec = 1, perPhase = 1, maxPhase = 1, swizzle = 0, bits = 16, rank = 2,
          alignment = 16;
  bool transposed = false, fp4Padded = false;
  std::shared_ptr<LayoutSpec> parent;
};

// log2(v) for a positive power of two, else -1.
int log2Of(int64_t v);
// Rank >= 1 and every dim a power of two up to 2^30: the shapes the draws
// below that take a tensor shape are made for.
bool powersOfTwo(llvm::ArrayRef<int64_t> shape);

// The plain value of a valid description (legacy CTA fields mean one CTA).
// An error only for a #ttg.linear / #ttg.shared_linear whose bases are not
// onto their dims.
llvm::Expected<layout::Encoding> toEncoding(const LayoutSpec &s);

namespace draw {

//===----------------------------------------------------------------------===//
// One kind each (valid for `numWarps` warps of 32 lanes; numWarps a power
// of two)
//===----------------------------------------------------------------------===//

// Blocked: sizePerThread 1..8 per dim (often more than the shape), 32 lanes
// and `numWarps` warps spread over the dims, a random order. One CTA.
LayoutSpec blocked(ChoiceSource &c, unsigned rank, unsigned numWarps);

// The CGA layout of `numCTAs` CTAs: each CTA bit splits a dim (the next
// power of two along it) or repeats the data (a zero basis), so the block
// bases are onto their dims as the conversion requires.
Bases cgaBases(ChoiceSource &c, unsigned rank, unsigned numCTAs);

// Blocked, one time in four over a CGA of 1, 2 or 4 CTAs (`numCTAs` says how
// many), else sometimes with the legacy one-CTA fields.
LayoutSpec blockedInCluster(ChoiceSource &c, unsigned rank, unsigned numWarps,
                            unsigned &numCTAs);

// Linear for a tensor of `shape` (powersOfTwo): the tensor's index bits dealt
// to distinct random register / lane / warp slots (registers as many as
// needed, sometimes one or two more), zero bases in the spare slots, then
// XOR mixing of bases within a dim (which keeps every element covered).
LayoutSpec linear(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                  unsigned numWarps);

// The layout of tensors of `shape` in the valid layout `of`, written out as
// #ttg.linear bases (an error only when `of` does not convert).
llvm::Expected<LayoutSpec> linearOf(const LayoutSpec &of,
                                    llvm::ArrayRef<int64_t> shape);

// nvidia_mma v2 (mma.sync) of rank 2 or 3: warps spread over M and N (and,
// for rank 3, the batch dim). Given a `fitShape` of that rank, it prefers to
// keep each warp's 16 x 8 tile inside it; empty: no preference.
LayoutSpec mmaV2(ChoiceSource &c, unsigned rank,
                 llvm::ArrayRef<int64_t> fitShape, unsigned numWarps);

// nvidia_mma v3 (wgmma), rank 2, numWarps >= 4: warps in groups of 4 along
// M, instrShape [16, 8..256, 8 | 16 | 32].
LayoutSpec mmaV3(ChoiceSource &c, unsigned numWarps);

// v3 one time in three where it can be (rank 2, numWarps >= 4), else v2
// (rank 2 or 3; `fitShape` as for mmaV2).
LayoutSpec anyMma(ChoiceSource &c, unsigned rank,
                  llvm::ArrayRef<int64_t> fitShape, unsigned numWarps);

// #ttg.slice<dim, parent>: nothing to draw but the parts.
LayoutSpec sliceOf(unsigned dim, LayoutSpec parent);

// Operand `opIdx` of a dot whose result has layout `parent` (blocked or
// nvidia_mma): an mma parent brings a kWidth 1..8, and a wgmma one takes
// operand A only (B comes from shared memory).
LayoutSpec dotOperand(ChoiceSource &c, unsigned opIdx, LayoutSpec parent);

// A dot operand of rank 2 or 3: parent blocked half the time, else mma v3
// / v2 as anyMma draws it.
LayoutSpec anyDotOperand(ChoiceSource &c, unsigned rank,
                         llvm::ArrayRef<int64_t> fitShape, unsigned numWarps);

// swizzled_shared: vec, perPhase, maxPhase 1..8, a random order.
LayoutSpec swizzledShared(ChoiceSource &c, unsigned rank);

// nvmma_shared for a buffer of `shape`: element width 8 / 16 / 32, swizzle
// 0 / 32 / 64 / 128 bytes where it fits the shape (nvmmaSwizzleFits), else
// none. Transposed only unswizzled unless `transposedSwizzles` (off on the
// fuzz side, whose byte mapping predates the option).
LayoutSpec nvmmaShared(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                       bool transposedSwizzles = false);

// Whether the swizzle of `s` fits a buffer of `shape`: the TMA box's
// contiguous dim (the last, or the first when transposed; at most 256) holds
// one swizzle row, and the rows (the other dims, flattened) hold the 8-row
// atom.
bool nvmmaSwizzleFits(llvm::ArrayRef<int64_t> shape, const LayoutSpec &s);

// shared_linear for a buffer of `shape` (more than one element): one offset
// per element, bases mixed across dims (swizzles), alignment 1..128.
LayoutSpec sharedLinear(ChoiceSource &c, llvm::ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// Mixtures: which kinds a client gets, and how often
//===----------------------------------------------------------------------===//

// A distributed layout a generated program may put on a tensor of `shape`
// (powersOfTwo) with `numWarps` warps and one CTA:
//   - blocked, tiles both smaller and larger than the shape;
//   - slice of a blocked parent of rank + 1 (rank <= 3);
//   - linear (the `linear` draw above);
//   - dot_op (rank 2 or 3) of a blocked parent, or of an mma v2 parent under
//     the same condition as the next;
//   - nvidia_mma v2 when `allowMma`, the shape is 2-D and holds at least one
//     16 x 8 tile.
LayoutSpec programLayout(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                         unsigned numWarps, bool allowMma);

// A shared layout for a memdesc of `shape` (powersOfTwo) and `elementBits`:
// swizzled_shared, nvmma_shared when the width allows, shared_linear.
LayoutSpec programSharedLayout(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                               unsigned elementBits);

// Any valid layout for a tensor of `shape` (powersOfTwo) and `numWarps`
// warps: blocked (with CGA or legacy CTA fields), slice of blocked / linear /
// mma v2 (for rank 1), linear, nvidia_mma v2 / v3, dot_op of those, and the
// shared kinds swizzled_shared, nvmma_shared, shared_linear. `numCTAs` is the
// module's CTA count the layout needs (1 but for a CGA).
LayoutSpec anyLayout(ChoiceSource &c, llvm::ArrayRef<int64_t> shape,
                     unsigned numWarps, unsigned &numCTAs);

// Any distributed layout of `rank` (1..4), for tensors of any shape (no
// shape to fit; the property tests' mixture): blocked over a CGA of 1 up to
// `maxCTAs` (a power of two) CTAs, nvidia_mma v2 / v3 (rank 2, 3), dot_op of
// those (rank >= 2), and while `depth` < 1 also slice of a layout of
// rank + 1 (anySlice) and linear (linearOf another such layout at a random
// shape of up to 64 per dim). An error only when a conversion for linear
// fails.
llvm::Expected<LayoutSpec> anyDistributed(ChoiceSource &c, unsigned rank,
                                          unsigned numWarps,
                                          unsigned maxCTAs = 4, int depth = 0);

// A slice of rank `rank` of anyDistributed(rank + 1, depth + 1).
llvm::Expected<LayoutSpec> anySlice(ChoiceSource &c, unsigned rank,
                                    unsigned numWarps, unsigned maxCTAs = 4,
                                    int depth = 0);

} // namespace draw
} // namespace tgpu::gen

#endif
