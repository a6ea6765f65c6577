// The pattern families of convert-triton-gpu-to-llvm, one file each.
#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_PATTERNS_H
#define TGPU_CONVERSION_TRITONGPUTOLLVM_PATTERNS_H

#include "tgpu/Conversion/TritonGPUToLLVM/Utility.h"

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
// make_range, splat, broadcast, expand_dims, trans, convert_layout.
void populateViewOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringInfo &info);
// tt.load / tt.store: predicated, vectorised PTX accesses.
void populateLoadStoreOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringInfo &info);

// Scalar exp/exp2/log/log2/sin/cos through PTX approximate instructions.
void populateMathOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);
// Fails, with a diagnostic, on a math op the NVPTX back end cannot select.
LogicalResult checkMathOpsLowerable(ModuleOp module);

// tt.atomic_rmw / tt.atomic_cas: predicated PTX atom by one owner each.
void populateAtomicOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringInfo &info);
// Bytes of shared memory an atomic needs to hand its old values to the other
// holders of each element.
int64_t getAtomicScratchBytes(Operation *op);

// tt.dot on the FMA path (#ttg.dot_op operands of a blocked result).
void populateDotOpToLLVMPatterns(TritonGPUToLLVMTypeConverter &converter,
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

} // namespace mlir::tgpu

#endif
