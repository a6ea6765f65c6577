// The CPU oracle's interpreter, private to oracles/cpu. Program runs one
// program id; its exec* handlers live by op family: ControlFlow.cpp (scf),
// ArithOps.cpp (arith, math, casts, libdevice, inline asm), TensorOps.cpp
// (tensor construction and views, print/assert/call), MemoryOps.cpp (global
// memory), SharedMemoryOps.cpp (ttg/ttng), ReductionOps.cpp (reduce, scan, dot).
#ifndef TGPU_ORACLES_CPU_PROGRAM_H
#define TGPU_ORACLES_CPU_PROGRAM_H

#include "Interpreter.h"
#include "SimulatedMemory.h"
#include "Values.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <unordered_map>
#include <vector>

namespace tgpu::cpu::detail {

namespace scf = mlir::scf;
namespace triton = mlir::triton;
using llvm::Error;
using llvm::Expected;
using mlir::ModuleOp;
using mlir::Operation;
using mlir::OperationName;
using mlir::Region;
using mlir::Type;
using mlir::Value;

Error plainError(const llvm::Twine &msg);
// file:line:col of an op, for error messages and UB reports.
std::string locString(Operation *op);

// Inline up to rank 6: per-element callers would otherwise allocate.
using Index = llvm::SmallVector<int64_t, 6>;
inline Index unravel(int64_t idx, llvm::ArrayRef<int64_t> shape) {
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

ScalarKind scalarKindOf(Type t);
bool isSupportedScalar(Type t);
Expected<ElemType> elemTypeOf(Type t);
std::vector<int64_t> shapeOf(Type t);

inline Tensor scalarOf(const Tensor &t, int64_t idx) {
  Tensor s;
  s.type = t.type;
  if (t.type.isFloat())
    s.f = {t.f[idx]};
  else
    s.i = {t.i[idx]};
  return s;
}

// Copies element `from` of `a` to element `to` of `r` (same element type).
inline void copyElem(Tensor &r, int64_t to, const Tensor &a, int64_t from) {
  if (a.type.isFloat())
    r.f[to] = a.f[from];
  else
    r.i[to] = a.i[from];
}

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
    r.shape = shape.empty() && mlir::isa<mlir::RankedTensorType, triton::gpu::MemDescType>(
                                   result.getType())
                  ? shapeOf(result.getType())
                  : shape;
    if (lanes && r.shape.empty() && !mlir::isa<mlir::ShapedType>(result.getType()))
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

} // namespace tgpu::cpu::detail

#endif
