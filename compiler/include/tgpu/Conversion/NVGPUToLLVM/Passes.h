// nvg dialect -> LLVM dialect (+ NVVM) lowering.
#ifndef TGPU_CONVERSION_NVGPUTOLLVM_PASSES_H
#define TGPU_CONVERSION_NVGPUTOLLVM_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Conversion/NVGPUToLLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Conversion/NVGPUToLLVM/Passes.h.inc"

} // namespace mlir::tgpu

#endif
