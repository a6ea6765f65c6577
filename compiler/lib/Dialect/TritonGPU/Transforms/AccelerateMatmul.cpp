// tritongpu-accelerate-matmul: tt.dot from the FMA path (blocked result,
// #ttg.dot_op operands of it) onto tensor cores: on cuda:90, where wgmma
// takes the dot as Triton 3.6 would give it to wgmma, a
// ttng.warp_group_dot of two #ttg.nvmma_shared buffers and a
// #ttg.nvidia_mma v3 result; otherwise mma.sync (#ttg.nvidia_mma v2). Only
// layouts change; the dot's meaning does not, except that an f32 dot with
// inputPrecision = tf32 now rounds its operands to tf32 as it says.
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tritongpu-accelerate-matmul"

namespace mlir::tgpu {
#define GEN_PASS_DEF_TRITONGPUACCELERATEMATMUL
#include "tgpu/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace mlir::tgpu

using namespace mlir;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// K of the mma.sync the dot would use, or 0 if it has none.
int64_t instructionK(tt::DotOp dot) {
  Type a = getElementTypeOrSelf(dot.getA().getType());
  Type b = getElementTypeOrSelf(dot.getB().getType());
  Type c = getElementTypeOrSelf(dot.getType());
  if (a != b)
    return 0;
  if (a.isF16() && (c.isF32() || c.isF16()))
    return 16;
  if (a.isBF16() && c.isF32())
    return 16;
  if (a.isF32() && c.isF32() &&
      dot.getInputPrecision() == tt::InputPrecision::TF32)
    return 8;
  return 0;
}

// Warps along M and N. A dot chained with another (attention's two
// matmuls: one's result feeds the other, in the same region) takes the
// other's split if that is already on tensor cores, else puts every warp
// along its longer dim. Otherwise each doubling goes to the dim with more
// 16x8 tiles left per warp (M on ties, its A fragments being the larger),
// so a warp's tile count is as square as can be; operand registers per warp
// grow with the sum of the two.
SmallVector<unsigned> warpsPerTile(tt::DotOp dot, int64_t M, int64_t N,
                                   unsigned numWarps) {
  Region *region = dot->getParentRegion();
  auto sameRegion = [&](Operation *op) {
    return op->getParentRegion() == region;
  };
  SetVector<Operation *> chain;
  ForwardSliceOptions forward;
  forward.filter = sameRegion;
  getForwardSlice(dot.getOperation(), &chain, forward);
  BackwardSliceOptions backward;
  backward.filter = sameRegion;
  backward.omitBlockArguments = true;
  (void)getBackwardSlice(dot.getOperation(), &chain, backward);
  bool chained = false;
  for (Operation *op : chain) {
    auto other = dyn_cast<tt::DotOp>(op);
    if (!other || other == dot)
      continue;
    if (auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(
            cast<RankedTensorType>(other.getType()).getEncoding()))
      return SmallVector<unsigned>(mma.getWarpsPerCTA());
    chained = true;
  }
  if (chained)
    return M >= N ? SmallVector<unsigned>{numWarps, 1}
                  : SmallVector<unsigned>{1, numWarps};
  SmallVector<unsigned> warps = {1, 1};
  int64_t repM = M / 16, repN = N / 8;
  while (warps[0] * warps[1] < numWarps) {
    if (repM >= repN) {
      warps[0] *= 2;
      repM = std::max<int64_t>(1, repM / 2);
    } else {
      warps[1] *= 2;
      repN /= 2;
    }
  }
  return warps;
}

// Whether the value comes from a load (pointer or descriptor; through layout
// conversions, transposes and buffer views) or is a block argument: Triton's
// test for an operand worth staging in shared memory for wgmma.
bool comesFromLoadOrBlockArg(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(def))
      v = cvt.getSrc();
    else if (auto trans = dyn_cast<tt::TransOp>(def))
      v = trans.getSrc();
    else if (Value src = ttg::getMemDescViewSource(def))
      v = src;
    else
      break;
  }
  Operation *def = v.getDefiningOp();
  return !def ||
         isa<tt::LoadOp, tt::DescriptorLoadOp, tt::DescriptorGatherOp>(def);
}

// Whether wgmma takes the dot as Triton 3.6 gives it to wgmma: 2-D, M a
// multiple of 64, N of 8, K of at least one instruction and a whole
// number of 32-byte steps, whole warp groups, element types wgmma has:
// f16 into f32 or f16, bf16 and tf32 into f32, fp8 into f16 or (with
// maxNumImpreciseAcc >= 32) f32, i8 into i32.
bool takesWgmma(tt::DotOp dot, unsigned numWarps) {
  auto cType = cast<RankedTensorType>(dot.getType());
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  Type a = aType.getElementType(), b = getElementTypeOrSelf(dot.getB());
  Type c = cType.getElementType();
  if (cType.getRank() != 2 || a != b || numWarps % 4 != 0)
    return false;
  int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
  int64_t K = aType.getDimSize(1);
  unsigned bits = a.getIntOrFloatBitWidth();
  if (M % 64 || N % 8 || K < 256 / bits ||
      (!llvm::isPowerOf2_64(K) && (K * bits) % 256))
    return false;
  if (a.isF16())
    return c.isF32() || c.isF16();
  if (a.isBF16())
    return c.isF32();
  if (a.isF32())
    return c.isF32() && dot.getInputPrecision() == tt::InputPrecision::TF32;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(a))
    return c.isF16() || (c.isF32() && dot.getMaxNumImpreciseAcc() >= 32);
  if (a.isInteger(8))
    return c.isInteger(32);
  return false;
}

// Triton's wgmma instruction shape: m16 per warp, k of 32 bytes, and the
// widest n wgmma has that divides N and fits the warps' share of it.
SmallVector<unsigned> wgmmaInstrShape(int64_t M, int64_t N, Type elem,
                                      unsigned numWarps) {
  unsigned k = 256 / elem.getIntOrFloatBitWidth();
  unsigned mWarps = std::max<unsigned>(M / 16, 1);
  unsigned nWarps = std::max<unsigned>(numWarps / mWarps, 1);
  unsigned maxN = std::max<unsigned>(N / nWarps, 8);
  bool int8 = elem.isInteger(8);
  for (unsigned n = 256; n >= 8; n -= 8) {
    // i8 wgmma has n = 8, 16, 24 and multiples of 16 up to 224 (PTX ISA).
    if (int8 && (n > 224 || (n > 24 && n % 16)))
      continue;
    if (N % n == 0 && n <= maxN)
      return {16, n, k};
  }
  return {16, 8, k};
}

// Warps for wgmma: whole warp groups along M while M has rows for them,
// then along N; all along M when the result feeds another dot.
SmallVector<unsigned> warpsPerTileV3(tt::DotOp dot, int64_t M,
                                     unsigned numWarps) {
  SetVector<Operation *> forward;
  getForwardSlice(dot.getResult(), &forward);
  if (llvm::any_of(forward, [](Operation *op) {
        return isa<tt::DotOp, ttng::WarpGroupDotOp>(op);
      }))
    return {numWarps, 1};
  SmallVector<unsigned> warps = {4, 1};
  while (warps[0] * warps[1] < numWarps) {
    if (M > 16 * int64_t(warps[0]))
      warps[0] *= 2;
    else
      warps[1] *= 2;
  }
  return warps;
}

// Triton's nvmma_shared layout for a [rows, cols] operand stored in `order`:
// the widest swizzle (128, 64, 32 bytes) whose width divides the
// contiguous dim's bytes, none when it is narrower or the other dim has
// fewer than 8 rows; transposed when dim 0 is the contiguous one.
Attribute nvmmaSharedFor(ArrayRef<int64_t> shape, ArrayRef<unsigned> order,
                         Type elem, ArrayRef<int32_t> cgaBases) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  int64_t contiguousBytes = shape[order[0]] * bits / 8;
  unsigned swizzle = 0;
  for (unsigned w : {128u, 64u, 32u})
    if (contiguousBytes >= w && contiguousBytes % w == 0) {
      swizzle = w;
      break;
    }
  if (shape[order[1]] < 8)
    swizzle = 0;
  return ttg::NVMMASharedEncodingAttr::get(
      elem.getContext(), swizzle, /*transposed=*/order[0] == 0, bits,
      /*fp4Padded=*/false, /*rank=*/2, cgaBases);
}

struct AccelerateMatmul
    : public mlir::tgpu::impl::TritonGPUAccelerateMatmulBase<AccelerateMatmul> {
  void runOnOperation() override {
    // Last dot first, as Triton's greedy rewrite visits them: in a chain
    // the later dot picks the warps and the earlier one takes its split.
    SmallVector<tt::DotOp> dots;
    getOperation().walk([&](tt::DotOp dot) { dots.push_back(dot); });
    for (tt::DotOp dot : llvm::reverse(dots))
      accelerate(dot);
    getOperation().walk([&](tt::DotOp dot) { promoteMixedOperands(dot); });
  }

  // Operands the instruction cannot take as they are, widened as Triton
  // does: a dot left on the FMA path computes in its result's float type
  // (f16/bf16 operands extended, 8-bit floats converted), and 8-bit float
  // operands of mma.sync become f16 where the target has no fp8 mma.sync
  // (all but sm_89). Integer FMA dots keep their operands.
  void promoteMixedOperands(tt::DotOp dot) {
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto dType = cast<RankedTensorType>(dot.getType());
    Type aElem = aType.getElementType(), dElem = dType.getElementType();
    bool fp8 = isa<Float8E5M2Type, Float8E4M3FNType>(aElem);
    Type promoted;
    if (auto mma =
            dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(dType.getEncoding())) {
      if (!fp8 || mma.getVersionMajor() == 3 ||
          ttg::lookupComputeCapability(dot) == 89)
        return;
      promoted = Float16Type::get(dot.getContext());
    } else {
      if (aElem == dElem || !isa<FloatType>(aElem) || !isa<FloatType>(dElem) ||
          aElem.getIntOrFloatBitWidth() >= dElem.getIntOrFloatBitWidth())
        return;
      promoted = dElem;
    }
    OpBuilder b(dot);
    auto promote = [&](Value v) -> Value {
      auto type = cast<RankedTensorType>(v.getType());
      auto wide =
          RankedTensorType::get(type.getShape(), promoted, type.getEncoding());
      if (isa<Float8E5M2Type, Float8E4M3FNType, Float8E4M3FNUZType,
              Float8E5M2FNUZType, Float8E4M3B11FNUZType>(type.getElementType()))
        return tt::FpToFpOp::create(b, dot.getLoc(), wide, v);
      return arith::ExtFOp::create(b, dot.getLoc(), wide, v);
    };
    dot.getAMutable().assign(promote(dot.getA()));
    dot.getBMutable().assign(promote(dot.getB()));
  }

  void accelerate(tt::DotOp dot) {
    auto cType = cast<RankedTensorType>(dot.getType());
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto blocked =
        dyn_cast_or_null<ttg::BlockedEncodingAttr>(cType.getEncoding());
    if (!blocked || cType.getRank() != 2) {
      LLVM_DEBUG(llvm::dbgs() << dot.getLoc()
                              << ": stays on FMA (not a 2-D blocked result)\n");
      return;
    }
    MLIRContext *ctx = dot.getContext();
    unsigned numWarps = unsigned(ttg::lookupNumWarps(dot));
    std::optional<int> cc = ttg::lookupComputeCapability(dot);
    if (cc && *cc < 80) {
      LLVM_DEBUG(llvm::dbgs()
                 << dot.getLoc() << ": stays on FMA (before Ampere)\n");
      return;
    }
    if (cc == 90 && takesWgmma(dot, numWarps))
      return accelerateOnWgmma(dot, blocked, numWarps);
    int64_t k = instructionK(dot);
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    if (!k || M % 16 || N % 8 || K % k) {
      LLVM_DEBUG(llvm::dbgs() << dot.getLoc() << ": stays on FMA ("
                              << (k ? "shape " : "types ") << M << "x" << N
                              << "x" << K << " has no mma.sync form)\n");
      return;
    }
    auto mma = ttg::NvidiaMmaEncodingAttr::get(
        ctx, /*versionMajor=*/2, /*versionMinor=*/0,
        warpsPerTile(dot, M, N, numWarps), /*instrShape=*/{16, 8},
        blocked.getCgaBases());
    LLVM_DEBUG(llvm::dbgs() << dot.getLoc() << ": " << M << "x" << N << "x" << K
                            << " on " << mma << "\n");
    auto retype = [](Value v, Attribute encoding) {
      auto t = cast<RankedTensorType>(v.getType());
      return RankedTensorType::get(t.getShape(), t.getElementType(), encoding);
    };
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    unsigned bits = aType.getElementTypeBitWidth();
    auto operand = [&](Value v, unsigned opIdx) -> Value {
      auto enc = ttg::DotOperandEncodingAttr::get(ctx, opIdx, mma, 32 / bits);
      return ttg::ConvertLayoutOp::create(b, loc, retype(v, enc), v);
    };
    // The accumulator's conversion first, then A's and B's: Triton's order.
    Value c = ttg::ConvertLayoutOp::create(b, loc, retype(dot.getC(), mma),
                                           dot.getC());
    Value a = operand(dot.getA(), 0), bOp = operand(dot.getB(), 1);
    auto onCores =
        tt::DotOp::create(b, loc, retype(dot.getResult(), mma), a, bOp, c,
                          dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
    Value back =
        ttg::ConvertLayoutOp::create(b, loc, cType, onCores.getResult());
    dot.getResult().replaceAllUsesWith(back);
    dot.erase();
  }

  // B, and A when it comes from a load (or a block argument), staged in
  // shared memory (local_alloc of the value before its conversions) in
  // Triton's nvmma_shared layout; an A computed in registers converted to
  // #ttg.dot_op of the result layout (32 bits of K a thread); the
  // accumulator in #ttg.nvidia_mma v3, the dot a synchronous
  // ttng.warp_group_dot.
  void accelerateOnWgmma(tt::DotOp dot, ttg::BlockedEncodingAttr blocked,
                         unsigned numWarps) {
    auto cType = cast<RankedTensorType>(dot.getType());
    Type elem = getElementTypeOrSelf(dot.getA());
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    MLIRContext *ctx = dot.getContext();
    auto mma = ttg::NvidiaMmaEncodingAttr::get(
        ctx, /*versionMajor=*/3, /*versionMinor=*/0,
        warpsPerTileV3(dot, M, numWarps), wgmmaInstrShape(M, N, elem, numWarps),
        blocked.getCgaBases());
    LLVM_DEBUG(llvm::dbgs() << dot.getLoc() << ": " << M << "x" << N << " on "
                            << mma << "\n");
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    // wgmma reads 16-bit operands either way round, others K-major only.
    bool anyOrder = elem.isF16() || elem.isBF16();
    // The operand as computed, before its layout conversions.
    auto unconverted = [](Value v) {
      while (auto cvt = v.getDefiningOp<ttg::ConvertLayoutOp>())
        v = cvt.getSrc();
      return v;
    };
    auto stage = [&](Value v, unsigned opIdx) -> Value {
      v = unconverted(v);
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<unsigned> order = {1, 0};
      if (auto src = dyn_cast<ttg::BlockedEncodingAttr>(type.getEncoding()))
        order.assign(src.getOrder().begin(), src.getOrder().end());
      if (!anyOrder)
        order = opIdx == 0 ? SmallVector<unsigned>{1, 0}
                           : SmallVector<unsigned>{0, 1};
      Attribute enc =
          nvmmaSharedFor(type.getShape(), order, elem, blocked.getCgaBases());
      auto memType = ttg::MemDescType::get(
          ctx, type.getShape(), elem, enc, ttg::SharedMemorySpaceAttr::get(ctx),
          /*mutableMemory=*/false, type.getShape());
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(v);
      return ttg::LocalAllocOp::create(b, v.getLoc(), memType, v);
    };
    // The accumulator's conversion before A's (Triton's order; staged
    // operands are allocated right after their values, earlier).
    auto accType =
        RankedTensorType::get(cType.getShape(), cType.getElementType(), mma);
    Value c = ttg::ConvertLayoutOp::create(b, loc, accType, dot.getC());
    Value a;
    if (comesFromLoadOrBlockArg(dot.getA())) {
      a = stage(dot.getA(), 0);
    } else {
      // Converted from the operand as the dot had it (Triton's form; the
      // conversion pair folds later).
      Value v = dot.getA();
      auto enc = ttg::DotOperandEncodingAttr::get(
          ctx, 0, mma, 32 / elem.getIntOrFloatBitWidth());
      a = ttg::ConvertLayoutOp::create(
          b, loc,
          RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(),
                                elem, enc),
          v);
    }
    Value bOp = stage(dot.getB(), 1);
    auto onCores = ttng::WarpGroupDotOp::create(
        b, loc, accType, a, bOp, c, /*useC=*/Value(), dot.getInputPrecision(),
        dot.getMaxNumImpreciseAcc(), /*isAsync=*/false);
    Value back =
        ttg::ConvertLayoutOp::create(b, loc, cType, onCores.getResult());
    dot.getResult().replaceAllUsesWith(back);
    // The FMA-path operand conversions the staged operands bypass are dead
    // once the dot is gone; Triton's rewrite leaves none behind.
    SmallVector<Operation *> conversions;
    for (Value old : {dot.getA(), dot.getB()})
      while (auto cvt = old.getDefiningOp<ttg::ConvertLayoutOp>()) {
        if (!llvm::is_contained(conversions, cvt.getOperation()))
          conversions.push_back(cvt);
        old = cvt.getSrc();
      }
    dot.erase();
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&cvt : conversions)
        if (cvt && cvt->use_empty()) {
          cvt->erase();
          cvt = nullptr;
          erased = true;
        }
    }
  }
};

} // namespace
