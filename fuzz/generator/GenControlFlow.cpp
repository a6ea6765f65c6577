// Control flow of the program generator: scf.for and scf.while with bounded
// constant trip counts and carried values, and scf.if yielding values. Their
// bodies are more generation steps, one nesting level deeper.
#include "fuzz/generator/ProgramGenState.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace tgpu::gen::detail {

// Loop-carried values (0-2 from the pool), then the trip count (at least
// minTrips) and the bounds: scf.for and scf.while draw them alike.
ProgramGen::LoopDraw ProgramGen::drawLoop(int64_t minTrips) {
  LoopDraw d;
  unsigned nCarried = unsigned(src.range(0, 2));
  for (unsigned i = 0; i < nCarried; ++i)
    if (Val *v = pick([](const Val &v) { return v.type.elem != Elem::I1; }))
      d.inits.push_back(*v);
  d.trips = src.range(minTrips, pol.maxTripCount);
  d.lb = src.range(-2, 2), d.step = src.range(1, 3);
  VType i32{Elem::I32, {}};
  d.lbv = constInt(d.lb, i32);
  d.ubv = constInt(d.lb + d.trips * d.step, i32);
  d.stv = constInt(d.step, i32);
  return d;
}

// A carried value as the body sees it, added to the pool: integers may wrap
// over iterations (any value of the type); floats keep a bound that yields
// are clamped to, and gather error per iteration.
Val ProgramGen::carriedInBody(const Val &init, const std::string &name,
                              int64_t trips) {
  Val c = init;
  c.name = name;
  c.isConst = false;
  if (!isFloat(c.type.elem)) {
    c.lo = typeMin(c.type.elem), c.hi = typeMax(c.type.elem);
  } else {
    c.bound = std::max(1.0, std::min(c.bound, 64.0));
    c.err =
        init.err * double(trips + 1) + 64 * epsOf(c.type.elem) * double(trips);
  }
  add(c);
  return c;
}

// The value yielded for a carried one: of its type, within its bound.
std::string ProgramGen::yieldValue(const Val &carried) {
  Val y = materialize(carried.type);
  if (isFloat(y.type.elem) && y.bound > carried.bound)
    y = clampFloat(y, -carried.bound, carried.bound);
  return y.name;
}

void ProgramGen::genFor(unsigned depth) {
  if (depth >= pol.maxDepth) {
    genFloatArith();
    return;
  }
  LoopDraw loop = drawLoop(1);
  const std::vector<Val> &inits = loop.inits;
  int64_t trips = loop.trips, lb = loop.lb, step = loop.step;
  const Val &lbv = loop.lbv, &ubv = loop.ubv, &stv = loop.stv;
  VType i32{Elem::I32, {}};
  std::string iv = fresh("iv");
  std::vector<std::string> resNames, argNames;
  std::string head;
  for (size_t i = 0; i < inits.size(); ++i) {
    resNames.push_back(fresh());
    argNames.push_back(fresh("it"));
  }
  std::string types;
  for (size_t i = 0; i < inits.size(); ++i)
    types += (i ? ", " : "") + typeStr(inits[i].type);
  if (!inits.empty()) {
    head = llvm::join(resNames, ", ") + " = ";
  }
  head += "scf.for " + iv + " = " + lbv.name + " to " + ubv.name + " step " +
          stv.name;
  if (!inits.empty()) {
    head += " iter_args(";
    for (size_t i = 0; i < inits.size(); ++i)
      head += (i ? ", " : "") + argNames[i] + " = " + inits[i].name;
    head += ") -> (" + types + ")";
  }
  head += " : i32 {";
  line(head);
  ++indent;
  size_t mark = pool.size();
  Val ivv;
  ivv.name = iv, ivv.type = i32, ivv.lo = lb, ivv.hi = lb + (trips - 1) * step;
  add(ivv);
  std::vector<Val> carried;
  for (size_t i = 0; i < inits.size(); ++i)
    carried.push_back(carriedInBody(inits[i], argNames[i], trips));
  unsigned steps = unsigned(src.range(1, 5));
  for (unsigned i = 0; i < steps; ++i)
    genStep(depth + 1);
  std::vector<std::string> yields;
  for (const Val &c : carried)
    yields.push_back(yieldValue(c));
  if (!yields.empty())
    line("scf.yield " + llvm::join(yields, ", ") + " : " + types);
  pool.resize(mark);
  --indent;
  line("}");
  for (size_t i = 0; i < carried.size(); ++i) {
    Val r = carried[i];
    r.name = resNames[i];
    // The init when the loop runs zero times never happens (trips >= 1), but
    // the bound must also cover it.
    r.bound = std::max(r.bound, inits[i].bound);
    add(r);
  }
}

void ProgramGen::genIf(unsigned depth) {
  if (depth >= pol.maxDepth) {
    genIntArith();
    return;
  }
  // A scalar condition: pid, n, or a scalar from the pool.
  Val cond;
  VType i1{Elem::I1, {}};
  VType i32{Elem::I32, {}};
  if (Val *c = pick([&](const Val &v) { return v.type == i1; })) {
    cond = *c;
  } else {
    Val k = constInt(src.range(0, 3), i32);
    static const char *preds[] = {"eq", "ne", "slt", "sgt"};
    cond = add(emitValue(std::string("arith.cmpi ") + preds[src.below(4)] +
                             ", " + (src.coin() ? pid.name : nArg.name) + ", " +
                             k.name + " : i32",
                         i1));
    cond.lo = 0, cond.hi = 1;
  }
  std::vector<VType> types;
  unsigned nres = unsigned(src.range(0, 2));
  for (unsigned i = 0; i < nres; ++i)
    if (Val *v = pick([](const Val &v) { return true; }))
      types.push_back(v->type);
  std::vector<std::string> names;
  std::string tys;
  for (size_t i = 0; i < types.size(); ++i) {
    names.push_back(fresh());
    tys += (i ? ", " : "") + typeStr(types[i]);
  }
  std::string head = names.empty() ? "" : llvm::join(names, ", ") + " = ";
  head += "scf.if " + cond.name;
  if (!types.empty())
    head += " -> (" + tys + ")";
  head += " {";
  line(head);
  std::vector<Val> results(types.size());
  for (unsigned branch = 0; branch < 2; ++branch) {
    if (branch == 1) {
      if (types.empty() && src.coin()) {
        // no else region
        break;
      }
      body += std::string(2 * (indent), ' ') + "} else {\n";
    }
    ++indent;
    size_t mark = pool.size();
    unsigned steps = unsigned(src.range(1, 4));
    for (unsigned i = 0; i < steps; ++i)
      genStep(depth + 1);
    std::vector<std::string> ys;
    for (size_t i = 0; i < types.size(); ++i) {
      Val y = materialize(types[i]);
      ys.push_back(y.name);
      if (branch == 0) {
        results[i] = y;
      } else {
        Val &r = results[i];
        r.lo = std::min(r.lo, y.lo), r.hi = std::max(r.hi, y.hi);
        r.bound = std::max(r.bound, y.bound), r.err = std::max(r.err, y.err);
        r.isConst = false;
      }
    }
    if (!ys.empty())
      line("scf.yield " + llvm::join(ys, ", ") + " : " + tys);
    pool.resize(mark);
    --indent;
  }
  line("}");
  for (size_t i = 0; i < types.size(); ++i) {
    Val r = results[i];
    r.name = names[i];
    r.type = types[i];
    r.uses = 0;
    // The condition may be a perturbed compare on the GPU only when gpuSafe
    // is off; then either branch's value is acceptable for the CPU oracle.
    add(r);
  }
}

// scf.while counting an i32 from lb by step while it is below ub (0 to
// maxTripCount trips), carrying 0-2 values from the pool like genFor.
void ProgramGen::genWhile(unsigned depth) {
  if (depth >= pol.maxDepth) {
    genIntArith();
    return;
  }
  LoopDraw loop = drawLoop(0);
  const std::vector<Val> &inits = loop.inits;
  int64_t trips = loop.trips, lb = loop.lb, step = loop.step;
  const Val &lbv = loop.lbv, &ubv = loop.ubv, &stv = loop.stv;
  VType i32{Elem::I32, {}};
  std::string types = "i32";
  for (const Val &v : inits)
    types += ", " + typeStr(v.type);
  // Names: results, the before region's arguments, the after region's.
  std::vector<std::string> res, before, after;
  for (size_t i = 0; i <= inits.size(); ++i) {
    res.push_back(fresh());
    before.push_back(fresh("w"));
    after.push_back(fresh("d"));
  }
  std::string head =
      llvm::join(res, ", ") + " = scf.while (" + before[0] + " = " + lbv.name;
  for (size_t i = 0; i < inits.size(); ++i)
    head += ", " + before[i + 1] + " = " + inits[i].name;
  line(head + ") : (" + types + ") -> (" + types + ") {");
  ++indent;
  std::string c = fresh();
  line(c + " = arith.cmpi slt, " + before[0] + ", " + ubv.name + " : i32");
  line("scf.condition(" + c + ") " + llvm::join(before, ", ") + " : " + types);
  --indent;
  line("} do {");
  ++indent;
  std::string header = "^bb0(" + after[0] + ": i32";
  for (size_t i = 0; i < inits.size(); ++i)
    header += ", " + after[i + 1] + ": " + typeStr(inits[i].type);
  body += std::string(2 * (indent - 1), ' ') + header + "):\n";
  size_t mark = pool.size();
  Val counter;
  counter.name = after[0], counter.type = i32, counter.lo = lb,
  counter.hi = lb + std::max<int64_t>(0, trips - 1) * step;
  add(counter);
  std::vector<Val> carried;
  for (size_t i = 0; i < inits.size(); ++i)
    carried.push_back(carriedInBody(inits[i], after[i + 1], trips));
  unsigned steps = unsigned(src.range(1, 4));
  for (unsigned i = 0; i < steps; ++i)
    genStep(depth + 1);
  std::string next = fresh();
  line(next + " = arith.addi " + after[0] + ", " + stv.name + " : i32");
  std::vector<std::string> yields = {next};
  for (const Val &c : carried)
    yields.push_back(yieldValue(c));
  line("scf.yield " + llvm::join(yields, ", ") + " : " + types);
  pool.resize(mark);
  --indent;
  line("}");
  Val count;
  count.name = res[0], count.type = i32;
  count.lo = count.hi = lb + trips * step;
  add(count);
  for (size_t i = 0; i < carried.size(); ++i) {
    Val r = carried[i];
    r.name = res[i + 1];
    r.bound = std::max(r.bound, inits[i].bound); // zero trips: the init
    r.err = std::max(r.err, inits[i].err);
    add(r);
  }
}

} // namespace tgpu::gen::detail
