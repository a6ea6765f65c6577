// Membar: where the threads of a CTA must meet at a barrier so that shared
// memory accesses by different threads do not race. Every op's shared-memory
// accesses are byte ranges of the allocation (its scratch: read and written;
// local_alloc with a value, local_store: written; local_load: read). Walking
// the function in program order with the ranges accessed since the last
// barrier, an op needs a barrier before it when it reads a range pending a
// write (RAW), or writes a range pending a read or a write (WAR, WAW).
// scf.if joins its branches; scf.for and scf.while iterate to a fixed point,
// so an access at the top of a loop body sees the accesses at its bottom
// from the previous iteration. Existing ttg.barrier ops are respected.
//
// Barriers inside one op's lowering (between its own writes and reads of its
// scratch) are that lowering's business; this places the ones between ops.
#ifndef TGPU_ANALYSIS_MEMBAR_H
#define TGPU_ANALYSIS_MEMBAR_H

#include "tgpu/Analysis/Allocation.h"

namespace mlir::tgpu {

// The ops of `func` that need a barrier right before them.
SmallVector<Operation *>
findSharedMemoryBarriers(FunctionOpInterface func,
                         const SharedMemoryAllocation &allocation);

} // namespace mlir::tgpu

#endif
