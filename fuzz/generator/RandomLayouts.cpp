// Random ttg layouts for the fuzz side (see RandomLayouts.h).
//
// The layouts are drawn as plain descriptions by the shared layout generator
// (fuzz/layoutgen/LayoutSpecs.h); here they are built as attributes
// (randomDistributedLayout, randomSharedLayout) or printed as text, where a
// malformed variant changes the description or the text in one known way.
#include "fuzz/generator/RandomLayouts.h"

#include "tgpu/Dialect/TritonGPU/IR/Dialect.h"

#include <algorithm>
#include <memory>
#include <vector>

using namespace mlir;
using namespace mlir::triton::gpu;

namespace tgpu::gen {
namespace {

using draw::cgaBases;
using draw::swizzledShared;

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

struct Printer {
  bool denseArrays = false; // `array<i32: ...>` for the integer lists

  std::string list(const std::vector<int64_t> &v) {
    std::string s = denseArrays ? "array<i32" + std::string(v.empty() ? "" : ": ")
                                : "[";
    for (size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + std::to_string(v[i]);
    return s + (denseArrays ? ">" : "]");
  }
  static std::string bases(const Bases &b) {
    std::string s = "[";
    for (size_t i = 0; i < b.size(); ++i) {
      s += i ? ", [" : "[";
      for (size_t k = 0; k < b[i].size(); ++k)
        s += (k ? ", " : "") + std::to_string(b[i][k]);
      s += "]";
    }
    return s + "]";
  }
  // Joins `key = value` fields in the given order.
  static std::string fields(const std::vector<std::pair<std::string, std::string>> &f) {
    std::string s;
    for (size_t i = 0; i < f.size(); ++i)
      s += (i ? ", " : "") + f[i].first + " = " + f[i].second;
    return s;
  }

  using Fields = std::vector<std::pair<std::string, std::string>>;

  void cgaFields(const LayoutSpec &s, unsigned rank, Fields &f) {
    if (s.legacyCTA) {
      f.push_back({"CTAsPerCGA", list(std::vector<int64_t>(rank, 1))});
      f.push_back({"CTASplitNum", list(std::vector<int64_t>(rank, 1))});
      std::vector<int64_t> order(rank);
      for (unsigned d = 0; d < rank; ++d)
        order[d] = rank - 1 - d;
      f.push_back({"CTAOrder", list(order)});
    } else if (!s.cga.empty()) {
      f.push_back({"CGALayout", bases(s.cga)});
    }
  }

  // The fields of `s` in the order Triton prints them.
  Fields fieldsOf(const LayoutSpec &s) {
    Fields f;
    switch (s.kind) {
    case LayoutKind::Blocked:
      f = {{"sizePerThread", list(s.sizePerThread)},
           {"threadsPerWarp", list(s.threadsPerWarp)},
           {"warpsPerCTA", list(s.warpsPerCTA)},
           {"order", list(s.order)}};
      cgaFields(s, s.order.size(), f);
      break;
    case LayoutKind::Slice:
      f = {{"dim", std::to_string(s.dim)}, {"parent", print(*s.parent)}};
      break;
    case LayoutKind::Linear:
      f = {{"register", bases(s.reg)},
           {"lane", bases(s.lane)},
           {"warp", bases(s.warp)},
           {"block", bases(s.block)}};
      break;
    case LayoutKind::NvidiaMma:
      f = {{"versionMajor", std::to_string(s.versionMajor)},
           {"versionMinor", std::to_string(s.versionMinor)},
           {"warpsPerCTA", list(s.warpsPerCTA)}};
      cgaFields(s, s.warpsPerCTA.size(), f);
      f.push_back({"instrShape", list(s.instrShape)});
      break;
    case LayoutKind::DotOperand:
      f = {{"opIdx", std::to_string(s.opIdx)}, {"parent", print(*s.parent)}};
      if (s.kWidth)
        f.push_back({"kWidth", std::to_string(s.kWidth)});
      break;
    case LayoutKind::SwizzledShared:
      f = {{"vec", std::to_string(s.vec)},
           {"perPhase", std::to_string(s.perPhase)},
           {"maxPhase", std::to_string(s.maxPhase)},
           {"order", list(s.order)}};
      cgaFields(s, s.order.size(), f);
      break;
    case LayoutKind::NVMMAShared:
      f = {{"swizzlingByteWidth", std::to_string(s.swizzle)},
           {"transposed", s.transposed ? "true" : "false"},
           {"elementBitWidth", std::to_string(s.bits)}};
      if (s.fp4Padded)
        f.push_back({"fp4Padded", "true"});
      if (s.rank != 2)
        f.push_back({"rank", std::to_string(s.rank)});
      cgaFields(s, s.rank, f);
      break;
    case LayoutKind::SharedLinear:
      f = {{"offset", bases(s.offset)}};
      if (!s.block.empty())
        f.push_back({"block", bases(s.block)});
      break;
    case LayoutKind::Other:
      break;
    }
    return f;
  }

  static const char *mnemonic(LayoutKind k) {
    switch (k) {
    case LayoutKind::Blocked: return "blocked";
    case LayoutKind::Slice: return "slice";
    case LayoutKind::Linear: return "linear";
    case LayoutKind::NvidiaMma: return "nvidia_mma";
    case LayoutKind::DotOperand: return "dot_op";
    case LayoutKind::SwizzledShared: return "swizzled_shared";
    case LayoutKind::NVMMAShared: return "nvmma_shared";
    case LayoutKind::SharedLinear: return "shared_linear";
    case LayoutKind::Other: break;
    }
    return "other";
  }

  std::string wrap(const LayoutSpec &s, const std::string &body) {
    std::string t = "#ttg." + std::string(mnemonic(s.kind)) + "<{" + body + "}";
    if (s.kind == LayoutKind::SharedLinear)
      t += ", alignment = " + std::to_string(s.alignment);
    return t + ">";
  }

  std::string print(const LayoutSpec &s) {
    return wrap(s, fields(fieldsOf(s)));
  }
};

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

SmallVector<unsigned> u32(const std::vector<int64_t> &v) {
  return SmallVector<unsigned>(v.begin(), v.end());
}

SmallVector<int32_t> flat(const Bases &b) {
  SmallVector<int32_t> r;
  for (const auto &basis : b)
    for (int64_t c : basis)
      r.push_back(int32_t(c));
  return r;
}

// The attribute of a valid description.
Attribute build(MLIRContext *ctx, const LayoutSpec &s) {
  switch (s.kind) {
  case LayoutKind::Blocked:
    return BlockedEncodingAttr::get(ctx, u32(s.sizePerThread), u32(s.threadsPerWarp),
                                    u32(s.warpsPerCTA), u32(s.order), flat(s.cga));
  case LayoutKind::Slice:
    return SliceEncodingAttr::get(ctx, unsigned(s.dim), build(ctx, *s.parent));
  case LayoutKind::Linear:
    return LinearEncodingAttr::get(ctx, unsigned(s.rank), flat(s.reg), flat(s.lane),
                                   flat(s.warp), flat(s.block));
  case LayoutKind::NvidiaMma:
    return NvidiaMmaEncodingAttr::get(ctx, unsigned(s.versionMajor),
                                      unsigned(s.versionMinor), u32(s.warpsPerCTA),
                                      u32(s.instrShape), flat(s.cga));
  case LayoutKind::DotOperand:
    return DotOperandEncodingAttr::get(ctx, unsigned(s.opIdx), build(ctx, *s.parent),
                                       unsigned(s.kWidth));
  case LayoutKind::SwizzledShared:
    return SwizzledSharedEncodingAttr::get(ctx, unsigned(s.vec), unsigned(s.perPhase),
                                           unsigned(s.maxPhase), u32(s.order),
                                           flat(s.cga));
  case LayoutKind::NVMMAShared:
    return NVMMASharedEncodingAttr::get(ctx, unsigned(s.swizzle), s.transposed,
                                        unsigned(s.bits), s.fp4Padded,
                                        unsigned(s.rank), flat(s.cga));
  case LayoutKind::SharedLinear:
    return SharedLinearEncodingAttr::get(ctx, unsigned(s.rank), flat(s.offset),
                                         flat(s.block), unsigned(s.alignment));
  default:
    return {};
  }
}

//===----------------------------------------------------------------------===//
// Malformed texts
//===----------------------------------------------------------------------===//

// A number that is not a positive power of two.
int64_t notPowerOfTwo(ByteSource &src) {
  static const int64_t bad[] = {0, 3, 5, 6, 12, 24, 100};
  return bad[src.below(7)];
}

// Breaks `s` in one way every reader must reject; false when the kind has
// no such defect at hand (the caller picks a generic one).
bool breakSpec(ByteSource &src, LayoutSpec &s, llvm::ArrayRef<int64_t> shape,
               unsigned numWarps, std::string &defect) {
  unsigned rank = shape.size();
  auto lists = [&]() -> std::vector<std::pair<const char *, std::vector<int64_t> *>> {
    return {{"sizePerThread", &s.sizePerThread},
            {"threadsPerWarp", &s.threadsPerWarp},
            {"warpsPerCTA", &s.warpsPerCTA}};
  };
  switch (s.kind) {
  case LayoutKind::Blocked:
    switch (src.below(7)) {
    case 0: { // one list one entry longer or shorter
      auto [name, v] = lists()[src.below(3)];
      if (src.coin() || v->size() < 2)
        v->push_back(1);
      else
        v->pop_back();
      defect = std::string(name) + " of another rank";
      return true;
    }
    case 1: {
      auto [name, v] = lists()[src.below(3)];
      (*v)[src.below(v->size())] = notPowerOfTwo(src);
      defect = std::string(name) + " entry not a power of two";
      return true;
    }
    case 2: // order not a permutation
      if (rank >= 2 && src.coin())
        s.order[1] = s.order[0];
      else
        s.order[src.below(rank)] = rank + src.below(3);
      defect = "order not a permutation";
      return true;
    case 3: // 2^k lanes, k != 5
      s.threadsPerWarp[src.below(rank)] *= src.coin() ? 2 : 4;
      defect = "threadsPerWarp product != 32";
      return true;
    case 4:
      s.warpsPerCTA[src.below(rank)] *= 2;
      defect = "warpsPerCTA product != num-warps";
      return true;
    case 5: // a CGA basis that is not 0 or a power of two, or of another rank
      s.cga = cgaBases(src, rank, 2);
      s.legacyCTA = false;
      if (src.coin())
        s.cga[0][src.below(rank)] = 3;
      else
        s.cga[0].push_back(0);
      defect = "bad CGALayout";
      return true;
    default:
      s.order.push_back(rank); // all lists of rank + 1 but the order alone
      s.sizePerThread.push_back(1);
      s.threadsPerWarp.push_back(1);
      s.warpsPerCTA.push_back(1);
      defect = "layout rank != tensor rank";
      return true;
    }
  case LayoutKind::Slice:
    switch (src.below(3)) {
    case 0:
      s.dim = rank + 1 + src.below(3);
      defect = "slice dim out of range";
      return true;
    case 1:
      s.parent = std::make_shared<LayoutSpec>(swizzledShared(src, rank + 1));
      defect = "slice of a shared layout";
      return true;
    default:
      if (s.parent->kind == LayoutKind::Blocked) {
        s.parent->warpsPerCTA[src.below(rank + 1)] *= 2;
        defect = "slice parent warps != num-warps";
        return true;
      }
      s.dim = rank + 1;
      defect = "slice dim out of range";
      return true;
    }
  case LayoutKind::Linear: {
    switch (src.below(6)) {
    case 0:
      s.lane.push_back(std::vector<int64_t>(rank, 0));
      defect = "64 lanes";
      return true;
    case 5: { // a basis along two dims (only shared layouts may swizzle)
      if (rank < 2 || shape[0] < 2 || shape[1] < 2)
        return false;
      Bases *b = !s.reg.empty() ? &s.reg : &s.lane;
      auto &basis = (*b)[src.below(b->size())];
      basis[0] |= 1, basis[1] |= 1;
      defect = "basis along two dims";
      return true;
    }
    case 1:
      s.warp.push_back(std::vector<int64_t>(rank, 0));
      defect = "warp bases != log2(num-warps)";
      return true;
    case 3: { // a basis of the wrong length
      Bases *b = !s.reg.empty() ? &s.reg : &s.lane;
      (*b)[src.below(b->size())].push_back(0);
      defect = "basis of another length";
      return true;
    }
    // (A basis reaching past the tensor is no defect: the layout is fitted
    // to the shape, its bases past a dim's size broadcasting, as in Triton.)
    default: { // not onto: bit 0 of a dim of 4 or more is never reached
      // (a dim whose bases stop short of its size would just be repeated
      // over registers, which is valid; a hole in the middle is not).
      int d = -1;
      for (unsigned k = 0; k < rank; ++k)
        if (shape[k] >= 4)
          d = k;
      if (d < 0)
        return false;
      for (Bases *b : {&s.reg, &s.lane, &s.warp})
        for (auto &basis : *b)
          basis[d] &= ~int64_t(1);
      defect = "bases not onto the tensor";
      return true;
    }
    }
  }
  case LayoutKind::NvidiaMma:
    switch (src.below(4)) {
    case 0:
      s.versionMajor = src.coin() ? 1 : 4 + src.below(4);
      defect = "mma version";
      return true;
    case 1:
      if (s.versionMajor == 2)
        s.instrShape = {16, 16};
      else
        s.instrShape[1] = 12;
      defect = "mma instrShape";
      return true;
    case 2:
      s.warpsPerCTA[src.below(s.warpsPerCTA.size())] *= 2;
      defect = "mma warps != num-warps";
      return true;
    default:
      if (s.versionMajor == 3) {
        s.warpsPerCTA = {2, 2 * (int64_t(numWarps) / 4)};
        defect = "wgmma warps not in groups of 4";
        return true;
      }
      s.warpsPerCTA = {int64_t(numWarps)};
      s.instrShape = {16};
      defect = "mma of rank 1";
      return true;
    }
  case LayoutKind::DotOperand:
    switch (src.below(3)) {
    case 0:
      s.opIdx = 2 + src.below(3);
      defect = "opIdx";
      return true;
    case 1:
      if (s.parent->kind == LayoutKind::Blocked) {
        s.kWidth = int64_t(1) << src.below(3);
        defect = "kWidth with a blocked parent";
      } else {
        s.kWidth = src.coin() ? 0 : 3;
        defect = "kWidth missing or not a power of two";
      }
      return true;
    default:
      if (s.parent->kind == LayoutKind::NvidiaMma && s.parent->versionMajor == 3) {
        s.opIdx = 1;
        defect = "operand B from registers with wgmma";
        return true;
      }
      s.parent = std::make_shared<LayoutSpec>(swizzledShared(src, rank));
      defect = "dot_op of a shared layout";
      return true;
    }
  case LayoutKind::SwizzledShared:
    switch (src.below(3)) {
    case 0:
      s.vec = notPowerOfTwo(src);
      defect = "vec";
      return true;
    case 1:
      s.perPhase = notPowerOfTwo(src);
      defect = "perPhase";
      return true;
    default:
      s.order.push_back(0);
      defect = "order not a permutation / of another rank";
      return true;
    }
  case LayoutKind::NVMMAShared:
    if (src.coin()) {
      s.swizzle = 16 + 32 * int64_t(src.below(3)); // 16, 48, 80
      defect = "swizzlingByteWidth";
    } else {
      s.bits = src.coin() ? 12 : 0;
      defect = "elementBitWidth";
    }
    return true;
  case LayoutKind::SharedLinear:
    if (src.coin()) {
      s.alignment = notPowerOfTwo(src);
      defect = "alignment";
    } else {
      s.offset.push_back(std::vector<int64_t>(rank + 1, 0));
      defect = "offset basis of another length";
    }
    return true;
  case LayoutKind::Other:
    break;
  }
  return false;
}

} // namespace

mlir::Attribute randomDistributedLayout(ByteSource &src, mlir::MLIRContext *ctx,
                                        llvm::ArrayRef<int64_t> shape,
                                        unsigned numWarps, bool allowMma) {
  if (!powersOfTwo(shape) || log2Of(numWarps) < 0)
    return {};
  return build(ctx, draw::programLayout(src, shape, numWarps, allowMma));
}

mlir::Attribute randomSharedLayout(ByteSource &src, mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<int64_t> shape,
                                   unsigned elementBits) {
  if (!powersOfTwo(shape))
    return {};
  return build(ctx, draw::programSharedLayout(src, shape, elementBits));
}

LayoutText randomLayoutAttrText(ByteSource &src, llvm::ArrayRef<int64_t> shape,
                                unsigned numWarps, bool wantMalformed) {
  LayoutText out;
  out.numWarps = numWarps;
  if (!powersOfTwo(shape) || log2Of(numWarps) < 0) {
    // Nothing valid to start from: a blocked layout of rank 1 for whatever
    // the caller does with it.
    out.text = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
               "warpsPerCTA = [" + std::to_string(numWarps) + "], order = [0]}>";
    out.kind = LayoutKind::Blocked;
    return out;
  }
  unsigned rank = shape.size();
  LayoutSpec s = draw::anyLayout(src, shape, numWarps, out.numCTAs);
  out.kind = s.kind;
  Printer printer;
  printer.denseArrays = src.chance(1, 8);

  if (!wantMalformed) {
    out.text = printer.print(s);
    return out;
  }

  // Garbled: a few random byte edits; no expectation either way.
  if (src.chance(1, 8)) {
    out.text = printer.print(s);
    for (int n = 1 + src.below(3); n > 0 && !out.text.empty(); --n) {
      size_t at = src.below(out.text.size());
      static const char chars[] = "[]{}<>,=0123456789 #.abcdefghijklmnopqrstuvwxyz_-\"";
      switch (src.below(3)) {
      case 0:
        out.text[at] = chars[src.below(sizeof(chars) - 1)];
        break;
      case 1:
        out.text.erase(at, 1);
        break;
      default:
        out.text.insert(at, 1, chars[src.below(sizeof(chars) - 1)]);
        break;
      }
    }
    out.isGarbled = true;
    out.defect = "garbled";
    return out;
  }

  out.isMalformed = true;
  switch (src.below(8)) {
  case 0: { // a field missing
    Printer::Fields f = printer.fieldsOf(s);
    // Optional fields (kWidth, CGA, fp4Padded, rank, block, and as in
    // Triton nvidia_mma's versionMinor and instrShape) do not count.
    static const char *const optional[] = {
        "kWidth",    "CGALayout", "CTAsPerCGA", "CTASplitNum",  "CTAOrder",
        "fp4Padded", "rank",      "block",      "versionMinor", "instrShape"};
    std::vector<size_t> required;
    for (size_t i = 0; i < f.size(); ++i)
      if (!llvm::is_contained(optional, f[i].first))
        required.push_back(i);
    if (!required.empty()) {
      size_t drop = required[src.below(required.size())];
      out.defect = "missing field " + f[drop].first;
      f.erase(f.begin() + drop);
      out.text = printer.wrap(s, Printer::fields(f));
      return out;
    }
    break;
  }
  case 1: { // an unknown field
    Printer::Fields f = printer.fieldsOf(s);
    f.insert(f.begin() + src.below(f.size() + 1), {"bogusField", "[1]"});
    out.text = printer.wrap(s, Printer::fields(f));
    out.defect = "unknown field";
    return out;
  }
  case 2: { // cut short
    std::string full = printer.print(s);
    out.text = full.substr(0, src.below(full.size()));
    out.defect = "truncated";
    return out;
  }
  case 3: { // a field of the wrong type
    Printer::Fields f = printer.fieldsOf(s);
    if (!f.empty()) {
      size_t at = src.below(f.size());
      static const char *const wrong[] = {"\"text\"", "1.5", "[[1]]", "unit",
                                          "[-1]", "-2", "4294967296"};
      std::string w = wrong[src.below(7)];
      // All of these are wrong for every field, except `[[1]]` for a bases
      // field of a rank-1 layout and `unit`... which is still no layout, but
      // keep the parent a string for a clearer message.
      bool basesField = f[at].first == "register" || f[at].first == "lane" ||
                        f[at].first == "warp" || f[at].first == "block" ||
                        f[at].first == "offset" || f[at].first == "CGALayout";
      if ((w == "[[1]]" && basesField && rank == 1) ||
          (f[at].first == "parent" && w == "unit"))
        w = "\"text\"";
      if (f[at].first == "transposed" || f[at].first == "fp4Padded")
        w = "3";
      out.defect = "wrong type for " + f[at].first;
      f[at].second = w;
      out.text = printer.wrap(s, Printer::fields(f));
      return out;
    }
    break;
  }
  case 4: { // not a layout at all
    static const char *const others[] = {
        "[1, 2]", "unit", "\"blocked\"", "#ttg.shared_memory", "#ttg.blockd<{}>",
        "#ttg<\"x\">", "42 : i32"};
    out.text = others[src.below(7)];
    out.kind = LayoutKind::Other;
    out.defect = "not a layout";
    return out;
  }
  default:
    break;
  }
  if (breakSpec(src, s, shape, numWarps, out.defect)) {
    out.text = printer.print(s);
    return out;
  }
  // No kind-specific defect: drop the closing brackets.
  std::string full = printer.print(s);
  out.text = full.substr(0, full.size() - 2);
  out.defect = "truncated";
  return out;
}

} // namespace tgpu::gen
