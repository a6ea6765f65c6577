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

// Per dim of `type`, the elements one thread holds along it: 2^(register
// bases moving along the dim), a broadcast register basis counting for the
// dim of the basis before it (the first dim when it leads), as Triton counts
// them. Empty when the layout is unknown.
SmallVector<int64_t> getElemsPerThreadPerDim(RankedTensorType type);

// The dims of `type` in the order in which the bases of `inDim` ("register",
// "lane", "warp") first move along them, followed by the dims they never
// move along in `rest` order (a permutation of all dims). Triton's
// register / thread / warp orders: registers with rest [rank-1, ..., 0],
// lanes and warps with rest = the register order. Empty when unknown.
SmallVector<unsigned> getInDimOrder(RankedTensorType type, StringRef inDim,
                                    ArrayRef<unsigned> rest);

// Concatenating into `target` gives a thread fewer registers than the cat's
// current layout does (so data has to move between threads anyway).
bool catNeedsExchange(triton::CatOp cat, Attribute target);

// Converting `src` into `dst` only permutes each thread's registers.
bool convertOnlyPermutesRegisters(RankedTensorType src, RankedTensorType dst);

// Converting `src` into `dst` goes through shared memory: it is neither a
// permutation of each thread's registers nor a warp shuffle, the two forms
// the convert_layout lowering does in registers.
bool convertNeedsSharedMemory(RankedTensorType src, RankedTensorType dst);

// The dim order (fastest first) in which a tensor of `rank` dims in
// `encoding` is written to shared memory: a blocked layout's own order, a
// slice's parent order without the sliced dim, the last dim fastest for
// other distributed layouts. Nothing for layouts split among CTAs or not
// distributed.
std::optional<SmallVector<unsigned>> getOrderForMemory(Attribute encoding,
                                                       unsigned rank);

// The swizzled shared layout an operand of `dotOp` (a tensor of `shape` and
// `elemType` written in `order`) is staged in, as Triton 3.6 chooses it for
// #ttg.nvidia_mma parents, so that a staged kernel reads like Triton's:
// `vec` elements run along the fastest dim (one mma's K extent, 4 * kWidth,
// when that dim is K; the 8 rows of an mma tile otherwise), rows sharing a
// 128-byte line share a phase (perPhase), and the phases cover the other
// side of the tile or the 128 bytes of a line, whichever is smaller.
// Unswizzled for other parents, kWidth 0 or rank < 2.
Attribute getDotOperandSharedEncoding(triton::gpu::DotOperandEncodingAttr dotOp,
                                      ArrayRef<int64_t> shape,
                                      ArrayRef<unsigned> order, Type elemType,
                                      ArrayRef<int32_t> cgaBases);

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
