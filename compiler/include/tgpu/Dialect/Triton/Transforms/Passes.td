#ifndef TGPU_DIALECT_TRITON_TRANSFORMS_PASSES
#define TGPU_DIALECT_TRITON_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TritonCombineOps : Pass<"triton-combine", "mlir::ModuleOp"> {
  let summary = "peephole rewrites of tt ops that Triton's frontend leaves";
  let description = [{
    Greedily applies:
    - `add(dot(a, b, 0), d)` (either operand order, `arith.addf` or
      `arith.addi`) becomes `dot(a, b, d)` when the dot has no other user,
      sits in the add's block and, for floats, has
      `maxNumImpreciseAcc = 0` (a dot allowed imprecise accumulation
      must not absorb a precise add);
    - `addptr(addptr(p, i), j)` becomes `addptr(p, i + j)` when the
      offsets have one type and their sum cannot wrap differently from
      the two steps: 64-bit offsets, or constants whose sum fits;
      the outer addptr's `tt.divisibility`, `tt.contiguity` and
      `tt.constancy` hints carry over;
    - `select(c, load(p, splat(c), x), y)` becomes `load(p, splat(c), y)`;
    - `reduce_add(mul(broadcast(expand_dims(x, 2)), broadcast(expand_dims(y, 0))), axis 1)`
      becomes `dot(x, y, 0)` when M, N and K are all at least 16, with
      `inputPrecision = tf32` for f32 operands as Triton does (the
      products are then rounded to tf32);
    - a rank-1 `tt.reshape` used only by single-operand `tt.reduce` and
      unmasked `tt.histogram` may reorder its elements (`allow_reorder`):
      neither cares about element order;
    - `reshape(descriptor_load)` that only drops leading unit dimensions
      becomes a rank-reducing `tt.descriptor_load`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TritonReorderBroadcast : Pass<"triton-reorder-broadcast", "mlir::ModuleOp"> {
  let summary = "compute elementwise ops before broadcasts and splats";
  let description = [{
    An elementwise op without memory effects computes on fewer elements
    when it runs before the op that replicates its operands:
    - `f(splat a, splat b, ...)` (splat constants included) becomes
      `splat(f(a, b, ...))` on scalars;
    - `f(broadcast a, ...)` whose other operands are broadcasts of the
      same source type or splats becomes `broadcast(f(a, ...))`, the
      splats re-made in the source's shape.
    The tt.broadcast and tt.expand_dims canonicalizations run with them,
    so that broadcasts meet and merge.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TritonLoopInvariantCodeMotion : Pass<"triton-licm", "mlir::ModuleOp"> {
  let summary = "loop-invariant code motion that also hoists loads";
  let description = [{
    MLIR's loop-invariant code motion (speculatable ops without memory
    effects whose operands are defined outside the loop move before it),
    innermost loops first, plus: a `tt.load` of loop-invariant operands
    leaves an `scf.for` whose body, nested ops included, only reads
    memory (nothing in the loop can change what it reads). The hoisted
    load runs even when the loop would run no iteration, so its mask gets
    `lowerBound < upperBound` (splat to the mask's shape, and-ed with the
    old mask): it then reads nothing in that case. Volatile loads and
    block-pointer loads (which take no mask) stay.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TritonLoopAwareCSE : Pass<"triton-loop-aware-cse", "mlir::ModuleOp"> {
  let summary = "merge scf.for iteration arguments that always hold the same value";
  let description = [{
    Two iteration arguments of an `scf.for` hold the same value in every
    iteration when they start from the same value and their yielded values
    are computed alike from values that are the same, assuming (to
    follow cycles through the loop) that the two arguments are. Such
    arguments are merged, then CSE and the `scf.for` canonicalizations
    remove what became redundant. CSE also runs first, so that equal
    values defined outside loops are one value.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def TritonLoopUnroll : Pass<"triton-loop-unroll", "mlir::ModuleOp"> {
  let summary = "unroll scf.for loops marked with tt.loop_unroll_factor";
  let description = [{
    An `scf.for` with an integer `tt.loop_unroll_factor` above 1 is
    unrolled by that factor (MLIR's scf unroller); the iterations the
    unrolled loop cannot cover run in an epilogue loop, which gets
    `tt.num_stages = 1` so that the software pipeliner leaves it alone.
    The attribute is removed from unrolled loops. A factor that is not an
    integer is a warning at the loop, as is a loop the unroller refuses.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def TritonRewriteTensorPointer
    : Pass<"triton-rewrite-tensor-pointer", "mlir::ModuleOp"> {
  let summary = "block pointers to tensors of pointers with masks";
  let description = [{
    Removes `tt.make_tensor_ptr` and `tt.advance`: a block pointer is its
    base, shape and strides (fixed) and its i64 offsets (moved by
    `tt.advance`), and only the offsets are carried through `scf.for`
    iteration arguments and `scf.if` results. A `tt.load` or `tt.store`
    through a block pointer becomes one through the tensor of pointers
    `base + sum_i (offset_i + index_i) * stride_i`, masked by
    `0 <= offset_i + index_i < shape_i` over the `boundaryCheck` dims,
    a load's masked-off elements being its `padding` (zero or NaN).

    Block pointers that cannot be traced to their `tt.make_tensor_ptr`
    through these ops (function arguments, `scf.while`, calls, branches),
    and loops or ifs whose block pointers differ in base, shape or
    strides between paths, are errors at the op concerned.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

#endif
