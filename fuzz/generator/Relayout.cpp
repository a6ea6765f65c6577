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
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/Layout/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>

namespace tgpu::gen {

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

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
    // Dots wgmma can take, on cuda:90, half the time onto it.
    SmallVector<tt::DotOp> dots;
    module.walk([&](tt::DotOp dot) { dots.push_back(dot); });
    for (tt::DotOp dot : dots)
      if (ttg::lookupComputeCapability(dot) == 90 && src.coin())
        toWarpGroupDot(dot);
    // Triton lowers an FMA dot only with operands of the accumulator's
    // type (its accelerate-matmul widens them first; given 16-bit ones its
    // FMA lowering asserts: docs/FINDINGS.md): Triton-safe variants widen
    // them, which changes no value (f16 and bf16 are exact in f32).
    if (pol.tritonSafe)
      module.walk([&](tt::DotOp dot) { widenFmaOperands(dot); });
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

  // A tt.dot rewritten as a ttng.warp_group_dot on a random #ttg.nvidia_mma
  // v3 layout: warp groups along M as far as M has 16 rows a warp, the
  // rest along N; a random instruction N dividing each warp's share of N;
  // B (and A, half the time) through local_alloc in a random nvmma_shared
  // layout that wgmma can read, the other half A in registers as
  // #ttg.dot_op of the result; a useC flag that keeps C's meaning.
  // Operands and result convert to and from the dot's layouts, so the
  // program means what it meant.
  void toWarpGroupDot(tt::DotOp dot) {
    auto cType = cast<RankedTensorType>(dot.getType());
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto bType = cast<RankedTensorType>(dot.getB().getType());
    Type elem = aType.getElementType(), cElem = cType.getElementType();
    if (cType.getRank() != 2 || numWarps % 4 || elem != bType.getElementType())
      return;
    bool f16ish = elem.isF16() || elem.isBF16();
    bool tf32 =
        elem.isF32() && dot.getInputPrecision() == tt::InputPrecision::TF32;
    if (!(f16ish || tf32) ||
        !(cElem.isF32() || (elem.isF16() && cElem.isF16())))
      return;
    unsigned bits = elem.getIntOrFloatBitWidth();
    int64_t tileK = 256 / bits;
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    if (M % 64 || N % 8 || K % tileK)
      return;
    // Warps: 4 x 2^i along M (16 rows a warp), the rest along N.
    SmallVector<unsigned> warpChoices;
    for (unsigned wm = 4; wm <= numWarps && 16 * int64_t(wm) <= M; wm *= 2)
      if ((N / (numWarps / wm)) % 8 == 0 && N % (numWarps / wm) == 0)
        warpChoices.push_back(wm);
    if (warpChoices.empty())
      return;
    unsigned wm = warpChoices[src.below(warpChoices.size())];
    unsigned wn = numWarps / wm;
    int64_t share = N / wn;
    // Triton-safe variants keep instruction N at 16 or more (finding 16).
    SmallVector<int64_t> ns;
    for (int64_t n = pol.tritonSafe ? 16 : 8;
         n <= std::min<int64_t>(share, 256); n += 8)
      if (share % n == 0)
        ns.push_back(n);
    if (ns.empty())
      return;
    int64_t tileN = ns[src.below(ns.size())];
    auto mma = ttg::NvidiaMmaEncodingAttr::get(
        ctx, /*versionMajor=*/3, /*versionMinor=*/0, {wm, wn},
        {16, unsigned(tileN), unsigned(tileK)}, /*cgaBases=*/{});
    // A shared layout wgmma reads for operand `isB` with `tileMN` rows
    // or columns an instruction, found by trying random ones.
    auto sharedFor = [&](ArrayRef<int64_t> shape, bool isB,
                         int64_t tileMN) -> Attribute {
      for (int attempt = 0; attempt < 6; ++attempt) {
        static const unsigned swizzles[] = {0, 32, 64, 128};
        unsigned swizzle = swizzles[src.below(4)];
        // Only 16-bit operands may have their MN dim contiguous.
        bool transposed = f16ish ? src.coin() : isB;
        auto enc = ttg::NVMMASharedEncodingAttr::get(
            ctx, swizzle, transposed, bits, /*fp4Padded=*/false, /*rank=*/2,
            /*cgaBases=*/{});
        auto ll = ::tgpu::layout::toLinearLayout(shape, enc);
        if (!ll) {
          llvm::consumeError(ll.takeError());
          continue;
        }
        auto inverse = ll->invert();
        if (!inverse) {
          llvm::consumeError(inverse.takeError());
          continue;
        }
        auto plan = ::tgpu::layout::planWgmmaOperand(
            *inverse, isB ? "dim1" : "dim0", isB ? "dim0" : "dim1", int(tileMN),
            int(tileK), int(bits));
        if (plan)
          return enc;
        llvm::consumeError(plan.takeError());
      }
      return nullptr;
    };
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    auto stage = [&](Value v, Attribute enc) -> Value {
      auto t = cast<RankedTensorType>(v.getType());
      auto memType = ttg::MemDescType::get(
          ctx, t.getShape(), elem, enc, ttg::SharedMemorySpaceAttr::get(ctx),
          /*mutableMemory=*/false, t.getShape());
      return ttg::LocalAllocOp::create(b, loc, memType, v, IntegerAttr());
    };
    Attribute bShared = sharedFor(bType.getShape(), /*isB=*/true, tileN);
    if (!bShared)
      return;
    Value a;
    if (src.coin()) {
      auto enc = ttg::DotOperandEncodingAttr::get(ctx, 0, mma, 32 / bits);
      a = ttg::ConvertLayoutOp::create(b, loc, withEncoding(aType, enc),
                                       dot.getA());
    } else {
      Attribute aShared = sharedFor(aType.getShape(), /*isB=*/false, 64);
      if (!aShared)
        return;
      a = stage(dot.getA(), aShared);
    }
    Value bOp = stage(dot.getB(), bShared);
    Value c = ttg::ConvertLayoutOp::create(b, loc, withEncoding(cType, mma),
                                           dot.getC());
    // useC: absent, true (constant, or computed at run time so that only
    // the predicated instruction knows it), or false where C is zero.
    Value useC;
    switch (src.below(4)) {
    case 0:
      break;
    case 1: {
      bool cIsZero = matchPattern(dot.getC(), m_AnyZeroFloat()) ||
                     matchPattern(dot.getC(), m_Zero());
      useC = arith::ConstantIntOp::create(b, loc, b.getI1Type(),
                                          !(cIsZero && src.coin()));
      break;
    }
    default: {
      Value pid = tt::GetProgramIdOp::create(b, loc, tt::ProgramIDDim::X);
      Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
      useC =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, pid, zero);
    }
    }
    auto wgd = ttng::WarpGroupDotOp::create(
        b, loc, withEncoding(cType, mma), a, bOp, c, useC,
        dot.getInputPrecision(), dot.getMaxNumImpreciseAcc(),
        /*isAsync=*/false);
    auto back = ttg::ConvertLayoutOp::create(b, loc, cType, wgd.getResult());
    dot.getResult().replaceAllUsesWith(back.getResult());
    dot.erase();
  }

  void widenFmaOperands(tt::DotOp dot) {
    auto cType = cast<RankedTensorType>(dot.getType());
    if (!cType.getElementType().isF32() ||
        !isa_and_nonnull<ttg::BlockedEncodingAttr>(cType.getEncoding()))
      return;
    OpBuilder b(dot);
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
      auto t = cast<RankedTensorType>(operand->get().getType());
      if (!t.getElementType().isF16() && !t.getElementType().isBF16())
        continue;
      auto wide =
          RankedTensorType::get(t.getShape(), b.getF32Type(), t.getEncoding());
      operand->set(
          arith::ExtFOp::create(b, dot.getLoc(), wide, operand->get()));
    }
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
