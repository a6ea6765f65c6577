// The ttng dialect: registration and verifiers.
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "tgpu/Dialect/TritonGPU/IR/InlineAnywhere.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;
using namespace mlir::triton::nvidia_gpu;

#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.cpp.inc"

void TritonNvidiaGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tgpu/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.cpp.inc"
      >();
  // ttng ops (barriers, TMA copies) inline with a tt.call's body as ttg ops do.
  addInterfaces<InlineAnywhereInterface>();
}

// The rules and messages of Triton's wgmma verifier, in its order (the
// layout rules come from its result-type inference, which runs first).
LogicalResult WarpGroupDotOp::verify() {
  // Tensors and memdescs are both ShapedTypes.
  auto aType = cast<ShapedType>(getA().getType()),
       bType = cast<ShapedType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  Attribute aEnc = triton::getEncoding(aType),
            bEnc = triton::getEncoding(bType);
  if (auto aMem = dyn_cast<MemDescType>(aType))
    aEnc = aMem.getEncoding();
  if (auto bMem = dyn_cast<MemDescType>(bType))
    bEnc = bMem.getEncoding();

  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(c.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError("WGMMA result layout must be Hopper NVMMA");
  // Without a layout on `a` Triton's inference has nothing to check and
  // its verifier speaks.
  if (!aEnc)
    return emitOpError("WGMMA A operand must have NVMMA shared or dot layout");
  auto aDot = dyn_cast<DotOperandEncodingAttr>(aEnc);
  bool aShared = isa<NVMMASharedEncodingAttr, SharedLinearEncodingAttr>(aEnc);
  bool aInRegs = aDot && aDot.getOpIdx() == 0 &&
                 isa<NvidiaMmaEncodingAttr>(aDot.getParent());
  if (!aShared && !aInRegs)
    return emitOpError(
        "unexpected operand layout for NvidiaMmaEncodingAttr v3");
  if (!isa_and_nonnull<NVMMASharedEncodingAttr, SharedLinearEncodingAttr>(bEnc))
    return emitOpError(
        "unexpected operand layout for NvidiaMmaEncodingAttr v3");

  ArrayRef<int64_t> aShape = aType.getShape(), bShape = bType.getShape(),
                    cShape = c.getShape();
  if (aShape.size() != bShape.size() || aShape.size() != cShape.size())
    return emitOpError("expected all operands to have the same rank");
  if (cShape.size() != 2)
    return emitOpError("WGMMA result shape must be 2D");
  if (aShape[1] != bShape[0])
    return emitOpError(
        "expected the last dimension of the first operand to be equal to the "
        "second-to-last dimension of the second operand");
  if (cShape[0] != aShape[0] || cShape[1] != bShape[1])
    return emitOpError(
        "expected the output shape to be the concatenation of the last "
        "dimension of the first operand and the last dimension of the second "
        "operand");

  // Triton's "num_warps divisible by 4" rule needs no check here: a v3
  // nvidia_mma layout has a multiple of 4 warps, and the layout checks of
  // every op require the module's ttg.num-warps to match.
  if (cShape[0] % 64 != 0)
    return emitOpError("WGMMA result M dimension must be divisible by 64");
  if (cShape[1] % 8 != 0)
    return emitOpError("WGMMA result N dimension must be divisible by 8");

  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  auto isFp8 = [](Type t) {
    return isa<Float8E5M2Type, Float8E4M3FNType, Float8E5M2FNUZType,
               Float8E4M3FNUZType>(t);
  };
  // What wgmma multiplies (fp8 may also be widened to f16 first).
  auto wgmmaTakes = [&](Type t) {
    return isFp8(t) || t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
           t.isInteger(8);
  };
  if (!wgmmaTakes(aElem) || !wgmmaTakes(bElem))
    return emitOpError("unsupported MMA version for the given operands");
  // fp8 wgmma accumulates with reduced precision: Triton requires a
  // promotion to f32 at least every 32 products.
  if (getMaxNumImpreciseAccAttr().getInt() < 32 &&
      isa<Float8E5M2Type, Float8E4M3FNType>(aElem) &&
      c.getElementType().isF32())
    return emitOpError(
        "Cannot use F32 as the accumulator element type when the "
        "max_num_imprecise_acc is less than 32");
  if (aDot) {
    // Each thread holds 32 bits of a's k dimension per register.
    unsigned kWidth = 32 / aElem.getIntOrFloatBitWidth();
    if (aDot.getKWidth() != kWidth)
      return emitOpError("in-register LHS operand must have a kWidth of ")
             << kWidth << " but got " << aDot.getKWidth();
  }
  // tgpu's own rule: the CPU oracle multiplies both as floats or both as
  // integers.
  if (isa<FloatType>(aElem) != isa<FloatType>(bElem))
    return emitOpError("a and b must both be float or both be integer");
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().empty())
    return emitOpError("expected to be waiting on at least one dependency");
  // The generated getter is unsigned; read the attribute signed.
  if (getPendingsAttr().getInt() < 0)
    return emitOpError("pendings must not be negative, got ") << getPendingsAttr().getInt();
  return success();
}
