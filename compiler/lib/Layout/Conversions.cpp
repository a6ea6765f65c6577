// Layout encodings -> LinearLayouts, reproducing Triton 3.6's bases for the
// same attribute and shape (the ordering of bases matters: it decides which
// register holds which element).
#include "tgpu/Layout/Encodings.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tgpu::layout;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::StringRef;
using NamedSize = LinearLayout::NamedSize;

#define TGPU_TRY(var, expr)                                                    \
  auto var##OrErr = (expr);                                                    \
  if (!var##OrErr)                                                             \
    return var##OrErr.takeError();                                             \
  auto var = std::move(*var##OrErr)

namespace {

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string dimName(unsigned d) { return "dim" + std::to_string(d); }

// Out dims in the order the non-zero bases of `inDims` (in that order) first
// move them, then the rest from the last dim down.
std::vector<unsigned> orderOfFirstMoves(const LinearLayout &l,
                                        ArrayRef<StringRef> inDims) {
  unsigned rank = l.getNumOutDims();
  std::vector<unsigned> order;
  for (StringRef in : inDims)
    for (int i = 0; i < l.getInDimSizeLog2(in); ++i) {
      LinearLayout::Basis b = l.getBasis(in, i);
      for (unsigned d = 0; d < rank; ++d)
        if (b[d] != 0 && !llvm::is_contained(order, d))
          order.push_back(d);
    }
  for (unsigned d = rank; d-- > 0;)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  return order;
}

std::string listStr(ArrayRef<unsigned> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string listStr(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// identity1D that, like Triton's integer-division callers, treats size 0
// as "nothing" (the empty layout).
Expected<LinearLayout> id1D(int64_t n, StringRef in, StringRef out) {
  if (n == 0)
    return LinearLayout::empty();
  if (n > (int64_t(1) << 30))
    return err("dimension of " + llvm::Twine(n) + " elements is too large");
  return LinearLayout::identity1D(int32_t(n), in, out);
}

Expected<LinearLayout> mul(const LinearLayout &a, Expected<LinearLayout> b) {
  if (!b)
    return b.takeError();
  return a * *b;
}

llvm::Error checkPermutation(ArrayRef<unsigned> order, unsigned rank,
                             StringRef what) {
  std::vector<bool> seen(rank, false);
  if (order.size() != rank)
    return err(what + " order " + listStr(order) + " has " +
               llvm::Twine(order.size()) + " entries; expected " +
               llvm::Twine(rank));
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return err(what + " order " + listStr(order) +
                 " is not a permutation of 0.." + llvm::Twine(rank - 1));
    seen[o] = true;
  }
  return llvm::Error::success();
}

llvm::Error checkPowersOfTwo(ArrayRef<unsigned> v, StringRef what) {
  for (unsigned x : v)
    if (log2IfPowerOf2(x) < 0)
      return err(what + " " + listStr(v) + " has an entry that is not a power "
                 "of two");
  return llvm::Error::success();
}

llvm::Error checkShape(ArrayRef<int64_t> shape) {
  for (int64_t s : shape) {
    if (log2IfPowerOf2(s) < 0)
      return err("tensor shape " + listStr(shape) +
                 " has a dimension that is not a power of two");
    if (s > (int64_t(1) << 30))
      return err("tensor shape " + listStr(shape) +
                 " has a dimension larger than 2^30");
  }
  return llvm::Error::success();
}

std::map<std::string, int32_t> byName(ArrayRef<int64_t> shape) {
  std::map<std::string, int32_t> m;
  for (unsigned d = 0; d < shape.size(); ++d)
    m[dimName(d)] = int32_t(shape[d]);
  return m;
}

// getMatrixOrder: [r-1, ..., 0], with the first two swapped unless row major.
std::vector<unsigned> matrixOrder(unsigned rank, bool rowMajor) {
  std::vector<unsigned> o;
  for (unsigned i = 0; i < rank; ++i)
    o.push_back(rank - 1 - i);
  if (!rowMajor && rank >= 2)
    std::swap(o[0], o[1]);
  return o;
}

std::vector<std::string> namesInOrder(ArrayRef<unsigned> order) {
  std::vector<std::string> n;
  for (unsigned d : order)
    n.push_back(dimName(d));
  return n;
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

std::vector<std::string> tgpu::layout::standardOutDimNames(unsigned rank) {
  std::vector<std::string> n;
  for (unsigned d = 0; d < rank; ++d)
    n.push_back(dimName(d));
  return n;
}

Expected<LinearLayout>
tgpu::layout::identityStandardND(StringRef inDim, ArrayRef<unsigned> shape,
                                 ArrayRef<unsigned> order) {
  if (llvm::Error e = checkPermutation(order, shape.size(), "layout"))
    return std::move(e);
  // The product of identity1D over `order`: out dims in that order, each
  // stepping through its own size.
  std::vector<LinearLayout::Basis> bases;
  std::vector<NamedSize> outs;
  for (size_t k = 0; k < order.size(); ++k) {
    unsigned size = shape[order[k]];
    if (log2IfPowerOf2(size) < 0)
      return err("layout size " + llvm::Twine(size) + " is not a power of two");
    for (unsigned v = 1; v < size; v *= 2) {
      LinearLayout::Basis b(order.size(), 0);
      b[k] = int32_t(v);
      bases.push_back(std::move(b));
    }
    outs.push_back({dimName(order[k]), int32_t(size)});
  }
  return LinearLayout::create({{inDim.str(), std::move(bases)}}, outs,
                              /*requireSurjective=*/false);
}

Expected<LinearLayout>
tgpu::layout::ensureLayoutNotSmallerThan(const LinearLayout &layout,
                                         ArrayRef<NamedSize> shape) {
  if (layout.getNumInDims() == 0)
    return layout;
  std::string kIn = layout.getInDimNames().front();
  LinearLayout l = layout;
  for (const std::string &d : layout.getOutDimNames()) {
    auto it = llvm::find_if(shape, [&](const NamedSize &s) { return s.first == d; });
    if (it == shape.end())
      continue;
    int64_t have = l.getOutDimSize(d), want = it->second;
    if (want <= have)
      continue;
    if (want % have)
      return err("cannot grow dimension '" + d + "' of size " +
                 llvm::Twine(have) + " to " + llvm::Twine(want));
    TGPU_TRY(p, mul(l, id1D(want / have, kIn, d)));
    l = std::move(p);
  }
  return l;
}

Expected<LinearLayout>
tgpu::layout::ensureLayoutNotLargerThan(const LinearLayout &layout,
                                        ArrayRef<NamedSize> shape,
                                        bool broadcastRegisters) {
  // Sizes are powers of two, so a larger size is always a multiple.
  return layout.shrinkOutDims(shape, broadcastRegisters);
}

namespace {
// The CGA layout: block -> dim0.., sizes from the bases.
Expected<LinearLayout> cgaLayout(const CGALayout &cga, unsigned rank) {
  for (const auto &b : cga.blockBases)
    if (b.size() != rank)
      return err("CGALayout entry length " + llvm::Twine(b.size()) +
                 " does not match rank " + llvm::Twine(rank));
  std::vector<LinearLayout::Basis> bases(cga.blockBases.begin(),
                                         cga.blockBases.end());
  return LinearLayout::create({{"block", bases}}, standardOutDimNames(rank));
}

// Tensor elements per CTA along each dim (Triton's getShapePerCTA with the
// CGA's split counts).
std::vector<int64_t> shapePerCTA(const CGALayout &cga, ArrayRef<int64_t> shape) {
  std::vector<int64_t> r(shape.begin(), shape.end());
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t split = 1;
    for (const auto &b : cga.blockBases)
      if (d < b.size() && b[d] != 0)
        split *= 2;
    r[d] = shape[d] / std::min(shape[d], split);
  }
  return r;
}
} // namespace

Expected<LinearLayout>
tgpu::layout::combineCtaCgaWithShape(LinearLayout cta, const CGALayout &cga,
                                     ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  if (unsigned(cta.getNumOutDims()) != rank)
    return err("layout has rank " + llvm::Twine(cta.getNumOutDims()) +
               " but the tensor has rank " + llvm::Twine(rank));
  std::map<std::string, int32_t> want = byName(shape);
  std::vector<NamedSize> shapeNamed;
  for (unsigned d = 0; d < rank; ++d)
    shapeNamed.push_back({dimName(d), int32_t(shape[d])});
  LinearLayout cgaL;
  if (cga.blockBases.empty()) {
    // One CTA: a block dim of size 1 onto dims of size 1.
    std::vector<NamedSize> ones;
    for (const std::string &d : cta.getOutDimNames())
      ones.push_back({d, 1});
    TGPU_TRY(l, LinearLayout::create({{"block", {}}}, ones, false));
    cgaL = std::move(l);
  } else {
    TGPU_TRY(cgaRaw, cgaLayout(cga, rank));
    TGPU_TRY(cgaFit, ensureLayoutNotLargerThan(cgaRaw, shapeNamed));
    TGPU_TRY(l, cgaFit.transposeOuts(cta.getOutDimNames()));
    cgaL = std::move(l);
  }
  std::vector<NamedSize> ctaShape;
  for (const std::string &d : cta.getOutDimNames())
    ctaShape.push_back(
        {d, std::max<int32_t>(1, want[d] / cgaL.getOutDimSize(d))});
  TGPU_TRY(grown, ensureLayoutNotSmallerThan(cta, ctaShape));
  TGPU_TRY(fitted, ensureLayoutNotLargerThan(grown, ctaShape));
  TGPU_TRY(prod, fitted * cgaL);
  TGPU_TRY(ret, prod.transposeOuts(standardOutDimNames(rank)));
  for (unsigned d = 0; d < rank; ++d)
    if (ret.getOutDimSize(dimName(d)) != shape[d])
      return err("layout covers " + llvm::Twine(ret.getOutDimSize(dimName(d))) +
                 " elements of dim " + llvm::Twine(d) + ", not " +
                 llvm::Twine(shape[d]));
  return ret;
}

//===----------------------------------------------------------------------===//
// Encodings
//===----------------------------------------------------------------------===//

bool tgpu::layout::isSharedEncoding(const Encoding &e) {
  return std::holds_alternative<SwizzledSharedEncoding>(e) ||
         std::holds_alternative<NVMMASharedEncoding>(e) ||
         std::holds_alternative<SharedLinearEncoding>(e);
}

namespace {
std::string basesStr(const std::vector<std::vector<int32_t>> &bases) {
  std::string s = "[";
  for (size_t i = 0; i < bases.size(); ++i) {
    s += i ? ", [" : "[";
    for (size_t k = 0; k < bases[i].size(); ++k)
      s += (k ? ", " : "") + std::to_string(bases[i][k]);
    s += "]";
  }
  return s + "]";
}
std::string cgaStr(const CGALayout &c) {
  return c.blockBases.empty() ? "" : ", CGALayout = " + basesStr(c.blockBases);
}
std::string llBasesStr(const LinearLayout &l, llvm::StringRef in) {
  std::vector<std::vector<int32_t>> b;
  for (int i = 0; i < l.getInDimSizeLog2(in); ++i)
    b.push_back(l.getBasis(in, i));
  return basesStr(b);
}
} // namespace

std::string tgpu::layout::describe(const Encoding &e) {
  if (auto *b = std::get_if<BlockedEncoding>(&e))
    return "#ttg.blocked<{sizePerThread = " + listStr(b->sizePerThread) +
           ", threadsPerWarp = " + listStr(b->threadsPerWarp) +
           ", warpsPerCTA = " + listStr(b->warpsPerCTA) +
           ", order = " + listStr(b->order) + cgaStr(b->cga) + "}>";
  if (auto *m = std::get_if<NvidiaMmaEncoding>(&e))
    return "#ttg.nvidia_mma<{versionMajor = " + std::to_string(m->versionMajor) +
           ", versionMinor = " + std::to_string(m->versionMinor) +
           ", warpsPerCTA = " + listStr(m->warpsPerCTA) + cgaStr(m->cga) +
           ", instrShape = " + listStr(m->instrShape) + "}>";
  if (auto *s = std::get_if<SliceEncoding>(&e))
    return "#ttg.slice<{dim = " + std::to_string(s->dim) + ", parent = " +
           (s->parent ? describe(*s->parent) : "<none>") + "}>";
  if (auto *d = std::get_if<DotOperandEncoding>(&e))
    return "#ttg.dot_op<{opIdx = " + std::to_string(d->opIdx) + ", parent = " +
           (d->parent ? describe(*d->parent) : "<none>") +
           ", kWidth = " + std::to_string(d->kWidth) + "}>";
  if (auto *l = std::get_if<LinearEncoding>(&e))
    return "#ttg.linear<{register = " + llBasesStr(l->layout, "register") +
           ", lane = " + llBasesStr(l->layout, "lane") +
           ", warp = " + llBasesStr(l->layout, "warp") +
           ", block = " + llBasesStr(l->layout, "block") + "}>";
  if (auto *s = std::get_if<SwizzledSharedEncoding>(&e))
    return "#ttg.swizzled_shared<{vec = " + std::to_string(s->vec) +
           ", perPhase = " + std::to_string(s->perPhase) +
           ", maxPhase = " + std::to_string(s->maxPhase) +
           ", order = " + listStr(s->order) + cgaStr(s->cga) + "}>";
  if (auto *n = std::get_if<NVMMASharedEncoding>(&e))
    return "#ttg.nvmma_shared<{swizzlingByteWidth = " +
           std::to_string(n->swizzlingByteWidth) +
           ", transposed = " + (n->transposed ? "true" : "false") +
           ", elementBitWidth = " + std::to_string(n->elementBitWidth) +
           (n->fp4Padded ? ", fp4Padded = true" : "") + cgaStr(n->cga) +
           ", rank = " + std::to_string(n->rank) + "}>";
  auto &s = std::get<SharedLinearEncoding>(e);
  return "#ttg.shared_linear<{offset = " + llBasesStr(s.layout, "offset") +
         ", block = " + llBasesStr(s.layout, "block") +
         "}, alignment = " + std::to_string(s.alignment) + ">";
}

unsigned tgpu::layout::getRank(const Encoding &e) {
  if (auto *b = std::get_if<BlockedEncoding>(&e))
    return b->order.size();
  if (auto *m = std::get_if<NvidiaMmaEncoding>(&e))
    return m->warpsPerCTA.size();
  if (auto *s = std::get_if<SliceEncoding>(&e))
    return s->parent ? std::max(1u, getRank(*s->parent)) - 1 : 0;
  if (auto *d = std::get_if<DotOperandEncoding>(&e))
    return d->parent ? getRank(*d->parent) : 0;
  if (auto *l = std::get_if<LinearEncoding>(&e))
    return l->layout.getNumOutDims();
  if (auto *s = std::get_if<SwizzledSharedEncoding>(&e))
    return s->order.size();
  if (auto *n = std::get_if<NVMMASharedEncoding>(&e))
    return n->rank;
  if (auto *s = std::get_if<SharedLinearEncoding>(&e))
    return s->layout.getNumOutDims();
  return 0;
}

namespace {

Expected<LinearLayout> blockedToLL(ArrayRef<int64_t> shape,
                                   const BlockedEncoding &b) {
  unsigned rank = b.order.size();
  if (b.sizePerThread.size() != rank || b.threadsPerWarp.size() != rank ||
      b.warpsPerCTA.size() != rank)
    return err("blocked layout: sizePerThread, threadsPerWarp, warpsPerCTA and "
               "order must all have the same rank");
  if (llvm::Error e = checkPowersOfTwo(b.sizePerThread, "sizePerThread"))
    return std::move(e);
  if (llvm::Error e = checkPowersOfTwo(b.threadsPerWarp, "threadsPerWarp"))
    return std::move(e);
  if (llvm::Error e = checkPowersOfTwo(b.warpsPerCTA, "warpsPerCTA"))
    return std::move(e);
  TGPU_TRY(regs, identityStandardND("register", b.sizePerThread, b.order));
  TGPU_TRY(lanes, identityStandardND("lane", b.threadsPerWarp, b.order));
  TGPU_TRY(warps, identityStandardND("warp", b.warpsPerCTA, b.order));
  TGPU_TRY(rl, regs * lanes);
  TGPU_TRY(cta, rl * warps);
  return combineCtaCgaWithShape(std::move(cta), b.cga, shape);
}

// The warp (or lane) part of a dot operand: identity along the non-K dims,
// zeros (broadcast) along K.
Expected<LinearLayout> broadcastAlongK(ArrayRef<unsigned> sizes,
                                       ArrayRef<unsigned> order, unsigned kDim,
                                       StringRef inDim) {
  LinearLayout l;
  for (unsigned d : order) {
    Expected<LinearLayout> f =
        d == kDim ? LinearLayout::zeros1D(sizes[d], inDim, dimName(d))
                  : id1D(sizes[d], inDim, dimName(d));
    TGPU_TRY(p, mul(l, std::move(f)));
    l = std::move(p);
  }
  return l;
}

// The register/lane tile of one warp of mma.sync / wgmma: kWidth elements
// along `inner` per register group, 4 lanes along inner x 8 lanes along
// outer, then register repeats over the rest of `tileShape`.
Expected<LinearLayout> mmaTile(ArrayRef<unsigned> tileShape, unsigned kWidth,
                               ArrayRef<unsigned> order,
                               ArrayRef<unsigned> repOrder) {
  unsigned rank = repOrder.size();
  std::vector<unsigned> ones(rank, 1);
  TGPU_TRY(l, identityStandardND("register", ones, repOrder));
  unsigned inner = order[0], outer = order[1];
  int64_t m = tileShape[outer], n = tileShape[inner];
  if (m % 8 || n % (4 * kWidth))
    return err("mma tile " + listStr(tileShape) + " does not divide into 8 x " +
               llvm::Twine(4 * kWidth) + " pieces");
  std::string in = dimName(inner), out = dimName(outer);
  TGPU_TRY(a, mul(l, id1D(kWidth, "register", in)));
  TGPU_TRY(b, mul(a, id1D(4, "lane", in)));
  TGPU_TRY(c, mul(b, id1D(8, "lane", out)));
  TGPU_TRY(d, mul(c, id1D(m / 8, "register", out)));
  return mul(d, id1D(n / (4 * kWidth), "register", in));
}

llvm::Error checkMma(const NvidiaMmaEncoding &m) {
  unsigned rank = m.warpsPerCTA.size();
  if (m.versionMajor != 2 && m.versionMajor != 3)
    return err("nvidia_mma version " + llvm::Twine(m.versionMajor) +
               " has no linear layout (only 2 and 3 are supported)");
  if (llvm::Error e = checkPowersOfTwo(m.warpsPerCTA, "warpsPerCTA"))
    return e;
  if (m.versionMajor == 2 && (rank < 2 || m.instrShape.size() != rank))
    return err("nvidia_mma v2: instrShape " + listStr(m.instrShape) +
               " must have the rank of warpsPerCTA " + listStr(m.warpsPerCTA) +
               " (2 or more)");
  if (m.versionMajor == 3 && (rank != 2 || m.instrShape.size() != 3))
    return err("nvidia_mma v3: needs rank-2 warpsPerCTA and a [M, N, K] "
               "instrShape, got " + listStr(m.warpsPerCTA) + " and " +
               listStr(m.instrShape));
  return llvm::Error::success();
}

Expected<LinearLayout> mmaToLL(ArrayRef<int64_t> shape,
                               const NvidiaMmaEncoding &m) {
  if (llvm::Error e = checkMma(m))
    return std::move(e);
  unsigned rank = m.warpsPerCTA.size();
  std::vector<unsigned> tile(m.instrShape.begin(), m.instrShape.begin() + rank);
  std::vector<unsigned> order = matrixOrder(rank, /*rowMajor=*/true);
  TGPU_TRY(cta, mmaTile(tile, 2, order, order));
  bool hopper = m.versionMajor == 3;
  TGPU_TRY(w, identityStandardND("warp", m.warpsPerCTA, matrixOrder(rank, !hopper)));
  TGPU_TRY(wt, w.transposeOuts(cta.getOutDimNames()));
  TGPU_TRY(full, cta * wt);
  return combineCtaCgaWithShape(std::move(full), m.cga, shape);
}

// A dot operand's CGA: the parent's with the K component of every block
// basis cleared (CTAs along K hold the same operand data).
CGALayout dotCGA(const CGALayout &parent, unsigned kDim) {
  CGALayout c = parent;
  for (auto &b : c.blockBases)
    if (kDim < b.size())
      b[kDim] = 0;
  return c;
}

Expected<LinearLayout> dotToLL(ArrayRef<int64_t> shape,
                               const DotOperandEncoding &dot) {
  if (dot.opIdx > 1)
    return err("dot_op opIdx can be 0 or 1, got " + llvm::Twine(dot.opIdx));
  if (!dot.parent)
    return err("dot_op without a parent layout");
  unsigned rank = shape.size();
  if (rank < 2)
    return err("dot_op layouts need rank 2 or more");
  unsigned kDim = dot.opIdx == 0 ? rank - 1 : rank - 2;

  if (auto *b = std::get_if<BlockedEncoding>(dot.parent.get())) {
    if (dot.kWidth != 0)
      return err("dot_op kWidth must be 0 when the parent is a blocked layout");
    if (b->order.size() != rank)
      return err("dot_op parent has rank " + llvm::Twine(b->order.size()) +
                 " but the tensor has rank " + llvm::Twine(rank));
    if (llvm::Error e = checkPermutation(b->order, rank, "blocked"))
      return std::move(e);
    if (llvm::Error e = checkPowersOfTwo(b->sizePerThread, "sizePerThread"))
      return std::move(e);
    if (b->sizePerThread.size() != rank || b->threadsPerWarp.size() != rank ||
        b->warpsPerCTA.size() != rank)
      return err("blocked layout: sizePerThread, threadsPerWarp, warpsPerCTA "
                 "and order must all have the same rank");
    // Each thread holds the whole K extent.
    std::vector<unsigned> threadSize(b->sizePerThread.begin(),
                                     b->sizePerThread.end());
    threadSize[kDim] = unsigned(shape[kDim]);
    std::vector<std::string> names = namesInOrder(b->order);
    TGPU_TRY(regs, identityStandardND("register", threadSize, b->order));
    TGPU_TRY(lanes, broadcastAlongK(b->threadsPerWarp, b->order, kDim, "lane"));
    TGPU_TRY(warps, broadcastAlongK(b->warpsPerCTA, b->order, kDim, "warp"));
    TGPU_TRY(rt, regs.transposeOuts(names));
    TGPU_TRY(lt, lanes.transposeOuts(names));
    TGPU_TRY(wt, warps.transposeOuts(names));
    TGPU_TRY(rl, rt * lt);
    TGPU_TRY(cta, rl * wt);
    return combineCtaCgaWithShape(std::move(cta), dotCGA(b->cga, kDim), shape);
  }

  if (auto *m = std::get_if<NvidiaMmaEncoding>(dot.parent.get())) {
    if (llvm::Error e = checkMma(*m))
      return std::move(e);
    if (m->warpsPerCTA.size() != rank)
      return err("dot_op parent has rank " +
                 llvm::Twine(m->warpsPerCTA.size()) +
                 " but the tensor has rank " + llvm::Twine(rank));
    if (dot.kWidth == 0 || log2IfPowerOf2(dot.kWidth) < 0)
      return err("dot_op kWidth must be a power of two for an nvidia_mma "
                 "parent, got " + llvm::Twine(dot.kWidth));
    bool hopper = m->versionMajor == 3;
    if (hopper && dot.opIdx != 0)
      return err("dot_op opIdx must be 0 for a Hopper (v3) nvidia_mma parent");
    std::vector<unsigned> tile(rank, 1);
    if (dot.opIdx == 0) {
      tile[rank - 2] = 16;
      tile[rank - 1] = 8 * dot.kWidth;
    } else {
      tile[rank - 2] = 8 * dot.kWidth;
      tile[rank - 1] = 8;
    }
    // K is the fastest dim of the operand.
    std::vector<unsigned> order = matrixOrder(rank, dot.opIdx == 0);
    TGPU_TRY(cta, mmaTile(tile, dot.kWidth, order, order));
    TGPU_TRY(w, broadcastAlongK(m->warpsPerCTA, matrixOrder(rank, !hopper), kDim,
                                "warp"));
    TGPU_TRY(wt, w.transposeOuts(cta.getOutDimNames()));
    TGPU_TRY(full, cta * wt);
    return combineCtaCgaWithShape(std::move(full), dotCGA(m->cga, kDim), shape);
  }
  return err("dot_op parent must be a blocked or nvidia_mma layout");
}

Expected<LinearLayout> sliceToLL(ArrayRef<int64_t> shape,
                                 const SliceEncoding &s);

Expected<LinearLayout> linearToLL(ArrayRef<int64_t> shape,
                                  const LinearEncoding &l) {
  const LinearLayout &ll = l.layout;
  unsigned rank = ll.getNumOutDims();
  if (rank != shape.size())
    return err("linear layout has rank " + llvm::Twine(rank) +
               " but the tensor has rank " + llvm::Twine(shape.size()));
  std::vector<unsigned> order = orderOfFirstMoves(ll, {"register"});
  std::vector<NamedSize> shapeNamed;
  for (unsigned d = 0; d < rank; ++d)
    shapeNamed.push_back({dimName(d), int32_t(shape[d])});
  TGPU_TRY(t, ll.transposeOuts(namesInOrder(order)));
  TGPU_TRY(grown, ensureLayoutNotSmallerThan(t, shapeNamed));
  TGPU_TRY(fitted, ensureLayoutNotLargerThan(grown, shapeNamed,
                                             /*broadcastRegisters=*/false));
  return fitted.transposeOuts(standardOutDimNames(rank));
}

Expected<LinearLayout> swizzledToLL(ArrayRef<int64_t> shape,
                                    const SwizzledSharedEncoding &s) {
  unsigned rank = s.order.size();
  if (rank != shape.size())
    return err("swizzled_shared layout has rank " + llvm::Twine(rank) +
               " but the shape has rank " + llvm::Twine(shape.size()));
  if (rank == 0)
    return err("swizzled_shared needs rank 1 or more");
  if (s.vec == 0 || s.perPhase == 0 || s.maxPhase == 0)
    return err("swizzled_shared vec, perPhase and maxPhase must be positive");
  std::vector<int64_t> s2 = shapePerCTA(s.cga, shape);
  LinearLayout cta;
  if (rank == 1) {
    TGPU_TRY(l, id1D(s2[0], "offset", dimName(0)));
    cta = std::move(l);
  } else {
    unsigned col = s.order[0], row = s.order[1];
    std::vector<LinearLayout::Basis> bases;
    for (int64_t c = 1; c < s2[col]; c *= 2)
      bases.push_back({0, int32_t(c)});
    for (int64_t q = 1; q < s2[row]; q *= 2)
      bases.push_back({int32_t(q), int32_t((int64_t(s.vec) *
                                            ((q / s.perPhase) % s.maxPhase)) %
                                           s2[col])});
    TGPU_TRY(l, LinearLayout::create({{"offset", bases}},
                                     {{dimName(row), int32_t(s2[row])},
                                      {dimName(col), int32_t(s2[col])}},
                                     /*requireSurjective=*/true));
    cta = std::move(l);
    for (unsigned k = 2; k < rank; ++k) {
      TGPU_TRY(p, mul(cta, id1D(s2[s.order[k]], "offset", dimName(s.order[k]))));
      cta = std::move(p);
    }
  }
  return combineCtaCgaWithShape(std::move(cta), s.cga, shape);
}

Expected<LinearLayout> nvmmaToLL(ArrayRef<int64_t> shape,
                                 const NVMMASharedEncoding &n) {
  unsigned rank = shape.size();
  if (n.rank != rank && !n.cga.blockBases.empty())
    return err("nvmma_shared layout has rank " + llvm::Twine(n.rank) +
               " but the shape has rank " + llvm::Twine(rank));
  if (rank == 0)
    return err("nvmma_shared needs rank 1 or more");
  unsigned sw = n.swizzlingByteWidth, bits = n.elementBitWidth;
  if (sw != 0 && sw != 32 && sw != 64 && sw != 128)
    return err("nvmma_shared swizzlingByteWidth must be 0, 32, 64 or 128, got " +
               llvm::Twine(sw));
  if (bits == 0 || bits > 128 || log2IfPowerOf2(bits) < 0)
    return err("nvmma_shared elementBitWidth must be a power of two up to 128, "
               "got " + llvm::Twine(bits));
  std::vector<int64_t> s = shapePerCTA(n.cga, shape);
  std::vector<NamedSize> sNamed;
  for (unsigned d = 0; d < rank; ++d)
    sNamed.push_back({dimName(d), int32_t(s[d])});

  // The TMA box: at most 256 per dim, the contiguous dim exactly one swizzle
  // row wide.
  std::vector<int64_t> t = s;
  unsigned cd = n.transposed ? 0 : rank - 1;
  if (n.fp4Padded)
    t[cd] *= 2;
  for (int64_t &x : t)
    x = std::min<int64_t>(x, 256);
  if (sw != 0) {
    int64_t want = 8 * int64_t(sw) / bits;
    if (t[cd] < want)
      return err("nvmma_shared: block shape " + listStr(s) +
                 " is too small for the swizzle byte size " + llvm::Twine(sw));
    t[cd] = want;
  }
  if (n.fp4Padded)
    t[cd] /= 2;

  if (sw == 0) {
    LinearLayout l;
    for (unsigned i = rank; i-- > 0;) {
      TGPU_TRY(p, mul(l, id1D(t[i], "offset", dimName(i))));
      l = std::move(p);
    }
    TGPU_TRY(g, ensureLayoutNotSmallerThan(l, sNamed));
    return combineCtaCgaWithShape(std::move(g), n.cga, shape);
  }
  if (rank < 2)
    return err("a swizzled nvmma_shared layout needs rank 2 or more");

  // The 8-row swizzle atom.
  unsigned vec = 128 / bits, perPhase = 128 / sw, maxPhase = sw / 16;
  int64_t atomCols = 8 * std::max<int64_t>(16, sw) / bits;
  auto pad = [&](int64_t c) { return n.fp4Padded ? (c / 16) * 8 + c % 8 : c; };
  std::vector<LinearLayout::Basis> atom;
  for (int64_t c = 1; c < atomCols; c *= 2)
    atom.push_back({0, int32_t(pad(c))});
  for (int64_t q = 1; q < 8; q *= 2)
    atom.push_back({int32_t(q), int32_t(pad(vec * ((q / perPhase) % maxPhase)))});
  TGPU_TRY(atomL, LinearLayout::create({{"offset", atom}}, {dimName(0), dimName(1)}));

  int64_t rows = 1;
  for (unsigned i = 0; i + 1 < rank; ++i)
    rows *= t[i];
  int64_t cols = t[rank - 1];
  if (n.transposed)
    std::swap(rows, cols);
  int64_t aR = atomL.getOutDimSize(dimName(0)), aC = atomL.getOutDimSize(dimName(1));
  if (cols * (n.fp4Padded ? 2 : 1) < aC || rows < aR)
    return err("nvmma_shared: the collapsed shape [" + llvm::Twine(rows) + ", " +
               llvm::Twine(cols) + "] is smaller than the swizzle atom [" +
               llvm::Twine(aR) + ", " + llvm::Twine(aC) + "]");
  TGPU_TRY(grown, ensureLayoutNotSmallerThan(
                      atomL, {{dimName(0), int32_t(rows)},
                              {dimName(1), int32_t(cols)}}));
  // Row-major reshape of the [rows, cols] matrix into the TMA box (rotated
  // left by one when transposed, so the contiguous dim comes last).
  std::vector<int64_t> tt = t;
  if (n.transposed)
    std::rotate(tt.begin(), tt.begin() + 1, tt.end());
  TGPU_TRY(rev, grown.transposeOuts({dimName(1), dimName(0)}));
  std::vector<NamedSize> revDims;
  for (unsigned i = rank; i-- > 0;)
    revDims.push_back({dimName(i), int32_t(tt[i])});
  TGPU_TRY(reshaped, rev.reshapeOuts(revDims));
  TGPU_TRY(l, reshaped.transposeOuts(standardOutDimNames(rank)));
  if (n.transposed) {
    // Component j of the result is component perm[j] of the reshaped one,
    // perm = [r-1, 0, 1, ..., r-2].
    std::vector<LinearLayout::DimBases> bases = l.getBases();
    for (auto &[name, bs] : bases)
      for (auto &b : bs) {
        LinearLayout::Basis nb(rank);
        nb[0] = b[rank - 1];
        for (unsigned j = 1; j < rank; ++j)
          nb[j] = b[j - 1];
        b = nb;
      }
    TGPU_TRY(p, LinearLayout::create(bases, standardOutDimNames(rank)));
    l = std::move(p);
  }
  TGPU_TRY(g, ensureLayoutNotSmallerThan(l, sNamed));
  return combineCtaCgaWithShape(std::move(g), n.cga, shape);
}

Expected<LinearLayout> sharedLinearToLL(ArrayRef<int64_t> shape,
                                        const SharedLinearEncoding &s) {
  const LinearLayout &l = s.layout;
  if (unsigned(l.getNumOutDims()) != shape.size())
    return err("shared_linear layout has rank " +
               llvm::Twine(l.getNumOutDims()) + " but the shape has rank " +
               llvm::Twine(shape.size()));
  for (unsigned d = 0; d < shape.size(); ++d)
    if (l.getOutDimSize(dimName(d)) != shape[d])
      return err("shared_linear layout covers " +
                 llvm::Twine(l.getOutDimSize(dimName(d))) +
                 " elements of dim " + llvm::Twine(d) + " but the shape has " +
                 llvm::Twine(shape[d]));
  return l;
}

Expected<LinearLayout> sliceToLL(ArrayRef<int64_t> shape,
                                 const SliceEncoding &s) {
  if (!s.parent)
    return err("slice without a parent layout");
  if (isSharedEncoding(*s.parent))
    return err("slice parent must be a distributed layout");
  unsigned parentRank = getRank(*s.parent);
  if (parentRank < 2 && !std::holds_alternative<SliceEncoding>(*s.parent))
    return err("slice parent must have rank 2 or more");
  if (s.dim > shape.size())
    return err("slice dim " + llvm::Twine(s.dim) +
               " is out of range for a rank " + llvm::Twine(shape.size()) +
               " tensor");
  std::vector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + s.dim, 1);
  TGPU_TRY(p, toLinearLayout(parentShape, *s.parent));
  // Drop out dim `dim`, renumber the ones after it, and drop the register
  // bases that became all zero.
  unsigned rank = shape.size();
  std::vector<LinearLayout::DimBases> bases;
  for (auto &[name, bs] : p.getBases()) {
    std::vector<LinearLayout::Basis> kept;
    for (auto &b : bs) {
      LinearLayout::Basis nb;
      for (unsigned d = 0; d < b.size(); ++d)
        if (d != s.dim)
          nb.push_back(b[d]);
      if (name == "register" && llvm::all_of(nb, [](int32_t v) { return v == 0; }))
        continue;
      kept.push_back(nb);
    }
    bases.push_back({name, kept});
  }
  return LinearLayout::create(bases, standardOutDimNames(rank));
}

} // namespace

Expected<LinearLayout> tgpu::layout::toLinearLayout(ArrayRef<int64_t> shape,
                                                    const Encoding &e) {
  if (llvm::Error err = checkShape(shape))
    return std::move(err);
  unsigned rank = getRank(e);
  if (rank != shape.size() && !std::holds_alternative<SliceEncoding>(e) &&
      !std::holds_alternative<NVMMASharedEncoding>(e))
    return err("layout has rank " + llvm::Twine(rank) +
               " but the tensor has rank " + llvm::Twine(shape.size()) +
               " (shape " + listStr(shape) + ")");
  return std::visit(
      [&](const auto &enc) -> Expected<LinearLayout> {
        using T = std::decay_t<decltype(enc)>;
        if constexpr (std::is_same_v<T, BlockedEncoding>) {
          if (llvm::Error e = checkPermutation(enc.order, enc.order.size(), "blocked"))
            return std::move(e);
          return blockedToLL(shape, enc);
        } else if constexpr (std::is_same_v<T, NvidiaMmaEncoding>) {
          return mmaToLL(shape, enc);
        } else if constexpr (std::is_same_v<T, SliceEncoding>) {
          return sliceToLL(shape, enc);
        } else if constexpr (std::is_same_v<T, DotOperandEncoding>) {
          return dotToLL(shape, enc);
        } else if constexpr (std::is_same_v<T, LinearEncoding>) {
          return linearToLL(shape, enc);
        } else if constexpr (std::is_same_v<T, SwizzledSharedEncoding>) {
          if (llvm::Error e = checkPermutation(enc.order, enc.order.size(), "swizzled_shared"))
            return std::move(e);
          return swizzledToLL(shape, enc);
        } else if constexpr (std::is_same_v<T, NVMMASharedEncoding>) {
          return nvmmaToLL(shape, enc);
        } else {
          return sharedLinearToLL(shape, enc);
        }
      },
      static_cast<const Encoding::variant &>(e));
}

Expected<LinearLayout> tgpu::layout::splitLastDimLayout(const LinearLayout &l) {
  std::vector<std::string> outs = l.getOutDimNames();
  if (outs.empty() || l.getOutDimSize(outs.back()) != 2)
    return err("tt.split needs a last dimension of size 2");
  const std::string &last = outs.back();
  std::vector<LinearLayout::DimBases> bases;
  int halfBits = 0;
  for (const auto &[inDim, dimBases] : l.getBases()) {
    std::vector<LinearLayout::Basis> kept;
    for (const LinearLayout::Basis &b : dimBases) {
      if (b.back() == 0) {
        kept.push_back(LinearLayout::Basis(b.begin(), b.end() - 1));
        continue;
      }
      bool onlyLast = llvm::all_of(llvm::ArrayRef(b).drop_back(),
                                   [](int32_t c) { return c == 0; });
      if (inDim != "register" || !onlyLast)
        return err("the two halves of the last dimension are not held by one "
                   "thread (" +
                   inDim + " moves along it)");
      ++halfBits;
    }
    bases.push_back({inDim, std::move(kept)});
  }
  if (halfBits != 1)
    return err(
        "the last dimension must be selected by exactly one register bit");
  std::vector<LinearLayout::NamedSize> outDims = l.getOutDims();
  outDims.pop_back();
  return LinearLayout::create(bases, outDims, /*requireSurjective=*/false);
}

Expected<LinearLayout> tgpu::layout::reshapeLayout(const LinearLayout &l,
                                                   ArrayRef<int64_t> shape) {
  std::vector<std::string> outs = l.getOutDimNames();
  int64_t before = l.getTotalOutDimSize(), after = 1;
  for (int64_t d : shape)
    after *= d;
  if (before != after)
    return err("tt.reshape from " + llvm::Twine(before) + " to " +
               llvm::Twine(after) + " elements");
  // reshapeOuts splits the flattened output with the first dim lowest:
  // reverse both shapes so that the last (fastest) dim is lowest.
  std::vector<std::string> reversed(outs.rbegin(), outs.rend());
  TGPU_TRY(rev, l.transposeOuts(reversed));
  std::vector<NamedSize> newDims;
  for (unsigned i = shape.size(); i-- > 0;)
    newDims.push_back({dimName(i), int32_t(shape[i])});
  TGPU_TRY(reshaped, rev.reshapeOuts(newDims));
  return reshaped.transposeOuts(standardOutDimNames(shape.size()));
}

std::optional<BlockedEncoding>
tgpu::layout::blockedEncodingOf(const LinearLayout &l,
                                ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  if (rank == 0 || unsigned(l.getNumOutDims()) != rank ||
      l.getInDimSize("block") != 1)
    return std::nullopt;
  // Per in dim: how many bases move along each dim, how many are zero.
  struct Counts {
    std::vector<unsigned> along;
    unsigned zeros = 0;
  };
  auto count = [&](StringRef in, Counts &c) {
    c.along.assign(rank, 0);
    for (int i = 0; i < l.getInDimSizeLog2(in); ++i) {
      LinearLayout::Basis b = l.getBasis(in, i);
      int dim = -1;
      for (unsigned d = 0; d < rank; ++d)
        if (b[d] != 0) {
          if (dim >= 0)
            return false;
          dim = int(d);
        }
      if (dim < 0) {
        ++c.zeros;
        continue;
      }
      ++c.along[dim];
    }
    return true;
  };
  Counts regs, lanes, warps;
  if (!count("register", regs) || !count("lane", lanes) ||
      !count("warp", warps))
    return std::nullopt;
  // sizePerThread for an order: the register bases start with a run 1, 2,
  // 4, ... along order[0], then one along order[1], ...; what follows
  // (repeats of the tile) does not count.
  auto sizePerThreadLog2 = [&](ArrayRef<unsigned> order) {
    std::vector<unsigned> spt(rank, 0);
    int next = 0, regBits = l.getInDimSizeLog2("register");
    for (unsigned d : order)
      while (next < regBits) {
        LinearLayout::Basis b = l.getBasis("register", next);
        bool along = b[d] == int32_t(1) << spt[d];
        for (unsigned o = 0; o < rank; ++o)
          along &= o == d || b[o] == 0;
        if (!along)
          break;
        ++spt[d];
        ++next;
      }
    return spt;
  };
  // The natural order first: dims by where their first bases come.
  std::vector<unsigned> order =
      orderOfFirstMoves(l, {"register", "lane", "warp"});
  std::vector<unsigned> perm = order;
  std::sort(perm.begin(), perm.end());
  std::vector<std::vector<unsigned>> orders{order};
  do {
    if (perm != order)
      orders.push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  // The zero bases of an in dim all go to one dim (each tried); they need
  // one only when there are some.
  auto dimsFor = [&](const Counts &c) { return c.zeros ? rank : 1; };
  for (const std::vector<unsigned> &o : orders) {
    std::vector<unsigned> sptLog2 = sizePerThreadLog2(o);
    for (unsigned zr = 0; zr < dimsFor(regs); ++zr)
      for (unsigned zl = 0; zl < dimsFor(lanes); ++zl)
        for (unsigned zw = 0; zw < dimsFor(warps); ++zw) {
          BlockedEncoding e;
          e.order = o;
          for (unsigned d = 0; d < rank; ++d) {
            e.sizePerThread.push_back(
                1u << (sptLog2[d] + (d == zr ? regs.zeros : 0)));
            e.threadsPerWarp.push_back(
                1u << (lanes.along[d] + (d == zl ? lanes.zeros : 0)));
            e.warpsPerCTA.push_back(
                1u << (warps.along[d] + (d == zw ? warps.zeros : 0)));
          }
          auto candidate = toLinearLayout(shape, Encoding(e));
          if (!candidate) {
            llvm::consumeError(candidate.takeError());
            continue;
          }
          if (*candidate == l)
            return e;
        }
  }
  return std::nullopt;
}

int64_t tgpu::layout::sharedElementOffset(
    const LinearLayout &toOffset,
    llvm::ArrayRef<LinearLayout::NamedValue> coords) {
  auto out = toOffset.apply(coords);
  if (!out) {
    llvm::consumeError(out.takeError());
    return -1;
  }
  int64_t offset = -1;
  for (auto &[name, v] : *out) {
    if (name == "offset")
      offset = v;
    else if (v != 0)
      return -1;
  }
  return offset;
}
