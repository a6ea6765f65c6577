#ifndef TGPU_CONVERSION_TRITONTOTRITONGPU_PASSES
#define TGPU_CONVERSION_TRITONTOTRITONGPU_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTritonToTritonGPU : Pass<"convert-triton-to-tritongpu", "mlir::ModuleOp"> {
  let summary = "TTIR -> TTGIR: give every tensor a layout encoding";
  let description = [{
    Every tensor gets the default #ttg.blocked encoding of its shape (spread
    over threads-per-warp lanes and num-warps warps, fastest dim last);
    reductions produce #ttg.slice of their operand's layout, expand_dims
    takes a slice of the layout it expands into, broadcast and scan keep
    their operand's layout, trans permutes it, and tt.dot operands become
    #ttg.dot_op of the result's layout (the FMA path). Where an operand's
    layout differs from the one its user needs, a ttg.convert_layout is
    inserted. Loop-carried values, branch results and function signatures
    use the default layouts. The module gets ttg.num-warps,
    ttg.threads-per-warp, ttg.num-ctas and ttg.target.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cuda:80\"",
           "the GPU target, e.g. cuda:80 or cuda:90">,
    Option<"numWarps", "num-warps", "int", /*default=*/"4", "warps per CTA">,
    Option<"threadsPerWarp", "threads-per-warp", "int", /*default=*/"32",
           "lanes per warp">,
    Option<"numCTAs", "num-ctas", "int", /*default=*/"1", "CTAs per CGA">
  ];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

#endif
