#include "tgpu/Analysis/Allocation.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "tgpu/Dialect/Triton/IR/Dialect.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tgpu;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

FailureOr<int64_t> mlir::tgpu::getMemDescAllocBytes(Type type) {
  auto memdesc = dyn_cast<ttg::MemDescType>(type);
  if (!memdesc)
    return failure();
  Type elem = memdesc.getElementType();
  int64_t elemBytes;
  if (isa<triton::PointerType>(elem))
    elemBytes = 8;
  else if (elem.isIntOrFloat())
    elemBytes = llvm::divideCeil(elem.getIntOrFloatBitWidth(), 8);
  else
    return failure();
  int64_t bytes = elemBytes;
  for (int64_t d : memdesc.getAllocShape()) {
    if (d <= 0 || bytes > (int64_t(1) << 40) / d)
      return failure();
    bytes *= d;
  }
  return bytes;
}

FailureOr<SharedMemoryAllocation>
SharedMemoryAllocation::compute(FunctionOpInterface func,
                                ScratchBytesFn scratchBytes) {
  auto result = collectBuffers(func, scratchBytes);
  if (failed(result))
    return failure();
  result->place();
  result->index();
  return result;
}

FailureOr<SharedMemoryAllocation>
SharedMemoryAllocation::fromAttributes(FunctionOpInterface func,
                                       ScratchBytesFn scratchBytes) {
  auto result = collectBuffers(func, scratchBytes);
  if (failed(result))
    return failure();
  for (Buffer &buffer : result->buffers) {
    auto attr = buffer.owner->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
    if (!attr || attr.getValue().isNegative() ||
        attr.getValue().getActiveBits() > 31)
      return buffer.owner->emitError()
             << "needs " << buffer.bytes
             << " bytes of shared memory but has no valid '"
             << kAllocationOffsetAttr
             << "' (run allocate-shared-memory first)";
    buffer.offset = attr.getInt();
    result->totalBytes =
        std::max(result->totalBytes, buffer.offset + buffer.bytes);
  }
  result->totalBytes =
      int64_t(llvm::alignTo(result->totalBytes, kSharedMemoryAlignment));
  result->index();
  return result;
}

FailureOr<SharedMemoryAllocation>
SharedMemoryAllocation::collectBuffers(FunctionOpInterface func,
                                       ScratchBytesFn scratchBytes) {
  SharedMemoryAllocation result;
  // Pre-order numbering; an op's subtree spans [id, end].
  llvm::DenseMap<Operation *, int64_t> id, end;
  int64_t next = 0;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) { id[op] = next++; });
  func->walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = id[op];
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          last = std::max(last, end[&block.back()]);
    end[op] = last;
  });
  int64_t funcEnd = end[func.getOperation()];

  bool failed = false;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failed || op == func.getOperation())
      return;
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
      auto bytes = getMemDescAllocBytes(alloc.getType());
      if (::mlir::failed(bytes)) {
        alloc.emitError("cannot size the shared-memory buffer of ")
            << alloc.getType();
        failed = true;
        return;
      }
      Buffer buffer{op, /*scratch=*/false, *bytes};
      if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(
              alloc.getType().getEncoding()))
        // A swizzle period (wgmma and TMA compute the swizzle from the
        // address), and at least the 128 bytes TMA needs.
        buffer.alignment =
            std::max<int64_t>(128, 8 * int64_t(nvmma.getSwizzlingByteWidth()));
      buffer.liveBegin = id[op];
      buffer.liveEnd = id[op];
      // Follow the buffer's views; a use in a nested region keeps it live
      // for the whole op holding that region in the alloc's block.
      Block *home = op->getBlock();
      SmallVector<Value> worklist{alloc.getResult()};
      DenseSet<Value> seen{alloc.getResult()};
      auto follow = [&](Value v) {
        if (seen.insert(v).second)
          worklist.push_back(v);
      };
      while (!worklist.empty()) {
        Value v = worklist.pop_back_val();
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          // A view an scf.for carries (the pipeliner's slot views): live
          // for the whole loop, and wherever the loop's result goes.
          scf::ForOp loop = dyn_cast<scf::ForOp>(user);
          unsigned carried = 0;
          if (loop && use.getOperandNumber() >= loop.getNumControlOperands()) {
            carried = use.getOperandNumber() - loop.getNumControlOperands();
          } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
            loop = dyn_cast<scf::ForOp>(yield->getParentOp());
            carried = use.getOperandNumber();
          } else {
            loop = nullptr;
          }
          if (loop) {
            follow(loop.getResult(carried));
            follow(loop.getRegionIterArg(carried));
            user = loop;
          } else if (Value src = ttg::getMemDescViewSource(user); src == v) {
            follow(user->getResult(0));
          } else if (user->hasTrait<OpTrait::IsTerminator>() ||
                     user->getNumRegions() != 0) {
            // Yielded elsewhere or passed into another region: not traced,
            // so live until the function ends.
            buffer.liveEnd = funcEnd;
            continue;
          }
          Operation *anchor = home->findAncestorOpInBlock(*user);
          buffer.liveEnd =
              std::max(buffer.liveEnd, anchor ? end[anchor] : funcEnd);
        }
      }
      result.buffers.push_back(buffer);
      return;
    }
    int64_t bytes = scratchBytes(op);
    if (bytes > 0) {
      Buffer buffer{op, /*scratch=*/true, bytes};
      // tensormap.replace edits a CUtensorMap in place: 128-byte aligned.
      if (isa<ttng::TensormapCreateOp>(op))
        buffer.alignment = 128;
      buffer.liveBegin = id[op];
      buffer.liveEnd = end[op];
      result.buffers.push_back(buffer);
    }
  });
  if (failed)
    return failure();
  return result;
}

void SharedMemoryAllocation::place() {
  // Largest first (ties: earliest), each at the lowest aligned offset clear
  // of every placed buffer live at the same time.
  auto order = llvm::to_vector(llvm::seq<unsigned>(0, buffers.size()));
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(-buffers[a].bytes, a) <
           std::make_pair(-buffers[b].bytes, b);
  });
  SmallVector<unsigned> placed;
  for (unsigned i : order) {
    Buffer &buffer = buffers[i];
    SmallVector<const Buffer *> live;
    for (unsigned j : placed) {
      const Buffer &other = buffers[j];
      if (other.liveBegin <= buffer.liveEnd &&
          buffer.liveBegin <= other.liveEnd)
        live.push_back(&other);
    }
    llvm::sort(live, [](const Buffer *a, const Buffer *b) {
      return a->offset < b->offset;
    });
    int64_t offset = 0;
    for (const Buffer *other : live) {
      if (offset + buffer.bytes <= other->offset)
        break;
      offset =
          std::max<int64_t>(offset, llvm::alignTo(other->offset + other->bytes,
                                                  buffer.alignment));
    }
    buffer.offset = offset;
    placed.push_back(i);
    totalBytes = std::max(totalBytes, offset + buffer.bytes);
  }
  totalBytes = int64_t(llvm::alignTo(totalBytes, kSharedMemoryAlignment));
}

void SharedMemoryAllocation::index() {
  for (auto [i, buffer] : llvm::enumerate(buffers))
    bufferIndex[buffer.owner] = i;
}

const SharedMemoryAllocation::Buffer *
SharedMemoryAllocation::getBufferOf(Operation *op) const {
  auto it = bufferIndex.find(op);
  return it == bufferIndex.end() ? nullptr : &buffers[it->second];
}

const SharedMemoryAllocation::Buffer *
SharedMemoryAllocation::getBufferOfMemDesc(Value memdesc) const {
  while (Operation *def = memdesc.getDefiningOp()) {
    if (isa<ttg::LocalAllocOp>(def))
      return getBufferOf(def);
    Value src = ttg::getMemDescViewSource(def);
    if (!src)
      return nullptr;
    memdesc = src;
  }
  return nullptr;
}

void SharedMemoryAllocation::annotate() const {
  for (const Buffer &buffer : buffers)
    buffer.owner->setAttr(
        kAllocationOffsetAttr,
        IntegerAttr::get(IntegerType::get(buffer.owner->getContext(), 32),
                         buffer.offset));
}
