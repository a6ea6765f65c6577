#include "tgpu/Analysis/Membar.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <set>

using namespace mlir;
using namespace mlir::tgpu;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

// Half-open byte ranges [first, second).
using Range = std::pair<int64_t, int64_t>;

bool overlaps(const std::set<Range> &a, const std::set<Range> &b) {
  for (const Range &x : a)
    for (const Range &y : b)
      if (x.first < y.second && y.first < x.second)
        return true;
  return false;
}

// The shared-memory ranges read and written since the last barrier (or, for
// one op, by that op).
struct Accesses {
  std::set<Range> reads, writes;

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
    return overlaps(next.reads, writes) || overlaps(next.writes, writes) ||
           overlaps(next.writes, reads);
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

  Accesses accessesOf(Operation *op) const {
    Accesses acc;
    if (const auto *buffer = allocation.getBufferOf(op)) {
      Range range = rangeOf(buffer);
      if (buffer->scratch) {
        acc.reads.insert(range);
        acc.writes.insert(range);
      } else if (cast<ttg::LocalAllocOp>(op).getSrc()) {
        acc.writes.insert(range);
      }
    } else if (auto store = dyn_cast<ttg::LocalStoreOp>(op)) {
      acc.writes.insert(rangeOf(allocation.getBufferOfMemDesc(store.getDst())));
    } else if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
      // Its writes land later, but it must not start while another thread
      // still reads the slot; the read after the wait is ordered by the
      // barrier that follows every async_wait.
      acc.writes.insert(rangeOf(allocation.getBufferOfMemDesc(copy.getDst())));
    } else if (auto load = dyn_cast<ttg::LocalLoadOp>(op)) {
      acc.reads.insert(rangeOf(allocation.getBufferOfMemDesc(load.getSrc())));
    } else if (auto dot = dyn_cast<ttng::WarpGroupDotOp>(op)) {
      // wgmma reads its buffers from when it is issued until a
      // warp_group_dot_wait covers it, in each warp group on its own: a
      // write after it needs a barrier that every warp group reaches after
      // that wait (the pipeliner puts the waits before the refills).
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (isa<ttg::MemDescType>(operand.getType()))
          acc.reads.insert(rangeOf(allocation.getBufferOfMemDesc(operand)));
    } else if (isa<tt::CallOp>(op) && allocation.getTotalBytes() > 0) {
      // The callee is not analysed: it may touch any byte.
      acc.reads.insert(wholeRange());
      acc.writes.insert(wholeRange());
    }
    // Empty ranges (zero-byte buffers) touch nothing.
    for (std::set<Range> *ranges : {&acc.reads, &acc.writes})
      for (auto it = ranges->begin(); it != ranges->end();)
        it = it->first >= it->second ? ranges->erase(it) : std::next(it);
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
    if (isa<ttg::AsyncWaitOp>(op)) {
      // cp.async.wait_group completes the calling thread's copies only: a
      // barrier right after it makes every thread's visible before anyone
      // reads them. Simpler than tracking which groups a wait covers, and
      // what Triton does.
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
