#include "tgpu/Analysis/Membar.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// Half-open byte ranges [first, second).
using Range = std::pair<int64_t, int64_t>;

// What kind of op made an access: the mbarrier ops are ordered among
// themselves by the barrier's own phases, so some pairs of them need no
// bar.sync between them even though both touch the barrier's bytes.
enum class AccessKind {
  Other,
  InitBarrier,
  InvalBarrier,
  WaitBarrier,
  BarrierExpect,
  TmaLoad,
};

// Whether an access of kind `after` may follow one of kind `before` on the
// same bytes without a bar.sync (Triton 3.6's rules for NVIDIA):
// - initialising (or invalidating) the barriers of an array one after the
//   other is fine;
// - waits, expects (and TMA loads) on a barrier may happen in any order in
//   different threads: the barrier orders them;
// - after a wait (or a TMA load), every thread's later access is ordered by
//   the barrier's completed phase, except an invalidation;
// - but two waits in a row need one: a warp that passed both could
//   otherwise re-arm the barrier before a slower warp saw the first phase.
bool skipsBarSync(AccessKind before, AccessKind after) {
  using K = AccessKind;
  if (before == K::InitBarrier && after == K::InitBarrier)
    return true;
  if (before == K::InvalBarrier && after == K::InvalBarrier)
    return true;
  if (before == K::WaitBarrier && after == K::WaitBarrier)
    return false;
  auto isUnordered = [](K k) {
    return k == K::WaitBarrier || k == K::BarrierExpect || k == K::TmaLoad;
  };
  if (isUnordered(before) && isUnordered(after))
    return true;
  return (before == K::WaitBarrier || before == K::TmaLoad) &&
         after != K::InvalBarrier;
}

struct Access {
  Range range;
  AccessKind kind = AccessKind::Other;
  bool operator<(const Access &o) const {
    return std::tie(range, kind) < std::tie(o.range, o.kind);
  }
  bool operator==(const Access &o) const {
    return range == o.range && kind == o.kind;
  }
};

// Whether some access of `next` races with one of `prev` (the earlier).
bool overlaps(const std::set<Access> &prev, const std::set<Access> &next) {
  for (const Access &x : prev)
    for (const Access &y : next)
      if (x.range.first < y.range.second && y.range.first < x.range.second &&
          !skipsBarSync(x.kind, y.kind))
        return true;
  return false;
}

// The shared-memory ranges read and written since the last barrier (or, for
// one op, by that op).
struct Accesses {
  std::set<Access> reads, writes;

  bool empty() const { return reads.empty() && writes.empty(); }
  void join(const Accesses &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
  }
  bool operator==(const Accesses &other) const {
    return reads == other.reads && writes == other.writes;
  }
  // Whether `next`, after these, races without a barrier in between.
  bool conflictsWith(const Accesses &next) const {
    return overlaps(writes, next.reads) || overlaps(writes, next.writes) ||
           overlaps(reads, next.writes);
  }
};

class MembarAnalysis {
public:
  explicit MembarAnalysis(const SharedMemoryAllocation &allocation)
      : allocation(allocation) {}

  void run(FunctionOpInterface func) {
    for (Block &block : func.getFunctionBody())
      visitBlock(block, Accesses());
  }

  SmallVector<Operation *> takeBarriers() {
    return SmallVector<Operation *>(barriers.begin(), barriers.end());
  }

private:
  Range wholeRange() const { return {0, allocation.getTotalBytes()}; }

  Range rangeOf(const SharedMemoryAllocation::Buffer *buffer) const {
    return buffer ? Range{buffer->offset, buffer->offset + buffer->bytes}
                  : wholeRange();
  }

  // The bytes of the mbarrier `barrier` (a 1xi64 memdesc) points to.
  Range barrierRange(Value barrier) const {
    return rangeOf(allocation.getBufferOfMemDesc(barrier));
  }

  Accesses accessesOf(Operation *op) const {
    Accesses acc;
    if (const auto *buffer = allocation.getBufferOf(op)) {
      Range range = rangeOf(buffer);
      if (buffer->scratch) {
        acc.reads.insert({range});
        acc.writes.insert({range});
      } else if (cast<ttg::LocalAllocOp>(op).getSrc()) {
        acc.writes.insert({range});
      }
    } else if (auto store = dyn_cast<ttg::LocalStoreOp>(op)) {
      acc.writes.insert(
          {rangeOf(allocation.getBufferOfMemDesc(store.getDst()))});
    } else if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
      // Its writes land later, but it must not start while another thread
      // still reads the slot; the read after the wait is ordered by the
      // barrier that follows every async_wait.
      acc.writes.insert(
          {rangeOf(allocation.getBufferOfMemDesc(copy.getDst()))});
    } else if (auto load = dyn_cast<ttg::LocalLoadOp>(op)) {
      acc.reads.insert({rangeOf(allocation.getBufferOfMemDesc(load.getSrc()))});
    } else if (auto dot = dyn_cast<ttng::WarpGroupDotOp>(op)) {
      // wgmma reads its buffers from when it is issued until a
      // warp_group_dot_wait covers it, in each warp group on its own: a
      // write after it needs a barrier that every warp group reaches after
      // that wait (the pipeliner puts the waits before the refills).
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (isa<ttg::MemDescType>(operand.getType()))
          acc.reads.insert({rangeOf(allocation.getBufferOfMemDesc(operand))});
    } else if (auto init = dyn_cast<ttng::InitBarrierOp>(op)) {
      acc.writes.insert(
          {barrierRange(init.getAlloc()), AccessKind::InitBarrier});
    } else if (auto inval = dyn_cast<ttng::InvalBarrierOp>(op)) {
      acc.writes.insert(
          {barrierRange(inval.getAlloc()), AccessKind::InvalBarrier});
    } else if (auto wait = dyn_cast<ttng::WaitBarrierOp>(op)) {
      Access a{barrierRange(wait.getAlloc()), AccessKind::WaitBarrier};
      acc.reads.insert(a);
      acc.writes.insert(a);
    } else if (auto expect = dyn_cast<ttng::BarrierExpectOp>(op)) {
      Access a{barrierRange(expect.getAlloc()), AccessKind::BarrierExpect};
      acc.reads.insert(a);
      acc.writes.insert(a);
    } else if (auto tma = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op)) {
      // The copy lands through the async proxy and completes on the
      // barrier: readers wait on that, not on a bar.sync.
      Access bar{barrierRange(tma.getBarrier()), AccessKind::TmaLoad};
      acc.reads.insert(bar);
      acc.writes.insert(bar);
      acc.writes.insert(
          {rangeOf(allocation.getBufferOfMemDesc(tma.getResult())),
           AccessKind::TmaLoad});
    } else if (auto tma = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(op)) {
      acc.reads.insert({rangeOf(allocation.getBufferOfMemDesc(tma.getSrc()))});
    } else if (auto arrive = dyn_cast<ttng::AsyncCopyMbarrierArriveOp>(op)) {
      acc.writes.insert({barrierRange(arrive.getBarrier())});
    } else if (isa<ttng::ArriveBarrierOp>(op) &&
               allocation.getTotalBytes() > 0) {
      // An arrival may release other threads that then read what this
      // thread wrote: every earlier access must be complete before it.
      acc.reads.insert({wholeRange()});
      acc.writes.insert({wholeRange()});
    } else if (isa<tt::CallOp>(op) && allocation.getTotalBytes() > 0) {
      // The callee is not analysed: it may touch any byte.
      acc.reads.insert({wholeRange()});
      acc.writes.insert({wholeRange()});
    }
    // Empty ranges (zero-byte buffers) touch nothing.
    for (std::set<Access> *set : {&acc.reads, &acc.writes})
      for (auto it = set->begin(); it != set->end();)
        it = it->range.first >= it->range.second ? set->erase(it)
                                                 : std::next(it);
    return acc;
  }

  static bool isBarrier(Operation *op) {
    auto barrier = dyn_cast<ttg::BarrierOp>(op);
    return barrier && bitEnumContainsAny(barrier.getAddrSpace(),
                                         ttg::AddrSpace::Local);
  }

  // The pending accesses after `block`, entered with `state`.
  Accesses visitBlock(Block &block, Accesses state) {
    for (Operation &op : block)
      state = visitOp(&op, std::move(state));
    return state;
  }

  // Runs `body` (entered with the join of `entry` and its own exit) to a
  // fixed point; returns the state at the body's exit.
  template <typename BodyFn>
  Accesses iterate(const Accesses &entry, BodyFn body) {
    Accesses in = entry, out;
    // The pending sets only grow and barriers are only added, so this ends;
    // the bound is a guard against a mistake, not a limit in practice.
    for (int round = 0; round < 1024; ++round) {
      out = body(in);
      Accesses next = entry;
      next.join(out);
      if (next == in)
        break;
      in = std::move(next);
    }
    return out;
  }

  Accesses visitOp(Operation *op, Accesses state) {
    if (isBarrier(op))
      return Accesses();
    if (isa<ttg::AsyncWaitOp, ttng::TMAStoreWaitOp>(op)) {
      // cp.async.wait_group completes the calling thread's copies only: a
      // barrier right after it makes every thread's visible before anyone
      // reads them. Simpler than tracking which groups a wait covers, and
      // what Triton does. The same for a TMA store's wait: the buffer it
      // read may be rewritten by any thread after it.
      Operation *next = op->getNextNode();
      if (next && !isBarrier(next))
        barriers.insert(next);
      return Accesses();
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Accesses out = visitBlock(ifOp.getThenRegion().front(), state);
      if (!ifOp.getElseRegion().empty())
        out.join(visitBlock(ifOp.getElseRegion().front(), state));
      else
        out.join(state);
      return out;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      // Zero trips leave `state`; otherwise the last body exit.
      Accesses out = iterate(state, [&](const Accesses &in) {
        return visitBlock(*forOp.getBody(), in);
      });
      out.join(state);
      return out;
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      // before -> (after -> before)*; the loop exits from `before`.
      Accesses exit;
      iterate(state, [&](const Accesses &in) {
        exit = visitBlock(whileOp.getBefore().front(), in);
        return visitBlock(whileOp.getAfter().front(), exit);
      });
      return exit;
    }
    if (op->getNumRegions() != 0 && !isa<tt::ReduceOp, tt::ScanOp>(op)) {
      // Any other op with regions: its blocks may run in any order, any
      // number of times.
      Accesses out = iterate(state, [&](const Accesses &in) {
        Accesses all = in;
        for (Region &region : op->getRegions())
          for (Block &block : region)
            all.join(visitBlock(block, in));
        return all;
      });
      state.join(out);
    }
    Accesses acc = accessesOf(op);
    if (acc.empty())
      return state;
    if (barriers.contains(op) || state.conflictsWith(acc)) {
      barriers.insert(op);
      state = Accesses();
    }
    state.join(acc);
    return state;
  }

  const SharedMemoryAllocation &allocation;
  llvm::SetVector<Operation *> barriers;
};

} // namespace

SmallVector<Operation *>
mlir::tgpu::findSharedMemoryBarriers(FunctionOpInterface func,
                                     const SharedMemoryAllocation &allocation) {
  MembarAnalysis analysis(allocation);
  analysis.run(func);
  return analysis.takeBarriers();
}
