// Pictures of a layout for a tensor: triton-tensor-layout's text views
// (tensor view and hardware view, byte for byte), the LinearLayout bases as
// JSON, and an SVG grid. tgpu-layout is a command line around these; the
// layout fuzzer renders every layout it accepts through them too.
//
// Everything is computed from the layout's LinearLayout; every function
// returns its output as a string (or an error naming the problem), so a
// caller prints nothing on failure.
#ifndef TGPU_TOOLS_LIB_LAYOUTRENDER_H
#define TGPU_TOOLS_LIB_LAYOUTRENDER_H

#include "tgpu/Layout/LinearLayout.h"

#include "mlir/IR/Attributes.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace tgpu::layout::render {

// Text and SVG enumerate every element and every layout input; larger
// tensors are refused instead of producing gigabytes of output.
constexpr int64_t kMaxPrintedElements = int64_t(1) << 22;
constexpr int64_t kMaxSvgCells = int64_t(1) << 16;

// The tensor a layout is drawn for.
struct TensorInfo {
  llvm::SmallVector<int64_t> shape;
  unsigned elementBits = 32;
  // The type as the user wrote it (e.g. "tensor<16x16xf16>"), for messages
  // and the SVG caption.
  std::string text;
};

// A layout to draw: the attribute and, for one read from a file, its alias.
struct NamedLayout {
  std::string alias; // without '#'; empty when given directly
  mlir::Attribute attr;
  bool blankLineAfter = false; // triton-tensor-layout's -alias-names spacing
};

// A layout converted for a tensor, with the evaluation the printers need.
struct TensorLayout {
  NamedLayout source;
  LinearLayout ll;
  llvm::SmallVector<int64_t> shape;
  unsigned elementBits = 32;
  bool shared =
      false; // ins (offset, block) instead of (register, lane, warp, block)
  std::string tensorText;

  int64_t size(llvm::StringRef inDim) const { return ll.getInDimSize(inDim); }
  int64_t numElements() const;
  // The element coordinates for the given input values (absent dims are 0).
  std::vector<int32_t>
  coords(std::initializer_list<std::pair<llvm::StringRef, int64_t>> in) const;
  // Row-major index of an element, and back.
  int64_t linearize(llvm::ArrayRef<int32_t> c) const;
  std::vector<int64_t> delinearize(int64_t idx) const;
};

// The attribute as MLIR prints it.
std::string printAttr(mlir::Attribute attr);

// The errors the renderers and tgpu-layout report: a message, and optionally
// why (MLIR's diagnostic, the conversion's error), indented on the next lines.
llvm::Error fail(const llvm::Twine &msg);
llvm::Error fail(const llvm::Twine &msg, const llvm::Twine &detail);

// Converts a layout attribute for a tensor and checks that the result has the
// dims the printers read (register/lane/warp/block or offset/block in,
// dim0.. sized like the tensor out).
llvm::Expected<TensorLayout> convert(const NamedLayout &named,
                                     const TensorInfo &tensor);

// triton-tensor-layout's text: "Print layout attribute: ..." and the tensor
// view (each element lists its owners) or, with `hwView`, the hardware view
// (per warp, per register, each lane's element).
llvm::Expected<std::string> layoutText(const TensorLayout &t, bool hwView);

// {"in_dims": {"register": [[..], ..], ...}, "out_dims": {"dim0": N, ...}};
// an array of those for several layouts.
std::string jsonText(llvm::ArrayRef<TensorLayout> layouts);

// One SVG picture with a grid per layout, one below the other.
llvm::Expected<std::string> svgText(llvm::ArrayRef<TensorLayout> layouts);

} // namespace tgpu::layout::render

#endif
