// TTGIR -> LLVM dialect lowering.
#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_PASSES_H
#define TGPU_CONVERSION_TRITONGPUTOLLVM_PASSES_H

#include "tgpu/Dialect/NVGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tgpu {

#define GEN_PASS_DECL
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h.inc"

} // namespace mlir::tgpu

#endif
