// Random ttg layout attributes, steered by a ByteSource.
//
// randomDistributedLayout makes a layout the compiler must accept for a given
// tensor (the program generator puts them on tensors); randomLayoutAttrText
// makes the text of any layout attribute, valid or deliberately broken, for
// the layout fuzzer, which checks that the dialect accepts exactly the valid
// ones. The layouts themselves are drawn by the layout generator the
// property tests share (fuzz/layoutgen/LayoutSpecs.h: draw::programLayout,
// draw::programSharedLayout, draw::anyLayout); this file adds the
// attributes, the text and the broken variants.
#ifndef TGPU_FUZZ_GENERATOR_RANDOMLAYOUTS_H
#define TGPU_FUZZ_GENERATOR_RANDOMLAYOUTS_H

#include "fuzz/generator/ByteSource.h"
#include "fuzz/layoutgen/LayoutSpecs.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace tgpu::gen {

// A random distributed layout attribute valid for a tensor of `shape` with
// `numWarps` warps of 32 lanes and one CTA (it passes the dialect verifier
// with ttg.num-warps = numWarps, ttg.threads-per-warp = 32, ttg.num-ctas = 1,
// and toLinearLayout for `shape`): draw::programLayout's kinds (blocked,
// slice, linear, dot_op, and nvidia_mma v2 when `allowMma` and it fits).
// Returns a null attribute when no layout fits: rank 0, a dim that is not a
// power of two (or above 2^30), or `numWarps` not a power of two.
mlir::Attribute randomDistributedLayout(ByteSource &src, mlir::MLIRContext *ctx,
                                        llvm::ArrayRef<int64_t> shape,
                                        unsigned numWarps, bool allowMma = false);

// What randomLayoutAttrText made (`kind`: LayoutKind, LayoutSpecs.h).
struct LayoutText {
  std::string text;
  LayoutKind kind = LayoutKind::Other;
  // Broken on purpose: every correct reader (parser, attribute verifier,
  // tensor-type verifier, module verifier with the counts below, or
  // toLinearLayout for the shape) must reject it. `defect` says how.
  bool isMalformed = false;
  // Randomly edited text: may or may not be valid; no expectation.
  bool isGarbled = false;
  std::string defect;
  // The module counts the layout is made for (ttg.num-ctas may be > 1 for a
  // layout with a CGALayout).
  unsigned numWarps = 4, threadsPerWarp = 32, numCTAs = 1;
};

// A random shared-memory layout for a `shape` buffer of `elementBits`-wide
// elements that the compiler must accept (draw::programSharedLayout:
// swizzled_shared, nvmma_shared when the width allows, shared_linear), or
// null for shapes that are not powers of two.
mlir::Attribute randomSharedLayout(ByteSource &src, mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<int64_t> shape,
                                   unsigned elementBits);

// The text of a random layout attribute for a tensor of `shape` (powers of
// two) and `numWarps` warps of 32 lanes: valid, or with `wantMalformed` (most
// of the time) broken in one known way (wrong ranks, sizes that are not
// powers of two, products that differ from the warp / lane counts, bad order
// permutations, missing or unknown fields, out-of-range dims and bases,
// truncation) or garbled. Covers every ttg layout (draw::anyLayout):
// blocked (with CGA and legacy CTA fields), slice, linear, nvidia_mma v2/v3,
// dot_op, swizzled_shared, nvmma_shared and shared_linear.
LayoutText randomLayoutAttrText(ByteSource &src, llvm::ArrayRef<int64_t> shape,
                                unsigned numWarps, bool wantMalformed);

// The same, as text plus a flag.
inline std::string randomLayoutAttrText(ByteSource &src,
                                        llvm::ArrayRef<int64_t> shape,
                                        unsigned numWarps, bool wantMalformed,
                                        bool &isMalformed) {
  LayoutText t = randomLayoutAttrText(src, shape, numWarps, wantMalformed);
  isMalformed = t.isMalformed;
  return t.text;
}

} // namespace tgpu::gen

#endif
