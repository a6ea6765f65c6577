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
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect"];
}

def TritonGPUOptimizeDotOperands
    : Pass<"tritongpu-optimize-dot-operands", "mlir::ModuleOp"> {
  let summary = "fold transposes of wgmma operands into shared-memory views";
  let description = [{
    Canonicalizes the module, then rewrites until nothing changes: a
    `ttg.local_alloc` of a 2-D `tt.trans` (order [1, 0]) in a
    `#ttg.nvmma_shared` layout whose only user is a `ttng.warp_group_dot`
    stores the transpose's source instead, in the same layout with
    `transposed` flipped, and the dot reads a `ttg.memdesc_trans` view of
    it: wgmma reads either major-ness from shared memory, so the
    transpose costs nothing there, and the store keeps the source's
    contiguous rows (a tensor-descriptor load's buffer can then serve as
    the operand directly). `ttg.convert_layout` is canonicalized along.

    Of Triton 3.6's pass this is the wgmma transpose fold; its mma v2
    rewrite (a transposed dot operand staged through a swizzled buffer
    read back transposed) and the folds of reshapes into
    `ttg.memdesc_reshape` views are not done yet.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect"];
}

def TritonGPUAssignLatencies
    : Pass<"tritongpu-assign-latencies", "mlir::ModuleOp"> {
  let summary = "mark the loads a software-pipelined loop should issue early";
  let description = [{
    In every innermost scf.for, each load whose value the A or B operand of
    a tt.dot or ttng.warp_group_dot in the body is computed from (through
    any ops of the body, but not through another load) and which can be
    copied asynchronously gets `tt.latency = num-stages - 1`: the number of
    iterations ahead of its use it should be issued. A tt.load qualifies
    when cp.async can copy it (AxisInfo proves at least 4 contiguous,
    aligned bytes per thread), a tt.descriptor_load when TMA can (its
    descriptor's block has a shared layout TMA writes). A loop with its own `tt.num_stages` (what
    `tl.range(..., num_stages=N)` prints) uses that count instead of the
    option, and also pipelines the loads any other op of its body reads, as
    Triton does. Nothing is marked for fewer than 2 stages.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "software pipelining stages (loads run num-stages - 1 iterations ahead)">
  ];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect"];
}

def TritonGPUScheduleLoops
    : Pass<"tritongpu-schedule-loops", "mlir::ModuleOp"> {
  let summary = "give every op of a loop with tt.latency loads a stage";
  let description = [{
    For an scf.for whose body holds loads (tt.load, tt.descriptor_load)
    with `tt.latency`: each such load and everything it needs in the body (its address, mask and other
    operands, through loop-carried values too) run in stage 0, every other
    op in stage L, the largest latency. A load is left unscheduled (its
    `tt.latency` removed) when what it needs is not free of side effects,
    could divide by zero, or includes another load, and the loop when a
    value it carries out of stage 0 is used after it. Each op gets
    `loop.stage` and `loop.cluster` (stage-L ops in cluster 0, stage-0 ops
    in cluster 1: a pipelined iteration first consumes, then refills) and
    the loop `tt.scheduled_max_stage = L`.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect"];
}

def TritonGPUPipeline : Pass<"tritongpu-pipeline", "mlir::ModuleOp"> {
  let summary = "software-pipeline scheduled loops with cp.async and TMA "
                "ring buffers";
  let description = [{
    For every loop tritongpu-schedule-loops scheduled: each stage-0 tt.load
    becomes a ttg.async_copy_global_to_local into a ring of L shared buffers
    (L = tt.scheduled_max_stage; slot = iteration % L) and a
    ttg.async_commit_group; before its first use a ttg.async_wait lets the
    groups of the next L - 1 iterations stay in flight, and the use reads the
    slot (ttg.local_load into the dot operand layout, or the slot itself for
    a local_alloc; for any other use, one ttg.local_load into the load's own
    layout from an unswizzled ring). The shared layout of a ring feeding a
    convert_layout is the one that convert would stage through.

    Each stage-0 tt.descriptor_load becomes a
    ttng.async_tma_copy_global_to_local into a ring in its descriptor's
    shared layout. The loads whose data one op reads first share a ring of
    one-arrival mbarriers, one per slot (ttng.init_barrier before the
    loop): where the first of them was, ttng.barrier_expect of their bytes
    together on the slot's barrier, and before that op one
    ttng.wait_barrier for the iteration's phase, (iteration / slots) % 2,
    carried by the loop and flipped where its slot counter wraps. Users read
    the slot as above (a local_alloc in the ring's layout read only through
    views becomes the slot; other users share one ttg.local_load). After
    the loop the barriers are invalidated.

    A ttng.warp_group_dot that reads a ring and whose f32 result only goes
    back into the loop runs asynchronously (`isAsync`): when it is its own
    next accumulator, a ttng.warp_group_dot_wait {pendings = 1} after it
    waits for the previous iteration's; otherwise (a rescaled accumulator)
    the next iteration waits for it {pendings = 0} where it first reads it,
    or right after its first wgmma if that comes earlier. Its other shared
    operand must be a ring slot or come from outside the loop. The rings
    then have L + 1 slots, since a wgmma may read its slot into the next
    iteration. Every other wgmma of the loop is issued asynchronously and
    waited for right after it ({pendings = 0}, Triton's form of a
    synchronous one); a rescaled accumulator's wait joins that of the
    first wgmma before its reader.

    Then MLIR's scf::pipelineForLoop writes the prologue (the first L
    iterations' copies) and the kernel, where stage-0 ops run L iterations
    ahead and are masked off past the end (no peeled epilogue; a masked TMA
    copy and its expect are not issued); after the loop a
    warp_group_dot_wait 0 for asynchronous wgmmas, an async_wait 0 drains
    the cp.async rings, and local_dealloc frees them. The schedule
    attributes are removed.

    A loop whose stage count, its own `tt.num_stages` or else `num-stages`,
    is 1 or less is not pipelined, even if scheduled. In every loop left
    unpipelined, each wgmma of the body is issued asynchronously and waited
    for right after it ({pendings = 0}), as Triton 3.6's pass leaves them at
    any num_stages (its dumps at num_stages = 1 show it).
  }];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "stage count of loops without their own tt.num_stages">
  ];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def TritonGPUPrefetch : Pass<"tritongpu-prefetch", "mlir::ModuleOp"> {
  let summary = "load a pipelined dot's operands one K slice at a time";
  let description = [{
    In a loop with one tt.dot of an #ttg.nvidia_mma v2 result whose operands
    are ttg.local_loads of loop-carried shared-memory views (what
    tritongpu-pipeline makes), the dot is split along K into slices of 32
    bytes (16 elements of 16 bits, one mma.sync k-step): each slice is a
    memdesc_subslice of the
    view and a local_load, and the first slice of the next iteration is
    loaded at the end of the current one (carried in two new loop
    arguments; the first iteration's before the loop). Registers then hold
    one slice of each operand at a time, and that first load overlaps the
    end of the previous iteration. Loops with other shapes are left alone.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPUOptimizeThreadLocality
    : Pass<"tritongpu-optimize-thread-locality", "mlir::ModuleOp"> {
  let summary = "keep reductions, the reshapes feeding them, and gathers within threads or warps";
  let description = [{
    Triton 3.6's pass of the same name, in its order:
    1. (greedily, with folding) a `tt.reshape allow_reorder` whose reduce
       users share one axis gets Triton's default blocked layout with one
       element per thread and that axis slowest, when the data does not
       already lie within threads along it and the reshape stays a view of
       the registers: the result is marked `efficient_layout` and converted
       back. A `tt.gather` of rank >= 2 not yet `efficient_layout` gets a
       blocked layout with the gathered axis within each warp (lanes, then
       registers), the other dims taking the leftover lanes and the warps in
       the source's lane and warp orders; operands and result are converted.
    2. In an scf.for, `acc = acc (+) tt.reduce(tt.load ..., last axis)` with
       (+) addf, mulf, maximumf, maxnumf, minimumf or minnumf (the reduce's
       only op, and the update the same op), the accumulator initialised by
       a constant and the load in a blocked layout with e > 1 elements per
       thread along the axis: the load is viewed as [..., n / e, e] with the
       e elements in each thread, reduced along the new dim within threads
       into a new iter_arg starting from the identity (+0.0, 1.0, -inf,
       +inf), and after the loop that is reduced along the axis, converted
       back and combined with the old initial value. Floating-point results
       change by reassociation. The old reduce and update are left dead and
       the old iter_arg passes through (canonicalize removes them).
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def TritonGPUCombineTensorSelectAndIf
    : Pass<"tritongpu-combine-tensor-select-and-if", "mlir::ModuleOp"> {
  let summary = "turn tensor selects on an scf.if's condition into results of the if";
  let description = [{
    Inside either branch of an `scf.if` on `%c`, `arith.select %c, %a, %b`
    is `%a` (then) or `%b` (else): such uses are rewritten first. Then a
    select of a tensor whose condition is also the condition of a later
    `scf.if` in the same block, where that if comes before every remaining
    user of the select, becomes a new result of the first such if: the then
    branch yields `%a`, the else branch (made if missing) `%b`. A thread
    then computes only the branch it takes instead of both operands of a
    select. Selects of scalars are left: they are cheap to predicate.
    Triton 3.6's pass of the same name.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def TritonGPUReorderInstructions
    : Pass<"tritongpu-reorder-instructions", "mlir::ModuleOp"> {
  let summary = "move ops to lower register and shared-memory pressure";
  let description = [{
    Triton 3.6's reordering, in its order:
    1. a `ttg.convert_layout` moves after the `ttg.local_dealloc`s between it
       and its first user in its block (its scratch may reuse what they free);
    2. a `ttg.local_load`, or a conversion into a dot operand layout, with a
       single user in another loop nest moves right before that user, so its
       registers are live only there (a local_load of a mutable buffer only
       when nothing in the loops it enters writes memory);
    3. a `ttg.local_alloc` of a tensor moves right after the op that makes the
       tensor (not a constant or splat), so the tensor's registers die early;
    4. `tt.trans` and `ttg.memdesc_trans` move right after their source's op;
    5. the local_load of a `tt.dot`'s B operand moves after that of its A
       operand when nothing between them writes memory, so the loads come
       in operand order (the order the mma instructions consume them).
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPUReduceDataDuplication
    : Pass<"tritongpu-reduce-data-duplication", "mlir::ModuleOp"> {
  let summary = "stage conversions into dot operand layouts through explicit shared buffers";
  let description = [{
    A `ttg.convert_layout` from a distributed layout into a `#ttg.dot_op`
    layout that has to go through shared memory (it is neither a register
    permutation nor a warp shuffle) becomes a `ttg.local_alloc` of the
    source in the swizzled layout Triton stages that operand in, and a
    `ttg.local_load` into the dot operand layout. Dot operand layouts hold
    elements more than once across threads; with the buffer explicit, CSE
    and the other passes can share one staged copy among its readers.
    Triton 3.6's pass of the same name.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

#endif
