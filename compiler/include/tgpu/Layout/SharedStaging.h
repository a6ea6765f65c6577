// The shared-memory layout a convert_layout stages its tensor through: every
// thread writes the elements of the source layout and, after a barrier,
// reads those of the destination layout. The staging layout S (in dim
// "offset", the tensor's dims out) is chosen so that
//  - accesses are vectorised. Either both sides use plain vector accesses:
//    the lowest register bits the two layouts share (up to 16 bytes) are
//    the lowest offset bits. Or, for 16-bit elements, the destination reads
//    with ldmatrix (LdMatrix.h) and the source writes 16-byte vectors of
//    whichever of its registers hold the elements of one ldmatrix row (the
//    accumulator of an mma, whose consecutive registers are only pairs,
//    into a layout with 8 consecutive elements a thread). The form with
//    fewer instructions wins;
//  - neither side has bank conflicts where a linear layout can avoid them:
//    the lanes of one wavefront (128 bytes: 32 lanes of 4-byte accesses, 8
//    lanes of 16-byte vectors, 8 ldmatrix row addresses) reach distinct
//    128-byte slots. The source's lanes get the slot bits directly; the
//    destination's get them through an XOR swizzle (slot bits ^= a linear
//    map of the higher offset bits), which leaves the source's accesses and
//    both sides' vectors unchanged.
// Everything is GF(2) linear algebra on the layouts' bases.
#ifndef TGPU_LAYOUT_SHAREDSTAGING_H
#define TGPU_LAYOUT_SHAREDSTAGING_H

#include "tgpu/Layout/LinearLayout.h"

namespace tgpu::layout {

struct StagingLayout {
  LinearLayout shared; // offset -> tensor dims, a bijection
  // Offset bit i (i < size) is source register bit storeRegisterBits[i]:
  // one store writes the 2^size elements those register bits select.
  std::vector<int> storeRegisterBits;
  // The destination reads plain vectors the same way, of its register bits
  // loadRegisterBits, unless loadWithLdMatrix: then planLdMatrix accepts
  // the destination's map into `shared` (and loadRegisterBits is empty).
  std::vector<int> loadRegisterBits;
  bool loadWithLdMatrix = false;
};

// `src` and `dst` are distributed layouts (register, lane, warp[, block] ->
// the same out dims and sizes, each onto). `elementBytes` is the size of one
// element in shared memory.
llvm::Expected<StagingLayout> chooseStagingLayout(const LinearLayout &src,
                                                  const LinearLayout &dst,
                                                  int elementBytes);

// How many shared-memory wavefronts one warp-wide access of `layout`'s
// registers takes through `shared` (1 when conflict free): each lane
// accesses 2^vectorLog2 elements from the offset of its register 0; the
// count is the most lanes of one wavefront that hit the same bank at
// different addresses. For tests and benchmarks.
llvm::Expected<int> countBankConflictWays(const LinearLayout &layout,
                                          const LinearLayout &shared,
                                          int vectorLog2, int elementBytes);

// The same for a map that already gives offsets (register, lane, warp ->
// offset; e.g. an LdMatrixPlan's row addresses), lanes accessing
// `accessBytes` bytes each.
llvm::Expected<int> countOffsetBankConflictWays(const LinearLayout &toOffset,
                                                int elementBytes,
                                                int64_t accessBytes);

} // namespace tgpu::layout

#endif
