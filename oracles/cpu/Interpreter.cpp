// The interpreter: one program at a time, each op over whole tensors in
// tight loops. See SEMANTICS.md for what each op means. This file holds the
// entry points, the region runner and the op dispatch; Program.h says where
// each op family's handlers live.
#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/Program.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tgpu::cpu;
using namespace tgpu::cpu::detail;
using llvm::Error;
using llvm::Expected;

char UndefinedBehavior::ID = 0;

void UndefinedBehavior::log(llvm::raw_ostream &os) const { os << report.str(); }

std::string UBReport::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << location << ": " << kind << " in " << op << " at pid (" << pid[0]
     << ", " << pid[1] << ", " << pid[2] << ")";
  if (!element.empty()) {
    os << " element [";
    for (size_t i = 0; i < element.size(); ++i)
      os << (i ? ", " : "") << element[i];
    os << "]";
  }
  os << ": " << message;
  return s;
}

unsigned tgpu::cpu::byteSize(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1:
  case ScalarKind::I8:
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2:
    return 1;
  case ScalarKind::I16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 2;
  case ScalarKind::I32:
  case ScalarKind::F32:
    return 4;
  default:
    return 8;
  }
}

llvm::StringRef tgpu::cpu::name(ScalarKind k) {
  static const char *names[] = {"i1",  "i8",       "i16",   "i32",
                                "i64", "f16",      "bf16",  "f32",
                                "f64", "f8E4M3FN", "f8E5M2"};
  return names[unsigned(k)];
}

bool tgpu::cpu::parseScalarKind(llvm::StringRef s, ScalarKind &k) {
  for (unsigned i = 0; i <= unsigned(ScalarKind::F8E5M2); ++i)
    if (s == name(ScalarKind(i))) {
      k = ScalarKind(i);
      return true;
    }
  return false;
}

namespace tgpu::cpu::detail {

Error plainError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string locString(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      loc = fused.getLocations().front();
  if (auto named = dyn_cast<NameLoc>(loc))
    loc = named.getChildLoc();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return s;
}

ScalarKind scalarKindOf(Type t) {
  if (auto i = dyn_cast<IntegerType>(t)) {
    switch (i.getWidth()) {
    case 1:
      return ScalarKind::I1;
    case 8:
      return ScalarKind::I8;
    case 16:
      return ScalarKind::I16;
    case 32:
      return ScalarKind::I32;
    default:
      return ScalarKind::I64;
    }
  }
  if (t.isF16())
    return ScalarKind::F16;
  if (t.isBF16())
    return ScalarKind::BF16;
  if (t.isF32())
    return ScalarKind::F32;
  if (isa<Float8E4M3FNType>(t))
    return ScalarKind::F8E4M3FN;
  if (isa<Float8E5M2Type>(t))
    return ScalarKind::F8E5M2;
  return ScalarKind::F64;
}

// The float types the oracle holds: IEEE ones and the two 8-bit floats of
// Hopper (SEMANTICS.md §2).
static bool isSupportedFloat(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

bool isSupportedScalar(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth());
  return isSupportedFloat(t) || t.isIndex();
}

Expected<ElemType> elemTypeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    t = tensor.getElementType();
  ElemType e;
  if (auto md = dyn_cast<triton::gpu::MemDescType>(t)) {
    e.kind = ElemType::MemDesc;
    if (!isSupportedScalar(md.getElementType()))
      return plainError("unsupported memdesc element type");
    e.pointee = scalarKindOf(md.getElementType());
    return e;
  }
  if (auto desc = dyn_cast<triton::TensorDescType>(t)) {
    e.kind = ElemType::Desc;
    e.bits = 64;
    Type elem = desc.getBlockType().getElementType();
    if (!isSupportedScalar(elem))
      return plainError("tensor descriptor of an unsupported element type");
    e.pointee = scalarKindOf(elem);
    return e;
  }
  if (isa<triton::gpu::AsyncTokenType>(t)) {
    e.kind = ElemType::Token;
    return e;
  }
  if (auto p = dyn_cast<triton::PointerType>(t)) {
    e.kind = ElemType::Ptr;
    e.bits = 64;
    Type pointee = p.getPointeeType();
    if (auto block = dyn_cast<RankedTensorType>(pointee)) {
      e.blockPtr = true;
      pointee = block.getElementType();
    }
    if (!isSupportedScalar(pointee))
      return plainError("pointer to an unsupported element type");
    e.pointee = scalarKindOf(pointee);
    return e;
  }
  if (t.isIndex()) {
    e.kind = ElemType::Int;
    e.bits = 64;
    return e;
  }
  if (auto i = dyn_cast<IntegerType>(t)) {
    e.kind = ElemType::Int;
    e.bits = i.getWidth();
    if (e.bits > 64)
      return plainError("integers wider than 64 bits are not supported");
    return e;
  }
  if (isSupportedFloat(t)) {
    e.kind = ElemType::Float;
    e.bits = t.getIntOrFloatBitWidth();
    e.bf16 = t.isBF16();
    e.e4m3 = isa<Float8E4M3FNType>(t);
    return e;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return plainError("element type " + s + " is not supported by the CPU oracle");
}

std::vector<int64_t> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return {tensor.getShape().begin(), tensor.getShape().end()};
  if (auto md = dyn_cast<triton::gpu::MemDescType>(t))
    return {md.getShape().begin(), md.getShape().end()};
  return {};
}

// Runs the blocks of a region from the entry block, following cf branches;
// returns the operands of the terminator that leaves the region.
Expected<std::vector<Tensor>> Program::runRegion(Region &region,
                                                 std::vector<Tensor> args) {
  Block *block = &region.front();
  for (;;) {
    if (block->getNumArguments() != args.size())
      return plainError("block argument count mismatch");
    for (auto [arg, value] : llvm::zip(block->getArguments(), args))
      set(arg, std::move(value));
    for (Operation &op : block->without_terminator())
      if (Error e = execOp(op))
        return std::move(e);
    Operation *term = block->getTerminator();
    if (++steps > options.stepBudget)
      return ub(term, "step-budget", "the program did more than " +
                                         llvm::Twine(options.stepBudget) +
                                         " element operations (runaway loop?)");
    auto operandsOf = [&](OperandRange ops) {
      std::vector<Tensor> r;
      for (Value v : ops)
        r.push_back(get(v));
      return r;
    };
    if (auto br = dyn_cast<cf::BranchOp>(term)) {
      args = operandsOf(br.getDestOperands());
      block = br.getDest();
      continue;
    }
    if (auto cbr = dyn_cast<cf::CondBranchOp>(term)) {
      bool taken = get(cbr.getCondition()).i[0] & 1;
      args = operandsOf(taken ? cbr.getTrueDestOperands()
                              : cbr.getFalseDestOperands());
      block = taken ? cbr.getTrueDest() : cbr.getFalseDest();
      continue;
    }
    // Any other terminator (tt.return, scf.yield, scf.condition,
    // tt.reduce.return, ...) hands its operands to the parent op.
    return operandsOf(term->getOperands());
  }
}

Error Program::execOp(Operation &op) {
  OpHandler h = handlerOf(op); // a copy: the cache may grow while it runs
  // The budget counts work, not ops: each op costs the elements of its
  // result (a dot M*N*K), so heavy loops are bounded in time too.
  uint64_t cost = 1;
  if (op.getNumResults() > 0)
    if (auto t = dyn_cast<RankedTensorType>(op.getResult(0).getType())) {
      cost = std::max<int64_t>(1, t.getNumElements());
      if (h.kind == OpKind::Dot && t.getRank() >= 2)
        if (auto a = dyn_cast<ShapedType>(op.getOperand(0).getType()))
          cost *= uint64_t(std::max<int64_t>(1, a.getShape().back()));
    }
  steps += cost;
  if (steps > options.stepBudget)
    return ub(&op, "step-budget", "the program did more than " +
                                      llvm::Twine(options.stepBudget) +
                                      " element operations (runaway loop?)");
  for (Value v : op.getOperands())
    if (!env.count(v.getAsOpaquePointer()))
      return plainError(locString(&op) + ": '" + op.getName().getStringRef() +
                        "' uses a value that was never computed");
  if (h.refusesFp8 && touchesFp8(op))
    return unsupported(&op, "8-bit floats only move, convert (tt.fp_to_fp), "
                            "bitcast and feed dots");
  return (this->*h.run)(op, h);
}

// An f8E4M3FN / f8E5M2 element type, or a pointer to one.
static bool isFp8(Type t) {
  t = getElementTypeOrSelf(t);
  if (auto p = dyn_cast<triton::PointerType>(t))
    t = getElementTypeOrSelf(p.getPointeeType());
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

bool touchesFp8(Operation &op) {
  return llvm::any_of(op.getOperandTypes(), isFp8) ||
         llvm::any_of(op.getResultTypes(), isFp8);
}

bool Program::computesOnFloats(OpKind kind) {
  switch (kind) {
  case OpKind::NegF:
  case OpKind::CmpF:
  case OpKind::AddF:
  case OpKind::SubF:
  case OpKind::MulF:
  case OpKind::DivF:
  case OpKind::RemF:
  case OpKind::MaxNumF:
  case OpKind::MinNumF:
  case OpKind::MaximumF:
  case OpKind::MinimumF:
  case OpKind::SIToFP:
  case OpKind::UIToFP:
  case OpKind::FPToSI:
  case OpKind::FPToUI:
  case OpKind::ExtF:
  case OpKind::TruncF:
  case OpKind::MathUnary:
  case OpKind::Fma:
  case OpKind::PowF:
  case OpKind::Atan2:
  case OpKind::CopySign:
  case OpKind::PreciseSqrt:
  case OpKind::PreciseDivF:
  case OpKind::ClampF:
  case OpKind::Extern:
  case OpKind::InlineAsm:
  case OpKind::AtomicRMW:
  case OpKind::AtomicCAS:
    return true;
  default:
    return false;
  }
}

Error Program::execUnsupported(Operation &op, const OpHandler &) {
  return unsupported(&op);
}

OpHandler Program::classify(Operation &op) {
  using P = Program;
  using K = OpKind;
  auto to = [](Error (Program::*run)(Operation &, const OpHandler &),
               OpKind kind) {
    return [=](auto) { return OpHandler{run, kind}; };
  };
  auto libm = [](LibmFn fn) {
    return [=](auto) { return OpHandler{&P::execMathUnary, K::MathUnary, fn}; };
  };
  namespace ttg = triton::gpu;
  namespace ttng = triton::nvidia_gpu;
  return llvm::TypeSwitch<Operation *, OpHandler>(&op)
      // Control flow
      .Case<scf::ForOp>(to(&P::execFor, K::For))
      .Case<scf::WhileOp>(to(&P::execWhile, K::While))
      .Case<scf::IfOp>(to(&P::execIf, K::If))
      .Case<triton::CallOp>(to(&P::execCall, K::Call))
      // arith
      .Case<arith::ConstantOp>(to(&P::execConstant, K::Constant))
      .Case<arith::SelectOp>(to(&P::execSelect, K::Select))
      .Case<arith::NegFOp>(to(&P::execNegF, K::NegF))
      .Case<arith::CmpIOp>(to(&P::execCmpI, K::CmpI))
      .Case<arith::CmpFOp>(to(&P::execCmpF, K::CmpF))
      .Case<arith::AddFOp>(to(&P::execFloatBinary, K::AddF))
      .Case<arith::SubFOp>(to(&P::execFloatBinary, K::SubF))
      .Case<arith::MulFOp>(to(&P::execFloatBinary, K::MulF))
      .Case<arith::DivFOp>(to(&P::execFloatBinary, K::DivF))
      .Case<arith::RemFOp>(to(&P::execFloatBinary, K::RemF))
      .Case<arith::MaxNumFOp>(to(&P::execFloatBinary, K::MaxNumF))
      .Case<arith::MinNumFOp>(to(&P::execFloatBinary, K::MinNumF))
      .Case<arith::MaximumFOp>(to(&P::execFloatBinary, K::MaximumF))
      .Case<arith::MinimumFOp>(to(&P::execFloatBinary, K::MinimumF))
      .Case<arith::AddIOp>(to(&P::execIntBinary, K::AddI))
      .Case<arith::SubIOp>(to(&P::execIntBinary, K::SubI))
      .Case<arith::MulIOp>(to(&P::execIntBinary, K::MulI))
      .Case<arith::AndIOp>(to(&P::execIntBinary, K::AndI))
      .Case<arith::OrIOp>(to(&P::execIntBinary, K::OrI))
      .Case<arith::XOrIOp>(to(&P::execIntBinary, K::XOrI))
      .Case<arith::DivSIOp>(to(&P::execIntBinary, K::DivSI))
      .Case<arith::RemSIOp>(to(&P::execIntBinary, K::RemSI))
      .Case<arith::DivUIOp>(to(&P::execIntBinary, K::DivUI))
      .Case<arith::RemUIOp>(to(&P::execIntBinary, K::RemUI))
      .Case<arith::FloorDivSIOp>(to(&P::execIntBinary, K::FloorDivSI))
      .Case<arith::CeilDivSIOp>(to(&P::execIntBinary, K::CeilDivSI))
      .Case<arith::ShLIOp>(to(&P::execIntBinary, K::ShLI))
      .Case<arith::ShRSIOp>(to(&P::execIntBinary, K::ShRSI))
      .Case<arith::ShRUIOp>(to(&P::execIntBinary, K::ShRUI))
      .Case<arith::MaxSIOp>(to(&P::execIntBinary, K::MaxSI))
      .Case<arith::MinSIOp>(to(&P::execIntBinary, K::MinSI))
      .Case<arith::MaxUIOp>(to(&P::execIntBinary, K::MaxUI))
      .Case<arith::MinUIOp>(to(&P::execIntBinary, K::MinUI))
      .Case<arith::ExtSIOp>(to(&P::execCast, K::ExtSI))
      .Case<arith::ExtUIOp>(to(&P::execCast, K::ExtUI))
      .Case<arith::TruncIOp>(to(&P::execCast, K::TruncI))
      .Case<arith::IndexCastOp>(to(&P::execCast, K::IndexCast))
      .Case<arith::IndexCastUIOp>(to(&P::execCast, K::IndexCastUI))
      .Case<arith::SIToFPOp>(to(&P::execCast, K::SIToFP))
      .Case<arith::UIToFPOp>(to(&P::execCast, K::UIToFP))
      .Case<arith::FPToSIOp>(to(&P::execCast, K::FPToSI))
      .Case<arith::FPToUIOp>(to(&P::execCast, K::FPToUI))
      .Case<arith::ExtFOp>(to(&P::execCast, K::ExtF))
      .Case<arith::TruncFOp>(to(&P::execCast, K::TruncF))
      .Case<arith::BitcastOp>(to(&P::execBitcast, K::ArithBitcast))
      // math
      .Case<math::AbsIOp>(to(&P::execMathInt, K::AbsI))
      .Case<math::CtPopOp>(to(&P::execMathInt, K::CtPop))
      .Case<math::CountLeadingZerosOp>(to(&P::execMathInt, K::CtLz))
      .Case<math::CountTrailingZerosOp>(to(&P::execMathInt, K::CtTz))
      .Case<math::ExpOp>(libm(LibmFn::Exp))
      .Case<math::Exp2Op>(libm(LibmFn::Exp2))
      .Case<math::ExpM1Op>(libm(LibmFn::Expm1))
      .Case<math::LogOp>(libm(LibmFn::Log))
      .Case<math::Log2Op>(libm(LibmFn::Log2))
      .Case<math::Log10Op>(libm(LibmFn::Log10))
      .Case<math::Log1pOp>(libm(LibmFn::Log1p))
      .Case<math::SqrtOp>(libm(LibmFn::Sqrt))
      .Case<math::CbrtOp>(libm(LibmFn::Cbrt))
      .Case<math::SinOp>(libm(LibmFn::Sin))
      .Case<math::CosOp>(libm(LibmFn::Cos))
      .Case<math::TanOp>(libm(LibmFn::Tan))
      .Case<math::AsinOp>(libm(LibmFn::Asin))
      .Case<math::AcosOp>(libm(LibmFn::Acos))
      .Case<math::AtanOp>(libm(LibmFn::Atan))
      .Case<math::SinhOp>(libm(LibmFn::Sinh))
      .Case<math::CoshOp>(libm(LibmFn::Cosh))
      .Case<math::TanhOp>(libm(LibmFn::Tanh))
      .Case<math::ErfOp>(libm(LibmFn::Erf))
      .Case<math::ErfcOp>(libm(LibmFn::Erfc))
      .Case<math::RsqrtOp>(libm(LibmFn::Rsqrt))
      .Case<math::AbsFOp>(libm(LibmFn::Fabs))
      .Case<math::FloorOp>(libm(LibmFn::Floor))
      .Case<math::CeilOp>(libm(LibmFn::Ceil))
      .Case<math::TruncOp>(libm(LibmFn::Trunc))
      .Case<math::RoundOp>(libm(LibmFn::Round))
      .Case<math::RoundEvenOp>(libm(LibmFn::Rint))
      .Case<math::FmaOp>(to(&P::execMathFloat, K::Fma))
      .Case<math::PowFOp>(to(&P::execMathFloat, K::PowF))
      .Case<math::Atan2Op>(to(&P::execMathFloat, K::Atan2))
      .Case<math::CopySignOp>(to(&P::execMathFloat, K::CopySign))
      // tt element-wise
      .Case<triton::BitcastOp>(to(&P::execBitcast, K::Bitcast))
      .Case<triton::FpToFpOp>(to(&P::execFpToFp, K::FpToFp))
      .Case<triton::PreciseSqrtOp>(to(&P::execPrecise, K::PreciseSqrt))
      .Case<triton::PreciseDivFOp>(to(&P::execPrecise, K::PreciseDivF))
      .Case<triton::ClampFOp>(to(&P::execClampF, K::ClampF))
      .Case<triton::MulhiUIOp>(to(&P::execMulhiUI, K::MulhiUI))
      .Case<triton::ExternElementwiseOp>(to(&P::execExtern, K::Extern))
      .Case<triton::ElementwiseInlineAsmOp>(to(&P::execInlineAsm, K::InlineAsm))
      // Tensors
      .Case<triton::GetProgramIdOp>(to(&P::execProgramId, K::ProgramId))
      .Case<triton::GetNumProgramsOp>(to(&P::execProgramId, K::NumPrograms))
      .Case<triton::MakeRangeOp>(to(&P::execMakeRange, K::MakeRange))
      .Case<triton::SplatOp>(to(&P::execSplat, K::Splat))
      .Case<triton::UnsplatOp>(to(&P::execUnsplat, K::Unsplat))
      .Case<triton::ExpandDimsOp, triton::ReshapeOp, ttg::ConvertLayoutOp>(
          to(&P::execReshape, K::Reshape))
      .Case<triton::BroadcastOp>(to(&P::execBroadcast, K::Broadcast))
      .Case<triton::TransOp>(to(&P::execTrans, K::Trans))
      .Case<triton::JoinOp>(to(&P::execJoin, K::Join))
      .Case<triton::SplitOp>(to(&P::execSplit, K::Split))
      .Case<triton::CatOp>(to(&P::execCat, K::Cat))
      .Case<triton::GatherOp>(to(&P::execGather, K::Gather))
      .Case<triton::HistogramOp>(to(&P::execHistogram, K::Histogram))
      .Case<triton::PrintOp>(to(&P::execPrint, K::Print))
      .Case<triton::AssertOp>(to(&P::execAssert, K::Assert))
      .Case<ub::PoisonOp>(to(&P::execPoison, K::Poison))
      // Global memory
      .Case<triton::MakeTensorPtrOp>(
          to(&P::execMakeTensorPtr, K::MakeTensorPtr))
      .Case<triton::AdvanceOp>(to(&P::execAdvance, K::Advance))
      .Case<triton::AddPtrOp>(to(&P::execAddPtr, K::AddPtr))
      .Case<triton::IntToPtrOp, triton::PtrToIntOp>(
          to(&P::execPtrCast, K::PtrCast))
      .Case<triton::LoadOp>(to(&P::execLoad, K::Load))
      .Case<triton::StoreOp>(to(&P::execStore, K::Store))
      .Case<triton::AtomicRMWOp>(to(&P::execAtomic, K::AtomicRMW))
      .Case<triton::AtomicCASOp>(to(&P::execAtomic, K::AtomicCAS))
      .Case<triton::MakeTensorDescOp>(
          to(&P::execMakeTensorDesc, K::MakeTensorDesc))
      .Case<triton::DescriptorLoadOp>(
          to(&P::execDescriptorAccess, K::DescriptorLoad))
      .Case<triton::DescriptorStoreOp>(
          to(&P::execDescriptorAccess, K::DescriptorStore))
      // Shared memory and TTGIR ordering
      .Case<ttg::BarrierOp, ttng::FenceAsyncSharedOp>(
          to(&P::execOrdering, K::Ordering))
      .Case<ttg::LocalDeallocOp>(to(&P::execLocalDealloc, K::LocalDealloc))
      .Case<ttg::AsyncCommitGroupOp>(to(&P::execAsyncGroup, K::AsyncCommit))
      .Case<ttg::AsyncWaitOp>(to(&P::execAsyncGroup, K::AsyncWait))
      .Case<ttng::WarpGroupDotWaitOp>(to(&P::execDotWait, K::DotWait))
      .Case<ttg::LocalAllocOp>(to(&P::execLocalAlloc, K::LocalAlloc))
      .Case<ttg::MemDescIndexOp>(to(&P::execMemDescView, K::MemDescIndex))
      .Case<ttg::MemDescSubsliceOp>(to(&P::execMemDescView, K::MemDescSubslice))
      .Case<ttg::MemDescTransOp>(to(&P::execMemDescView, K::MemDescTrans))
      .Case<ttg::MemDescReshapeOp>(to(&P::execMemDescView, K::MemDescReshape))
      .Case<ttg::LocalLoadOp>(to(&P::execLocalLoad, K::LocalLoad))
      .Case<ttg::LocalStoreOp>(to(&P::execLocalStore, K::LocalStore))
      .Case<ttg::AsyncCopyGlobalToLocalOp>(to(&P::execAsyncCopy, K::AsyncCopy))
      // mbarriers and TMA
      .Case<ttng::InitBarrierOp>(to(&P::execBarrier, K::InitBarrier))
      .Case<ttng::InvalBarrierOp>(to(&P::execBarrier, K::InvalBarrier))
      .Case<ttng::BarrierExpectOp>(to(&P::execBarrier, K::BarrierExpect))
      .Case<ttng::ArriveBarrierOp>(to(&P::execBarrier, K::ArriveBarrier))
      .Case<ttng::WaitBarrierOp>(to(&P::execWaitBarrier, K::WaitBarrier))
      .Case<ttng::AsyncTMACopyGlobalToLocalOp>(to(&P::execTmaLoad, K::TmaLoad))
      .Case<ttng::AsyncTMACopyLocalToGlobalOp>(
          to(&P::execTmaStore, K::TmaStore))
      .Case<ttng::TMAStoreWaitOp>(to(&P::execTmaStoreWait, K::TmaStoreWait))
      .Case<ttg::GlobalScratchAllocOp>(
          to(&P::execScratchAlloc, K::ScratchAlloc))
      .Case<ttng::TensormapCreateOp>(
          to(&P::execTensormapCreate, K::TensormapCreate))
      .Case<ttng::TensormapFenceproxyAcquireOp>(
          to(&P::execOrdering, K::Ordering))
      .Case<ttng::ReinterpretTensorDescOp>(
          to(&P::execReinterpretDesc, K::ReinterpretDesc))
      // Folds along an axis
      .Case<triton::ReduceOp>(to(&P::execReduce, K::Reduce))
      .Case<triton::ScanOp>(to(&P::execReduce, K::Scan))
      .Case<triton::DotOp, ttng::WarpGroupDotOp>(to(&P::execDot, K::Dot))
      .Default(to(&P::execUnsupported, K::Unsupported));
}

Expected<std::vector<Tensor>> Program::call(triton::FuncOp func,
                                            std::vector<Tensor> args) {
  if (func.getBody().empty())
    return plainError("function @" + func.getName() + " has no body");
  return runRegion(func.getBody(), std::move(args));
}

} // namespace tgpu::cpu::detail

namespace {

triton::FuncOp findKernel(ModuleOp module, llvm::StringRef name) {
  triton::FuncOp found;
  int publicCount = 0;
  for (auto f : module.getOps<triton::FuncOp>()) {
    if (!name.empty() && f.getName() == name)
      return f;
    if (name.empty() && f.isPublic()) {
      found = f;
      ++publicCount;
    }
  }
  return publicCount == 1 ? found : triton::FuncOp();
}

std::string typeName(Type t) {
  if (auto p = dyn_cast<triton::PointerType>(t)) {
    std::string s = "ptr:";
    llvm::raw_string_ostream os(s);
    p.getPointeeType().print(os);
    return s;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

} // namespace

std::string tgpu::cpu::describeSignature(ModuleOp module,
                                         llvm::StringRef kernelName) {
  triton::FuncOp f = findKernel(module, kernelName);
  if (!f)
    return "(no such kernel)";
  std::string s = "@" + f.getName().str() + "(";
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes()))
    s += (i ? ", " : "") + typeName(t);
  return s + ")";
}

Error tgpu::cpu::runKernel(ModuleOp module, llvm::StringRef kernelName,
                           std::vector<KernelArg> &args,
                           const RunOptions &options) {
  triton::FuncOp func = findKernel(module, kernelName);
  if (!func)
    return plainError(kernelName.empty()
                          ? llvm::Twine("the module must have exactly one public "
                                        "tt.func, or name one with --kernel")
                          : "no tt.func named @" + kernelName);
  auto types = func.getArgumentTypes();
  if (types.size() != args.size())
    return plainError("kernel " + describeSignature(module, func.getName()) +
                      " takes " + llvm::Twine(types.size()) +
                      " arguments; got " + llvm::Twine(args.size()));
  GlobalMemory global;
  HandlerCache handlers;
  std::vector<Tensor> bound;
  for (auto [i, t] : llvm::enumerate(types)) {
    KernelArg &a = args[i];
    Tensor v;
    if (auto p = dyn_cast<triton::PointerType>(t)) {
      if (!a.isBuffer || a.isDescriptor ||
          !isSupportedScalar(p.getPointeeType()) ||
          scalarKindOf(p.getPointeeType()) != a.kind)
        return plainError("argument " + llvm::Twine(i) + " must be a buffer " +
                          typeName(t) + " for kernel " +
                          describeSignature(module, func.getName()));
      Expected<ElemType> et = elemTypeOf(t);
      if (!et)
        return et.takeError();
      v.type = *et;
      v.i = {global.add(&a.bytes)};
    } else if (auto desc = dyn_cast<triton::TensorDescType>(t)) {
      // A desc: argument: its buffer seen as an array of its shape and
      // strides; the kernel's block must have the array's rank.
      RankedTensorType block = desc.getBlockType();
      Type elem = block.getElementType();
      if (!a.isDescriptor || !isSupportedScalar(elem) ||
          scalarKindOf(elem) != a.kind)
        return plainError(locString(func) + ": argument " + llvm::Twine(i) +
                          " must be a descriptor desc:" +
                          (isSupportedScalar(elem) ? name(scalarKindOf(elem))
                                                   : llvm::StringRef("?")) +
                          "=... for kernel " +
                          describeSignature(module, func.getName()));
      if (a.descShape.size() != size_t(block.getRank()))
        return plainError(locString(func) + ": argument " + llvm::Twine(i) +
                          " is a descriptor of rank " +
                          llvm::Twine(a.descShape.size()) +
                          ", but the kernel's " + typeName(t) + " has rank " +
                          llvm::Twine(block.getRank()));
      Expected<ElemType> et = elemTypeOf(t);
      if (!et)
        return et.takeError();
      v.type = *et;
      v.i = {global.add(&a.bytes)};
      v.bpShape = a.descShape;
      v.bpStrides = a.descStrides;
    } else {
      if (a.isBuffer || !isSupportedScalar(t) || scalarKindOf(t) != a.kind)
        return plainError("argument " + llvm::Twine(i) + " must be a scalar " +
                          typeName(t) + " for kernel " +
                          describeSignature(module, func.getName()));
      Expected<ElemType> et = elemTypeOf(t);
      if (!et)
        return et.takeError();
      v.type = *et;
      if (et->isFloat())
        v.f = {roundTo(*et, a.floatValue)};
      else
        v.i = {maskBits(uint64_t(a.intValue), et->bits)};
    }
    // An integer argument annotated tt.divisibility = d promises a multiple
    // of d; compilers vectorise masks and addresses on that promise (a
    // launch of vector_add with n = 1 makes both tgpu's and Triton's kernels
    // store past n), so a launch that breaks it is undefined behaviour.
    if (auto d = func.getArgAttrOfType<IntegerAttr>(unsigned(i), "tt.divisibility");
        d && d.getInt() > 1 && !a.isBuffer && !isa<FloatType>(t) &&
        a.intValue % d.getInt() != 0) {
      UBReport r;
      r.kind = "divisibility-contract";
      r.op = "tt.func";
      r.location = locString(func);
      r.message = "argument " + std::to_string(i) + " is " + std::to_string(a.intValue) +
                  ", not a multiple of its tt.divisibility " + std::to_string(d.getInt());
      return llvm::make_error<UndefinedBehavior>(std::move(r));
    }
    bound.push_back(std::move(v));
  }
  for (int64_t z = 0; z < options.grid[2]; ++z)
    for (int64_t y = 0; y < options.grid[1]; ++y)
      for (int64_t x = 0; x < options.grid[0]; ++x) {
        int32_t linear = int32_t(x + options.grid[0] * (y + options.grid[1] * z));
        Program p(module, global, handlers, options, {x, y, z}, linear);
        Expected<std::vector<Tensor>> r = p.call(func, bound);
        if (!r)
          return r.takeError();
      }
  return Error::success();
}
