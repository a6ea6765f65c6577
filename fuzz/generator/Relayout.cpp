// TTGIR variants: random layouts on ops and random convert_layouts, where
// layout lowering bugs live. Every rewrite keeps the program's meaning (a
// layout changes no values, SEMANTICS.md §1) and its types at the op's
// boundary: operands are converted into the chosen layout and results
// converted back, so the module still verifies.
#include "fuzz/generator/Generator.h"
#include "fuzz/generator/RandomLayouts.h"

#include "tgpu/Conversion/TritonToTritonGPU/Passes.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>

namespace tgpu::gen {

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

RankedTensorType withEncoding(Type t, Attribute enc) {
  auto rt = cast<RankedTensorType>(t);
  return RankedTensorType::get(rt.getShape(), rt.getElementType(), enc);
}

RankedTensorType distributedTensor(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt || !rt.getEncoding())
    return nullptr;
  return rt;
}

// Ops whose tensor operands and results all share one layout and one shape
// (elementwise ops, memory ops, make_range, splat, scan).
bool isSameLayoutOp(Operation *op) {
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return op->getNumRegions() == 0;
  return isa<tt::AddPtrOp, tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp,
             tt::SplatOp, tt::MakeRangeOp, tt::ScanOp, tt::ClampFOp,
             tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::MulhiUIOp>(op);
}

class Relayout {
public:
  Relayout(ModuleOp module, ByteSource &src, const GenPolicy &pol,
           unsigned numWarps)
      : module(module), src(src), pol(pol), numWarps(numWarps),
        ctx(module.getContext()) {}

  void run() {
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      // Not inside combine regions: their values are scalars.
      if (op->getParentOfType<tt::ReduceOp>() || op->getParentOfType<tt::ScanOp>())
        return;
      auto isTensor = [](Type t) { return bool(distributedTensor(t)); };
      if (llvm::any_of(op->getOperandTypes(), isTensor) ||
          llvm::any_of(op->getResultTypes(), isTensor))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    // This variant's counts (swarm testing), at most the policy's; an op
    // drawn twice is relayouted twice (converts chained).
    uint64_t relayouts = src.below(pol.maxRelayouts + 1);
    uint64_t pairs = src.below(pol.maxConvertPairs + 1);
    for (uint64_t i = 0; i < relayouts; ++i)
      relayoutOp(ops[src.below(ops.size())]);
    SmallVector<Value> tensors;
    for (Operation *op : ops)
      for (Value r : op->getResults())
        if (distributedTensor(r.getType()))
          tensors.push_back(r);
    for (uint64_t i = 0; i < pairs && !tensors.empty(); ++i)
      convertPair(tensors[src.below(tensors.size())]);
  }

private:
  // A random layout for `shape`, or null. Layouts that give each thread
  // more than 4x the registers of an even spread (broadcast across lanes
  // and warps, wrap-around) are legal but make huge kernels that only slow
  // the campaign down: a few tries for a leaner one.
  Attribute randomLayout(ArrayRef<int64_t> shape) {
    int64_t numel = 1;
    for (int64_t d : shape)
      numel *= d;
    int64_t even = std::max<int64_t>(1, numel / (32 * int64_t(numWarps)));
    int64_t budget = std::max<int64_t>(16, 4 * even);
    for (int attempt = 0; attempt < 3; ++attempt) {
      Attribute layout = randomDistributedLayout(src, ctx, shape, numWarps,
                                                 /*allowMma=*/src.coin());
      if (!layout ||
          (!pol.allowLinearLayouts && isa<ttg::LinearEncodingAttr>(layout)))
        continue;
      auto ll = ::tgpu::layout::toLinearLayout(shape, layout);
      if (!ll) {
        llvm::consumeError(ll.takeError());
        continue;
      }
      if (pol.tritonSafe && (ll->repeatsThroughNonZeroBases() || ll->hasMultiBitBasis()))
        continue;
      if (ll->getInDimSize("register") <= budget)
        return layout;
    }
    return nullptr;
  }

  static bool hasMultiBitBasis(ArrayRef<int64_t> shape, Attribute layout) {
    auto ll = ::tgpu::layout::toLinearLayout(shape, layout);
    if (!ll) {
      llvm::consumeError(ll.takeError());
      return true;
    }
    return ll->hasMultiBitBasis();
  }

  // v -> convert to a random layout -> convert back; v's other uses read the
  // round trip. One time in four the trip goes through shared memory
  // instead: local_alloc in a random shared layout, local_load into the
  // random layout, convert back.
  void convertPair(Value v) {
    auto type = distributedTensor(v.getType());
    Attribute layout = randomLayout(type.getShape());
    if (!layout)
      return;
    OpBuilder b(ctx);
    b.setInsertionPointAfterValue(v);
    Location loc = v.getLoc();
    Operation *first;
    Value there;
    Type elem = type.getElementType();
    if (elem.isIntOrFloat() && src.chance(1, 4)) {
      Attribute shared = randomSharedLayout(src, ctx, type.getShape(),
                                            elem.getIntOrFloatBitWidth());
      if (!shared || (pol.tritonSafe && hasMultiBitBasis(type.getShape(), shared)))
        return;
      auto memType = ttg::MemDescType::get(
          ctx, type.getShape(), elem, shared, ttg::SharedMemorySpaceAttr::get(ctx),
          /*mutableMemory=*/false, type.getShape());
      auto alloc = ttg::LocalAllocOp::create(b, loc, memType, v, IntegerAttr());
      first = alloc;
      there = ttg::LocalLoadOp::create(b, loc, withEncoding(type, layout),
                                         alloc.getResult(), Value())
                  .getResult();
    } else {
      first = ttg::ConvertLayoutOp::create(b, loc, withEncoding(type, layout), v);
      there = first->getResult(0);
    }
    auto back = ttg::ConvertLayoutOp::create(b, loc, type, there);
    v.replaceAllUsesExcept(back.getResult(), first);
  }

  void relayoutOp(Operation *op) {
    if (isa<tt::ReduceOp>(op))
      return relayoutReduce(cast<tt::ReduceOp>(op));
    if (auto expand = dyn_cast<tt::ExpandDimsOp>(op))
      return relayoutExpandDims(expand);
    if (!isSameLayoutOp(op))
      return;
    // One shape for every tensor operand and result.
    RankedTensorType first;
    for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      if (!isa<RankedTensorType>(t))
        continue;
      auto rt = distributedTensor(t);
      if (!rt || (first && first.getShape() != rt.getShape()))
        return;
      if (!first)
        first = rt;
    }
    if (!first)
      return;
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!dense || !dense.isSplat())
        return;
    }
    Attribute layout = randomLayout(first.getShape());
    // Known gap: the scan lowering rejects #ttg.linear layouts whose bases
    // step along several bits of the scanned axis (a basis of 3, say).
    // Until it handles them, scans get the other kinds (reductions likewise,
    // relayoutReduce).
    if (isa<tt::ScanOp>(op) && isa_and_nonnull<ttg::LinearEncodingAttr>(layout))
      return;
    if (!layout)
      return;
    retype(op, [&](Type) { return layout; });
  }

  // Operands into their new layouts; results given theirs and converted back
  // for their users.
  void retype(Operation *op, llvm::function_ref<Attribute(Type)> layoutFor,
              llvm::function_ref<Attribute(unsigned)> resultLayout = nullptr) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    for (OpOperand &operand : op->getOpOperands()) {
      auto rt = distributedTensor(operand.get().getType());
      if (!rt)
        continue;
      auto nt = withEncoding(rt, layoutFor(rt));
      if (nt == rt)
        continue;
      auto cvt = ttg::ConvertLayoutOp::create(b, loc, nt, operand.get());
      operand.set(cvt.getResult());
    }
    b.setInsertionPointAfter(op);
    for (OpResult r : op->getResults()) {
      auto rt = distributedTensor(r.getType());
      if (!rt)
        continue;
      Attribute enc = resultLayout ? resultLayout(r.getResultNumber()) : layoutFor(rt);
      auto nt = withEncoding(rt, enc);
      if (nt == rt)
        continue;
      r.setType(nt);
      auto back = ttg::ConvertLayoutOp::create(b, loc, rt, r);
      r.replaceAllUsesExcept(back.getResult(), back);
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = cast<DenseElementsAttr>(cst.getValue());
      cst.setValueAttr(DenseElementsAttr::get(
          cast<ShapedType>(cst.getType()), dense.getSplatValue<Attribute>()));
    }
  }

  void relayoutReduce(tt::ReduceOp op) {
    auto in = distributedTensor(op->getOperand(0).getType());
    if (!in)
      return;
    for (Value v : op->getOperands())
      if (!distributedTensor(v.getType()) ||
          distributedTensor(v.getType()).getShape() != in.getShape())
        return;
    Attribute layout = randomLayout(in.getShape());
    // The reduce lowering has the scan's gap (bases stepping along several
    // bits of the axis).
    if (!layout || isa<ttg::LinearEncodingAttr>(layout))
      return;
    // A rank-1 reduction gives scalars, which have no layout.
    unsigned axis = op.getAxis();
    Attribute sliced =
        in.getRank() >= 2 ? ttg::SliceEncodingAttr::get(ctx, axis, layout) : Attribute();
    retype(op, [&](Type) { return layout; }, [&](unsigned) { return sliced; });
  }

  void relayoutExpandDims(tt::ExpandDimsOp op) {
    auto out = distributedTensor(op.getType());
    if (!out)
      return;
    Attribute layout = randomLayout(out.getShape());
    if (!layout)
      return;
    Attribute sliced = ttg::SliceEncodingAttr::get(ctx, op.getAxis(), layout);
    retype(op, [&](Type) { return sliced; }, [&](unsigned) { return layout; });
  }

  ModuleOp module;
  ByteSource &src;
  const GenPolicy &pol;
  unsigned numWarps;
  MLIRContext *ctx;
};

} // namespace

LogicalResult randomizeLayouts(ModuleOp module, ByteSource &src,
                               const GenPolicy &policy) {
  unsigned numWarps = 4;
  if (auto attr = module->getAttrOfType<IntegerAttr>("ttg.num-warps"))
    numWarps = unsigned(attr.getInt());
  Relayout(module, src, policy, numWarps).run();
  return verify(module);
}

VariantChoices drawVariantChoices(ByteSource &src, const GenPolicy &policy) {
  static const int warps[] = {1, 2, 4, 8};
  VariantChoices c;
  c.pipelineWarps = policy.numWarps ? int(policy.numWarps) : warps[src.below(4)];
  c.variantWarps = policy.numWarps ? int(policy.numWarps) : warps[src.below(4)];
  c.optimizeVariant = src.coin();
  return c;
}

LogicalResult makeTtgirVariant(ModuleOp module, ByteSource &src,
                               const GenPolicy &policy, int numWarps) {
  PassManager pm(module.getContext());
  mlir::tgpu::ConvertTritonToTritonGPUOptions options;
  options.target = "cuda:90";
  options.numWarps = numWarps;
  pm.addPass(mlir::tgpu::createConvertTritonToTritonGPU(options));
  if (failed(pm.run(module)))
    return failure();
  return randomizeLayouts(module, src, policy);
}

} // namespace tgpu::gen
