// tgpu-opt: the mlir-opt of this project. Reads TTIR/TTGIR (as Triton 3.x
// prints it), verifies it, runs passes and prints the result.
#include "mlir/Conversion/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tgpu/Conversion/NVGPUToLLVM/Passes.h"
#include "tgpu/Conversion/TritonGPUToLLVM/Passes.h"
#include "tgpu/Conversion/TritonToTritonGPU/Passes.h"
#include "tgpu/Dialect/Triton/Transforms/Passes.h"
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h"
#include "tgpu/InitAllDialects.h"
#include "tgpu/Pipeline/Pipelines.h"
#include "tgpu/Support/DebugOptions.h"
#include "tgpu/Support/NestingLimit.h"

#include "TestPasses.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

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
  mlir::tgpu::registerNVGPUToLLVMPasses();
  mlir::tgpu::registerTritonTransformsPasses();
  mlir::tgpu::registerTritonGPUTransformsPasses();
  mlir::tgpu::registerTritonNvidiaGPUTransformsPasses();
  mlir::tgpu::registerTestPasses();
  mlir::tgpu::registerPipelines();
  mlir::tgpu::registerDebugOptions();

  // mlir-opt's own driver, but the input is read here first: it must pass
  // the nesting check before MLIR's parser sees it (and stdin can be read
  // only once).
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tgpu optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  llvm::InitLLVM initLLVM(argc, argv);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (auto v = mlir::tgpu::findExcessiveNesting(input->getBuffer())) {
    llvm::errs() << input->getBufferIdentifier() << ":" << v->line << ":"
                 << v->column << ": error: " << v->message << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return 1;
  output->keep();
  return 0;
}
