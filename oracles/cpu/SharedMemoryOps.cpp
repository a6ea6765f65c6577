// Shared memory and the other TTGIR ops: local_alloc / load / store, memdesc
// views, async copies and ordering ops. Layouts play no part here.
#include "oracles/cpu/Program.h"

using namespace mlir;

namespace tgpu::cpu::detail {

// ttg.barrier, ttng.fence_async_shared, ttg.local_dealloc,
// ttg.async_commit_group, ttg.async_wait: ordering only. Every program runs
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
    if (val.type.isFloat())
      a.f[at] = val.f[k];
    else
      a.i[at] = val.i[k];
    a.written[at] = true;
  }
  return Error::success();
}

Error Program::execAsyncCopy(Operation &op, const OpHandler &) {
  // Done at once: the copy's completion is the program's next step.
  const Tensor &ptr = get(op.getOperand(0)), &md = get(op.getOperand(1));
  const Tensor *mask =
      op.getNumOperands() > 2 ? &get(op.getOperand(2)) : nullptr;
  const Tensor *other =
      op.getNumOperands() > 3 ? &get(op.getOperand(3)) : nullptr;
  SharedAlloc &a = shared[md.alloc];
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  IndexWalker walk(ptr.shape);
  for (int64_t e = 0; e < ptr.numel(); ++e, walk.next()) {
    int64_t at = sharedIndex(md, walk.get());
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

} // namespace tgpu::cpu::detail
