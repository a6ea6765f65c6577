// Shared memory and the other TTGIR ops: local_alloc / load / store, memdesc
// views, async copies and their groups (cp.async), ordering ops, and the
// pending-copy bookkeeping that TMA copies (TmaOps.cpp) share. Layouts play
// no part here.
#include "oracles/cpu/Program.h"

using namespace mlir;

namespace tgpu::cpu::detail {

// ttg.barrier, ttng.fence_async_shared: ordering only. Every program runs
// alone, so there is nothing to do; tokens are empty values.
Error Program::execOrdering(Operation &op, const OpHandler &) {
  for (Value v : op.getResults()) {
    Tensor t;
    t.type.kind = ElemType::Token;
    set(v, t);
  }
  return Error::success();
}

// ttng.warp_group_dot_wait: its operands, once the dots are done.
Error Program::execDotWait(Operation &op, const OpHandler &) {
  for (auto [res, in] : llvm::zip(op.getResults(), op.getOperands()))
    set(res, get(in));
  return Error::success();
}

// ttg.local_dealloc: nothing ever reuses an allocation here, but on the GPU
// its memory goes back to the allocator, and a copy still pending into it
// would land in whatever is allocated there next; a TMA store still reading
// it would read what is allocated there next.
Error Program::execLocalDealloc(Operation &op, const OpHandler &) {
  int alloc = get(op.getOperand(0)).alloc;
  const SharedAlloc &a = shared[alloc];
  for (uint32_t id : a.pendingCopy)
    if (id)
      return pendingCopyUB(op, true, "shared memory freed", id, nullptr, -1);
  for (size_t at = 0; at < a.storeReaders.size(); ++at)
    if (a.storeReaders[at])
      return storeSourceUB(op, alloc, int64_t(at), nullptr, -1);
  return Error::success();
}

Error Program::execLocalAlloc(Operation &op, const OpHandler &) {
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

// ttg.memdesc_index, memdesc_subslice, memdesc_trans, memdesc_reshape: a
// new window into the same allocation.
Error Program::execMemDescView(Operation &op, const OpHandler &h) {
  Tensor md = get(op.getOperand(0));
  std::vector<int64_t> newShape = shapeOf(op.getResult(0).getType());
  switch (h.kind) {
  case OpKind::MemDescIndex: {
    int64_t i =
        sext(get(op.getOperand(1)).i[0], get(op.getOperand(1)).type.bits);
    if (i < 0 || i >= md.shape[0])
      return ub(&op, "index-out-of-range",
                "memdesc index " + llvm::Twine(i) + " outside dim of size " +
                    llvm::Twine(md.shape[0]));
    md.offset += i * md.strides[0];
    md.strides.erase(md.strides.begin());
    break;
  }
  case OpKind::MemDescSubslice: {
    auto offsets = op.getAttrOfType<DenseI32ArrayAttr>("offsets");
    for (size_t d = 0; d < md.shape.size(); ++d)
      md.offset += int64_t(offsets[d]) * md.strides[d];
    break;
  }
  case OpKind::MemDescTrans: {
    auto order = op.getAttrOfType<DenseI32ArrayAttr>("order");
    std::vector<int64_t> s(md.strides.size());
    for (size_t d = 0; d < s.size(); ++d)
      s[d] = md.strides[order[d]];
    md.strides = s;
    break;
  }
  default: // MemDescReshape, of a contiguous window
    md.strides.assign(newShape.size(), 1);
    for (size_t d = newShape.size(); d-- > 1;)
      md.strides[d - 1] = md.strides[d] * newShape[d];
    break;
  }
  md.shape = newShape;
  set(op.getResult(0), std::move(md));
  return Error::success();
}

Error Program::execLocalLoad(Operation &op, const OpHandler &) {
  const Tensor &md = get(op.getOperand(0));
  SharedAlloc &a = shared[md.alloc];
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  IndexWalker walk(r->shape);
  for (int64_t k = 0; k < r->numel(); ++k, walk.next()) {
    int64_t at = sharedIndex(md, walk.get());
    // Before the written test: a copy still in flight is the better
    // diagnosis of an element it has not filled yet.
    if (uint32_t id = a.pendingAt(at))
      return pendingCopyUB(op, false, "shared memory read", id, &*r, k);
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

Error Program::execLocalStore(Operation &op, const OpHandler &) {
  const Tensor &val = get(op.getOperand(0)), &md = get(op.getOperand(1));
  SharedAlloc &a = shared[md.alloc];
  IndexWalker walk(val.shape);
  for (int64_t k = 0; k < val.numel(); ++k, walk.next()) {
    int64_t at = sharedIndex(md, walk.get());
    if (Error err = checkSharedWrite(op, md.alloc, at, &val, k))
      return err;
    if (val.type.isFloat())
      a.f[at] = val.f[k];
    else
      a.i[at] = val.i[k];
    a.written[at] = true;
  }
  return Error::success();
}

// The copy reads its source now, with tt.load's rules (so out-of-bounds,
// misaligned and racing elements are reported at the op that names them),
// but its data lands in shared memory only when a ttg.async_wait completes
// its group: until then it is pending, first in `uncommitted`.
Error Program::execAsyncCopy(Operation &op, const OpHandler &) {
  auto copy = cast<triton::gpu::AsyncCopyGlobalToLocalOp>(op);
  const Tensor &ptr = get(copy.getSrc()), &md = get(copy.getDst());
  const Tensor *mask = copy.getMask() ? &get(copy.getMask()) : nullptr;
  const Tensor *other = copy.getOther() ? &get(copy.getOther()) : nullptr;
  SharedAlloc &a = shared[md.alloc];
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  bool fl = isFloatKind(k);
  int64_t n = ptr.numel();
  if (nextCopyId == 0) // wrapped, past 2^32 copies: 0 stands for none
    nextCopyId = 1;
  PendingCopy c{nextCopyId++, &op, md.alloc, {}, {}, {}, {}, size};
  c.at.resize(n);
  c.src.assign(n, 0);
  if (fl)
    c.f.assign(n, 0);
  else
    c.i.assign(n, 0);
  if (a.pendingCopy.empty())
    a.pendingCopy.assign(a.written.size(), 0);
  IndexWalker walk(ptr.shape);
  for (int64_t e = 0; e < n; ++e, walk.next()) {
    int64_t at = sharedIndex(md, walk.get());
    if (Error err = checkSharedWrite(op, md.alloc, at, &ptr, e))
      return err;
    c.at[e] = at;
    bool on = !mask || (mask->i[mask->shape.empty() ? 0 : e] & 1);
    if (!on) {
      // Masked-off elements get `other`, or zero (cp.async's zero fill).
      if (other && fl)
        c.f[e] = other->f[other->shape.empty() ? 0 : e];
      else if (other)
        c.i[e] = other->i[other->shape.empty() ? 0 : e];
      continue;
    }
    uint8_t *where = locate(ptr, e, size);
    if (!where)
      return badAccess(op, ptr, e, size);
    int32_t w = global.otherStorer(ptr.i[e], size, linearPid);
    if (w >= 0)
      return raceUB(op, "load-race", ptr, e, w, "is read, but");
    uint64_t bits = loadBits(where, size);
    if (fl)
      c.f[e] = floatFromBits(bits, k);
    else
      c.i[e] = maskBits(bits, size * 8);
    c.src[e] = ptr.i[e];
  }
  for (int64_t e = 0; e < n; ++e) {
    a.pendingCopy[c.at[e]] = c.id;
    if (c.src[e])
      for (unsigned j = 0; j < size; ++j)
        ++pendingSources[c.src[e] + j];
  }
  uncommitted.push_back(std::move(c));
  Tensor token;
  token.type.kind = ElemType::Token;
  set(op.getResult(0), token);
  return Error::success();
}

// ttg.async_commit_group closes the copies issued since the previous commit
// into one group, which may be empty. ttg.async_wait {num} completes every
// committed group but the `num` most recent, as cp.async.wait_group does:
// copies not committed yet are never completed by a wait, and the token
// operands do not matter (Triton's lowering ignores them too).
Error Program::execAsyncGroup(Operation &op, const OpHandler &h) {
  if (h.kind == OpKind::AsyncCommit) {
    committed.push_back(std::move(uncommitted));
    uncommitted.clear();
  } else {
    size_t keep = cast<triton::gpu::AsyncWaitOp>(op).getNum();
    for (; committed.size() > keep; committed.pop_front())
      for (const PendingCopy &c : committed.front())
        landCopy(c);
  }
  Tensor token;
  token.type.kind = ElemType::Token;
  set(op.getResult(0), token);
  return Error::success();
}

void Program::landCopy(const PendingCopy &c) {
  SharedAlloc &a = shared[c.alloc];
  bool fl = !c.f.empty();
  for (size_t e = 0; e < c.at.size(); ++e) {
    int64_t at = c.at[e];
    if (fl)
      a.f[at] = c.f[e];
    else
      a.i[at] = c.i[e];
    a.written[at] = true;
    a.pendingCopy[at] = 0;
    if (c.src[e])
      for (unsigned j = 0; j < c.size; ++j) {
        auto it = pendingSources.find(c.src[e] + j);
        if (--it->second == 0)
          pendingSources.erase(it);
      }
  }
}

Program::FoundCopy Program::findPendingCopy(uint32_t id) const {
  FoundCopy r;
  for (const PendingCopy &c : uncommitted)
    if (c.id == id) {
      r.copy = &c;
      return r;
    }
  r.committed = true;
  for (const std::vector<PendingCopy> &group : committed)
    for (const PendingCopy &c : group)
      if (c.id == id) {
        r.copy = &c;
        return r;
      }
  r.committed = false;
  for (const auto &[key, b] : barriers)
    for (const PendingCopy &c : b.copies)
      if (c.id == id) {
        r.copy = &c;
        r.barrier = &b;
        return r;
      }
  return r;
}

Error Program::pendingCopyUB(Operation &op, bool write, llvm::StringRef what,
                             uint32_t id, const Tensor *t, int64_t e) {
  FoundCopy found = findPendingCopy(id);
  std::string from = found.copy ? locString(found.copy->op) : std::string("?");
  if (found.barrier) {
    const MBarrier &b = *found.barrier;
    return ub(&op, write ? "tma-write-conflict" : "tma-read-before-wait",
              what + " while the TMA copy at " + from +
                  " still writes it: no ttng.wait_barrier has completed "
                  "phase " +
                  llvm::Twine(b.completed) + " (parity " +
                  llvm::Twine(b.completed & 1) +
                  ") of its mbarrier (initialised at " + locString(b.initOp) +
                  ") yet",
              t, e);
  }
  return ub(
      &op, write ? "async-copy-write-conflict" : "async-copy-read-before-wait",
      what + " while the async copy at " + from + " still writes it: " +
          (found.committed ? "no ttg.async_wait has completed its group yet"
                           : "it is not committed to a group yet, and "
                             "ttg.async_wait completes committed groups "
                             "only"),
      t, e);
}

Error Program::sourceOverwritten(Operation &op, const Tensor &ptr, int64_t e,
                                 unsigned size) {
  uint64_t addr = ptr.i[e];
  for (unsigned j = 0; j < size; ++j) {
    if (!pendingSources.count(addr + j))
      continue;
    // The report names one of the copies reading the byte.
    std::string from = "?";
    bool tma = false;
    auto note = [&](const PendingCopy &c) {
      for (uint64_t s : c.src)
        if (s && addr + j >= s && addr + j < s + c.size) {
          from = locString(c.op);
          tma = c.tma;
          return;
        }
    };
    for (const PendingCopy &c : uncommitted)
      note(c);
    for (const std::vector<PendingCopy> &group : committed)
      for (const PendingCopy &c : group)
        note(c);
    for (const auto &[key, b] : barriers)
      for (const PendingCopy &c : b.copies)
        note(c);
    return ub(&op, "async-copy-source-overwritten",
              "address 0x" + llvm::Twine::utohexstr(addr) +
                  " is written while the " + (tma ? "TMA" : "async") +
                  " copy at " + from +
                  " reads it: the copy may read its source until " +
                  (tma ? "the ttng.wait_barrier that completes its phase"
                       : "ttg.async_wait completes it"),
              &ptr, e);
  }
  return Error::success();
}

} // namespace tgpu::cpu::detail
