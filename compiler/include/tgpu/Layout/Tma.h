// How a TMA copy (PTX cp.async.bulk.tensor, sm_90) moves a tensor between
// global memory and a shared-memory buffer, and when a buffer's layout is
// one it can write or read.
//
// A CUtensorMap names a box: a block of the global tensor of at most 256
// elements per dim. One instruction copies one box to (or from) shared
// memory, where TMA lays it out densely, its innermost dim fastest, and
// with a swizzle mode of 32, 64 or 128 bytes XORs the 16-byte chunk index
// of each address with the index of its row within the swizzle period
// (address bits 4.. with bits 7..; the period is 8 rows of swizzleBytes).
// With a swizzle the box's innermost dim is exactly one swizzle span.
//
// A buffer larger than one box takes several copies ("messages"), each
// writing its box at some offset of the buffer. planTmaCopy picks the box
// as Triton 3.6 picks it for a descriptor of that buffer's layout, numbers
// the messages as Triton does (dim 0's boxes first), and checks element by
// element that the buffer's layout puts every element where TMA would.
#ifndef TGPU_LAYOUT_TMA_H
#define TGPU_LAYOUT_TMA_H

#include "tgpu/Layout/LinearLayout.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace tgpu::layout {

struct TmaCopyPlan {
  // The box, per tensor dim (outermost first).
  std::vector<int32_t> box;
  // 0 (none) or the swizzle width in bytes: 32, 64, 128.
  int swizzleBytes = 0;
  // "msg" -> dim0..: the element coordinates of each box's origin within
  // the buffer. Linear in the message index.
  LinearLayout toCoord;
  // "msg" -> "offset": the element offset of each box in the buffer.
  // Linear in the message index.
  LinearLayout toOffset;

  int32_t numMessages() const { return toCoord.getInDimSize("msg"); }
  // The alignment (bytes) the buffer's start needs so that the swizzle,
  // which TMA computes from absolute shared addresses, lines up.
  int64_t requiredAlignment() const {
    return swizzleBytes ? 8 * int64_t(swizzleBytes) : 128;
  }
};

// The byte address TMA gives element `coord` (per dim, within the box) of
// a box written at `start`.
int64_t tmaBoxElementAddress(int swizzleBytes, const std::vector<int32_t> &box,
                             const std::vector<int32_t> &coord, int elemBytes,
                             int64_t start);

// Triton's box for a block of `shape` (outermost first) of `elemBits`-bit
// elements with a swizzle of `swizzleBytes` (0, 32, 64, 128): at most 256
// elements a dim, the innermost one swizzle span when swizzled, and that a
// multiple of 16 bytes. An error saying what does not fit otherwise.
llvm::Expected<std::vector<int32_t>> tmaBox(const std::vector<int64_t> &shape,
                                            int elemBits, int swizzleBytes);

// `toOffset`: the buffer's map from element indices (in dims dim0..) to an
// "offset" in elements (other out dims must be 0: a CTA's own block).
// `shape` is the buffer's; `swizzleBytes` the layout's swizzle (0, 32, 64,
// 128). The plan for copying the whole buffer, its start aligned to
// requiredAlignment(); an error saying what does not fit otherwise.
llvm::Expected<TmaCopyPlan> planTmaCopy(const std::vector<int64_t> &shape,
                                        const LinearLayout &toOffset,
                                        int elemBits, int swizzleBytes);

} // namespace tgpu::layout

#endif
