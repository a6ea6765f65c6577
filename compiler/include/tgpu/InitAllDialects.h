// Every dialect a tgpu tool reads: ours and the upstream ones Triton emits.
#ifndef TGPU_INITALLDIALECTS_H
#define TGPU_INITALLDIALECTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "tgpu/Dialect/NVGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

namespace mlir::tgpu {
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<triton::TritonDialect, triton::gpu::TritonGPUDialect,
                  triton::nvidia_gpu::TritonNvidiaGPUDialect,
                  triton::nvgpu::NVGPUDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  ub::UBDialect, gpu::GPUDialect, func::FuncDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect>();
}
} // namespace mlir::tgpu

#endif
