#include "oracles/cpu/InlineAsm.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tgpu::cpu;
using llvm::Expected;
using llvm::StringRef;

namespace {

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

uint64_t mask(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}

int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return int64_t(v);
  uint64_t sign = uint64_t(1) << (bits - 1);
  return int64_t((mask(v, bits) ^ sign) - sign);
}

double toFloat(uint64_t bits, unsigned width) {
  if (width == 32) {
    float f;
    uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

uint64_t fromFloat(double v, unsigned width) {
  if (width == 32) {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

} // namespace

Expected<InlineAsmProgram> InlineAsmProgram::parse(StringRef text,
                                                   unsigned numRegs) {
  InlineAsmProgram p;
  llvm::SmallVector<StringRef, 8> stmts;
  text.split(stmts, ';', -1, /*KeepEmpty=*/false);
  for (StringRef stmt : stmts) {
    stmt = stmt.trim();
    if (stmt.empty())
      continue;
    if (stmt.starts_with("{") || stmt.starts_with(".reg") || stmt.starts_with("@"))
      return err("inline asm '" + stmt +
                 "': blocks, temporaries and predicates are outside the "
                 "supported PTX subset");
    auto [opcode, rest] = stmt.split(' ');
    llvm::SmallVector<StringRef, 4> parts;
    opcode.split(parts, '.');
    Inst inst;
    inst.op = parts[0].str();
    // The last suffix is the type: b32, u64, s16, f32, ...
    StringRef type = parts.back();
    if (parts.size() < 2 || type.size() < 2 ||
        !StringRef("busf").contains(type[0]) ||
        type.drop_front().getAsInteger(10, inst.bits) ||
        !llvm::is_contained({16u, 32u, 64u}, inst.bits))
      return err("inline asm '" + stmt + "': expected a typed instruction "
                 "(e.g. add.s32)");
    inst.kind = type[0];
    // Middle suffixes: only the rounding/low-half forms whose result is the
    // plain one (rn, lo).
    for (size_t i = 1; i + 1 < parts.size(); ++i)
      if (parts[i] != "rn" && parts[i] != "lo")
        return err("inline asm '" + stmt + "': modifier ." + parts[i] +
                   " is outside the supported PTX subset");
    if (inst.kind == 'f' && inst.bits == 16)
      return err("inline asm '" + stmt + "': f16 instructions are outside the "
                 "supported PTX subset");
    llvm::SmallVector<StringRef, 4> args;
    rest.split(args, ',');
    for (StringRef a : args) {
      a = a.trim();
      Operand o;
      if (a.consume_front("$")) {
        if (a.getAsInteger(10, o.reg) || o.reg >= numRegs)
          return err("inline asm '" + stmt + "': bad register $" + a);
      } else {
        o.isReg = false;
        if (a.starts_with_insensitive("0f") || a.starts_with_insensitive("0d")) {
          if (a.drop_front(2).getAsInteger(16, o.imm))
            return err("inline asm '" + stmt + "': bad float immediate " + a);
        } else {
          int64_t v;
          if (a.getAsInteger(0, v))
            return err("inline asm '" + stmt + "': bad operand '" + a + "'");
          o.imm = uint64_t(v);
        }
      }
      inst.args.push_back(o);
    }
    static const char *unary[] = {"mov", "not", "neg", "abs"};
    static const char *binary[] = {"add", "sub", "mul", "and", "or", "xor",
                                   "shl", "shr", "min", "max"};
    bool isUnary = llvm::is_contained(unary, inst.op);
    bool isBinary = llvm::is_contained(binary, inst.op);
    if (!isUnary && !isBinary)
      return err("inline asm '" + stmt + "': '" + inst.op +
                 "' is outside the supported PTX subset (mov, not, neg, abs, "
                 "add, sub, mul, and, or, xor, shl, shr, min, max)");
    if (inst.args.size() != (isUnary ? 2u : 3u) || !inst.args[0].isReg)
      return err("inline asm '" + stmt + "': wrong operands");
    p.insts.push_back(std::move(inst));
  }
  if (p.insts.empty())
    return err("inline asm body is empty");
  return p;
}

llvm::Error InlineAsmProgram::run(std::vector<uint64_t> &regs) const {
  for (const Inst &in : insts) {
    auto val = [&](const Operand &o) {
      return mask(o.isReg ? regs[o.reg] : o.imm, in.bits);
    };
    uint64_t a = val(in.args[1]);
    uint64_t b = in.args.size() > 2 ? val(in.args[2]) : 0;
    unsigned w = in.bits;
    uint64_t r = 0;
    const std::string &op = in.op;
    if (in.kind == 'f') {
      double x = toFloat(a, w), y = toFloat(b, w), z;
      if (op == "mov")
        z = x;
      else if (op == "neg")
        z = -x;
      else if (op == "abs")
        z = std::fabs(x);
      else if (op == "add")
        z = x + y;
      else if (op == "sub")
        z = x - y;
      else if (op == "mul")
        z = x * y;
      else if (op == "min")
        z = std::fmin(x, y);
      else if (op == "max")
        z = std::fmax(x, y);
      else
        return err("inline asm: '" + op + ".f" + llvm::Twine(w) +
                   "' is outside the supported PTX subset");
      r = op == "mov" ? a : fromFloat(z, w);
    } else {
      bool isSigned = in.kind == 's';
      if (op == "mov")
        r = a;
      else if (op == "not")
        r = ~a;
      else if (op == "neg")
        r = 0 - a;
      else if (op == "abs")
        r = uint64_t(std::abs(sext(a, w)));
      else if (op == "add")
        r = a + b;
      else if (op == "sub")
        r = a - b;
      else if (op == "mul")
        r = a * b;
      else if (op == "and")
        r = a & b;
      else if (op == "or")
        r = a | b;
      else if (op == "xor")
        r = a ^ b;
      else if (op == "shl")
        r = b >= w ? 0 : a << b; // PTX clamps the shift amount
      else if (op == "shr")
        r = isSigned ? uint64_t(sext(a, w) >> std::min<uint64_t>(b, w - 1))
                     : (b >= w ? 0 : a >> b);
      else if (op == "min" || op == "max") {
        bool takeA = isSigned ? (sext(a, w) < sext(b, w)) : (a < b);
        if (op == "max")
          takeA = !takeA;
        r = takeA ? a : b;
      }
    }
    regs[in.args[0].reg] = mask(r, w);
  }
  return llvm::Error::success();
}
