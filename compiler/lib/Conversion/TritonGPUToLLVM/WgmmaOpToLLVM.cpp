// Hopper's warp-group tensor-core ops (sm_90a), as Triton lowers them:
// ttng.warp_group_dot becomes one nvg.wgmma per instruction, with B (and A,
// unless A is a #ttg.dot_op tensor in registers) read from shared memory
// through matrix descriptors, between a wgmma.fence and a commit_group;
// ttng.warp_group_dot_wait becomes nvg.wgmma_wait_group; and
// ttng.fence_async_shared becomes fence.proxy.async. convert-nv-gpu-to-llvm
// writes the nvg ops as PTX.
//
// One warp group (4 consecutive warps) issues each instruction for a
// 64 x N tile of the accumulator, N the layout's instrShape[1], one K step
// of 32 bytes at a time. Which register holds which accumulator element is
// looked up in the result's LinearLayout for every lane and warp (the PTX
// ISA's fragment of wgmma's D), and each operand's descriptor is read off
// its buffer's layout and checked element by element (Layout/Wgmma.h).
//
// The accumulator registers are written by the tensor cores until a
// wgmma.wait_group covers them: every wait passes them through the wait op,
// whose asm ties them, so that nothing reads them before the wait.
//
// fp8 products summed in f32 lose precision in the tensor cores' adder:
// with maxNumImpreciseAcc <= K (as Triton decides it), at most that many
// products (rounded up to whole instructions) go into one wgmma
// accumulator, which is then added to the result with ordinary f32 adds.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "MmaFragments.h"

#include "tgpu/Dialect/NVGPU/IR/Dialect.h"
#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tgpu/Layout/Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;
namespace nvg = mlir::triton::nvgpu;

namespace {

// wgmma's D fragment (PTX ISA, "Register Fragments" of wgmma .m64nNk*):
// warp w of the warp group holds rows 16 (w % 4) + lane / 4 and + 8; its
// element i is in the i / 4-th block of 8 columns, on the second row when
// (i / 2) is odd, at column 2 (lane % 4) + i % 2 of the block.
Pos fragD(int lane, int warp, int i) {
  return {16 * (warp % 4) + lane / 4 + 8 * ((i / 2) % 2),
          8 * (i / 4) + 2 * (lane % 4) + i % 2};
}

// wgmma's A fragment in registers for K = tileK and `perReg` elements in
// each 32-bit register (PTX ISA, "Register Fragments" of wgmma A): four
// registers a0..a3 a lane; warp w holds rows 16 (w % 4) + lane / 4 (a0, a2)
// and + 8 (a1, a3), a2 and a3 tileK / 2 further along K; register j's
// element s is at K = perReg (lane % 4) + s. mma.sync's A fragment, one per
// warp of the group.
auto fragA(int tileK, int perReg) {
  return [=](int lane, int warp, int i) -> Pos {
    int j = i / perReg, s = i % perReg;
    return {16 * (warp % 4) + lane / 4 + 8 * (j % 2),
            perReg * (lane % 4) + s + (tileK / 2) * (j / 2)};
  };
}

// Whether `v` is a splat constant zero (either sign for floats).
bool isZeroSplat(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Attribute element = attr.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(element))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(element))
    return i.getValue().isZero();
  return false;
}

// One nvg.wgmma: D = A * B (+ `acc` when there is one, scaled by the i1
// `useC`). `acc` and the result are D's 32-bit registers (f32, or i32 for
// s32 and for f16 pairs); A is a descriptor or four i32 registers.
SmallVector<Value> emitWgmma(RewriterBase &rewriter, Location loc,
                             std::optional<ArrayRef<Value>> acc, Type dRegType,
                             int numD, ArrayRef<Value> a, Value descB,
                             Value useC, int tileN, int tileK,
                             nvg::WGMMAEltType abType, nvg::WGMMAEltType dType,
                             bool transA, bool transB) {
  MLIRContext *ctx = rewriter.getContext();
  auto structOf = [&](Type t, size_t n) {
    return LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n, t));
  };
  Type structType = structOf(dRegType, numD);
  Value opA = a.size() == 1
                  ? a[0]
                  : packValues(rewriter, loc,
                               structOf(rewriter.getI32Type(), a.size()), a);
  Value opC = acc ? packValues(rewriter, loc, structType, *acc) : Value();
  auto layout = [](bool transposed, bool isB) {
    return transposed != isB ? nvg::WGMMALayout::col : nvg::WGMMALayout::row;
  };
  Value d = nvg::WGMMAOp::create(rewriter, loc, structType, opA, descB, useC,
                                 opC, 64, tileN, tileK, dType, abType, abType,
                                 layout(transA, false), layout(transB, true));
  return unpackValues(rewriter, loc, d);
}

// `values` after a wgmma.wait_group with `pendings` groups left: one
// nvg.wgmma_wait_group over all of them, so that every later use depends on
// the wait. Consecutive 16-bit values of one type go through as one 32-bit
// pair, as an f16 accumulator's registers are: unpacking them before the
// wait would read wgmma's registers while it may still write them (ptxas
// then waits for every wgmma there). Values no wgmma writes (pointers,
// 1- and 8-bit integers) need no wait and pass around it.
SmallVector<Value> emitWaitGroup(RewriterBase &rewriter, Location loc,
                                 ArrayRef<Value> values, int pendings) {
  Type i32 = rewriter.getI32Type();
  auto waitable = [](Type t) {
    return t.isIntOrFloat() &&
           llvm::is_contained({16u, 32u, 64u}, t.getIntOrFloatBitWidth());
  };
  // The wait's struct members: a value, or a pair of 16-bit values packed;
  // for each, where its values go and the pair's vector type (or null).
  SmallVector<Value> members;
  SmallVector<size_t> firstIndex;
  SmallVector<Type> pairTypes;
  for (size_t i = 0; i < values.size(); ++i) {
    Type t = values[i].getType();
    if (!waitable(t))
      continue;
    firstIndex.push_back(i);
    if (t.getIntOrFloatBitWidth() == 16 && i + 1 < values.size() &&
        values[i + 1].getType() == t) {
      Value v = packVector(rewriter, loc, values.slice(i, 2));
      members.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, v));
      pairTypes.push_back(v.getType());
      ++i;
      continue;
    }
    members.push_back(values[i]);
    pairTypes.push_back(nullptr);
  }
  SmallVector<Type> types;
  for (Value v : members)
    types.push_back(v.getType());
  auto structType =
      LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types);
  Value waited = nvg::WGMMAWaitGroupOp::create(
      rewriter, loc, structType, packValues(rewriter, loc, structType, members),
      uint32_t(pendings));
  SmallVector<Value> waitedMembers = unpackValues(rewriter, loc, waited);
  SmallVector<Value> result(values.begin(), values.end());
  for (size_t m = 0; m < members.size(); ++m) {
    Value v = waitedMembers[m];
    size_t at = firstIndex[m];
    if (!pairTypes[m]) {
      result[at] = v;
      continue;
    }
    Value vec = LLVM::BitcastOp::create(rewriter, loc, pairTypes[m], v);
    for (int h = 0; h < 2; ++h)
      result[at + h] = LLVM::ExtractElementOp::create(
          rewriter, loc, vec, i32Constant(rewriter, loc, h));
  }
  return result;
}

// `values` made registers where the builder stands. The back end
// materializes a constant (and may place other plain computations) right
// before its use, which for a wgmma operand is after the wgmma.fence: a
// register write the PTX ISA requires the fence to follow (ptxas then reads
// stale accumulators). Values computed elsewhere (loop-carried, results of
// an asm) already are registers and pass unchanged; the others go through
// one empty asm with side effects, which stays before the fence.
SmallVector<Value> pinRegisters(RewriterBase &rewriter, Location loc,
                                ArrayRef<Value> values) {
  Type i32 = rewriter.getI32Type();
  SmallVector<Value> result(values.begin(), values.end());
  SmallVector<unsigned> pinned;
  SmallVector<Value> operands;
  std::string constraints, ties;
  // Already a register: a block argument or an asm result, or a part of
  // one.
  auto isRegister = [](Value v) {
    while (auto extract = v.getDefiningOp<LLVM::ExtractValueOp>())
      v = extract.getContainer();
    Operation *def = v.getDefiningOp();
    return !def ||
           isa<LLVM::InlineAsmOp, nvg::WGMMAOp, nvg::WGMMAWaitGroupOp>(def);
  };
  for (auto [i, v] : llvm::enumerate(values)) {
    if (isRegister(v))
      continue;
    Value reg = v.getType().isF32() || v.getType().isInteger(32)
                    ? v
                    : Value(LLVM::BitcastOp::create(rewriter, loc, i32, v));
    constraints += std::string(operands.empty() ? "=" : ",=") +
                   (reg.getType().isF32() ? "f" : "r");
    ties += "," + std::to_string(operands.size());
    operands.push_back(reg);
    pinned.push_back(unsigned(i));
  }
  if (operands.empty())
    return result;
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  auto asmOp = LLVM::InlineAsmOp::create(
      rewriter, loc,
      LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types), operands,
      "", constraints + ties, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  for (auto [k, i] : llvm::enumerate(pinned)) {
    Value v =
        LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), k);
    if (v.getType() != values[i].getType())
      v = LLVM::BitcastOp::create(rewriter, loc, values[i].getType(), v);
    result[i] = v;
  }
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
    auto aShared = dyn_cast<ttg::MemDescType>(op.getA().getType());
    auto aTensor = dyn_cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<ttg::MemDescType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = cast<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding());
    Type aElem = aShared ? aShared.getElementType() : aTensor.getElementType();
    Type bElem = bType.getElementType();
    Type cElem = cType.getElementType();

    // The instruction's types and K (PTX ISA, wgmma.mma_async).
    nvg::WGMMAEltType abType, dType;
    int tileK;
    if (aElem.isF16() && bElem.isF16()) {
      abType = nvg::WGMMAEltType::f16, tileK = 16;
    } else if (aElem.isBF16() && bElem.isBF16()) {
      abType = nvg::WGMMAEltType::bf16, tileK = 16;
    } else if (aElem.isF32() && bElem.isF32()) {
      if (op.getInputPrecision() != tt::InputPrecision::TF32)
        return op.emitError("an f32 wgmma needs inputPrecision = tf32");
      abType = nvg::WGMMAEltType::tf32, tileK = 8;
    } else if (isa<Float8E4M3FNType>(aElem) && aElem == bElem) {
      abType = nvg::WGMMAEltType::e4m3, tileK = 32;
    } else if (isa<Float8E5M2Type>(aElem) && aElem == bElem) {
      abType = nvg::WGMMAEltType::e5m2, tileK = 32;
    } else if (aElem.isInteger(8) && bElem.isInteger(8) &&
               cElem.isInteger(32)) {
      abType = nvg::WGMMAEltType::s8, tileK = 32;
    } else {
      return op.emitError("no wgmma lowering for ")
             << aElem << " x " << bElem << " -> " << cElem << " yet";
    }
    bool f16Acc = cElem.isF16();
    if (cElem.isInteger(32))
      dType = nvg::WGMMAEltType::s32;
    else if (cElem.isF32())
      dType = nvg::WGMMAEltType::f32;
    else if (f16Acc && abType != nvg::WGMMAEltType::bf16 &&
             abType != nvg::WGMMAEltType::tf32 &&
             abType != nvg::WGMMAEltType::s8)
      dType = nvg::WGMMAEltType::f16;
    else
      return op.emitError("wgmma has no ")
             << aElem << " product accumulated in " << cElem;
    if ((abType == nvg::WGMMAEltType::s8) != cElem.isInteger(32))
      return op.emitError("wgmma accumulates i8 products in i32 only");

    ArrayRef<unsigned> instrShape = mma.getInstrShape();
    int tileN = instrShape.size() >= 2 ? int(instrShape[1]) : 0;
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aShared ? aShared.getDimSize(1) : aTensor.getDimSize(1);
    if (tileN < 8 || tileN > 256 || tileN % 8 || N % tileN || M % 64 ||
        K % tileK)
      return op.emitError("a ") << M << "x" << N << "x" << K
                                << " wgmma with instrShape N = " << tileN
                                << " does not split into m64n" << tileN << "k"
                                << tileK << " instructions";

    FailureOr<SharedOperand> aOperand = failure();
    if (aShared) {
      aOperand = planOperand(loc, aShared, /*isB=*/false, 64, tileK);
      if (failed(aOperand))
        return failure();
    }
    auto bOperand = planOperand(loc, bType, /*isB=*/true, tileN, tileK);
    if (failed(bOperand))
      return failure();

    // The scale of D: a constant, or a flag read at run time.
    std::optional<bool> useC = true;
    if (Value flag = op.getUseC()) {
      APInt value;
      if (matchPattern(flag, m_ConstantInt(&value)))
        useC = !value.isZero();
      else
        useC = std::nullopt;
    }
    // D starts from zero: no accumulator goes into the first instruction
    // (scale-d 0), as when useC is false.
    bool zeroStart = useC == false || isZeroSplat(op.getC());
    // fp8 products in f32: at most maxNumImpreciseAcc of them per wgmma
    // accumulator (Triton's rule, WarpGroupDotOp::needsPartialAccumulator).
    bool partialSums = isa<Float8E4M3FNType, Float8E5M2Type>(aElem) &&
                       cElem.isF32() && op.getMaxNumImpreciseAcc() <= K;

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
    // Operand A in registers: its layout and values.
    FailureOr<LinearLayout> aLayout = failure();
    std::optional<Registers> aRegs;
    SmallVector<Value> aVals;
    if (aTensor) {
      aLayout = getDistributedLayout(aTensor, loc);
      if (failed(aLayout))
        return failure();
      aRegs.emplace(*aLayout);
      aVals = unpackValues(rewriter, loc, adaptor.getA());
    }

    SmallVector<Value> acc = unpackValues(rewriter, loc, adaptor.getC());
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
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
    // A descriptor is its operand's base descriptor (the buffer's address
    // field and the layout's constant fields), computed once, plus the
    // tile's byte offset in 16-byte units: one 64-bit add an instruction.
    // Exact: shared-memory addresses stay below 2^18 bytes, so the 14-bit
    // address field never carries into the next one.
    auto baseDescriptor = [&](const SharedOperand &operand, Value memdesc) {
      Value addr = LLVM::PtrToIntOp::create(rewriter, loc, i64, memdesc);
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
      return Value(LLVM::OrOp::create(rewriter, loc, bits, field));
    };
    Value aBase = aShared ? baseDescriptor(*aOperand, adaptor.getA()) : Value();
    Value bBase = baseDescriptor(*bOperand, adaptor.getB());
    // The descriptor of the tile at byte `start` (per warp group, multiples
    // of 16) from a base descriptor.
    auto descriptor = [&](Value base, ArrayRef<int64_t> start) {
      SmallVector<int64_t> units;
      for (int64_t s : start)
        units.push_back(s >> 4);
      return Value(
          LLVM::AddOp::create(rewriter, loc, base, perWarpGroup(units)));
    };
    // 32-bit operand registers from `perReg` elements (low element first).
    int aBits = aElem.getIntOrFloatBitWidth();
    int perReg = 32 / aBits;
    auto packA = [&](ArrayRef<Value> elems) -> Value {
      if (elems.size() == 1)
        return LLVM::BitcastOp::create(rewriter, loc, i32, elems[0]);
      return LLVM::BitcastOp::create(rewriter, loc, i32,
                                     packVector(rewriter, loc, elems));
    };

    // D registers of one instruction: f32 and s32 one element each, f16
    // two (an f16x2 pair of consecutive fragment elements, as an i32).
    Type half2 = VectorType::get(2, rewriter.getF16Type());
    Type dRegType = cElem.isF32() ? Type(rewriter.getF32Type()) : Type(i32);
    int fragElems = tileN / 2;
    int dRegs = f16Acc ? fragElems / 2 : fragElems;
    Value trueFlag = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    Value useCFlag = useC ? trueFlag : adaptor.getUseC();

    // Everything the instructions read from registers (accumulators packed
    // as the instruction takes them, A's registers, descriptors) is
    // computed before the wgmma.fence, the instructions after it: the PTX
    // ISA wants the fence between the last register write and the wgmma
    // that reads it, and ptxas otherwise adds a fence before each wgmma.
    auto fence = NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    auto beforeFence = [&] { rewriter.setInsertionPoint(fence); };
    auto afterFence = [&] { rewriter.setInsertionPoint(op); };
    SmallVector<bool> done(numC, false);
    // A's registers as the instructions read them: wgmma reads them
    // asynchronously, so they must not be reused before the wait.
    SmallVector<Value> aInFlight;
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
      // D in the instruction's registers, unless it starts from zero.
      beforeFence();
      std::optional<SmallVector<Value>> d;
      if (!zeroStart) {
        d.emplace();
        for (int j = 0; j < dRegs; ++j) {
          if (!f16Acc) {
            d->push_back(acc[cReg[j]]);
            continue;
          }
          Value v = packVector(rewriter, loc,
                               {acc[cReg[2 * j]], acc[cReg[2 * j + 1]]});
          d->push_back(LLVM::BitcastOp::create(rewriter, loc, i32, v));
        }
        *d = pinRegisters(rewriter, loc, *d);
      }
      // With partial sums, D stays out of the instructions: each group of
      // at most maxNumImpreciseAcc products starts its own accumulator,
      // added to D in f32 when the group ends. A D that only counts when
      // useC holds at run time is zeroed where it does not.
      std::optional<SmallVector<Value>> partial;
      if (partialSums && d && !useC) {
        Value zero = LLVM::ConstantOp::create(rewriter, loc, dRegType,
                                              rewriter.getF32FloatAttr(0));
        for (Value &v : *d)
          v = LLVM::SelectOp::create(rewriter, loc, adaptor.getUseC(), v, zero);
      }
      int64_t inGroup = 0;
      for (int64_t k0 = 0; k0 < K; k0 += tileK) {
        beforeFence();
        SmallVector<int64_t> aStart, bStart;
        for (int32_t g = 0; g < warps / 4; ++g) {
          Pos o = origin(4 * g);
          if (aShared)
            aStart.push_back(aOperand->byteOffset(o.first, k0));
          bStart.push_back(bOperand->byteOffset(o.second, k0));
        }
        for (int64_t start : llvm::concat<int64_t>(aStart, bStart))
          if (start % 16)
            return op.emitError("a wgmma tile starts ")
                   << start << " bytes into its buffer, not a multiple of 16";
        Value descB = descriptor(bBase, bStart);
        SmallVector<Value> aOps;
        if (aShared) {
          aOps.push_back(descriptor(aBase, aStart));
        } else {
          auto aOrigin = [&](int32_t w) {
            return Pos{origin(w).first, int32_t(k0)};
          };
          SmallVector<Value> elems;
          for (int i = 0; i < 4 * perReg; ++i) {
            int32_t r = aRegs->find(aOrigin, fragA(tileK, perReg), i);
            if (r < 0)
              return op.emitError("operand A's layout does not hold wgmma's "
                                  "A fragments: ")
                     << aTensor.getEncoding();
            elems.push_back(aVals[r]);
            if (int(elems.size()) == perReg)
              aOps.push_back(packA(elems)), elems.clear();
          }
          aOps = pinRegisters(rewriter, loc, aOps);
          llvm::append_range(aInFlight, aOps);
        }
        afterFence();
        // Transposed: M- (N-) major in shared memory; A row-major and B
        // column-major are K-major (PTX imm-trans-a / -b = 0).
        bool aTrans = aShared && aOperand->desc.mnMajor;
        bool bTrans = bOperand->desc.mnMajor;
        if (!partialSums) {
          // The first instruction adds D when useC says so; the others
          // always add the previous one's result.
          Value flag = k0 == 0 ? useCFlag : trueFlag;
          d = emitWgmma(rewriter, loc,
                        d ? std::optional<ArrayRef<Value>>(*d) : std::nullopt,
                        dRegType, dRegs, aOps, descB, flag, tileN, tileK,
                        abType, dType, aTrans, bTrans);
          continue;
        }
        partial = emitWgmma(rewriter, loc,
                            partial ? std::optional<ArrayRef<Value>>(*partial)
                                    : std::nullopt,
                            dRegType, dRegs, aOps, descB, trueFlag, tileN,
                            tileK, abType, dType, aTrans, bTrans);
        inGroup += tileK;
        if (inGroup < int64_t(op.getMaxNumImpreciseAcc()) && k0 + tileK < K)
          continue;
        if (d)
          for (auto [x, y] : llvm::zip_equal(*d, *partial))
            x = LLVM::FAddOp::create(rewriter, loc, x, y);
        else
          d = std::move(*partial);
        partial.reset();
        inGroup = 0;
      }
      afterFence();
      for (int i = 0; i < fragElems; ++i) {
        Value v = (*d)[f16Acc ? i / 2 : i];
        if (f16Acc)
          v = LLVM::ExtractElementOp::create(
              rewriter, loc, LLVM::BitcastOp::create(rewriter, loc, half2, v),
              i32Constant(rewriter, loc, i % 2));
        acc[cReg[i]] = v;
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
    // A synchronous dot waits here; the wait also takes A's registers, so
    // that nothing overwrites them while the wgmma may still read them
    // (the register allocator sees them dead once the wgmma is issued; on
    // an H100, two register-A dots in one loop gave wrong sums without
    // this, 2026-11-27).
    if (!op.getIsAsync()) {
      SmallVector<Value> live(acc.begin(), acc.end());
      llvm::append_range(live, aInFlight);
      live = emitWaitGroup(rewriter, loc, live, 0);
      live.resize(acc.size());
      acc.assign(live.begin(), live.end());
    }
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
