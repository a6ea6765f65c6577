#include "oracles/cpu/RunArgs.h"
#include "oracles/cpu/Values.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <cstring>

namespace tgpu::cpu {

namespace {

// splitmix64: a small, well-mixed deterministic generator.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void putElement(std::vector<uint8_t> &bytes, size_t k, ScalarKind kind,
                double fv, int64_t iv) {
  unsigned size = byteSize(kind);
  uint64_t bits = 0;
  switch (kind) {
  case ScalarKind::F16: {
    _Float16 h = static_cast<_Float16>(fv);
    std::memcpy(&bits, &h, 2);
    break;
  }
  case ScalarKind::BF16:
    bits = bf16BitsFromFloat(floatRoundToOdd(fv));
    break;
  case ScalarKind::F8E4M3FN:
    bits = fp8BitsFromDouble(fv, kE4M3FN);
    break;
  case ScalarKind::F8E5M2:
    bits = fp8BitsFromDouble(fv, kE5M2);
    break;
  case ScalarKind::F32: {
    float f = float(fv);
    std::memcpy(&bits, &f, 4);
    break;
  }
  case ScalarKind::F64:
    std::memcpy(&bits, &fv, 8);
    break;
  case ScalarKind::I1:
    bits = iv & 1;
    break;
  default:
    bits = uint64_t(iv);
    break;
  }
  std::memcpy(bytes.data() + k * size, &bits, size);
}

bool isFloat(ScalarKind k) { return k >= ScalarKind::F16; }

// Reads FILE into a buffer of `kind` values; `typeName` for messages.
bool readBufferFile(llvm::StringRef path, ScalarKind kind,
                    llvm::StringRef typeName, std::vector<uint8_t> &bytes,
                    std::string &why) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    why = "cannot read '" + path.str() + "': " + buf.getError().message();
    return false;
  }
  llvm::StringRef data = (*buf)->getBuffer();
  if (data.size() % byteSize(kind)) {
    why = "file '" + path.str() + "' holds " + std::to_string(data.size()) +
          " bytes, not a whole number of " + typeName.str() + " values";
    return false;
  }
  bytes.assign(data.begin(), data.end());
  return true;
}

// Fills `bytes` with `n` values of `kind` made by `init` (zeros, iota,
// rand seeded with `seed`).
bool fillBuffer(llvm::StringRef init, uint64_t n, uint64_t seed,
                ScalarKind kind, std::vector<uint8_t> &bytes,
                std::string &why) {
  if (n > (uint64_t(1) << 30)) {
    why = "buffer of " + std::to_string(n) + " elements is too large";
    return false;
  }
  bytes.assign(n * byteSize(kind), 0);
  if (init == "zeros")
    return true;
  if (init == "iota") {
    for (uint64_t k = 0; k < n; ++k)
      putElement(bytes, k, kind, double(k), int64_t(k));
    return true;
  }
  if (init == "rand") {
    // Floats uniform in [-1, 1); integers in [-8, 8) (i1: 0 or 1).
    uint64_t state = seed;
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t r = nextRandom(state);
      double fv = double(r >> 11) * 0x1.0p-53 * 2.0 - 1.0;
      int64_t iv =
          kind == ScalarKind::I1 ? int64_t(r & 1) : int64_t(r % 16) - 8;
      putElement(bytes, k, kind, fv, iv);
    }
    return true;
  }
  why = "unknown buffer initializer '" + init.str() + "'";
  return false;
}

// "D0xD1x...", each a positive size; the product must stay below 2^31.
bool parseShape(llvm::StringRef text, std::vector<int64_t> &shape,
                std::string &why) {
  llvm::SmallVector<llvm::StringRef, 4> dims;
  text.split(dims, 'x');
  shape.clear();
  uint64_t total = 1;
  for (llvm::StringRef d : dims) {
    int64_t v;
    if (d.getAsInteger(10, v) || v < 1 || v > (int64_t(1) << 31) - 1) {
      why = "descriptor shape '" + text.str() +
            "': each size must be a positive integer below 2^31";
      return false;
    }
    total *= uint64_t(v);
    if (total > (uint64_t(1) << 31)) {
      why = "descriptor shape '" + text.str() + "' has too many elements";
      return false;
    }
    shape.push_back(v);
  }
  return true;
}

// The rest of a "desc:T=" argument: INIT:SHAPE[:SEED] or @FILE:SHAPE.
bool parseDescriptorArg(llvm::StringRef type, llvm::StringRef rhs, size_t index,
                        KernelArg &arg, std::string &why) {
  const char *syntax = "expected zeros:SHAPE, rand:SHAPE[:SEED], iota:SHAPE or "
                       "@FILE:SHAPE (SHAPE: D0xD1x...)";
  arg.isBuffer = arg.isDescriptor = true;
  if (rhs.consume_front("@")) {
    // The shape follows the last ':', so file names may hold ':'.
    auto [path, shapeText] = rhs.rsplit(':');
    if (shapeText.empty() || path.empty() || path == rhs) {
      why = syntax;
      return false;
    }
    if (!parseShape(shapeText, arg.descShape, why) ||
        !readBufferFile(path, arg.kind, type, arg.bytes, why))
      return false;
  } else {
    llvm::SmallVector<llvm::StringRef, 3> parts;
    rhs.split(parts, ':');
    uint64_t seed = index + 1;
    if (parts.size() < 2 || parts.size() > 3 || parts[1].empty() ||
        (parts.size() == 3 && parts[2].getAsInteger(0, seed))) {
      why = syntax;
      return false;
    }
    if (!parseShape(parts[1], arg.descShape, why))
      return false;
    uint64_t n = 1;
    for (int64_t d : arg.descShape)
      n *= uint64_t(d);
    if (!fillBuffer(parts[0], n, seed, arg.kind, arg.bytes, why))
      return false;
  }
  uint64_t n = 1;
  for (int64_t d : arg.descShape)
    n *= uint64_t(d);
  if (arg.bytes.size() != n * byteSize(arg.kind)) {
    why = "file holds " +
          std::to_string(arg.bytes.size() / byteSize(arg.kind)) + " " +
          type.str() + " values, shape '" + rhs.rsplit(':').second.str() +
          "' needs " + std::to_string(n);
    return false;
  }
  // Row-major and contiguous: the innermost stride is 1.
  arg.descStrides.assign(arg.descShape.size(), 1);
  for (size_t d = arg.descShape.size() - 1; d-- > 0;)
    arg.descStrides[d] = arg.descStrides[d + 1] * arg.descShape[d + 1];
  return true;
}

} // namespace

bool parseKernelArg(llvm::StringRef text, size_t index, KernelArg &arg,
                    std::string &why) {
  auto [lhs, rhs] = text.split('=');
  if (rhs.empty() && !text.contains('=')) {
    why = "expected TYPE=VALUE";
    return false;
  }
  if (lhs.consume_front("desc:")) {
    if (!parseScalarKind(lhs, arg.kind)) {
      why = "unknown element type '" + lhs.str() + "'";
      return false;
    }
    return parseDescriptorArg(lhs, rhs, index, arg, why);
  }
  if (lhs.consume_front("ptr:")) {
    if (!parseScalarKind(lhs, arg.kind)) {
      why = "unknown element type '" + lhs.str() + "'";
      return false;
    }
    arg.isBuffer = true;
    if (rhs.consume_front("@"))
      return readBufferFile(rhs, arg.kind, lhs, arg.bytes, why);
    llvm::SmallVector<llvm::StringRef, 3> parts;
    rhs.split(parts, ':');
    uint64_t n = 0, seed = index + 1;
    if (parts.size() < 2 || parts[1].getAsInteger(0, n) ||
        (parts.size() == 3 && parts[2].getAsInteger(0, seed)) ||
        parts.size() > 3) {
      why = "expected zeros:N, rand:N[:SEED], iota:N or @FILE";
      return false;
    }
    return fillBuffer(parts[0], n, seed, arg.kind, arg.bytes, why);
  }
  if (!parseScalarKind(lhs, arg.kind)) {
    why = "unknown scalar type '" + lhs.str() + "'";
    return false;
  }
  if (isFloat(arg.kind)) {
    std::string s = rhs.str();
    char *end = nullptr;
    arg.floatValue = std::strtod(s.c_str(), &end);
    if (s.empty() || *end) {
      why = "'" + s + "' is not a number";
      return false;
    }
    return true;
  }
  if (rhs.getAsInteger(0, arg.intValue)) {
    uint64_t u;
    if (rhs.getAsInteger(0, u)) {
      why = "'" + rhs.str() + "' is not an integer";
      return false;
    }
    arg.intValue = int64_t(u);
  }
  unsigned bits = byteSize(arg.kind) * 8;
  if (arg.kind == ScalarKind::I1)
    bits = 1;
  if (bits < 64) {
    int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << bits) - 1;
    if (arg.kind == ScalarKind::I1)
      lo = 0;
    if (arg.intValue < lo || arg.intValue > hi) {
      why = "value " + rhs.str() + " does not fit " + lhs.str();
      return false;
    }
  }
  return true;
}


bool parseGrid(llvm::StringRef text, std::array<int64_t, 3> &grid,
               std::string &why) {
  llvm::SmallVector<llvm::StringRef, 3> dims;
  text.split(dims, ',');
  if (dims.empty() || dims.size() > 3) {
    why = "--grid takes X[,Y[,Z]], got '" + text.str() + "'";
    return false;
  }
  grid = {1, 1, 1};
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t v;
    if (dims[d].trim().getAsInteger(10, v) || v < 1 || v > (int64_t(1) << 31)) {
      why = "--grid: '" + dims[d].str() + "' is not a positive count";
      return false;
    }
    grid[d] = v;
  }
  return true;
}

bool checkNumStages(int numStages, std::string &why) {
  if (numStages >= 1 && numStages <= 8)
    return true;
  why = "--num-stages must be between 1 and 8";
  return false;
}

bool checkArch(llvm::StringRef arch, std::string &why) {
  if (arch == "sm_80" || arch == "sm_90" || arch == "sm_90a")
    return true;
  why = "--arch must be sm_80, sm_90 or sm_90a, not '" + arch.str() + "'";
  return false;
}

std::string LaunchSpec::str() const {
  std::string s = "--grid " + std::to_string(grid[0]);
  if (grid[1] != 1 || grid[2] != 1)
    s += "," + std::to_string(grid[1]);
  if (grid[2] != 1)
    s += "," + std::to_string(grid[2]);
  if (numWarps != 4)
    s += " --num-warps " + std::to_string(numWarps);
  if (numStages)
    s += " --num-stages " + std::to_string(numStages);
  if (!arch.empty())
    s += " --arch " + arch;
  s += " --";
  for (const std::string &a : args)
    s += " " + a;
  return s;
}

bool LaunchSpec::parse(llvm::StringRef text, LaunchSpec &spec,
                       std::string &why) {
  spec = LaunchSpec();
  llvm::SmallVector<llvm::StringRef> words;
  text.split(words, ' ', -1, /*KeepEmpty=*/false);
  bool afterDashes = false, sawGrid = false;
  for (size_t i = 0; i < words.size(); ++i) {
    llvm::StringRef w = words[i];
    if (afterDashes) {
      spec.args.push_back(w.str());
      continue;
    }
    if (w == "--") {
      afterDashes = true;
      continue;
    }
    llvm::StringRef value;
    bool inlineValue = w.contains('=');
    auto [key, inlineText] = w.split('=');
    if (inlineValue)
      value = inlineText;
    else if (i + 1 < words.size())
      value = words[++i];
    if (key == "--grid" || key == "-grid") {
      if (!parseGrid(value, spec.grid, why))
        return false;
      sawGrid = true;
    } else if (key == "--num-warps" || key == "-num-warps") {
      if (value.getAsInteger(10, spec.numWarps) || spec.numWarps < 1 ||
          spec.numWarps > 32) {
        why = "--num-warps must be between 1 and 32";
        return false;
      }
    } else if (key == "--num-stages" || key == "-num-stages") {
      if (value.getAsInteger(10, spec.numStages))
        spec.numStages = 0; // not a number: out of range below
      if (!checkNumStages(spec.numStages, why))
        return false;
    } else if (key == "--arch" || key == "-arch") {
      if (!checkArch(value, why))
        return false;
      spec.arch = value.str();
    } else {
      why = "unknown launch option '" + w.str() + "'";
      return false;
    }
  }
  if (!sawGrid) {
    why = "the launch names no --grid";
    return false;
  }
  return true;
}

bool LaunchSpec::makeArgs(std::vector<KernelArg> &out, std::string &why) const {
  out.clear();
  for (size_t i = 0; i < args.size(); ++i) {
    KernelArg a;
    std::string argWhy;
    if (!parseKernelArg(args[i], i, a, argWhy)) {
      why = "argument " + std::to_string(i) + " '" + args[i] + "': " + argWhy;
      return false;
    }
    out.push_back(std::move(a));
  }
  return true;
}

} // namespace tgpu::cpu

void tgpu::cpu::splitAtDashes(int argc, char **argv, int first,
                              std::vector<char *> &toolArgs,
                              std::vector<std::string> &kernelArgs) {
  toolArgs.assign(argv, argv + (argc > 0 ? 1 : 0));
  bool afterDashes = false;
  for (int i = first; i < argc; ++i) {
    if (!afterDashes && std::strcmp(argv[i], "--") == 0)
      afterDashes = true;
    else if (afterDashes)
      kernelArgs.push_back(argv[i]);
    else
      toolArgs.push_back(argv[i]);
  }
}
