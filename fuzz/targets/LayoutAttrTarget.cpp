// fuzz_layout_attr: bytes -> a random layout attribute as text (valid, or
// broken in a way the generator knows, or garbled) and a tensor shape ->
// the ttg dialect (parse, attribute verifier, tensor-type verifier, module
// verifier with ttg.num-warps / threads-per-warp / num-ctas), toLinearLayout,
// invariants of the layout, and the renderers of tgpu-layout.
//
// Expectations:
//   - a valid layout passes every stage ("rejected-valid" otherwise);
//   - a malformed one (or a shape that is not powers of two) is refused by
//     some stage ("accepted-malformed" otherwise), and a refusal always comes
//     with a diagnostic or an error message ("silent-rejection");
//   - an accepted layout maps onto every element of the tensor, has the
//     in dims and sizes its attribute implies, agrees with the closed forms
//     of blocked, nvidia_mma v2 and swizzled_shared layouts, with the parent
//     minus one dim for slices, with its own bases for linear layouts, and
//     renders (text views, JSON, SVG) consistently ("law" otherwise);
//   - the same text inside a module parsed as a whole is accepted exactly
//     when the piecewise checks accept it ("inconsistent");
//   - every layout randomDistributedLayout makes is accepted
//     ("generator-invalid").
// The expected values come from the attribute's parameters and the PTX /
// Triton formulas written out here, not from the conversion under test.
//
// One MLIRContext serves many inputs (attributes are uniqued in it, so it is
// replaced every few thousand inputs to bound memory).
#include "fuzz/targets/FuzzTarget.h"
#include "fuzz/targets/Targets.h"

#include "fuzz/generator/RandomLayouts.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"
#include "tgpu/InitAllDialects.h"
#include "tools/lib/LayoutRender.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace mlir;
using namespace mlir::triton::gpu;
using ::tgpu::fuzz::Finding;
using ::tgpu::gen::ByteSource;
using ::tgpu::gen::LayoutText;
using ::tgpu::layout::LinearLayout;
namespace render = ::tgpu::layout::render;

namespace {

// Inputs per context before it is replaced.
constexpr unsigned kContextUses = 20000;
// Brute-force checks enumerate every input of layouts this small; larger
// ones are sampled.
constexpr int64_t kEnumerateLimit = 1 << 9;
constexpr int kSamples = 32;
// Text views are rendered for tensors this small (SVG for smaller still),
// on a share of the inputs (string building dominates the run time).
constexpr int64_t kRenderLimit = 256;
constexpr int64_t kSvgLimit = 64;

//===----------------------------------------------------------------------===//
// The dialect, once
//===----------------------------------------------------------------------===//

struct State {
  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  OwningOpRef<ModuleOp> module;
  Operation *func = nullptr;
  std::string diag; // diagnostics since the last clear
  unsigned uses = 0;

  void reset() {
    module = nullptr;
    handler.reset();
    ctx.reset();
    DialectRegistry registry;
    mlir::tgpu::registerAllDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        ctx.get(), [this](Diagnostic &d) {
          diag += (diag.empty() ? "" : "\n") + d.str();
          return success();
        });
    // A module whose one function takes the tensor under test: the module
    // verifier checks every layout under it against the module's counts.
    module = parseSourceString<ModuleOp>(
        "module { tt.func @f(%arg0: tensor<1xf32>) { tt.return } }", ctx.get());
    if (!module)
      llvm::report_fatal_error("fuzz_layout_attr: cannot build the module: " +
                               llvm::Twine(diag));
    func = &module->getBody()->front();
    diag.clear();
    uses = 0;
  }
};

State &state() {
  static State s;
  if (!s.ctx || s.uses >= kContextUses)
    s.reset();
  ++s.uses;
  return s;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

class Run {
public:
  Run(llvm::ArrayRef<uint8_t> bytes, State &st)
      : bytes(bytes), src(bytes), st(st), ctx(st.ctx.get()) {}
  std::optional<Finding> go();

private:
  llvm::ArrayRef<uint8_t> bytes;
  ByteSource src;
  State &st;
  MLIRContext *ctx;
  std::optional<Finding> finding;
  // The case at hand, for messages.
  std::string text;
  llvm::SmallVector<int64_t> shape;
  unsigned numWarps = 4, numCTAs = 1;
  Type elementType;

  bool failed() const { return finding.has_value(); }
  std::string where() const {
    std::string s = "layout: " + text + "\nshape: [";
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "], num-warps " + std::to_string(numWarps) + ", num-ctas " +
           std::to_string(numCTAs) + "\n";
  }
  void report(const std::string &kind, const std::string &what,
              const std::string &detail = "") {
    if (finding)
      return;
    finding = Finding{kind, ::tgpu::fuzz::normalizeSignature(what),
                      what + "\n" + where() + detail};
  }

  // Stages; each returns false (with st.diag or `why` set) on refusal.
  Attribute parse(const std::string &t);
  bool verifyType(Attribute attr, RankedTensorType &type);
  bool verifyModule(RankedTensorType type);
  bool acceptedAsModuleText(const std::string &t);

  // Modes and stages.
  bool setupText(bool &mustReject);
  void setupGenerated(bool &mustReject, bool &mustAccept, std::string &defect);
  std::optional<Finding> stages(bool mustReject, bool mustAccept, bool checkGen,
                                const std::string &defect);
  bool generatedShapeOk = false;

  // Checks of an accepted layout.
  void checkLayout(Attribute attr, const LinearLayout &ll);
  void checkBlocked(BlockedEncodingAttr b, const LinearLayout &ll);
  void checkMmaV2(NvidiaMmaEncodingAttr m, const LinearLayout &ll);
  void checkSlice(SliceEncodingAttr s, const LinearLayout &ll);
  void checkLinear(LinearEncodingAttr l, const LinearLayout &ll);
  void checkSwizzled(SwizzledSharedEncodingAttr s, const LinearLayout &ll);
  void checkRendering(Attribute attr, const LinearLayout &ll);
  void checkGenerator();

  // Inputs to evaluate: all of them when few, else a sample.
  template <typename Fn> void forInputs(const LinearLayout &ll, Fn fn);
};

Attribute Run::parse(const std::string &t) {
  st.diag.clear();
  // Trimmed as tgpu-layout does: MLIR 22's parseAttribute miscounts a
  // leading blank ("found trailing characters" on a valid attribute).
  return parseAttribute(llvm::StringRef(t).trim(), ctx);
}

bool Run::verifyType(Attribute attr, RankedTensorType &type) {
  st.diag.clear();
  type = RankedTensorType::getChecked(
      [&] { return emitError(UnknownLoc::get(ctx)); }, shape, elementType, attr);
  return bool(type);
}

bool Run::verifyModule(RankedTensorType type) {
  Builder b(ctx);
  ModuleOp m = *st.module;
  m->setAttr("ttg.num-warps", b.getI32IntegerAttr(numWarps));
  m->setAttr("ttg.threads-per-warp", b.getI32IntegerAttr(32));
  m->setAttr("ttg.num-ctas", b.getI32IntegerAttr(numCTAs));
  // Shared layouts describe buffers, not tensors (a tensor may not have
  // one): they go on a !ttg.memdesc of the same shape.
  Type argType = type;
  st.diag.clear();
  if (!isDistributedEncoding(type.getEncoding())) {
    // getChecked: a memdesc may refuse what a tensor type took (its rank or
    // shape rules); that is a refusal at this stage, with its message.
    ArrayRef<int64_t> shape = type.getShape();
    Attribute encoding = type.getEncoding(),
              space = SharedMemorySpaceAttr::get(ctx);
    argType = MemDescType::getChecked(
        [&] { return emitError(UnknownLoc::get(ctx)); }, ctx, shape,
        type.getElementType(), encoding, space,
        /*mutableMemory=*/false, shape);
    if (!argType)
      return false;
  }
  auto fn = cast<FunctionOpInterface>(st.func);
  fn.setType(FunctionType::get(ctx, {argType}, {}));
  fn.getFunctionBody().front().getArgument(0).setType(argType);
  st.diag.clear();
  return succeeded(mlir::verify(m));
}

// The whole thing as a file: alias, module attributes, a function on the
// tensor; parsed and verified by MLIR's own driver.
bool Run::acceptedAsModuleText(const std::string &t) {
  std::string dims;
  for (int64_t s : shape)
    dims += std::to_string(s) + "x";
  std::string elem;
  llvm::raw_string_ostream(elem) << elementType;
  // A shared layout on a buffer, as in verifyModule; a text that does not
  // parse as an attribute goes on a tensor (it is refused either way).
  Attribute parsed = parse(t);
  bool shared = parsed && !isDistributedEncoding(parsed) &&
                isa<SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr,
                    SharedLinearEncodingAttr>(parsed);
  std::string argType =
      shared ? "!ttg.memdesc<" + dims + elem + ", #layout, #ttg.shared_memory>"
             : "tensor<" + dims + elem + ", #layout>";
  std::string source =
      "#layout = " + t +
      "\nmodule attributes {\"ttg.num-warps\" = " + std::to_string(numWarps) +
      " : i32, \"ttg.threads-per-warp\" = 32 : i32, " +
      "\"ttg.num-ctas\" = " + std::to_string(numCTAs) +
      " : i32} {\n  tt.func @g(%arg0: " + argType +
      ") {\n    tt.return\n  }\n}\n";
  st.diag.clear();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(source, ctx);
  return bool(m);
}

template <typename Fn> void Run::forInputs(const LinearLayout &ll, Fn fn) {
  uint64_t total = uint64_t(ll.getTotalInDimSize());
  if (total <= uint64_t(kEnumerateLimit)) {
    for (uint64_t x = 0; x < total && !failed(); ++x)
      fn(x);
    return;
  }
  uint64_t state = 0x243F6A8885A308D3ull ^ total;
  for (int i = 0; i < kSamples && !failed(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    fn((state >> 11) % total);
  }
}

// The element of flattened input `x`: one coordinate per out dim, read
// from the packed word (out dims side by side, first lowest, as
// LinearLayout.h documents) without allocating.
struct Element {
  int32_t c[8] = {};
  int32_t operator[](unsigned d) const { return c[d]; }
};
Element elementOf(const LinearLayout &ll, uint64_t x) {
  static const char *const names[] = {"dim0", "dim1", "dim2", "dim3",
                                      "dim4", "dim5", "dim6", "dim7"};
  Element e;
  uint64_t w = ll.applyFlat(x);
  for (int k = 0, n = std::min(ll.getNumOutDims(), 8); k < n; ++k) {
    int bits = ll.getOutDimSizeLog2(names[k]);
    e.c[k] = int32_t(w & ((uint64_t(1) << bits) - 1));
    w >>= bits;
  }
  return e;
}

//===----------------------------------------------------------------------===//
// Invariants of any accepted layout
//===----------------------------------------------------------------------===//

void Run::checkLayout(Attribute attr, const LinearLayout &ll) {
  unsigned rank = shape.size();
  // Out dims: dim0.. sized like the tensor.
  std::vector<std::string> outs = ll.getOutDimNames();
  if (outs != ::tgpu::layout::standardOutDimNames(rank)) {
    report("law", "out dims are not dim0..dimN", ll.toString());
    return;
  }
  for (unsigned d = 0; d < rank; ++d)
    if (ll.getOutDimSize(outs[d]) != shape[d]) {
      report("law", "out dim size differs from the tensor", ll.toString());
      return;
    }
  // Every element is covered: rank, and by enumeration when small.
  if (!ll.isSurjective()) {
    report("law", "layout does not cover every element", ll.toString());
    return;
  }
  int64_t numElements = 1;
  for (int64_t s : shape)
    numElements *= s;
  if (ll.getTotalInDimSize() <= kEnumerateLimit) {
    std::vector<bool> seen(numElements, false);
    int64_t covered = 0;
    for (uint64_t x = 0, n = ll.getTotalInDimSize(); x < n; ++x) {
      Element c = elementOf(ll, x);
      int64_t idx = 0;
      for (unsigned d = 0; d < rank; ++d)
        idx = idx * shape[d] + c[d];
      if (!seen[idx]) {
        seen[idx] = true;
        ++covered;
      }
    }
    if (covered != numElements) {
      report("law", "enumeration misses elements", ll.toString());
      return;
    }
  }

  bool shared = isSharedEncoding(attr);
  std::vector<std::string> ins = ll.getInDimNames();
  std::vector<std::string> allowed =
      shared ? std::vector<std::string>{"offset", "block"}
             : std::vector<std::string>{"register", "lane", "warp", "block"};
  for (const std::string &n : ins)
    if (!llvm::is_contained(allowed, n)) {
      report("law", "unexpected in dim " + n, ll.toString());
      return;
    }
  if (shared) {
    // Shared memory holds each element once per CTA copy: with one CTA the
    // offsets are a bijection onto the tensor.
    if (numCTAs == 1 && (ll.getInDimSize("offset") != numElements || !ll.isInvertible()))
      report("law", "shared layout is not a bijection of offsets and elements",
             ll.toString());
  } else {
    // Hardware sizes as the module says (linear layouts carry their own
    // lane / warp bases; the module check made them agree).
    if (ll.getInDimSize("lane") != 32 || ll.getInDimSize("warp") != int32_t(numWarps) ||
        ll.getInDimSize("block") != int32_t(numCTAs))
      report("law", "lane / warp / block sizes differ from the module's counts",
             ll.toString());
  }
  if (failed())
    return;

  if (auto b = dyn_cast<BlockedEncodingAttr>(attr))
    checkBlocked(b, ll);
  else if (auto m = dyn_cast<NvidiaMmaEncodingAttr>(attr))
    checkMmaV2(m, ll);
  else if (auto s = dyn_cast<SliceEncodingAttr>(attr))
    checkSlice(s, ll);
  else if (auto l = dyn_cast<LinearEncodingAttr>(attr))
    checkLinear(l, ll);
  else if (auto s = dyn_cast<SwizzledSharedEncodingAttr>(attr))
    checkSwizzled(s, ll);
  if (!failed())
    checkRendering(attr, ll);
}

// Blocked (one CTA): thread (lane, warp) holds, in register r, the element
// whose coordinate along d is
//   (rep_d * T_d + warp_d * spt_d * tpw_d + lane_d * spt_d + reg_d) mod shape_d
// with T_d = spt_d * tpw_d * wpc_d; lane, warp and the two parts of r (first
// the spt part, then the repetitions, reps_d = max(1, shape_d / T_d)) split
// into per-dim digits fastest dim (order[0]) first. Larger tiles than the
// tensor wrap (mod), i.e. broadcast.
void Run::checkBlocked(BlockedEncodingAttr b, const LinearLayout &ll) {
  if (numCTAs != 1 || !b.getCgaBases().empty())
    return;
  unsigned rank = shape.size();
  auto spt = b.getSizePerThread(), tpw = b.getThreadsPerWarp(),
       wpc = b.getWarpsPerCTA(), order = b.getOrder();
  std::vector<int64_t> tile(rank), reps(rank);
  int regLog2 = 0;
  for (unsigned d = 0; d < rank; ++d) {
    tile[d] = int64_t(spt[d]) * tpw[d] * wpc[d];
    reps[d] = std::max<int64_t>(1, shape[d] / tile[d]);
    regLog2 += llvm::Log2_64(spt[d]) + llvm::Log2_64(reps[d]);
  }
  if (ll.getInDimSizeLog2("register") != regLog2) {
    report("law", "blocked: register count differs from sizePerThread x repetitions",
           ll.toString());
    return;
  }
  int regBits = ll.getInDimSizeLog2("register"), laneBits = 5;
  forInputs(ll, [&](uint64_t x) {
    uint64_t r = x & ((uint64_t(1) << regBits) - 1);
    uint64_t l = (x >> regBits) & 31;
    uint64_t w = x >> (regBits + laneBits);
    std::vector<int64_t> regD(rank), repD(rank), laneD(rank), warpD(rank);
    for (unsigned d : order) {
      regD[d] = r % spt[d];
      r /= spt[d];
      laneD[d] = l % tpw[d];
      l /= tpw[d];
      warpD[d] = w % wpc[d];
      w /= wpc[d];
    }
    for (unsigned d : order) {
      repD[d] = r % reps[d];
      r /= reps[d];
    }
    Element got = elementOf(ll, x);
    for (unsigned d = 0; d < rank; ++d) {
      int64_t want = (repD[d] * tile[d] + warpD[d] * spt[d] * tpw[d] +
                      laneD[d] * spt[d] + regD[d]) %
                     shape[d];
      if (got[d] != want) {
        report("law", "blocked: element differs from the closed form",
               "input " + std::to_string(x) + ", dim " + std::to_string(d) +
                   ": got " + std::to_string(got[d]) + ", want " +
                   std::to_string(want) + "\n" + ll.toString());
        return;
      }
    }
  });
}

// mma.sync m16n8 accumulators (PTX ISA, "Matrix Fragments for mma.m16n8k*"):
// lane l holds rows l/4 and l/4 + 8, columns 2 * (l % 4) and + 1 of each
// 16 x 8 tile: register bit 0 steps the column, bit 1 the row by 8. Warps
// tile M x N with N fastest; further registers repeat the warps' block
// along N first, then M (Triton's repetition order for mma v2). Tiles larger
// than the tensor wrap.
void Run::checkMmaV2(NvidiaMmaEncodingAttr m, const LinearLayout &ll) {
  if (m.getVersionMajor() != 2 || shape.size() != 2 || numCTAs != 1 ||
      !m.getCgaBases().empty())
    return;
  int64_t M = shape[0], N = shape[1];
  int64_t wm = m.getWarpsPerCTA()[0], wn = m.getWarpsPerCTA()[1];
  int64_t repsM = std::max<int64_t>(1, M / (16 * wm)),
          repsN = std::max<int64_t>(1, N / (8 * wn));
  if (ll.getInDimSize("register") != 4 * repsM * repsN) {
    report("law", "mma v2: register count differs from 4 per 16x8 tile",
           ll.toString());
    return;
  }
  int regBits = ll.getInDimSizeLog2("register");
  forInputs(ll, [&](uint64_t x) {
    uint64_t r = x & ((uint64_t(1) << regBits) - 1);
    uint64_t l = (x >> regBits) & 31;
    uint64_t w = x >> (regBits + 5);
    int64_t wN = w % wn, wM = w / wn;
    int64_t rep = r >> 2, repN = rep % repsN, repM = rep / repsN;
    int64_t row = (repM * 16 * wm + wM * 16 + int64_t(l / 4) + 8 * int64_t(r >> 1 & 1)) % M;
    int64_t col = (repN * 8 * wn + wN * 8 + 2 * int64_t(l % 4) + int64_t(r & 1)) % N;
    Element got = elementOf(ll, x);
    if (got[0] != row || got[1] != col)
      report("law", "mma v2: element differs from the PTX fragment layout",
             "input " + std::to_string(x) + ": got (" + std::to_string(got[0]) +
                 ", " + std::to_string(got[1]) + "), want (" + std::to_string(row) +
                 ", " + std::to_string(col) + ")\n" + ll.toString());
  });
}

// A slice is its parent (for the shape with a 1 inserted at `dim`) without
// out dim `dim`, and without the register bases that became zero.
void Run::checkSlice(SliceEncodingAttr s, const LinearLayout &ll) {
  llvm::SmallVector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + s.getDim(), 1);
  llvm::Expected<LinearLayout> parent =
      ::tgpu::layout::toLinearLayout(parentShape, s.getParent());
  if (!parent) {
    report("law", "slice accepted but its parent fails: " +
                      llvm::toString(parent.takeError()));
    return;
  }
  for (const char *in : {"register", "lane", "warp", "block"}) {
    std::vector<LinearLayout::Basis> want;
    for (int i = 0; i < parent->getInDimSizeLog2(in); ++i) {
      LinearLayout::Basis b = parent->getBasis(in, i);
      b.erase(b.begin() + s.getDim());
      bool zero = llvm::all_of(b, [](int32_t c) { return c == 0; });
      if (!(zero && llvm::StringRef(in) == "register"))
        want.push_back(b);
    }
    bool same = int(want.size()) == ll.getInDimSizeLog2(in);
    for (size_t i = 0; same && i < want.size(); ++i)
      same = ll.getBasis(in, i) == want[i];
    if (!same) {
      report("law", std::string("slice: ") + in + " bases differ from the parent's",
             "parent:" + parent->toString() + "\nslice:" + ll.toString());
      return;
    }
  }
}

// A linear layout is its own bases; when they cover less than the tensor,
// extra register bases repeat it (appended after the attribute's).
void Run::checkLinear(LinearEncodingAttr l, const LinearLayout &ll) {
  unsigned rank = l.getRank();
  if (rank == 0)
    return;
  struct {
    const char *name;
    llvm::ArrayRef<int32_t> flat;
  } dims[] = {{"register", l.getRegisterBases()},
              {"lane", l.getLaneBases()},
              {"warp", l.getWarpBases()},
              {"block", l.getBlockBases()}};
  for (auto &[name, flat] : dims) {
    int n = flat.size() / rank;
    bool isReg = llvm::StringRef(name) == "register";
    if (isReg ? ll.getInDimSizeLog2(name) < n : ll.getInDimSizeLog2(name) != n) {
      report("law", std::string("linear: number of ") + name + " bases",
             ll.toString());
      return;
    }
    for (int i = 0; i < n; ++i)
      if (ll.getBasis(name, i) !=
          LinearLayout::Basis(flat.begin() + i * rank, flat.begin() + (i + 1) * rank)) {
        report("law", std::string("linear: ") + name + " basis differs from the attribute",
               ll.toString());
        return;
      }
  }
}

// Swizzled shared (one CTA, docs/ARCHITECTURE.md, "Shared layouts"): with col =
// order[0], row = order[1], offset o holds, in row i = (o / S_col) % S_row, the
// column
//   (o % S_col) ^ ((vec * ((i / perPhase) % maxPhase)) % S_col)
// (the inverse of "element (i, j) is stored at column
// (j % vec) + ((j / vec) ^ phase(i)) * vec"), outer dims in order after.
void Run::checkSwizzled(SwizzledSharedEncodingAttr s, const LinearLayout &ll) {
  if (numCTAs != 1 || !s.getCgaBases().empty())
    return;
  auto order = s.getOrder();
  unsigned rank = order.size();
  forInputs(ll, [&](uint64_t x) {
    std::vector<int64_t> want(rank);
    uint64_t o = x;
    for (unsigned k = 0; k < rank; ++k) {
      want[order[k]] = o % shape[order[k]];
      o /= shape[order[k]];
    }
    if (rank >= 2) {
      unsigned col = order[0], row = order[1];
      int64_t phase = (want[row] / s.getPerPhase()) % s.getMaxPhase();
      want[col] ^= (int64_t(s.getVec()) * phase) % shape[col];
    }
    Element got = elementOf(ll, x);
    for (unsigned d = 0; d < rank; ++d)
      if (got[d] != want[d]) {
        report("law", "swizzled_shared: element differs from the swizzle formula",
               "offset " + std::to_string(x) + "\n" + ll.toString());
        return;
      }
  });
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

size_t occurrences(llvm::StringRef s, llvm::StringRef what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != llvm::StringRef::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}

void Run::checkRendering(Attribute attr, const LinearLayout &ll) {
  int64_t numElements = 1;
  for (int64_t s : shape)
    numElements *= s;
  render::TensorInfo info;
  info.shape.assign(shape.begin(), shape.end());
  info.elementBits = elementType.getIntOrFloatBitWidth();
  llvm::raw_string_ostream(info.text) << RankedTensorType::get(shape, elementType);
  llvm::Expected<render::TensorLayout> t = render::convert({"", attr, false}, info);
  if (!t) {
    report("render", "render::convert rejects an accepted layout: " +
                         llvm::toString(t.takeError()));
    return;
  }
  if (t->ll != ll) {
    report("render", "render::convert made a different layout",
           t->ll.toString() + "\nvs" + ll.toString());
    return;
  }
  bool shared = isSharedEncoding(attr);
  int64_t inputs = ll.getTotalInDimSize();
  bool small = numElements <= kRenderLimit && inputs <= 4 * kRenderLimit &&
               src.chance(1, 4);
  bool huge = numElements > render::kMaxPrintedElements ||
              inputs > render::kMaxPrintedElements;

  if (!huge && !src.chance(1, 2))
    return;
  // JSON: every in dim with its bases, every out dim with its size.
  std::string json = render::jsonText({*t});
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json);
  if (!v) {
    report("render", "JSON does not parse: " + llvm::toString(v.takeError()), json);
    return;
  }
  const llvm::json::Object *obj = v->getAsObject();
  const llvm::json::Object *inDims = obj ? obj->getObject("in_dims") : nullptr;
  const llvm::json::Object *outDims = obj ? obj->getObject("out_dims") : nullptr;
  bool jsonOk = inDims && outDims && inDims->size() == size_t(ll.getNumInDims()) &&
                outDims->size() == shape.size();
  for (const std::string &n : ll.getInDimNames()) {
    const llvm::json::Array *a = jsonOk ? inDims->getArray(n) : nullptr;
    jsonOk = a && int(a->size()) == ll.getInDimSizeLog2(n);
  }
  for (unsigned d = 0; jsonOk && d < shape.size(); ++d)
    jsonOk = outDims->getInteger("dim" + std::to_string(d)) == shape[d];
  if (!jsonOk) {
    report("render", "JSON does not list the layout's dims", json);
    return;
  }

  if (huge) {
    // Too large to print: an error, not gigabytes.
    llvm::Expected<std::string> text = render::layoutText(*t, false);
    if (text)
      report("render", "layoutText printed a tensor above the limit");
    else
      llvm::consumeError(text.takeError());
    return;
  }
  if (!small)
    return;
  for (bool hw : {false, true}) {
    llvm::Expected<std::string> text = render::layoutText(*t, hw);
    if (shared && !hw && inputs != numElements) {
      // Several CTAs hold copies: no tensor view of the offsets.
      if (text)
        report("render", "shared tensor view printed for copies in several CTAs");
      else
        llvm::consumeError(text.takeError());
      continue;
    }
    if (!text) {
      report("render", "layoutText fails: " + llvm::toString(text.takeError()));
      return;
    }
    std::string header = "Print layout attribute: " + render::printAttr(attr) + "\n";
    if (!llvm::StringRef(*text).starts_with(header)) {
      report("render", "layoutText header", *text);
      return;
    }
    llvm::StringRef body = llvm::StringRef(*text).drop_front(header.size());
    // Every hardware slot (register of a thread, or shared offset) appears
    // exactly once: as an owner "T..." in the distributed tensor view, as a
    // "(...)" tuple in the hardware views and the shared tensor view.
    size_t want = size_t(inputs), got;
    if (!shared && !hw)
      got = occurrences(body, "T");
    else if (shared && !hw)
      got = occurrences(body, "("), want = size_t(numElements);
    else
      got = occurrences(body, "(");
    if (got != want) {
      report("render", std::string("layoutText ") + (hw ? "hardware" : "tensor") +
                           " view lists " + std::to_string(got) + " slots, not " +
                           std::to_string(want),
             *text);
      return;
    }
  }
  if (numElements <= kSvgLimit && src.chance(1, 4)) {
    llvm::Expected<std::string> svg = render::svgText({*t});
    if (!svg) {
      report("render", "svgText fails: " + llvm::toString(svg.takeError()));
      return;
    }
    llvm::StringRef s(*svg);
    // One rect per element plus the background.
    if (!s.starts_with("<?xml") || !s.ends_with("</svg>\n") ||
        occurrences(s, "<rect") != size_t(numElements) + 1)
      report("render", "SVG is not one cell per element", *svg);
  }
}

//===----------------------------------------------------------------------===//
// The generator's distributed layouts
//===----------------------------------------------------------------------===//

void Run::checkGenerator() {
  Attribute attr = ::tgpu::gen::randomDistributedLayout(src, ctx, shape, numWarps,
                                                      /*allowMma=*/src.coin());
  if (!attr) {
    report("generator-invalid", "randomDistributedLayout made nothing for a valid shape");
    return;
  }
  std::string printed;
  llvm::raw_string_ostream(printed) << attr;
  text = printed;
  RankedTensorType type;
  if (!verifyType(attr, type)) {
    report("generator-invalid", "tensor type rejects the layout: " + st.diag);
    return;
  }
  unsigned savedCTAs = numCTAs;
  numCTAs = 1;
  if (!verifyModule(type)) {
    report("generator-invalid", "module verifier rejects the layout: " + st.diag);
    return;
  }
  llvm::Expected<LinearLayout> ll = ::tgpu::layout::toLinearLayout(shape, attr);
  if (!ll) {
    report("generator-invalid",
           "toLinearLayout rejects the layout: " + llvm::toString(ll.takeError()));
    return;
  }
  if (!ll->isSurjective() || ll->getInDimSize("lane") != 32 ||
      ll->getInDimSize("warp") != int32_t(numWarps))
    report("generator-invalid", "the layout does not cover the tensor with 32 "
                                "lanes and num-warps warps",
           ll->toString());
  numCTAs = savedCTAs;
}

//===----------------------------------------------------------------------===//
// One input
//===----------------------------------------------------------------------===//

// Text mode: an input starting with '#' is the attribute itself, then
// optionally a line "AxBxC wN cN" with the tensor shape and the warp / CTA
// counts (default 16x16, 4 warps, 1 CTA). libFuzzer's text mutations (and
// the dictionary) then work on the attribute syntax directly. Nothing is
// known about such a text, except that a shape that is not powers of two
// must be refused.
bool Run::setupText(bool &mustReject) {
  llvm::StringRef in(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  auto [attrText, rest] = in.split('\n');
  text = attrText.str();
  shape = {16, 16};
  numWarps = 4;
  numCTAs = 1;
  elementType = Float16Type::get(ctx);
  llvm::SmallVector<llvm::StringRef> words;
  rest.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef w : words) {
    unsigned n = 0;
    if (w.consume_front("w") && !w.getAsInteger(10, n) && n && n <= 64 &&
        llvm::isPowerOf2_32(n))
      numWarps = n;
    else if (w.consume_front("c") && !w.getAsInteger(10, n) && n && n <= 16 &&
             llvm::isPowerOf2_32(n))
      numCTAs = n;
    else {
      llvm::SmallVector<llvm::StringRef> dims;
      w.split(dims, 'x');
      llvm::SmallVector<int64_t> s;
      for (llvm::StringRef d : dims) {
        int64_t v;
        if (d.getAsInteger(10, v) || v < 1 || v > (int64_t(1) << 20))
          break;
        s.push_back(v);
      }
      if (s.size() == dims.size() && !s.empty() && s.size() <= 4)
        shape = s;
    }
  }
  mustReject = false;
  for (int64_t s : shape)
    mustReject |= !llvm::isPowerOf2_64(uint64_t(s));
  return true;
}

std::optional<Finding> Run::go() {
  bool mustReject = false, mustAccept = false, checkGen = false;
  std::string defect;
  if (!bytes.empty() && bytes[0] == '#') {
    setupText(mustReject);
    defect = "shape not powers of two";
  } else {
    setupGenerated(mustReject, mustAccept, defect);
    checkGen = src.chance(1, 2);
  }
  if (failed())
    return finding;
  return stages(mustReject, mustAccept, checkGen, defect);
}

// Generated mode: a random tensor and a layout text from the generator.
void Run::setupGenerated(bool &mustReject, bool &mustAccept, std::string &defect) {
  // The tensor: rank 1..4, dims 1..64 (mostly small), sometimes a dim that
  // is not a power of two, rarely one too large to print.
  unsigned rank = 1 + src.weighted({4, 6, 3, 1});
  int bitsLeft = 12;
  for (unsigned d = 0; d < rank; ++d) {
    int b = std::min<int>(src.below(7), bitsLeft);
    bitsLeft -= b;
    shape.push_back(int64_t(1) << b);
  }
  // Rarely a tensor too large to print (2^23..2^26 elements; larger would
  // not fit shared memory offsets or Triton's int32 element counts).
  bool hugeShape = src.chance(1, 64);
  if (hugeShape) {
    unsigned d = src.below(rank);
    for (unsigned k = 0; k < rank; ++k)
      shape[k] = k == d ? int64_t(1) << 23 : std::min<int64_t>(shape[k], 2);
  }
  numWarps = 1u << src.below(4);
  static const unsigned elemBits[] = {8, 16, 32, 64};
  unsigned bits = elemBits[src.below(4)];
  elementType = src.coin() ? Type(IntegerType::get(ctx, bits))
                           : bits == 8   ? Type(Float8E4M3FNType::get(ctx))
                             : bits == 16 ? Type(Float16Type::get(ctx))
                             : bits == 32 ? Type(Float32Type::get(ctx))
                                          : Type(Float64Type::get(ctx));

  bool wantMalformed = src.coin();
  LayoutText lt =
      ::tgpu::gen::randomLayoutAttrText(src, shape, numWarps, wantMalformed);
  text = lt.text;
  // A layout made for the shape, on a tensor with a dim that is not a power
  // of two: toLinearLayout must refuse.
  bool shapeMalformed = src.chance(1, 24);
  if (shapeMalformed) {
    static const int64_t bad[] = {3, 5, 6, 12, 48, 100};
    shape[src.below(rank)] = bad[src.below(6)];
  }
  numCTAs = lt.numCTAs;
  mustReject = lt.isMalformed || shapeMalformed;
  // On a huge tensor a valid-looking layout may need more than 2^30
  // registers per thread (tiles repeated millions of times, broadcast
  // registers on top): refusing that is right, so expect nothing there.
  mustAccept = !lt.isMalformed && !lt.isGarbled && !shapeMalformed && !hugeShape;
  defect = shapeMalformed ? std::string("shape not powers of two") : lt.defect;
  // The generator's layouts are checked on shapes they are made for.
  generatedShapeOk = !shapeMalformed && !hugeShape;
}

std::optional<Finding> Run::stages(bool mustReject, bool mustAccept,
                                   bool checkGen, const std::string &defect) {

  // The stages; `stage` names the one that refused.
  std::string stage, why;
  Attribute attr = parse(text);
  RankedTensorType type;
  std::optional<LinearLayout> ll;
  if (!attr) {
    stage = "parse";
    why = st.diag;
  } else if (!verifyType(attr, type)) {
    stage = "tensor type";
    why = st.diag;
  } else if (!verifyModule(type)) {
    stage = "module";
    why = st.diag;
  } else {
    llvm::Expected<LinearLayout> l = ::tgpu::layout::toLinearLayout(shape, attr);
    if (!l) {
      stage = "toLinearLayout";
      why = llvm::toString(l.takeError());
    } else {
      ll = std::move(*l);
    }
  }
  bool accepted = stage.empty();
  if (!accepted && why.empty())
    report("silent-rejection", "refused at " + stage + " without a message");
  else if (accepted && mustReject)
    report("accepted-malformed", "accepted a malformed layout (" + defect + ")");
  else if (!accepted && mustAccept)
    report("rejected-valid", "valid layout refused at " + stage + ": " + why);
  if (failed())
    return finding;

  // The same text as a whole module must meet the same fate (the module
  // path has no toLinearLayout stage).
  // (Only for distributed layouts: a shared layout is checked on a tensor
  // type piecewise but goes on a buffer in the module text, whose rank rule
  // differs: a buffer may have more dimensions than its layout.)
  if (src.chance(1, 8) && (!attr || isDistributedEncoding(attr))) {
    bool wholeAccepted = acceptedAsModuleText(text);
    bool piecewise = attr && type && (stage.empty() || stage == "toLinearLayout");
    if (wholeAccepted != piecewise)
      report("inconsistent",
             std::string("the module parser ") + (wholeAccepted ? "accepts" : "refuses") +
                 " what the piecewise checks " + (piecewise ? "accept" : "refuse"),
             "module diagnostics: " + st.diag + "\npiecewise: " + stage + ": " + why);
  }
  if (!failed() && ll)
    checkLayout(attr, *ll);
  if (!failed() && checkGen && generatedShapeOk)
    checkGenerator();
  return finding;
}

std::optional<Finding> runLayoutAttr(llvm::ArrayRef<uint8_t> data) {
  State &st = state();
  Run run(data, st);
  return run.go();
}

} // namespace

namespace tgpu::fuzz {
const TargetInfo &layoutAttrTarget() {
  static const TargetInfo info{
      "fuzz_layout_attr",
      "ttg layout attributes (valid and malformed) through parser, verifiers, "
      "toLinearLayout, layout invariants and rendering",
      runLayoutAttr, nullptr};
  return info;
}
} // namespace tgpu::fuzz
