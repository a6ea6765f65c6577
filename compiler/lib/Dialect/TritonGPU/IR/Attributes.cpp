// ttg layout encodings: parsing, printing and verification.
//
// The printed form is `#ttg.NAME<{key = value, ...}>` as Triton 3.x prints it.
// Parsing reads the dictionary with MLIR's attribute parser and then checks
// every key and value here, so malformed input gets a located diagnostic.
#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

#define GET_ATTRDEF_CLASSES
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUAttrs.cpp.inc"

void TritonGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tgpu/Dialect/TritonGPU/IR/TritonGPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Reading the `{key = value}` dictionary
//===----------------------------------------------------------------------===//
namespace {
// Reads typed fields out of a parsed dictionary, reporting the first problem
// at the attribute's location. Every field must be consumed exactly once.
class FieldReader {
public:
  FieldReader(AsmParser &parser, SMLoc loc, DictionaryAttr dict, StringRef attrName)
      : parser(parser), loc(loc), dict(dict), attrName(attrName) {}

  bool failed() const { return hadError; }

  InFlightDiagnostic error() {
    hadError = true;
    return parser.emitError(loc) << "#ttg." << attrName << ": ";
  }

  bool has(StringRef key) const { return static_cast<bool>(dict.get(key)); }

  Attribute take(StringRef key, bool required) {
    Attribute value = dict.get(key);
    if (!value) {
      if (required && !hadError)
        error() << "missing '" << key << "'";
      return {};
    }
    consumed.insert(key);
    return value;
  }

  // A non-negative integer that fits in 32 bits.
  std::optional<unsigned> getUnsigned(StringRef key, bool required = true) {
    Attribute value = take(key, required);
    if (!value)
      return std::nullopt;
    auto intAttr = dyn_cast<IntegerAttr>(value);
    if (!intAttr || !intAttr.getType().isSignlessInteger()) {
      if (!hadError)
        error() << "'" << key << "' must be an integer, got " << value;
      return std::nullopt;
    }
    int64_t v = intAttr.getValue().getSExtValue();
    if (v < 0 || v > UINT32_MAX) {
      if (!hadError)
        error() << "'" << key << "' must be in [0, 2^32), got " << v;
      return std::nullopt;
    }
    return static_cast<unsigned>(v);
  }

  std::optional<bool> getBool(StringRef key, bool required = true) {
    Attribute value = take(key, required);
    if (!value)
      return std::nullopt;
    auto b = dyn_cast<BoolAttr>(value);
    if (!b) {
      if (!hadError)
        error() << "'" << key << "' must be true or false, got " << value;
      return std::nullopt;
    }
    return b.getValue();
  }

  // `[a, b, ...]` of non-negative integers (also accepts array<i32: ...>).
  std::optional<SmallVector<unsigned>> getUnsignedList(StringRef key, bool required = true) {
    Attribute value = take(key, required);
    if (!value)
      return std::nullopt;
    SmallVector<unsigned> out;
    auto push = [&](int64_t v) -> bool {
      if (v < 0 || v > UINT32_MAX) {
        if (!hadError)
          error() << "'" << key << "' entries must be in [0, 2^32), got " << v;
        return false;
      }
      out.push_back(static_cast<unsigned>(v));
      return true;
    };
    if (auto dense = dyn_cast<DenseI32ArrayAttr>(value)) {
      for (int32_t v : dense.asArrayRef())
        if (!push(v))
          return std::nullopt;
      return out;
    }
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array) {
      if (!hadError)
        error() << "'" << key << "' must be a list of integers, got " << value;
      return std::nullopt;
    }
    for (Attribute elt : array) {
      auto intAttr = dyn_cast<IntegerAttr>(elt);
      if (!intAttr || !intAttr.getType().isSignlessInteger()) {
        if (!hadError)
          error() << "'" << key << "' must be a list of integers, got " << value;
        return std::nullopt;
      }
      if (!push(intAttr.getValue().getSExtValue()))
        return std::nullopt;
    }
    return out;
  }

  // `[[...], [...]]`: a list of bases. Each basis must have the same length;
  // `rank` is set from the first one (left as it is when the list is empty).
  // The result is flattened.
  std::optional<SmallVector<int32_t>> getBases(StringRef key, unsigned &rank,
                                               bool required = true) {
    Attribute value = take(key, required);
    if (!value)
      return std::nullopt;
    auto outer = dyn_cast<ArrayAttr>(value);
    if (!outer) {
      if (!hadError)
        error() << "'" << key << "' must be a list of bases [[...], ...], got " << value;
      return std::nullopt;
    }
    SmallVector<int32_t> flat;
    for (Attribute basisAttr : outer) {
      auto basis = dyn_cast<ArrayAttr>(basisAttr);
      if (!basis) {
        if (!hadError)
          error() << "'" << key << "' must be a list of bases [[...], ...], got " << value;
        return std::nullopt;
      }
      if (rank == 0)
        rank = basis.size();
      if (basis.size() != rank || rank == 0) {
        if (!hadError)
          error() << "every basis in '" << key << "' must have " << rank
                  << " entries, got " << basisAttr;
        return std::nullopt;
      }
      for (Attribute elt : basis) {
        auto intAttr = dyn_cast<IntegerAttr>(elt);
        int64_t v = intAttr ? intAttr.getValue().getSExtValue() : -1;
        if (!intAttr || !intAttr.getType().isSignlessInteger() || v < 0 || v > INT32_MAX) {
          if (!hadError)
            error() << "basis entries in '" << key << "' must be integers in [0, 2^31), got "
                    << elt;
          return std::nullopt;
        }
        flat.push_back(static_cast<int32_t>(v));
      }
    }
    return flat;
  }

  Attribute getAttr(StringRef key) { return take(key, /*required=*/true); }

  // Reports keys nobody asked for (typos, fields of other encodings).
  void checkAllConsumed() {
    if (hadError)
      return;
    for (NamedAttribute field : dict)
      if (!consumed.contains(field.getName().getValue())) {
        error() << "unknown field '" << field.getName().getValue() << "'";
        return;
      }
  }

private:
  AsmParser &parser;
  SMLoc loc;
  DictionaryAttr dict;
  StringRef attrName;
  llvm::StringSet<> consumed;
  bool hadError = false;
};

// Parses `<{...}>` into a dictionary.
std::optional<DictionaryAttr> parseDictBody(AsmParser &parser) {
  DictionaryAttr dict;
  if (parser.parseLess() || parser.parseAttribute(dict))
    return std::nullopt;
  return dict;
}

LogicalResult checkPermutation(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                               ArrayRef<unsigned> order) {
  llvm::SmallBitVector seen(order.size());
  for (unsigned d : order) {
    if (d >= order.size() || seen.test(d))
      return emitError() << name << " must be a permutation of [0, " << order.size() << ")";
    seen.set(d);
  }
  return success();
}

// The CTA (CGA) layout: Triton 3.6 prints `CGALayout = [[...]]` (the `block`
// bases); older releases print CTAsPerCGA / CTASplitNum / CTAOrder. Both are
// read; the bases are what is kept and printed.
std::optional<SmallVector<int32_t>> readCGA(FieldReader &reader, unsigned rank) {
  if (reader.has("CGALayout")) {
    unsigned basisRank = rank;
    auto bases = reader.getBases("CGALayout", basisRank);
    if (!bases)
      return std::nullopt;
    if (basisRank != rank) {
      reader.error() << "CGALayout bases must have " << rank << " entries";
      return std::nullopt;
    }
    return bases;
  }
  bool hasLegacy = reader.has("CTAsPerCGA") || reader.has("CTASplitNum") || reader.has("CTAOrder");
  if (!hasLegacy)
    return SmallVector<int32_t>();
  auto perCGA = reader.getUnsignedList("CTAsPerCGA");
  auto split = reader.getUnsignedList("CTASplitNum");
  auto order = reader.getUnsignedList("CTAOrder");
  if (!perCGA || !split || !order)
    return std::nullopt;
  if (perCGA->size() != rank || split->size() != rank || order->size() != rank) {
    reader.error() << "CTAsPerCGA, CTASplitNum and CTAOrder must each have " << rank
                   << " entries";
    return std::nullopt;
  }
  if (failed(checkPermutation([&] { return reader.error(); }, "CTAOrder", *order)))
    return std::nullopt;
  for (unsigned d = 0; d < rank; ++d) {
    unsigned n = (*perCGA)[d], s = (*split)[d];
    if (n == 0 || s == 0 || !llvm::isPowerOf2_32(n) || !llvm::isPowerOf2_32(s) || n % s != 0) {
      reader.error() << "CTAsPerCGA and CTASplitNum must be powers of two with CTASplitNum "
                        "dividing CTAsPerCGA";
      return std::nullopt;
    }
  }
  // CTA ids enumerate dims in CTAOrder; within a dim the first log2(split)
  // bits pick the tile and the remaining bits broadcast it.
  SmallVector<int32_t> bases;
  for (unsigned d : *order) {
    unsigned n = (*perCGA)[d], s = (*split)[d];
    for (unsigned bit = 1; bit < n; bit <<= 1)
      for (unsigned k = 0; k < rank; ++k)
        bases.push_back(k == d && bit < s ? static_cast<int32_t>(bit) : 0);
  }
  return bases;
}

void printList(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

void printBases(AsmPrinter &printer, ArrayRef<int32_t> flat, unsigned rank) {
  printer << "[";
  for (size_t i = 0; rank && i < flat.size(); i += rank) {
    if (i)
      printer << ", ";
    printer << "[";
    llvm::interleaveComma(flat.slice(i, rank), printer);
    printer << "]";
  }
  printer << "]";
}

void printCGA(AsmPrinter &printer, ArrayRef<int32_t> cgaBases, unsigned rank) {
  if (cgaBases.empty())
    return;
  printer << ", CGALayout = ";
  printBases(printer, cgaBases, rank);
}

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//
LogicalResult checkPowersOfTwo(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                               ArrayRef<unsigned> values) {
  for (unsigned v : values)
    if (v == 0 || !llvm::isPowerOf2_32(v))
      return emitError() << name << " entries must be positive powers of two, got " << v;
  return success();
}


LogicalResult checkBases(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                         ArrayRef<int32_t> flat, unsigned rank) {
  if (flat.empty())
    return success();
  if (rank == 0 || flat.size() % rank != 0)
    return emitError() << name << " bases must have " << rank << " entries each";
  for (int32_t v : flat)
    if (v < 0)
      return emitError() << name << " basis entries must not be negative";
  return success();
}

LogicalResult checkCGA(function_ref<InFlightDiagnostic()> emitError, ArrayRef<int32_t> cga,
                       unsigned rank) {
  if (failed(checkBases(emitError, "CGALayout", cga, rank)))
    return failure();
  // Each basis moves to a CTA tile along some dims: entries are 0 or powers of two.
  for (int32_t v : cga)
    if (v != 0 && !llvm::isPowerOf2_32(v))
      return emitError() << "CGALayout basis entries must be 0 or powers of two, got " << v;
  return success();
}

LogicalResult checkRank(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                        unsigned layoutRank, ArrayRef<int64_t> shape) {
  if (layoutRank != shape.size())
    return emitError() << "#ttg." << name << " layout has rank " << layoutRank
                       << " but the tensor has rank " << shape.size();
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//
bool mlir::triton::gpu::isDistributedEncoding(Attribute enc) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr, DotOperandEncodingAttr,
                         NvidiaMmaEncodingAttr, LinearEncodingAttr>(enc);
}

bool mlir::triton::gpu::isSharedEncoding(Attribute enc) {
  return isa_and_nonnull<SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr,
                         SharedLinearEncodingAttr>(enc);
}

unsigned mlir::triton::gpu::getEncodingRank(Attribute enc) {
  return llvm::TypeSwitch<Attribute, unsigned>(enc)
      .Case([](BlockedEncodingAttr a) { return a.getRank(); })
      .Case([](SliceEncodingAttr a) {
        unsigned parentRank = getEncodingRank(a.getParent());
        return parentRank ? parentRank - 1 : 0;
      })
      .Case([](DotOperandEncodingAttr a) { return getEncodingRank(a.getParent()); })
      .Case([](NvidiaMmaEncodingAttr a) { return a.getRank(); })
      .Case([](LinearEncodingAttr a) { return a.getRank(); })
      .Case([](SwizzledSharedEncodingAttr a) { return (unsigned)a.getOrder().size(); })
      .Case([](NVMMASharedEncodingAttr a) { return a.getRank(); })
      .Case([](SharedLinearEncodingAttr a) { return a.getRank(); })
      .Default([](Attribute) { return 0u; });
}

Attribute mlir::triton::gpu::getRootEncoding(Attribute enc) {
  while (true) {
    if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(enc))
      enc = slice.getParent();
    else if (auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(enc))
      enc = dot.getParent();
    else
      return enc;
  }
}

//===----------------------------------------------------------------------===//
// #ttg.blocked
//===----------------------------------------------------------------------===//
Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "blocked");
  auto spt = reader.getUnsignedList("sizePerThread");
  auto tpw = reader.getUnsignedList("threadsPerWarp");
  auto wpc = reader.getUnsignedList("warpsPerCTA");
  auto order = reader.getUnsignedList("order");
  if (reader.failed())
    return {};
  auto cga = readCGA(reader, order->size());
  reader.checkAllConsumed();
  if (!cga || reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), *spt, *tpw,
                    *wpc, *order, *cga);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printList(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printList(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printList(printer, getWarpsPerCTA());
  printer << ", order = ";
  printList(printer, getOrder());
  printCGA(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order, ArrayRef<int32_t> cgaBases) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "blocked layout needs rank >= 1";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and order must have the "
                          "same rank (got "
                       << sizePerThread.size() << ", " << threadsPerWarp.size() << ", "
                       << warpsPerCTA.size() << ", " << rank << ")";
  if (failed(checkPowersOfTwo(emitError, "sizePerThread", sizePerThread)) ||
      failed(checkPowersOfTwo(emitError, "threadsPerWarp", threadsPerWarp)) ||
      failed(checkPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)) ||
      failed(checkPermutation(emitError, "order", order)) ||
      failed(checkCGA(emitError, cgaBases, rank)))
    return failure();
  return success();
}

LogicalResult BlockedEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                  function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, "blocked", getRank(), shape);
}

//===----------------------------------------------------------------------===//
// #ttg.slice
//===----------------------------------------------------------------------===//
Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "slice");
  auto dim = reader.getUnsigned("dim");
  Attribute parent = reader.getAttr("parent");
  reader.checkAllConsumed();
  if (reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), *dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, Attribute parent) {
  if (!isDistributedEncoding(parent))
    return emitError() << "slice parent must be a distributed layout, got " << parent;
  unsigned parentRank = getEncodingRank(parent);
  // Texts as Triton's.
  if (parentRank < 2)
    return emitError() << "parent layout must have at least rank >= 2";
  if (dim >= parentRank)
    return emitError() << "slice dim=" << dim
                       << " must be less than the parent rank=" << parentRank;
  return success();
}

LogicalResult SliceEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, "slice", getEncodingRank(*this), shape);
}

//===----------------------------------------------------------------------===//
// #ttg.dot_op
//===----------------------------------------------------------------------===//
Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "dot_op");
  auto opIdx = reader.getUnsigned("opIdx");
  Attribute parent = reader.getAttr("parent");
  auto kWidth = reader.getUnsigned("kWidth", /*required=*/false);
  reader.checkAllConsumed();
  if (reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), *opIdx, parent,
                    kWidth.value_or(0));
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent();
  if (getKWidth())
    printer << ", kWidth = " << getKWidth();
  printer << "}>";
}

// Triton's rules and texts: the parent is a tensor-core layout (kWidth
// required for mma.sync and wgmma, only operand A in registers for wgmma)
// or a blocked layout (the FMA path, no kWidth).
LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, Attribute parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "ttg.dot_op opIdx parameter can be 0 or 1, got: "
                       << opIdx;
  if (!parent)
    return emitError() << "ttg.dot_op parent parameter cannot be null";
  if (kWidth && !llvm::isPowerOf2_32(kWidth))
    return emitError() << "ttg.dot_op kWidth must be a power of two, got "
                       << kWidth;
  if (auto mma = dyn_cast<NvidiaMmaEncodingAttr>(parent)) {
    bool tensorCore = mma.isAmpere() || mma.isHopper();
    if (kWidth != 0 && !tensorCore)
      return emitError() << "ttg.dot_op kWidth parameter can only be non-zero "
                            "for Ampere or Hopper MMA parent";
    if (kWidth == 0 && tensorCore)
      return emitError() << "ttg.dot_op kWidth parameter is mandatory for "
                            "Ampere or Hopper MMA "
                            "parent";
    if (opIdx != 0 && mma.isHopper())
      return emitError()
             << "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, "
                "since "
                "Hopper WGMMA only allows first operand to be in registers";
    return success();
  }
  if (isa<BlockedEncodingAttr>(parent)) {
    if (kWidth != 0)
      return emitError() << "ttg.dot_op kWidth parameter is not supported when "
                            "the parent is a "
                            "blocked layout";
    return success();
  }
  return emitError() << "ttg.dot_op unexpected parent layout: " << parent;
}

LogicalResult DotOperandEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                     function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, "dot_op", getEncodingRank(getParent()), shape);
}

//===----------------------------------------------------------------------===//
// #ttg.nvidia_mma
//===----------------------------------------------------------------------===//
Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "nvidia_mma");
  auto major = reader.getUnsigned("versionMajor");
  // versionMinor and instrShape may be left out, as in Triton (0 and []).
  auto minor = reader.getUnsigned("versionMinor", /*required=*/false);
  auto wpc = reader.getUnsignedList("warpsPerCTA");
  auto instr = reader.getUnsignedList("instrShape", /*required=*/false);
  if (reader.failed())
    return {};
  auto cga = readCGA(reader, wpc->size());
  reader.checkAllConsumed();
  if (!cga || reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *major, minor.value_or(0), *wpc,
                    instr.value_or(SmallVector<unsigned>()), *cga);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor() << ", versionMinor = " << getVersionMinor()
          << ", warpsPerCTA = ";
  printList(printer, getWarpsPerCTA());
  printCGA(printer, getCgaBases(), getRank());
  printer << ", instrShape = ";
  printList(printer, getInstrShape());
  printer << "}>";
}

// The attribute alone is checked only for what every version needs (Triton
// checks nothing): a #ttg.dot_op may name a parent that no tensor could
// have, and its own verifier reports that. The version and instruction
// shape are checked once a tensor has the layout (verifyEncoding).
LogicalResult
NvidiaMmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              unsigned, unsigned,
                              ArrayRef<unsigned> warpsPerCTA,
                              ArrayRef<unsigned>, ArrayRef<int32_t> cgaBases) {
  if (failed(checkPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)) ||
      failed(checkCGA(emitError, cgaBases, warpsPerCTA.size())))
    return failure();
  return success();
}

LogicalResult NvidiaMmaEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(checkRank(emitError, "nvidia_mma", getRank(), shape)))
    return failure();
  size_t rank = getRank();
  ArrayRef<unsigned> instrShape = getInstrShape();
  if (isAmpere()) {
    if (rank != 2 && rank != 3)
      return emitError() << "nvidia_mma v2 needs rank 2 or 3 (batched), got " << rank;
    // mma.sync m16n8: instrShape is [16, 8], with a leading 1 when batched;
    // left out, it is that.
    SmallVector<unsigned> expected = {16, 8};
    if (rank == 3)
      expected.insert(expected.begin(), 1);
    if (!instrShape.empty() && instrShape != ArrayRef<unsigned>(expected))
      return emitError() << "nvidia_mma v2 instrShape must be "
                         << (rank == 3 ? "[1, 16, 8]" : "[16, 8]");
    return success();
  }
  if (isHopper()) {
    if (rank != 2)
      return emitError() << "nvidia_mma v3 needs rank 2, got " << rank;
    if (instrShape.size() != 3)
      return emitError() << "nvidia_mma v3 instrShape must be [16, N, K]";
    unsigned m = instrShape[0], n = instrShape[1], k = instrShape[2];
    if (m != 16 || n < 8 || n > 256 || n % 8 != 0 || (k != 8 && k != 16 && k != 32))
      return emitError() << "nvidia_mma v3 instrShape must be [16, N, K] with N a multiple of 8 "
                            "in [8, 256] and K in {8, 16, 32}";
    if (getWarpsPerCTA()[0] % 4 != 0)
      return emitError() << "nvidia_mma v3 needs warpsPerCTA[0] to be a "
                            "multiple of 4 (a warp "
                            "group), got "
                         << getWarpsPerCTA()[0];
    return success();
  }
  return emitError()
         << "nvidia_mma versionMajor must be 2 (mma.sync) or 3 (wgmma), got "
         << getVersionMajor();
}

//===----------------------------------------------------------------------===//
// #ttg.linear
//===----------------------------------------------------------------------===//
static const char *const kLinearDims[] = {"register", "lane", "warp", "block"};

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "linear");
  unsigned rank = 0;
  SmallVector<SmallVector<int32_t>> bases;
  for (const char *dim : kLinearDims) {
    auto b = reader.getBases(dim, rank);
    if (!b)
      return {};
    bases.push_back(*b);
  }
  reader.checkAllConsumed();
  if (reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), rank, bases[0],
                    bases[1], bases[2], bases[3]);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  ArrayRef<int32_t> all[] = {getRegisterBases(), getLaneBases(), getWarpBases(),
                             getBlockBases()};
  printer << "<{";
  for (int i = 0; i < 4; ++i) {
    if (i)
      printer << ", ";
    printer << kLinearDims[i] << " = ";
    printBases(printer, all[i], getRank());
  }
  printer << "}>";
}

LogicalResult LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                         unsigned rank, ArrayRef<int32_t> registerBases,
                                         ArrayRef<int32_t> laneBases, ArrayRef<int32_t> warpBases,
                                         ArrayRef<int32_t> blockBases) {
  // A named array: a braced temporary inside the range-for's zip would die
  // before the loop reads it (fuzz_layout_attr, stack-use-after-scope).
  ArrayRef<int32_t> all[] = {registerBases, laneBases, warpBases, blockBases};
  for (auto [name, flat] : llvm::zip(kLinearDims, all))
    if (failed(checkBases(emitError, name, flat, rank)))
      return failure();
  // Triton 3.6 rejects a distributed linear layout with a basis that moves
  // along two dims at once (checked there by parsing such layouts), with
  // this text; only shared layouts may swizzle.
  for (ArrayRef<int32_t> flat : all)
    for (size_t i = 0; rank && i < flat.size(); i += rank)
      if (llvm::count_if(flat.slice(i, rank), [](int32_t v) { return v != 0; }) > 1)
        return emitError()
               << "In a distributed layout, each base must move in at most one dimension.";
  return success();
}

LogicalResult LinearEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                 function_ref<InFlightDiagnostic()> emitError) const {
  // A layout with no bases at all owns a single element and fits any rank.
  if (getRank() == 0)
    return success();
  // Bases may reach past the tensor, as in Triton: the layout is fitted to
  // the shape (bases beyond it broadcast), like a blocked layout's tile.
  return checkRank(emitError, "linear", getRank(), shape);
}

//===----------------------------------------------------------------------===//
// #ttg.swizzled_shared
//===----------------------------------------------------------------------===//
Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "swizzled_shared");
  auto vec = reader.getUnsigned("vec");
  auto perPhase = reader.getUnsigned("perPhase");
  auto maxPhase = reader.getUnsigned("maxPhase");
  auto order = reader.getUnsignedList("order");
  if (reader.failed())
    return {};
  auto cga = readCGA(reader, order->size());
  reader.checkAllConsumed();
  if (!cga || reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), *vec, *perPhase,
                    *maxPhase, *order, *cga);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printList(printer, getOrder());
  printCGA(printer, getCgaBases(), getOrder().size());
  printer << "}>";
}

LogicalResult SwizzledSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                                 unsigned vec, unsigned perPhase,
                                                 unsigned maxPhase, ArrayRef<unsigned> order,
                                                 ArrayRef<int32_t> cgaBases) {
  // perPhase = 0 makes the swizzle formula divide by zero (Triton dies of
  // SIGFPE on it); every parameter must be a positive power of two.
  unsigned params[] = {vec, perPhase, maxPhase};
  const char *names[] = {"vec", "perPhase", "maxPhase"};
  for (int i = 0; i < 3; ++i)
    if (params[i] == 0 || !llvm::isPowerOf2_32(params[i]))
      return emitError() << "swizzled_shared " << names[i]
                         << " must be a positive power of two, got " << params[i];
  if (order.empty())
    return emitError() << "swizzled_shared needs rank >= 1";
  if (failed(checkPermutation(emitError, "order", order)) ||
      failed(checkCGA(emitError, cgaBases, order.size())))
    return failure();
  return success();
}

LogicalResult SwizzledSharedEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                         function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, "swizzled_shared", getOrder().size(), shape);
}

//===----------------------------------------------------------------------===//
// #ttg.nvmma_shared
//===----------------------------------------------------------------------===//
Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict || parser.parseGreater())
    return {};
  FieldReader reader(parser, loc, *dict, "nvmma_shared");
  auto swizzle = reader.getUnsigned("swizzlingByteWidth");
  auto transposed = reader.getBool("transposed");
  auto bits = reader.getUnsigned("elementBitWidth");
  auto fp4Padded = reader.getBool("fp4Padded", /*required=*/false);
  auto rank = reader.getUnsigned("rank", /*required=*/false);
  if (reader.failed())
    return {};
  auto cga = readCGA(reader, rank.value_or(2));
  reader.checkAllConsumed();
  if (!cga || reader.failed())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), *swizzle,
                    *transposed, *bits, fp4Padded.value_or(false), rank.value_or(2), *cga);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth();
  if (getFp4Padded())
    printer << ", fp4Padded = true";
  if (getRank() != 2)
    printer << ", rank = " << getRank();
  printCGA(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult NVMMASharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                              unsigned swizzlingByteWidth, bool transposed,
                                              unsigned elementBitWidth, bool fp4Padded,
                                              unsigned rank, ArrayRef<int32_t> cgaBases) {
  if (swizzlingByteWidth != 0 && swizzlingByteWidth != 32 && swizzlingByteWidth != 64 &&
      swizzlingByteWidth != 128)
    return emitError() << "nvmma_shared swizzlingByteWidth must be 0, 32, 64 or 128, got "
                       << swizzlingByteWidth;
  if (elementBitWidth != 4 && elementBitWidth != 8 && elementBitWidth != 16 &&
      elementBitWidth != 32 && elementBitWidth != 64)
    return emitError() << "nvmma_shared elementBitWidth must be 4, 8, 16, 32 or 64, got "
                       << elementBitWidth;
  if (rank == 0)
    return emitError() << "nvmma_shared rank must be positive";
  return checkCGA(emitError, cgaBases, rank);
}

LogicalResult NVMMASharedEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                      function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, "nvmma_shared", getRank(), shape);
}

//===----------------------------------------------------------------------===//
// #ttg.shared_linear
//===----------------------------------------------------------------------===//
Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto dict = parseDictBody(parser);
  if (!dict)
    return {};
  FieldReader reader(parser, loc, *dict, "shared_linear");
  unsigned rank = 0;
  auto offset = reader.getBases("offset", rank);
  if (!offset)
    return {};
  SmallVector<int32_t> block;
  if (reader.has("block")) {
    auto b = reader.getBases("block", rank);
    if (!b)
      return {};
    block = *b;
  }
  if (reader.has("alignment")) {
    reader.error()
        << "alignment must be specified outside of the linear layout braces";
    return {};
  }
  reader.checkAllConsumed();
  if (reader.failed())
    return {};
  unsigned alignment = 0;
  if (parser.parseComma() || parser.parseKeyword("alignment") || parser.parseEqual() ||
      parser.parseInteger(alignment) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), rank, *offset,
                    block, alignment);
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getOffsetBases(), getRank());
  if (!getBlockBases().empty()) {
    printer << ", block = ";
    printBases(printer, getBlockBases(), getRank());
  }
  printer << "}, alignment = " << getAlignment() << ">";
}

LogicalResult SharedLinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               unsigned rank, ArrayRef<int32_t> offsetBases,
                                               ArrayRef<int32_t> blockBases, unsigned alignment) {
  if (alignment == 0 || !llvm::isPowerOf2_32(alignment))
    return emitError() << "shared_linear alignment must be a positive power of two, got "
                       << alignment;
  if (rank == 0)
    return emitError() << "shared_linear needs at least one offset basis";
  if (failed(checkBases(emitError, "offset", offsetBases, rank)) ||
      failed(checkBases(emitError, "block", blockBases, rank)))
    return failure();
  return success();
}

LogicalResult SharedLinearEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                                       function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, "shared_linear", getRank(), shape);
}

BlockedEncodingAttr mlir::triton::gpu::getBlockedEncoding(
    MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> sizePerThread,
    ArrayRef<unsigned> order, int numWarps, int threadsPerWarp,
    ArrayRef<int32_t> cgaBases) {
  unsigned rank = shape.size();
  SmallVector<unsigned> lanes(rank, 1), warps(rank, 1);
  unsigned remainingLanes = threadsPerWarp, remainingWarps = numWarps;
  unsigned remainingThreads = numWarps * threadsPerWarp;
  unsigned usedLanes = 1, usedWarps = 1;
  for (unsigned k = 0; k + 1 < rank; ++k) {
    unsigned d = order[k];
    unsigned threads = std::clamp<unsigned>(
        remainingThreads, 1,
        std::max<unsigned>(1, unsigned(std::min<int64_t>(shape[d], 1u << 30) /
                                       sizePerThread[d])));
    lanes[d] = std::clamp<unsigned>(threads, 1, remainingLanes);
    warps[d] = std::clamp<unsigned>(threads / lanes[d], 1, remainingWarps);
    remainingWarps /= warps[d];
    remainingLanes /= lanes[d];
    remainingThreads /= threads;
    usedLanes *= lanes[d];
    usedWarps *= warps[d];
  }
  if (rank > 0) {
    lanes[order[rank - 1]] = threadsPerWarp / usedLanes;
    warps[order[rank - 1]] = numWarps / usedWarps;
  }
  return BlockedEncodingAttr::get(ctx, sizePerThread, lanes, warps, order,
                                  cgaBases);
}
