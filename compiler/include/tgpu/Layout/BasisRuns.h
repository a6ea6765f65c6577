// How the bits of one input dim reach one output dim, grouped for cheap index
// code. A run of input bits whose bases are single output bits climbing one
// position per input bit (a blocked layout's lanes along one dim) maps as one
// mask and shift (a lone single-bit basis is a run of one bit); a basis with
// several bits set is one input bit that XORs its basis in when set. Zero
// bases are left out.
#ifndef TGPU_LAYOUT_BASISRUNS_H
#define TGPU_LAYOUT_BASISRUNS_H

#include "tgpu/Layout/LinearLayout.h"

#include <vector>

namespace tgpu::layout {

struct BasisRun {
  // Input bits [inBegin, inEnd) of the input dim.
  int inBegin = 0;
  int inEnd = 0;
  // For a run of single-bit bases: the output bit input bit inBegin sets
  // (the run is the input bits moved to start at that bit). -1 when the run
  // is one input bit whose basis has several bits (then inEnd = inBegin + 1).
  int outBit = -1;
  // The basis of inBegin in the output dim.
  int32_t basis = 0;
};

// The runs of `inDim` into `outDim`, in increasing input bit order, each
// maximal: they cover every input bit with a non-zero basis in `outDim`
// exactly once, and XOR of their contributions is the layout restricted to
// those two dims. Empty when either dim is absent.
std::vector<BasisRun> getBasisRuns(const LinearLayout &layout,
                                   llvm::StringRef inDim,
                                   llvm::StringRef outDim);

// How many consecutive registers, from every multiple of the result, hold
// consecutive elements of out dim `outDim` (an index into the out dims) in
// increasing order, the first at a multiple of the result: 2^k where
// register bases 0..k-1 are 1, 2, 4, ... along `outDim` and zero in the
// other out dims, and no other basis (higher registers, lanes, warps,
// blocks) sets one of the low k bits of `outDim`. 1 without a register dim.
// This is the widest vector access a thread can make.
int64_t getAlignedRegisterRun(const LinearLayout &layout, int outDim);

} // namespace tgpu::layout

#endif
