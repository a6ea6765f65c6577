// The TTIR program generator's skeleton: constants and the pool of live
// values, the kernel's program id and slab base, the dispatch over op
// families by the policy's weights, the choice of outputs, and the module
// text with its launch spec. The families themselves are in Gen*.cpp
// (ProgramGenState.h lists them).
#include "fuzz/generator/ProgramGenState.h"
#include "oracles/cpu/RunArgs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace tgpu::gen::detail {

// Hex literal of a float constant: exact for every type.
static std::string floatLiteral(double v, Elem e) {
  char buf[64];
  if (e == Elem::F64) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    std::snprintf(buf, sizeof buf, "0x%016llX", (unsigned long long)bits);
  } else if (e == Elem::F32) {
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    std::snprintf(buf, sizeof buf, "0x%08X", bits);
  } else if (e == Elem::BF16) {
    // The generator's constants have at most 8 significant bits, so the
    // upper half of the f32 is the bf16 exactly.
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    std::snprintf(buf, sizeof buf, "0x%04X", unsigned(bits >> 16));
  } else {
    _Float16 h = static_cast<_Float16>(v);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    std::snprintf(buf, sizeof buf, "0x%04X", unsigned(bits));
  }
  return buf;
}

Val ProgramGen::constInt(int64_t value, const VType &t) {
  std::string lit = t.elem == Elem::I1 ? (value ? "true" : "false")
                                       : std::to_string(value);
  // A scalar i1 constant prints as `true`/`false` alone.
  std::string rhs = t.shape.empty()
                        ? "arith.constant " + lit +
                              (t.elem == Elem::I1 ? "" : " : " + typeStr(t))
                        : "arith.constant dense<" + lit + "> : " + typeStr(t);
  Val v = emitValue(rhs, t);
  v.lo = v.hi = value;
  v.isConst = true;
  return v;
}

Val ProgramGen::constFloat(double value, const VType &t) {
  std::string lit = floatLiteral(value, t.elem);
  std::string rhs = t.shape.empty()
                        ? "arith.constant " + lit + " : " + typeStr(t)
                        : "arith.constant dense<" + lit + "> : " + typeStr(t);
  Val v = emitValue(rhs, t);
  v.bound = std::fabs(value);
  v.isConst = true;
  return v;
}

Val ProgramGen::splatOf(const Val &scalar, const Shape &shape) {
  VType t = scalar.type;
  t.shape = shape;
  Val v = emitValue("tt.splat " + scalar.name + " : " + typeStr(scalar.type) +
                        " -> " + typeStr(t),
                    t);
  v.lo = scalar.lo, v.hi = scalar.hi, v.bound = scalar.bound,
  v.err = scalar.err, v.isConst = scalar.isConst;
  return v;
}

// A pool value satisfying `pred`: half the time among the 6 most recent
// (deep expression chains), otherwise any.
Val *ProgramGen::pick(const std::function<bool(const Val &)> &pred) {
  std::vector<size_t> ok;
  for (size_t i = 0; i < pool.size(); ++i)
    if (!pool[i].type.isPtr && pred(pool[i]))
      ok.push_back(i);
  if (ok.empty())
    return nullptr;
  size_t k = src.coin() ? ok.size() - 1 - src.below(std::min<size_t>(6, ok.size()))
                        : src.below(ok.size());
  Val *v = &pool[ok[k]];
  ++v->uses;
  return v;
}

// A value of exactly type `t`: from the pool, else built (a load, a splat of
// a scalar, a cast of a same-shaped value, or a constant).
Val ProgramGen::materialize(const VType &t) {
  if (!src.chance(1, 5))
    if (Val *v = pick([&](const Val &v) { return v.type == t; }))
      return *v;
  if (t.shape.empty()) {
    if (Val *v = pick([&](const Val &v) {
          return v.type.shape.empty() && isFloat(v.type.elem) == isFloat(t.elem);
        }))
      if (v->type.elem != t.elem)
        return castTo(*v, t.elem);
    return isFloat(t.elem) ? constFloat(double(src.range(-16, 16)) / 4, t)
                           : constInt(t.elem == Elem::I1 ? src.range(0, 1)
                                                         : src.range(-8, 8),
                                      t);
  }
  switch (src.below(4)) {
  case 0:
    if (t.elem != Elem::I1 && t.elem != Elem::I16 && t.elem != Elem::I64) {
      Val off = offsetsInSlab(t.shape, false, slab);
      Val ptrs = pointersInto(inputBuffer(t.elem), off, true);
      Val v = emitValue("tt.load " + ptrs.name + " : " + typeStr(ptrs.type), t);
      v.lo = t.elem == Elem::I1 ? 0 : -8;
      v.hi = t.elem == Elem::I1 ? 1 : 7;
      v.bound = 1;
      return add(v);
    }
    break;
  case 1:
    if (Val *s = pick([&](const Val &v) {
          return v.type.shape.empty() && v.type.elem == t.elem;
        }))
      return add(splatOf(*s, t.shape));
    break;
  case 2:
    if (Val *s = pick([&](const Val &v) {
          return v.type.shape == t.shape && v.type.elem != t.elem &&
                 (isStable(v) || isFloat(t.elem));
        }))
      return add(castTo(*s, t.elem));
    break;
  default:
    break;
  }
  if (isFloat(t.elem))
    return constFloat(double(src.range(-16, 16)) / 4, t);
  if (t.elem == Elem::I1)
    return constInt(src.range(0, 1), t);
  return constInt(src.range(-8, 8), t);
}

Shape ProgramGen::randomShape(unsigned minRank) {
  unsigned rank = unsigned(src.range(minRank, std::max(minRank, pol.maxRank)));
  // Total size 2^[4, max], split over the dims.
  unsigned total = unsigned(src.range(std::min(4u, pol.maxLog2Numel), pol.maxLog2Numel));
  Shape s(rank, 1);
  for (unsigned i = 0; i < total; ++i)
    s[src.below(rank)] *= 2;
  return s;
}

Shape ProgramGen::pickShape() {
  if (src.chance(3, 4))
    if (Val *v = pick([](const Val &v) { return !v.type.shape.empty(); }))
      return v->type.shape;
  return randomShape();
}

void ProgramGen::genStep(unsigned depth) {
  unsigned weights[] = {pol.wIntArith, pol.wFloatArith, pol.wMath,   pol.wCompare,
                        pol.wCast,     pol.wView,       pol.wLoad,   pol.wReduce,
                        pol.wScan,     pol.wDot,        pol.wAtomic, pol.wFor,
                        pol.wIf,       pol.wWhile,      pol.wPermute};
  switch (src.weighted(weights)) {
  case 0: genIntArith(); break;
  case 1: genFloatArith(); break;
  case 2: genMath(); break;
  case 3: genCompare(); break;
  case 4: genCast(); break;
  case 5: genView(); break;
  case 6: genLoad(); break;
  case 7: genReduce(); break;
  case 8: genScan(); break;
  case 9: genDot(); break;
  case 10: genAtomic(); break;
  case 11: genFor(depth); break;
  case 12: genIf(depth); break;
  case 13: genWhile(depth); break;
  case 14: genPermute(); break;
  }
}

GeneratedProgram ProgramGen::run() {
  gridX = src.range(1, 3);
  gridY = src.chance(1, 4) ? 2 : 1;
  programs = gridX * gridY;
  slab = int64_t(1) << pol.maxLog2Numel;
  nValue = src.range(0, slab);

  VType i32{Elem::I32, {}};
  Arg nA;
  nA.name = "%n";
  nA.decl = "%n: i32";
  nA.launch = "i32=" + std::to_string(nValue);
  args.push_back(nA);

  // pid = pid_y * num_programs_x + pid_x; slabBase = pid * S.
  Val px = emitValue("tt.get_program_id x : i32", i32);
  if (gridY > 1) {
    Val py = emitValue("tt.get_program_id y : i32", i32);
    Val nx = emitValue("tt.get_num_programs x : i32", i32);
    Val t = binary("arith.muli", py, nx, i32);
    pid = binary("arith.addi", t, px, i32);
  } else {
    pid = px;
  }
  pid.lo = 0, pid.hi = programs - 1;
  add(pid);
  Val s = constInt(slab, i32);
  slabBase = binary("arith.muli", pid, s, i32);
  slabBase.lo = 0, slabBase.hi = (programs - 1) * slab;
  nArg.name = "%n";
  nArg.type = i32;
  nArg.lo = nArg.hi = nValue;
  add(nArg);

  genLoad();
  // The program's own length, at most the policy's (swarm testing: short
  // programs are cheap and most bugs need few ops; long ones still come).
  unsigned steps = unsigned(src.range(std::max(1u, pol.maxOps / 4), pol.maxOps));
  for (unsigned i = 0; i < steps && numOps < pol.maxOps * 8; ++i)
    genStep(0);

  // Outputs: the latest unused values first (they end the longest chains),
  // then any.
  std::vector<size_t> candidates;
  for (size_t i = pool.size(); i-- > 0;)
    if (!pool[i].type.isPtr && !pool[i].isConst && pool[i].name != nArg.name &&
        pool[i].name != pid.name && numel(pool[i].type.shape) <= slab)
      candidates.push_back(i);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](size_t a, size_t b) { return pool[a].uses < pool[b].uses; });
  unsigned nOut = unsigned(src.range(1, std::max(1u, pol.maxOutputs)));
  std::vector<Val> stored;
  for (size_t i = 0; i < candidates.size() && stored.size() < nOut; ++i)
    stored.push_back(pool[candidates[i]]);
  if (stored.empty())
    stored.push_back(pid);
  for (const Val &v : stored)
    storeOutput(v);
  line("tt.return");

  GeneratedProgram out;
  cpu::LaunchSpec spec;
  spec.grid = {gridX, gridY, 1};
  spec.numWarps = 4;
  spec.numStages = pol.numStages ? int(pol.numStages) : int(1 + src.below(4));
  unsigned arch = pol.arch ? pol.arch : (src.coin() ? 80u : 90u);
  spec.arch = arch == 80 ? "sm_80" : "sm_90";
  for (const Arg &a : args)
    spec.args.push_back(a.launch);
  out.launch = spec.str();
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i)
    sig += (i ? ", " : "") + args[i].decl;
  out.ttir = "module attributes {" + std::string(kLaunchAttrName) + " = \"" +
             out.launch + "\"} {\n  tt.func public @kernel(" + sig + ") {\n" +
             body + "  }\n}\n";
  out.outputs = outputs;
  out.numOps = numOps;
  return out;
}

} // namespace tgpu::gen::detail

namespace tgpu::gen {

GeneratedProgram generateProgram(ByteSource &src, const GenPolicy &policy) {
  GenPolicy drawn = policy.swarm ? drawSwarmPolicy(src, policy) : policy;
  detail::ProgramGen gen(src, drawn);
  return gen.run();
}

std::string launchOf(mlir::ModuleOp module) {
  if (auto s = module->getAttrOfType<mlir::StringAttr>(kLaunchAttrName))
    return s.getValue().str();
  return "";
}

} // namespace tgpu::gen
