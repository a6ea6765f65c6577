// triton-rewrite-tensor-pointer: block pointers (tt.make_tensor_ptr,
// tt.advance) become what they stand for. A block pointer is a base pointer,
// a shape, strides and per-dimension i64 offsets; only the offsets change
// (tt.advance), so only they travel through scf.for and scf.if as i64
// values. Each load and store through a block pointer becomes one through a
// tensor of pointers base + sum_i (offset_i + index_i) * stride_i, masked
// where the boundary check says (0 <= offset_i + index_i < shape_i) and, for
// loads, filled with the padding value where masked off.
//
// Block pointers are traced from their tt.make_tensor_ptr through the ops
// above; anything else that carries one (a function argument, scf.while, a
// call, a branch) is reported at that op, and so is a loop or if whose
// block pointers do not share base, shape and strides on every path.
#include "tgpu/Dialect/Triton/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONREWRITETENSORPOINTER
#include "tgpu/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;

namespace {

constexpr llvm::StringLiteral kPassName = "triton-rewrite-tensor-pointer: ";

bool isBlockPointer(Type type) {
  auto ptr = dyn_cast<tt::PointerType>(type);
  return ptr && isa<RankedTensorType>(ptr.getPointeeType());
}

bool hasBlockPointer(TypeRange types) {
  return llvm::any_of(types, isBlockPointer);
}

struct BlockPointer {
  Value base;
  SmallVector<Value> shape, strides, offsets; // i64 each
  RankedTensorType tile;

  bool sameFrame(const BlockPointer &other) const {
    return base == other.base && shape == other.shape &&
           strides == other.strides && tile == other.tile;
  }
  BlockPointer withOffsets(ValueRange newOffsets) const {
    BlockPointer result = *this;
    result.offsets.assign(newOffsets.begin(), newOffsets.end());
    return result;
  }
};

// The address computation of one load or store; the per-dimension offsets
// of the tile's elements are built once and shared by pointer and mask.
class Access {
public:
  Access(OpBuilder &builder, Location loc, const BlockPointer &ptr)
      : builder(builder), loc(loc), ptr(ptr),
        expanded(ptr.tile.getRank(), Value()) {}

  Value pointers() {
    ArrayRef<int64_t> shape = ptr.tile.getShape();
    auto ptrs = RankedTensorType::get(shape, ptr.base.getType());
    auto i64s = RankedTensorType::get(shape, builder.getI64Type());
    Value result = tt::SplatOp::create(builder, loc, ptrs, ptr.base);
    for (unsigned i = 0; i < shape.size(); ++i) {
      Value offset = offsetOfDim(i);
      // The stride is splat in the offset's shape, not the tile's, so that
      // AxisInfo sees its divisibility before the broadcast.
      Value stride =
          tt::SplatOp::create(builder, loc, offset.getType(), ptr.strides[i]);
      Value scaled = arith::MulIOp::create(builder, loc, offset, stride);
      result = tt::AddPtrOp::create(builder, loc, ptrs, result,
                                    broadcastTo(scaled, i64s));
    }
    return result;
  }

  // Null when no dimension is checked.
  Value mask(ArrayRef<int32_t> boundaryCheck) {
    auto bools =
        RankedTensorType::get(ptr.tile.getShape(), builder.getI1Type());
    Value result;
    for (int32_t dim : boundaryCheck) {
      Value offset = offsetOfDim(dim);
      Value zero =
          arith::ConstantIntOp::create(builder, loc, builder.getI64Type(), 0);
      Value zeros = tt::SplatOp::create(builder, loc, offset.getType(), zero);
      Value aboveLow = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sge, offset, zeros);
      Value bound =
          tt::SplatOp::create(builder, loc, offset.getType(), ptr.shape[dim]);
      Value belowHigh = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::slt, offset, bound);
      Value inside = broadcastTo(
          arith::AndIOp::create(builder, loc, aboveLow, belowHigh), bools);
      result =
          result ? arith::AndIOp::create(builder, loc, result, inside) : inside;
    }
    return result;
  }

  // The padding value in the tile's shape (null without padding); an
  // integer tile cannot be padded with NaN.
  FailureOr<Value> padding(Operation *op,
                           std::optional<tt::PaddingOption> option) {
    if (!option)
      return Value();
    Type element = ptr.tile.getElementType();
    TypedAttr value = builder.getZeroAttr(element);
    if (*option == tt::PaddingOption::PAD_NAN) {
      auto floatType = dyn_cast<FloatType>(element);
      if (!floatType)
        return op->emitError(kPassName)
               << "NaN padding needs a float element type, not " << element;
      value = builder.getFloatAttr(
          element, APFloat::getNaN(floatType.getFloatSemantics()));
    }
    Value scalar = arith::ConstantOp::create(builder, loc, value);
    return Value(tt::SplatOp::create(builder, loc, ptr.tile, scalar));
  }

private:
  // offset_dim + [0, size): i64, with size-1 dims for the others.
  Value offsetOfDim(unsigned dim) {
    if (expanded[dim])
      return expanded[dim];
    int64_t size = ptr.tile.getDimSize(dim);
    auto i64Row = RankedTensorType::get({size}, builder.getI64Type());
    auto i32Row = RankedTensorType::get({size}, builder.getI32Type());
    Value start = tt::SplatOp::create(builder, loc, i64Row, ptr.offsets[dim]);
    Value range = tt::MakeRangeOp::create(builder, loc, i32Row, 0, size);
    Value wide = arith::ExtSIOp::create(builder, loc, i64Row, range);
    Value result = arith::AddIOp::create(builder, loc, start, wide);
    SmallVector<int64_t> shape = {size};
    for (unsigned other = 0; other < ptr.tile.getRank(); ++other) {
      if (other == dim)
        continue;
      shape.insert(shape.begin() + other, 1);
      auto type = RankedTensorType::get(shape, builder.getI64Type());
      result = tt::ExpandDimsOp::create(builder, loc, type, result, other);
    }
    return expanded[dim] = result;
  }

  Value broadcastTo(Value value, RankedTensorType type) {
    if (value.getType() == type)
      return value;
    return tt::BroadcastOp::create(builder, loc, type, value);
  }

  OpBuilder &builder;
  Location loc;
  const BlockPointer &ptr;
  SmallVector<Value> expanded;
};

class BlockPointerRewriter {
public:
  LogicalResult rewriteBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(rewriteOp(&op)))
        return failure();
    return success();
  }

  // The replaced ops, erased once nothing refers to them. Every user of a
  // block pointer was rewritten or reported, so none is left; should one be,
  // it is reported rather than left pointing at an erased op.
  LogicalResult eraseReplaced() {
    for (Operation *op : replaced)
      op->dropAllReferences();
    for (Operation *op : replaced)
      if (!op->use_empty())
        return op->emitError(kPassName)
               << "this op is still used after the rewrite";
    for (Operation *op : llvm::reverse(replaced))
      op->erase();
    return success();
  }

private:
  LogicalResult rewriteOp(Operation *op) {
    if (auto make = dyn_cast<tt::MakeTensorPtrOp>(op))
      return rewriteMake(make);
    if (auto advance = dyn_cast<tt::AdvanceOp>(op))
      return rewriteAdvance(advance);
    if (auto load = dyn_cast<tt::LoadOp>(op);
        load && isBlockPointer(load.getPtr().getType()))
      return rewriteLoad(load);
    if (auto store = dyn_cast<tt::StoreOp>(op);
        store && isBlockPointer(store.getPtr().getType()))
      return rewriteStore(store);
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && hasBlockPointer(loop.getInitArgs().getTypes()))
      return rewriteFor(loop);
    if (auto ifOp = dyn_cast<scf::IfOp>(op);
        ifOp && hasBlockPointer(ifOp.getResultTypes()))
      return rewriteIf(ifOp);
    if (auto yield = dyn_cast<scf::YieldOp>(op);
        yield && hasBlockPointer(yield.getOperandTypes()))
      return rewriteYield(yield);
    if (hasBlockPointer(op->getOperandTypes()) ||
        hasBlockPointer(op->getResultTypes()))
      return op->emitError(kPassName) << "block pointers through '"
                                      << op->getName() << "' are not supported";
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(rewriteBlock(block)))
          return failure();
    return success();
  }

  FailureOr<BlockPointer> lookup(Operation *user, Value ptr) {
    auto it = infos.find(ptr);
    if (it == infos.end())
      return user->emitError(kPassName)
             << "cannot trace this block pointer to its tt.make_tensor_ptr";
    return it->second;
  }

  LogicalResult rewriteMake(tt::MakeTensorPtrOp op) {
    auto tile = cast<RankedTensorType>(
        cast<tt::PointerType>(op.getType()).getPointeeType());
    if (tile.getEncoding())
      return op.emitError(kPassName)
             << "block pointers to tensors with an encoding are not supported";
    OpBuilder builder(op);
    BlockPointer ptr{op.getBase(),
                     llvm::to_vector(op.getShape()),
                     llvm::to_vector(op.getStrides()),
                     {},
                     tile};
    for (Value offset : op.getOffsets())
      ptr.offsets.push_back(arith::ExtSIOp::create(
          builder, op.getLoc(), builder.getI64Type(), offset));
    infos[op.getResult()] = ptr;
    replaced.push_back(op);
    return success();
  }

  LogicalResult rewriteAdvance(tt::AdvanceOp op) {
    FailureOr<BlockPointer> ptr = lookup(op, op.getPtr());
    if (failed(ptr))
      return failure();
    OpBuilder builder(op);
    SmallVector<Value> offsets;
    for (auto [old, delta] : llvm::zip(ptr->offsets, op.getOffsets())) {
      Value wide = arith::ExtSIOp::create(builder, op.getLoc(),
                                          builder.getI64Type(), delta);
      offsets.push_back(arith::AddIOp::create(builder, op.getLoc(), old, wide));
    }
    infos[op.getResult()] = ptr->withOffsets(offsets);
    replaced.push_back(op);
    return success();
  }

  LogicalResult rewriteLoad(tt::LoadOp op) {
    FailureOr<BlockPointer> ptr = lookup(op, op.getPtr());
    if (failed(ptr))
      return failure();
    OpBuilder builder(op);
    Access access(builder, op.getLoc(), *ptr);
    Value pointers = access.pointers();
    Value mask = access.mask(op.getBoundaryCheck());
    // Without a mask no element is out of bounds, and `other` would have
    // nothing to fill.
    Value other;
    if (mask) {
      FailureOr<Value> padding = access.padding(op, op.getPadding());
      if (failed(padding))
        return failure();
      other = *padding;
    }
    auto load = tt::LoadOp::create(
        builder, op.getLoc(), op.getType(), pointers, mask, other,
        /*boundaryCheck=*/DenseI32ArrayAttr(), /*padding=*/nullptr,
        op.getCacheAttr(), op.getEvictAttr(), op.getIsVolatileAttr());
    op.getResult().replaceAllUsesWith(load.getResult());
    replaced.push_back(op);
    return success();
  }

  LogicalResult rewriteStore(tt::StoreOp op) {
    FailureOr<BlockPointer> ptr = lookup(op, op.getPtr());
    if (failed(ptr))
      return failure();
    OpBuilder builder(op);
    Access access(builder, op.getLoc(), *ptr);
    Value pointers = access.pointers();
    Value mask = access.mask(op.getBoundaryCheck());
    tt::StoreOp::create(builder, op.getLoc(), pointers, op.getValue(), mask,
                        /*boundaryCheck=*/DenseI32ArrayAttr(),
                        op.getCacheAttr(), op.getEvictAttr());
    replaced.push_back(op);
    return success();
  }

  // Block pointer operands become their offsets; the block pointers are
  // kept for the parent op, which checks that they agree with its own.
  LogicalResult rewriteYield(scf::YieldOp op) {
    SmallVector<Value> operands;
    SmallVector<BlockPointer> &yielded = yieldedPointers[op];
    for (Value operand : op.getOperands()) {
      if (!isBlockPointer(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      FailureOr<BlockPointer> ptr = lookup(op, operand);
      if (failed(ptr))
        return failure();
      llvm::append_range(operands, ptr->offsets);
      yielded.push_back(*ptr);
    }
    op->setOperands(operands);
    return success();
  }

  LogicalResult rewriteFor(scf::ForOp op) {
    // Replaced first so that it is erased after the ops moved out of it.
    replaced.push_back(op);
    SmallVector<Value> inits;
    SmallVector<BlockPointer> initPointers;
    for (Value init : op.getInitArgs()) {
      if (!isBlockPointer(init.getType())) {
        inits.push_back(init);
        continue;
      }
      FailureOr<BlockPointer> ptr = lookup(op, init);
      if (failed(ptr))
        return failure();
      llvm::append_range(inits, ptr->offsets);
      initPointers.push_back(*ptr);
    }
    OpBuilder builder(op);
    auto loop = scf::ForOp::create(builder, op.getLoc(), op.getLowerBound(),
                                   op.getUpperBound(), op.getStep(), inits);
    loop->setAttrs(op->getAttrs());
    Block *body = loop.getBody();
    if (!body->empty())
      body->getTerminator()->erase();

    // Old iteration arguments -> new ones (a block pointer -> its offsets).
    Block *oldBody = op.getBody();
    oldBody->getArgument(0).replaceAllUsesWith(loop.getInductionVar());
    unsigned next = 0, pointerIndex = 0;
    for (BlockArgument arg : op.getRegionIterArgs()) {
      if (!isBlockPointer(arg.getType())) {
        arg.replaceAllUsesWith(loop.getRegionIterArg(next++));
        continue;
      }
      const BlockPointer &init = initPointers[pointerIndex++];
      unsigned rank = init.offsets.size();
      infos[arg] = init.withOffsets(
          ValueRange(loop.getRegionIterArgs()).slice(next, rank));
      next += rank;
    }
    body->getOperations().splice(body->end(), oldBody->getOperations());
    if (failed(rewriteBlock(*body)))
      return failure();

    // A block pointer carried around the loop must keep its frame: only its
    // offsets travel as iteration arguments.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<BlockPointer> yieldedFrames = yieldedPointers.lookup(yield);
    for (auto [init, yielded] : llvm::zip(initPointers, yieldedFrames))
      if (!init.sameFrame(yielded))
        return yield.emitError(kPassName)
               << "a block pointer carried by a loop must keep the base, "
                  "shape and strides it enters with";

    next = pointerIndex = 0;
    for (OpResult result : op.getResults()) {
      if (!isBlockPointer(result.getType())) {
        result.replaceAllUsesWith(loop.getResult(next++));
        continue;
      }
      const BlockPointer &init = initPointers[pointerIndex++];
      unsigned rank = init.offsets.size();
      infos[result] =
          init.withOffsets(ValueRange(loop.getResults()).slice(next, rank));
      next += rank;
    }
    return success();
  }

  LogicalResult rewriteIf(scf::IfOp op) {
    replaced.push_back(op);
    for (Region *region : {&op.getThenRegion(), &op.getElseRegion()})
      for (Block &block : *region)
        if (failed(rewriteBlock(block)))
          return failure();
    // An scf.if with results has both branches.
    SmallVector<BlockPointer> thenPointers =
        yieldedPointers.lookup(op.thenYield());
    SmallVector<BlockPointer> elsePointers =
        yieldedPointers.lookup(op.elseYield());
    if (thenPointers.size() != elsePointers.size())
      return op.emitError(kPassName)
             << "both branches of the scf.if must yield its block pointers";
    SmallVector<Type> types;
    unsigned pointerIndex = 0;
    for (Type type : op.getResultTypes()) {
      if (!isBlockPointer(type)) {
        types.push_back(type);
        continue;
      }
      const BlockPointer &ptr = thenPointers[pointerIndex];
      if (!ptr.sameFrame(elsePointers[pointerIndex]))
        return op.emitError(kPassName)
               << "the branches of an scf.if must yield block pointers with "
                  "the same base, shape and strides";
      types.append(ptr.offsets.size(), IntegerType::get(op.getContext(), 64));
      ++pointerIndex;
    }
    OpBuilder builder(op);
    auto ifOp = scf::IfOp::create(builder, op.getLoc(), types,
                                  op.getCondition(), /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    ifOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    ifOp.getThenRegion().takeBody(op.getThenRegion());
    ifOp.getElseRegion().takeBody(op.getElseRegion());

    unsigned next = 0;
    pointerIndex = 0;
    for (OpResult result : op.getResults()) {
      if (!isBlockPointer(result.getType())) {
        result.replaceAllUsesWith(ifOp.getResult(next++));
        continue;
      }
      const BlockPointer &ptr = thenPointers[pointerIndex++];
      unsigned rank = ptr.offsets.size();
      infos[result] =
          ptr.withOffsets(ValueRange(ifOp.getResults()).slice(next, rank));
      next += rank;
    }
    return success();
  }

  DenseMap<Value, BlockPointer> infos;
  DenseMap<Operation *, SmallVector<BlockPointer>> yieldedPointers;
  SmallVector<Operation *> replaced;
};

class RewriteTensorPointer
    : public mlir::tgpu::impl::TritonRewriteTensorPointerBase<
          RewriteTensorPointer> {
  void runOnOperation() override {
    BlockPointerRewriter rewriter;
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        if (failed(rewriter.rewriteBlock(block)))
          return signalPassFailure();
    if (failed(rewriter.eraseReplaced()))
      signalPassFailure();
  }
};

} // namespace
