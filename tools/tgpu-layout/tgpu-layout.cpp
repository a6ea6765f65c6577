// tgpu-layout: prints how a ttg layout attribute places the elements of a
// tensor, in the text format of Triton's triton-tensor-layout (tensor view or
// hardware view), as JSON bases, or as an SVG picture.
//
//   tgpu-layout -l "#ttg.blocked<{...}>" -t "tensor<16x16xf16>" [-use-hw-view]
//   tgpu-layout -i input.mlir -alias-names=blocked,mma -t "tensor<...>" -o out
//   tgpu-layout -l ... -t ... --format=json --svg layout.svg
//
// Everything is computed from the layout's LinearLayout. All output is built
// in memory first: on any error only a message goes to stderr (exit code 1).
#include "tgpu/InitAllDialects.h"
#include "tgpu/Layout/AttrConversion.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace mlir;
using llvm::Expected;
using llvm::StringRef;
namespace tl = ::tgpu::layout;
using tl::LinearLayout;

namespace cl = llvm::cl;

namespace {

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

enum class OutputFormat { Text, Json };

cl::OptionCategory printCategory("Available Print Options",
                                 "Options for the tensor layout printing.");

cl::opt<std::string>
    inputFile("i",
              cl::desc("File that contains the tensor data layout attributes"),
              cl::value_desc("filename"), cl::init(""), cl::cat(printCategory));
cl::list<std::string> aliasNames(
    "alias-names",
    cl::desc("A list of alias names (separated by comma) of the layout "
             "attributes in the input file"),
    cl::value_desc("name1,name2,name3,..."), cl::CommaSeparated, cl::ZeroOrMore,
    cl::cat(printCategory));
cl::opt<std::string>
    layoutAttrText("l", cl::desc("Tensor data layout attribute in string"),
                   cl::value_desc("layout-string"), cl::init(""),
                   cl::cat(printCategory));
cl::opt<std::string> tensorText(
    "t", cl::desc("Tensor shape and element type (e.g., tensor<2x2xf32>)"),
    cl::value_desc("tensor-type"), cl::init(""), cl::cat(printCategory));
cl::opt<bool> useHwView(
    "use-hw-view",
    cl::desc("Print the layout in hardware point of view. This means the "
             "output is from the warp's perspective. Otherwise, the output is "
             "from the tensor's perspective (e.g., each element maps to xxx "
             "thread)."),
    cl::init(false), cl::cat(printCategory));
cl::opt<std::string>
    outputFile("o", cl::desc("Output file to write the layout into"),
               cl::value_desc("filename"), cl::init(""),
               cl::cat(printCategory));
cl::opt<OutputFormat>
    outputFormat("format", cl::desc("Output format"),
                 cl::init(OutputFormat::Text),
                 cl::values(clEnumValN(OutputFormat::Text, "text",
                                       "triton-tensor-layout's text (default)"),
                            clEnumValN(OutputFormat::Json, "json",
                                       "the LinearLayout bases as JSON")),
                 cl::cat(printCategory));
cl::opt<std::string>
    svgFile("svg",
            cl::desc("Also draw the tensor grid as an SVG picture into <file>"),
            cl::value_desc("file"), cl::init(""), cl::cat(printCategory));

// Text and SVG enumerate every element; refuse sizes that would produce
// gigabytes of output instead of running out of memory.
constexpr int64_t kMaxPrintedElements = int64_t(1) << 22;
constexpr int64_t kMaxSvgCells = int64_t(1) << 16;

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
// Parsing the inputs
//===----------------------------------------------------------------------===//

// Collects MLIR's diagnostics so they are reported with our message rather
// than printed with locations inside buffers the user never wrote.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          text += (text.empty() ? "" : "; ") + d.str();
          return success();
        }) {}
  const std::string &str() const { return text; }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

struct TensorInfo {
  llvm::SmallVector<int64_t> shape;
  unsigned elementBits = 32;
};

unsigned elementBitWidth(Type t) {
  if (t.isIntOrIndexOrFloat())
    return t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  if (isa<triton::PointerType>(t))
    return 64;
  return 32;
}

// `-t`: a ranked tensor type (or a memdesc); only shape and element type count.
Expected<TensorInfo> parseTensorType(MLIRContext &ctx, StringRef text) {
  if (text.empty())
    return fail("Must specify the tensor type argument");
  DiagnosticCapture diags(ctx);
  Type type = parseType(text, &ctx);
  if (!type)
    return fail("Fail to parse the tensor type argument: " + text, diags.str());
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped ||
      !(isa<RankedTensorType>(type) || isa<triton::gpu::MemDescType>(type)))
    return fail("Invalid tensor type argument: " + text,
                "expected a ranked tensor type such as tensor<16x16xf16>");
  if (shaped.getRank() == 0)
    return fail("Invalid tensor type argument: " + text,
                "a layout needs a tensor of rank 1 or more");
  TensorInfo info;
  for (int64_t s : shaped.getShape()) {
    if (ShapedType::isDynamic(s) || s <= 0)
      return fail("Invalid tensor type argument: " + text,
                  "every dimension must have a static, positive size");
    info.shape.push_back(s);
  }
  info.elementBits = elementBitWidth(shaped.getElementType());
  return info;
}

// A layout to print: the attribute and, for one read from a file, its alias.
struct NamedLayout {
  std::string alias; // without '#'; empty for -l
  Attribute attr;
  bool blankLineAfter = false; // triton-tensor-layout's -alias-names spacing
};

Expected<Attribute> parseLayoutText(MLIRContext &ctx, StringRef text) {
  DiagnosticCapture diags(ctx);
  Attribute attr = parseAttribute(text, &ctx);
  if (!attr)
    return fail("Invalid layout attribute: " + text, diags.str());
  return attr;
}

// `#name = <attribute>` as written in an MLIR file.
struct AliasDefinition {
  std::string name;
  std::string text;
};

bool isAliasChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

// Length of the attribute that starts `s`: up to the first newline (or line
// comment) outside brackets and strings, so multi-line attributes are whole.
size_t attributeExtent(StringRef s) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') { // skip a string literal, escapes included
      for (++i; i < s.size() && s[i] != '"'; ++i)
        i += s[i] == '\\';
      continue;
    }
    if (c == '/' && s.substr(i).starts_with("//")) {
      if (depth == 0)
        return i;
      i = std::min(s.find('\n', i), s.size()) - 1;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}' ||
              (c == '>' && (i == 0 || s[i - 1] != '-'))) &&
             depth > 0)
      --depth; // "->" in affine maps is not a bracket
    else if (c == '\n' && depth == 0)
      return i;
  }
  return s.size();
}

// The attribute alias definitions of an MLIR file, in file order. A textual
// scan (not a full parse) so files with ops or attributes we do not know
// still give their layouts; each attribute is parsed by MLIR afterwards.
std::vector<AliasDefinition> scanAliasDefinitions(StringRef src) {
  std::vector<AliasDefinition> defs;
  size_t pos = 0;
  while (pos < src.size()) {
    size_t eol = std::min(src.find('\n', pos), src.size());
    StringRef line = src.slice(pos, eol).ltrim(" \t");
    size_t next = eol + 1;
    if (line.consume_front("#") && !line.empty() &&
        (llvm::isAlpha(line[0]) || line[0] == '_')) {
      StringRef name = line.take_while(isAliasChar);
      StringRef rest = line.drop_front(name.size()).ltrim(" \t");
      if (rest.consume_front("=") && !rest.starts_with("=")) {
        size_t start = rest.data() - src.data();
        StringRef tail = src.substr(start);
        size_t skip = tail.size() - tail.ltrim().size();
        StringRef value = tail.drop_front(skip);
        size_t len = attributeExtent(value);
        defs.push_back({name.str(), value.take_front(len).rtrim().str()});
        next = start + skip + len + 1;
      }
    }
    pos = next;
  }
  return defs;
}

// Names of the aliases `text` refers to (`#name`).
std::vector<std::string> aliasReferences(StringRef text) {
  std::vector<std::string> refs;
  for (size_t i = text.find('#'); i != StringRef::npos;
       i = text.find('#', i + 1))
    refs.push_back(text.substr(i + 1).take_while(isAliasChar).str());
  return refs;
}

// Earlier definitions that definition `index` needs, directly or through
// each other (MLIR requires an alias to be defined before its use).
void collectDependencies(llvm::ArrayRef<AliasDefinition> defs, size_t index,
                         std::set<size_t> &deps) {
  for (const std::string &ref : aliasReferences(defs[index].text))
    for (size_t j = index; j-- > 0;)
      if (defs[j].name == ref) {
        if (deps.insert(j).second)
          collectDependencies(defs, j, deps);
        break;
      }
}

// Parses definition `index` together with the definitions it refers to.
Expected<Attribute> parseAlias(MLIRContext &ctx,
                               llvm::ArrayRef<AliasDefinition> defs,
                               size_t index, StringRef fileName) {
  std::set<size_t> deps;
  collectDependencies(defs, index, deps);
  deps.insert(index);
  std::string source;
  for (size_t j : deps)
    source += "#" + defs[j].name + " = " + defs[j].text + "\n";

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source),
                               llvm::SMLoc());
  DiagnosticCapture diags(ctx);
  Block block;
  AsmParserState state;
  ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  const AsmParserState::AttributeAliasDefinition *def = nullptr;
  if (succeeded(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    def = state.getAttributeAliasDef(defs[index].name);
  if (!def || !def->value)
    return fail("Fail to parse the layout attribute #" + defs[index].name +
                    " in " + fileName + ": " + defs[index].text,
                diags.str());
  return def->value;
}

// `-i`/`--alias-names`: the requested aliases in the order given, or every
// alias of the file in file order.
Expected<std::vector<NamedLayout>>
readAliases(MLIRContext &ctx, StringRef fileName,
            llvm::ArrayRef<std::string> names) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(fileName);
  if (std::error_code ec = buffer.getError())
    return fail("Could not open input file: " + fileName + ": " + ec.message());
  std::vector<AliasDefinition> defs =
      scanAliasDefinitions((*buffer)->getBuffer());
  if (defs.empty())
    return fail("Fail to parse the input file: " + fileName,
                "no attribute alias definitions (#name = ...) found");

  std::vector<size_t> picked;
  for (const std::string &name : names) {
    auto it = llvm::find_if(
        defs, [&](const AliasDefinition &d) { return d.name == name; });
    if (it == defs.end())
      return fail("Can't find the layout attribute: " + name);
    picked.push_back(it - defs.begin());
  }
  if (names.empty())
    for (size_t i = 0; i < defs.size(); ++i)
      picked.push_back(i);

  std::vector<NamedLayout> layouts;
  for (size_t index : picked) {
    Expected<Attribute> attr = parseAlias(ctx, defs, index, fileName);
    if (!attr)
      return attr.takeError();
    layouts.push_back({defs[index].name, *attr, !names.empty()});
  }
  return layouts;
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

// A layout converted for a tensor, with the evaluation the printers need.
struct TensorLayout {
  NamedLayout source;
  LinearLayout ll;
  llvm::SmallVector<int64_t> shape;
  unsigned elementBits;
  bool shared; // ins (offset, block) instead of (register, lane, warp, block)

  int64_t size(StringRef inDim) const { return ll.getInDimSize(inDim); }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
  // The element coordinates for the given input values (absent dims are 0).
  std::vector<int32_t>
  coords(std::initializer_list<std::pair<StringRef, int64_t>> in) const {
    std::vector<int32_t> perIn(ll.getNumInDims(), 0);
    for (auto [name, value] : in)
      if (int k = ll.findIn(name); k >= 0)
        perIn[k] = int32_t(value);
    return ll.unpackOut(ll.applyFlat(ll.packIn(perIn)));
  }
  // Row-major index of an element.
  int64_t linearize(llvm::ArrayRef<int32_t> c) const {
    int64_t idx = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      idx = idx * shape[d] + c[d];
    return idx;
  }
  std::vector<int64_t> delinearize(int64_t idx) const {
    std::vector<int64_t> c(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      c[d] = idx % shape[d];
      idx /= shape[d];
    }
    return c;
  }
};

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
                llvm::Twine(rank) + " but " + tensorText + " has rank " +
                llvm::Twine(tensor.shape.size()));
  Expected<LinearLayout> ll = tl::toLinearLayout(tensor.shape, *enc);
  if (!ll)
    return fail("Fail to convert the layout " + what + " for " + tensorText,
                llvm::toString(ll.takeError()));
  TensorLayout t{named, std::move(*ll), tensor.shape, tensor.elementBits,
                 tl::isSharedEncoding(*enc)};
  if (llvm::Error e = checkLayoutDims(t, what))
    return std::move(e);
  return t;
}

// Text and SVG walk every input value and every element.
llvm::Error checkPrintable(const TensorLayout &t, int64_t maxElements,
                           StringRef what) {
  if (t.ll.getTotalInDimSize() > maxElements || t.numElements() > maxElements)
    return fail("The tensor is too large for " + what + ": " + tensorText,
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

int numDigits(int64_t v) { return std::to_string(v).size(); }

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
  line(name + printAttr(t.source.attr) + " : " + tensorText,
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

Expected<std::string> svgText(llvm::ArrayRef<TensorLayout> layouts) {
  SvgWriter svg;
  for (const TensorLayout &t : layouts) {
    if (llvm::Error e = checkPrintable(t, kMaxSvgCells, "--svg"))
      return std::move(e);
    svg.addLayout(t);
  }
  return svg.finish();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

llvm::Error writeFile(StringRef path, StringRef contents) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("Error: " + ec.message() + " : unable to open " + path +
                " for output");
  file.os() << contents;
  file.os().flush();
  if (file.os().has_error())
    return fail("Error: " + file.os().error().message() +
                " : unable to write " + path);
  file.keep();
  return llvm::Error::success();
}

// The layouts named on the command line: file aliases first, then -l.
Expected<std::vector<NamedLayout>> collectLayouts(MLIRContext &ctx) {
  std::vector<NamedLayout> layouts;
  if (!aliasNames.empty() && inputFile.empty())
    return fail("--alias-names needs an input file (-i)");
  if (!inputFile.empty()) {
    Expected<std::vector<NamedLayout>> aliases =
        readAliases(ctx, inputFile, aliasNames);
    if (!aliases)
      return aliases.takeError();
    layouts = std::move(*aliases);
  }
  if (!layoutAttrText.empty()) {
    Expected<Attribute> attr = parseLayoutText(ctx, layoutAttrText);
    if (!attr)
      return attr.takeError();
    layouts.push_back({"", *attr, false});
  }
  if (layouts.empty())
    return fail("Nothing to print: give a layout with -l or a file with -i");
  return layouts;
}

llvm::Error run(MLIRContext &ctx) {
  Expected<TensorInfo> tensor = parseTensorType(ctx, tensorText);
  if (!tensor)
    return tensor.takeError();
  Expected<std::vector<NamedLayout>> named = collectLayouts(ctx);
  if (!named)
    return named.takeError();

  std::vector<TensorLayout> layouts;
  for (const NamedLayout &n : *named) {
    Expected<TensorLayout> t = convert(n, *tensor);
    if (!t)
      return t.takeError();
    layouts.push_back(std::move(*t));
  }

  std::string output;
  if (outputFormat == OutputFormat::Json) {
    output = jsonText(layouts);
  } else {
    for (const TensorLayout &t : layouts) {
      Expected<std::string> text = layoutText(t, useHwView);
      if (!text)
        return text.takeError();
      output += *text;
    }
  }
  if (!svgFile.empty()) {
    Expected<std::string> svg = svgText(layouts);
    if (!svg)
      return svg.takeError();
    if (llvm::Error e = writeFile(svgFile, *svg))
      return e;
  }
  if (!outputFile.empty())
    return writeFile(outputFile, output);
  llvm::outs() << output;
  return llvm::Error::success();
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(printCategory);
  cl::ParseCommandLineOptions(argc, argv, "tensor layout printer\n");

  DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  if (llvm::Error e = run(ctx)) {
    llvm::errs() << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}
