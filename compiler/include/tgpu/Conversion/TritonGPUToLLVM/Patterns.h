// The pattern families of convert-triton-gpu-to-llvm, one file each.
#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_PATTERNS_H
#define TGPU_CONVERSION_TRITONGPUTOLLVM_PATTERNS_H

#include "tgpu/Conversion/TritonGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tgpu {

// tt.func / tt.return / tt.call, program ids.
void populateFuncOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringInfo &info);
// Element-wise arith/math/tt ops on tensors (per register), dense splat
// constants, tt.addptr.
void populateElementwiseOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info);
// make_range, splat, broadcast, expand_dims, trans, convert_layout, join,
// split, reshape, cat.
void populateViewOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringInfo &info);
// tt.load / tt.store: predicated, vectorised PTX accesses.
void populateLoadStoreOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringInfo &info);

// Scalar exp/exp2/log/log2/sin/cos through PTX approximate instructions,
// the math ops NVPTX cannot select through libdevice (__nv_*) calls.
void populateMathOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);
// Fails, with a diagnostic, on a math op that has no GPU lowering.
LogicalResult checkMathOpsLowerable(ModuleOp module);
// The same for the tt element-wise ops (tt.fp_to_fp's type pairs and
// rounding, tt.mulhiui's widths) and for tt.dot's operand types.
LogicalResult checkElementwiseOpsLowerable(ModuleOp module,
                                           int computeCapability);
LogicalResult checkDotOpsLowerable(ModuleOp module);
// Fails, with a located "not supported yet" diagnostic, on the first op (or
// function signature) that uses what tgpu reads and verifies but does not
// compile: warp specialization and the pipeliner's ttg ops, tt.map_elementwise,
// tt.dot_scaled, ttng ops other than wgmma's and the mbarriers', !tt.tensordesc
// values. The lowering and the passes before it (shared memory allocation,
// barriers) call it first, and so does tgpu::Compiler before any pass, so none
// of them meets such an op. `ttgirPassesFollow` (a TTIR module about to go
// through the TTIR -> TTGIR passes) also accepts the descriptor loads and
// stores that triton-nvidia-tma-lowering turns into TMA copies there.
LogicalResult checkOpsSupported(ModuleOp module,
                                bool ttgirPassesFollow = false);

// The external llvm.func `name` of `type`, declared at the top of `op`'s
// module on first use; failure, diagnosed at `op`, when the module has a
// different symbol of that name.
FailureOr<LLVM::LLVMFuncOp>
getOrDeclareExternalFunction(RewriterBase &rewriter, Operation *op,
                             StringRef name, LLVM::LLVMFunctionType type);

// ttng.warp_group_dot (wgmma.mma_async from shared-memory descriptors),
// ttng.warp_group_dot_wait and ttng.fence_async_shared (sm_90a).
void populateWgmmaOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const LoweringInfo &info);
// The mbarrier ops (init, inval, expect, arrive, wait) and
// ttng.async_copy_mbarrier_arrive, as Triton writes them.
void populateMbarrierOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const LoweringInfo &info);
// Fails, with a diagnostic, on a `tt.nv_tma_desc` argument mark that is not
// 1 on a pointer argument of a kernel.
LogicalResult checkTmaDescriptorArgs(ModuleOp module);
// Fails, with a diagnostic, on an mbarrier or TMA op in a form that needs
// sm_90 when `computeCapability` is older.
LogicalResult checkAsyncOpsLowerable(ModuleOp module, int computeCapability);
// Fails, with a diagnostic, on a TMA copy whose buffer TMA cannot write or
// read as its layout places the elements.
LogicalResult checkTmaOpsLowerable(ModuleOp module);
// The box (per dim, outermost first), swizzle and element size (bytes) a
// CUtensorMap needs for TMA copies of a whole block of `shape` and
// `elemType` laid out as `encoding`; a diagnostic at `op` when TMA cannot
// copy it.
struct TmaBox {
  std::vector<int32_t> box;
  int swizzleBytes = 0;
  int elemBytes = 0;
};
FailureOr<TmaBox> planTmaBox(Operation *op, ArrayRef<int64_t> shape,
                             Type elemType, Attribute encoding);
// ttng.async_tma_copy_global_to_local / local_to_global,
// async_tma_store_wait and reinterpret_tensor_descriptor.
void populateTmaOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const LoweringInfo &info);
// fence.proxy.async.shared::cta (::cluster): orders this thread's earlier
// generic-proxy shared-memory writes before async-proxy reads (wgmma, TMA).
void emitFenceProxyAsyncShared(RewriterBase &rewriter, Location loc,
                               bool cluster = false);

// tt.elementwise_inline_asm: one llvm.inline_asm per packed_element
// registers.
void populateInlineAsmOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
// tt.print (vprintf, one line per element) and tt.assert (__assertfail).
void populatePrintAssertOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info);

// tt.atomic_rmw / tt.atomic_cas: predicated PTX atom by one owner each.
void populateAtomicOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringInfo &info);
// Bytes of shared memory an atomic needs to hand its old values to the other
// holders of each element.
int64_t getAtomicScratchBytes(Operation *op);

// local_alloc/local_load/local_store/local_dealloc, memdesc views,
// ttg.barrier.
void populateMemoryOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringInfo &info);

// ttg.async_copy_global_to_local (cp.async), async_commit_group,
// async_wait; async tokens lower to i32 0.
void populateAsyncCopyOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringInfo &info);

// Bytes of scratch shared memory `op`'s lowering needs while it runs (0
// for none): the family functions below, for allocate-shared-memory and
// tritongpu-membar.
int64_t getScratchBytes(Operation *op);
// Most shared memory a block may use on a target (opt-in maximum).
int64_t getMaxSharedBytesPerBlock(int computeCapability);

// tt.dot on the FMA path (#ttg.dot_op operands of a blocked result).
void populateDotOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

// tt.dot on tensor cores: a #ttg.nvidia_mma v2 result and #ttg.dot_op
// operands of it, one mma.sync per 16x8 tile and k step (f16, bf16, tf32).
void populateMmaDotOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);

// Bytes of shared memory a convert_layout needs (0 when it stays in
// registers).
int64_t getConvertLayoutScratchBytes(Operation *op);

// tt.reduce: in registers, across lanes (shuffles), across warps (shared
// memory).
void populateReduceOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringInfo &info);
// Bytes of shared memory a tt.reduce needs to combine across warps (0 when
// its warps do not split the axis).
int64_t getReduceScratchBytes(Operation *reduceOp);

// Bytes of shared memory a tt.cat needs (0 when it stays in registers).
int64_t getCatScratchBytes(Operation *op);

// tt.scan: in registers, across lanes (shuffles), across warps (shared
// memory).
void populateScanOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringInfo &info);
// Bytes of shared memory a tt.scan needs to pass warp totals on (0 when its
// warps do not split the axis).
int64_t getScanScratchBytes(Operation *op);

// tt.gather and tt.histogram, through shared memory.
void populateGatherHistogramOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info);
int64_t getGatherScratchBytes(Operation *op);
int64_t getHistogramScratchBytes(Operation *op);

} // namespace mlir::tgpu

#endif
