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
