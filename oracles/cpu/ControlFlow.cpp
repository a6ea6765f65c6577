// Control flow: scf.for, scf.while and scf.if run their regions with
// runRegion (cf branches inside a region are followed there); tt.call runs
// the callee's body.
#include "oracles/cpu/Program.h"

using namespace mlir;

namespace tgpu::cpu::detail {

Error Program::execFor(Operation &forOp, const OpHandler &) {
  auto op = cast<scf::ForOp>(forOp);
  const Tensor &lb = get(op.getLowerBound()), &upper = get(op.getUpperBound()),
               &st = get(op.getStep());
  unsigned bits = lb.type.bits;
  int64_t lo = sext(lb.i[0], bits), hi = sext(upper.i[0], bits),
          step = sext(st.i[0], bits);
  if (step <= 0)
    return ub(&forOp, "non-positive-step",
              "scf.for step is " + llvm::Twine(step) + "; it must be positive");
  std::vector<Tensor> carried;
  for (Value v : op.getInitArgs())
    carried.push_back(get(v));
  for (int64_t iv = lo; iv < hi; iv += step) {
    Tensor ivT;
    ivT.type = lb.type;
    ivT.i = {maskBits(uint64_t(iv), bits)};
    std::vector<Tensor> args{ivT};
    args.insert(args.end(), carried.begin(), carried.end());
    Expected<std::vector<Tensor>> r =
        runRegion(op.getRegion(), std::move(args));
    if (!r)
      return r.takeError();
    carried = std::move(*r);
  }
  for (auto [res, v] : llvm::zip(op.getResults(), carried))
    set(res, std::move(v));
  return Error::success();
}

Error Program::execWhile(Operation &whileOp, const OpHandler &) {
  auto op = cast<scf::WhileOp>(whileOp);
  std::vector<Tensor> args;
  for (Value v : op.getInits())
    args.push_back(get(v));
  for (;;) {
    Expected<std::vector<Tensor>> before = runRegion(op.getBefore(), args);
    if (!before)
      return before.takeError();
    // scf.condition(%cond) %values...
    bool go = (*before)[0].i[0] & 1;
    std::vector<Tensor> values(before->begin() + 1, before->end());
    if (!go) {
      for (auto [res, v] : llvm::zip(op.getResults(), values))
        set(res, std::move(v));
      return Error::success();
    }
    Expected<std::vector<Tensor>> after = runRegion(op.getAfter(), values);
    if (!after)
      return after.takeError();
    args = std::move(*after);
  }
}

Error Program::execIf(Operation &ifOp, const OpHandler &) {
  auto op = cast<scf::IfOp>(ifOp);
  bool cond = get(op.getCondition()).i[0] & 1;
  Region &r = cond ? op.getThenRegion() : op.getElseRegion();
  if (r.empty())
    return Error::success();
  Expected<std::vector<Tensor>> res = runRegion(r, {});
  if (!res)
    return res.takeError();
  for (auto [v, t] : llvm::zip(op.getResults(), *res))
    set(v, std::move(t));
  return Error::success();
}

Error Program::execCall(Operation &op, const OpHandler &) {
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

} // namespace tgpu::cpu::detail
