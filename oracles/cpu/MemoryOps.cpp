// Global memory: pointers (tt.addptr, block pointers, tensor descriptors)
// and the accesses through them (tt.load, tt.store, tt.descriptor_load,
// tt.descriptor_store, atomics), with their undefined behaviour
// (out of bounds, misaligned, races between programs, writes to what a
// pending async copy reads).
#include "oracles/cpu/Program.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tgpu::cpu::detail {

namespace {

// A block pointer as a tensor of element pointers for a value of type
// `valueType`, and the mask of the elements inside the tensor along the
// boundary-checked dims.
BlockAccess expandBlockPointer(const Tensor &blockPtr, Type valueType,
                               DenseI32ArrayAttr checked) {
  BlockAccess r;
  Tensor &expanded = r.pointers, &boundary = r.inside;
  expanded.type = blockPtr.type;
  expanded.type.blockPtr = false;
  expanded.shape = shapeOf(valueType);
  boundary.type.kind = ElemType::Int;
  boundary.type.bits = 1;
  boundary.shape = expanded.shape;
  int64_t count = expanded.numel();
  expanded.i.resize(count);
  boundary.i.assign(count, 1);
  for (int64_t e = 0; e < count; ++e) {
    Index idx = unravel(e, expanded.shape);
    int64_t elems = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t c = blockPtr.bpOffsets[d] + idx[d];
      elems += c * blockPtr.bpStrides[d];
      if (checked && llvm::is_contained(checked.asArrayRef(), int32_t(d)) &&
          (c < 0 || c >= blockPtr.bpShape[d]))
        boundary.i[e] = 0;
    }
    expanded.i[e] =
        blockPtr.i[0] + uint64_t(elems) * byteSize(blockPtr.type.pointee);
  }
  return r;
}

} // namespace

Expected<BlockAccess> expandDescriptor(const Tensor &desc,
                                       llvm::ArrayRef<int64_t> blockShape,
                                       llvm::ArrayRef<int64_t> valueShape,
                                       llvm::ArrayRef<int64_t> start) {
  BlockAccess r;
  Tensor &pointers = r.pointers, &inside = r.inside;
  pointers.type.kind = ElemType::Ptr;
  pointers.type.bits = 64;
  pointers.type.pointee = desc.type.pointee;
  pointers.shape.assign(valueShape.begin(), valueShape.end());
  inside.type.kind = ElemType::Int;
  inside.type.bits = 1;
  inside.shape = pointers.shape;
  int64_t count = pointers.numel(), blockCount = 1;
  for (int64_t d : blockShape)
    blockCount *= d;
  size_t rank = blockShape.size();
  if (count != blockCount || desc.bpShape.size() != rank ||
      desc.bpStrides.size() != rank || start.size() != rank)
    return plainError("a tensor descriptor's block, array and indices "
                      "disagree in rank or size");
  pointers.i.assign(count, 0);
  inside.i.assign(count, 1);
  unsigned size = byteSize(desc.type.pointee);
  IndexWalker walk(blockShape);
  for (int64_t e = 0; e < count; ++e, walk.next()) {
    llvm::ArrayRef<int64_t> j = walk.get();
    uint64_t elems = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t c = start[d] + j[d];
      if (c < 0 || c >= desc.bpShape[d]) {
        inside.i[e] = 0;
        break;
      }
      elems += uint64_t(c) * uint64_t(desc.bpStrides[d]);
    }
    if (inside.i[e])
      pointers.i[e] = desc.i[0] + elems * size;
  }
  return r;
}

namespace {

// Element `e` of `t` from the raw bits of a `k` in memory, and back.
void setFromBits(Tensor &t, int64_t e, uint64_t bits, ScalarKind k) {
  if (isFloatKind(k))
    t.f[e] = floatFromBits(bits, k);
  else
    t.i[e] = maskBits(bits, t.type.bits);
}
uint64_t bitsOf(const Tensor &t, int64_t e, ScalarKind k) {
  return isFloatKind(k) ? bitsFromFloat(t.f[e], k) : t.i[e];
}

bool maskedOff(const Tensor *mask, int64_t e) {
  return mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1);
}

} // namespace

Error Program::badAccess(Operation &op, const Tensor &ptr, int64_t e,
                         unsigned size) {
  uint64_t addr = ptr.i[e];
  if (addr % size)
    return ub(&op, "misaligned-access",
              "address 0x" + llvm::Twine::utohexstr(addr) +
                  " is not aligned to " + llvm::Twine(size) + " bytes",
              &ptr, e);
  return ub(&op, "out-of-bounds",
            "address 0x" + llvm::Twine::utohexstr(addr) +
                " is outside every buffer",
            &ptr, e);
}

Error Program::raceUB(Operation &op, llvm::StringRef kind, const Tensor &ptr,
                      int64_t e, int32_t other, const char *what) {
  return ub(&op, kind,
            "address 0x" + llvm::Twine::utohexstr(ptr.i[e]) + " " + what +
                " program " + llvm::Twine(other) +
                " (programs in the x-fastest order) stored there",
            &ptr, e);
}

Error Program::execMakeTensorPtr(Operation &op, const OpHandler &) {
  auto mk = cast<triton::MakeTensorPtrOp>(op);
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  r->shape.clear();
  r->i = {get(mk.getBase()).i[0]};
  for (Value v : mk.getShape())
    r->bpShape.push_back(sext(get(v).i[0], 64));
  for (Value v : mk.getStrides())
    r->bpStrides.push_back(sext(get(v).i[0], 64));
  for (Value v : mk.getOffsets())
    r->bpOffsets.push_back(sext(get(v).i[0], 32));
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execAdvance(Operation &op, const OpHandler &) {
  Tensor r = get(op.getOperand(0));
  for (unsigned d = 1; d < op.getNumOperands() && d - 1 < r.bpOffsets.size();
       ++d)
    r.bpOffsets[d - 1] += sext(get(op.getOperand(d)).i[0], 32);
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execAddPtr(Operation &op, const OpHandler &) {
  const Tensor &p = get(op.getOperand(0)), &off = get(op.getOperand(1));
  Tensor r;
  r.type = p.type;
  r.shape = shapeOf(op.getResult(0).getType());
  int64_t n = r.numel();
  r.i.resize(n);
  uint64_t size = byteSize(p.type.pointee);
  bool scalarPtr = p.shape.empty(), scalarOff = off.shape.empty();
  for (int64_t k = 0; k < n; ++k)
    r.i[k] = p.i[scalarPtr ? 0 : k] +
             uint64_t(sext(off.i[scalarOff ? 0 : k], off.type.bits)) * size;
  set(op.getResult(0), std::move(r));
  return Error::success();
}

// tt.int_to_ptr, tt.ptr_to_int: the same 64 bits.
Error Program::execPtrCast(Operation &op, const OpHandler &) {
  Tensor r = get(op.getOperand(0));
  Expected<ElemType> t = elemTypeOf(op.getResult(0).getType());
  if (!t)
    return t.takeError();
  r.type = *t;
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execLoad(Operation &op, const OpHandler &) {
  auto load = cast<triton::LoadOp>(op);
  const Tensor &ptrIn = get(op.getOperand(0));
  const Tensor *mask = load.getMask() ? &get(load.getMask()) : nullptr;
  const Tensor *other = load.getOther() ? &get(load.getOther()) : nullptr;
  BlockAccess block;
  Tensor pad;
  if (ptrIn.type.blockPtr) {
    block = expandBlockPointer(
        ptrIn, op.getResult(0).getType(),
        op.getAttrOfType<DenseI32ArrayAttr>("boundaryCheck"));
    // Out-of-bounds elements read the padding: zero, or NaN with
    // padding = nan.
    mask = &block.inside;
    Attribute padding = op.getAttr("padding");
    std::string text;
    if (padding) {
      llvm::raw_string_ostream os(text);
      padding.print(os);
    }
    ScalarKind k = ptrIn.type.pointee;
    pad.type.kind = isFloatKind(k) ? ElemType::Float : ElemType::Int;
    // tt.PaddingOption: 1 = zero, 2 = nan (printed as an integer).
    bool nan = llvm::StringRef(text).contains("nan");
    if (auto i = dyn_cast_or_null<IntegerAttr>(padding))
      nan = i.getInt() == 2;
    if (isFloatKind(k))
      pad.f = {nan ? std::numeric_limits<double>::quiet_NaN() : 0.0};
    else
      pad.i = {0};
    other = &pad;
  }
  const Tensor &ptr = ptrIn.type.blockPtr ? block.pointers : ptrIn;
  return loadElements(op, ptr, mask, other);
}

Error Program::loadElements(Operation &op, const Tensor &ptr,
                            const Tensor *mask, const Tensor *other) {
  Expected<Tensor> r = freshLike(op.getResult(0), ptr);
  if (!r)
    return r.takeError();
  if (Error err = readElements(op, ptr, mask, other, *r))
    return err;
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::readElements(Operation &op, const Tensor &ptr,
                            const Tensor *mask, const Tensor *other,
                            Tensor &r) {
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  for (int64_t e = 0, n = ptr.numel(); e < n; ++e) {
    if (maskedOff(mask, e)) {
      if (other)
        copyElem(r, e, *other, other->shape.empty() ? 0 : e);
      continue;
    }
    uint8_t *where = locate(ptr, e, size);
    if (!where)
      return badAccess(op, ptr, e, size);
    int32_t w = global.otherStorer(ptr.i[e], size, linearPid);
    if (w >= 0)
      return raceUB(op, "load-race", ptr, e, w, "is read, but");
    setFromBits(r, e, loadBits(where, size), k);
  }
  return Error::success();
}

Error Program::execStore(Operation &op, const OpHandler &) {
  auto store = cast<triton::StoreOp>(op);
  const Tensor &ptrIn = get(op.getOperand(0));
  const Tensor &val = get(store.getValue());
  const Tensor *mask = store.getMask() ? &get(store.getMask()) : nullptr;
  BlockAccess block;
  if (ptrIn.type.blockPtr) {
    block = expandBlockPointer(
        ptrIn, op.getOperand(1).getType(),
        op.getAttrOfType<DenseI32ArrayAttr>("boundaryCheck"));
    mask = &block.inside; // out-of-bounds elements are not written
  }
  const Tensor &ptr = ptrIn.type.blockPtr ? block.pointers : ptrIn;
  return storeElements(op, ptr, mask, val);
}

Error Program::storeElements(Operation &op, const Tensor &ptr,
                             const Tensor *mask, const Tensor &val) {
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  uint32_t serial = global.beginStore(linearPid);
  for (int64_t e = 0, n = ptr.numel(); e < n; ++e) {
    if (maskedOff(mask, e))
      continue;
    uint8_t *where = locate(ptr, e, size);
    if (!where)
      return badAccess(op, ptr, e, size);
    uint64_t bits = bitsOf(val, e, k);
    if (Error err = checkPendingSource(op, ptr, e, size, where, bits))
      return err;
    int32_t w = -1;
    switch (
        global.recordStore(ptr.i[e], where, bits, size, serial, linearPid, w)) {
    case GlobalMemory::Clash::None:
      break;
    case GlobalMemory::Clash::SameStore:
      return ub(&op, "store-conflict",
                "another element of this store wrote different data at "
                "address 0x" +
                    llvm::Twine::utohexstr(ptr.i[e]),
                &ptr, e);
    case GlobalMemory::Clash::OtherProgram:
      return raceUB(op, "store-race", ptr, e, w, "gets different data, but");
    case GlobalMemory::Clash::NoShadow:
      return plainError("out of memory for the race shadow of a buffer");
    }
    storeBits(where, bits, size);
  }
  return Error::success();
}

// tt.make_tensor_descriptor: the base address, the array's sizes and
// strides (elements), and the padding loads read outside it.
Error Program::execMakeTensorDesc(Operation &op, const OpHandler &) {
  auto mk = cast<triton::MakeTensorDescOp>(op);
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  r->shape.clear();
  r->i = {get(mk.getBase()).i[0]};
  for (Value v : mk.getShape())
    r->bpShape.push_back(sext(get(v).i[0], 32));
  for (Value v : mk.getStrides())
    r->bpStrides.push_back(sext(get(v).i[0], 64));
  r->padNan = mk.getPadding() == triton::PaddingOption::PAD_NAN;
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

// tt.descriptor_load / tt.descriptor_store: the block at the indices, the
// elements outside the array read as the padding and not written; inside,
// the rules of tt.load / tt.store (bounds of the buffer, races).
Error Program::execDescriptorAccess(Operation &op, const OpHandler &h) {
  bool isLoad = h.kind == OpKind::DescriptorLoad;
  Value descValue = op.getOperand(0);
  const Tensor &desc = get(descValue);
  auto descType = cast<triton::TensorDescType>(descValue.getType());
  Value value = isLoad ? op.getResult(0) : op.getOperand(1);
  auto indices = isLoad ? cast<triton::DescriptorLoadOp>(op).getIndices()
                        : cast<triton::DescriptorStoreOp>(op).getIndices();
  Index start;
  for (Value v : indices)
    start.push_back(sext(get(v).i[0], 32));
  Expected<BlockAccess> block =
      expandDescriptor(desc, descType.getBlockType().getShape(),
                       shapeOf(value.getType()), start);
  if (!block)
    return plainError(locString(&op) + ": " + toString(block.takeError()));
  if (!isLoad)
    return storeElements(op, block->pointers, &block->inside, get(value));
  Tensor pad;
  if (isFloatKind(desc.type.pointee)) {
    pad.type.kind = ElemType::Float;
    pad.f = {desc.padNan ? std::numeric_limits<double>::quiet_NaN() : 0.0};
  } else {
    pad.i = {0};
  }
  return loadElements(op, block->pointers, &block->inside, &pad);
}

// tt.atomic_rmw, tt.atomic_cas: applied element by element in row-major
// order, program by program.
Error Program::execAtomic(Operation &op, const OpHandler &h) {
  const Tensor &ptr = get(op.getOperand(0));
  if (ptr.type.blockPtr)
    return unsupported(&op, "block pointers only in tt.load / tt.store");
  bool cas = h.kind == OpKind::AtomicCAS;
  const Tensor &val = get(op.getOperand(cas ? 2 : 1));
  const Tensor *cmp = cas ? &get(op.getOperand(1)) : nullptr;
  const Tensor *mask =
      !cas && op.getNumOperands() > 2 ? &get(op.getOperand(2)) : nullptr;
  triton::RMWOp rmw = triton::RMWOp::XCHG;
  if (!cas)
    rmw = cast<triton::AtomicRMWOp>(op).getAtomicRmwOp();
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  Expected<Tensor> r = freshLike(op.getResult(0), ptr);
  if (!r)
    return r.takeError();
  for (int64_t e = 0, n = ptr.numel(); e < n; ++e) {
    if (maskedOff(mask, e))
      continue;
    uint8_t *where = locate(ptr, e, size);
    if (!where)
      return badAccess(op, ptr, e, size);
    uint64_t oldBits = loadBits(where, size);
    setFromBits(*r, e, oldBits, k);
    uint64_t newBits;
    if (cas) {
      bool eq = isFloatKind(k) ? floatFromBits(oldBits, k) == cmp->f[e]
                               : maskBits(oldBits, r->type.bits) == cmp->i[e];
      newBits = eq ? bitsOf(val, e, k) : oldBits;
    } else if (isFloatKind(k)) {
      double o = floatFromBits(oldBits, k), v = val.f[e], res;
      switch (rmw) {
      case triton::RMWOp::FADD:
        res = roundTo(r->type, o + v);
        break;
      case triton::RMWOp::MAX:
        res = std::fmax(o, v);
        break;
      case triton::RMWOp::MIN:
        res = std::fmin(o, v);
        break;
      case triton::RMWOp::XCHG:
        res = v;
        break;
      default:
        return unsupported(&op, "atomic " + triton::stringifyRMWOp(rmw) +
                                    " on floats");
      }
      newBits = bitsFromFloat(res, k);
    } else {
      unsigned bits = r->type.bits;
      uint64_t o = maskBits(oldBits, bits), v = val.i[e];
      int64_t so = sext(o, bits), sv = sext(v, bits);
      uint64_t res;
      switch (rmw) {
      case triton::RMWOp::UMAX:
        res = std::max(o, v);
        break;
      case triton::RMWOp::UMIN:
        res = std::min(o, v);
        break;
      case triton::RMWOp::MAX:
        res = uint64_t(std::max(so, sv));
        break;
      case triton::RMWOp::MIN:
        res = uint64_t(std::min(so, sv));
        break;
      case triton::RMWOp::ADD:
        res = o + v;
        break;
      case triton::RMWOp::AND:
        res = o & v;
        break;
      case triton::RMWOp::XOR:
        res = o ^ v;
        break;
      case triton::RMWOp::OR:
        res = o | v;
        break;
      case triton::RMWOp::XCHG:
        res = v;
        break;
      default:
        return unsupported(&op, "atomic " + triton::stringifyRMWOp(rmw));
      }
      newBits = maskBits(res, bits);
    }
    if (Error err = checkPendingSource(op, ptr, e, size, where, newBits))
      return err;
    storeBits(where, newBits, size);
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

} // namespace tgpu::cpu::detail
