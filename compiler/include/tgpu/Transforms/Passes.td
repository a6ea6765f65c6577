#ifndef TGPU_TRANSFORMS_PASSES
#define TGPU_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TritonGPUCoalesce : Pass<"tritongpu-coalesce", "mlir::ModuleOp"> {
  let summary = "give each global memory access a layout that coalesces it";
  let description = [{
    For every tt.load, tt.store, tt.atomic_rmw and tt.atomic_cas on a tensor
    of pointers, AxisInfo gives the pointer's contiguity and alignment per
    dim. The access gets a #ttg.blocked layout whose fastest dim is the most
    contiguous one and whose sizePerThread along it reaches up to 128 bits
    where contiguity and alignment allow it (vector accesses); the operands
    are converted into it and the results back to their old layouts.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPURemoveLayoutConversions
    : Pass<"tritongpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "remove ttg.convert_layout ops by propagating layouts";
  let description = [{
    Propagates the layouts of anchor ops (global memory accesses, dots,
    reductions, ...) forward to their users and backward to cheap producers,
    rewriting the values in between to the chosen layout and rematerialising
    producers instead of converting their results, so that only the
    conversions that move data between threads remain.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

#endif
