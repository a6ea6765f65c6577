// tgpu-layout: prints how a ttg layout attribute places the elements of a
// tensor, in the text format of Triton's triton-tensor-layout (tensor view or
// hardware view), as JSON bases, or as an SVG picture.
//
//   tgpu-layout -l "#ttg.blocked<{...}>" -t "tensor<16x16xf16>" [-use-hw-view]
//   tgpu-layout -i input.mlir -alias-names=blocked,mma -t "tensor<...>" -o out
//   tgpu-layout -l ... -t ... --format=json --svg layout.svg
//
// This file reads the command line and the inputs; the pictures come from
// the TGPULayoutRender library (tools/lib/LayoutRender.h). All output is built
// in memory first: on any error only a message goes to stderr (exit code 1).
#include "tgpu/InitAllDialects.h"
#include "tgpu/Support/NestingLimit.h"
#include "tools/lib/LayoutRender.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace mlir;
using llvm::Expected;
using llvm::StringRef;
using ::tgpu::layout::render::NamedLayout;
using ::tgpu::layout::render::TensorInfo;
using ::tgpu::layout::render::TensorLayout;
namespace render = ::tgpu::layout::render;

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

using ::tgpu::layout::render::fail;

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
  if (auto v = mlir::tgpu::findExcessiveNesting(text))
    return fail("Fail to parse the tensor type argument: " + text,
                "column " + std::to_string(v->column) + ": " + v->message);
  Type type = parseType(text.trim(), &ctx); // trimmed: see parseLayoutText
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
  info.text = text.str();
  return info;
}

Expected<Attribute> parseLayoutText(MLIRContext &ctx, StringRef text) {
  DiagnosticCapture diags(ctx);
  if (auto v = mlir::tgpu::findExcessiveNesting(text))
    return fail("Invalid layout attribute: " + text,
                "column " + std::to_string(v->column) + ": " + v->message);
  // Trimmed: MLIR's parseAttribute miscounts a leading blank and reports
  // "found trailing characters" for a valid attribute.
  Attribute attr = parseAttribute(text.trim(), &ctx);
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
    Expected<TensorLayout> t = render::convert(n, *tensor);
    if (!t)
      return t.takeError();
    layouts.push_back(std::move(*t));
  }

  std::string output;
  if (outputFormat == OutputFormat::Json) {
    output = render::jsonText(layouts);
  } else {
    for (const TensorLayout &t : layouts) {
      Expected<std::string> text = render::layoutText(t, useHwView);
      if (!text)
        return text.takeError();
      output += *text;
    }
  }
  if (!svgFile.empty()) {
    Expected<std::string> svg = render::svgText(layouts);
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
