// Tensor construction and shape ops, tt element-wise helpers, tt.print,
// tt.assert and tt.call.
#include "Program.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;

namespace tgpu::cpu::detail {

//===----------------------------------------------------------------------===//
// Tensor construction and shape ops
//===----------------------------------------------------------------------===//

Error Program::execTensor(Operation &op, llvm::StringRef name) {
  if (name == "tt.get_program_id" || name == "tt.get_num_programs") {
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    auto axis = op.getAttrOfType<IntegerAttr>("axis");
    int a = axis ? int(axis.getInt()) : 0;
    if (a < 0 || a > 2)
      return unsupported(&op, "axis out of range");
    r->i[0] = name == "tt.get_program_id" ? uint64_t(pid[a])
                                          : uint64_t(options.grid[a]);
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.make_range") {
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    int64_t start = op.getAttrOfType<IntegerAttr>("start").getInt();
    for (int64_t k = 0; k < r->numel(); ++k)
      r->i[k] = maskBits(uint64_t(start + k), r->type.bits);
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.splat") {
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
  if (name == "tt.unsplat") {
    set(op.getResult(0), scalarOf(get(op.getOperand(0)), 0));
    return Error::success();
  }
  if (name == "tt.expand_dims" || name == "tt.reshape" ||
      name == "ttg.convert_layout") {
    // Row-major data unchanged; only the shape changes.
    Tensor r = get(op.getOperand(0));
    r.shape = shapeOf(op.getResult(0).getType());
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.broadcast") {
    const Tensor &a = get(op.getOperand(0));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    int64_t n = r.numel();
    r.resize(n);
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
  if (name == "tt.trans") {
    const Tensor &a = get(op.getOperand(0));
    auto order = op.getAttrOfType<DenseI32ArrayAttr>("order");
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    int64_t n = r.numel();
    r.resize(n);
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
  if (name == "tt.join") {
    // A new minor dim of size 2: (lhs, rhs) interleaved.
    const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    r.resize(r.numel());
    for (int64_t k = 0; k < a.numel(); ++k) {
      copyElem(r, 2 * k, a, k);
      copyElem(r, 2 * k + 1, b, k);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.split") {
    const Tensor &a = get(op.getOperand(0));
    for (int half = 0; half < 2; ++half) {
      Tensor r;
      r.type = a.type;
      r.shape = shapeOf(op.getResult(half).getType());
      r.resize(r.numel());
      for (int64_t k = 0; k < r.numel(); ++k)
        copyElem(r, k, a, 2 * k + half);
      set(op.getResult(half), std::move(r));
    }
    return Error::success();
  }
  if (name == "tt.cat") {
    // Concatenation along dim 0.
    const Tensor &a = get(op.getOperand(0)), &b = get(op.getOperand(1));
    Tensor r;
    r.type = a.type;
    r.shape = shapeOf(op.getResult(0).getType());
    r.resize(r.numel());
    for (int64_t k = 0; k < a.numel(); ++k)
      copyElem(r, k, a, k);
    for (int64_t k = 0; k < b.numel(); ++k)
      copyElem(r, a.numel() + k, b, k);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.gather") {
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
  if (name == "tt.bitcast")
    return execBitcast(op);
  if (name == "tt.fp_to_fp") {
    const Tensor &a = get(op.getOperand(0));
    Expected<Tensor> r = freshLike(op.getResult(0), a);
    if (!r)
      return r.takeError();
    auto fp = cast<triton::FpToFpOp>(op);
    bool rtz = fp.getRounding() && *fp.getRounding() == triton::RoundingMode::RTZ;
    ScalarKind toK = kindOfFloat(r->type);
    for (int64_t k = 0; k < a.numel(); ++k) {
      double v = roundTo(r->type, a.f[k]);
      if (rtz && std::isfinite(a.f[k]) && std::fabs(v) > std::fabs(a.f[k])) {
        // Rounded away from zero: take the neighbour one ulp toward zero
        // (sign-magnitude bits: one less in magnitude).
        v = floatFromBits(bitsFromFloat(v, toK) - 1, toK);
      }
      r->f[k] = v;
    }
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  if (name == "tt.precise_sqrt" || name == "tt.precise_divf") {
    Tensor r = get(op.getOperand(0));
    for (int64_t k = 0; k < r.numel(); ++k)
      r.f[k] = roundTo(r.type, name == "tt.precise_sqrt"
                                   ? std::sqrt(r.f[k])
                                   : r.f[k] / get(op.getOperand(1)).f[k]);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.clampf") {
    Tensor r = get(op.getOperand(0));
    const Tensor &lo = get(op.getOperand(1)), &hi = get(op.getOperand(2));
    // propagateNan = all: a NaN input gives NaN; otherwise NaN is ignored
    // (maxNum/minNum).
    bool nanOut = cast<triton::ClampFOp>(op).getPropagateNan() ==
                  triton::PropagateNan::ALL;
    for (int64_t k = 0; k < r.numel(); ++k) {
      double x = r.f[k];
      r.f[k] = nanOut && std::isnan(x)
                   ? x
                   : std::fmin(std::fmax(x, lo.f[lo.shape.empty() ? 0 : k]),
                               hi.f[hi.shape.empty() ? 0 : k]);
    }
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.mulhiui") {
    Tensor r = get(op.getOperand(0));
    const Tensor &b = get(op.getOperand(1));
    for (int64_t k = 0; k < r.numel(); ++k)
      r.i[k] = maskBits(uint64_t((unsigned __int128)r.i[k] * b.i[k] >> r.type.bits),
                        r.type.bits);
    set(op.getResult(0), std::move(r));
    return Error::success();
  }
  if (name == "tt.print") {
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
  if (name == "tt.assert") {
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
  if (name == "tt.call") {
    auto callee = op.getAttrOfType<FlatSymbolRefAttr>("callee");
    auto fn = module.lookupSymbol<triton::FuncOp>(callee.getValue());
    if (!fn)
      return unsupported(&op, "callee not found");
    std::vector<Tensor> args;
    for (Value v : op.getOperands())
      args.push_back(get(v));
    Expected<std::vector<Tensor>> r = call(fn, std::move(args));
    if (!r)
      return r.takeError();
    for (auto [v, t] : llvm::zip(op.getResults(), *r))
      set(v, std::move(t));
    return Error::success();
  }
  if (name == "tt.extern_elementwise")
    return execExtern(op);
  if (name == "tt.elementwise_inline_asm")
    return execInlineAsm(op);
  if (name == "tt.histogram") {
    // Counts of the (masked-on) values in [0, bins); others are not counted.
    const Tensor &src = get(op.getOperand(0));
    const Tensor *mask = op.getNumOperands() > 1 ? &get(op.getOperand(1)) : nullptr;
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
  if (name == "ub.poison") {
    // A value the program must not rely on: zeros, so runs stay
    // deterministic.
    Expected<Tensor> r = fresh(op.getResult(0));
    if (!r)
      return r.takeError();
    set(op.getResult(0), std::move(*r));
    return Error::success();
  }
  return unsupported(&op);
}

} // namespace tgpu::cpu::detail
