// The CPU oracle's interpreter (private): Program runs one program id, its
// handlers split by op family. Interpreter.cpp: entry points, regions, dispatch
// (classify); ControlFlow (scf, tt.call); ArithOps (arith, casts); MathOps
// (math, libdevice, inline asm); TensorOps; MemoryOps (global); SharedMemoryOps
// (ttg); TmaOps (ttng mbarriers and TMA copies); ReductionOps (reduce, scan,
// dot); SimulatedMemory.h: buffers, race shadow.
#ifndef TGPU_ORACLES_CPU_PROGRAM_H
#define TGPU_ORACLES_CPU_PROGRAM_H

#include "oracles/cpu/Interpreter.h"
#include "oracles/cpu/SimulatedMemory.h"
#include "oracles/cpu/Values.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <map>
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
// Whether an operand or result of `op` holds 8-bit floats (or points to them).
bool touchesFp8(Operation &op);
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
// A zero tensor of `like`'s element type in the shape of `result`: what an
// op that moves elements without changing them starts from.
inline Tensor zerosLike(const Tensor &like, Value result) {
  Tensor r;
  r.type = like.type;
  r.shape = shapeOf(result.getType());
  r.resize(r.numel());
  return r;
}

inline void copyElem(Tensor &r, int64_t to, const Tensor &a, int64_t from) {
  if (a.type.isFloat())
    r.f[to] = a.f[from];
  else
    r.i[to] = a.i[from];
}

// What the oracle does with an op, by op class; an op name's handler is
// found once with a TypeSwitch (Program::classify) and cached, so each op
// costs a hash lookup, not name comparisons.
enum class OpKind : uint8_t {
  Unsupported,
  For,
  While,
  If,
  Call,
  // arith: the ops a combine region may run lane-wise (FirstArith..LastArith).
  Constant,
  Select,
  NegF,
  CmpI,
  CmpF,
  AddF,
  SubF,
  MulF,
  DivF,
  RemF,
  MaxNumF,
  MinNumF,
  MaximumF,
  MinimumF,
  AddI,
  SubI,
  MulI,
  AndI,
  OrI,
  XOrI,
  DivSI,
  RemSI,
  DivUI,
  RemUI,
  FloorDivSI,
  CeilDivSI,
  ShLI,
  ShRSI,
  ShRUI,
  MaxSI,
  MinSI,
  MaxUI,
  MinUI,
  ExtSI,
  ExtUI,
  TruncI,
  IndexCast,
  IndexCastUI,
  SIToFP,
  UIToFP,
  FPToSI,
  FPToUI,
  ExtF,
  TruncF,
  ArithBitcast,
  // math and tt element-wise ops
  AbsI,
  CtPop,
  CtLz,
  CtTz,
  MathUnary,
  Fma,
  PowF,
  Atan2,
  CopySign,
  Bitcast,
  FpToFp,
  PreciseSqrt,
  PreciseDivF,
  ClampF,
  MulhiUI,
  Extern,
  InlineAsm,
  // tensors
  ProgramId,
  NumPrograms,
  MakeRange,
  Splat,
  Unsplat,
  Reshape,
  Broadcast,
  Trans,
  Join,
  Split,
  Cat,
  Gather,
  Histogram,
  Print,
  Assert,
  Poison,
  // global memory
  MakeTensorPtr,
  Advance,
  AddPtr,
  PtrCast,
  Load,
  Store,
  AtomicRMW,
  AtomicCAS,
  MakeTensorDesc,
  DescriptorLoad,
  DescriptorStore,
  // shared memory and TTGIR ordering
  Ordering,
  DotWait,
  LocalAlloc,
  LocalDealloc,
  MemDescIndex,
  MemDescSubslice,
  MemDescTrans,
  MemDescReshape,
  LocalLoad,
  LocalStore,
  AsyncCopy,
  AsyncCommit,
  AsyncWait,
  // mbarriers and TMA (ttng)
  InitBarrier,
  InvalBarrier,
  BarrierExpect,
  ArriveBarrier,
  WaitBarrier,
  TmaLoad,
  TmaStore,
  TmaStoreWait,
  ScratchAlloc,
  TensormapCreate,
  ReinterpretDesc,
  // folds along an axis
  Reduce,
  Scan,
  Dot,
  FirstArith = Constant,
  LastArith = ArithBitcast,
};

// The one-argument float functions of math.* and libdevice, each the C
// library's function of that name (Fabs for math.absf, Rint for
// math.roundeven).
enum class LibmFn : uint8_t {
  None,
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Sqrt,
  Cbrt,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Erf,
  Erfc,
  Exp10,
  Rsqrt,
  Fabs,
  Floor,
  Ceil,
  Trunc,
  Round,
  Rint,
};

class Program;
struct OpHandler {
  Error (Program::*run)(Operation &op, const OpHandler &h) = nullptr;
  OpKind kind = OpKind::Unsupported;
  LibmFn libm = LibmFn::None; // MathUnary only
  // The op computes on float values (arithmetic, math, casts other than
  // tt.fp_to_fp, atomics): refused on 8-bit floats (SEMANTICS.md §2).
  bool refusesFp8 = false;
};
// Handlers by OperationName (opaque pointer), shared by a launch's programs.
using HandlerCache = llvm::DenseMap<const void *, OpHandler>;

// An issued ttg.async_copy_global_to_local or ttng TMA copy whose data has
// not landed in shared memory yet (SEMANTICS.md §7): the values it read from
// global memory when it was issued, and where they go.
struct PendingCopy {
  uint32_t id; // > 0; what SharedAlloc::pendingCopy holds
  Operation *op;
  int alloc;
  std::vector<int64_t> at;   // allocation index of each element
  std::vector<uint64_t> i;   // values, ints ...
  std::vector<double> f;     // ... or floats
  std::vector<uint64_t> src; // source address per element (0: masked off)
  unsigned size;             // bytes per source element
  // A TMA copy (ttng.async_tma_copy_global_to_local), landed by its
  // mbarrier's phase, rather than a cp.async one landed by its group: the
  // UB kinds of touching its elements early say which.
  bool tma = false;
};

// An mbarrier (SEMANTICS.md §7): one i64 element of a shared allocation,
// keyed by (allocation, element). Phases complete lazily, at the wait that
// needs them, so the copies attached to the current phase stay pending
// until then.
struct MBarrier {
  bool live = false; // initialised and not invalidated since
  Operation *initOp = nullptr, *invalOp = nullptr;
  uint32_t count = 0;   // arrivals per phase
  uint32_t pending = 0; // arrivals the current phase still needs
  int64_t tx = 0;       // bytes ttng.barrier_expect announced in this phase
  int64_t copied = 0;   // bytes of the TMA copies attached to this phase
  std::vector<PendingCopy> copies; // those copies, in issue order
  uint64_t completed = 0; // completed phases: the current phase's number
};
using BarrierKey = std::pair<int, int64_t>; // (allocation, element)

// An issued ttng.async_tma_copy_local_to_global (one bulk async-group) that
// no ttng.async_tma_store_wait has retired: the hardware may still read its
// source elements, so they must not be overwritten.
struct PendingTmaStore {
  Operation *op;
  int alloc;
  std::vector<int64_t> at; // allocation index of each source element
};

// The element pointers of a block access and the mask of the elements the
// access reaches (inside the described array, or the checked bounds of a
// block pointer).
struct BlockAccess {
  Tensor pointers, inside;
};

// The block of a tensor descriptor that starts at `start`, as a tensor of
// element pointers of `valueShape` (the block's shape, or it without leading
// size-1 dims), and the mask of the elements inside the described array:
// every coordinate start_d + j_d in [0, shape_d). (MemoryOps.cpp)
Expected<BlockAccess> expandDescriptor(const Tensor &desc,
                                       llvm::ArrayRef<int64_t> blockShape,
                                       llvm::ArrayRef<int64_t> valueShape,
                                       llvm::ArrayRef<int64_t> start);

// The value type of elements of kind `k` (a memdesc's or a descriptor's).
inline ElemType valueTypeOf(ScalarKind k) {
  ElemType t;
  t.kind = isFloatKind(k) ? ElemType::Float : ElemType::Int;
  t.bits = k == ScalarKind::I1 ? 1 : byteSize(k) * 8;
  t.bf16 = k == ScalarKind::BF16;
  t.e4m3 = k == ScalarKind::F8E4M3FN;
  return t;
}

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
  Program(ModuleOp module, GlobalMemory &global, HandlerCache &handlers,
          const RunOptions &options, std::array<int64_t, 3> pid,
          int32_t linearPid)
      : module(module), global(global), handlers(handlers), options(options),
        pid(pid), linearPid(linearPid) {}

  // Runs `func` with `args` bound to its entry block arguments.
  Expected<std::vector<Tensor>> call(triton::FuncOp func,
                                     std::vector<Tensor> args);

private:
  ModuleOp module;
  GlobalMemory &global;
  HandlerCache &handlers;
  const RunOptions &options;
  std::array<int64_t, 3> pid;
  int32_t linearPid; // x + X * (y + Y * z): the program id in race reports
  uint64_t steps = 0;
  std::vector<SharedAlloc> shared;
  // cp.async groups (SEMANTICS.md §7), per program since each runs alone:
  // the copies issued since the last ttg.async_commit_group, and the
  // committed groups, oldest first. Dropped at the program's end.
  std::vector<PendingCopy> uncommitted;
  std::deque<std::vector<PendingCopy>> committed;
  uint32_t nextCopyId = 1;
  // mbarriers by (allocation, element), and the TMA stores not retired yet,
  // oldest first (SEMANTICS.md §7). Per program, dropped at its end.
  std::map<BarrierKey, MBarrier> barriers;
  std::deque<PendingTmaStore> tmaStores;
  // The program's global scratch buffer of each ttg.global_scratch_alloc:
  // the same memory every time the op runs, as on the GPU.
  llvm::DenseMap<Operation *, uint64_t> scratch;
  // How many pending copy elements read each global byte: a store to one of
  // them may change what the copy delivers (async-copy-source-overwritten).
  llvm::DenseMap<uint64_t, uint32_t> pendingSources;
  // Node-based, so references to values stay valid while regions bind new
  // ones (loops and combine regions run while callers hold operands).
  std::unordered_map<const void *, Tensor> env;
  OpHandler handlerOf(Operation &op) {
    auto [it, inserted] =
        handlers.try_emplace(op.getName().getAsOpaquePointer());
    if (inserted) {
      it->second = classify(op);
      it->second.refusesFp8 = computesOnFloats(it->second.kind);
    }
    return it->second;
  }
  static OpHandler classify(Operation &op);
  static bool computesOnFloats(OpKind kind);
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
    r.shape =
        shape.empty() &&
                mlir::isa<mlir::RankedTensorType, triton::gpu::MemDescType>(
                    result.getType())
            ? shapeOf(result.getType())
            : shape;
    if (lanes && r.shape.empty() &&
        !mlir::isa<mlir::ShapedType>(result.getType()))
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
  // Where a memdesc's element `idx` lives in its allocation.
  static int64_t sharedIndex(const Tensor &md, llvm::ArrayRef<int64_t> idx) {
    int64_t at = md.offset;
    for (size_t d = 0; d < idx.size(); ++d)
      at += idx[d] * md.strides[d];
    return at;
  }
  // The memory of element `e` of the pointer tensor `ptr` (`size` bytes),
  // or null when the access is misaligned or outside every buffer:
  // badAccess reports which.
  uint8_t *locate(const Tensor &ptr, int64_t e, unsigned size) {
    uint64_t addr = ptr.i[e];
    return addr % size ? nullptr : global.find(addr, size);
  }
  Error badAccess(Operation &op, const Tensor &ptr, int64_t e, unsigned size);
  // Pending async copies (SharedMemoryOps.cpp).
  // The pending copy `id` (null if none): where it waits, a cp.async group
  // (committed or not) or an mbarrier's phase (`barrier`, TMA copies).
  struct FoundCopy {
    const PendingCopy *copy = nullptr;
    bool committed = false;
    const MBarrier *barrier = nullptr;
  };
  FoundCopy findPendingCopy(uint32_t id) const;
  // The UB of op reading (or, with `write`, writing) shared memory (`what`;
  // element `e` of `t`) that the pending copy `id` will still write. The
  // kind is the copy's: async-copy-* for cp.async, tma-* for TMA.
  Error pendingCopyUB(Operation &op, bool write, llvm::StringRef what,
                      uint32_t id, const Tensor *t, int64_t e);
  void landCopy(const PendingCopy &c);
  // The UB of op writing element `at` of allocation `alloc` (element `e` of
  // `t`): a pending copy still lands there, or a pending TMA store still
  // reads it.
  Error checkSharedWrite(Operation &op, int alloc, int64_t at, const Tensor *t,
                         int64_t e) {
    const SharedAlloc &a = shared[alloc];
    if (uint32_t id = a.pendingAt(at))
      return pendingCopyUB(op, true, "shared memory written", id, t, e);
    if (a.storeReadersAt(at))
      return storeSourceUB(op, alloc, at, t, e);
    return Error::success();
  }
  // TmaOps.cpp: the UB of overwriting element `at` of `alloc`, which a TMA
  // store not yet retired reads.
  Error storeSourceUB(Operation &op, int alloc, int64_t at, const Tensor *t,
                      int64_t e);
  // The live mbarrier a memdesc operand of op names, or the UB
  // mbarrier-uninitialized.
  Expected<MBarrier *> liveBarrier(Operation &op, Value md);
  // `n` arrivals at `b`'s current phase, announcing `bytes` transaction
  // bytes; a phase with no transaction bytes and no copies completes at its
  // last arrival, as on the GPU.
  Error arrive(Operation &op, MBarrier &b, uint32_t n, int64_t bytes);
  void completePhase(MBarrier &b);
  // The UB of a global write of `bits` (`size` bytes at `where`, element
  // `e` of `ptr`) over a byte a pending copy reads; cheap when no copy is
  // pending. Rewriting the bytes that are there is fine, as in §6.
  Error checkPendingSource(Operation &op, const Tensor &ptr, int64_t e,
                           unsigned size, const uint8_t *where, uint64_t bits) {
    if (pendingSources.empty() ||
        loadBits(where, size) == maskBits(bits, size * 8))
      return Error::success();
    return sourceOverwritten(op, ptr, e, size);
  }
  Error sourceOverwritten(Operation &op, const Tensor &ptr, int64_t e,
                          unsigned size);
  Error raceUB(Operation &op, llvm::StringRef kind, const Tensor &ptr,
               int64_t e, int32_t other, const char *what);

  // The handlers, one per op family (see OpKind); `h` says which op of the
  // family this is.
  Error execUnsupported(Operation &op, const OpHandler &h);
  // ControlFlow.cpp
  Error execFor(Operation &op, const OpHandler &h);
  Error execWhile(Operation &op, const OpHandler &h);
  Error execIf(Operation &op, const OpHandler &h);
  Error execCall(Operation &op, const OpHandler &h);
  // ArithOps.cpp
  Error execConstant(Operation &op, const OpHandler &h);
  Error execSelect(Operation &op, const OpHandler &h);
  Error execNegF(Operation &op, const OpHandler &h);
  Error execCmpI(Operation &op, const OpHandler &h);
  Error execCmpF(Operation &op, const OpHandler &h);
  Error execFloatBinary(Operation &op, const OpHandler &h);
  Error execIntBinary(Operation &op, const OpHandler &h);
  Error execCast(Operation &op, const OpHandler &h);
  Error execBitcast(Operation &op, const OpHandler &h);
  Error execFpToFp(Operation &op, const OpHandler &h);
  Error fp8Conversion(Operation &op, const ElemType &from, const ElemType &to,
                      bool rtz, Tensor &r);
  Error execMulhiUI(Operation &op, const OpHandler &h);
  // MathOps.cpp
  Error execMathInt(Operation &op, const OpHandler &h);
  Error execMathUnary(Operation &op, const OpHandler &h);
  Error execMathFloat(Operation &op, const OpHandler &h);
  Error execPrecise(Operation &op, const OpHandler &h);
  Error execClampF(Operation &op, const OpHandler &h);
  Error execExtern(Operation &op, const OpHandler &h);
  Error execInlineAsm(Operation &op, const OpHandler &h);
  // TensorOps.cpp
  Error execProgramId(Operation &op, const OpHandler &h);
  Error execMakeRange(Operation &op, const OpHandler &h);
  Error execSplat(Operation &op, const OpHandler &h);
  Error execUnsplat(Operation &op, const OpHandler &h);
  Error execReshape(Operation &op, const OpHandler &h);
  Error execBroadcast(Operation &op, const OpHandler &h);
  Error execTrans(Operation &op, const OpHandler &h);
  Error execJoin(Operation &op, const OpHandler &h);
  Error execSplit(Operation &op, const OpHandler &h);
  Error execCat(Operation &op, const OpHandler &h);
  Error execGather(Operation &op, const OpHandler &h);
  Error execHistogram(Operation &op, const OpHandler &h);
  Error execPrint(Operation &op, const OpHandler &h);
  Error execAssert(Operation &op, const OpHandler &h);
  Error execPoison(Operation &op, const OpHandler &h);
  // MemoryOps.cpp
  Error execMakeTensorPtr(Operation &op, const OpHandler &h);
  Error execAdvance(Operation &op, const OpHandler &h);
  Error execAddPtr(Operation &op, const OpHandler &h);
  Error execPtrCast(Operation &op, const OpHandler &h);
  Error execLoad(Operation &op, const OpHandler &h);
  Error execStore(Operation &op, const OpHandler &h);
  Error execAtomic(Operation &op, const OpHandler &h);
  Error execMakeTensorDesc(Operation &op, const OpHandler &h);
  Error execDescriptorAccess(Operation &op, const OpHandler &h);
  // The element loops of tt.load and tt.store (and of the descriptor ops):
  // element pointers, the mask (null: all) and, for loads, the value of
  // masked-off elements (null: zero). loadElements sets op's result.
  Error loadElements(Operation &op, const Tensor &ptr, const Tensor *mask,
                     const Tensor *other);
  // loadElements' loop into `r` (sized like `ptr`), which it leaves unset.
  Error readElements(Operation &op, const Tensor &ptr, const Tensor *mask,
                     const Tensor *other, Tensor &r);
  Error storeElements(Operation &op, const Tensor &ptr, const Tensor *mask,
                      const Tensor &val);
  // SharedMemoryOps.cpp
  Error execOrdering(Operation &op, const OpHandler &h);
  Error execDotWait(Operation &op, const OpHandler &h);
  Error execLocalAlloc(Operation &op, const OpHandler &h);
  Error execLocalDealloc(Operation &op, const OpHandler &h);
  Error execMemDescView(Operation &op, const OpHandler &h);
  Error execLocalLoad(Operation &op, const OpHandler &h);
  Error execLocalStore(Operation &op, const OpHandler &h);
  Error execAsyncCopy(Operation &op, const OpHandler &h);
  Error execAsyncGroup(Operation &op, const OpHandler &h);
  // TmaOps.cpp
  Error execBarrier(Operation &op, const OpHandler &h);
  Error execWaitBarrier(Operation &op, const OpHandler &h);
  Error execTmaLoad(Operation &op, const OpHandler &h);
  Error execTmaStore(Operation &op, const OpHandler &h);
  Error execTmaStoreWait(Operation &op, const OpHandler &h);
  Error execScratchAlloc(Operation &op, const OpHandler &h);
  Error execTensormapCreate(Operation &op, const OpHandler &h);
  Error execReinterpretDesc(Operation &op, const OpHandler &h);
  // ReductionOps.cpp
  Error execReduce(Operation &op, const OpHandler &h);
  Error execDot(Operation &op, const OpHandler &h);
};

} // namespace tgpu::cpu::detail

#endif
