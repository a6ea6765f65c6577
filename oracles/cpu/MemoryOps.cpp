// Global memory: pointers (tt.addptr, block pointers) and the accesses
// through them (tt.load, tt.store, atomics), with their undefined behaviour
// (out of bounds, misaligned, races between programs).
#include "Program.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tgpu::cpu::detail {

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

Error Program::execMemory(Operation &op, llvm::StringRef name) {
  if (name == "tt.make_tensor_ptr") {
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
  if (name == "tt.advance") {
    Tensor r = get(op.getOperand(0));
    for (unsigned d = 1; d < op.getNumOperands() && d - 1 < r.bpOffsets.size(); ++d)
      r.bpOffsets[d - 1] += sext(get(op.getOperand(d)).i[0], 32);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.addptr") {
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
  if (name == "tt.int_to_ptr" || name == "tt.ptr_to_int") {
    Tensor r = get(op.getOperand(0));
    Expected<ElemType> t = elemTypeOf(op.getResult(0).getType());
    if (!t)
      return t.takeError();
    r.type = *t;
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  const Tensor &ptrIn = get(op.getOperand(0));
  // A block pointer becomes a tensor of element pointers plus, for the
  // boundary-checked dims, a mask of the elements inside the tensor.
  Tensor expanded, boundary;
  bool blockAccess = ptrIn.type.blockPtr;
  if (blockAccess) {
    if (name != "tt.load" && name != "tt.store")
      return unsupported(&op, "block pointers only in tt.load / tt.store");
    auto checked = op.getAttrOfType<DenseI32ArrayAttr>("boundaryCheck");
    Type valueType = name == "tt.load" ? op.getResult(0).getType()
                                       : op.getOperand(1).getType();
    expanded.type = ptrIn.type;
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
        int64_t c = ptrIn.bpOffsets[d] + idx[d];
        elems += c * ptrIn.bpStrides[d];
        if (checked && llvm::is_contained(checked.asArrayRef(), int32_t(d)) &&
            (c < 0 || c >= ptrIn.bpShape[d]))
          boundary.i[e] = 0;
      }
      expanded.i[e] = ptrIn.i[0] + uint64_t(elems) * byteSize(ptrIn.type.pointee);
    }
  }
  const Tensor &ptr = blockAccess ? expanded : ptrIn;
  ScalarKind k = ptr.type.pointee;
  unsigned size = byteSize(k);
  int64_t n = ptr.numel();
  auto access = [&](int64_t e, uint8_t *&where) -> Error {
    uint64_t addr = ptr.i[e];
    if (addr % size)
      return ub(&op, "misaligned-access",
                "address 0x" + llvm::Twine::utohexstr(addr) +
                    " is not aligned to " + llvm::Twine(size) + " bytes",
                &ptr, e);
    where = global.find(addr, size);
    if (!where)
      return ub(&op, "out-of-bounds",
                "address 0x" + llvm::Twine::utohexstr(addr) +
                    " is outside every buffer",
                &ptr, e);
    return Error::success();
  };
  auto toTensorValue = [&](Tensor &t, int64_t e, uint64_t bits) {
    if (isFloatKind(k))
      t.f[e] = floatFromBits(bits, k);
    else
      t.i[e] = maskBits(bits, t.type.bits);
  };
  auto fromTensorValue = [&](const Tensor &t, int64_t e) -> uint64_t {
    return isFloatKind(k) ? bitsFromFloat(t.f[e], k) : t.i[e];
  };
  // Races between programs through plain loads and stores (§6).
  auto raceError = [&](llvm::StringRef kind, int64_t e, int32_t other,
                       const char *what) {
    return ub(&op, kind,
              "address 0x" + llvm::Twine::utohexstr(ptr.i[e]) + " " + what +
                  " program " + llvm::Twine(other) +
                  " (programs in the x-fastest order) stored there",
              &ptr, e);
  };
  auto checkLoadRace = [&](int64_t e) -> Error {
    int32_t w = global.otherStorer(ptr.i[e], size, linearPid);
    if (w >= 0)
      return raceError("load-race", e, w, "is read, but");
    return Error::success();
  };
  auto checkStoreRace = [&](int64_t e, const uint8_t *where, uint64_t bits,
                            uint32_t serial) -> Error {
    int32_t w = -1;
    Expected<GlobalMemory::Clash> clash =
        global.recordStore(ptr.i[e], where, bits, size, serial, linearPid, w);
    if (!clash)
      return clash.takeError();
    if (*clash == GlobalMemory::Clash::SameStore)
      return ub(&op, "store-conflict",
                "another element of this store wrote different data at "
                "address 0x" + llvm::Twine::utohexstr(ptr.i[e]),
                &ptr, e);
    if (*clash == GlobalMemory::Clash::OtherProgram)
      return raceError("store-race", e, w, "gets different data, but");
    return Error::success();
  };

  if (name == "tt.load") {
    auto load = cast<triton::LoadOp>(op);
    const Tensor *mask = load.getMask() ? &get(load.getMask()) : nullptr;
    const Tensor *other = load.getOther() ? &get(load.getOther()) : nullptr;
    Tensor pad;
    if (blockAccess) {
      // Out-of-bounds elements read the padding: zero, or NaN with
      // padding = nan.
      mask = &boundary;
      Attribute padding = op.getAttr("padding");
      std::string text;
      if (padding) {
        llvm::raw_string_ostream os(text);
        padding.print(os);
      }
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
    Expected<Tensor> r = freshLike(op.getResult(0), ptr);
    if (!r)
      return r.takeError();
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1)) {
        if (other)
          copyElem(*r, e, *other, other->shape.empty() ? 0 : e);
        continue;
      }
      uint8_t *where;
      if (Error err = access(e, where))
        return err;
      if (Error err = checkLoadRace(e))
        return err;
      toTensorValue(*r, e, loadBits(where, size));
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.store") {
    auto store = cast<triton::StoreOp>(op);
    const Tensor &val = get(store.getValue());
    const Tensor *mask = store.getMask() ? &get(store.getMask()) : nullptr;
    if (blockAccess)
      mask = &boundary; // out-of-bounds elements are not written
    uint32_t serial = global.beginStore(linearPid);
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1))
        continue;
      uint8_t *where;
      if (Error err = access(e, where))
        return err;
      uint64_t bits = fromTensorValue(val, e);
      if (Error err = checkStoreRace(e, where, bits, serial))
        return err;
      storeBits(where, bits, size);
    }
    return Error::success();
  }
  if (name == "tt.atomic_rmw" || name == "tt.atomic_cas") {
    // Applied element by element in row-major order, program by program.
    bool cas = name == "tt.atomic_cas";
    const Tensor &val = get(op.getOperand(cas ? 2 : 1));
    const Tensor *cmp = cas ? &get(op.getOperand(1)) : nullptr;
    const Tensor *mask =
        !cas && op.getNumOperands() > 2 ? &get(op.getOperand(2)) : nullptr;
    std::string rmw;
    if (!cas)
      rmw = triton::stringifyRMWOp(cast<triton::AtomicRMWOp>(op).getAtomicRmwOp()).str();
    Expected<Tensor> r = freshLike(op.getResult(0), ptr);
    if (!r)
      return r.takeError();
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !(mask->i[mask->shape.empty() ? 0 : e] & 1))
        continue;
      uint8_t *where;
      if (Error err = access(e, where))
        return err;
      uint64_t oldBits = loadBits(where, size);
      toTensorValue(*r, e, oldBits);
      uint64_t newBits;
      if (cas) {
        bool eq = isFloatKind(k) ? floatFromBits(oldBits, k) == cmp->f[e]
                                 : maskBits(oldBits, r->type.bits) == cmp->i[e];
        newBits = eq ? fromTensorValue(val, e) : oldBits;
      } else if (isFloatKind(k)) {
        double o = floatFromBits(oldBits, k), v = val.f[e], res;
        llvm::StringRef m(rmw);
        if (m == "fadd")
          res = roundTo(r->type, o + v);
        else if (m == "max")
          res = std::fmax(o, v);
        else if (m == "min")
          res = std::fmin(o, v);
        else if (m == "exch")
          res = v;
        else
          return unsupported(&op, "atomic " + rmw + " on floats");
        newBits = bitsFromFloat(res, k);
      } else {
        unsigned bits = r->type.bits;
        uint64_t o = maskBits(oldBits, bits), v = val.i[e];
        llvm::StringRef m(rmw);
        int64_t so = sext(o, bits), sv = sext(v, bits);
        uint64_t res;
        if (m == "umax")
          res = std::max(o, v);
        else if (m == "umin")
          res = std::min(o, v);
        else if (m == "max")
          res = uint64_t(std::max(so, sv));
        else if (m == "min")
          res = uint64_t(std::min(so, sv));
        else if (m == "add")
          res = o + v;
        else if (m == "and")
          res = o & v;
        else if (m == "xor")
          res = o ^ v;
        else if (m == "or")
          res = o | v;
        else if (m == "exch")
          res = v;
        else
          return unsupported(&op, "atomic " + rmw);
        newBits = maskBits(res, bits);
      }
      storeBits(where, newBits, size);
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  return unsupported(&op);
}

} // namespace tgpu::cpu::detail
