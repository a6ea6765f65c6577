// The `nvg` dialect (PTX-level ops between TTGIR and the LLVM dialect).
#ifndef TGPU_DIALECT_NVGPU_IR_DIALECT_H
#define TGPU_DIALECT_NVGPU_IR_DIALECT_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tgpu/Dialect/NVGPU/IR/NVGPUDialect.h.inc"
#include "tgpu/Dialect/NVGPU/IR/NVGPUEnums.h.inc"

#define GET_OP_CLASSES
#include "tgpu/Dialect/NVGPU/IR/NVGPUOps.h.inc"

#endif
