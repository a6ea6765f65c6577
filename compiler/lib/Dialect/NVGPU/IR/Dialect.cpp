// The nvg dialect: registration (its ops have no verifier beyond their
// types; see NVGPUOps.td).
#include "tgpu/Dialect/NVGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton::nvgpu;

#include "tgpu/Dialect/NVGPU/IR/NVGPUDialect.cpp.inc"
#include "tgpu/Dialect/NVGPU/IR/NVGPUEnums.cpp.inc"

#define GET_OP_CLASSES
#include "tgpu/Dialect/NVGPU/IR/NVGPUOps.cpp.inc"

void NVGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tgpu/Dialect/NVGPU/IR/NVGPUOps.cpp.inc"
      >();
}
