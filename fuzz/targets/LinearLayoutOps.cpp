// The operations of fuzz_linear_layout's Run: each draws its arguments from
// the input bytes, runs the library and the model (LinearLayoutModel.h) and
// checks the result and the operation's laws.
#include "fuzz/targets/LinearLayoutRun.h"

#include <algorithm>

using namespace tgpu::layout;
using llvm::Expected;

namespace tgpu::fuzz::llfuzz {

// create(bases, outDims, requireSurjective) or create(bases, outDimNames)
// (sizes inferred: the smallest power of two above every coordinate, and
// the layout must be onto them), sometimes with a defect.
void Run::opCreate(bool inferSizes) {
  op = inferSizes ? "create-inferred" : "create";
  operands({});
  Model m = src.coin() ? randomModel(3, 4) : randomSurjectiveOnRandomOuts(3, 4);
  bool requireSurjective = inferSizes || src.coin();
  std::vector<LinearLayout::DimBases> bases = basesOf(m);
  std::vector<LinearLayout::NamedSize> outs = outDimsOf(m);
  MaybeModel want = inferSizes ? llmodel::withInferredOutSizes(m) : m;
  std::string why;
  if (requireSurjective && llmodel::rank(*want) != want->outBits()) {
    want.reset();
    why = "not surjective";
  }
  // A defect the library must refuse.
  if (src.chance(1, 6)) {
    int kind = src.below(7);
    std::vector<LinearLayout::Basis> *dimBases =
        bases.empty() ? nullptr : &bases[src.below(bases.size())].second;
    if (kind == 0 && dimBases && !dimBases->empty() && m.nOut > 0) {
      int k = src.below(m.nOut);
      (*dimBases)[src.below(dimBases->size())][k] =
          src.coin() && !inferSizes ? outs[k].second : -1;
      want.reset();
      why = "coordinate outside its dim";
    } else if (kind == 1 && dimBases && !dimBases->empty()) {
      LinearLayout::Basis &basis = (*dimBases)[src.below(dimBases->size())];
      if (src.coin() || basis.empty())
        basis.push_back(0);
      else
        basis.pop_back();
      want.reset();
      why = "basis with the wrong arity";
    } else if (kind == 2 && m.nOut > 0 && !inferSizes) {
      static const int32_t bad[] = {0, 3, -2, 12};
      outs[src.below(m.nOut)].second = bad[src.below(4)];
      want.reset();
      why = "out size not a power of two";
    } else if (kind == 3 && bases.size() >= 2) {
      bases[1].first = bases[0].first;
      want.reset();
      why = "duplicate in dim";
    } else if (kind == 4 && outs.size() >= 2) {
      outs[1].first = outs[0].first;
      want.reset();
      why = "duplicate out dim";
    } else if (kind == 5) {
      std::vector<LinearLayout::Basis> many(64, LinearLayout::Basis(m.nOut, 0));
      bases.push_back({"lots", std::move(many)});
      want.reset();
      why = "more than 63 bits";
    } else if (kind == 6) {
      // One in dim of 2^31 elements (sizes are int32).
      std::vector<LinearLayout::Basis> many(31, LinearLayout::Basis(m.nOut, 0));
      bases.push_back({"lots", std::move(many)});
      want.reset();
      why = "an in dim larger than 2^30";
    }
  }
  if (inferSizes) {
    std::vector<std::string> names;
    for (auto &o : outs)
      names.push_back(o.first);
    keep(check(LinearLayout::create(bases, names), want, why));
  } else {
    keep(
        check(LinearLayout::create(bases, outs, requireSurjective), want, why));
  }
}

// identity1D / zeros1D / strided1D, with good and bad sizes.
void Run::opFactory() {
  operands({});
  uint8_t names[2];
  randomDistinctNames(2, names);
  uint8_t in = names[0], out = src.coin() ? names[1] : names[0];
  int32_t size = randomSize(8);
  int ls = llmodel::log2OfPow2(size);
  Model m;
  m.nIn = m.nOut = 1;
  MaybeModel want;
  std::string why = "sizes not powers of two or too large";
  switch (src.below(3)) {
  case 0:
    op = "identity1D";
    if (ls >= 0 && ls <= kMaxDimLog2) {
      m.in[0] = {in, uint8_t(ls)};
      m.out[0] = {out, uint8_t(ls)};
      for (int b = 0; b < ls; ++b)
        m.setCoord(b, 0, uint32_t(1) << b);
      want = m;
    }
    keep(check(LinearLayout::identity1D(size, kNames[in], kNames[out]), want,
               why));
    return;
  case 1: {
    op = "zeros1D";
    int32_t outSize = src.coin() ? 1 : randomSize(6);
    int lo = llmodel::log2OfPow2(outSize);
    if (ls >= 0 && lo >= 0) {
      m.in[0] = {in, uint8_t(ls)};
      m.out[0] = {out, uint8_t(lo)};
      want = m;
    }
    keep(check(LinearLayout::zeros1D(size, kNames[in], kNames[out], outSize),
               want, why));
    return;
  }
  default: {
    op = "strided1D";
    int32_t stride = randomSize(6);
    int lst = llmodel::log2OfPow2(stride);
    if (ls >= 0 && lst >= 0 && ls + lst <= kMaxDimLog2) {
      m.in[0] = {in, uint8_t(ls)};
      m.out[0] = {out, uint8_t(ls + lst)};
      for (int b = 0; b < ls; ++b)
        m.setCoord(b, 0, uint32_t(stride) << b);
      want = m;
    }
    keep(check(LinearLayout::strided1D(size, stride, kNames[in], kNames[out]),
               want, why));
    return;
  }
  }
}

void Run::opProduct() {
  op = "product";
  Entry &a = pick();
  Entry b = src.coin() ? pick() : fresh(randomModel(3, 3));
  operands({&a, &b});
  std::string why;
  MaybeModel want = llmodel::product(a.model, b.model, why);
  std::optional<Entry> r = check(a.lib * b.lib, want, why);
  if (!r || failed())
    return;
  // Associativity with a third factor: (a * b) * c and a * (b * c) are the
  // same map. The dim orders may differ (the merge of name lists is not
  // associative, so one side may even fail), so compare after transposing.
  if (src.chance(1, 4)) {
    Entry &c = pick();
    operands({&a, &b, &c});
    Expected<LinearLayout> left = r->lib * c.lib;
    Expected<LinearLayout> bc = b.lib * c.lib;
    Expected<LinearLayout> right =
        bc ? a.lib * *bc : Expected<LinearLayout>(bc.takeError());
    if (left && right) {
      Expected<LinearLayout> rt = right->transposeIns(left->getInDimNames());
      Expected<LinearLayout> rto =
          rt ? rt->transposeOuts(left->getOutDimNames())
             : Expected<LinearLayout>(rt.takeError());
      if (!rto)
        report("law",
               "(a * b) * c and a * (b * c) have different dims: " +
                   llvm::toString(rto.takeError()),
               "");
      else if (*left != *rto)
        report("law", "product is not associative",
               "(a*b)*c:" + left->toString() +
                   "\na*(b*c):" + right->toString());
    }
    if (!left)
      llvm::consumeError(left.takeError());
    if (!right)
      llvm::consumeError(right.takeError());
  }
  keep(std::move(r));
}

// compose: mostly with an outer layout built on this layout's outs.
void Run::opCompose() {
  op = "compose";
  Entry &t = pick();
  Entry outer;
  if (src.chance(3, 4)) {
    // outer's ins: t's outs shuffled, sometimes larger or smaller, sometimes
    // one missing or one extra (distinct names, so outer itself is valid).
    Model o;
    NameList ins = randomOrder(t.model.outNames(), false);
    if (src.chance(1, 10) && !ins.empty())
      ins.pop_back();
    else if (src.chance(1, 10)) {
      uint8_t n = randomName();
      if (!llvm::is_contained(ins, n))
        ins.push_back(n);
    }
    o.nIn = ins.size();
    for (size_t a = 0; a < ins.size(); ++a) {
      int k = t.model.findOut(ins[a]);
      int l = k >= 0 ? t.model.out[k].log2 : 2;
      if (src.chance(1, 4))
        l += 1;
      else if (src.chance(1, 10))
        l -= 1;
      o.in[a] = {ins[a], uint8_t(std::clamp(l, 0, 12))};
    }
    o.nOut = src.below(4);
    uint8_t names[kMaxDims];
    randomDistinctNames(o.nOut, names);
    for (int k = 0; k < o.nOut; ++k)
      o.out[k] = {names[k], uint8_t(src.below(5))};
    for (int j = 0, n = o.inBits(); j < n; ++j)
      for (int k = 0; k < o.nOut; ++k)
        o.setCoord(j, k, uint32_t(src.below(uint64_t(1) << o.out[k].log2)));
    outer = fresh(o);
  } else {
    outer = pick();
  }
  operands({&t, &outer});
  std::string why;
  MaybeModel want = llmodel::compose(t.model, outer.model, why);
  std::optional<Entry> r = check(t.lib.compose(outer.lib), want, why);
  if (!r || failed())
    return;
  // Associativity: (t ∘ outer) ∘ c == t ∘ (outer ∘ c) for a c on outer's outs.
  if (src.chance(1, 3)) {
    Model c;
    c.nIn = outer.model.nOut;
    std::copy(outer.model.out, outer.model.out + c.nIn, c.in);
    std::reverse(c.in, c.in + c.nIn);
    c.nOut = 1 + src.below(2);
    uint8_t names[kMaxDims];
    randomDistinctNames(c.nOut, names);
    for (int k = 0; k < c.nOut; ++k)
      c.out[k] = {names[k], uint8_t(src.below(4))};
    for (int j = 0, n = c.inBits(); j < n; ++j)
      for (int k = 0; k < c.nOut; ++k)
        c.setCoord(j, k, uint32_t(src.below(uint64_t(1) << c.out[k].log2)));
    LinearLayout cl = toLibrary(c);
    Expected<LinearLayout> left = r->lib.compose(cl);
    Expected<LinearLayout> oc = outer.lib.compose(cl);
    if (left && oc) {
      Expected<LinearLayout> right = t.lib.compose(*oc);
      if (!right)
        report("rejected-valid",
               "t.compose(outer.compose(c)) failed: " +
                   llvm::toString(right.takeError()),
               "c:" + cl.toString());
      else if (*left != *right)
        report("law", "compose is not associative", "c:" + cl.toString());
    } else if (!failed()) {
      report("rejected-valid", "composing with a matching c failed",
             "c:" + cl.toString());
    }
    if (!left)
      llvm::consumeError(left.takeError());
    if (!oc)
      llvm::consumeError(oc.takeError());
  }
  keep(std::move(r));
}

// invert and pseudoinvert, with their laws.
void Run::opInvert() {
  Entry *e = &pick();
  Entry made;
  if (src.coin()) {
    // A surjective layout, square half of the time.
    Dim outs[3];
    int no = 1 + src.below(3);
    uint8_t names[kMaxDims];
    randomDistinctNames(no, names);
    for (int k = 0; k < no; ++k)
      outs[k] = {names[k], uint8_t(src.below(4))};
    made = fresh(
        randomSurjective({outs, size_t(no)}, src.coin() ? 0 : src.below(3)));
    e = &made;
  }
  operands({e});
  std::string why;
  if (src.coin()) {
    op = "invert";
    MaybeModel want = llmodel::invert(e->model, why);
    std::optional<Entry> r = check(e->lib.invert(), want, why);
    if (!r || failed())
      return;
    // L⁻¹ ∘ L = id on L's ins, and (L⁻¹)⁻¹ = L.
    Expected<LinearLayout> round = e->lib.compose(r->lib);
    if (!round) {
      report("rejected-valid",
             "L.compose(L.invert()) failed: " +
                 llvm::toString(round.takeError()),
             "");
      return;
    }
    for (int s = 0; s < 8; ++s) {
      uint64_t x = randomInput(e->model.inBits());
      if (round->applyFlat(x) != x) {
        report("law", "invert(L)(L(x)) != x", "x = " + std::to_string(x));
        return;
      }
    }
    Expected<LinearLayout> twice = r->lib.invert();
    if (!twice)
      report("rejected-valid",
             "invert of an inverse failed: " +
                 llvm::toString(twice.takeError()),
             "");
    else if (*twice != e->lib)
      report("law", "invert(invert(L)) != L", twice->toString());
    keep(std::move(r));
  } else {
    op = "pseudoinvert";
    MaybeModel want = llmodel::pseudoinvert(e->model, why);
    std::optional<Entry> r = check(e->lib.pseudoinvert(), want, why);
    if (!r || failed())
      return;
    // L(P(y)) = y.
    Expected<LinearLayout> round = r->lib.compose(e->lib);
    if (!round) {
      report("rejected-valid",
             "P.compose(L) failed: " + llvm::toString(round.takeError()), "");
      return;
    }
    for (int s = 0; s < 8; ++s) {
      uint64_t y = randomInput(e->model.outBits());
      if (round->applyFlat(y) != y) {
        report("law", "L(pseudoinvert(L)(y)) != y", "y = " + std::to_string(y));
        return;
      }
    }
    keep(std::move(r));
  }
}

// invertAndCompose: mostly with an outer layout onto this layout's outs.
void Run::opInvertAndCompose() {
  op = "invertAndCompose";
  Entry &t = pick();
  Entry outer;
  if (src.chance(3, 4)) {
    // outer: onto t's out dims (maybe reordered, maybe larger or smaller),
    // sometimes sharing an in dim of t with the same bases (Triton's
    // identity-dim shortcut).
    llvm::SmallVector<Dim, kMaxDims> outs;
    for (uint8_t n : randomOrder(t.model.outNames(), false)) {
      int l = t.model.out[t.model.findOut(n)].log2;
      if (src.chance(1, 4))
        l += 1;
      else if (src.chance(1, 8) && l > 0)
        l -= 1;
      outs.push_back({n, uint8_t(l)});
    }
    Model o = randomSurjective(outs, src.below(3));
    if (src.coin() && t.model.nIn > 0) {
      int i = src.below(t.model.nIn);
      Model shared;
      shared.nIn = 1;
      shared.in[0] = t.model.in[i];
      shared.nOut = o.nOut;
      std::copy(o.out, o.out + o.nOut, shared.out);
      bool fits = o.findIn(t.model.in[i].name) < 0;
      for (int bit = 0; bit < t.model.in[i].log2; ++bit)
        for (int k = 0; k < t.model.nOut; ++k) {
          int ko = o.findOut(t.model.out[k].name);
          uint32_t c = t.model.coord(t.model.inFirst(i) + bit, k);
          if (c >> o.out[ko].log2)
            fits = false;
          else
            shared.setCoord(bit, ko, c);
        }
      std::string w;
      if (fits)
        if (MaybeModel c = src.coin() ? llmodel::concatIns(shared, o, w)
                                      : llmodel::concatIns(o, shared, w))
          o = *c;
    }
    outer = fresh(o);
  } else {
    outer = pick();
  }
  operands({&t, &outer});
  std::string why;
  MaybeModel want = llmodel::invertAndCompose(t.model, outer.model, why);
  std::optional<Entry> r = check(t.lib.invertAndCompose(outer.lib), want, why);
  if (!r || failed())
    return;
  // outer(C(x)) = t(x) (sampled).
  Expected<LinearLayout> round = r->lib.compose(outer.lib);
  if (!round) {
    report("rejected-valid",
           "C.compose(outer) failed: " + llvm::toString(round.takeError()), "");
    return;
  }
  for (int s = 0; s < 8; ++s) {
    uint64_t x = randomInput(t.model.inBits());
    uint64_t want1 = t.model.apply(x);
    std::vector<int32_t> got = round->unpackOut(round->applyFlat(x));
    for (int k = 0; k < t.model.nOut; ++k) {
      int ko = round->findOut(kNames[t.model.out[k].name]);
      if (ko < 0 || uint32_t(got[ko]) != t.model.outCoord(want1, k)) {
        report("law", "outer(invertAndCompose(outer)(x)) != this(x)",
               "C:" + r->lib.toString());
        return;
      }
    }
  }
  keep(std::move(r));
}

void Run::opTranspose() {
  Entry &e = pick();
  operands({&e});
  bool ins = src.coin();
  op = ins ? "transposeIns" : "transposeOuts";
  auto order = randomOrder(ins ? e.model.inNames() : e.model.outNames(), true);
  std::vector<std::string> names;
  for (uint8_t n : order)
    names.push_back(kNames[n]);
  std::string why;
  MaybeModel want = ins ? llmodel::transposeIns(e.model, order, why)
                        : llmodel::transposeOuts(e.model, order, why);
  std::optional<Entry> r = check(
      ins ? e.lib.transposeIns(names) : e.lib.transposeOuts(names), want, why);
  if (!r || failed())
    return;
  // Transposing back gives the layout again.
  Expected<LinearLayout> back =
      ins ? r->lib.transposeIns(e.lib.getInDimNames())
          : r->lib.transposeOuts(e.lib.getOutDimNames());
  if (!back || *back != e.lib)
    report("law", "transposing back does not restore the layout", "");
  if (!back)
    llvm::consumeError(back.takeError());
  keep(std::move(r));
}

void Run::opReshape() {
  Entry &e = pick();
  operands({&e});
  bool ins = src.coin();
  op = ins ? "reshapeIns" : "reshapeOuts";
  int total = ins ? e.model.inBits() : e.model.outBits();
  // Split the bits over 0..3 new dims (random names), sometimes wrongly.
  llvm::SmallVector<NewDim, 4> dims;
  int nd = total ? 1 + src.below(3) : src.below(2);
  uint8_t names[kMaxDims];
  randomDistinctNames(nd, names);
  int left = total;
  for (int a = 0; a < nd; ++a) {
    int l = a + 1 == nd ? left : int(src.below(left + 1));
    left -= l;
    if (l > kMaxDimLog2)
      return; // not expressible with int32 sizes
    dims.push_back({names[a], int32_t(1) << l});
  }
  if (src.chance(1, 8) && !dims.empty()) {
    switch (src.below(3)) {
    case 0: {
      NewDim &d = dims[src.below(dims.size())];
      d.size = d.size < (1 << 30) ? d.size * 2 : d.size / 2;
      break;
    }
    case 1:
      dims[src.below(dims.size())].size = 3;
      break;
    default:
      dims.push_back(dims[0]);
      break;
    }
  }
  std::vector<LinearLayout::NamedSize> arg;
  for (const NewDim &d : dims)
    arg.push_back({kNames[d.name], d.size});
  std::string why;
  MaybeModel want = ins ? llmodel::reshapeIns(e.model, dims, why)
                        : llmodel::reshapeOuts(e.model, dims, why);
  std::optional<Entry> r =
      check(ins ? e.lib.reshapeIns(arg) : e.lib.reshapeOuts(arg), want, why);
  if (!r || failed())
    return;
  // Reshaping back restores the layout.
  Expected<LinearLayout> back = ins ? r->lib.reshapeIns(e.lib.getInDims())
                                    : r->lib.reshapeOuts(e.lib.getOutDims());
  if (!back || *back != e.lib)
    report("law", "reshaping back does not restore the layout", "");
  if (!back)
    llvm::consumeError(back.takeError());
  keep(std::move(r));
}

void Run::opFlatten() {
  Entry &e = pick();
  operands({&e});
  bool ins = src.coin();
  op = ins ? "flattenIns" : "flattenOuts";
  // flatten has no error channel: only ask when the result fits in int32.
  int total = ins ? e.model.inBits() : e.model.outBits();
  if (total > kMaxDimLog2)
    return;
  keep(compare(ins ? e.lib.flattenIns() : e.lib.flattenOuts(),
               ins ? llmodel::flattenIns(e.model)
                   : llmodel::flattenOuts(e.model)));
}

void Run::opSublayout() {
  op = "sublayout";
  Entry &e = pick();
  operands({&e});
  // A random subset of each side in a random order, sometimes an unknown or
  // repeated name.
  auto subset = [&](llvm::ArrayRef<uint8_t> names) {
    NameList r;
    for (uint8_t n : names)
      if (src.coin())
        r.push_back(n);
    for (size_t i = 0; i + 1 < r.size(); ++i)
      std::swap(r[i], r[i + src.below(r.size() - i)]);
    if (src.chance(1, 10))
      r.push_back(src.coin() && !r.empty() ? r[0] : randomName());
    return r;
  };
  auto ins = subset(e.model.inNames()), outs = subset(e.model.outNames());
  std::vector<std::string> inArg, outArg;
  for (uint8_t n : ins)
    inArg.push_back(kNames[n]);
  for (uint8_t n : outs)
    outArg.push_back(kNames[n]);
  std::string why;
  MaybeModel want = llmodel::sublayout(e.model, ins, outs, why);
  std::optional<Entry> r = check(e.lib.sublayout(inArg, outArg), want, why);
  if (r && !failed()) {
    // sublayoutIsZero on the same dims.
    if (e.lib.sublayoutIsZero(inArg, outArg) !=
        llmodel::sublayoutIsZero(e.model, ins, outs))
      report("law", "sublayoutIsZero disagrees with the sublayout", "");
  }
  keep(std::move(r));
}

void Run::opResize() {
  Entry &e = pick();
  operands({&e});
  std::string why;
  bool ins = src.coin();
  op = ins ? "resizeInDim" : "resizeOutDim";
  int n = ins ? e.model.nIn : e.model.nOut;
  uint8_t name = n && !src.chance(1, 10)
                     ? (ins ? e.model.in : e.model.out)[src.below(n)].name
                     : randomName();
  int32_t size = randomSize(6);
  MaybeModel want = ins ? llmodel::resizeInDim(e.model, name, size, why)
                        : llmodel::resizeOutDim(e.model, name, size, why);
  keep(check(ins ? e.lib.resizeInDim(kNames[name], size)
                 : e.lib.resizeOutDim(kNames[name], size),
             want, why));
}

// shrinkOutDims on layouts whose components are mostly powers of two (as in
// distributed layouts).
void Run::opShrink() {
  op = "shrinkOutDims";
  Entry e;
  if (src.coin()) {
    e = pick();
  } else {
    Dim outs[3];
    int no = 1 + src.below(3);
    uint8_t names[kMaxDims];
    randomDistinctNames(no, names);
    for (int k = 0; k < no; ++k)
      outs[k] = {names[k], uint8_t(src.below(5))};
    Model m = randomSurjective({outs, size_t(no)}, src.below(3));
    // Mostly single-bit components again (undo the mixing).
    for (int j = 0, n = m.inBits(); j < n; ++j)
      for (int k = 0; k < m.nOut; ++k)
        if (uint32_t c = m.coord(j, k); (c & (c - 1)) && !src.chance(1, 8))
          m.setCoord(j, k, c & (0u - c));
    e = fresh(m);
  }
  operands({&e});
  llvm::SmallVector<NewDim, 4> shape;
  for (int k = 0; k < e.model.nOut; ++k)
    if (!src.chance(1, 5))
      shape.push_back({e.model.out[k].name,
                       src.chance(1, 16)
                           ? 3
                           : int32_t(1) << std::min<int>(
                                 src.below(e.model.out[k].log2 + 2), 30)});
  if (src.chance(1, 8) && !shape.empty())
    shape.push_back(shape[0]); // a repeated name: the last entry counts
  bool broadcastRegisters = src.coin();
  std::vector<LinearLayout::NamedSize> arg;
  for (const NewDim &d : shape)
    arg.push_back({kNames[d.name], d.size});
  std::string why;
  MaybeModel want =
      llmodel::shrinkOutDims(e.model, shape, broadcastRegisters, why);
  keep(check(e.lib.shrinkOutDims(arg, broadcastRegisters), want, why));
}

void Run::opConcat() {
  Entry &a = pick();
  Entry b;
  bool ins = src.coin();
  op = ins ? "concatIns" : "concatOuts";
  if (src.chance(3, 4)) {
    // A partner with matching outs (ins) and random names on the other side.
    Model m;
    uint8_t names[kMaxDims];
    if (ins) {
      m.nOut = a.model.nOut;
      std::copy(a.model.out, a.model.out + a.model.nOut, m.out);
      m.nIn = src.below(3);
      randomDistinctNames(m.nIn, names);
      for (int i = 0; i < m.nIn; ++i)
        m.in[i] = {names[i], uint8_t(src.below(4))};
    } else {
      m.nIn = a.model.nIn;
      std::copy(a.model.in, a.model.in + a.model.nIn, m.in);
      m.nOut = src.below(3);
      randomDistinctNames(m.nOut, names);
      for (int k = 0; k < m.nOut; ++k)
        m.out[k] = {names[k], uint8_t(src.below(4))};
    }
    for (int j = 0, n = m.inBits(); j < n; ++j)
      for (int k = 0; k < m.nOut; ++k)
        m.setCoord(j, k, uint32_t(src.below(uint64_t(1) << m.out[k].log2)));
    b = fresh(m);
  } else {
    b = pick();
  }
  operands({&a, &b});
  std::string why;
  MaybeModel want = ins ? llmodel::concatIns(a.model, b.model, why)
                        : llmodel::concatOuts(a.model, b.model, why);
  keep(
      check(ins ? a.lib.concatIns(b.lib) : a.lib.concatOuts(b.lib), want, why));
}

// divideLeft / divideRight, mostly of a product by one of its factors.
void Run::opDivide() {
  bool left = src.coin();
  op = left ? "divideLeft" : "divideRight";
  Entry a = pick();
  Entry b = pick();
  Entry A = a;
  if (src.chance(2, 3)) {
    std::string w;
    MaybeModel p = left ? llmodel::product(b.model, a.model, w)
                        : llmodel::product(a.model, b.model, w);
    if (p && p->inBits() <= kPoolBits && p->outBits() <= kPoolBits)
      A = fresh(*p);
  }
  operands({&A, &b});
  MaybeModel want = llmodel::divide(A.model, b.model, left);
  std::optional<LinearLayout> got =
      left ? divideLeft(A.lib, b.lib) : divideRight(A.lib, b.lib);
  std::optional<Entry> r = checkOptional(std::move(got), want);
  if (r && !failed()) {
    Expected<LinearLayout> back = left ? b.lib * r->lib : r->lib * b.lib;
    if (!back || *back != A.lib)
      report("law", "the quotient does not multiply back", "");
    if (!back)
      llvm::consumeError(back.takeError());
  }
  keep(std::move(r));
}

// quotient / isTrivialOver, on layouts that are often trivial over some dims
// (a product with an identity).
void Run::opQuotient() {
  op = "quotient";
  Entry e = pick();
  if (src.coin()) {
    uint8_t d = randomName();
    int l = src.below(4);
    Model id;
    id.nIn = id.nOut = 1;
    id.in[0] = id.out[0] = {d, uint8_t(l)};
    for (int b = 0; b < l; ++b)
      id.setCoord(b, 0, uint32_t(1) << b);
    std::string w;
    MaybeModel p = src.coin() ? llmodel::product(e.model, id, w)
                              : llmodel::product(id, e.model, w);
    if (p && p->inBits() <= kPoolBits && p->outBits() <= kPoolBits)
      e = fresh(*p);
  }
  operands({&e});
  NameList dims;
  for (int n = src.below(3); n > 0; --n)
    dims.push_back(src.coin() && e.model.nIn
                       ? e.model.in[src.below(e.model.nIn)].name
                       : randomName());
  std::vector<std::string> arg;
  for (uint8_t n : dims)
    arg.push_back(kNames[n]);
  bool trivial = llmodel::isTrivialOver(e.model, dims);
  if (e.lib.isTrivialOver(arg) != trivial) {
    report("law",
           std::string("isTrivialOver should be ") +
               (trivial ? "true" : "false"),
           "");
    return;
  }
  MaybeModel want = llmodel::quotient(e.model, dims);
  keep(checkOptional(e.lib.quotient(arg), want));
}

// Rank and friends, free variables, consecutive elements, repeated images,
// multi-bit bases, zero bases.
void Run::opQueries() {
  op = "rank";
  Entry &e = pick();
  operands({&e});
  const Model &m = e.model;
  int rank = m.inBits() <= llmodel::kCountingBits ? llmodel::rankByCounting(m)
                                                  : llmodel::rank(m);
  if (e.lib.rank() != rank || e.lib.isSurjective() != (rank == m.outBits()) ||
      e.lib.isInjective() != (rank == m.inBits()) ||
      e.lib.isInvertible() != (rank == m.outBits() && rank == m.inBits())) {
    report("law", "rank / isSurjective / isInjective / isInvertible",
           "model rank " + std::to_string(rank));
    return;
  }
  op = "getFreeVariableMasks";
  std::vector<std::pair<std::string, int32_t>> masks =
      e.lib.getFreeVariableMasks();
  if (int(masks.size()) != m.nIn) {
    report("law", "one mask per in dim", "");
    return;
  }
  llvm::SmallVector<int32_t, kMaxDims> want = llmodel::freeVariableMasks(m);
  for (int i = 0; i < m.nIn; ++i)
    if (masks[i].first != kNames[m.in[i].name] || masks[i].second != want[i]) {
      report("law", "free variable mask of " + kNames[m.in[i].name],
             "expected " + std::to_string(want[i]) + ", got " +
                 std::to_string(masks[i].second));
      return;
    }
  op = "getNumConsecutiveInOut";
  int consec = llmodel::numConsecutiveInOut(m);
  if (e.lib.getNumConsecutiveInOut() != consec) {
    report("law", "getNumConsecutiveInOut",
           "expected " + std::to_string(consec) + ", got " +
               std::to_string(e.lib.getNumConsecutiveInOut()));
    return;
  }
  op = "repeatsThroughNonZeroBases";
  if (e.lib.repeatsThroughNonZeroBases() !=
      llmodel::repeatsThroughNonZeroBases(m)) {
    report("law", "repeatsThroughNonZeroBases", "");
    return;
  }
  op = "hasMultiBitBasis";
  if (e.lib.hasMultiBitBasis() != llmodel::hasMultiBitBasis(m)) {
    report("law", "hasMultiBitBasis", "");
    return;
  }
  // Every value of each in dim small enough to list (up to 2^6).
  op = "getLowestSameImage";
  for (int i = 0; i < m.nIn; ++i) {
    if (m.in[i].log2 > 6)
      continue;
    std::vector<int32_t> got = e.lib.getLowestSameImage(kNames[m.in[i].name]);
    llvm::SmallVector<int32_t, 0> lowest = llmodel::lowestSameImage(m, i);
    if (!std::equal(got.begin(), got.end(), lowest.begin(), lowest.end())) {
      report("law", "getLowestSameImage of " + kNames[m.in[i].name], "");
      return;
    }
  }
  op = "removeZeroBasesAlongDim";
  uint8_t name =
      m.nIn && src.coin() ? m.in[src.below(m.nIn)].name : randomName();
  keep(compare(e.lib.removeZeroBasesAlongDim(kNames[name]),
               llmodel::removeZeroBasesAlongDim(m, name)));
}

void Run::opEquality() {
  op = "equality";
  Entry &a = pick();
  Entry &b = pick();
  operands({&a, &b});
  bool same = llmodel::sameModel(a.model, b.model);
  bool sameIgnoring =
      llmodel::sameModel(a.model, b.model, /*ignoreOutSizes=*/true);
  if ((a.lib == b.lib) != same || (a.lib != b.lib) == same ||
      a.lib.equalIgnoringOutDimSizes(b.lib) != sameIgnoring)
    report("law", "== / equalIgnoringOutDimSizes", "");
  else if (same && a.lib.hash() != b.lib.hash())
    report("law", "equal layouts with different hashes", "");
  // A copy through getBases() / getOutDims() and create() is the same layout.
  if (!failed() && src.chance(1, 4)) {
    Expected<LinearLayout> copy =
        LinearLayout::create(a.lib.getBases(), a.lib.getOutDims(), false);
    if (!copy)
      report("rejected-valid",
             "create from getBases() failed: " +
                 llvm::toString(copy.takeError()),
             "");
    else if (*copy != a.lib || copy->hash() != a.lib.hash())
      report("law", "create(getBases()) is a different layout", "");
  }
}

// toString in Triton's text (notes 13.4), written from the model.
void Run::opToString() {
  op = "toString";
  Entry &e = pick();
  operands({&e});
  std::string want = llmodel::tritonText(e.model);
  std::string got = e.lib.toString();
  if (got != want)
    report("law", "toString differs from Triton's format",
           "got:" + got + "\nexpected:" + want);
}

void Run::opSupremum() {
  op = "supremum";
  operands({});
  NameList x, y;
  uint8_t names[kMaxDims];
  int nx = src.below(5), ny = src.below(5);
  randomDistinctNames(nx, names);
  x.assign(names, names + nx);
  randomDistinctNames(ny, names);
  y.assign(names, names + ny);
  std::vector<std::string> xs, ys;
  for (uint8_t n : x)
    xs.push_back(kNames[n]);
  for (uint8_t n : y)
    ys.push_back(kNames[n]);
  auto want = llmodel::supremum(x, y);
  auto got = supremum(xs, ys);
  bool same = want.has_value() == got.has_value();
  if (same && want) {
    same = want->size() == got->size();
    for (size_t i = 0; same && i < want->size(); ++i)
      same = kNames[(*want)[i]] == (*got)[i];
  }
  if (!same) {
    std::string s = "x = [";
    for (auto &n : xs)
      s += n + " ";
    s += "], y = [";
    for (auto &n : ys)
      s += n + " ";
    report("law", "supremum differs from Triton's merge", s + "]");
  }
}

} // namespace tgpu::fuzz::llfuzz
