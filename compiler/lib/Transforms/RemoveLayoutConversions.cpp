// tritongpu-remove-layout-conversions (being written).
#include "tgpu/Transforms/Passes.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUREMOVELAYOUTCONVERSIONS
#include "tgpu/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;

namespace {
class RemoveLayoutConversions
    : public mlir::tgpu::impl::TritonGPURemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
public:
  void runOnOperation() override {}
};
} // namespace
