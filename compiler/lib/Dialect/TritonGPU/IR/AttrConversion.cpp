#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace tgpu::layout;
using namespace mlir::triton::gpu;
using llvm::ArrayRef;
using llvm::Expected;

namespace {

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

// Flattened bases (rank entries each) -> list of bases.
std::vector<LinearLayout::Basis> unflatten(ArrayRef<int32_t> flat,
                                           unsigned rank) {
  std::vector<LinearLayout::Basis> r;
  if (rank == 0)
    return r;
  for (size_t i = 0; i + rank <= flat.size(); i += rank)
    r.push_back(LinearLayout::Basis(flat.begin() + i, flat.begin() + i + rank));
  return r;
}

CGALayout cga(ArrayRef<int32_t> flat, unsigned rank) {
  return CGALayout{unflatten(flat, rank)};
}

std::vector<unsigned> vec(ArrayRef<unsigned> a) { return {a.begin(), a.end()}; }

std::vector<int32_t> flatten(const LinearLayout &l, llvm::StringRef inDim) {
  std::vector<int32_t> r;
  for (int b = 0; b < l.getInDimSizeLog2(inDim); ++b)
    for (int32_t c : l.getBasis(inDim, b))
      r.push_back(c);
  return r;
}

llvm::Error checkDims(const LinearLayout &l,
                      std::vector<std::string> expectedIns) {
  std::vector<std::string> ins = l.getInDimNames();
  for (const std::string &n : ins)
    if (!llvm::is_contained(expectedIns, n))
      return err("layout has input dimension '" + n + "'; expected only " +
                 llvm::join(expectedIns, ", "));
  if (l.getOutDimNames() != standardOutDimNames(l.getNumOutDims()))
    return err("layout output dimensions must be dim0, dim1, ...");
  return llvm::Error::success();
}

} // namespace

Expected<Encoding> tgpu::layout::encodingFromAttr(mlir::Attribute attr) {
  if (!attr)
    return err("no layout attribute");
  if (auto b = mlir::dyn_cast<BlockedEncodingAttr>(attr))
    return Encoding(BlockedEncoding{vec(b.getSizePerThread()),
                                    vec(b.getThreadsPerWarp()),
                                    vec(b.getWarpsPerCTA()), vec(b.getOrder()),
                                    cga(b.getCgaBases(), b.getRank())});
  if (auto m = mlir::dyn_cast<NvidiaMmaEncodingAttr>(attr)) {
    std::vector<unsigned> instr = vec(m.getInstrShape());
    // A v2 layout written without instrShape has mma.sync's m16n8 tile.
    if (instr.empty() && m.isAmpere()) {
      instr = {16, 8};
      if (m.getRank() == 3)
        instr.insert(instr.begin(), 1);
    }
    return Encoding(NvidiaMmaEncoding{m.getVersionMajor(), m.getVersionMinor(),
                                      vec(m.getWarpsPerCTA()), std::move(instr),
                                      cga(m.getCgaBases(), m.getRank())});
  }
  if (auto s = mlir::dyn_cast<SliceEncodingAttr>(attr)) {
    Expected<Encoding> parent = encodingFromAttr(s.getParent());
    if (!parent)
      return parent.takeError();
    return Encoding(SliceEncoding{
        s.getDim(), std::make_shared<Encoding>(std::move(*parent))});
  }
  if (auto d = mlir::dyn_cast<DotOperandEncodingAttr>(attr)) {
    Expected<Encoding> parent = encodingFromAttr(d.getParent());
    if (!parent)
      return parent.takeError();
    return Encoding(DotOperandEncoding{
        d.getOpIdx(), std::make_shared<Encoding>(std::move(*parent)),
        d.getKWidth()});
  }
  if (auto l = mlir::dyn_cast<LinearEncodingAttr>(attr)) {
    unsigned rank = l.getRank();
    Expected<LinearLayout> ll = LinearLayout::create(
        {{"register", unflatten(l.getRegisterBases(), rank)},
         {"lane", unflatten(l.getLaneBases(), rank)},
         {"warp", unflatten(l.getWarpBases(), rank)},
         {"block", unflatten(l.getBlockBases(), rank)}},
        standardOutDimNames(rank));
    if (!ll)
      return err("#ttg.linear: " + llvm::toString(ll.takeError()));
    return Encoding(LinearEncoding{std::move(*ll)});
  }
  if (auto s = mlir::dyn_cast<SwizzledSharedEncodingAttr>(attr))
    return Encoding(SwizzledSharedEncoding{
        s.getVec(), s.getPerPhase(), s.getMaxPhase(), vec(s.getOrder()),
        cga(s.getCgaBases(), s.getOrder().size())});
  if (auto n = mlir::dyn_cast<NVMMASharedEncodingAttr>(attr))
    return Encoding(NVMMASharedEncoding{
        n.getSwizzlingByteWidth(), n.getTransposed(), n.getElementBitWidth(),
        n.getFp4Padded(), n.getRank(), cga(n.getCgaBases(), n.getRank())});
  if (auto s = mlir::dyn_cast<SharedLinearEncodingAttr>(attr)) {
    unsigned rank = s.getRank();
    Expected<LinearLayout> ll =
        LinearLayout::create({{"offset", unflatten(s.getOffsetBases(), rank)},
                              {"block", unflatten(s.getBlockBases(), rank)}},
                             standardOutDimNames(rank));
    if (!ll)
      return err("#ttg.shared_linear: " + llvm::toString(ll.takeError()));
    return Encoding(SharedLinearEncoding{std::move(*ll), s.getAlignment()});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return err("not a layout encoding: " + text);
}

namespace mlir::triton::gpu {
// Passes ask for the layout of the same few (encoding, shape) pairs again and
// again (type conversion, scratch sizes, every lowering pattern); building
// one was a tenth of fuzz_pipeline's time. Only successes are kept. Bounded:
// a long-lived context (a fuzzer's) sees ever new attributes.
class LayoutCache {
public:
  std::optional<LinearLayout> find(mlir::Attribute attr,
                                   ArrayRef<int64_t> shape) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = layouts.find(Key(attr.getAsOpaquePointer(), Shape(shape)));
    if (it == layouts.end())
      return std::nullopt;
    return it->second;
  }
  void insert(mlir::Attribute attr, ArrayRef<int64_t> shape,
              const LinearLayout &layout) {
    std::lock_guard<std::mutex> lock(mutex);
    if (layouts.size() >= kMaxEntries)
      layouts.clear();
    layouts.emplace(Key(attr.getAsOpaquePointer(), Shape(shape)), layout);
  }

private:
  static constexpr size_t kMaxEntries = 1 << 14;
  // Inline up to rank 4: a lookup allocates nothing.
  using Shape = llvm::SmallVector<int64_t, 4>;
  using Key = std::pair<const void *, Shape>;
  std::mutex mutex;
  std::map<Key, LinearLayout> layouts;
};
} // namespace mlir::triton::gpu

LayoutCache &TritonGPUDialect::getLayoutCache() const {
  std::call_once(layoutCacheOnce,
                 [&] { layoutCache = std::make_shared<LayoutCache>(); });
  return *layoutCache;
}

Expected<LinearLayout> tgpu::layout::toLinearLayout(ArrayRef<int64_t> shape,
                                                    mlir::Attribute attr) {
  auto *dialect =
      attr ? llvm::dyn_cast<TritonGPUDialect>(&attr.getDialect()) : nullptr;
  if (dialect)
    if (std::optional<LinearLayout> cached =
            dialect->getLayoutCache().find(attr, shape))
      return std::move(*cached);
  Expected<Encoding> e = encodingFromAttr(attr);
  if (!e)
    return e.takeError();
  Expected<LinearLayout> layout = toLinearLayout(shape, *e);
  if (layout && dialect)
    dialect->getLayoutCache().insert(attr, shape, *layout);
  return layout;
}

Expected<LinearEncodingAttr>
tgpu::layout::toLinearEncodingAttr(mlir::MLIRContext *ctx,
                                   const LinearLayout &l) {
  if (llvm::Error e = checkDims(l, {"register", "lane", "warp", "block"}))
    return std::move(e);
  return LinearEncodingAttr::get(ctx, l.getNumOutDims(), flatten(l, "register"),
                                 flatten(l, "lane"), flatten(l, "warp"),
                                 flatten(l, "block"));
}

Expected<SharedLinearEncodingAttr> tgpu::layout::toSharedLinearEncodingAttr(
    mlir::MLIRContext *ctx, const LinearLayout &l, unsigned alignment) {
  if (llvm::Error e = checkDims(l, {"offset", "block"}))
    return std::move(e);
  if (l.getNumOutDims() == 0)
    return err("a shared layout needs at least one output dimension");
  return SharedLinearEncodingAttr::get(ctx, l.getNumOutDims(),
                                       flatten(l, "offset"),
                                       flatten(l, "block"), alignment);
}
