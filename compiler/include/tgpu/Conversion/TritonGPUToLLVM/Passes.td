#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_PASSES
#define TGPU_CONVERSION_TRITONGPUTOLLVM_PASSES

include "mlir/Pass/PassBase.td"

def AllocateSharedMemory : Pass<"allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "place every shared-memory buffer (liveness-based offsets)";
  let description = [{
    Gives every ttg.local_alloc and every op whose lowering needs scratch
    shared memory (convert_layout through shared memory, reductions and
    scans across warps, gathers, atomics whose old values are shared) a byte
    offset, written as its `allocation.offset` attribute. Buffers live at
    the same time get disjoint bytes; the others share. The kernel's total
    goes in the module's `ttg.shared` attribute. Fails when it exceeds what
    the target gives a block and `check-limit` is set (the compile
    pipeline sets it; as in triton-opt, the pass alone only measures).
  }];
  let options =
      [Option<"checkLimit", "check-limit", "bool", /*default=*/"false",
              "fail when the kernel needs more shared memory than the target "
              "gives a block">,
  ];
}

def AllocateSharedMemoryNv
    : Pass<"allocate-shared-memory-nv", "mlir::ModuleOp"> {
  let summary = "allocate-shared-memory with an explicit NVIDIA target";
  let description = [{
    The same placement as `allocate-shared-memory`, under the name and
    options Triton's NVIDIA backend registers (`compute-capability`,
    `ptx-version`), so that RUN lines written for triton-opt run unchanged.
    The compute capability only matters for `check-limit`.
  }];
  let options =
      [Option<"computeCapability", "compute-capability", "int32_t",
              /*default=*/"0",
              "compute capability, e.g. 90 (0: the module's ttg.target, "
              "80 without one)">,
       Option<"ptxVersion", "ptx-version", "int32_t", /*default=*/"0",
              "PTX ISA version times ten, e.g. 81 (0: the newest the target "
              "needs)">,
       Option<"checkLimit", "check-limit", "bool", /*default=*/"false",
              "fail when the kernel needs more shared memory than the target "
              "gives a block">,
  ];
}

def TritonGPUGlobalScratchAllocation
    : Pass<"tritongpu-global-scratch-memory-allocation", "mlir::ModuleOp"> {
  let summary = "place each program's global scratch buffers";
  let description = [{
    A `ttg.global_scratch_alloc` is a buffer in global memory private to
    each program (a device-made CUtensorMap, say). This pass gives every
    one an offset (`ttg.global_scratch_memory_offset`), each at its
    alignment, one after the other, and records on the kernel and on the
    module the bytes each program needs and their alignment
    (`ttg.global_scratch_memory_size`, `ttg.global_scratch_memory_alignment`).
    The kernel then takes one more parameter, a pointer to the scratch of
    the whole grid, `size` bytes per program in the order of the programs'
    linear ids (x fastest); the launcher allocates it. Only a kernel may
    allocate global scratch: a function it calls would need its caller's
    scratch pointer (inline it).
  }];
}

def TritonGPUMembar : Pass<"tritongpu-membar", "mlir::ModuleOp"> {
  let summary = "insert barriers between racing shared-memory accesses";
  let description = [{
    Inserts `ttg.barrier local` before every op whose shared-memory access
    may race with one made since the last barrier (read after write, write
    after read, write after write, on overlapping bytes), following scf
    control flow: branches join, loops iterate to a fixed point. Needs the
    offsets allocate-shared-memory writes; no barrier where no race is
    possible.
  }];
}

def ConvertTritonGPUToLLVM : Pass<"convert-triton-gpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "TTGIR -> LLVM dialect (+ NVVM): per-thread code";
  let description = [{
    Every distributed tensor becomes the LLVM struct of the values one thread
    holds (its layout's registers); indices, vector widths and predicates
    come from the layouts' LinearLayouts. tt.func becomes an llvm.func with
    the nvvm.kernel attribute (public functions) and scalar/pointer
    parameters. The target is the `compute-capability` option, else the
    module's ttg.target attribute (cuda:N), else sm_80, as in Triton. Runs
    after allocate-shared-memory (it reads the buffer offsets),
    tritongpu-membar and convert-scf-to-cf.
  }];
  let options =
      [Option<"computeCapability", "compute-capability", "int32_t",
              /*default=*/"0",
              "compute capability, e.g. 90 (0: the module's ttg.target, "
              "80 without one)">,
       Option<"ptxVersion", "ptx-version", "int32_t", /*default=*/"0",
              "PTX ISA version times ten, e.g. 81; instructions newer than it "
              "are not emitted (0: no limit below the target's)">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
                           "mlir::triton::nvgpu::NVGPUDialect"];
}

#endif
