// mbarriers and TMA copies (ttng; SEMANTICS.md §7): init / inval /
// expect / arrive / wait on an mbarrier, TMA loads whose data lands when a
// wait completes the barrier phase they are attached to, TMA stores whose
// source stays in use until ttng.async_tma_store_wait retires them, and
// descriptors made in the kernel (global scratch, tensormap_create,
// reinterpret_tensor_descriptor). Pending TMA loads share cp.async's
// bookkeeping (SharedMemoryOps.cpp).
#include "oracles/cpu/Program.h"

#include "tgpu/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include <iterator>
#include <limits>

using namespace mlir;
namespace ttng = mlir::triton::nvidia_gpu;

namespace tgpu::cpu::detail {

namespace {

// What a report says about a barrier: its current phase (and that phase's
// parity) and where it was set up.
std::string describe(const MBarrier &b) {
  return "phase " + std::to_string(b.completed) + " (parity " +
         std::to_string(b.completed & 1) + ") of the mbarrier initialised at " +
         locString(b.initOp);
}

// The state of `b`'s current phase, for reports.
std::string phaseState(const MBarrier &b) {
  return std::to_string(b.count - b.pending) + " of " +
         std::to_string(b.count) + " arrivals in, " + std::to_string(b.tx) +
         " bytes expected, TMA copies of " + std::to_string(b.copied) +
         " bytes attached: " + std::to_string(b.copies.size());
}

} // namespace

Expected<MBarrier *> Program::liveBarrier(Operation &op, Value v) {
  const Tensor &md = get(v);
  auto it = barriers.find({md.alloc, md.offset});
  if (it == barriers.end())
    return ub(&op, "mbarrier-uninitialized",
              "the mbarrier was never initialised (ttng.init_barrier)");
  if (!it->second.live)
    return ub(&op, "mbarrier-uninitialized",
              "the mbarrier was invalidated at " +
                  locString(it->second.invalOp) + " and not initialised again");
  return &it->second;
}

void Program::completePhase(MBarrier &b) {
  for (const PendingCopy &c : b.copies)
    landCopy(c);
  b.copies.clear();
  b.tx = b.copied = 0;
  b.pending = b.count;
  ++b.completed;
}

Error Program::arrive(Operation &op, MBarrier &b, uint32_t n, int64_t bytes) {
  // All of the phase's arrivals are in, yet it has not completed: its
  // copies may land at any time, so the GPU counts this arrival into this
  // phase or the next, a race.
  if (n > b.pending)
    return ub(&op, "mbarrier-over-arrival",
              llvm::Twine(n) + " arrival(s) at " + describe(b) +
                  ", which needs " + llvm::Twine(b.pending) + " more (" +
                  phaseState(b) +
                  "): the phase completes when its copies land, and no "
                  "ttng.wait_barrier has waited for it yet");
  b.tx += bytes;
  b.pending -= n;
  // With nothing in flight, the last arrival completes the phase itself,
  // on the GPU as here: a later arrival or wait is the next phase's.
  if (b.pending == 0 && b.tx == 0 && b.copies.empty())
    completePhase(b);
  return Error::success();
}

// ttng.init_barrier, inval_barrier, barrier_expect, arrive_barrier.
Error Program::execBarrier(Operation &op, const OpHandler &h) {
  auto predOff = [&](Value pred) { return pred && !(get(pred).i[0] & 1); };
  if (h.kind == OpKind::InitBarrier) {
    auto init = cast<ttng::InitBarrierOp>(op);
    const Tensor &md = get(init.getAlloc());
    MBarrier &b = barriers[{md.alloc, md.offset}];
    if (b.live)
      return ub(&op, "mbarrier-reinit",
                "the mbarrier is already initialised (at " +
                    locString(b.initOp) +
                    ") and was not invalidated since (ttng.inval_barrier)");
    b = MBarrier();
    b.live = true;
    b.initOp = &op;
    b.count = b.pending = init.getCount();
    return Error::success();
  }
  Value pred;
  if (auto expect = dyn_cast<ttng::BarrierExpectOp>(op))
    pred = expect.getPred();
  else if (auto arrival = dyn_cast<ttng::ArriveBarrierOp>(op))
    pred = arrival.getPred();
  if (predOff(pred))
    return Error::success();
  Expected<MBarrier *> found = liveBarrier(op, op.getOperand(0));
  if (!found)
    return found.takeError();
  MBarrier &b = **found;
  switch (h.kind) {
  case OpKind::InvalBarrier:
    // Arrivals or copies in the current phase would still update memory
    // that, once invalid, may hold anything.
    if (b.pending != b.count || b.tx != 0 || !b.copies.empty())
      return ub(&op, "mbarrier-inval-in-use",
                describe(b) + " is in use (" + phaseState(b) +
                    "): a ttng.wait_barrier must complete it first");
    b.live = false;
    b.invalOp = &op;
    return Error::success();
  case OpKind::BarrierExpect:
    return arrive(op, b, 1, cast<ttng::BarrierExpectOp>(op).getSize());
  default: // ArriveBarrier
    return arrive(op, b, cast<ttng::ArriveBarrierOp>(op).getCount(), 0);
  }
}

// ttng.wait_barrier: mbarrier.try_wait.parity in a loop. It returns once
// the phase of its parity has completed; the current phase, when it has
// that parity, must complete now, the latest moment the GPU could
// complete it, which lands its copies.
Error Program::execWaitBarrier(Operation &op, const OpHandler &) {
  auto wait = cast<ttng::WaitBarrierOp>(op);
  if (Value pred = wait.getPred(); pred && !(get(pred).i[0] & 1))
    return Error::success();
  Expected<MBarrier *> found = liveBarrier(op, wait.getAlloc());
  if (!found)
    return found.takeError();
  MBarrier &b = **found;
  uint64_t parity = get(wait.getPhase()).i[0] & 1;
  if ((b.completed & 1) != parity)
    return Error::success();
  if (b.pending != 0 || b.tx != b.copied) {
    std::string why;
    if (b.pending != 0)
      why = std::to_string(b.pending) + " of " + std::to_string(b.count) +
            " arrivals missing";
    if (b.tx != b.copied) {
      if (!why.empty())
        why += "; ";
      why += std::to_string(b.tx) + " bytes expected vs " +
             std::to_string(b.copied) + " copied";
      if (b.pending == 0 && b.tx < b.copied)
        why += " (the GPU would complete the phase before every copy "
               "landed and count the rest into the next phase)";
    }
    return ub(&op, "mbarrier-wait-hang",
              "waits for " + describe(b) + ", which cannot complete: " + why);
  }
  completePhase(b);
  return Error::success();
}

// ttng.async_tma_copy_global_to_local: the box is read now, with
// tt.descriptor_load's rules, and attached to the barrier's current phase;
// its elements are pending until a wait completes that phase.
Error Program::execTmaLoad(Operation &op, const OpHandler &) {
  auto copy = cast<ttng::AsyncTMACopyGlobalToLocalOp>(op);
  if (!(get(copy.getPred()).i[0] & 1))
    return Error::success();
  Expected<MBarrier *> found = liveBarrier(op, copy.getBarrier());
  if (!found)
    return found.takeError();
  MBarrier &b = **found;
  const Tensor &desc = get(copy.getDesc()), &md = get(copy.getResult());
  auto descType = cast<triton::TensorDescType>(copy.getDesc().getType());
  Index start;
  for (Value v : copy.getCoord())
    start.push_back(sext(get(v).i[0], 32));
  Expected<BlockAccess> block = expandDescriptor(
      desc, descType.getBlockType().getShape(), md.shape, start);
  if (!block)
    return plainError(locString(&op) + ": " + toString(block.takeError()));
  const Tensor &ptr = block->pointers;
  ScalarKind k = desc.type.pointee;
  unsigned size = byteSize(k);
  int64_t n = ptr.numel();
  int alloc = md.alloc;
  SharedAlloc &a = shared[alloc];
  if (nextCopyId == 0) // wrapped, past 2^32 copies: 0 stands for none
    nextCopyId = 1;
  PendingCopy c{nextCopyId++, &op, alloc, {}, {}, {}, {}, size, true};
  c.at.resize(n);
  c.src.assign(n, 0);
  if (a.pendingCopy.empty())
    a.pendingCopy.assign(a.written.size(), 0);
  IndexWalker walk(md.shape);
  for (int64_t e = 0; e < n; ++e, walk.next()) {
    c.at[e] = sharedIndex(md, walk.get());
    if (Error err = checkSharedWrite(op, alloc, c.at[e], &ptr, e))
      return err;
  }
  // The elements outside the array read the descriptor's padding (TMA's
  // fill of a box's outside part).
  Tensor vals, pad;
  vals.type = valueTypeOf(k);
  vals.shape = md.shape;
  vals.resize(n);
  if (isFloatKind(k)) {
    pad.type.kind = ElemType::Float;
    pad.f = {desc.padNan ? std::numeric_limits<double>::quiet_NaN() : 0.0};
  } else {
    pad.i = {0};
  }
  if (Error err = readElements(op, ptr, &block->inside, &pad, vals))
    return err;
  c.i = std::move(vals.i);
  c.f = std::move(vals.f);
  for (int64_t e = 0; e < n; ++e) {
    a.pendingCopy[c.at[e]] = c.id;
    if (block->inside.i[e]) {
      c.src[e] = ptr.i[e];
      for (unsigned j = 0; j < size; ++j)
        ++pendingSources[c.src[e] + j];
    }
  }
  // The whole box counts, its outside part included: TMA signals the
  // barrier with the box's bytes.
  b.copied += n * size;
  b.copies.push_back(std::move(c));
  return Error::success();
}

// ttng.async_tma_copy_local_to_global: reads the shared source now (it
// must be written, and no copy may still be landing in it) and writes
// global memory as tt.descriptor_store does. The source stays in use until
// a ttng.async_tma_store_wait retires the store.
Error Program::execTmaStore(Operation &op, const OpHandler &) {
  auto store = cast<ttng::AsyncTMACopyLocalToGlobalOp>(op);
  const Tensor &desc = get(store.getDesc()), &md = get(store.getSrc());
  auto descType = cast<triton::TensorDescType>(store.getDesc().getType());
  SharedAlloc &a = shared[md.alloc];
  Tensor val;
  val.type = valueTypeOf(md.type.pointee);
  val.shape = md.shape;
  int64_t n = val.numel();
  val.resize(n);
  std::vector<int64_t> at(n);
  IndexWalker walk(md.shape);
  for (int64_t e = 0; e < n; ++e, walk.next()) {
    at[e] = sharedIndex(md, walk.get());
    if (uint32_t id = a.pendingAt(at[e]))
      return pendingCopyUB(op, false, "shared memory read", id, &val, e);
    if (!a.written[at[e]])
      return ub(&op, "uninitialized-shared-read",
                "shared memory read before it was written", &val, e);
    if (val.type.isFloat())
      val.f[e] = a.f[at[e]];
    else
      val.i[e] = a.i[at[e]];
  }
  Index start;
  for (Value v : store.getCoord())
    start.push_back(sext(get(v).i[0], 32));
  Expected<BlockAccess> block = expandDescriptor(
      desc, descType.getBlockType().getShape(), md.shape, start);
  if (!block)
    return plainError(locString(&op) + ": " + toString(block.takeError()));
  if (Error err = storeElements(op, block->pointers, &block->inside, val))
    return err;
  if (a.storeReaders.empty())
    a.storeReaders.assign(a.written.size(), 0);
  for (int64_t x : at)
    ++a.storeReaders[x];
  tmaStores.push_back({&op, md.alloc, std::move(at)});
  return Error::success();
}

// ttng.async_tma_store_wait {pendings = N}: cp.async.bulk.wait_group.read,
// which retires every store but the N most recent; their sources are free
// again.
Error Program::execTmaStoreWait(Operation &op, const OpHandler &) {
  size_t keep = cast<ttng::TMAStoreWaitOp>(op).getPendings();
  for (; tmaStores.size() > keep; tmaStores.pop_front()) {
    const PendingTmaStore &s = tmaStores.front();
    SharedAlloc &a = shared[s.alloc];
    for (int64_t x : s.at)
      --a.storeReaders[x];
  }
  return Error::success();
}

Error Program::storeSourceUB(Operation &op, int alloc, int64_t at,
                             const Tensor *t, int64_t e) {
  // The newest store reading the element: the wait that retires it
  // retires the older ones too.
  size_t newer = 0;
  std::string from = "?";
  for (size_t i = tmaStores.size(); i-- > 0;) {
    const PendingTmaStore &s = tmaStores[i];
    if (s.alloc == alloc && llvm::is_contained(s.at, at)) {
      from = locString(s.op);
      newer = tmaStores.size() - 1 - i;
      break;
    }
  }
  return ub(&op, "tma-store-source-overwritten",
            "shared memory written while the TMA store at " + from +
                " may still read it: no ttng.async_tma_store_wait with "
                "pendings <= " +
                llvm::Twine(newer) + " has retired it yet",
            t, e);
}

namespace {

// The reference's own encoding of a TMA descriptor in its 128 bytes,
// sixteen i64 words: CUDA's CUtensorMap layout is opaque, and all the
// reference needs is to read back what ttng.tensormap_create wrote. The
// magic word marks bytes it wrote.
constexpr uint64_t kTensorMapMagic = 0x70616d726f736e65;
constexpr int64_t kTensorMapWords = 16;
enum TensorMapWord : int64_t {
  MagicWord,
  BaseWord,
  InfoWord, // rank | fill mode << 8 | element bytes << 16
  DimWords, // 5 words: sizes, innermost first
  StrideWords =
      DimWords + 5, // 4 words: byte strides of dims 1.., innermost first
};

// Bytes per element of the .elemtype codes of PTX's tensormap.replace,
// which ttng.tensormap_create carries: u8 u16 u32 s32 u64 s64 f16 f32
// f32.ftz f64 bf16 tf32 tf32.ftz; 0 for the sub-byte codes (13-15).
unsigned tensorMapElemBytes(uint32_t code) {
  static const unsigned bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 4, 8, 2, 4, 4};
  return code < std::size(bytes) ? bytes[code] : 0;
}

// The sixteen i64 words of the descriptor at `addr`, as pointers.
Tensor tensorMapWords(uint64_t addr) {
  Tensor ptr;
  ptr.type.kind = ElemType::Ptr;
  ptr.type.bits = 64;
  ptr.type.pointee = ScalarKind::I64;
  ptr.shape = {kTensorMapWords};
  for (int64_t k = 0; k < kTensorMapWords; ++k)
    ptr.i.push_back(addr + 8 * uint64_t(k));
  return ptr;
}

Tensor i64Words() {
  Tensor words;
  words.type.bits = 64;
  words.shape = {kTensorMapWords};
  words.i.assign(kTensorMapWords, 0);
  return words;
}

} // namespace

// ttg.global_scratch_alloc: this program's own zeroed buffer, the same one
// each time the op runs (the GPU gives each program a fixed slice).
Error Program::execScratchAlloc(Operation &op, const OpHandler &) {
  auto alloc = cast<triton::gpu::GlobalScratchAllocOp>(op);
  auto [it, inserted] = scratch.try_emplace(&op, 0);
  if (inserted)
    it->second = global.addOwned(alloc.getNbytes());
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  r->i = {it->second};
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// ttng.tensormap_create: writes the descriptor's 128 bytes, a global store
// with tt.store's rules. The box and swizzle are how TMA moves a block, not
// what it moves, so they are not kept.
Error Program::execTensormapCreate(Operation &op, const OpHandler &) {
  auto create = cast<ttng::TensormapCreateOp>(op);
  size_t rank = create.getBoxDim().size();
  unsigned elemBytes = tensorMapElemBytes(create.getElemType());
  if (!elemBytes)
    return unsupported(&op, "sub-byte element types (elem_type " +
                                llvm::Twine(create.getElemType()) + ")");
  if (create.getInterleaveLayout() != 0)
    return unsupported(&op, "interleaved layouts");
  for (Value v : create.getElementStride())
    if (maskBits(get(v).i[0], 32) != 1)
      return unsupported(&op, "element strides other than 1");
  if (rank > 5)
    return plainError(locString(&op) + ": a TMA descriptor of rank " +
                      llvm::Twine(rank));
  uint64_t addr = get(create.getDescPtr()).i[0];
  // CUtensorMap's alignment.
  if (addr % 64)
    return ub(&op, "misaligned-access",
              "the TMA descriptor at 0x" + llvm::Twine::utohexstr(addr) +
                  " is not 64-byte aligned");
  Tensor words = i64Words();
  words.i[MagicWord] = kTensorMapMagic;
  words.i[BaseWord] = get(create.getGlobalAddress()).i[0];
  words.i[InfoWord] =
      rank | uint64_t(create.getFillMode()) << 8 | uint64_t(elemBytes) << 16;
  for (auto [d, v] : llvm::enumerate(create.getGlobalDim()))
    words.i[DimWords + d] = maskBits(get(v).i[0], 32);
  for (auto [d, v] : llvm::enumerate(create.getGlobalStride()))
    words.i[StrideWords + d] = get(v).i[0];
  return storeElements(op, tensorMapWords(addr), nullptr, words);
}

// ttng.reinterpret_tensor_descriptor: the descriptor that
// ttng.tensormap_create wrote at the address, read with tt.load's rules.
Error Program::execReinterpretDesc(Operation &op, const OpHandler &) {
  auto reinterpret = cast<ttng::ReinterpretTensorDescOp>(op);
  uint64_t addr = get(reinterpret.getRawDesc()).i[0];
  Tensor words = i64Words();
  if (Error err =
          readElements(op, tensorMapWords(addr), nullptr, nullptr, words))
    return err;
  size_t rank = words.i[InfoWord] & 0xFF;
  if (words.i[MagicWord] != kTensorMapMagic || rank < 1 || rank > 5)
    return unsupported(&op, "the bytes at 0x" + llvm::Twine::utohexstr(addr) +
                                " are not a descriptor that "
                                "ttng.tensormap_create wrote, the only kind "
                                "the reference reads");
  bool padNan = (words.i[InfoWord] >> 8 & 0xFF) == 1;
  unsigned elemBytes = (words.i[InfoWord] >> 16) & 0xFF;
  RankedTensorType block = reinterpret.getResult().getType().getBlockType();
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  unsigned size = byteSize(r->type.pointee);
  if (size_t(block.getRank()) != rank || elemBytes != size)
    return unsupported(&op, "a descriptor of rank " + llvm::Twine(rank) +
                                " and " + llvm::Twine(elemBytes) +
                                "-byte elements read as a " +
                                llvm::Twine(block.getRank()) + "-d block of " +
                                llvm::Twine(size) + "-byte elements");
  r->shape.clear();
  r->i = {words.i[BaseWord]};
  r->padNan = padNan;
  // Outermost first, as tt.make_tensor_descriptor has them; the innermost
  // dim is contiguous.
  for (size_t d = 0; d < rank; ++d) {
    r->bpShape.push_back(sext(words.i[DimWords + rank - 1 - d], 32));
    if (d + 1 == rank) {
      r->bpStrides.push_back(1);
      break;
    }
    uint64_t bytes = words.i[StrideWords + rank - 2 - d];
    if (bytes % size)
      return unsupported(&op, "a byte stride (" + llvm::Twine(bytes) +
                                  ") that is not a multiple of the element "
                                  "size");
    r->bpStrides.push_back(int64_t(bytes / size));
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

} // namespace tgpu::cpu::detail
