// The renderers behind tgpu-layout (see Render.h): triton-tensor-layout's
// text views, JSON bases and SVG grids, all computed from a LinearLayout.
#include "tools/lib/LayoutRender.h"

#include "tgpu/Dialect/TritonGPU/IR/AttrConversion.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using llvm::Expected;
using llvm::StringRef;
namespace tl = ::tgpu::layout;
using tl::LinearLayout;

namespace tgpu::layout::render {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

// A message plus, indented on the next lines, why (MLIR's diagnostic, the
// conversion's error, ...).
llvm::Error fail(const llvm::Twine &msg, const llvm::Twine &detail) {
  std::string why = detail.str();
  llvm::SmallVector<StringRef> lines;
  StringRef(why).trim().split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string text = msg.str();
  for (StringRef line : lines)
    text += "\n  " + line.rtrim().str();
  return fail(text);
}

//===----------------------------------------------------------------------===//
// The layout of one tensor
//===----------------------------------------------------------------------===//

std::string printAttr(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

int64_t TensorLayout::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

std::vector<int32_t> TensorLayout::coords(
    std::initializer_list<std::pair<StringRef, int64_t>> in) const {
  std::vector<int32_t> perIn(ll.getNumInDims(), 0);
  for (auto [name, value] : in)
    if (int k = ll.findIn(name); k >= 0)
      perIn[k] = int32_t(value);
  return ll.unpackOut(ll.applyFlat(ll.packIn(perIn)));
}

int64_t TensorLayout::linearize(llvm::ArrayRef<int32_t> c) const {
  int64_t idx = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    idx = idx * shape[d] + c[d];
  return idx;
}

std::vector<int64_t> TensorLayout::delinearize(int64_t idx) const {
  std::vector<int64_t> c(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = idx % shape[d];
    idx /= shape[d];
  }
  return c;
}

namespace {

// Checks that the layout has the dims the printers read, sized like the tensor.
llvm::Error checkLayoutDims(const TensorLayout &t, StringRef what) {
  std::vector<std::string> ins =
      t.shared ? std::vector<std::string>{"offset", "block"}
               : std::vector<std::string>{"register", "lane", "warp", "block"};
  for (const std::string &name : t.ll.getInDimNames())
    if (!llvm::is_contained(ins, name))
      return fail("Unsupported tensor layout attribute: " + what,
                  "unexpected input dimension '" + name + "'");
  std::vector<std::string> outs = tl::standardOutDimNames(t.shape.size());
  if (t.ll.getOutDimNames() != outs)
    return fail("Layout does not match the tensor: " + what,
                "output dimensions are not dim0..dim" +
                    llvm::Twine(t.shape.size() - 1));
  for (size_t d = 0; d < outs.size(); ++d)
    if (t.ll.getOutDimSize(outs[d]) != t.shape[d])
      return fail("Layout does not match the tensor: " + what,
                  outs[d] + " has size " +
                      llvm::Twine(t.ll.getOutDimSize(outs[d])) +
                      ", the tensor " + llvm::Twine(t.shape[d]));
  return llvm::Error::success();
}

} // namespace

Expected<TensorLayout> convert(const NamedLayout &named,
                               const TensorInfo &tensor) {
  std::string what = printAttr(named.attr);
  Expected<tl::Encoding> enc = tl::encodingFromAttr(named.attr);
  if (!enc) {
    std::string why = llvm::toString(enc.takeError());
    if (!isa<triton::gpu::TritonGPUDialect>(named.attr.getDialect()))
      why = "expected a #ttg layout encoding (blocked, slice, dot_op, "
            "nvidia_mma, linear, swizzled_shared, nvmma_shared, shared_linear)";
    return fail("Unsupported tensor layout attribute: " + what, why);
  }
  unsigned rank = tl::getRank(*enc);
  if (rank != tensor.shape.size())
    return fail("Rank mismatch: the layout " + what + " has rank " +
                llvm::Twine(rank) + " but " + tensor.text + " has rank " +
                llvm::Twine(tensor.shape.size()));
  Expected<LinearLayout> ll = tl::toLinearLayout(tensor.shape, *enc);
  if (!ll)
    return fail("Fail to convert the layout " + what + " for " + tensor.text,
                llvm::toString(ll.takeError()));
  TensorLayout t{named,
                 std::move(*ll),
                 tensor.shape,
                 tensor.elementBits,
                 tl::isSharedEncoding(*enc),
                 tensor.text};
  if (llvm::Error e = checkLayoutDims(t, what))
    return std::move(e);
  return t;
}

namespace {

// Text and SVG walk every input value and every element.
llvm::Error checkPrintable(const TensorLayout &t, int64_t maxElements,
                           StringRef what) {
  if (t.ll.getTotalInDimSize() > maxElements || t.numElements() > maxElements)
    return fail("The tensor is too large for " + what + ": " + t.tensorText,
                "at most " + llvm::Twine(maxElements) +
                    " elements and layout inputs");
  return llvm::Error::success();
}

// Calls fn(block, warp, lane, register, element) for every register of every
// thread, in triton-tensor-layout's order (block outermost, register fastest).
template <typename Fn> void forEachOwner(const TensorLayout &t, Fn fn) {
  int64_t B = t.size("block"), W = t.size("warp"), L = t.size("lane"),
          R = t.size("register");
  for (int64_t b = 0; b < B; ++b)
    for (int64_t w = 0; w < W; ++w)
      for (int64_t l = 0; l < L; ++l)
        for (int64_t r = 0; r < R; ++r)
          fn(b, w, l, r,
             t.linearize(t.coords(
                 {{"block", b}, {"warp", w}, {"lane", l}, {"register", r}})));
}

// Calls fn(block, offset, element coordinates) for every shared memory slot.
template <typename Fn> void forEachOffset(const TensorLayout &t, Fn fn) {
  for (int64_t b = 0, B = t.size("block"); b < B; ++b)
    for (int64_t o = 0, O = t.size("offset"); o < O; ++o)
      fn(b, o, t.coords({{"block", b}, {"offset", o}}));
}

//===----------------------------------------------------------------------===//
// Text (triton-tensor-layout's format)
//===----------------------------------------------------------------------===//

// Decimal digits of a non-negative value (no string: the text views call
// this for every cell).
int numDigits(int64_t v) {
  int n = 1;
  for (; v >= 10; v /= 10)
    ++n;
  return n;
}

// Spaces that right-align `v` to the digit count of `max` (a size, so the
// values run from 0 to max - 1).
std::string pad(int64_t v, int64_t max) {
  return std::string(std::max(0, numDigits(max) - numDigits(v)), ' ');
}

std::string padded(int64_t v, int64_t max) {
  return pad(v, max) + std::to_string(v);
}

// "(a,b)" / "(a:b)": coordinates aligned to the digits of their dim's size.
std::string tuple(llvm::ArrayRef<int32_t> c, llvm::ArrayRef<int64_t> shape,
                  StringRef sep) {
  std::string s = "(";
  for (size_t d = 0; d < c.size(); ++d)
    s += (d ? sep.str() : "") + padded(c[d], shape[d]);
  return s + ")";
}

// The cells in row-major order as nested brackets: a line per innermost row,
// '[' for each dim starting at the element and ']' for each that ends.
std::string gridText(const TensorLayout &t, llvm::ArrayRef<std::string> cells,
                     StringRef sep) {
  int64_t n = t.numElements();
  size_t rank = t.shape.size();
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> c = t.delinearize(i);
    size_t opened = 0;
    for (size_t d = rank; d-- > 0 && c[d] == 0;)
      ++opened;
    out += std::string(opened, '[');
    if (c[rank - 1] == 0)
      out += std::string(rank - opened, ' ');
    out += cells[i];
    std::vector<int64_t> next = t.delinearize(i + 1 == n ? 0 : i + 1);
    for (size_t d = rank; d-- > 0 && next[d] == 0;)
      out += "]";
    out += next[rank - 1] == 0 ? "\n" : sep.str();
  }
  return out;
}

// Tensor view: each element lists its owners "T<thread>:<register>".
std::string distributedTensorView(const TensorLayout &t) {
  int64_t B = t.size("block"), WL = t.size("warp") * t.size("lane"),
          R = t.size("register");
  std::vector<std::string> cells(t.numElements());
  forEachOwner(t, [&](int64_t b, int64_t w, int64_t l, int64_t r, int64_t i) {
    int64_t tid = l + w * t.size("lane");
    std::string &cell = cells[i];
    if (!cell.empty())
      cell += "|";
    cell += pad(b, B) + pad(tid, WL) + pad(r, R);
    if (B > 1)
      cell += "B" + std::to_string(b) + ":";
    cell += "T" + std::to_string(tid) + ":" + std::to_string(r);
  });
  return gridText(t, cells, ", ");
}

// Hardware view: per warp, one line per register listing each lane's element.
std::string distributedHwView(const TensorLayout &t) {
  int64_t B = t.size("block"), W = t.size("warp"), L = t.size("lane"),
          R = t.size("register");
  std::string out;
  for (int64_t b = 0; b < B; ++b) {
    if (B > 1)
      out += "Block" + std::to_string(b) + ":\n";
    for (int64_t w = 0; w < W; ++w) {
      out += "Warp" + std::to_string(w) + ":\n";
      for (int64_t r = 0; r < R; ++r) {
        for (int64_t l = 0; l < L; ++l) {
          std::vector<int32_t> c = t.coords(
              {{"block", b}, {"warp", w}, {"lane", l}, {"register", r}});
          out += (l ? ", " : "") + tuple(c, t.shape, ",");
        }
        out += "\n";
      }
    }
  }
  return out;
}

// Tensor view of a shared layout: grid position i shows the element stored
// at (block-major) offset i.
Expected<std::string> sharedTensorView(const TensorLayout &t) {
  int64_t B = t.size("block"), O = t.size("offset");
  if (B * O != t.numElements())
    return fail("Cannot print the tensor view of " + printAttr(t.source.attr),
                "it has " + llvm::Twine(B * O) + " offsets for " +
                    llvm::Twine(t.numElements()) + " elements");
  std::vector<std::string> cells(t.numElements());
  forEachOffset(t, [&](int64_t b, int64_t o, llvm::ArrayRef<int32_t> c) {
    cells[b * O + o] = tuple(c, t.shape, ":");
  });
  return gridText(t, cells, ",");
}

std::string sharedHwView(const TensorLayout &t) {
  std::string out;
  forEachOffset(t, [&](int64_t b, int64_t o, llvm::ArrayRef<int32_t> c) {
    if (o == 0)
      out += "Block: " + std::to_string(b) + ":\n";
    out +=
        "Offset: " + std::to_string(o) + " -> " + tuple(c, t.shape, ",") + "\n";
  });
  return out;
}

} // namespace

Expected<std::string> layoutText(const TensorLayout &t, bool hwView) {
  if (llvm::Error e = checkPrintable(t, kMaxPrintedElements, "text output"))
    return std::move(e);
  std::string header = "Print layout attribute: ";
  if (!t.source.alias.empty())
    header += "#" + t.source.alias + " = ";
  header += printAttr(t.source.attr) + "\n";
  std::string body;
  if (!t.shared)
    body = hwView ? distributedHwView(t) : distributedTensorView(t);
  else if (hwView)
    body = sharedHwView(t);
  else if (Expected<std::string> s = sharedTensorView(t))
    body = *s;
  else
    return s.takeError();
  return header + body + (t.source.blankLineAfter ? "\n" : "");
}

namespace {

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

// {"in_dims": {"register": [[..], ..], ...}, "out_dims": {"dim0": N, ...}}:
// one line per dim, each dim's bases (in input-bit order) on its line.
void writeJson(llvm::json::OStream &json, const TensorLayout &t) {
  json.object([&] {
    json.attributeObject("in_dims", [&] {
      for (const auto &[name, bases] : t.ll.getBases()) {
        llvm::json::Array list;
        for (const LinearLayout::Basis &basis : bases)
          list.push_back(llvm::json::Array(basis));
        std::string compact;
        llvm::raw_string_ostream(compact) << llvm::json::Value(std::move(list));
        json.attributeBegin(name);
        json.rawValue(compact);
        json.attributeEnd();
      }
    });
    json.attributeObject("out_dims", [&] {
      for (const auto &[name, size] : t.ll.getOutDims())
        json.attribute(name, size);
    });
  });
}

} // namespace

std::string jsonText(llvm::ArrayRef<TensorLayout> layouts) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  if (layouts.size() == 1)
    writeJson(json, layouts.front());
  else
    json.array([&] {
      for (const TensorLayout &t : layouts)
        writeJson(json, t);
    });
  os << "\n";
  return out;
}

namespace {

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

std::string xmlEscape(StringRef s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::printHTMLEscaped(s, os);
  return out;
}

// A light fill colour per index; the golden angle keeps neighbours apart.
std::string paletteColor(int64_t index) {
  double h = std::fmod(index * 137.508, 360.0) / 60.0, s = 0.55, l = 0.80;
  double c = (1 - std::abs(2 * l - 1)) * s;
  double x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  double rgb[6][3] = {{c, x, 0}, {x, c, 0}, {0, c, x},
                      {0, x, c}, {x, 0, c}, {c, 0, x}};
  double *p = rgb[int(h) % 6];
  char hex[8];
  auto byte = [&](double v) {
    return std::clamp(int(std::lround((v + l - c / 2) * 255)), 0, 255);
  };
  snprintf(hex, sizeof(hex), "#%02x%02x%02x", byte(p[0]), byte(p[1]),
           byte(p[2]));
  return hex;
}

// What one grid cell shows.
struct SvgCell {
  std::string label, label2, tooltip;
  int64_t colorIndex = 0;
  bool marked = false; // several owners / offsets
};

// "(r, c)": an element's coordinates for tooltips.
std::string elementName(const TensorLayout &t, int64_t index) {
  std::string s = "(";
  for (int64_t c : t.delinearize(index))
    s += (s.size() > 1 ? ", " : "") + std::to_string(c);
  return s + ")";
}

// Per element: first owner "lane:register" ("+n" more owners), coloured by
// warp.
std::vector<SvgCell> distributedCells(const TensorLayout &t) {
  constexpr int64_t kListed = 8; // owners named in a tooltip
  std::vector<SvgCell> cells(t.numElements());
  std::vector<int64_t> owners(t.numElements(), 0);
  forEachOwner(t, [&](int64_t b, int64_t w, int64_t l, int64_t r, int64_t i) {
    SvgCell &cell = cells[i];
    if (owners[i]++ == 0) {
      cell.label = std::to_string(l) + ":" + std::to_string(r);
      cell.colorIndex = b * t.size("warp") + w;
      cell.tooltip = elementName(t, i) + " owned by";
    }
    if (owners[i] <= kListed)
      cell.tooltip +=
          (owners[i] > 1 ? ", " : " ") +
          (t.size("block") > 1 ? "B" + std::to_string(b) + ":" : "") + "T" +
          std::to_string(l + w * t.size("lane")) + ":" + std::to_string(r) +
          " (warp " + std::to_string(w) + ")";
  });
  for (size_t i = 0; i < cells.size(); ++i)
    if (owners[i] > 1) {
      cells[i].label += "+" + std::to_string(owners[i] - 1);
      cells[i].marked = true;
      if (owners[i] > kListed)
        cells[i].tooltip += " ... (" + std::to_string(owners[i]) + " owners)";
    }
  return cells;
}

// Per element: the offset it is stored at and its bank, coloured by bank.
std::vector<SvgCell> sharedCells(const TensorLayout &t) {
  std::vector<SvgCell> cells(t.numElements());
  std::vector<int64_t> copies(t.numElements(), 0);
  forEachOffset(t, [&](int64_t b, int64_t o, llvm::ArrayRef<int32_t> c) {
    int64_t i = t.linearize(c);
    if (copies[i]++)
      return;
    int64_t bank = (o * t.elementBits / 32) % 32; // 4-byte banks
    cells[i].label = std::to_string(o);
    cells[i].label2 = "b" + std::to_string(bank);
    cells[i].colorIndex = bank;
    cells[i].tooltip =
        elementName(t, i) + " at " +
        (t.size("block") > 1 ? "block " + std::to_string(b) + ", " : "") +
        "offset " + std::to_string(o) + ", bank " + std::to_string(bank);
  });
  for (size_t i = 0; i < cells.size(); ++i)
    if (copies[i] > 1) {
      cells[i].label += "+" + std::to_string(copies[i] - 1);
      cells[i].marked = true;
    }
  return cells;
}

// Lays out the pictures of several layouts one below the other (integer
// pixel geometry).
class SvgWriter {
public:
  void addLayout(const TensorLayout &t);
  std::string finish() const;

private:
  static std::string textElement(int x, int y, StringRef s, StringRef extra) {
    return llvm::formatv("<text x=\"{0}\" y=\"{1}\"{2}>{3}</text>", x, y, extra,
                         xmlEscape(s));
  }
  void text(int x, int y, StringRef s, StringRef extra = "") {
    body += textElement(x, y, s, extra) + "\n";
  }
  void line(StringRef s, StringRef extra = "") {
    y += kLine;
    text(kMargin, y, s, extra);
    width = std::max<int64_t>(width, 2 * kMargin + kCharW * s.size());
  }
  void slice(llvm::ArrayRef<SvgCell> cells, int64_t rows, int64_t cols,
             int cellW, int cellH);
  void cell(const SvgCell &c, int x, int top, int cellW, int cellH);

  std::string body;
  int64_t y = 0, width = 200;
  static constexpr int kMargin = 10, kCharW = 7, kLine = 18;
};

void SvgWriter::addLayout(const TensorLayout &t) {
  std::vector<SvgCell> cells = t.shared ? sharedCells(t) : distributedCells(t);
  size_t longest = 1;
  for (const SvgCell &c : cells)
    longest = std::max({longest, c.label.size(), c.label2.size()});
  int cellW = std::max<int>(34, kCharW * longest + 8);
  int cellH = t.shared ? 30 : 20;

  std::string name = t.source.alias.empty() ? "" : "#" + t.source.alias + " = ";
  line(name + printAttr(t.source.attr) + " : " + t.tensorText,
       " font-weight=\"bold\"");
  line(t.shared
           ? "cell: offset of the element / bank (" +
                 std::to_string(t.elementBits) + "-bit elements), colour = bank"
           : "cell: lane:register of the first owner, colour = warp, "
             "+n = n more owners (red border)");

  size_t rank = t.shape.size();
  int64_t cols = t.shape[rank - 1];
  int64_t rows = rank > 1 ? t.shape[rank - 2] : 1;
  for (int64_t first = 0; first < t.numElements(); first += rows * cols) {
    if (rank > 2) { // caption "[i, j, :, :]" for the leading index
      std::vector<int64_t> lead = t.delinearize(first);
      std::string caption = "[";
      for (size_t d = 0; d + 2 < rank; ++d)
        caption += std::to_string(lead[d]) + ", ";
      line(caption + ":, :]");
    }
    slice(llvm::ArrayRef(cells).slice(first, rows * cols), rows, cols, cellW,
          cellH);
  }
  y += kLine;
}

// One 2-D grid: column numbers on top, row numbers on the left, then cells.
void SvgWriter::slice(llvm::ArrayRef<SvgCell> cells, int64_t rows, int64_t cols,
                      int cellW, int cellH) {
  int left = kMargin + kCharW * (numDigits(rows) + 1);
  y += kLine;
  for (int64_t c = 0; c < cols; ++c)
    text(left + c * cellW + cellW / 2, y - 4, std::to_string(c),
         " text-anchor=\"middle\" fill=\"#666\"");
  for (int64_t r = 0; r < rows; ++r) {
    int top = y + r * cellH;
    text(left - 4, top + cellH / 2 + 4, std::to_string(r),
         " text-anchor=\"end\" fill=\"#666\"");
    for (int64_t c = 0; c < cols; ++c)
      cell(cells[r * cols + c], left + c * cellW, top, cellW, cellH);
  }
  y += rows * cellH;
  width = std::max<int64_t>(width, left + cols * cellW + kMargin);
}

// A coloured box with its label(s) and the full story as a tooltip.
void SvgWriter::cell(const SvgCell &c, int x, int top, int cellW, int cellH) {
  body += llvm::formatv("<g><title>{0}</title><rect x=\"{1}\" y=\"{2}\" "
                        "width=\"{3}\" height=\"{4}\" fill=\"{5}\" {6}/>",
                        xmlEscape(c.tooltip), x, top, cellW, cellH,
                        paletteColor(c.colorIndex),
                        c.marked ? "stroke=\"#c00\" stroke-width=\"2\""
                                 : "stroke=\"#444\"")
              .str();
  int cx = x + cellW / 2, cy = top + cellH / 2;
  if (c.label2.empty()) {
    body += textElement(cx, cy + 4, c.label, " text-anchor=\"middle\"");
  } else {
    body += textElement(cx, cy - 2, c.label, " text-anchor=\"middle\"");
    body += textElement(cx, cy + 10, c.label2,
                        " text-anchor=\"middle\" font-size=\"9\" "
                        "fill=\"#333\"");
  }
  body += "</g>\n";
}

std::string SvgWriter::finish() const {
  int64_t height = y + kMargin;
  return llvm::formatv("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                       "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                       "font-family=\"monospace\" font-size=\"11\">\n"
                       "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                       "{2}</svg>\n",
                       width, height, body)
      .str();
}

} // namespace

Expected<std::string> svgText(llvm::ArrayRef<TensorLayout> layouts) {
  SvgWriter svg;
  for (const TensorLayout &t : layouts) {
    if (llvm::Error e = checkPrintable(t, kMaxSvgCells, "--svg"))
      return std::move(e);
    svg.addLayout(t);
  }
  return svg.finish();
}

} // namespace tgpu::layout::render
