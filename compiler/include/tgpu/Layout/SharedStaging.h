// The shared-memory layout a convert_layout stages its tensor through: every
// thread writes the elements of the source layout and, after a barrier,
// reads those of the destination layout. The staging layout S (in dim
// "offset", the tensor's dims out) is chosen so that
//  - accesses are vectorised: the lowest register bits the two layouts
//    share (up to 16 bytes) are the lowest offset bits, so a thread's
//    consecutive registers are consecutive, aligned bytes on both sides;
//  - neither side has bank conflicts where a linear layout can avoid them:
//    the lanes of one wavefront (128 bytes: 32 lanes of 4-byte accesses, 8
//    lanes of 16-byte vectors) reach distinct 128-byte slots. The source's
//    lanes get the slot bits directly; the destination's get them through
//    an XOR swizzle (slot bits ^= a linear map of the higher offset bits),
//    which leaves the source's accesses and both sides' vectors unchanged.
// Everything is GF(2) linear algebra on the layouts' bases.
#ifndef TGPU_LAYOUT_SHAREDSTAGING_H
#define TGPU_LAYOUT_SHAREDSTAGING_H

#include "tgpu/Layout/LinearLayout.h"

namespace tgpu::layout {

struct StagingLayout {
  LinearLayout shared; // offset -> tensor dims, a bijection
  int vectorLog2 = 0;  // elements per access = 2^vectorLog2, both sides
};

// `src` and `dst` are distributed layouts (register, lane, warp[, block] ->
// the same out dims and sizes, each onto). `elementBytes` is the size of one
// element in shared memory.
llvm::Expected<StagingLayout> chooseStagingLayout(const LinearLayout &src,
                                                  const LinearLayout &dst,
                                                  int elementBytes);

// How many shared-memory wavefronts one warp-wide access of `layout`'s
// registers [0, 2^vectorLog2) takes through `shared` (1 when conflict
// free): the most lanes of one wavefront that hit the same 128-byte slot
// index at different addresses. For tests and benchmarks.
llvm::Expected<int> countBankConflictWays(const LinearLayout &layout,
                                          const LinearLayout &shared,
                                          int vectorLog2, int elementBytes);

} // namespace tgpu::layout

#endif
