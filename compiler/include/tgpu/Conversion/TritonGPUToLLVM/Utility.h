// Shared pieces of the TTGIR -> LLVM lowering: the type converter, the
// per-thread view of distributed tensors (an LLVM struct of the values a
// thread holds, one per register of the tensor's LinearLayout) and the index
// arithmetic, all derived from LinearLayouts.
#ifndef TGPU_CONVERSION_TRITONGPUTOLLVM_UTILITY_H
#define TGPU_CONVERSION_TRITONGPUTOLLVM_UTILITY_H

#include "tgpu/Analysis/AxisInfo.h"
#include "tgpu/Layout/LdMatrix.h"
#include "tgpu/Layout/LinearLayout.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tgpu {

using ::tgpu::layout::LinearLayout;

// What every pattern needs besides the op.
struct LoweringInfo {
  int numWarps = 4;
  int threadsPerWarp = 32;
  int computeCapability = 90;
  // PTX ISA version times ten; 0 when not limited below the target's.
  int ptxVersion = 0;
  const ModuleAxisInfoAnalysis *axisInfo = nullptr;
  // The module has ops that read shared memory through the async proxy
  // (wgmma): what cp.async writes must be fenced for them.
  bool asyncProxyReads = false;
};

// Tensors with a distributed layout become !llvm.struct<(T x registers)>,
// !tt.ptr<T, AS> becomes !llvm.ptr<AS>; the rest is the LLVM default.
class TritonGPUToLLVMTypeConverter : public LLVMTypeConverter {
public:
  TritonGPUToLLVMTypeConverter(MLIRContext *ctx,
                               const LowerToLLVMOptions &options);
};

// The LinearLayout of a distributed tensor type (ins register, lane, warp,
// block; outs dim0..), or failure with a diagnostic at `loc`.
FailureOr<LinearLayout> getDistributedLayout(RankedTensorType type,
                                             Location loc);

// The values of a struct-typed lowered tensor, or the value itself.
SmallVector<Value> unpackValues(RewriterBase &rewriter, Location loc,
                                Value packed);
// Packs `values` into `structType` (a lowered tensor type).
Value packValues(RewriterBase &rewriter, Location loc, Type structType,
                 ArrayRef<Value> values);

Value i32Constant(RewriterBase &rewriter, Location loc, int64_t v);

// A vector of `elems` (all one type), element 0 first: how several values
// travel in one register (an f16x2 pair, four i8 in an i32).
Value packVector(RewriterBase &rewriter, Location loc, ArrayRef<Value> elems);

// threadIdx.x, and its lane and warp parts.
Value getThreadId(RewriterBase &rewriter, Location loc);
std::pair<Value, Value> getLaneAndWarpId(RewriterBase &rewriter, Location loc,
                                         int threadsPerWarp);

// For every register of `layout`, the i32 tensor coordinates (one per out
// dim) the calling thread holds there: the registers' compile-time part XOR
// the lane/warp part computed once from the thread id.
SmallVector<SmallVector<Value>> emitIndices(RewriterBase &rewriter,
                                            Location loc,
                                            const LinearLayout &layout,
                                            int threadsPerWarp);

// Shared-memory pointers for the registers of `map` (register/lane/warp ->
// "offset", in elements of `elemType` from `base`) that `wanted` selects
// (null for the others). An offset is T(lane, warp) ^ R(register): the bits
// of R that T can never set are added as a constant GEP index, which the
// back end folds into the address, and only the rest is XORed in, once per
// distinct value -- one op per access instead of an XOR and a GEP.
// `xorOffset` is XORed into every register's offset (a view's origin, see
// getSharedViewMap).
SmallVector<Value> emitSharedPointers(RewriterBase &rewriter, Location loc,
                                      const LinearLayout &map, Value base,
                                      Type elemType, int threadsPerWarp,
                                      llvm::function_ref<bool(int32_t)> wanted,
                                      int32_t xorOffset = 0);

// The registers an ldmatrix plan (LdMatrix.h) reads from `base`: one
// nvvm.ldmatrix per group of wordElements x num registers, each 32-bit
// result wordElements elements of `elem`, in register order.
SmallVector<Value> loadWithLdMatrix(RewriterBase &rewriter, Location loc,
                                    const ::tgpu::layout::LdMatrixPlan &plan,
                                    Type elem, Value base,
                                    int32_t xorOffset = 0);

// The store counterpart (sm_90 stmatrix, which places data as ldmatrix
// delivers it): writes `values`, the registers in that order, with one
// nvvm.stmatrix per group of wordElements x num registers.
void storeWithStMatrix(RewriterBase &rewriter, Location loc,
                       const ::tgpu::layout::LdMatrixPlan &plan, Type elem,
                       Value base, ArrayRef<Value> values,
                       int32_t xorOffset = 0);

// Where a distributed tensor's registers sit in a shared-memory view:
// register/lane/warp/block -> offset (elements from the view's lowered
// pointer, which is its buffer's or slot's), XORed with `xorOffset`. A whole
// buffer or memdesc_index slot has xorOffset 0. A memdesc_subslice box of
// one lowers to the same pointer: its elements are the buffer's layout S
// at the box's coordinates i + o, and S⁻¹(i + o) = S⁻¹(i) ^ S⁻¹(o) because
// o, a multiple of the box's shape, shares no bits with i. The origin o
// comes from the chain of memdesc_subslice ops back to a whole buffer; a
// box whose chain is cut (a block argument) is an error at `loc`.
struct SharedViewMap {
  LinearLayout toOffset;
  int32_t xorOffset = 0;
  // Consecutive registers one access can cover, at most `maxElems`: a
  // register run over consecutive offsets that starts aligned, in the
  // buffer and after the origin's XOR.
  int64_t vectorWidth(int64_t maxElems) const;
};
FailureOr<SharedViewMap>
getSharedViewMap(Location loc, RankedTensorType tensorType, Value memdesc);

// A predicate that is true in exactly one of the threads (and registers)
// holding each element: lanes and warps whose bits `layout` ignores skip.
// Null when every thread owns distinct elements.
Value emitUniqueOwnerPredicate(RewriterBase &rewriter, Location loc,
                               const LinearLayout &layout, int threadsPerWarp);

// Where `op`'s shared-memory buffer starts: the kernel's dynamic shared
// memory (@global_smem, !llvm.ptr<3>, declared in the module on first use;
// the launch gives it the module's ttg.shared bytes) plus the op's
// allocation.offset.
Value getSharedMemoryBase(RewriterBase &rewriter, Operation *op);

// The out-dim values (i32, one per out dim) `layout` gives input `id` of
// `inDim` at run time, every other input 0: the XOR of the bases `id`'s
// bits select.
SmallVector<Value> emitLayoutApply(RewriterBase &rewriter, Location loc,
                                   const LinearLayout &layout, StringRef inDim,
                                   Value id);

// The coordinates (one per out dim) `layout` gives input `v` of `inDim`
// with every other input 0: a basis combination, known at compile time.
SmallVector<int32_t> layoutCoords(const LinearLayout &layout, StringRef inDim,
                                  int32_t v);

// Bytes of one element of `type` (or of its elements) in memory: pointers 8,
// i1 1.
int64_t memoryElementBytes(Type type);

// shfl.sync (full mask) of any scalar: narrower values widened to i32,
// 64-bit ones in two halves, pointers as integers. `.up` clamps at lane 0,
// the other kinds at lane 31.
Value emitShuffle(RewriterBase &rewriter, Location loc, Value v,
                  NVVM::ShflKind kind, Value laneOrDelta);

// How a lowered element type sits in shared memory: i1 as a byte (PTX
// has no 1-bit accesses), everything else as itself.
Type getSharedMemoryType(Type elem);
// `v` as stored in shared memory (i1 widened to i8), and a loaded value
// back as `elem`.
Value toSharedMemoryValue(RewriterBase &rewriter, Location loc, Value v);
Value fromSharedMemoryValue(RewriterBase &rewriter, Location loc, Value v,
                            Type elem);

// Clones a reduce/scan combine region (arguments: n "first" values, then n
// "second" values) at the insertion point; returns the values it yields.
SmallVector<Value> inlineCombineRegion(RewriterBase &rewriter, Block &body,
                                       ArrayRef<Value> first,
                                       ArrayRef<Value> second);

// The LinearLayouts of two tensor types, or nothing when either has no
// layout or cannot be converted (for size queries, which answer 0 then).
std::optional<std::pair<LinearLayout, LinearLayout>>
getLayoutsOrNone(RankedTensorType a, RankedTensorType b);

// The 8-bit float types emitFp8ToF32 decodes: f8E5M2 and f8E4M3FN (Triton's
// fp8e5 and fp8e4nv).
bool isDecodableFp8(Type type);
// An 8-bit float, held as its i8 bit pattern (how the type converter lowers
// the f8 types), as the f32 of the same value, exactly; nullptr for a type
// isDecodableFp8 refuses.
Value emitFp8ToF32(RewriterBase &rewriter, Location loc, Value bits,
                   Type fp8Type);

// The row-major linear index of `coords` in `shape`.
Value linearize(RewriterBase &rewriter, Location loc, ArrayRef<Value> coords,
                ArrayRef<int64_t> shape);

// PTX inline asm written as Triton writes it, so that the lowered text
// reads the same: operands numbered in the order they are added (outputs
// first), "{ $a, $b }" lists, AT&T dialect, side effects, no operand
// attributes.
class PtxAsmOperands {
public:
  // "=<constraint>"; returns the operand's number.
  unsigned output(StringRef constraint) {
    constraints.push_back(("=" + constraint).str());
    return constraints.size() - 1;
  }
  unsigned input(Value value, StringRef constraint) {
    values.push_back(value);
    constraints.push_back(constraint.str());
    return constraints.size() - 1;
  }
  std::string constraintString() const;
  ArrayRef<Value> inputs() const { return values; }

private:
  SmallVector<std::string> constraints;
  SmallVector<Value> values;
};

// "{ $first, ..., $(first + count - 1) }"
std::string ptxOperandList(unsigned first, unsigned count);

LLVM::InlineAsmOp createPtxAsm(RewriterBase &rewriter, Location loc,
                               TypeRange results,
                               const PtxAsmOperands &operands, StringRef text);

} // namespace mlir::tgpu

#endif
