// The vector width of a global memory access, from AxisInfo and the
// accessing tensor's layout: shared by the load/store lowering, the cp.async
// lowering and the pipeliner's test for loads cp.async can copy. Apart from
// AxisInfo.h because it names the Layout library's ::tgpu namespace, which
// would make `tgpu::` ambiguous in files that use namespace mlir.
#ifndef TGPU_ANALYSIS_ACCESSWIDTH_H
#define TGPU_ANALYSIS_ACCESSWIDTH_H

#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Layout/LinearLayout.h"

namespace mlir::tgpu {

// How many consecutive elements of `layout` (a distributed tensor's
// LinearLayout) one thread can access at once through the tensor of
// pointers `ptr`, masked by `mask` (null for none): registers that run
// along a dim (getAlignedRegisterRun), pointers contiguous and aligned that
// far (AxisInfo), the mask constant over them, at most `maxBytes` of
// `elemBytes` elements. A power of two; 1 when nothing is known.
int64_t getAccessVectorWidth(const ModuleAxisInfoAnalysis *axisInfo, Value ptr,
                             Value mask,
                             const ::tgpu::layout::LinearLayout &layout,
                             int64_t elemBytes, int64_t maxBytes);

} // namespace mlir::tgpu

#endif
