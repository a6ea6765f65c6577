#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_PASSES
#define TGPU_CONVERSION_TRITONGPUTOLLVM_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTritonGPUToLLVM : Pass<"convert-triton-gpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "TTGIR -> LLVM dialect (+ NVVM): per-thread code";
  let description = [{
    Every distributed tensor becomes the LLVM struct of the values one thread
    holds (its layout's registers); indices, vector widths and predicates
    come from the layouts' LinearLayouts. tt.func becomes an llvm.func with
    the nvvm.kernel attribute (public functions) and scalar/pointer
    parameters. The target (sm_80, sm_90) is read from the module's
    ttg.target attribute. Runs after convert-scf-to-cf.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect"];
}

#endif
