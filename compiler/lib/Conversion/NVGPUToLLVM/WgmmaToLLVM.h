// The wgmma family of convert-nv-gpu-to-llvm.
#ifndef TGPU_LIB_CONVERSION_NVGPUTOLLVM_WGMMATOLLVM_H
#define TGPU_LIB_CONVERSION_NVGPUTOLLVM_WGMMATOLLVM_H

#include "tgpu/Dialect/NVGPU/IR/Dialect.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tgpu {

// A located error unless the PTX ISA has the instruction `op` asks for.
LogicalResult checkWgmma(triton::nvgpu::WGMMAOp op);
// A located error unless every register of the struct has a PTX
// constraint (16, 32 or 64 bits).
LogicalResult checkWgmmaWaitGroup(triton::nvgpu::WGMMAWaitGroupOp op);

// nvg.wgmma and nvg.wgmma_wait_group as inline asm (ops the checks above
// accepted).
void populateWgmmaToLLVMPatterns(RewritePatternSet &patterns);

} // namespace mlir::tgpu

#endif
