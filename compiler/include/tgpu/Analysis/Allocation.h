// Shared-memory allocation: which bytes of the kernel's shared memory each
// buffer gets. Two kinds of buffers:
//  - explicit: a ttg.local_alloc, live from the alloc to its last use (uses
//    through memdesc views count; a use inside a loop keeps the buffer live
//    for the whole loop, since the loop comes back to it);
//  - scratch: what one op's lowering needs while it runs (a convert_layout
//    through shared memory, a reduce across warps, ...), live during that op.
// Buffers whose live ranges overlap get disjoint byte ranges; the others may
// share bytes. Placement is greedy (largest first, lowest aligned offset that
// does not overlap a placed buffer live at the same time), which is optimal
// for the single-op scratch ranges the lowering makes and near it otherwise.
//
// How many scratch bytes an op needs is the lowering's business, so the
// caller passes it in: this analysis knows only liveness and placement.
#ifndef TGPU_ANALYSIS_ALLOCATION_H
#define TGPU_ANALYSIS_ALLOCATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tgpu {

// The attribute, on a local_alloc or an op with scratch, holding its
// buffer's byte offset in the kernel's shared memory.
inline constexpr llvm::StringLiteral kAllocationOffsetAttr =
    "allocation.offset";
// Every buffer starts at a multiple of this many bytes (128-bit accesses);
// a swizzled nvmma_shared buffer at a multiple of its swizzle period (8 rows
// of the swizzle width), which wgmma's descriptors assume. The kernel's
// shared memory itself starts at a multiple of kSharedMemoryBaseAlignment.
inline constexpr int64_t kSharedMemoryAlignment = 16;
inline constexpr int64_t kSharedMemoryBaseAlignment = 1024;

class SharedMemoryAllocation {
public:
  using ScratchBytesFn = llvm::function_ref<int64_t(Operation *)>;

  struct Buffer {
    Operation *owner = nullptr; // the local_alloc or the op using scratch
    bool scratch = false;
    int64_t bytes = 0;
    int64_t alignment = kSharedMemoryAlignment;
    int64_t offset = -1;
    // Positions in the function's pre-order op numbering, inclusive.
    int64_t liveBegin = 0, liveEnd = 0;
  };

  // Numbers `func`'s ops, computes every buffer's live range and places the
  // buffers. Fails with a diagnostic at the op when a buffer's size cannot be
  // known (a memdesc of unknown element size).
  static FailureOr<SharedMemoryAllocation> compute(FunctionOpInterface func,
                                                   ScratchBytesFn scratchBytes);
  // The same buffers with the offsets an earlier allocation wrote
  // (kAllocationOffsetAttr); fails with a diagnostic on an owner without
  // one or with one that is not a non-negative integer.
  static FailureOr<SharedMemoryAllocation>
  fromAttributes(FunctionOpInterface func, ScratchBytesFn scratchBytes);

  // Bytes the function needs: the end of the highest placed buffer, aligned.
  int64_t getTotalBytes() const { return totalBytes; }
  // The buffer `op` owns (its local_alloc result or its scratch), if any.
  const Buffer *getBufferOf(Operation *op) const;
  // The explicit buffer a memdesc value views (through memdesc view ops and
  // local_alloc); null when it cannot be traced (a block argument, a loop-
  // carried memdesc): callers must then assume any buffer.
  const Buffer *getBufferOfMemDesc(Value memdesc) const;

  // Writes kAllocationOffsetAttr on every buffer owner.
  void annotate() const;

private:
  static FailureOr<SharedMemoryAllocation>
  collectBuffers(FunctionOpInterface func, ScratchBytesFn scratchBytes);
  void place();
  void index();

  SmallVector<Buffer> buffers;
  llvm::DenseMap<Operation *, unsigned> bufferIndex;
  int64_t totalBytes = 0;
};

// The bytes of a memdesc's whole allocation (alloc shape x element bytes),
// or failure for element types without a memory size.
FailureOr<int64_t> getMemDescAllocBytes(Type memdescType);

} // namespace mlir::tgpu

#endif
