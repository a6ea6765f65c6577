// The interpreter: one program at a time, each op over whole tensors in
// tight loops. See SEMANTICS.md for what each op means.
#include "InlineAsm.h"
#include "Interpreter.h"
#include "Values.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cinttypes>
#include <unordered_map>
#include <limits>

using namespace mlir;
using namespace tgpu::cpu;
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

namespace {

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

// Inline up to rank 6: per-element callers would otherwise allocate.
using Index = llvm::SmallVector<int64_t, 6>;
Index unravel(int64_t idx, llvm::ArrayRef<int64_t> shape) {
  Index r(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    r[d] = shape[d] ? idx % shape[d] : 0;
    idx = shape[d] ? idx / shape[d] : 0;
  }
  return r;
}

// The row-major indices of `shape` in order, for loops over every element:
// next() steps like an odometer instead of dividing per dim (unravel per
// element was a thirtieth of a fuzz_pipeline run).
class IndexWalker {
public:
  explicit IndexWalker(llvm::ArrayRef<int64_t> shape)
      : shape(shape), idx(shape.size(), 0) {}
  llvm::ArrayRef<int64_t> get() const { return idx; }
  void next() {
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        return;
      idx[d] = 0;
    }
  }

private:
  llvm::ArrayRef<int64_t> shape;
  Index idx;
};

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

//===----------------------------------------------------------------------===//
// Simulated memory
//===----------------------------------------------------------------------===//

// Buffer k lives at (k + 1) << 40: no pointer arithmetic inside a kernel can
// walk from one buffer into another.
struct GlobalMemory {
  struct Buffer {
    uint64_t base;
    std::vector<uint8_t> *bytes;
    // Which tt.store execution last wrote each byte (0: none; see
    // storeProgram), made on the buffer's first store. Programs run one
    // after another here but at once on a GPU, so a byte one program stored
    // and another reads, or overwrites with other data, is a race; a byte
    // one store writes twice with other data is an element conflict (§6).
    // calloc: pages nothing writes are never touched.
    std::unique_ptr<uint32_t, decltype(&std::free)> lastStore{nullptr, &std::free};
  };
  std::vector<Buffer> buffers;
  // The program of each tt.store execution (index: its serial number).
  std::vector<int32_t> storeProgram = {-1};

  Buffer *bufferOf(uint64_t addr) {
    uint64_t k = addr >> 40;
    return k == 0 || k > buffers.size() ? nullptr : &buffers[k - 1];
  }

  uint64_t add(std::vector<uint8_t> *bytes) {
    uint64_t base = uint64_t(buffers.size() + 1) << 40;
    buffers.push_back({base, bytes});
    return base;
  }
  // The byte at `addr` of `size` bytes, or null when the access is outside
  // every buffer.
  uint8_t *find(uint64_t addr, unsigned size) {
    uint64_t k = (addr >> 40);
    if (k == 0 || k > buffers.size())
      return nullptr;
    Buffer &b = buffers[k - 1];
    if (addr < b.base || addr - b.base + size > b.bytes->size())
      return nullptr;
    return b.bytes->data() + (addr - b.base);
  }
};

struct SharedAlloc {
  ElemType type;
  std::vector<uint64_t> i;
  std::vector<double> f;
  std::vector<bool> written;
};

uint64_t loadBits(const uint8_t *p, unsigned size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size);
  return v;
}

void storeBits(uint8_t *p, uint64_t v, unsigned size) { std::memcpy(p, &v, size); }

double floatFromBits(uint64_t bits, ScalarKind k) {
  switch (k) {
  case ScalarKind::F16: {
    _Float16 h;
    uint16_t b = uint16_t(bits);
    std::memcpy(&h, &b, 2);
    return double(h);
  }
  case ScalarKind::BF16:
    return floatFromBF16Bits(uint16_t(bits));
  case ScalarKind::F32: {
    float f;
    uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  default: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
}

uint64_t bitsFromFloat(double v, ScalarKind k) {
  switch (k) {
  case ScalarKind::F16: {
    _Float16 h = static_cast<_Float16>(v);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  case ScalarKind::BF16:
    return bf16BitsFromFloat(floatRoundToOdd(v));
  case ScalarKind::F32: {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  default: {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  }
}

bool isFloatKind(ScalarKind k) { return k >= ScalarKind::F16; }

// The one-argument libm functions both precisions have, by name: for T =
// float these are the C library's float functions (erff, expf, ...), what
// MLIR's math folders compute for f32 constants, so a folded value is the
// reference's to the bit (std::erf rounded to float differs from erff by an
// ulp at some inputs).
template <typename T> using UnaryFnOf = T (*)(T);
template <typename T> UnaryFnOf<T> libmFunction(llvm::StringRef base) {
  return llvm::StringSwitch<UnaryFnOf<T>>(base)
      .Case("exp", [](T x) { return std::exp(x); })
      .Case("exp2", [](T x) { return std::exp2(x); })
      .Case("expm1", [](T x) { return std::expm1(x); })
      .Case("log", [](T x) { return std::log(x); })
      .Case("log2", [](T x) { return std::log2(x); })
      .Case("log10", [](T x) { return std::log10(x); })
      .Case("log1p", [](T x) { return std::log1p(x); })
      .Case("sqrt", [](T x) { return std::sqrt(x); })
      .Case("cbrt", [](T x) { return std::cbrt(x); })
      .Case("sin", [](T x) { return std::sin(x); })
      .Case("cos", [](T x) { return std::cos(x); })
      .Case("tan", [](T x) { return std::tan(x); })
      .Case("asin", [](T x) { return std::asin(x); })
      .Case("acos", [](T x) { return std::acos(x); })
      .Case("atan", [](T x) { return std::atan(x); })
      .Case("sinh", [](T x) { return std::sinh(x); })
      .Case("cosh", [](T x) { return std::cosh(x); })
      .Case("tanh", [](T x) { return std::tanh(x); })
      .Case("erf", [](T x) { return std::erf(x); })
      .Case("erfc", [](T x) { return std::erfc(x); })
      .Default(nullptr);
}

// The exact one-argument functions, by libm-style name (shared by math.*
// and the libdevice calls).
using UnaryFn = UnaryFnOf<double>;
UnaryFn unaryMathFunction(llvm::StringRef base) {
  if (UnaryFn fn = libmFunction<double>(base))
    return fn;
  return llvm::StringSwitch<UnaryFn>(base)
      .Case("exp10", [](double x) { return std::pow(10.0, x); })
      .Case("rsqrt", [](double x) { return 1.0 / std::sqrt(x); })
      .Case("fabs", [](double x) { return std::fabs(x); })
      .Case("floor", [](double x) { return std::floor(x); })
      .Case("ceil", [](double x) { return std::ceil(x); })
      .Case("trunc", [](double x) { return std::trunc(x); })
      .Case("round", [](double x) { return std::round(x); })
      .Case("rint", [](double x) { return std::nearbyint(x); })
      .Default(nullptr);
}

// f32 math: the float functions above. rsqrt and exp10 have no float libm
// function MLIR folds with, and the rounding functions are exact either
// way: nullptr, the double path.
using UnaryFnF32 = UnaryFnOf<float>;
UnaryFnF32 unaryMathFunctionF32(llvm::StringRef base) { return libmFunction<float>(base); }

ScalarKind kindOfFloat(const ElemType &t) {
  if (t.bits == 16)
    return t.bf16 ? ScalarKind::BF16 : ScalarKind::F16;
  return t.bits == 32 ? ScalarKind::F32 : ScalarKind::F64;
}

// An integer (held exactly in a long double) rounded once to a float type.
double roundIntTo(const ElemType &t, long double v) {
  switch (t.bits) {
  case 16:
    if (t.bf16) {
      // Round to odd into float, then to nearest even into bf16: one
      // rounding overall.
      float f = float(v);
      if ((long double)f != v) {
        if (std::fabs((long double)f) > std::fabs(v))
          f = std::nextafter(f, 0.0f);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        u |= 1;
        std::memcpy(&f, &u, 4);
      }
      return floatFromBF16Bits(bf16BitsFromFloat(f));
    }
    return double(static_cast<_Float16>(v));
  case 32:
    return double(float(v));
  default:
    return double(v);
  }
}

//===----------------------------------------------------------------------===//
// The interpreter of one program
//===----------------------------------------------------------------------===//

// The exec* function an op goes to, found once per op name (comparing names
// op by op was a tenth of the oracle's time).
enum class OpClass {
  For, While, If, Cast, Arith, Math, Reduce, Scan, Dot, Memory, Shared, Tensor
};
OpClass classifyOp(llvm::StringRef name);

// A reduction or scan along `axis` of a row-major shape: `outer` lines
// before it times `inner` after it, each `len` long.
struct FoldShape {
  int64_t len, inner = 1, outer = 1;
  FoldShape(const std::vector<int64_t> &shape, int axis) : len(shape[axis]) {
    for (size_t d = axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
    for (int d = 0; d < axis; ++d)
      outer *= shape[d];
  }
  int64_t lines() const { return outer * inner; }
  // The element at step j of line (o, in).
  int64_t at(int64_t o, int64_t j, int64_t in) const {
    return (o * len + j) * inner + in;
  }
};

class Program {
public:
  Program(ModuleOp module, GlobalMemory &global, const RunOptions &options,
          std::array<int64_t, 3> pid, int32_t linearPid)
      : module(module), global(global), options(options), pid(pid),
        linearPid(linearPid) {}

  // Runs `func` with `args` bound to its entry block arguments.
  Expected<std::vector<Tensor>> call(triton::FuncOp func,
                                     std::vector<Tensor> args);

private:
  ModuleOp module;
  GlobalMemory &global;
  const RunOptions &options;
  std::array<int64_t, 3> pid;
  int32_t linearPid; // x + X * (y + Y * z): the owner id in Buffer::writer
  uint64_t steps = 0;
  std::vector<SharedAlloc> shared;
  // Node-based, so references to values stay valid while regions bind new
  // ones (loops and combine regions run while callers hold operands).
  std::unordered_map<const void *, Tensor> env;
  llvm::DenseMap<const void *, OpClass> opClasses; // by OperationName
  OpClass classOf(OperationName name);
  // While a combine region runs on all lines of a reduction at once: the
  // number of lines, which scalar-typed results (constants) take as their
  // shape. 0 otherwise.
  int64_t lanes = 0;
  llvm::DenseMap<Region *, bool> laneWise; // by combine region
  bool isLaneWise(Region &region);
  Error combineLanes(Operation &op, bool scan, bool reverse,
                     const FoldShape &fold, llvm::ArrayRef<const Tensor *> ins,
                     std::vector<Tensor> &outs);

  Error ub(Operation *op, llvm::StringRef kind, const llvm::Twine &msg,
           const Tensor *t = nullptr, int64_t element = -1) {
    UBReport r;
    r.kind = kind.str();
    r.op = op->getName().getStringRef().str();
    r.location = locString(op);
    r.pid = pid;
    if (t && element >= 0) {
      Index at = unravel(element, t->shape);
      r.element.assign(at.begin(), at.end());
    }
    r.message = msg.str();
    return llvm::make_error<UndefinedBehavior>(std::move(r));
  }
  Error unsupported(Operation *op, const llvm::Twine &why = "") {
    return plainError(locString(op) + ": the CPU oracle does not support '" +
                      op->getName().getStringRef() + "'" +
                      (why.isTriviallyEmpty() ? llvm::Twine("") : ": " + why));
  }

  const Tensor &get(Value v) {
    auto it = env.find(v.getAsOpaquePointer());
    if (it == env.end()) {
      // Verified IR defines every value before its use; keep going safely.
      static const Tensor empty;
      return empty;
    }
    return it->second;
  }
  Expected<Tensor> fresh(Value result, std::vector<int64_t> shape = {}) {
    Expected<ElemType> t = elemTypeOf(result.getType());
    if (!t)
      return t.takeError();
    Tensor r;
    r.type = *t;
    r.shape = shape.empty() && isa<RankedTensorType, triton::gpu::MemDescType>(
                                   result.getType())
                  ? shapeOf(result.getType())
                  : shape;
    if (lanes && r.shape.empty() && !isa<ShapedType>(result.getType()))
      r.shape = {lanes};
    r.resize(r.numel());
    return r;
  }
  // A zero tensor of `result`'s element type with the shape of `like`.
  Expected<Tensor> freshLike(Value result, const Tensor &like) {
    Expected<Tensor> r = fresh(result);
    if (!r)
      return r.takeError();
    r->shape = like.shape;
    r->resize(like.numel());
    return r;
  }
  void set(Value v, Tensor t) { env[v.getAsOpaquePointer()] = std::move(t); }

  Expected<std::vector<Tensor>> runRegion(Region &region,
                                          std::vector<Tensor> args);
  Error execOp(Operation &op);
  Error execArith(Operation &op, llvm::StringRef name);
  Error execCast(Operation &op, llvm::StringRef name);
  Error execMath(Operation &op, llvm::StringRef name);
  Error execTensor(Operation &op, llvm::StringRef name);
  Error execMemory(Operation &op, llvm::StringRef name);
  Error execShared(Operation &op, llvm::StringRef name);
  Error execReduce(Operation &op, bool scan);
  Error execExtern(Operation &op);
  Error execInlineAsm(Operation &op);
  Error execDot(Operation &op);
  Error execFor(scf::ForOp op);
  Error execWhile(scf::WhileOp op);
  Error execIf(scf::IfOp op);
  Error execBitcast(Operation &op);
};

Tensor scalarOf(const Tensor &t, int64_t idx) {
  Tensor s;
  s.type = t.type;
  if (t.type.isFloat())
    s.f = {t.f[idx]};
  else
    s.i = {t.i[idx]};
  return s;
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

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

Error Program::execFor(scf::ForOp op) {
  const Tensor &lb = get(op.getLowerBound()), &ub_ = get(op.getUpperBound()),
               &st = get(op.getStep());
  unsigned bits = lb.type.bits;
  int64_t lo = sext(lb.i[0], bits), hi = sext(ub_.i[0], bits),
          step = sext(st.i[0], bits);
  if (step <= 0)
    return ub(op.getOperation(), "non-positive-step",
              "scf.for step is " + llvm::Twine(step) + "; it must be positive");
  std::vector<Tensor> carried;
  for (Value v : op.getInitArgs())
    carried.push_back(get(v));
  for (int64_t iv = lo; iv < hi; iv += step) {
    Tensor ivT;
    ivT.type = lb.type;
    ivT.i = {maskBits(uint64_t(iv), bits)};
    std::vector<Tensor> args{ivT};
    args.insert(args.end(), carried.begin(), carried.end());
    Expected<std::vector<Tensor>> r = runRegion(op.getRegion(), std::move(args));
    if (!r)
      return r.takeError();
    carried = std::move(*r);
  }
  for (auto [res, v] : llvm::zip(op.getResults(), carried))
    set(res, std::move(v));
  return Error::success();
}

Error Program::execWhile(scf::WhileOp op) {
  std::vector<Tensor> args;
  for (Value v : op.getInits())
    args.push_back(get(v));
  for (;;) {
    Expected<std::vector<Tensor>> before = runRegion(op.getBefore(), args);
    if (!before)
      return before.takeError();
    // scf.condition(%cond) %values...
    bool go = (*before)[0].i[0] & 1;
    std::vector<Tensor> values(before->begin() + 1, before->end());
    if (!go) {
      for (auto [res, v] : llvm::zip(op.getResults(), values))
        set(res, std::move(v));
      return Error::success();
    }
    Expected<std::vector<Tensor>> after = runRegion(op.getAfter(), values);
    if (!after)
      return after.takeError();
    args = std::move(*after);
  }
}

Error Program::execIf(scf::IfOp op) {
  bool cond = get(op.getCondition()).i[0] & 1;
  Region &r = cond ? op.getThenRegion() : op.getElseRegion();
  if (r.empty())
    return Error::success();
  Expected<std::vector<Tensor>> res = runRegion(r, {});
  if (!res)
    return res.takeError();
  for (auto [v, t] : llvm::zip(op.getResults(), *res))
    set(v, std::move(t));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Integer and float arithmetic
//===----------------------------------------------------------------------===//

Error Program::execArith(Operation &op, llvm::StringRef name) {
  if (name == "arith.constant") {
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    Attribute value = op.getAttr("value");
    auto fill = [&](Attribute a, int64_t k) {
      if (auto i = dyn_cast<IntegerAttr>(a))
        r->i[k] = maskBits(i.getValue().getZExtValue(), r->type.bits);
      else if (auto f = dyn_cast<FloatAttr>(a))
        r->f[k] = f.getValue().convertToDouble();
      else if (auto b = dyn_cast<BoolAttr>(a))
        r->i[k] = b.getValue();
    };
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      if (dense.isSplat()) {
        // One conversion, then copies (a splat is most constants).
        if (r->numel() > 0) {
          fill(dense.getSplatValue<Attribute>(), 0);
          if (r->type.isFloat())
            std::fill(r->f.begin() + 1, r->f.end(), r->f[0]);
          else
            std::fill(r->i.begin() + 1, r->i.end(), r->i[0]);
        }
      } else {
        int64_t k = 0;
        for (Attribute a : dense.getValues<Attribute>())
          fill(a, k++);
      }
    } else if (r->numel() > 0) {
      fill(value, 0);
      // One element, or every lane of a combine region run lane-wise.
      if (r->type.isFloat())
        std::fill(r->f.begin() + 1, r->f.end(), r->f[0]);
      else
        std::fill(r->i.begin() + 1, r->i.end(), r->i[0]);
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "arith.select") {
    const Tensor &c = get(op.getOperand(0)), &a = get(op.getOperand(1)),
                 &b = get(op.getOperand(2));
    Tensor r = a;
    bool scalarCond = c.shape.empty();
    for (int64_t k = 0; k < r.numel(); ++k) {
      bool take = c.i[scalarCond ? 0 : k] & 1;
      if (r.type.isFloat())
        r.f[k] = take ? a.f[k] : b.f[k];
      else
        r.i[k] = take ? a.i[k] : b.i[k];
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (op.getNumOperands() == 1 && name == "arith.negf") {
    Tensor r = get(op.getOperand(0));
    for (double &x : r.f)
      x = -x;
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (op.getNumOperands() != 2)
    return unsupported(&op);
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  int64_t n = a.numel();

  if (name == "arith.cmpi" || name == "arith.cmpf") {
    Expected<Tensor> r = freshLike(op.getResult(0), a);
    if (!r)
      return r.takeError();
    if (name == "arith.cmpi") {
      auto pred = cast<arith::CmpIOp>(op).getPredicate();
      unsigned bits = a.type.bits;
      for (int64_t k = 0; k < n; ++k) {
        uint64_t x = a.i[k], y = b.i[k];
        int64_t sx = sext(x, bits), sy = sext(y, bits);
        bool v = false;
        switch (pred) {
        case arith::CmpIPredicate::eq: v = x == y; break;
        case arith::CmpIPredicate::ne: v = x != y; break;
        case arith::CmpIPredicate::slt: v = sx < sy; break;
        case arith::CmpIPredicate::sle: v = sx <= sy; break;
        case arith::CmpIPredicate::sgt: v = sx > sy; break;
        case arith::CmpIPredicate::sge: v = sx >= sy; break;
        case arith::CmpIPredicate::ult: v = x < y; break;
        case arith::CmpIPredicate::ule: v = x <= y; break;
        case arith::CmpIPredicate::ugt: v = x > y; break;
        case arith::CmpIPredicate::uge: v = x >= y; break;
        }
        r->i[k] = v;
      }
    } else {
      auto pred = cast<arith::CmpFOp>(op).getPredicate();
      for (int64_t k = 0; k < n; ++k) {
        double x = a.f[k], y = b.f[k];
        bool unord = std::isnan(x) || std::isnan(y);
        bool v = false;
        using P = arith::CmpFPredicate;
        switch (pred) {
        case P::AlwaysFalse: v = false; break;
        case P::OEQ: v = !unord && x == y; break;
        case P::OGT: v = !unord && x > y; break;
        case P::OGE: v = !unord && x >= y; break;
        case P::OLT: v = !unord && x < y; break;
        case P::OLE: v = !unord && x <= y; break;
        case P::ONE: v = !unord && x != y; break;
        case P::ORD: v = !unord; break;
        case P::UEQ: v = unord || x == y; break;
        case P::UGT: v = unord || x > y; break;
        case P::UGE: v = unord || x >= y; break;
        case P::ULT: v = unord || x < y; break;
        case P::ULE: v = unord || x <= y; break;
        case P::UNE: v = unord || x != y; break;
        case P::UNO: v = unord; break;
        case P::AlwaysTrue: v = true; break;
        }
        r->i[k] = v;
      }
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }

  Tensor r = a;
  if (a.type.isFloat()) {
    enum { Add, Sub, Mul, Div, Rem, MaxNum, MinNum, Maximum, Minimum } kind;
    auto k = llvm::StringSwitch<int>(name)
                 .Case("arith.addf", Add)
                 .Case("arith.subf", Sub)
                 .Case("arith.mulf", Mul)
                 .Case("arith.divf", Div)
                 .Case("arith.remf", Rem)
                 .Case("arith.maxnumf", MaxNum)
                 .Case("arith.minnumf", MinNum)
                 .Case("arith.maximumf", Maximum)
                 .Case("arith.minimumf", Minimum)
                 .Default(-1);
    if (k < 0)
      return unsupported(&op);
    kind = decltype(kind)(k);
    const ElemType &t = a.type;
    double *out = r.f.data();
    const double *x = a.f.data(), *y = b.f.data();
    // One loop per op: no dispatch per element.
    switch (kind) {
    case Add:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] + y[i]);
      break;
    case Sub:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] - y[i]);
      break;
    case Mul:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] * y[i]);
      break;
    case Div:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, x[i] / y[i]);
      break;
    case Rem:
      for (int64_t i = 0; i < n; ++i)
        out[i] = roundTo(t, std::fmod(x[i], y[i]));
      break;
    case MaxNum:
      for (int64_t i = 0; i < n; ++i)
        out[i] = std::fmax(x[i], y[i]);
      break;
    case MinNum:
      for (int64_t i = 0; i < n; ++i)
        out[i] = std::fmin(x[i], y[i]);
      break;
    case Maximum:
    case Minimum:
      for (int64_t i = 0; i < n; ++i) {
        double p = x[i], q = y[i];
        if (std::isnan(p) || std::isnan(q))
          out[i] = std::numeric_limits<double>::quiet_NaN();
        else if (p == q) // -0 < +0
          out[i] = kind == Maximum ? (std::signbit(p) ? q : p)
                                   : (std::signbit(p) ? p : q);
        else
          out[i] = kind == Maximum ? std::max(p, q) : std::min(p, q);
      }
      break;
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }

  unsigned bits = a.type.bits;
  uint64_t *out = r.i.data();
  const uint64_t *x = a.i.data(), *y = b.i.data();
  auto each = [&](auto fn) -> Error {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t v;
      if (Error e = fn(i, x[i], y[i], v))
        return e;
      out[i] = maskBits(v, bits);
    }
    return Error::success();
  };
  auto ok = [](uint64_t &dst, uint64_t v) {
    dst = v;
    return Error::success();
  };
  Error e = Error::success();
  if (name == "arith.addi")
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] + y[i], bits);
  else if (name == "arith.subi")
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] - y[i], bits);
  else if (name == "arith.muli")
    for (int64_t i = 0; i < n; ++i)
      out[i] = maskBits(x[i] * y[i], bits);
  else if (name == "arith.andi")
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] & y[i];
  else if (name == "arith.ori")
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] | y[i];
  else if (name == "arith.xori")
    for (int64_t i = 0; i < n; ++i)
      out[i] = x[i] ^ y[i];
  else if (name == "arith.divsi" || name == "arith.remsi" ||
           name == "arith.divui" || name == "arith.remui" ||
           name == "arith.floordivsi" || name == "arith.ceildivsi") {
    bool isSigned = !name.ends_with("ui");
    bool rem = name.starts_with("arith.rem");
    e = each([&](int64_t i, uint64_t p, uint64_t q, uint64_t &v) -> Error {
      if (q == 0)
        return ub(&op, "division-by-zero", "integer division by zero", &a, i);
      if (!isSigned)
        return ok(v, rem ? p % q : p / q);
      int64_t sp = sext(p, bits), sq = sext(q, bits);
      int64_t minv = bits >= 64 ? std::numeric_limits<int64_t>::min()
                                : -(int64_t(1) << (bits - 1));
      if (sp == minv && sq == -1)
        return ub(&op, "division-overflow",
                  "signed division of the minimum value by -1", &a, i);
      int64_t quo = sp / sq, rm = sp % sq;
      if (name == "arith.floordivsi" && rm != 0 && ((rm < 0) != (sq < 0)))
        --quo;
      if (name == "arith.ceildivsi" && rm != 0 && ((rm < 0) == (sq < 0)))
        ++quo;
      return ok(v, uint64_t(rem ? rm : quo));
    });
  } else if (name == "arith.shli" || name == "arith.shrsi" ||
             name == "arith.shrui") {
    e = each([&](int64_t i, uint64_t p, uint64_t q, uint64_t &v) -> Error {
      if (q >= bits)
        return ub(&op, "shift-too-large",
                  "shift by " + llvm::Twine(q) + " of a " + llvm::Twine(bits) +
                      "-bit integer",
                  &a, i);
      if (name == "arith.shli")
        return ok(v, p << q);
      if (name == "arith.shrui")
        return ok(v, p >> q);
      return ok(v, uint64_t(sext(p, bits) >> q));
    });
  } else if (name == "arith.maxsi" || name == "arith.minsi") {
    bool mx = name == "arith.maxsi";
    for (int64_t i = 0; i < n; ++i) {
      int64_t p = sext(x[i], bits), q = sext(y[i], bits);
      out[i] = maskBits(uint64_t(mx ? std::max(p, q) : std::min(p, q)), bits);
    }
  } else if (name == "arith.maxui" || name == "arith.minui") {
    bool mx = name == "arith.maxui";
    for (int64_t i = 0; i < n; ++i)
      out[i] = mx ? std::max(x[i], y[i]) : std::min(x[i], y[i]);
  } else if (name == "arith.mulhiui" || name == "arith.mulhisi") {
    for (int64_t i = 0; i < n; ++i) {
      __int128 p = name == "arith.mulhisi" ? __int128(sext(x[i], bits))
                                           : __int128(x[i]);
      __int128 q = name == "arith.mulhisi" ? __int128(sext(y[i], bits))
                                           : __int128(y[i]);
      out[i] = maskBits(uint64_t((p * q) >> bits), bits);
    }
  } else {
    return unsupported(&op);
  }
  if (e)
    return e;
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execCast(Operation &op, llvm::StringRef name) {
  if (name == "arith.bitcast")
    return execBitcast(op);
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  int64_t n = a.numel();
  unsigned from = a.type.bits, to = r->type.bits;
  if (name == "arith.extsi")
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(uint64_t(sext(a.i[k], from)), to);
  else if (name == "arith.extui" || name == "arith.trunci" ||
           name == "arith.index_castui")
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(a.i[k], to);
  else if (name == "arith.index_cast")
    for (int64_t k = 0; k < n; ++k)
      r->i[k] = maskBits(uint64_t(sext(a.i[k], from)), to);
  else if (name == "arith.sitofp" || name == "arith.uitofp")
    for (int64_t k = 0; k < n; ++k) {
      // The integer is exact in a long double (64-bit mantissa); round once.
      long double v = name == "arith.sitofp" ? (long double)sext(a.i[k], from)
                                             : (long double)a.i[k];
      r->f[k] = roundIntTo(r->type, v);
    }
  else if (name == "arith.fptosi" || name == "arith.fptoui") {
    bool isSigned = name == "arith.fptosi";
    for (int64_t k = 0; k < n; ++k) {
      double v = std::trunc(a.f[k]);
      long double lo = isSigned ? -std::ldexp(1.0L, to - 1) : 0.0L;
      long double hi = isSigned ? std::ldexp(1.0L, to - 1) : std::ldexp(1.0L, to);
      if (std::isnan(v) || (long double)v < lo || (long double)v >= hi)
        return ub(&op, "float-to-int-overflow",
                  "the value does not fit the integer type", &a, k);
      r->i[k] = maskBits(isSigned ? uint64_t(int64_t(v)) : uint64_t(v), to);
    }
  } else if (name == "arith.extf" || name == "arith.truncf")
    for (int64_t k = 0; k < n; ++k)
      r->f[k] = roundTo(r->type, a.f[k]);
  else
    return unsupported(&op);
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execMath(Operation &op, llvm::StringRef name) {
  const Tensor &a = get(op.getOperand(0));
  Tensor r = a;
  int64_t n = a.numel();
  if (a.type.isInt()) {
    unsigned bits = a.type.bits;
    for (int64_t k = 0; k < n; ++k) {
      uint64_t v = maskBits(a.i[k], bits);
      if (name == "math.absi")
        r.i[k] = maskBits(uint64_t(std::abs(sext(v, bits))), bits);
      else if (name == "math.ctpop")
        r.i[k] = llvm::popcount(v);
      else if (name == "math.ctlz")
        r.i[k] = v ? llvm::countl_zero(v) - (64 - bits) : bits;
      else if (name == "math.cttz")
        r.i[k] = v ? llvm::countr_zero(v) : bits;
      else
        return unsupported(&op);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  // math.X is the libm function X (absf = fabs, roundeven = rint).
  llvm::StringRef base = name.drop_front(strlen("math."));
  if (base == "absf")
    base = "fabs";
  else if (base == "roundeven")
    base = "rint";
  UnaryFn fn = unaryMathFunction(base);
  UnaryFnF32 fn32 = a.type.bits == 32 ? unaryMathFunctionF32(base) : nullptr;
  if (fn32) {
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = double(fn32(float(a.f[k])));
  } else if (fn) {
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, fn(a.f[k]));
  } else if (name == "math.fma") {
    const Tensor &b = get(op.getOperand(1)), &c = get(op.getOperand(2));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, std::fma(a.f[k], b.f[k], c.f[k]));
  } else if (name == "math.powf" || name == "math.atan2") {
    const Tensor &b = get(op.getOperand(1));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = roundTo(a.type, name == "math.powf" ? std::pow(a.f[k], b.f[k])
                                                   : std::atan2(a.f[k], b.f[k]));
  } else if (name == "math.copysign") {
    const Tensor &b = get(op.getOperand(1));
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = std::copysign(a.f[k], b.f[k]);
  } else {
    return unsupported(&op);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Tensor construction and shape ops
//===----------------------------------------------------------------------===//

// Copies element `from` of `a` to element `to` of `r` (same element type).
inline void copyElem(Tensor &r, int64_t to, const Tensor &a, int64_t from) {
  if (a.type.isFloat())
    r.f[to] = a.f[from];
  else
    r.i[to] = a.i[from];
}

Error Program::execTensor(Operation &op, llvm::StringRef name) {
  if (name == "tt.get_program_id" || name == "tt.get_num_programs") {
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    auto axis = op.getAttrOfType<IntegerAttr>("axis");
    int a = axis ? int(axis.getInt()) : 0;
    if (a < 0 || a > 2)
      return unsupported(&op, "axis out of range");
    r->i[0] = name == "tt.get_program_id" ? uint64_t(pid[a])
                                          : uint64_t(options.grid[a]);
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.make_range") {
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    int64_t start = op.getAttrOfType<IntegerAttr>("start").getInt();
    for (int64_t k = 0; k < r->numel(); ++k)
      r->i[k] = maskBits(uint64_t(start + k), r->type.bits);
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.splat") {
    const Tensor &a = get(op.getOperand(0));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    int64_t n = r.numel();
    if (a.type.isFloat())
      r.f.assign(n, a.f[0]);
    else
      r.i.assign(n, a.i[0]);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.unsplat") {
    set(op.getResult(0), scalarOf(get(op.getOperand(0)), 0));
    return Error::success();
  }
  if (name == "tt.expand_dims" || name == "tt.reshape" ||
      name == "ttg.convert_layout") {
    // Row-major data unchanged; only the shape changes.
    Tensor r = get(op.getOperand(0));
    r.shape = shapeOf(op.getResult(0).getType());
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.broadcast") {
    const Tensor &a = get(op.getOperand(0));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    int64_t n = r.numel();
    r.resize(n);
    IndexWalker walk(r.shape);
    for (int64_t k = 0; k < n; ++k, walk.next()) {
      llvm::ArrayRef<int64_t> idx = walk.get();
      int64_t src = 0;
      for (size_t d = 0; d < a.shape.size(); ++d)
        src = src * a.shape[d] + (a.shape[d] == 1 ? 0 : idx[d]);
      copyElem(r, k, a, src);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.trans") {
    const Tensor &a = get(op.getOperand(0));
    auto order = op.getAttrOfType<DenseI32ArrayAttr>("order");
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    int64_t n = r.numel();
    r.resize(n);
    IndexWalker walk(r.shape);
    for (int64_t k = 0; k < n; ++k, walk.next()) {
      llvm::ArrayRef<int64_t> idx = walk.get();
      Index srcIdx(a.shape.size());
      for (size_t d = 0; d < idx.size(); ++d)
        srcIdx[order[d]] = idx[d];
      int64_t src = 0;
      for (size_t d = 0; d < a.shape.size(); ++d)
        src = src * a.shape[d] + srcIdx[d];
      copyElem(r, k, a, src);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.join") {
    // A new minor dim of size 2: (lhs, rhs) interleaved.
    const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    r.resize(r.numel());
    for (int64_t k = 0; k < a.numel(); ++k) {
      copyElem(r, 2 * k, a, k);
      copyElem(r, 2 * k + 1, b, k);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.split") {
    const Tensor &a = get(op.getOperand(0));
    for (int half = 0; half < 2; ++half) {
      Tensor r;
      r.type = a.type;
      r.shape = shapeOf(op.getResult(half).getType());
      r.resize(r.numel());
      for (int64_t k = 0; k < r.numel(); ++k)
        copyElem(r, k, a, 2 * k + half);
      set(op.getResult(half), std::move(r));
    }
    return Error::success();
  }
  if (name == "tt.cat") {
    // Concatenation along dim 0.
    const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    r.resize(r.numel());
    for (int64_t k = 0; k < a.numel(); ++k)
      copyElem(r, k, a, k);
    for (int64_t k = 0; k < b.numel(); ++k)
      copyElem(r, a.numel() + k, b, k);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.gather") {
    const Tensor &src = get(op.getOperand(0)), &idx = get(op.getOperand(1));
    int axis = int(op.getAttrOfType<IntegerAttr>("axis").getInt());
    Tensor r;
    r.type = src.type;
    r.shape = idx.shape;
    r.resize(r.numel());
    for (int64_t k = 0; k < r.numel(); ++k) {
      Index at = unravel(k, idx.shape);
      int64_t g = sext(idx.i[k], idx.type.bits);
      if (g < 0 || g >= src.shape[axis])
        return ub(&op, "index-out-of-range",
                  "gather index " + llvm::Twine(g) + " outside dim of size " +
                      llvm::Twine(src.shape[axis]),
                  &idx, k);
      at[axis] = g;
      int64_t flat = 0;
      for (size_t d = 0; d < at.size(); ++d)
        flat = flat * src.shape[d] + at[d];
      copyElem(r, k, src, flat);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.bitcast")
    return execBitcast(op);
  if (name == "tt.fp_to_fp") {
    const Tensor &a = get(op.getOperand(0));
    Expected<Tensor> r = freshLike(op.getResult(0), a);
    if (!r)
      return r.takeError();
    auto fp = cast<triton::FpToFpOp>(op);
    bool rtz = fp.getRounding() && *fp.getRounding() == triton::RoundingMode::RTZ;
    ScalarKind toK = kindOfFloat(r->type);
    for (int64_t k = 0; k < a.numel(); ++k) {
      double v = roundTo(r->type, a.f[k]);
      if (rtz && std::isfinite(a.f[k]) && std::fabs(v) > std::fabs(a.f[k])) {
        // Rounded away from zero: take the neighbour one ulp toward zero
        // (sign-magnitude bits: one less in magnitude).
        v = floatFromBits(bitsFromFloat(v, toK) - 1, toK);
      }
      r->f[k] = v;
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.precise_sqrt" || name == "tt.precise_divf") {
    Tensor r = get(op.getOperand(0));
    for (int64_t k = 0; k < r.numel(); ++k)
      r.f[k] = roundTo(r.type, name == "tt.precise_sqrt"
                                   ? std::sqrt(r.f[k])
                                   : r.f[k] / get(op.getOperand(1)).f[k]);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.clampf") {
    Tensor r = get(op.getOperand(0));
    const Tensor &lo = get(op.getOperand(1)), &hi = get(op.getOperand(2));
    // propagateNan = all: a NaN input gives NaN; otherwise NaN is ignored
    // (maxNum/minNum).
    bool nanOut = cast<triton::ClampFOp>(op).getPropagateNan() ==
                  triton::PropagateNan::ALL;
    for (int64_t k = 0; k < r.numel(); ++k) {
      double x = r.f[k];
      r.f[k] = nanOut && std::isnan(x)
                   ? x
                   : std::fmin(std::fmax(x, lo.f[lo.shape.empty() ? 0 : k]),
                               hi.f[hi.shape.empty() ? 0 : k]);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.mulhiui") {
    Tensor r = get(op.getOperand(0));
    const Tensor &b = get(op.getOperand(1));
    for (int64_t k = 0; k < r.numel(); ++k)
      r.i[k] = maskBits(uint64_t((unsigned __int128)r.i[k] * b.i[k] >> r.type.bits),
                        r.type.bits);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.print") {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "pid (" << pid[0] << ", " << pid[1] << ", " << pid[2] << ")";
    if (auto prefix = op.getAttrOfType<StringAttr>("prefix"))
      os << prefix.getValue();
    for (Value v : op.getOperands()) {
      const Tensor &t = get(v);
      for (int64_t k = 0; k < t.numel(); ++k) {
        os << (k ? ", " : " ");
        if (t.type.isFloat())
          os << llvm::format("%g", t.f[k]);
        else
          os << sext(t.i[k], t.type.bits);
      }
    }
    if (options.print)
      options.print(s + "\n");
    else
      llvm::outs() << s << "\n";
    return Error::success();
  }
  if (name == "tt.assert") {
    const Tensor &c = get(op.getOperand(0));
    for (int64_t k = 0; k < c.numel(); ++k)
      if (!(c.i[k] & 1)) {
        auto msg = op.getAttrOfType<StringAttr>("message");
        return ub(&op, "assertion-failed",
                  "device assertion failed: " +
                      (msg ? msg.getValue() : llvm::StringRef("")),
                  &c, k);
      }
    return Error::success();
  }
  if (name == "tt.call") {
    auto callee = op.getAttrOfType<FlatSymbolRefAttr>("callee");
    auto fn = module.lookupSymbol<triton::FuncOp>(callee.getValue());
    if (!fn)
      return unsupported(&op, "callee not found");
    std::vector<Tensor> args;
    for (Value v : op.getOperands())
      args.push_back(get(v));
    Expected<std::vector<Tensor>> r = call(fn, std::move(args));
    if (!r)
      return r.takeError();
    for (auto [v, t] : llvm::zip(op.getResults(), *r))
      set(v, std::move(t));
    return Error::success();
  }
  if (name == "tt.extern_elementwise")
    return execExtern(op);
  if (name == "tt.elementwise_inline_asm")
    return execInlineAsm(op);
  if (name == "tt.histogram") {
    // Counts of the (masked-on) values in [0, bins); others are not counted.
    const Tensor &src = get(op.getOperand(0));
    const Tensor *mask = op.getNumOperands() > 1 ? &get(op.getOperand(1)) : nullptr;
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    int64_t bins = r->numel();
    for (int64_t k = 0; k < src.numel(); ++k) {
      if (mask && !(mask->i[k] & 1))
        continue;
      int64_t v = sext(src.i[k], src.type.bits);
      if (v >= 0 && v < bins)
        r->i[v] = maskBits(r->i[v] + 1, r->type.bits);
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "ub.poison") {
    // A value the program must not rely on: zeros, so runs stay
    // deterministic.
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  return unsupported(&op);
}

// arith.bitcast / tt.bitcast: the same bits as another element type of one
// width (floats, integers, pointers).
Error Program::execBitcast(Operation &op) {
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  for (int64_t k = 0; k < a.numel(); ++k) {
    uint64_t bits =
        a.type.isFloat() ? bitsFromFloat(a.f[k], kindOfFloat(a.type)) : a.i[k];
    if (r->type.isFloat())
      r->f[k] = floatFromBits(bits, kindOfFloat(r->type));
    else
      r->i[k] = r->type.kind == ElemType::Ptr ? bits : maskBits(bits, r->type.bits);
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// libdevice functions by symbol (float and double variants): the value of the
// exact function, rounded to the result type.
Error Program::execExtern(Operation &op) {
  llvm::StringRef sym = op.getAttrOfType<StringAttr>("symbol").getValue();
  llvm::StringRef base = sym;
  base.consume_front("__nv_");
  if (base.size() > 1 && base.ends_with("f") && !base.ends_with("erf") &&
      base != "modf")
    base = base.drop_back(); // expf -> exp; erff -> erf is handled below
  if (sym == "__nv_erff" || sym == "__nv_erf")
    base = "erf";
  using F1 = double (*)(double);
  using F2 = double (*)(double, double);
  F1 f1 = unaryMathFunction(base);
  F2 f2 = llvm::StringSwitch<F2>(base)
              .Case("pow", [](double x, double y) { return std::pow(x, y); })
              .Case("atan2", [](double x, double y) { return std::atan2(x, y); })
              .Case("fmod", [](double x, double y) { return std::fmod(x, y); })
              .Case("hypot", [](double x, double y) { return std::hypot(x, y); })
              .Case("fmax", [](double x, double y) { return std::fmax(x, y); })
              .Case("fmin", [](double x, double y) { return std::fmin(x, y); })
              .Case("copysign",
                    [](double x, double y) { return std::copysign(x, y); })
              .Default(nullptr);
  const Tensor &a = get(op.getOperand(0));
  Expected<Tensor> r = freshLike(op.getResult(0), a);
  if (!r)
    return r.takeError();
  if (!r->type.isFloat() || (f1 && op.getNumOperands() != 1) ||
      (f2 && op.getNumOperands() != 2) || (!f1 && !f2))
    return unsupported(&op, "no reference for libdevice function '" + sym + "'");
  for (int64_t k = 0; k < a.numel(); ++k)
    r->f[k] = roundTo(r->type, f1 ? f1(a.f[k]) : f2(a.f[k], get(op.getOperand(1)).f[k]));
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// Inline PTX over a small instruction subset (InlineAsm.h), one element at a
// time: inputs and outputs are the elements' raw bits.
Error Program::execInlineAsm(Operation &op) {
  auto packed = op.getAttrOfType<IntegerAttr>("packed_element");
  if (packed && packed.getInt() != 1)
    return unsupported(&op, "packed_element > 1");
  llvm::StringRef constraints =
      op.getAttrOfType<StringAttr>("constraints").getValue();
  llvm::SmallVector<llvm::StringRef, 8> cs;
  constraints.split(cs, ',');
  unsigned outputs = 0;
  for (llvm::StringRef c : cs)
    outputs += c.trim().starts_with("=");
  if (outputs != op.getNumResults() ||
      cs.size() != op.getNumResults() + op.getNumOperands())
    return unsupported(&op, "constraints '" + constraints +
                                "' do not match the operands");
  Expected<InlineAsmProgram> prog = InlineAsmProgram::parse(
      op.getAttrOfType<StringAttr>("asm_string").getValue(), cs.size());
  if (!prog)
    return unsupported(&op, llvm::toString(prog.takeError()));
  std::vector<Tensor> results;
  for (Value v : op.getResults()) {
    Expected<Tensor> r = fresh(v);
    if (!r)
      return r.takeError();
    results.push_back(std::move(*r));
  }
  int64_t n = results.empty() ? 0 : results[0].numel();
  std::vector<uint64_t> regs(cs.size());
  auto bitsOf = [](const Tensor &t, int64_t k) {
    return t.type.isFloat() ? bitsFromFloat(t.f[k], kindOfFloat(t.type)) : t.i[k];
  };
  for (int64_t k = 0; k < n; ++k) {
    std::fill(regs.begin(), regs.end(), 0);
    for (unsigned i = 0; i < op.getNumOperands(); ++i) {
      const Tensor &in = get(op.getOperand(i));
      regs[outputs + i] = bitsOf(in, in.shape.empty() ? 0 : k);
    }
    if (Error e = prog->run(regs))
      return unsupported(&op, llvm::toString(std::move(e)));
    for (unsigned o = 0; o < outputs; ++o) {
      Tensor &r = results[o];
      if (r.type.isFloat())
        r.f[k] = floatFromBits(regs[o], kindOfFloat(r.type));
      else
        r.i[k] = maskBits(regs[o], r.type.bits);
    }
  }
  for (auto [v, t] : llvm::zip(op.getResults(), results))
    set(v, std::move(t));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

Error Program::execMemory(Operation &op, llvm::StringRef name) {
  if (name == "tt.make_tensor_ptr") {
    auto mk = cast<triton::MakeTensorPtrOp>(op);
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    r->shape.clear();
    r->i = {get(mk.getBase()).i[0]};
    for (Value v : mk.getShape())
      r->bpShape.push_back(sext(get(v).i[0], 64));
    for (Value v : mk.getStrides())
      r->bpStrides.push_back(sext(get(v).i[0], 64));
    for (Value v : mk.getOffsets())
      r->bpOffsets.push_back(sext(get(v).i[0], 32));
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.advance") {
    Tensor r = get(op.getOperand(0));
    for (unsigned d = 1; d < op.getNumOperands() && d - 1 < r.bpOffsets.size(); ++d)
      r.bpOffsets[d - 1] += sext(get(op.getOperand(d)).i[0], 32);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.addptr") {
    const Tensor &p = get(op.getOperand(0)), &off = get(op.getOperand(1));
    Tensor r;
    r.type = p.type;
    r.shape = shapeOf(op.getResult(0).getType());
    int64_t n = r.numel();
    r.i.resize(n);
    uint64_t size = byteSize(p.type.pointee);
    bool scalarPtr = p.shape.empty(), scalarOff = off.shape.empty();
    for (int64_t k = 0; k < n; ++k)
      r.i[k] = p.i[scalarPtr ? 0 : k] +
               uint64_t(sext(off.i[scalarOff ? 0 : k], off.type.bits)) * size;
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.int_to_ptr" || name == "tt.ptr_to_int") {
    Tensor r = get(op.getOperand(0));
    Expected<ElemType> t = elemTypeOf(op.getResult(0).getType());
    if (!t)
      return t.takeError();
    r.type = *t;
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  const Tensor &ptrIn = get(op.getOperand(0));
  // A block pointer becomes a tensor of element pointers plus, for the
  // boundary-checked dims, a mask of the elements inside the tensor.
  Tensor expanded, boundary;
  bool blockAccess = ptrIn.type.blockPtr;
  if (blockAccess) {
    if (name != "tt.load" && name != "tt.store")
      return unsupported(&op, "block pointers only in tt.load / tt.store");
    auto checked = op.getAttrOfType<DenseI32ArrayAttr>("boundaryCheck");
    Type valueType = name == "tt.load" ? op.getResult(0).getType()
                                       : op.getOperand(1).getType();
    expanded.type = ptrIn.type;
    expanded.type.blockPtr = false;
    expanded.shape = shapeOf(valueType);
    boundary.type.kind = ElemType::Int;
    boundary.type.bits = 1;
    boundary.shape = expanded.shape;
    int64_t count = expanded.numel();
    expanded.i.resize(count);
    boundary.i.assign(count, 1);
    for (int64_t e = 0; e < count; ++e) {
      Index idx = unravel(e, expanded.shape);
      int64_t elems = 0;
      for (size_t d = 0; d < idx.size(); ++d) {
        int64_t c = ptrIn.bpOffsets[d] + idx[d];
        elems += c * ptrIn.bpStrides[d];
        if (checked && llvm::is_contained(checked.asArrayRef(), int32_t(d)) &&
            (c < 0 || c >= ptrIn.bpShape[d]))
          boundary.i[e] = 0;
      }
      expanded.i[e] = ptrIn.i[0] + uint64_t(elems) * byteSize(ptrIn.type.pointee);
    }
  }
  const Tensor &ptr = blockAccess ? expanded : ptrIn;
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  int64_t n = ptr.numel();
  auto access = [&](int64_t e, uint8_t *&where) -> Error {
    uint64_t addr = ptr.i[e];
    if (addr % size)
      return ub(&op, "misaligned-access",
                "address 0x" + llvm::Twine::utohexstr(addr) +
                    " is not aligned to " + llvm::Twine(size) + " bytes",
                &ptr, e);
    where = global.find(addr, size);
    if (!where)
      return ub(&op, "out-of-bounds",
                "address 0x" + llvm::Twine::utohexstr(addr) +
                    " is outside every buffer",
                &ptr, e);
    return Error::success();
  };
  auto toTensorValue = [&](Tensor &t, int64_t e, uint64_t bits) {
    if (isFloatKind(k))
      t.f[e] = floatFromBits(bits, k);
    else
      t.i[e] = maskBits(bits, t.type.bits);
  };
  auto fromTensorValue = [&](const Tensor &t, int64_t e) -> uint64_t {
    return isFloatKind(k) ? bitsFromFloat(t.f[e], k) : t.i[e];
  };
  // Races between programs through plain loads and stores (§6). Atomics
  // are not tracked: they are the way programs may share memory.
  auto raceError = [&](llvm::StringRef kind, int64_t e, int32_t other,
                       const char *what) {
    return ub(&op, kind,
              "address 0x" + llvm::Twine::utohexstr(ptr.i[e]) + " " + what +
                  " program " + llvm::Twine(other) +
                  " (programs in the x-fastest order) stored there",
              &ptr, e);
  };
  auto checkLoadRace = [&](int64_t e) -> Error {
    GlobalMemory::Buffer *b = global.bufferOf(ptr.i[e]);
    if (!b || !b->lastStore)
      return Error::success();
    const uint32_t *last = b->lastStore.get() + (ptr.i[e] - b->base);
    for (unsigned j = 0; j < size; ++j) {
      int32_t w = global.storeProgram[last[j]];
      if (w >= 0 && w != linearPid)
        return raceError("load-race", e, w, "is read, but");
    }
    return Error::success();
  };
  // Also two elements of one store (`serial`) at one address: the GPU's
  // threads store at once, and which lands is not defined unless they agree.
  auto checkStoreRace = [&](int64_t e, const uint8_t *where, uint64_t bits,
                            uint32_t serial) -> Error {
    GlobalMemory::Buffer *b = global.bufferOf(ptr.i[e]);
    if (!b)
      return Error::success();
    if (!b->lastStore) {
      b->lastStore.reset(static_cast<uint32_t *>(
          std::calloc(std::max<size_t>(1, b->bytes->size()), sizeof(uint32_t))));
      if (!b->lastStore)
        return plainError("out of memory for the race shadow of a buffer");
    }
    uint32_t *last = b->lastStore.get() + (ptr.i[e] - b->base);
    bool same = loadBits(where, size) == maskBits(bits, size * 8);
    for (unsigned j = 0; j < size; ++j) {
      if (!same && last[j] == serial)
        return ub(&op, "store-conflict",
                  "another element of this store wrote different data at "
                  "address 0x" + llvm::Twine::utohexstr(ptr.i[e]),
                  &ptr, e);
      int32_t w = global.storeProgram[last[j]];
      if (!same && w >= 0 && w != linearPid)
        return raceError("store-race", e, w, "gets different data, but");
      last[j] = serial;
    }
    return Error::success();
  };

  if (name == "tt.load") {
    auto load = cast<triton::LoadOp>(op);
    const Tensor *mask = load.getMask() ? &get(load.getMask()) : nullptr;
    const Tensor *other = load.getOther() ? &get(load.getOther()) : nullptr;
    Tensor pad;
    if (blockAccess) {
      // Out-of-bounds elements read the padding: zero, or NaN with
      // padding = nan.
      mask = &boundary;
      Attribute padding = op.getAttr("padding");
      std::string text;
      if (padding) {
        llvm::raw_string_ostream os(text);
        padding.print(os);
      }
      pad.type.kind = isFloatKind(k) ? ElemType::Float : ElemType::Int;
      // tt.PaddingOption: 1 = zero, 2 = nan (printed as an integer).
      bool nan = llvm::StringRef(text).contains("nan");
      if (auto i = dyn_cast_or_null<IntegerAttr>(padding))
        nan = i.getInt() == 2;
      if (isFloatKind(k))
        pad.f = {nan ? std::numeric_limits<double>::quiet_NaN() : 0.0};
      else
        pad.i = {0};
      other = &pad;
    }
    Expected<Tensor> r = freshLike(op.getResult(0), ptr);
    if (!r)
      return r.takeError();
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1)) {
        if (other)
          copyElem(*r, e, *other, other->shape.empty() ? 0 : e);
        continue;
      }
      uint8_t *where;
      if (Error err = access(e, where))
        return err;
      if (Error err = checkLoadRace(e))
        return err;
      toTensorValue(*r, e, loadBits(where, size));
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.store") {
    auto store = cast<triton::StoreOp>(op);
    const Tensor &val = get(store.getValue());
    const Tensor *mask = store.getMask() ? &get(store.getMask()) : nullptr;
    if (blockAccess)
      mask = &boundary; // out-of-bounds elements are not written
    uint32_t serial = uint32_t(global.storeProgram.size());
    global.storeProgram.push_back(linearPid);
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1))
        continue;
      uint8_t *where;
      if (Error err = access(e, where))
        return err;
      uint64_t bits = fromTensorValue(val, e);
      if (Error err = checkStoreRace(e, where, bits, serial))
        return err;
      storeBits(where, bits, size);
    }
    return Error::success();
  }
  if (name == "tt.atomic_rmw" || name == "tt.atomic_cas") {
    // Applied element by element in row-major order, program by program.
    bool cas = name == "tt.atomic_cas";
    const Tensor &val = get(op.getOperand(cas ? 2 : 1));
    const Tensor *cmp = cas ? &get(op.getOperand(1)) : nullptr;
    const Tensor *mask =
        !cas && op.getNumOperands() > 2 ? &get(op.getOperand(2)) : nullptr;
    std::string rmw;
    if (!cas)
      rmw = triton::stringifyRMWOp(cast<triton::AtomicRMWOp>(op).getAtomicRmwOp()).str();
    Expected<Tensor> r = freshLike(op.getResult(0), ptr);
    if (!r)
      return r.takeError();
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1))
        continue;
      uint8_t *where;
      if (Error err = access(e, where))
        return err;
      uint64_t oldBits = loadBits(where, size);
      toTensorValue(*r, e, oldBits);
      uint64_t newBits;
      if (cas) {
        bool eq = isFloatKind(k) ? floatFromBits(oldBits, k) == cmp->f[e]
                                 : maskBits(oldBits, r->type.bits) == cmp->i[e];
        newBits = eq ? fromTensorValue(val, e) : oldBits;
      } else if (isFloatKind(k)) {
        double o = floatFromBits(oldBits, k), v = val.f[e], res;
        llvm::StringRef m(rmw);
        if (m == "fadd")
          res = roundTo(r->type, o + v);
        else if (m == "max")
          res = std::fmax(o, v);
        else if (m == "min")
          res = std::fmin(o, v);
        else if (m == "exch")
          res = v;
        else
          return unsupported(&op, "atomic " + rmw + " on floats");
        newBits = bitsFromFloat(res, k);
      } else {
        unsigned bits = r->type.bits;
        uint64_t o = maskBits(oldBits, bits), v = val.i[e];
        llvm::StringRef m(rmw);
        int64_t so = sext(o, bits), sv = sext(v, bits);
        uint64_t res;
        if (m == "umax")
          res = std::max(o, v);
        else if (m == "umin")
          res = std::min(o, v);
        else if (m == "max")
          res = uint64_t(std::max(so, sv));
        else if (m == "min")
          res = uint64_t(std::min(so, sv));
        else if (m == "add")
          res = o + v;
        else if (m == "and")
          res = o & v;
        else if (m == "xor")
          res = o ^ v;
        else if (m == "or")
          res = o | v;
        else if (m == "exch")
          res = v;
        else
          return unsupported(&op, "atomic " + rmw);
        newBits = maskBits(res, bits);
      }
      storeBits(where, newBits, size);
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  return unsupported(&op);
}

//===----------------------------------------------------------------------===//
// Shared memory and the TTGIR ops (layouts play no part here)
//===----------------------------------------------------------------------===//

Error Program::execShared(Operation &op, llvm::StringRef name) {
  if (name == "ttg.convert_layout")
    return execTensor(op, name);
  if (name == "ttg.barrier" || name == "ttng.fence_async_shared" ||
      name == "ttg.local_dealloc" || name == "ttg.async_commit_group" ||
      name == "ttg.async_wait") {
    // Ordering only: every program runs alone, so nothing to do. Tokens are
    // empty values.
    for (Value v : op.getResults()) {
      Tensor t;
      t.type.kind = ElemType::Token;
      set(v, t);
    }
    return Error::success();
  }
  if (name == "ttng.warp_group_dot_wait") {
    for (auto [res, in] : llvm::zip(op.getResults(), op.getOperands()))
      set(res, get(in));
    return Error::success();
  }
  auto element = [&](const Tensor &md, llvm::ArrayRef<int64_t> idx) {
    int64_t at = md.offset;
    for (size_t d = 0; d < idx.size(); ++d)
      at += idx[d] * md.strides[d];
    return at;
  };
  if (name == "ttg.local_alloc") {
    Expected<Tensor> md = fresh(op.getResult(0));
    if (!md)
      return md.takeError();
    auto mdType = cast<triton::gpu::MemDescType>(op.getResult(0).getType());
    std::vector<int64_t> alloc(mdType.getAllocShape().begin(),
                               mdType.getAllocShape().end());
    SharedAlloc a;
    a.type = md->type;
    int64_t total = 1;
    for (int64_t s : alloc)
      total *= s;
    bool fl = isFloatKind(md->type.pointee);
    if (fl)
      a.f.assign(total, 0);
    else
      a.i.assign(total, 0);
    a.written.assign(total, false);
    md->alloc = int(shared.size());
    md->i.clear();
    md->f.clear();
    md->strides.assign(md->shape.size(), 1);
    for (size_t d = md->shape.size(); d-- > 1;)
      md->strides[d - 1] = md->strides[d] * md->shape[d];
    if (op.getNumOperands() == 1) {
      const Tensor &init = get(op.getOperand(0));
      for (int64_t k = 0; k < init.numel(); ++k) {
        if (fl)
          a.f[k] = init.f[k];
        else
          a.i[k] = init.i[k];
        a.written[k] = true;
      }
    }
    shared.push_back(std::move(a));
    set(op.getResult(0), std::move(*md));
    return Error::success();
  }
  if (name == "ttg.memdesc_index" || name == "ttg.memdesc_subslice" ||
      name == "ttg.memdesc_trans" || name == "ttg.memdesc_reshape") {
    Tensor md = get(op.getOperand(0));
    std::vector<int64_t> newShape = shapeOf(op.getResult(0).getType());
    if (name == "ttg.memdesc_index") {
      int64_t i = sext(get(op.getOperand(1)).i[0], get(op.getOperand(1)).type.bits);
      if (i < 0 || i >= md.shape[0])
        return ub(&op, "index-out-of-range",
                  "memdesc index " + llvm::Twine(i) + " outside dim of size " +
                      llvm::Twine(md.shape[0]));
      md.offset += i * md.strides[0];
      md.strides.erase(md.strides.begin());
    } else if (name == "ttg.memdesc_subslice") {
      auto offsets = op.getAttrOfType<DenseI32ArrayAttr>("offsets");
      for (size_t d = 0; d < md.shape.size(); ++d)
        md.offset += int64_t(offsets[d]) * md.strides[d];
    } else if (name == "ttg.memdesc_trans") {
      auto order = op.getAttrOfType<DenseI32ArrayAttr>("order");
      std::vector<int64_t> s(md.strides.size());
      for (size_t d = 0; d < s.size(); ++d)
        s[d] = md.strides[order[d]];
      md.strides = s;
    } else {
      // Reshape of a contiguous window.
      md.strides.assign(newShape.size(), 1);
      for (size_t d = newShape.size(); d-- > 1;)
        md.strides[d - 1] = md.strides[d] * newShape[d];
    }
    md.shape = newShape;
    set(op.getResult(0), std::move(md));
    return Error::success();
  }
  if (name == "ttg.local_load") {
    const Tensor &md = get(op.getOperand(0));
    SharedAlloc &a = shared[md.alloc];
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    IndexWalker walk(r->shape);
    for (int64_t k = 0; k < r->numel(); ++k, walk.next()) {
      int64_t at = element(md, walk.get());
      if (!a.written[at])
        return ub(&op, "uninitialized-shared-read",
                  "shared memory read before it was written", &*r, k);
      if (r->type.isFloat())
        r->f[k] = a.f[at];
      else
        r->i[k] = a.i[at];
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "ttg.local_store") {
    const Tensor &val = get(op.getOperand(0)), &md = get(op.getOperand(1));
    SharedAlloc &a = shared[md.alloc];
    IndexWalker walk(val.shape);
    for (int64_t k = 0; k < val.numel(); ++k, walk.next()) {
      int64_t at = element(md, walk.get());
      if (val.type.isFloat())
        a.f[at] = val.f[k];
      else
        a.i[at] = val.i[k];
      a.written[at] = true;
    }
    return Error::success();
  }
  if (name == "ttg.async_copy_global_to_local") {
    // Done at once: the copy's completion is the program's next step.
    const Tensor &ptr = get(op.getOperand(0)), &md = get(op.getOperand(1));
    const Tensor *mask = op.getNumOperands() > 2 ? &get(op.getOperand(2)) : nullptr;
    const Tensor *other = op.getNumOperands() > 3 ? &get(op.getOperand(3)) : nullptr;
    SharedAlloc &a = shared[md.alloc];
    ScalarKind k = ptr.type.pointee;
    unsigned size = byteSize(k);
    IndexWalker walk(ptr.shape);
    for (int64_t e = 0; e < ptr.numel(); ++e, walk.next()) {
      int64_t at = element(md, walk.get());
      bool on = !mask || (mask->i[mask->shape.empty() ? 0 : e] & 1);
      if (!on) {
        if (other) {
          if (isFloatKind(k))
            a.f[at] = other->f[other->shape.empty() ? 0 : e];
          else
            a.i[at] = other->i[other->shape.empty() ? 0 : e];
        } else {
          // Masked-off lanes are zero-filled.
          if (isFloatKind(k))
            a.f[at] = 0;
          else
            a.i[at] = 0;
        }
        a.written[at] = true;
        continue;
      }
      uint64_t addr = ptr.i[e];
      uint8_t *where = addr % size ? nullptr : global.find(addr, size);
      if (!where)
        return ub(&op, addr % size ? "misaligned-access" : "out-of-bounds",
                  "address 0x" + llvm::Twine::utohexstr(addr), &ptr, e);
      uint64_t bits = loadBits(where, size);
      if (isFloatKind(k))
        a.f[at] = floatFromBits(bits, k);
      else
        a.i[at] = maskBits(bits, byteSize(k) * 8);
      a.written[at] = true;
    }
    Tensor token;
    token.type.kind = ElemType::Token;
    set(op.getResult(0), token);
    return Error::success();
  }
  return unsupported(&op);
}

//===----------------------------------------------------------------------===//
// Reductions, scans and dots
//===----------------------------------------------------------------------===//

Error Program::execReduce(Operation &op, bool scan) {
  int axis = int(op.getAttrOfType<IntegerAttr>("axis").getInt());
  bool reverse = scan && op.getAttrOfType<BoolAttr>("reverse") &&
                 op.getAttrOfType<BoolAttr>("reverse").getValue();
  std::vector<const Tensor *> ins;
  for (Value v : op.getOperands())
    ins.push_back(&get(v));
  const FoldShape fold(ins[0]->shape, axis);
  const int64_t len = fold.len, inner = fold.inner, outer = fold.outer;
  std::vector<Tensor> outs;
  for (Value v : op.getResults()) {
    Expected<Tensor> r = fresh(v);
    if (!r)
      return r.takeError();
    outs.push_back(std::move(*r));
  }
  Region &region = op.getRegion(0);
  if (options.laneWiseCombine && fold.lines() > 1 && len > 1 &&
      isLaneWise(region)) {
    // All lines at once; should that fail (undefined behaviour, the step
    // budget), the line-by-line fold below runs from the same state and
    // reports the first failure in its order.
    uint64_t stepsBefore = steps;
    if (Error e = combineLanes(op, scan, reverse, fold, ins, outs)) {
      llvm::consumeError(std::move(e));
      steps = stepsBefore;
    } else {
      for (auto [v, t] : llvm::zip(op.getResults(), outs))
        set(v, std::move(t));
      return Error::success();
    }
  }
  // Left-to-right fold along the axis (right to left for a reverse scan).
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      std::vector<Tensor> acc;
      for (int64_t step = 0; step < len; ++step) {
        int64_t j = reverse ? len - 1 - step : step;
        int64_t src = fold.at(o, j, in);
        if (step == 0) {
          acc.clear();
          for (const Tensor *t : ins)
            acc.push_back(scalarOf(*t, src));
        } else {
          std::vector<Tensor> args = acc;
          for (const Tensor *t : ins)
            args.push_back(scalarOf(*t, src));
          Expected<std::vector<Tensor>> r = runRegion(region, std::move(args));
          if (!r)
            return r.takeError();
          acc = std::move(*r);
        }
        if (scan)
          for (size_t q = 0; q < outs.size(); ++q)
            copyElem(outs[q], src, acc[q], 0);
      }
      if (!scan)
        for (size_t q = 0; q < outs.size(); ++q)
          copyElem(outs[q], o * inner + in, acc[q], 0);
    }
  for (auto [v, t] : llvm::zip(op.getResults(), outs))
    set(v, std::move(t));
  return Error::success();
}

// A combine region runs lane-wise when it is one block of element-wise
// arith ops: each op then computes every lane exactly as it would the
// scalar, and nothing else (memory, control flow, calls) happens.
bool Program::isLaneWise(Region &region) {
  auto [it, inserted] = laneWise.try_emplace(&region, false);
  if (!inserted)
    return it->second;
  if (!region.hasOneBlock())
    return false;
  for (Operation &op : region.front().without_terminator()) {
    OpClass c = classOf(op.getName());
    if ((c != OpClass::Arith && c != OpClass::Cast) || op.getNumRegions() ||
        op.getNumResults() != 1 || isa<ShapedType>(op.getResult(0).getType()))
      return false;
  }
  it->second = true;
  return true;
}

// The reduction or scan of execReduce with the combine region run once per
// step along the axis on all lines (outer x inner) together, as 1-D tensors.
Error Program::combineLanes(Operation &op, bool scan, bool reverse,
                            const FoldShape &fold,
                            llvm::ArrayRef<const Tensor *> ins,
                            std::vector<Tensor> &outs) {
  const int64_t len = fold.len, lines = fold.lines();
  Region &region = op.getRegion(0);
  // The scalar fold counts one step per op and element.
  uint64_t extraSteps = uint64_t(lines - 1) * region.front().getOperations().size();
  auto column = [&](const Tensor &t, int64_t j) {
    Tensor c;
    c.type = t.type;
    c.shape = {lines};
    c.resize(lines);
    for (int64_t o = 0, k = 0; o < fold.outer; ++o)
      for (int64_t in = 0; in < fold.inner; ++in, ++k)
        copyElem(c, k, t, fold.at(o, j, in));
    return c;
  };
  auto scatter = [&](const std::vector<Tensor> &acc, int64_t j) {
    for (size_t q = 0; q < outs.size(); ++q)
      for (int64_t o = 0, k = 0; o < fold.outer; ++o)
        for (int64_t in = 0; in < fold.inner; ++in, ++k)
          copyElem(outs[q], scan ? fold.at(o, j, in) : k, acc[q], k);
  };
  std::vector<Tensor> acc;
  int64_t saved = lanes;
  lanes = lines;
  llvm::scope_exit restore([&] { lanes = saved; });
  for (int64_t step = 0; step < len; ++step) {
    int64_t j = reverse ? len - 1 - step : step;
    if (step == 0) {
      for (const Tensor *t : ins)
        acc.push_back(column(*t, j));
    } else {
      std::vector<Tensor> args = std::move(acc);
      for (const Tensor *t : ins)
        args.push_back(column(*t, j));
      steps += extraSteps;
      Expected<std::vector<Tensor>> r = runRegion(region, std::move(args));
      if (!r)
        return r.takeError();
      acc = std::move(*r);
      if (acc.size() != outs.size())
        return plainError("combine region returns the wrong number of values");
      for (const Tensor &t : acc)
        if (t.numel() != lines)
          return plainError("combine region result is not lane-wise");
    }
    if (scan)
      scatter(acc, j);
  }
  if (!scan)
    scatter(acc, 0);
  return Error::success();
}

Error Program::execDot(Operation &op) {
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1)),
               &c = get(op.getOperand(2));
  // Operands may be memdescs (warp_group_dot): read them out first.
  bool unwritten = false;
  int64_t unwrittenAt = -1;
  auto materialize = [&](const Tensor &t) -> Tensor {
    if (t.type.kind != ElemType::MemDesc)
      return t;
    Tensor r;
    r.type.kind = isFloatKind(t.type.pointee) ? ElemType::Float : ElemType::Int;
    r.type.bits = byteSize(t.type.pointee) * 8;
    r.type.bf16 = t.type.pointee == ScalarKind::BF16;
    r.shape = t.shape;
    r.resize(r.numel());
    SharedAlloc &al = shared[t.alloc];
    IndexWalker walk(t.shape);
    for (int64_t k = 0; k < r.numel(); ++k, walk.next()) {
      llvm::ArrayRef<int64_t> idx = walk.get();
      int64_t at = t.offset;
      for (size_t d = 0; d < idx.size(); ++d)
        at += idx[d] * t.strides[d];
      if (!al.written[at] && !unwritten) {
        unwritten = true;
        unwrittenAt = k;
      }
      if (r.type.isFloat())
        r.f[k] = al.f[at];
      else
        r.i[k] = al.i[at];
    }
    return r;
  };
  Tensor A = materialize(a);
  if (unwritten)
    return ub(&op, "uninitialized-shared-read",
              "operand A reads shared memory before it was written", &A,
              unwrittenAt);
  Tensor B = materialize(b);
  if (unwritten)
    return ub(&op, "uninitialized-shared-read",
              "operand B reads shared memory before it was written", &B,
              unwrittenAt);
  Tensor r = c;
  size_t rank = c.shape.size();
  int64_t M = c.shape[rank - 2], N = c.shape[rank - 1], K = A.shape[rank - 1];
  int64_t batch = c.numel() / (M * N);
  for (int64_t bt = 0; bt < batch; ++bt)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        int64_t ci = (bt * M + m) * N + n;
        if (c.type.isFloat()) {
          // Exact products, summed in double, rounded once into the
          // accumulator's type.
          double sum = c.f[ci];
          for (int64_t k = 0; k < K; ++k)
            sum += A.f[(bt * M + m) * K + k] * B.f[(bt * K + k) * N + n];
          r.f[ci] = roundTo(c.type, sum);
        } else {
          uint64_t sum = c.i[ci];
          for (int64_t k = 0; k < K; ++k)
            sum += uint64_t(sext(A.i[(bt * M + m) * K + k], A.type.bits) *
                            sext(B.i[(bt * K + k) * N + n], B.type.bits));
          r.i[ci] = maskBits(sum, c.type.bits);
        }
      }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Expected<std::vector<Tensor>> Program::call(triton::FuncOp func,
                                            std::vector<Tensor> args) {
  if (func.getBody().empty())
    return plainError("function @" + func.getName() + " has no body");
  return runRegion(func.getBody(), std::move(args));
}

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
