// tt.dot on tensor cores, #ttg.nvidia_mma v2 (mma.sync, sm_80+): the result
// is split into 16x8 tiles and K into steps of the instruction's k, and each
// (tile, step) is one nvvm.mma.sync per warp. Which register holds which
// fragment element is not assumed from the layouts' definitions: the
// fragment positions of the PTX ISA (per lane and element) are looked up in
// the operands' and result's LinearLayouts for every lane and warp, so a
// layout that does not deliver the fragments is rejected, not miscompiled.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "MmaFragments.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

// One mma.sync shape and its fragments (PTX ISA, "Matrix Fragments for
// mma.m16n8k16 / mma.m16n8k8"): groupID = lane / 4, threadInGroup = lane % 4.
struct MmaInstr {
  NVVM::MMATypes ptxType;
  int k;                      // K per instruction
  int aElems, bElems;         // fragment elements per lane
  int elemsPerReg;            // elements packed in one 32-bit operand
  Pos (*a)(int lane, int i);  // (m, k) of A element i
  Pos (*b)(int lane, int i);  // (k, n) of B element i
};

// C/D (f32 or f16): c0, c1 on row g, c2, c3 on row g + 8; columns 2t, 2t + 1.
Pos fragC(int lane, int i) {
  return {lane / 4 + 8 * (i / 2), 2 * (lane % 4) + i % 2};
}

// m16n8k16, 16-bit A: a0..a7 in pairs; rows g (a0, a1, a4, a5) and g + 8,
// columns 2t + {0, 1}, plus 8 for a4..a7. B: b0..b3, k = 2t + {0, 1} (+8 for
// b2, b3), column g.
Pos fragA16(int lane, int i) {
  return {lane / 4 + 8 * ((i / 2) % 2), 2 * (lane % 4) + i % 2 + 8 * (i / 4)};
}
Pos fragB16(int lane, int i) {
  return {2 * (lane % 4) + i % 2 + 8 * (i / 2), lane / 4};
}

// The same with K permuted within each 16-element chunk, position
// 2t + j + 8h of the PTX tables read from 4t + 2h + j: what 16-bit operands
// with kWidth = 4 (four consecutive K elements a thread) hold. A dot sums
// over K, so A and B permuted alike give the same products in another
// order.
Pos fragA16K4(int lane, int i) {
  return {lane / 4 + 8 * ((i / 2) % 2), 4 * (lane % 4) + 2 * (i / 4) + i % 2};
}
Pos fragB16K4(int lane, int i) {
  return {4 * (lane % 4) + 2 * (i / 2) + i % 2, lane / 4};
}

// m16n8k8, tf32 A: a0..a3; rows g (a0, a2) and g + 8 (a1, a3), columns t
// and t + 4 (a2, a3). B: b0, b1 at k = t and t + 4, column g.
Pos fragATf32(int lane, int i) {
  return {lane / 4 + 8 * (i % 2), lane % 4 + 4 * (i / 2)};
}
Pos fragBTf32(int lane, int i) { return {lane % 4 + 4 * i, lane / 4}; }

// Position of (register, lane, warp) in a 2-D layout.
struct MmaV2DotLowering : public ConvertOpToLLVMPattern<tt::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding());
    if (!mma)
      return failure(); // the FMA pattern's
    Location loc = op.getLoc();
    if (mma.getVersionMajor() != 2)
      return op.emitError("only #ttg.nvidia_mma version 2 (mma.sync) dots can "
                          "be lowered yet; version ")
             << mma.getVersionMajor() << " (wgmma) cannot";
    if (cType.getRank() != 2)
      return op.emitError("only 2-D tensor-core dots can be lowered yet");
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    Type aElem = aType.getElementType(), bElem = bType.getElementType();
    Type cElem = cType.getElementType();

    MmaInstr instr;
    if (aElem != bElem)
      return op.emitError("tensor-core dot operands must have one element "
                          "type, not ")
             << aElem << " and " << bElem;
    if (aElem.isF16() || aElem.isBF16()) {
      instr = {aElem.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16, 16, 8,
               4, 2, fragA16, fragB16};
      if (!cElem.isF32() && !(aElem.isF16() && cElem.isF16()))
        return op.emitError("a ") << aElem << " tensor-core dot accumulates in "
                                  << (aElem.isF16() ? "f32 or f16" : "f32")
                                  << ", not " << cElem;
    } else if (aElem.isF32() && cElem.isF32()) {
      if (op.getInputPrecision() != tt::InputPrecision::TF32)
        return op.emitError("an f32 tensor-core dot needs inputPrecision = "
                            "tf32 (ieee and tf32x3 use the FMA path)");
      instr = {NVVM::MMATypes::tf32, 8, 4, 2, 1, fragATf32, fragBTf32};
    } else {
      return op.emitError("no mma.sync lowering for ")
             << aElem << " x " << bElem << " -> " << cElem << " yet";
    }
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    if (M % 16 || N % 8 || K % instr.k)
      return op.emitError("a tensor-core dot needs M % 16, N % 8 and K % ")
             << instr.k << " to be 0; got " << M << "x" << N << "x" << K;

    auto a = getDistributedLayout(aType, loc);
    auto b = getDistributedLayout(bType, loc);
    auto c = getDistributedLayout(cType, loc);
    if (failed(a) || failed(b) || failed(c))
      return failure();
    Registers aRegs(*a), bRegs(*b), cRegs(*c);
    // 16-bit operands with four consecutive K elements a thread take the
    // K-permuted fragments, for both operands or neither.
    if (instr.k == 16) {
      auto kWidthOf = [](RankedTensorType t) {
        auto dotOp = dyn_cast<ttg::DotOperandEncodingAttr>(t.getEncoding());
        return dotOp ? dotOp.getKWidth() : 0u;
      };
      if (kWidthOf(aType) == 4 && kWidthOf(bType) == 4) {
        instr.a = fragA16K4;
        instr.b = fragB16K4;
      }
    }

    SmallVector<Value> aVals = unpackValues(rewriter, loc, adaptor.getA());
    SmallVector<Value> bVals = unpackValues(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackValues(rewriter, loc, adaptor.getC());
    MLIRContext *ctx = rewriter.getContext();
    Type i32 = rewriter.getI32Type();
    Type half2 = VectorType::get(2, rewriter.getF16Type());
    bool f16Acc = cElem.isF16();

    // A 32-bit mma operand from `n` fragment elements (16-bit pairs packed
    // low element first; bf16 and tf32 operands are passed as i32).
    auto operand = [&](ArrayRef<Value> elems) -> Value {
      if (elems.size() == 1)
        return LLVM::BitcastOp::create(rewriter, loc, i32, elems[0]);
      Value v = packVector(rewriter, loc, elems.take_front(2));
      if (instr.ptxType == NVVM::MMATypes::f16)
        return v;
      return LLVM::BitcastOp::create(rewriter, loc, i32, v);
    };

    int32_t numC = sizeOf(*c, "register");
    SmallVector<bool> done(numC, false);
    // Tiles: each register at a 16x8-aligned position (lane 0, warp 0) is
    // the c0 of one tile; the warp's origin comes from the same register.
    for (int32_t r0 = 0; r0 < numC; ++r0) {
      Pos p0 = positionOf(*c, r0, 0, 0);
      if (p0.first % 16 || p0.second % 8 || cRegs.byPosition.at(p0) != r0)
        continue;
      auto cOrigin = [&](int32_t w) { return positionOf(*c, r0, 0, w); };
      SmallVector<int32_t> cReg(4);
      for (int i = 0; i < 4; ++i)
        if ((cReg[i] = cRegs.find(cOrigin, laneFragment(fragC), i)) < 0)
          return op.emitError("the result layout does not hold mma.sync's "
                              "accumulator fragments: ")
                 << cType.getEncoding();
      SmallVector<Value> accOps;
      if (f16Acc) {
        for (int i = 0; i < 4; i += 2)
          accOps.push_back(operand({acc[cReg[i]], acc[cReg[i + 1]]}));
      } else {
        for (int i = 0; i < 4; ++i)
          accOps.push_back(acc[cReg[i]]);
      }
      for (int64_t k0 = 0; k0 < K; k0 += instr.k) {
        auto aOrigin = [&](int32_t w) {
          return Pos{cOrigin(w).first, int32_t(k0)};
        };
        auto bOrigin = [&](int32_t w) {
          return Pos{int32_t(k0), cOrigin(w).second};
        };
        // One operand's fragment elements, packed into 32-bit operands.
        auto fragments = [&](const Registers &regs, auto origin,
                             Pos (*frag)(int, int), int count,
                             ArrayRef<Value> vals, SmallVector<Value> &ops) {
          SmallVector<Value> elems;
          for (int i = 0; i < count; ++i) {
            int32_t r = regs.find(origin, laneFragment(frag), i);
            if (r < 0)
              return false;
            elems.push_back(vals[r]);
            if (int(elems.size()) == instr.elemsPerReg)
              ops.push_back(operand(elems)), elems.clear();
          }
          return true;
        };
        SmallVector<Value> aOps, bOps;
        if (!fragments(aRegs, aOrigin, instr.a, instr.aElems, aVals, aOps))
          return op.emitError("operand A's layout does not hold mma.sync's "
                              "A fragments: ")
                 << aType.getEncoding();
        if (!fragments(bRegs, bOrigin, instr.b, instr.bElems, bVals, bOps))
          return op.emitError("operand B's layout does not hold mma.sync's "
                              "B fragments: ")
                 << bType.getEncoding();
        Type resultType =
            f16Acc ? LLVM::LLVMStructType::getLiteral(ctx, {half2, half2})
                   : LLVM::LLVMStructType::getLiteral(
                         ctx, SmallVector<Type>(4, rewriter.getF32Type()));
        Value d = NVVM::MmaOp::create(
            rewriter, loc, resultType, aOps, bOps, accOps,
            ArrayRef<int64_t>{16, 8, instr.k}, std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{instr.ptxType, instr.ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                            NVVM::MMALayout::col});
        for (size_t j = 0; j < accOps.size(); ++j)
          accOps[j] = LLVM::ExtractValueOp::create(rewriter, loc, d, j);
      }
      for (int i = 0; i < 4; ++i) {
        Value v = accOps[f16Acc ? i / 2 : i];
        if (f16Acc)
          v = LLVM::ExtractElementOp::create(rewriter, loc, v,
                                             i32Constant(rewriter, loc, i % 2));
        acc[cReg[i]] = v;
        done[cReg[i]] = true;
      }
    }
    // Registers that repeat an element (a tensor smaller than the layout's
    // tile) take the value of the register that computed it.
    std::vector<int32_t> lowest = c->getLowestSameImage("register");
    for (int32_t r = 0; r < numC; ++r) {
      if (!done[lowest[r]])
        return op.emitError("the result layout has elements no mma.sync "
                            "tile computes: ")
               << cType.getEncoding();
      acc[r] = acc[lowest[r]];
    }
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitError("cannot lower ") << op.getType();
    rewriter.replaceOp(op, packValues(rewriter, loc, resultType, acc));
    return success();
  }
};

} // namespace

void mlir::tgpu::populateMmaDotOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaV2DotLowering>(converter);
}
