// Layout questions the TTGIR passes ask about ops and values: how an
// encoding flows through an op (both directions), which conversions are free,
// which producers are cheap enough to recompute in another layout, and the
// backward slice a convert_layout would have to rewrite. Everything that
// depends on what a layout means is answered through LinearLayouts.
#ifndef TGPU_DIALECT_TRITONGPU_TRANSFORMS_LAYOUTUTILS_H
#define TGPU_DIALECT_TRITONGPU_TRANSFORMS_LAYOUTUTILS_H

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Layout/LinearLayout.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace mlir::tgpu {

// The linear layout of a tensor of `shape` in `encoding`; nullopt when the
// encoding is not a layout we can compute (malformed IR, missing encoding).
std::optional<::tgpu::layout::LinearLayout>
getLinearLayout(ArrayRef<int64_t> shape, Attribute encoding);

// Registers a thread holds for a tensor of `shape` in `encoding` (0 when
// unknown).
int64_t getTotalElemsPerThread(ArrayRef<int64_t> shape, Attribute encoding);

// Per tensor dim, how many distinct positions the lanes (`inDim` "lane") or
// warps ("warp") of `type`'s layout cover; broadcast bases count for nothing.
SmallVector<unsigned> getDistinctBasesPerDim(RankedTensorType type,
                                             StringRef inDim);

// Concatenating into `target` gives a thread fewer registers than the cat's
// current layout does (so data has to move between threads anyway).
bool catNeedsExchange(triton::CatOp cat, Attribute target);

// Converting `src` into `dst` only permutes each thread's registers.
bool convertOnlyPermutesRegisters(RankedTensorType src, RankedTensorType dst);

// A global load/store whose layout matters: block pointers, and tensors with
// at least one element per thread of the CTA.
bool isExpensiveMemoryAccess(Operation *op);
// The same for ttg.local_load.
bool isExpensiveSharedLoad(Operation *op);

// `op` can produce its result directly in `target`: a convert_layout in
// front of its result folds into it.
bool absorbsConversion(Operation *op, Attribute target);

// The encoding `op`'s result gets when its (tensor) operands have `encoding`,
// and the operand encoding `op` needs for its result to have `encoding`. Null
// when the op cannot take (or give) that encoding.
Attribute inferDstEncoding(Operation *op, Attribute encoding);
Attribute inferSrcEncoding(Operation *op, Attribute encoding);

// The result encoding of permuting the dims of a tensor of `shape` in
// `encoding` by `order` (result dim i is source dim order[i]); null when
// it cannot be expressed.
Attribute inferTransEncoding(Attribute encoding, ArrayRef<int64_t> shape,
                             ArrayRef<int32_t> order);

// The tensors that would have to change layout if `root`'s value were
// produced in `rootEncoding` instead of being converted: walks producers
// backwards through ops that can take another layout, stopping at ops that
// fold a conversion (splat, constant, ...), at free conversions' sources, at
// operands already in the wanted layout, and where `stop` says so. Fills
// `slice` (in discovery order) and `layout` (the new encoding of each value).
// Fails when a value would need two layouts, or the walk meets an op or
// region it cannot see through. `existing` may offer a value already holding
// an operand in the wanted encoding, which is then reused.
LogicalResult collectRematSlice(
    OpOperand &root, SetVector<Value> &slice, Attribute rootEncoding,
    DenseMap<Value, Attribute> &layout,
    function_ref<bool(Operation *)> stop = nullptr,
    function_ref<Value(OpOperand &, Attribute)> existing = nullptr);

// A copy of `loop` (built before it) with `newIterOperands` appended to its
// iter_args; the old body block moves over, with new block arguments for
// the extra operands (the yield is left to the caller). (old result, new
// result) pairs go to `replacements`; the old loop is left for the caller
// to erase.
scf::ForOp
appendLoopIterArgs(OpBuilder &builder, scf::ForOp loop,
                   ValueRange newIterOperands,
                   SmallVectorImpl<std::tuple<Value, Value>> &replacements);

// A copy of `ifOp` with `newResultTypes` appended to its results; both
// regions move over (their yields are left to the caller).
scf::IfOp
appendIfResults(OpBuilder &builder, scf::IfOp ifOp, TypeRange newResultTypes,
                SmallVectorImpl<std::tuple<Value, Value>> &replacements);

} // namespace mlir::tgpu

#endif
