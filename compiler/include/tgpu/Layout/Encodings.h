// Layout encodings as plain values, mirroring the ttg attributes field for
// field, and their conversion to LinearLayouts. No MLIR here: the ttg
// attributes convert to these (tgpu/Dialect/TritonGPU/IR/AttrConversion.h), and
// fuzzers and property tests build them directly.
#ifndef TGPU_LAYOUT_ENCODINGS_H
#define TGPU_LAYOUT_ENCODINGS_H

#include "tgpu/Layout/LinearLayout.h"

#include <memory>
#include <optional>
#include <variant>

namespace tgpu::layout {

struct Encoding;

// How CTAs of a cluster split the tensor: the images of the `block` bits,
// one coordinate per tensor dim. Empty: one CTA.
struct CGALayout {
  std::vector<std::vector<int32_t>> blockBases;
};

struct BlockedEncoding {
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  CGALayout cga;
};

struct NvidiaMmaEncoding {
  unsigned versionMajor = 2, versionMinor = 0;
  std::vector<unsigned> warpsPerCTA, instrShape;
  CGALayout cga;
};

struct SliceEncoding {
  unsigned dim = 0;
  std::shared_ptr<const Encoding> parent;
};

struct DotOperandEncoding {
  unsigned opIdx = 0;
  std::shared_ptr<const Encoding> parent;
  unsigned kWidth = 0;
};

// A distributed layout given by its bases: in dims register, lane, warp,
// block; out dims dim0.. .
struct LinearEncoding {
  LinearLayout layout;
};

struct SwizzledSharedEncoding {
  unsigned vec = 1, perPhase = 1, maxPhase = 1;
  std::vector<unsigned> order;
  CGALayout cga;
};

struct NVMMASharedEncoding {
  unsigned swizzlingByteWidth = 0;
  bool transposed = false;
  unsigned elementBitWidth = 16;
  bool fp4Padded = false;
  unsigned rank = 2;
  CGALayout cga;
};

// A shared layout given by its bases: in dims offset, block.
struct SharedLinearEncoding {
  LinearLayout layout;
  unsigned alignment = 0;
};

struct Encoding
    : std::variant<BlockedEncoding, NvidiaMmaEncoding, SliceEncoding,
                   DotOperandEncoding, LinearEncoding, SwizzledSharedEncoding,
                   NVMMASharedEncoding, SharedLinearEncoding> {
  using variant::variant;
};

bool isSharedEncoding(const Encoding &e);
// A short text in the style of the ttg attribute syntax (for messages).
std::string describe(const Encoding &e);
// The rank of the tensors the encoding describes.
unsigned getRank(const Encoding &e);

// "dim0", "dim1", ... .
std::vector<std::string> standardOutDimNames(unsigned rank);

// The layout of a tensor of `shape` in encoding `e`, as Triton 3.6 computes
// it. Distributed encodings give (register, lane, warp, block) -> dims;
// shared encodings give (offset, block) -> dims. Every element of the tensor
// is covered; a layout tile larger than the tensor broadcasts (several owners
// per element), a smaller one wraps around in extra register bases.
// Malformed encodings and shapes (rank mismatch, sizes that are not powers of
// two, parameters a mma version does not allow) are errors.
llvm::Expected<LinearLayout> toLinearLayout(llvm::ArrayRef<int64_t> shape,
                                            const Encoding &e);

// The elementwise bit width `toLinearLayout` assumes for dot operands and
// nvmma_shared when the encoding itself does not say (not needed by the
// encodings above; kept for callers that know the element type).

// The element offset a shared buffer's inverted layout `toOffset` (element
// indices -> "offset", "block") gives `coords`; -1 when it has none or puts
// the element in another CTA's block.
int64_t sharedElementOffset(const LinearLayout &toOffset,
                            llvm::ArrayRef<LinearLayout::NamedValue> coords);

// Triton's layout helpers, shared by the conversions.
// Out dims smaller than `shape` grow by extra bases of the first in dim.
llvm::Expected<LinearLayout>
ensureLayoutNotSmallerThan(const LinearLayout &l,
                           llvm::ArrayRef<LinearLayout::NamedSize> shape);
// Out dims larger than `shape` shrink: the largest bases of that dim are
// zeroed (broadcast); register bases are removed instead when
// `broadcastRegisters` is false.
llvm::Expected<LinearLayout>
ensureLayoutNotLargerThan(const LinearLayout &l,
                          llvm::ArrayRef<LinearLayout::NamedSize> shape,
                          bool broadcastRegisters = true);
// The product of a CTA's layout with the CGA layout, fitted to `shape`.
llvm::Expected<LinearLayout> combineCtaCgaWithShape(LinearLayout cta,
                                                    const CGALayout &cga,
                                                    llvm::ArrayRef<int64_t> shape);
// identity1D for each dim in `order` (fastest first), outs dim0.. in order.
llvm::Expected<LinearLayout>
identityStandardND(llvm::StringRef inDim, llvm::ArrayRef<unsigned> shape,
                   llvm::ArrayRef<unsigned> order);

// tt.split on a distributed layout of a tensor whose last dim has size 2:
// the layout of either half. The half index must be one register bit (each
// thread holds both halves, no other bit touches the last dim); that
// register basis and the last out dim are removed. An error otherwise.
llvm::Expected<LinearLayout> splitLastDimLayout(const LinearLayout &l);

// tt.reshape without reordering: the layout of the result when each thread
// keeps its registers, the elements read in row-major order (the last dim
// fastest) in both shapes. An error when the element counts differ.
llvm::Expected<LinearLayout> reshapeLayout(const LinearLayout &l,
                                           llvm::ArrayRef<int64_t> shape);

// A single-CTA #ttg.blocked whose layout on a tensor of `shape` is `l`, or
// nothing: its parameters are read off the bases (a run of doubling
// register bases per dim gives sizePerThread, the lane and warp bases along
// each dim threadsPerWarp and warpsPerCTA), every order is tried, the zero
// bases of each in dim (a dim the tensor is too small for) go to one dim,
// each tried, and a candidate counts only if toLinearLayout gives `l` back.
// Always found when the tensor covers the layout's tile (no zero bases);
// with zero bases split over several dims it may find none.
std::optional<BlockedEncoding> blockedEncodingOf(const LinearLayout &l,
                                                 llvm::ArrayRef<int64_t> shape);

} // namespace tgpu::layout

#endif
