// tgpu-opt: the mlir-opt of this project. Reads TTIR/TTGIR (as Triton 3.x
// prints it), verifies it, runs passes and prints the result.
#include "mlir/Conversion/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Pipeline/Pipelines.h"
#include "tgpu/Transforms/Passes.h"

#include "TestPasses.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  // The generic passes Triton's pipelines are made of (canonicalize, cse,
  // inline, symbol-dce, licm, ...).
  mlir::registerTransformsPasses();
  // MLIR's own conversions (convert-scf-to-cf, ...), as mlir-opt has them.
  mlir::registerConversionPasses();
  mlir::tgpu::registerTritonToTritonGPUPasses();
  mlir::tgpu::registerTritonGPUToLLVMPasses();
  mlir::tgpu::registerTritonGPUTransformsPasses();
  mlir::tgpu::registerTestPasses();
  mlir::tgpu::registerPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tgpu optimizer driver\n", registry));
}
