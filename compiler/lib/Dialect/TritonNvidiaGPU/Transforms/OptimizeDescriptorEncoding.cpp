// triton-nvidia-optimize-descriptor-encoding: gives every tensor
// descriptor's block the shared layout its TMA copies use (see Passes.td).
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONNVIDIAGPUOPTIMIZEDESCRIPTORENCODING
#include "tgpu/Dialect/TritonNvidiaGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

bool isDesc(Value v) { return isa<tt::TensorDescType>(v.getType()); }

// What the uses of a group of descriptor values (those control flow ties
// together, which must share one type) ask of its layout.
struct Wish {
  // Layouts asked for by the shared buffers the loaded blocks go to.
  SetVector<Attribute> wanted;
  // The smallest block a copy moves, per dim (rank-reducing and
  // gather/scatter copies move less than the block).
  SmallVector<int64_t> shape;
  // A function boundary or a reinterpretation sees the descriptor: it gets
  // the layout everyone can predict.
  bool forcedToDefault = false;
};

// A load's block goes to shared memory anyway when a user stores it there
// in a layout TMA can write: the copy can land in that layout directly.
Attribute layoutAskedByUsers(Operation *load) {
  for (Operation *user : load->getUsers()) {
    Attribute encoding;
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(user))
      encoding = alloc.getType().getEncoding();
    else if (auto store = dyn_cast<ttg::LocalStoreOp>(user))
      encoding = store.getDst().getType().getEncoding();
    auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(encoding);
    if (nvmma && !nvmma.getTransposed())
      return nvmma;
  }
  return {};
}

// `shape` with leading 1s up to `rank` dims.
SmallVector<int64_t> padToRank(ArrayRef<int64_t> shape, int64_t rank) {
  SmallVector<int64_t> padded(rank - std::min<int64_t>(rank, shape.size()), 1);
  padded.append(shape.begin(), shape.end());
  return padded;
}

// Triton's default nvmma_shared layout for a block of `shape`, row-major:
// the widest swizzle (128, 64, 32 bytes) the contiguous row's bytes are a
// multiple of, none for fewer than 8 rows (all outer dims together) or a
// rank-1 block.
Attribute defaultLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                        Type elemType) {
  unsigned bits = elemType.getIntOrFloatBitWidth();
  int64_t rowBytes = shape.back() * bits / 8;
  unsigned swizzle = 0;
  for (unsigned width : {128u, 64u, 32u})
    if (rowBytes >= width && rowBytes % width == 0) {
      swizzle = width;
      break;
    }
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  if (shape.size() < 2 || rows < 8)
    swizzle = 0;
  return ttg::NVMMASharedEncodingAttr::get(ctx, swizzle, /*transposed=*/false,
                                           bits, /*fp4Padded=*/false,
                                           unsigned(shape.size()), {});
}

// An nvmma layout asked for by a buffer of another rank, at the block's.
Attribute atRank(Attribute encoding, unsigned rank) {
  auto nvmma = cast<ttg::NVMMASharedEncodingAttr>(encoding);
  if (nvmma.getRank() == rank)
    return nvmma;
  return ttg::NVMMASharedEncodingAttr::get(
      nvmma.getContext(), nvmma.getSwizzlingByteWidth(), nvmma.getTransposed(),
      nvmma.getElementBitWidth(), nvmma.getFp4Padded(), rank, {});
}

// The values a region-holding op ties together with `v` (its operand or
// result, or an argument of one of its regions): they must keep one type.
void tieControlFlow(Operation *func, llvm::EquivalenceClasses<void *> &groups) {
  auto tie = [&](Value a, Value b) {
    if (isDesc(a) && isDesc(b))
      groups.unionSets(a.getAsOpaquePointer(), b.getAsOpaquePointer());
  };
  func->walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, yielded, result] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     loop.getYieldedValues(), loop.getResults())) {
        tie(init, arg);
        tie(arg, yielded);
        tie(arg, result);
      }
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (auto [init, arg, yielded] :
           llvm::zip(loop.getInits(), loop.getBeforeArguments(),
                     loop.getYieldOp().getOperands())) {
        tie(init, arg);
        tie(arg, yielded);
      }
      for (auto [passed, arg, result] :
           llvm::zip(loop.getConditionOp().getArgs(), loop.getAfterArguments(),
                     loop.getResults())) {
        tie(passed, arg);
        tie(arg, result);
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [i, result] : llvm::enumerate(branch.getResults())) {
        tie(result, branch.thenYield().getOperand(i));
        if (!branch.getElseRegion().empty())
          tie(result, branch.elseYield().getOperand(i));
      }
    }
  });
}

void assignLayouts(tt::FuncOp func) {
  llvm::EquivalenceClasses<void *> groups;
  SmallVector<Value> descs;
  auto note = [&](Value v) {
    if (isDesc(v) && !groups.contains(v.getAsOpaquePointer())) {
      groups.insert(v.getAsOpaquePointer());
      descs.push_back(v);
    }
  };
  for (BlockArgument arg : func.getArguments())
    note(arg);
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      note(v);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value v : block.getArguments())
          note(v);
  });
  tieControlFlow(func, groups);

  DenseMap<void *, Wish> wishes;
  auto wishOf = [&](Value v) -> Wish & {
    return wishes[groups.getLeaderValue(v.getAsOpaquePointer())];
  };
  auto askShape = [&](Value desc, ArrayRef<int64_t> shape) {
    auto block = cast<tt::TensorDescType>(desc.getType()).getBlockType();
    SmallVector<int64_t> padded = padToRank(shape, block.getRank());
    Wish &wish = wishOf(desc);
    if (wish.shape.empty()) {
      wish.shape = padded;
      return;
    }
    for (auto [have, want] : llvm::zip(wish.shape, padded))
      have = std::min(have, want);
  };
  // A non-kernel function's descriptor arguments come from callers that
  // cannot know what its body wants.
  bool isKernel = func.isPublic();
  for (BlockArgument arg : func.getArguments())
    if (isDesc(arg) && !isKernel)
      wishOf(arg).forcedToDefault = true;
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<tt::DescriptorLoadOp>(op)) {
      if (Attribute asked = layoutAskedByUsers(op))
        wishOf(load.getDesc()).wanted.insert(asked);
      askShape(load.getDesc(), load.getType().getShape());
    } else if (auto gather = dyn_cast<tt::DescriptorGatherOp>(op)) {
      if (Attribute asked = layoutAskedByUsers(op))
        wishOf(gather.getDesc()).wanted.insert(asked);
      askShape(gather.getDesc(), gather.getType().getShape());
    } else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op)) {
      askShape(store.getDesc(), store.getSrc().getType().getShape());
    } else if (auto reduce = dyn_cast<tt::DescriptorReduceOp>(op)) {
      askShape(reduce.getDesc(), reduce.getSrc().getType().getShape());
    } else if (auto scatter = dyn_cast<tt::DescriptorScatterOp>(op)) {
      askShape(scatter.getDesc(), scatter.getSrc().getType().getShape());
    } else if (isa<tt::CallOp, tt::ReturnOp,
                   triton::nvidia_gpu::ReinterpretTensorDescOp>(op)) {
      for (Value v : op->getOperands())
        if (isDesc(v))
          wishOf(v).forcedToDefault = true;
      for (Value v : op->getResults())
        if (isDesc(v))
          wishOf(v).forcedToDefault = true;
    }
  });

  MLIRContext *ctx = func.getContext();
  for (Value desc : descs) {
    auto type = cast<tt::TensorDescType>(desc.getType());
    RankedTensorType block = type.getBlockType();
    const Wish &wish = wishOf(desc);
    Attribute layout;
    if (!wish.forcedToDefault && wish.wanted.size() == 1)
      layout = atRank(wish.wanted.front(), unsigned(block.getRank()));
    else if (!wish.forcedToDefault && wish.wanted.empty() &&
             !wish.shape.empty())
      layout = defaultLayout(ctx, wish.shape, block.getElementType());
    else
      layout = defaultLayout(ctx, block.getShape(), block.getElementType());
    desc.setType(tt::TensorDescType::get(
        ctx, RankedTensorType::get(block.getShape(), block.getElementType(),
                                   layout)));
  }

  SmallVector<Type> results;
  for (Type type : func.getResultTypes()) {
    if (auto desc = dyn_cast<tt::TensorDescType>(type)) {
      RankedTensorType block = desc.getBlockType();
      type = tt::TensorDescType::get(
          ctx, RankedTensorType::get(block.getShape(), block.getElementType(),
                                     defaultLayout(ctx, block.getShape(),
                                                   block.getElementType())));
    }
    results.push_back(type);
  }
  func.setFunctionType(FunctionType::get(
      ctx, func.getBody().front().getArgumentTypes(), results));
}

struct OptimizeDescriptorEncoding
    : public mlir::tgpu::impl::TritonNvidiaGPUOptimizeDescriptorEncodingBase<
          OptimizeDescriptorEncoding> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<tt::FuncOp>())
      if (!func.isExternal())
        assignLayouts(func);
  }
};

} // namespace
