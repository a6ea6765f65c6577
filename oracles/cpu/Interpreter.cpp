// The interpreter: one program at a time, each op over whole tensors in
// tight loops. See SEMANTICS.md for what each op means. This file holds the
// entry points, the region runner and the op dispatch; Program.h says where
// each op family's handlers live.
#include "Interpreter.h"
#include "Program.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/BuiltinOps.h"
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
  static const char *names[] = {"i1",  "i8",   "i16", "i32", "i64",
                                "f16", "bf16", "f32", "f64"};
  return names[unsigned(k)];
}

bool tgpu::cpu::parseScalarKind(llvm::StringRef s, ScalarKind &k) {
  for (unsigned i = 0; i <= unsigned(ScalarKind::F64); ++i)
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
  return ScalarKind::F64;
}

bool isSupportedScalar(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth());
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64() || t.isIndex();
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
  if (t.isF16() || t.isBF16() || t.isF32() || t.isF64()) {
    e.kind = ElemType::Float;
    e.bits = t.getIntOrFloatBitWidth();
    e.bf16 = t.isBF16();
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
  llvm::StringRef name = op.getName().getStringRef();
  // The budget counts work, not ops: each op costs the elements of its
  // result (a dot M*N*K), so heavy loops are bounded in time too.
  uint64_t cost = 1;
  if (op.getNumResults() > 0)
    if (auto t = dyn_cast<RankedTensorType>(op.getResult(0).getType())) {
      cost = std::max<int64_t>(1, t.getNumElements());
      if ((name == "tt.dot" || name == "ttng.warp_group_dot") &&
          t.getRank() >= 2)
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
      return plainError(locString(&op) + ": '" + name +
                        "' uses a value that was never computed");
  switch (classOf(op.getName())) {
  case OpClass::For:
    return execFor(cast<scf::ForOp>(op));
  case OpClass::While:
    return execWhile(cast<scf::WhileOp>(op));
  case OpClass::If:
    return execIf(cast<scf::IfOp>(op));
  case OpClass::Cast:
    return execCast(op, name);
  case OpClass::Arith:
    return execArith(op, name);
  case OpClass::Math:
    return execMath(op, name);
  case OpClass::Reduce:
    return execReduce(op, false);
  case OpClass::Scan:
    return execReduce(op, true);
  case OpClass::Dot:
    return execDot(op);
  case OpClass::Memory:
    return execMemory(op, name);
  case OpClass::Shared:
    return execShared(op, name);
  case OpClass::Tensor:
    break;
  }
  return execTensor(op, name);
}

// Which exec* function runs ops named `name`.
OpClass classifyOp(llvm::StringRef name) {
  if (name == "scf.for")
    return OpClass::For;
  if (name == "scf.while")
    return OpClass::While;
  if (name == "scf.if")
    return OpClass::If;
  if (name.starts_with("arith.")) {
    if (name.contains("ext") || name.contains("trunc") || name.contains("tofp") ||
        name.contains("fpto") || name == "arith.bitcast" ||
        name == "arith.index_cast" || name == "arith.index_castui")
      return OpClass::Cast;
    return OpClass::Arith;
  }
  if (name.starts_with("math."))
    return OpClass::Math;
  if (name == "tt.reduce")
    return OpClass::Reduce;
  if (name == "tt.scan")
    return OpClass::Scan;
  if (name == "tt.dot" || name == "ttng.warp_group_dot")
    return OpClass::Dot;
  if (name == "tt.load" || name == "tt.store" || name == "tt.atomic_rmw" ||
      name == "tt.atomic_cas" || name == "tt.addptr" || name == "tt.int_to_ptr" ||
      name == "tt.ptr_to_int" || name == "tt.make_tensor_ptr" ||
      name == "tt.advance")
    return OpClass::Memory;
  if (name.starts_with("ttg.") || name.starts_with("ttng."))
    return OpClass::Shared;
  return OpClass::Tensor;
}

OpClass Program::classOf(OperationName name) {
  auto [it, inserted] = opClasses.try_emplace(name.getAsOpaquePointer());
  if (inserted)
    it->second = classifyOp(name.getStringRef());
  return it->second;
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
  std::vector<Tensor> bound;
  for (auto [i, t] : llvm::enumerate(types)) {
    KernelArg &a = args[i];
    Tensor v;
    if (auto p = dyn_cast<triton::PointerType>(t)) {
      if (!a.isBuffer || !isSupportedScalar(p.getPointeeType()) ||
          scalarKindOf(p.getPointeeType()) != a.kind)
        return plainError("argument " + llvm::Twine(i) + " must be a buffer " +
                          typeName(t) + " for kernel " +
                          describeSignature(module, func.getName()));
      Expected<ElemType> et = elemTypeOf(t);
      if (!et)
        return et.takeError();
      v.type = *et;
      v.i = {global.add(&a.bytes)};
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
        Program p(module, global, options, {x, y, z}, linear);
        Expected<std::vector<Tensor>> r = p.call(func, bound);
        if (!r)
          return r.takeError();
      }
  return Error::success();
}
