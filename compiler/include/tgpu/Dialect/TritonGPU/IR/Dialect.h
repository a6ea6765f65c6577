// The `ttg` dialect: layout encodings, !ttg.memdesc, shared-memory ops.
#ifndef TGPU_DIALECT_TRITONGPU_IR_DIALECT_H
#define TGPU_DIALECT_TRITONGPU_IR_DIALECT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include <memory>
#include <mutex>

namespace mlir::triton::gpu {
class LayoutCache; // defined with tgpu::layout::toLinearLayout
} // namespace mlir::triton::gpu

#include "tgpu/Dialect/TritonGPU/IR/TritonGPUDialect.h.inc"
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUTypes.h.inc"

namespace mlir::triton::gpu {

struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};

// Distributed encodings place tensor elements in registers of threads.
bool isDistributedEncoding(Attribute enc);
// Shared encodings place them at offsets of a shared-memory buffer.
bool isSharedEncoding(Attribute enc);
// The rank an encoding describes (0 when it cannot tell, e.g. an empty linear).
unsigned getEncodingRank(Attribute enc);
// Blocked, mma or linear at the root of slice/dot_op chains.
Attribute getRootEncoding(Attribute enc);

// The launch parameters an op runs with: the nearest enclosing op's
// ttg.num-warps / ttg.threads-per-warp (the module's, for whole kernels);
// 4 and 32 when none says. Inside a ttg.warp_specialize partition, the
// number of warps is the partition's.
int lookupNumWarps(Operation *op);
// As lookupNumWarps, without the default: nullopt when nothing says.
std::optional<int> maybeLookupNumWarps(Operation *op);
int lookupThreadsPerWarp(Operation *op);
// The compute capability N of the enclosing module's ttg.target = "cuda:N";
// nullopt when there is none or it names another target.
std::optional<int> lookupComputeCapability(Operation *op);

// A memdesc view op's source buffer (memdesc_index, _subslice, _trans,
// _reshape); null when `op` is not such a view.
Value getMemDescViewSource(Operation *op);

// Viewing `src` as `dst` (a reshape) moves data between threads: the two
// layouts replicate elements over different bits, or hold different numbers
// of registers per thread (Triton's isExpensiveView). True when either has
// no layout tgpu can compute.
bool viewMovesData(RankedTensorType src, RankedTensorType dst);

// Whether `type` carries a layout: a tensor with an encoding, or a buffer.
bool typeHasLayout(Type type);
// The first op under `root` (itself included) with a result or a block
// argument of such a type: what makes a module TTGIR rather than TTIR.
Operation *findOpWithLayout(Operation *root);

// The layout of tt.split's results from a blocked source whose threads each
// hold both halves of the last dim (sizePerThread 2 there, one lane and one
// warp); null for any other source.
Attribute getSplitResultEncoding(Attribute src);

// The layout of tt.split's results from any distributed source of `shape`:
// the blocked form above where it applies (what Triton prints), else the
// halves of the source's LinearLayout as a #ttg.linear; null when a thread
// does not hold both halves.
Attribute inferSplitResultEncoding(Attribute src, ArrayRef<int64_t> shape);

// Triton's blocked layout for `shape` with `sizePerThread` elements per thread
// and dims `order`ed fastest first: lanes, then warps, go to the fastest dims
// first (each taking at most shape / sizePerThread threads), and the slowest
// dim takes whatever is left.
BlockedEncodingAttr getBlockedEncoding(MLIRContext *ctx,
                                       ArrayRef<int64_t> shape,
                                       ArrayRef<unsigned> sizePerThread,
                                       ArrayRef<unsigned> order, int numWarps,
                                       int threadsPerWarp,
                                       ArrayRef<int32_t> cgaBases = {});

} // namespace mlir::triton::gpu

#define GET_OP_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUOps.h.inc"

#endif
