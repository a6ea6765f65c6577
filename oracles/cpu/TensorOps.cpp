// Tensor construction and shape ops: program ids, make_range, splat,
// reshapes and layout conversions (data unchanged), broadcast, trans, join,
// split, cat, gather, histogram; and tt.print, tt.assert, ub.poison.
#include "oracles/cpu/Program.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tgpu::cpu::detail {

// tt.get_program_id, tt.get_num_programs.
Error Program::execProgramId(Operation &op, const OpHandler &h) {
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  auto axis = op.getAttrOfType<IntegerAttr>("axis");
  int a = axis ? int(axis.getInt()) : 0;
  if (a < 0 || a > 2)
    return unsupported(&op, "axis out of range");
  r->i[0] = h.kind == OpKind::ProgramId ? uint64_t(pid[a])
                                        : uint64_t(options.grid[a]);
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execMakeRange(Operation &op, const OpHandler &) {
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  int64_t start = op.getAttrOfType<IntegerAttr>("start").getInt();
  for (int64_t k = 0; k < r->numel(); ++k)
    r->i[k] = maskBits(uint64_t(start + k), r->type.bits);
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execSplat(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0));
  Tensor r;
  r.type = a.type;
  r.shape = shapeOf(op.getResult(0).getType());
  int64_t n = r.numel();
  if (a.type.isFloat())
    r.f.assign(n, a.f[0]);
  else
    r.i.assign(n, a.i[0]);
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execUnsplat(Operation &op, const OpHandler &) {
  set(op.getResult(0), scalarOf(get(op.getOperand(0)), 0));
  return Error::success();
}

// tt.expand_dims, tt.reshape, ttg.convert_layout.
Error Program::execReshape(Operation &op, const OpHandler &) {
  // Row-major data unchanged; only the shape changes.
  Tensor r = get(op.getOperand(0));
  r.shape = shapeOf(op.getResult(0).getType());
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execBroadcast(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0));
  Tensor r = zerosLike(a, op.getResult(0));
  int64_t n = r.numel();
  IndexWalker walk(r.shape);
  for (int64_t k = 0; k < n; ++k, walk.next()) {
    llvm::ArrayRef<int64_t> idx = walk.get();
    int64_t src = 0;
    for (size_t d = 0; d < a.shape.size(); ++d)
      src = src * a.shape[d] + (a.shape[d] == 1 ? 0 : idx[d]);
    copyElem(r, k, a, src);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execTrans(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0));
  auto order = op.getAttrOfType<DenseI32ArrayAttr>("order");
  Tensor r = zerosLike(a, op.getResult(0));
  int64_t n = r.numel();
  IndexWalker walk(r.shape);
  for (int64_t k = 0; k < n; ++k, walk.next()) {
    llvm::ArrayRef<int64_t> idx = walk.get();
    Index srcIdx(a.shape.size());
    for (size_t d = 0; d < idx.size(); ++d)
      srcIdx[order[d]] = idx[d];
    int64_t src = 0;
    for (size_t d = 0; d < a.shape.size(); ++d)
      src = src * a.shape[d] + srcIdx[d];
    copyElem(r, k, a, src);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execJoin(Operation &op, const OpHandler &) {
  // A new minor dim of size 2: (lhs, rhs) interleaved.
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  Tensor r = zerosLike(a, op.getResult(0));
  for (int64_t k = 0; k < a.numel(); ++k) {
    copyElem(r, 2 * k, a, k);
    copyElem(r, 2 * k + 1, b, k);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execSplit(Operation &op, const OpHandler &) {
  const Tensor &a = get(op.getOperand(0));
  for (int half = 0; half < 2; ++half) {
    Tensor r = zerosLike(a, op.getResult(half));
    for (int64_t k = 0; k < r.numel(); ++k)
      copyElem(r, k, a, 2 * k + half);
    set(op.getResult(half), std::move(r));
  }
  return Error::success();
}

Error Program::execCat(Operation &op, const OpHandler &) {
  // Concatenation along dim 0.
  const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
  Tensor r = zerosLike(a, op.getResult(0));
  for (int64_t k = 0; k < a.numel(); ++k)
    copyElem(r, k, a, k);
  for (int64_t k = 0; k < b.numel(); ++k)
    copyElem(r, a.numel() + k, b, k);
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execGather(Operation &op, const OpHandler &) {
  const Tensor &src = get(op.getOperand(0)), &idx = get(op.getOperand(1));
  int axis = int(op.getAttrOfType<IntegerAttr>("axis").getInt());
  Tensor r;
  r.type = src.type;
  r.shape = idx.shape;
  r.resize(r.numel());
  for (int64_t k = 0; k < r.numel(); ++k) {
    Index at = unravel(k, idx.shape);
    int64_t g = sext(idx.i[k], idx.type.bits);
    if (g < 0 || g >= src.shape[axis])
      return ub(&op, "index-out-of-range",
                "gather index " + llvm::Twine(g) + " outside dim of size " +
                    llvm::Twine(src.shape[axis]),
                &idx, k);
    at[axis] = g;
    int64_t flat = 0;
    for (size_t d = 0; d < at.size(); ++d)
      flat = flat * src.shape[d] + at[d];
    copyElem(r, k, src, flat);
  }
  set(op.getResult(0), std::move(r));
  return Error::success();
}

Error Program::execHistogram(Operation &op, const OpHandler &) {
  // Counts of the (masked-on) values in [0, bins); others are not counted.
  const Tensor &src = get(op.getOperand(0));
  const Tensor *mask =
      op.getNumOperands() > 1 ? &get(op.getOperand(1)) : nullptr;
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  int64_t bins = r->numel();
  for (int64_t k = 0; k < src.numel(); ++k) {
    if (mask && !(mask->i[k] & 1))
      continue;
    int64_t v = sext(src.i[k], src.type.bits);
    if (v >= 0 && v < bins)
      r->i[v] = maskBits(r->i[v] + 1, r->type.bits);
  }
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

Error Program::execPrint(Operation &op, const OpHandler &) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "pid (" << pid[0] << ", " << pid[1] << ", " << pid[2] << ")";
  if (auto prefix = op.getAttrOfType<StringAttr>("prefix"))
    os << prefix.getValue();
  for (Value v : op.getOperands()) {
    const Tensor &t = get(v);
    for (int64_t k = 0; k < t.numel(); ++k) {
      os << (k ? ", " : " ");
      if (t.type.isFloat())
        os << llvm::format("%g", t.f[k]);
      else
        os << sext(t.i[k], t.type.bits);
    }
  }
  if (options.print)
    options.print(s + "\n");
  else
    llvm::outs() << s << "\n";
  return Error::success();
}

Error Program::execAssert(Operation &op, const OpHandler &) {
  const Tensor &c = get(op.getOperand(0));
  for (int64_t k = 0; k < c.numel(); ++k)
    if (!(c.i[k] & 1)) {
      auto msg = op.getAttrOfType<StringAttr>("message");
      return ub(&op, "assertion-failed",
                "device assertion failed: " +
                    (msg ? msg.getValue() : llvm::StringRef("")),
                &c, k);
    }
  return Error::success();
}

Error Program::execPoison(Operation &op, const OpHandler &) {
  // A value the program must not rely on: zeros, so runs stay
  // deterministic.
  Expected<Tensor> r = fresh(op.getResult(0));
  if (!r)
    return r.takeError();
  set(op.getResult(0), std::move(*r));
  return Error::success();
}

} // namespace tgpu::cpu::detail
