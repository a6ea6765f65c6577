// Verifiers and folders of the ttg ops tgpu reads but does not lower, apart
// from warp specialization (WarpSpecializeOps.cpp): memdesc_reinterpret and
// fp4_to_fp. Rules and messages are Triton 3.6's.
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

using namespace mlir;
using namespace mlir::triton::gpu;

OpFoldResult MemDescReinterpretOp::fold(FoldAdaptor) {
  if (getType() == getSrc().getType())
    return getSrc();
  return {};
}

namespace {

std::optional<tgpu::layout::LinearLayout>
linearLayoutOf(ArrayRef<int64_t> shape, Attribute enc) {
  auto ll = tgpu::layout::toLinearLayout(shape, enc);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return std::nullopt;
  }
  return std::move(*ll);
}

// Triton's order of a distributed layout: dims in the order the register
// bases first step along them, then the dims no register moves along, from
// the last to the first.
SmallVector<unsigned> registerOrder(const tgpu::layout::LinearLayout &ll,
                                    unsigned rank) {
  llvm::SetVector<unsigned> order;
  if (ll.hasInDim("register"))
    for (int i = 0, e = ll.getInDimSizeLog2("register"); i < e; ++i) {
      tgpu::layout::LinearLayout::Basis basis = ll.getBasis("register", i);
      auto nonZero = llvm::find_if(basis, [](int32_t c) { return c != 0; });
      if (nonZero != basis.end())
        order.insert(unsigned(nonZero - basis.begin()));
    }
  for (unsigned d = rank; d-- > 0;)
    order.insert(d);
  return order.takeVector();
}

// The source layout that unpacking along `axis` turns into `resLl` (Triton's
// backward inference): the register basis stepping 1 along `axis` is the
// nibble pair, and every other basis covers half as much along `axis`.
std::optional<tgpu::layout::LinearLayout>
splitPairOffAxis(const tgpu::layout::LinearLayout &resLl, unsigned axis) {
  std::vector<tgpu::layout::LinearLayout::DimBases> bases;
  bool foundPair = false;
  for (auto &[inDim, dimBases] : resLl.getBases()) {
    std::vector<tgpu::layout::LinearLayout::Basis> kept;
    for (tgpu::layout::LinearLayout::Basis basis : dimBases) {
      if (inDim == "register" && basis[axis] == 1) {
        foundPair = true;
        continue;
      }
      basis[axis] /= 2;
      kept.push_back(std::move(basis));
    }
    bases.emplace_back(inDim, std::move(kept));
  }
  if (!foundPair)
    return std::nullopt;
  auto ll = tgpu::layout::LinearLayout::create(bases, resLl.getOutDimNames());
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return std::nullopt;
  }
  return std::move(*ll);
}

} // namespace

LogicalResult Fp4ToFpOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto resTy = cast<RankedTensorType>(getResult().getType());
  Type elemType = resTy.getElementType();
  if (!elemType.isBF16() && !elemType.isF16())
    return emitError() << "only bf16 or f16 is supported for now, got "
                       << elemType;

  int64_t rank = srcTy.getRank();
  if (rank != resTy.getRank())
    return emitError() << "source rank " << rank << " != result rank "
                       << resTy.getRank();
  // Triton reads the axis as unsigned: a negative one is reported as a
  // large number.
  unsigned axis = unsigned(getAxis());
  if (axis >= rank)
    return emitError() << "axis " << axis << " out of range for rank " << rank;
  ArrayRef<int64_t> srcShape = srcTy.getShape(), resShape = resTy.getShape();
  for (int64_t i = 0; i < rank; ++i) {
    if (i == axis && resShape[i] != srcShape[i] * 2)
      return emitError() << "axis " << axis
                         << " dimension must be 2x source dimension (src="
                         << srcShape[i] << ", dst=" << resShape[i] << ")";
    if (i != axis && resShape[i] != srcShape[i])
      return emitError() << "dimension " << i
                         << " mismatch (src=" << srcShape[i]
                         << ", dst=" << resShape[i] << ", axis=" << axis << ")";
  }

  Attribute srcEnc = srcTy.getEncoding(), resEnc = resTy.getEncoding();
  if (bool(srcEnc) != bool(resEnc))
    return emitError()
           << "source and result must both have an encoding, or neither";
  if (!resEnc)
    return success();
  // Layouts tgpu has no LinearLayout for are not compared (the tensor type's
  // own checks speak about them).
  std::optional<tgpu::layout::LinearLayout> resLl =
      linearLayoutOf(resShape, resEnc);
  std::optional<tgpu::layout::LinearLayout> srcLl =
      linearLayoutOf(srcShape, srcEnc);
  if (!resLl || !srcLl)
    return success();

  // Which source layout the result implies. For a blocked or dot operand
  // result whose register order has dimension 0 at position `axis`, Triton
  // halves sizePerThread[axis] or kWidth; for any other, it splits the
  // pair off the LinearLayout.
  std::optional<tgpu::layout::LinearLayout> inferred;
  MLIRContext *ctx = getContext();
  bool legacy = registerOrder(*resLl, rank)[axis] == 0 &&
                isa<BlockedEncodingAttr, DotOperandEncodingAttr>(resEnc);
  if (legacy) {
    Attribute inferredEnc;
    if (auto dot = dyn_cast<DotOperandEncodingAttr>(resEnc)) {
      if (dot.getKWidth() > 1)
        inferredEnc = DotOperandEncodingAttr::get(
            ctx, dot.getOpIdx(), dot.getParent(), dot.getKWidth() / 2);
    } else {
      auto blocked = cast<BlockedEncodingAttr>(resEnc);
      SmallVector<unsigned> sizePerThread(blocked.getSizePerThread());
      if (sizePerThread[axis] > 1) {
        sizePerThread[axis] /= 2;
        inferredEnc = BlockedEncodingAttr::get(
            ctx, sizePerThread, blocked.getThreadsPerWarp(),
            blocked.getWarpsPerCTA(), blocked.getOrder(),
            blocked.getCgaBases());
      }
    }
    if (inferredEnc)
      inferred = linearLayoutOf(srcShape, inferredEnc);
  } else if (std::optional<tgpu::layout::LinearLayout> split =
                 splitPairOffAxis(*resLl, axis)) {
    // As a #ttg.linear of the source's shape, as Triton compares it.
    auto linear = tgpu::layout::toLinearEncodingAttr(ctx, *split);
    if (linear)
      inferred = linearLayoutOf(srcShape, *linear);
    else
      llvm::consumeError(linear.takeError());
  }
  if (!inferred)
    return emitError() << "failed to infer encoding";
  if (!(*inferred == *srcLl))
    return emitError() << "Src and Dst encodings are not compatible:\n"
                       << inferred->toString() << "\n"
                       << srcLl->toString();
  return success();
}
