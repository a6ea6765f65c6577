#include "tgpu/Layout/BasisRuns.h"

#include "llvm/Support/MathExtras.h"

using namespace tgpu::layout;

std::vector<BasisRun> tgpu::layout::getBasisRuns(const LinearLayout &layout,
                                                 llvm::StringRef inDim,
                                                 llvm::StringRef outDim) {
  std::vector<BasisRun> runs;
  if (!layout.hasInDim(inDim) || !layout.hasOutDim(outDim))
    return runs;
  int bits = layout.getInDimSizeLog2(inDim);
  for (int i = 0; i < bits;) {
    int32_t basis = layout.getBasis(inDim, i, outDim);
    if (basis == 0) {
      ++i;
      continue;
    }
    if (!llvm::isPowerOf2_32(uint32_t(basis))) {
      runs.push_back({i, i + 1, -1, basis});
      ++i;
      continue;
    }
    int end = i + 1;
    while (end < bits && int64_t(layout.getBasis(inDim, end, outDim)) ==
                             (int64_t(basis) << (end - i)))
      ++end;
    runs.push_back({i, end, int(llvm::Log2_32(uint32_t(basis))), basis});
    i = end;
  }
  return runs;
}

int64_t tgpu::layout::getAlignedRegisterRun(const LinearLayout &layout,
                                            int outDim) {
  if (!layout.hasInDim("register") || outDim < 0 ||
      outDim >= layout.getNumOutDims())
    return 1;
  auto outNames = layout.getOutDimNames();
  int bits = layout.getInDimSizeLog2("register");
  int64_t run = 1;
  for (int i = 0; i < bits; ++i) {
    bool along = true;
    for (int d = 0; d < layout.getNumOutDims(); ++d)
      along &= layout.getBasis("register", i, outNames[d]) ==
               (d == outDim ? int32_t(run) : 0);
    if (!along)
      break;
    run *= 2;
  }
  // Register i of a run holds base ^ i, which is base + i only when every
  // other basis keeps the low bits of `outDim` clear: otherwise a run starts
  // mid-vector, descends or is misaligned (possible with #ttg.linear
  // layouts and swizzled shared layouts).
  int runBits = llvm::Log2_64(uint64_t(run));
  for (const std::string &inDim : layout.getInDimNames())
    for (int i = inDim == "register" ? runBits : 0;
         i < layout.getInDimSizeLog2(inDim); ++i)
      while (run > 1 &&
             (layout.getBasis(inDim, i, outNames[outDim]) & int32_t(run - 1)))
        run /= 2;
  return run;
}
