// nvg.wgmma and nvg.wgmma_wait_group as PTX inline asm, in Triton's text:
//
//   wgmma.mma_async.sync.aligned.m64n<N>k<K>.<d>.<a>.<b>
//       {$0, ..., $(r-1)}, <A>, $<B>, <scale-d>[, 1, 1][, <trans-a>],
//       <trans-b>;
//
// D's registers are the outputs; with an accumulator they are also inputs
// tied to them (constraints "0".."r-1") and scale-d is the i1 `useC` (a
// predicate register), without one scale-d is the literal 0. A is a
// descriptor ("l") or the four 32-bit registers of its fragment ("r"), B a
// descriptor. imm-scale-a/b (1, 1) exist for float types (not s8) and the
// transpose immediates only for 16-bit ones (trans-a only for a descriptor
// A), as the PTX ISA lists the operands.
//
// The wait names every register of its struct as an output tied to the
// input: "// wait for regs: $0,...\n\twgmma.wait_group.sync.aligned N;".
// LLVM then cannot move a read of an accumulator register above the wait,
// which is what makes the registers defined.
#include "WgmmaToLLVM.h"

#include "tgpu/Conversion/TritonGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace nvg = mlir::triton::nvgpu;

namespace {

bool isFp8(nvg::WGMMAEltType t) {
  return t == nvg::WGMMAEltType::e4m3 || t == nvg::WGMMAEltType::e5m2;
}

bool is16Bit(nvg::WGMMAEltType t) {
  return t == nvg::WGMMAEltType::f16 || t == nvg::WGMMAEltType::bf16;
}

// The register constraint of one struct member, "" when it has none.
std::string constraintOf(Type type) {
  if (type.isF32())
    return "f";
  if (type.isF64())
    return "d";
  if (!type.isIntOrFloat())
    return "";
  switch (type.getIntOrFloatBitWidth()) {
  case 16:
    return "h";
  case 32:
    return "r";
  case 64:
    return "l";
  default:
    return "";
  }
}

// "{$first,...,$(first + count - 1)}"
std::string registerList(unsigned first, unsigned count) {
  std::string list = "{";
  for (unsigned i = 0; i < count; ++i)
    list += (i ? ",$" : "$") + std::to_string(first + i);
  return list + "}";
}

struct WgmmaLowering : public OpRewritePattern<nvg::WGMMAOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nvg::WGMMAOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto result = cast<LLVM::LLVMStructType>(op.getType());
    unsigned numD = result.getBody().size();
    std::string dConstraint = result.getBody().front().isF32() ? "f" : "r";
    PtxAsmOperands operands;
    for (unsigned i = 0; i < numD; ++i)
      operands.output(dConstraint);
    if (Value c = op.getOpC())
      for (auto [i, v] : llvm::enumerate(unpackValues(rewriter, loc, c)))
        operands.input(v, std::to_string(i));

    std::string text;
    llvm::raw_string_ostream os(text);
    os << "wgmma.mma_async.sync.aligned.m" << op.getM() << "n" << op.getN()
       << "k" << op.getK() << "."
       << nvg::stringifyWGMMAEltType(op.getEltTypeC()) << "."
       << nvg::stringifyWGMMAEltType(op.getEltTypeA()) << "."
       << nvg::stringifyWGMMAEltType(op.getEltTypeB()) << " "
       << registerList(0, numD) << ", ";
    Value a = op.getOpA();
    if (isa<LLVM::LLVMStructType>(a.getType())) {
      SmallVector<Value> regs = unpackValues(rewriter, loc, a);
      unsigned first = operands.input(regs.front(), "r");
      for (Value r : ArrayRef(regs).drop_front())
        operands.input(r, "r");
      os << registerList(first, regs.size()) << ", ";
    } else {
      os << "$" << operands.input(a, "l") << ", ";
    }
    os << "$" << operands.input(op.getOpB(), "l") << ", ";
    if (op.getOpC())
      os << "$" << operands.input(op.getUseC(), "b");
    else
      os << "0";
    if (op.getEltTypeA() != nvg::WGMMAEltType::s8)
      os << ", 1, 1";
    if (is16Bit(op.getEltTypeA())) {
      if (!isa<LLVM::LLVMStructType>(a.getType()))
        os << ", " << int(op.getLayoutA() == nvg::WGMMALayout::col);
      os << ", " << int(op.getLayoutB() == nvg::WGMMALayout::row);
    }
    os << ";";
    rewriter.replaceOp(op, createPtxAsm(rewriter, loc, result, operands, text));
    return success();
  }
};

struct WgmmaWaitGroupLowering : public OpRewritePattern<nvg::WGMMAWaitGroupOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nvg::WGMMAWaitGroupOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<LLVM::LLVMStructType>(op.getType());
    std::string wait = "wgmma.wait_group.sync.aligned " +
                       std::to_string(op.getPendings()) + ";";
    if (type.getBody().empty()) {
      createPtxAsm(rewriter, loc, TypeRange{}, PtxAsmOperands(), wait);
      rewriter.replaceOp(op, LLVM::UndefOp::create(rewriter, loc, type));
      return success();
    }
    PtxAsmOperands operands;
    for (Type t : type.getBody())
      operands.output(constraintOf(t));
    for (auto [i, v] :
         llvm::enumerate(unpackValues(rewriter, loc, op.getInput())))
      operands.input(v, std::to_string(i));
    // The register list without its braces.
    std::string regs = registerList(0, type.getBody().size());
    regs = regs.substr(1, regs.size() - 2);
    rewriter.replaceOp(
        op, createPtxAsm(rewriter, loc, type, operands,
                         "// wait for regs: " + regs + "\n\t" + wait));
    return success();
  }
};

} // namespace

LogicalResult mlir::tgpu::checkWgmma(nvg::WGMMAOp op) {
  using T = nvg::WGMMAEltType;
  T a = op.getEltTypeA(), b = op.getEltTypeB(), c = op.getEltTypeC();
  uint32_t m = op.getM(), n = op.getN(), k = op.getK();
  auto shape = [&] {
    return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" +
           std::to_string(k);
  };
  auto types = [&] {
    return (nvg::stringifyWGMMAEltType(c) + "." +
            nvg::stringifyWGMMAEltType(a) + "." + nvg::stringifyWGMMAEltType(b))
        .str();
  };
  // The PTX ISA's table of wgmma.mma_async: per type, K and the accumulator
  // types; N a multiple of 8 up to 256, for integers 8, 16, 24 or a
  // multiple of 16 (ptxas 13.0 rejects m64n40k32.s32.s8.s8).
  uint32_t wantK;
  bool typesOk, intN = false;
  if (is16Bit(a)) {
    wantK = 16;
    typesOk = b == a && (c == T::f32 || (a == T::f16 && c == T::f16));
  } else if (a == T::tf32) {
    wantK = 8;
    typesOk = b == a && c == T::f32;
  } else if (isFp8(a)) {
    wantK = 32;
    typesOk = isFp8(b) && (c == T::f32 || c == T::f16);
  } else if (a == T::s8) {
    wantK = 32, intN = true;
    typesOk = b == a && c == T::s32;
  } else {
    typesOk = false, wantK = 0;
  }
  if (!typesOk)
    return op.emitOpError("wgmma has no ") << types() << " instruction";
  bool nOk =
      n >= 8 && n <= 256 && n % 8 == 0 && (!intN || n <= 24 || n % 16 == 0);
  if (m != 64 || k != wantK || !nOk)
    return op.emitOpError("wgmma has no ")
           << shape() << " shape for " << types();
  // Only 16-bit operands can be transposed (A is row-major, B column-major
  // otherwise), and A only in shared memory.
  bool aInRegs = isa<LLVM::LLVMStructType>(op.getOpA().getType());
  bool transA = op.getLayoutA() == nvg::WGMMALayout::col,
       transB = op.getLayoutB() == nvg::WGMMALayout::row;
  if (!is16Bit(a) && (transA || transB))
    return op.emitOpError("wgmma cannot transpose ")
           << nvg::stringifyWGMMAEltType(a)
           << " operands (layoutA must be row, layoutB col)";
  if (aInRegs && transA)
    return op.emitOpError("wgmma cannot transpose an A operand in registers");
  if (isa<LLVM::LLVMStructType>(op.getOpB().getType()))
    return op.emitOpError("wgmma reads B from shared memory: it must be an "
                          "i64 matrix descriptor");

  // Register counts: D has n / 2 32-bit registers (f16 pairs packed), A in
  // registers four.
  auto result = cast<LLVM::LLVMStructType>(op.getType());
  unsigned wantD = c == T::f16 ? n / 4 : n / 2;
  std::string dConstraint = result.getBody().front().isF32() ? "f" : "r";
  for (Type t : result.getBody())
    if (t.isF32() != (dConstraint == "f") || (!t.isF32() && !t.isInteger(32)))
      return op.emitOpError("the accumulator registers must all be f32 or "
                            "all i32, not ")
             << result;
  if (result.getBody().size() != wantD)
    return op.emitOpError("a ")
           << shape() << "." << types() << " wgmma has " << wantD
           << " accumulator registers a thread, not "
           << result.getBody().size();
  if (Value opC = op.getOpC())
    if (opC.getType() != result)
      return op.emitOpError("the accumulator ")
             << opC.getType() << " is not of the result type " << result;
  if (aInRegs) {
    auto aType = cast<LLVM::LLVMStructType>(op.getOpA().getType());
    if (aType.getBody().size() != 4 ||
        !llvm::all_of(aType.getBody(), [](Type t) { return t.isInteger(32); }))
      return op.emitOpError("an A operand in registers is four i32, not ")
             << aType;
  }
  return success();
}

LogicalResult mlir::tgpu::checkWgmmaWaitGroup(nvg::WGMMAWaitGroupOp op) {
  for (Type t : cast<LLVM::LLVMStructType>(op.getType()).getBody())
    if (constraintOf(t).empty())
      return op.emitOpError("cannot pass a ")
             << t << " through the wait: registers are 16, 32 or 64 bits";
  return success();
}

void mlir::tgpu::populateWgmmaToLLVMPatterns(RewritePatternSet &patterns) {
  patterns.add<WgmmaLowering, WgmmaWaitGroupLowering>(patterns.getContext());
}
