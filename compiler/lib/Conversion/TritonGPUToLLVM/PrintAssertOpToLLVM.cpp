// Device-side printing and assertions, through the CUDA runtime's device
// functions (resolved by ptxas / the driver, not by libdevice):
//   tt.print  -> vprintf(format, args): one line per element a thread holds,
//                in Triton's format "pid (x, y, z) idx (i, j)<prefix><value>",
//                the arguments packed in a stack buffer as vprintf expects
//                (integers widened to 32 bits, floats to double);
//   tt.assert -> __assertfail(message, file, line, function, charSize) in a
//                branch taken when any element of the condition is false.
#include "tgpu/Conversion/TritonGPUToLLVM/Patterns.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;

namespace {

// A NUL-terminated constant string in the module (one global per distinct
// text and prefix), as a generic pointer.
Value stringConstant(RewriterBase &rewriter, Operation *op, StringRef prefix,
                     StringRef text) {
  auto module = op->getParentOfType<ModuleOp>();
  MLIRContext *ctx = rewriter.getContext();
  std::string content = text.str();
  content.push_back('\0');
  StringAttr value = rewriter.getStringAttr(content);
  LLVM::GlobalOp global;
  unsigned used = 0;
  for (auto g : module.getOps<LLVM::GlobalOp>()) {
    if (!g.getSymName().starts_with(prefix))
      continue;
    ++used;
    if (g.getConstant() && g.getValueAttr() == value) {
      global = g;
      break;
    }
  }
  if (!global) {
    std::string name = (prefix + Twine(used)).str();
    while (module.lookupSymbol(name))
      name = (prefix + Twine(++used)).str();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(
        rewriter, UnknownLoc::get(ctx),
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), content.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name, value,
        /*alignment=*/1);
  }
  return LLVM::AddressOfOp::create(rewriter, op->getLoc(), global);
}

// A stack slot of `type` in the entry block of `op`'s function: vprintf's
// argument buffer. In the entry block it is a fixed frame slot; elsewhere
// (an scf.if, a loop) it would be a dynamic allocation on every execution.
Value entryAlloca(RewriterBase &rewriter, Operation *op, Type type) {
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *func = op->getParentOfType<FunctionOpInterface>();
  if (func && !func->getRegion(0).empty())
    rewriter.setInsertionPointToStart(&func->getRegion(0).front());
  Location loc = op->getLoc();
  return LLVM::AllocaOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), type,
      i32Constant(rewriter, loc, 1), /*alignment=*/8);
}

// One printf argument: the value as vprintf receives it, and its conversion.
struct PrintfArg {
  Value value;
  std::string format;
};

// Whether tt.print can print an element of `type` (pre-lowering type).
bool isPrintable(Type type) {
  if (isa<tt::PointerType>(type))
    return true;
  if (auto i = dyn_cast<IntegerType>(type))
    return i.getWidth() <= 32 || i.getWidth() == 64;
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

// Triton's conversions: %p for pointers; hex "0x%0<digits>x" ("ll" for 64
// bits) over the value's bits; %f for floats (passed as double); %i / %u (or
// %lli / %llu) for integers by signedness; `width` pads indices.
PrintfArg printfArg(RewriterBase &rewriter, Location loc, Value v, bool hex,
                    bool isSigned, std::optional<int> width = std::nullopt) {
  Type type = v.getType();
  Type i32 = rewriter.getI32Type();
  if (isa<LLVM::LLVMPointerType>(type))
    return {v, "%p"};
  unsigned bits = type.getIntOrFloatBitWidth();
  if (hex) {
    // The bits themselves: a float is reinterpreted, not converted (vprintf
    // would read a double's bytes for %x otherwise).
    if (isa<FloatType>(type))
      v = LLVM::BitcastOp::create(rewriter, loc, rewriter.getIntegerType(bits),
                                  v);
    if (bits < 32)
      v = LLVM::ZExtOp::create(rewriter, loc, i32, v);
    return {v, "0x%0" + std::to_string(bits / 4) + (bits > 32 ? "ll" : "") +
                   "x"};
  }
  std::string pad = "%" + (width ? std::to_string(*width) : std::string());
  if (isa<FloatType>(type)) {
    if (!type.isF64())
      v = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF64Type(), v);
    return {v, pad + "f"};
  }
  if (bits < 32)
    v = isSigned ? Value(LLVM::SExtOp::create(rewriter, loc, i32, v))
                 : Value(LLVM::ZExtOp::create(rewriter, loc, i32, v));
  return {v, pad + (bits == 64 ? "ll" : "") + (isSigned ? "i" : "u")};
}

// vprintf(format, buffer) with `args` stored into a stack buffer laid out as
// the struct of their types.
LogicalResult emitVprintf(RewriterBase &rewriter, Operation *op,
                          Value format, Value buffer, Type bufferType,
                          ArrayRef<Value> args) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op->getLoc();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  FailureOr<LLVM::LLVMFuncOp> vprintf = getOrDeclareExternalFunction(
      rewriter, op, "vprintf",
      LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptr, ptr}));
  if (failed(vprintf))
    return failure();
  if (args.empty()) {
    buffer = LLVM::ZeroOp::create(rewriter, loc, ptr);
  } else {
    for (auto [i, arg] : llvm::enumerate(args)) {
      Value field = LLVM::GEPOp::create(
          rewriter, loc, ptr, bufferType, buffer,
          ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
      LLVM::StoreOp::create(rewriter, loc, arg, field);
    }
  }
  LLVM::CallOp::create(rewriter, loc, *vprintf, ValueRange{format, buffer});
  return success();
}

struct PrintOpLowering : public ConvertOpToLLVMPattern<tt::PrintOp> {
  PrintOpLowering(TritonGPUToLLVMTypeConverter &converter,
                  const LoweringInfo &info)
      : ConvertOpToLLVMPattern(converter), info(info) {}

  // vprintf prints garbage for arguments past 32.
  static constexpr unsigned kMaxPrintfArgs = 32;

  LogicalResult
  matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    if (isSigned.size() != op.getArgs().size())
      return op.emitError("isSigned must have one entry per argument");
    for (Value arg : op.getArgs()) {
      Type elem = getElementTypeOrSelf(arg.getType());
      if (!isPrintable(elem))
        return op.emitError("tt.print cannot print values of type ") << elem;
    }
    // Layouts before any IR is built: a failure then leaves nothing behind.
    SmallVector<std::optional<LinearLayout>, 2> layouts;
    for (Value arg : op.getArgs()) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        layouts.push_back(std::nullopt);
        continue;
      }
      FailureOr<LinearLayout> layout = getDistributedLayout(tensor, loc);
      if (failed(layout))
        return failure();
      layouts.push_back(std::move(*layout));
    }

    Type i32 = rewriter.getI32Type();
    SmallVector<Value> pid = {NVVM::BlockIdXOp::create(rewriter, loc, i32),
                              NVVM::BlockIdYOp::create(rewriter, loc, i32),
                              NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    std::string pidFormat = "pid (%u, %u, %u) ";

    if (op.getArgs().empty()) {
      // Just the prefix (no " " before it: Triton's front end adds one).
      std::string format = pidFormat;
      format.pop_back();
      format += op.getPrefix().str() + "\n";
      Type bufferType = LLVM::LLVMStructType::getLiteral(
          getContext(), SmallVector<Type>(3, i32));
      Value buffer = entryAlloca(rewriter, op, bufferType);
      if (failed(emitVprintf(rewriter, op,
                             stringConstant(rewriter, op, "printfFormat_",
                                            format),
                             buffer, bufferType, pid)))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }

    unsigned numArgs = op.getArgs().size();
    for (unsigned i = 0; i < numArgs; ++i) {
      SmallVector<Value> values =
          unpackValues(rewriter, loc, adaptor.getArgs()[i]);
      SmallVector<SmallVector<Value>> indices;
      SmallVector<int> widths;
      if (layouts[i]) {
        indices = emitIndices(rewriter, loc, *layouts[i], info.threadsPerWarp);
        // Digits enough for the largest index (Triton's ceil(log10(dim))).
        for (int64_t dim :
             cast<RankedTensorType>(op.getArgs()[i].getType()).getShape())
          widths.push_back(dim > 0 ? int(std::ceil(std::log10(double(dim))))
                                   : 0);
      } else {
        indices.push_back({});
      }
      if (indices.size() != values.size())
        return op.emitError("operand ")
               << i << " holds " << values.size() << " values per thread but "
               << indices.size() << " indices";

      // The index may be cut short so that the pid, the index and the value
      // fit vprintf's argument limit.
      size_t maxRank = kMaxPrintfArgs - pid.size() - 2;
      std::string format;
      Type bufferType;
      Value formatPtr, buffer;
      for (auto [value, index] : llvm::zip_equal(values, indices)) {
        std::string line = pidFormat + "idx (";
        SmallVector<Value> args(pid);
        for (auto [d, coord] : llvm::enumerate(index)) {
          if (d != 0)
            line += ", ";
          if (d == maxRank) {
            line += "... (truncated)";
            break;
          }
          PrintfArg a = printfArg(rewriter, loc, coord, /*hex=*/false,
                                  /*isSigned=*/false, widths[d]);
          line += a.format;
          args.push_back(a.value);
        }
        line += ")" + op.getPrefix().str();
        if (numArgs > 1)
          line += "(operand " + std::to_string(i) + ") ";
        PrintfArg a = printfArg(rewriter, loc, value, op.getHex(),
                                isSigned[i] > 0);
        line += a.format + "\n";
        args.push_back(a.value);
        // Every element of an operand has the same format and buffer.
        if (!formatPtr) {
          format = line;
          formatPtr = stringConstant(rewriter, op, "printfFormat_", format);
          SmallVector<Type> types;
          for (Value arg : args)
            types.push_back(arg.getType());
          bufferType = LLVM::LLVMStructType::getLiteral(getContext(), types);
          buffer = entryAlloca(rewriter, op, bufferType);
        }
        if (failed(emitVprintf(rewriter, op, formatPtr, buffer, bufferType,
                               args)))
          return failure();
      }
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringInfo info;
};

// The file and line of a location: through call sites (the callee) and names
// to a file:line:col; "unknown" and 0 otherwise.
std::pair<StringRef, unsigned> sourcePosition(Location loc) {
  while (true) {
    if (auto call = dyn_cast<CallSiteLoc>(loc)) {
      loc = call.getCallee();
      continue;
    }
    if (auto name = dyn_cast<NameLoc>(loc)) {
      loc = name.getChildLoc();
      continue;
    }
    break;
  }
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return {file.getFilename().getValue(), file.getLine()};
  return {"unknown", 0};
}

struct AssertOpLowering : public ConvertOpToLLVMPattern<tt::AssertOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    FailureOr<LLVM::LLVMFuncOp> assertfail = getOrDeclareExternalFunction(
        rewriter, op, "__assertfail",
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                    {ptr, ptr, i32, ptr, i64}));
    if (failed(assertfail))
      return failure();
    // It prints and traps: nothing after it runs.
    if (!assertfail->getPassthrough())
      assertfail->setPassthroughAttr(
          rewriter.getArrayAttr({rewriter.getStringAttr("noreturn")}));

    // Fails when any element this thread holds is false.
    Value failed;
    for (Value elem : unpackValues(rewriter, loc, adaptor.getCondition())) {
      if (!isa<IntegerType>(elem.getType()))
        return op.emitError("the condition must be i1 or a tensor of i1");
      Value zero = LLVM::ConstantOp::create(rewriter, loc, elem.getType(),
                                            rewriter.getZeroAttr(elem.getType()));
      Value isFalse = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, elem, zero);
      failed = failed ? LLVM::OrOp::create(rewriter, loc, failed, isFalse)
                      : isFalse;
    }
    if (!failed)
      return op.emitError("the condition has no elements");

    auto [file, line] = sourcePosition(loc);
    StringRef funcName = "unknown";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      funcName = func.getName();
    Value message =
        stringConstant(rewriter, op, "assertMessage_", op.getMessage());
    Value fileName = stringConstant(rewriter, op, "assertFile_", file);
    Value function = stringConstant(rewriter, op, "assertFunc_", funcName);
    Value lineValue = i32Constant(rewriter, loc, line);
    Value charSize = LLVM::ConstantOp::create(rewriter, loc, i64,
                                              rewriter.getI64IntegerAttr(1));

    // before: ... cond_br failed, fail, rest
    // fail:   __assertfail(...); br rest
    // rest:   (barrier for tensors) the ops after the assert
    Block *before = op->getBlock();
    Block *rest = rewriter.splitBlock(before, op->getIterator());
    Block *fail = rewriter.createBlock(rest);
    LLVM::CallOp::create(rewriter, loc, *assertfail,
                         ValueRange{message, fileName, lineValue, function,
                                    charSize});
    LLVM::BrOp::create(rewriter, loc, rest);
    rewriter.setInsertionPointToEnd(before);
    LLVM::CondBrOp::create(rewriter, loc, failed, fail, rest);
    rewriter.setInsertionPoint(op);
    // Threads hold different elements: no thread goes on to what the assert
    // guards (another layout of the same data) before all have checked.
    if (isa<RankedTensorType>(op.getCondition().getType()))
      NVVM::Barrier0Op::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tgpu::populatePrintAssertOpToLLVMPatterns(
    TritonGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringInfo &info) {
  patterns.add<PrintOpLowering>(converter, info);
  patterns.add<AssertOpLowering>(converter);
}
