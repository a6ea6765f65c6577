#ifndef TGPU_DIALECT_TRITONGPU_TRANSFORMS_PASSES
#define TGPU_DIALECT_TRITONGPU_TRANSFORMS_PASSES

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

    Rematerialisation and convert canonicalization repeat until nothing
    changes, the IR returns to a state it was in (they can undo each other),
    or `max-rounds` rounds ran; the last case is a warning at the module,
    since the IR is still correct, only less optimised.
  }];
  let options = [
    Option<"maxRounds", "max-rounds", "unsigned", /*default=*/"64",
           "rounds of rematerialisation before the pass stops and warns">
  ];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPUAccelerateMatmul
    : Pass<"tritongpu-accelerate-matmul", "mlir::ModuleOp"> {
  let summary = "put tt.dot on tensor cores (#ttg.nvidia_mma v2, mma.sync)";
  let description = [{
    Every 2-D tt.dot with a blocked result whose types mma.sync has (f16 x f16
    -> f32 or f16, bf16 x bf16 -> f32, f32 x f32 -> f32 with inputPrecision
    = tf32) and whose shape holds whole instruction tiles (M % 16, N % 8,
    K % 16, or K % 8 for tf32) gets an #ttg.nvidia_mma v2 result: the
    accumulator is converted into it, the operands into its #ttg.dot_op
    layouts (kWidth = 32 / element bits), and the result back. Warps are
    split between M and N so each warp's share of 16x8 tiles is as square as
    can be, ties towards M; a dot feeding another dot puts all warps along
    its longer dim. Version 2 on every target: wgmma (version 3) is not
    lowered yet.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

#endif
