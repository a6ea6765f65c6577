// Hopper's warp-group tensor-core ops (sm_90a): ttng.warp_group_dot becomes
// wgmma.mma_async with both operands read from shared memory through matrix
// descriptors, ttng.warp_group_dot_wait becomes wgmma.wait_group, and
// ttng.fence_async_shared becomes fence.proxy.async.
//
// One warp group (4 consecutive warps) issues each instruction for a
// 64 x N tile of the accumulator, N the layout's instrShape[1], one K step
// of 32 bytes at a time. Which register holds which accumulator element is
// looked up in the result's LinearLayout for every lane and warp (the PTX
// ISA's fragment of wgmma's D), and each operand's descriptor is read off
// its buffer's layout and checked element by element (Layout/Wgmma.h).
//
// The accumulator registers are written by the tensor cores until a
// wgmma.wait_group covers them: every wait passes them through an inline
// asm that ties them, so that nothing reads them before the wait.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "MmaFragments.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/Layout/Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// wgmma's D fragment (PTX ISA, "Register Fragments" of wgmma .m64nNk*):
// warp w of the warp group holds rows 16 (w % 4) + lane / 4 and + 8; its
// element i is in the i / 4-th block of 8 columns, on the second row when
// (i / 2) is odd, at column 2 (lane % 4) + i % 2 of the block.
Pos fragD(int lane, int warp, int i) {
  return {16 * (warp % 4) + lane / 4 + 8 * ((i / 2) % 2),
          8 * (i / 4) + 2 * (lane % 4) + i % 2};
}

// `values` after a wgmma.wait_group with `pendings` groups left: one asm
// that names every value as an in/out operand, so that every later use
// depends on the wait.
SmallVector<Value> emitWaitGroup(RewriterBase &rewriter, Location loc,
                                 ArrayRef<Value> values, int pendings) {
  std::string text =
      "wgmma.wait_group.sync.aligned " + std::to_string(pendings) + ";";
  if (values.empty()) {
    LLVM::InlineAsmOp::create(rewriter, loc, TypeRange{}, ValueRange{}, text,
                              "", /*has_side_effects=*/true,
                              /*is_align_stack=*/false,
                              LLVM::tailcallkind::TailCallKind::None,
                              /*asm_dialect=*/nullptr,
                              /*operand_attrs=*/nullptr);
    return {};
  }
  SmallVector<Type> types;
  std::string outs, ins;
  for (auto [i, v] : llvm::enumerate(values)) {
    Type t = v.getType();
    types.push_back(t);
    unsigned bits = t.getIntOrFloatBitWidth();
    std::string c = t.isF32()    ? "f"
                    : t.isF64()  ? "d"
                    : bits == 16 ? "h"
                    : bits == 64 ? "l"
                                 : "r";
    outs += (i ? ",=" : "=") + c;
    ins += "," + std::to_string(i);
  }
  auto structType =
      LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types);
  auto asmOp = LLVM::InlineAsmOp::create(
      rewriter, loc, structType, values, text, outs + ins,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  SmallVector<Value> result;
  for (size_t i = 0; i < values.size(); ++i)
    result.push_back(
        LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), i));
  return result;
}

// One wgmma operand in shared memory: its descriptor fields and the byte
// offset of each (mn, k) element in the buffer.
struct SharedOperand {
  ::tgpu::layout::WgmmaOperandDesc desc;
  LinearLayout toOffset; // (dim0, dim1) -> offset
  std::string mnDim, kDim;
  int elemBytes = 0;

  int64_t byteOffset(int mn, int k) const {
    return ::tgpu::layout::operandByteOffset(toOffset, mnDim, kDim, mn, k,
                                             elemBytes);
  }
};

FailureOr<SharedOperand> planOperand(Location loc, ttg::MemDescType type,
                                     bool isB, int tileMN, int tileK) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape != type.getAllocShape().take_back(shape.size()) ||
      shape.size() != 2)
    return emitError(loc) << "wgmma reads whole 2-D buffers or ring slots; "
                          << type << " is a part of one";
  auto shared = ::tgpu::layout::toLinearLayout(shape, type.getEncoding());
  if (!shared)
    return emitError(loc) << "cannot lay out " << type << ": "
                          << llvm::toString(shared.takeError());
  auto inverse = shared->invert();
  if (!inverse)
    return emitError(loc) << "the layout of " << type << " is not one-to-one: "
                          << llvm::toString(inverse.takeError());
  SharedOperand operand;
  operand.toOffset = std::move(*inverse);
  operand.mnDim = isB ? "dim1" : "dim0";
  operand.kDim = isB ? "dim0" : "dim1";
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  operand.elemBytes = bits / 8;
  auto desc = ::tgpu::layout::planWgmmaOperand(
      operand.toOffset, operand.mnDim, operand.kDim, tileMN, tileK, bits);
  if (!desc)
    return emitError(loc) << "wgmma cannot read operand " << (isB ? "B" : "A")
                          << " from " << type << ": "
                          << llvm::toString(desc.takeError());
  operand.desc = *desc;
  return operand;
}

struct WarpGroupDotLowering
    : public ConvertOpToLLVMPattern<ttng::WarpGroupDotOp> {
  WarpGroupDotLowering(TritonGPUToLLVMTypeConverter &converter,
                       const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  LogicalResult
  matchAndRewrite(ttng::WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = dyn_cast<ttg::MemDescType>(op.getA().getType());
    if (!aType)
      return op.emitError("wgmma with operand A in registers is not "
                          "supported yet; A must be a shared-memory buffer");
    auto bType = cast<ttg::MemDescType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = cast<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding());
    Type aElem = aType.getElementType(), bElem = bType.getElementType();
    Type cElem = cType.getElementType();

    // The instruction's types and K.
    NVVM::WGMMATypes abType, dType;
    int tileK;
    bool f32Acc = cElem.isF32();
    if (aElem.isF16() && bElem.isF16()) {
      abType = NVVM::WGMMATypes::f16, tileK = 16;
    } else if (aElem.isBF16() && bElem.isBF16()) {
      abType = NVVM::WGMMATypes::bf16, tileK = 16;
    } else if (aElem.isF32() && bElem.isF32()) {
      if (op.getInputPrecision() != tt::InputPrecision::TF32)
        return op.emitError("an f32 wgmma needs inputPrecision = tf32");
      abType = NVVM::WGMMATypes::tf32, tileK = 8;
    } else if (isa<Float8E4M3FNType>(aElem) && aElem == bElem) {
      abType = NVVM::WGMMATypes::e4m3, tileK = 32;
    } else if (isa<Float8E5M2Type>(aElem) && aElem == bElem) {
      abType = NVVM::WGMMATypes::e5m2, tileK = 32;
    } else if (aElem.isInteger(8) && bElem.isInteger(8) &&
               cElem.isInteger(32)) {
      abType = NVVM::WGMMATypes::s8, tileK = 32;
    } else {
      return op.emitError("no wgmma lowering for ")
             << aElem << " x " << bElem << " -> " << cElem << " yet";
    }
    if (cElem.isInteger(32))
      dType = NVVM::WGMMATypes::s32;
    else if (f32Acc)
      dType = NVVM::WGMMATypes::f32;
    else
      return op.emitError("wgmma accumulating in ")
             << cElem << " is not supported yet (f32 and i32 are)";
    if ((abType == NVVM::WGMMATypes::s8) != cElem.isInteger(32))
      return op.emitError("wgmma accumulates i8 products in i32 only");

    ArrayRef<unsigned> instrShape = mma.getInstrShape();
    int tileN = instrShape.size() >= 2 ? int(instrShape[1]) : 0;
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    if (tileN < 8 || tileN > 256 || tileN % 8 || N % tileN || M % 64 ||
        K % tileK)
      return op.emitError("a ") << M << "x" << N << "x" << K
                                << " wgmma with instrShape N = " << tileN
                                << " does not split into m64n" << tileN << "k"
                                << tileK << " instructions";

    auto aOperand = planOperand(loc, aType, /*isB=*/false, 64, tileK);
    auto bOperand = planOperand(loc, bType, /*isB=*/true, tileN, tileK);
    if (failed(aOperand) || failed(bOperand))
      return failure();

    // Constant (compile-time) scale of D: a dynamic useC is not lowered.
    bool useC = true;
    if (Value flag = op.getUseC()) {
      APInt value;
      if (!matchPattern(flag, m_ConstantInt(&value)))
        return op.emitError("wgmma with a useC flag known only at run time "
                            "is not supported yet");
      useC = !value.isZero();
    }

    auto c = getDistributedLayout(cType, loc);
    if (failed(c))
      return failure();
    Registers cRegs(*c);
    int32_t numC = sizeOf(*c, "register");
    int32_t warps = sizeOf(*c, "warp");
    if (warps % 4)
      return op.emitError("wgmma needs whole warp groups; the accumulator "
                          "layout has ")
             << warps << " warps";

    SmallVector<Value> acc = unpackValues(rewriter, loc, adaptor.getC());
    MLIRContext *ctx = rewriter.getContext();
    Type i64 = rewriter.getI64Type();
    Value warpId = getLaneAndWarpId(rewriter, loc, info.threadsPerWarp).second;
    Value warpGroup = LLVM::UDivOp::create(rewriter, loc, warpId,
                                           i32Constant(rewriter, loc, 4));
    // A value per warp group, known at compile time: a select chain on the
    // warp group (one constant when they agree).
    auto perWarpGroup = [&](ArrayRef<int64_t> v) -> Value {
      Value r = LLVM::ConstantOp::create(rewriter, loc, i64,
                                         rewriter.getI64IntegerAttr(v[0]));
      for (size_t g = 1; g < v.size(); ++g) {
        if (v[g] == v[0])
          continue;
        Value isG =
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                 warpGroup, i32Constant(rewriter, loc, g));
        Value vg = LLVM::ConstantOp::create(rewriter, loc, i64,
                                            rewriter.getI64IntegerAttr(v[g]));
        r = LLVM::SelectOp::create(rewriter, loc, isG, vg, r);
      }
      return r;
    };
    auto baseAddress = [&](Value memdesc) {
      return LLVM::PtrToIntOp::create(rewriter, loc, i64, memdesc);
    };
    Value aBase = baseAddress(adaptor.getA());
    Value bBase = baseAddress(adaptor.getB());
    // The descriptor of the tile at byte `start` (per warp group) of a
    // buffer at `base`.
    auto descriptor = [&](const SharedOperand &operand, Value base,
                          ArrayRef<int64_t> start) {
      Value addr =
          LLVM::AddOp::create(rewriter, loc, base, perWarpGroup(start));
      Value field = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(
              rewriter, loc, addr,
              LLVM::ConstantOp::create(rewriter, loc, i64,
                                       rewriter.getI64IntegerAttr(4))),
          LLVM::ConstantOp::create(rewriter, loc, i64,
                                   rewriter.getI64IntegerAttr(0x3fff)));
      Value bits = LLVM::ConstantOp::create(
          rewriter, loc, i64,
          rewriter.getI64IntegerAttr(int64_t(operand.desc.encode(0))));
      return LLVM::OrOp::create(rewriter, loc, bits, field);
    };
    auto layoutOf = [](const SharedOperand &operand, bool isB) {
      // A: row = K-major; B: col = K-major (PTX imm-trans-a / -b = 0).
      bool kMajor = !operand.desc.mnMajor;
      return (kMajor != isB) ? NVVM::MMALayout::row : NVVM::MMALayout::col;
    };
    NVVM::MMALayout layoutA = layoutOf(*aOperand, false);
    NVVM::MMALayout layoutB = layoutOf(*bOperand, true);
    Type accElemType =
        f32Acc ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());
    auto fragType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(tileN / 2, accElemType));

    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    SmallVector<bool> done(numC, false);
    int fragElems = tileN / 2;
    for (int32_t r0 = 0; r0 < numC; ++r0) {
      Pos p0 = positionOf(*c, r0, 0, 0);
      if (p0.first % 64 || p0.second % tileN || cRegs.byPosition.at(p0) != r0)
        continue;
      auto origin = [&](int32_t w) {
        Pos p = positionOf(*c, r0, 0, w);
        return Pos{p.first - 16 * (w % 4), p.second};
      };
      SmallVector<int32_t> cReg(fragElems);
      for (int i = 0; i < fragElems; ++i)
        if ((cReg[i] = cRegs.find(origin, fragD, i)) < 0)
          return op.emitError("the accumulator layout does not hold wgmma's "
                              "m64n")
                 << tileN << " fragments: " << cType.getEncoding();
      Value frag = LLVM::UndefOp::create(rewriter, loc, fragType);
      for (int i = 0; i < fragElems; ++i)
        frag =
            LLVM::InsertValueOp::create(rewriter, loc, frag, acc[cReg[i]], i);
      for (int64_t k0 = 0; k0 < K; k0 += tileK) {
        SmallVector<int64_t> aStart, bStart;
        for (int32_t g = 0; g < warps / 4; ++g) {
          Pos o = origin(4 * g);
          aStart.push_back(aOperand->byteOffset(o.first, k0));
          bStart.push_back(bOperand->byteOffset(o.second, k0));
        }
        Value descA = descriptor(*aOperand, aBase, aStart);
        Value descB = descriptor(*bOperand, bBase, bStart);
        bool addC = useC || k0 > 0;
        frag = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, fragType, frag, descA, descB,
            NVVM::MMAShapeAttr::get(ctx, 64, tileN, tileK),
            NVVM::WGMMATypesAttr::get(ctx, abType),
            NVVM::WGMMATypesAttr::get(ctx, abType),
            NVVM::WGMMATypesAttr::get(ctx, dType),
            NVVM::WGMMAScaleOutAttr::get(ctx, addC ? NVVM::WGMMAScaleOut::one
                                                   : NVVM::WGMMAScaleOut::zero),
            NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
            NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
            NVVM::MMALayoutAttr::get(ctx, layoutA),
            NVVM::MMALayoutAttr::get(ctx, layoutB),
            /*satfinite=*/nullptr);
      }
      for (int i = 0; i < fragElems; ++i) {
        acc[cReg[i]] = LLVM::ExtractValueOp::create(rewriter, loc, frag, i);
        done[cReg[i]] = true;
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // Registers that repeat an element take the value of the one computed.
    std::vector<int32_t> lowest = c->getLowestSameImage("register");
    for (int32_t r = 0; r < numC; ++r)
      if (!done[lowest[r]])
        return op.emitError("the accumulator layout has elements no wgmma "
                            "computes: ")
               << cType.getEncoding();
    if (!op.getIsAsync())
      acc = emitWaitGroup(rewriter, loc, acc, 0);
    for (int32_t r = 0; r < numC; ++r)
      acc[r] = acc[lowest[r]];
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, acc));
    return success();
  }

private:
  LoweringInfo info;
};

struct WarpGroupDotWaitLowering
    : public ConvertOpToLLVMPattern<ttng::WarpGroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttng::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Tensors' registers go through the wait; buffers are pointers.
    SmallVector<Value> regs;
    SmallVector<size_t> counts;
    for (auto [input, lowered] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs())) {
      if (isa<RankedTensorType>(input.getType())) {
        SmallVector<Value> vals = unpackValues(rewriter, loc, lowered);
        counts.push_back(vals.size());
        llvm::append_range(regs, vals);
      }
    }
    SmallVector<Value> waited =
        emitWaitGroup(rewriter, loc, regs, int(op.getPendings()));
    SmallVector<Value> results;
    size_t next = 0, tensor = 0;
    for (auto [input, lowered] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs())) {
      if (!isa<RankedTensorType>(input.getType())) {
        results.push_back(lowered);
        continue;
      }
      size_t n = counts[tensor++];
      results.push_back(packValues(rewriter, loc, lowered.getType(),
                                   ArrayRef(waited).slice(next, n)));
      next += n;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FenceAsyncSharedLowering
    : public ConvertOpToLLVMPattern<ttng::FenceAsyncSharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ttng::FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitFenceProxyAsyncShared(rewriter, op.getLoc(), op.getBCluster());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tgpu::emitFenceProxyAsyncShared(RewriterBase &rewriter, Location loc,
                                           bool cluster) {
  MLIRContext *ctx = rewriter.getContext();
  NVVM::FenceProxyOp::create(
      rewriter, loc,
      NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, cluster
                                          ? NVVM::SharedSpace::shared_cluster
                                          : NVVM::SharedSpace::shared_cta));
}

void mlir::tgpu::populateWgmmaOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<WarpGroupDotLowering>(converter, info);
  patterns.add<WarpGroupDotWaitLowering, FenceAsyncSharedLowering>(converter);
}
