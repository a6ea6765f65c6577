#include "oracles/gpu/bundle/Bundle.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace tgpu::bundle {

namespace {

struct ElemInfo {
  Elem elem;
  const char *name;
  unsigned bytes;
};
constexpr ElemInfo kElems[] = {
    {Elem::I1, "i1", 1},   {Elem::I8, "i8", 1},     {Elem::I16, "i16", 2},
    {Elem::I32, "i32", 4}, {Elem::I64, "i64", 8},   {Elem::F16, "f16", 2},
    {Elem::BF16, "bf16", 2}, {Elem::F32, "f32", 4}, {Elem::F64, "f64", 8},
};

double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  double v;
  if (exp == 0)
    v = std::ldexp(double(man), -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = std::ldexp(double(man | 0x400), exp - 25);
  return sign ? -v : v;
}

} // namespace

bool parseElem(const std::string &name, Elem &out) {
  for (const ElemInfo &i : kElems)
    if (name == i.name) {
      out = i.elem;
      return true;
    }
  return false;
}

const char *elemName(Elem e) { return kElems[int(e)].name; }
unsigned elemBytes(Elem e) { return kElems[int(e)].bytes; }
bool isFloat(Elem e) {
  return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64;
}

double elemEpsilon(Elem e) {
  switch (e) {
  case Elem::F16: return std::ldexp(1.0, -10);
  case Elem::BF16: return std::ldexp(1.0, -7);
  case Elem::F32: return std::ldexp(1.0, -23);
  case Elem::F64: return std::ldexp(1.0, -52);
  default: return 0;
  }
}

uint64_t elemBits(Elem e, const uint8_t *data, uint64_t index) {
  unsigned n = elemBytes(e);
  uint64_t v = 0;
  std::memcpy(&v, data + index * n, n); // little endian host
  return v;
}

double elemAsDouble(Elem e, const uint8_t *data, uint64_t index) {
  uint64_t bits = elemBits(e, data, index);
  switch (e) {
  case Elem::I1: return double(bits & 1);
  case Elem::I8: return double(int8_t(bits));
  case Elem::I16: return double(int16_t(bits));
  case Elem::I32: return double(int32_t(bits));
  case Elem::I64: return double(int64_t(bits));
  case Elem::F16: return halfToDouble(uint16_t(bits));
  case Elem::BF16: {
    uint32_t w = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  case Elem::F32: {
    uint32_t w = uint32_t(bits);
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  case Elem::F64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
  return 0;
}

std::string joinPath(const std::string &dir, const std::string &file) {
  if (dir.empty())
    return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

std::string baseName(std::string path) {
  while (path.size() > 1 && path.back() == '/')
    path.pop_back();
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool readFile(const std::string &path, std::string &out, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  out = ss.str();
  return true;
}

bool writeFile(const std::string &path, const void *data, size_t size,
               std::string &error) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(data, 1, size, f) == size;
  ok &= std::fclose(f) == 0;
  if (!ok)
    error = "cannot write '" + path + "': " + std::strerror(errno);
  return ok;
}

namespace {

// Reads meta.json's members with messages that name the member.
class Reader {
public:
  explicit Reader(std::string &error) : error(error) {}
  std::string &error;

  bool fail(const std::string &where, const std::string &what) {
    error = where + ": " + what;
    return false;
  }
  const Json *member(const Json &obj, const std::string &key,
                     const std::string &where, bool required = true) {
    const Json *j = obj.isObject() ? obj.get(key) : nullptr;
    if (!j && required)
      fail(where, "missing '" + key + "'");
    return j;
  }
  bool string(const Json &obj, const std::string &key, const std::string &where,
              std::string &out, bool required = true) {
    const Json *j = member(obj, key, where, required);
    if (!j)
      return !required;
    if (!j->isString())
      return fail(where + "." + key, "not a string");
    out = j->asString();
    return true;
  }
  bool count(const Json &obj, const std::string &key, const std::string &where,
             uint64_t &out, bool required = true) {
    const Json *j = member(obj, key, where, required);
    if (!j)
      return !required;
    if (!j->asUint64(out))
      return fail(where + "." + key, "not a non-negative integer");
    return true;
  }
  bool number(const Json &obj, const std::string &key, const std::string &where,
              double &out) {
    const Json *j = member(obj, key, where, false);
    if (!j)
      return true;
    if (!j->isNumber() || !(j->asDouble() >= 0) || !std::isfinite(j->asDouble()))
      return fail(where + "." + key, "not a finite non-negative number");
    out = j->asDouble();
    return true;
  }
  bool flag(const Json &obj, const std::string &key, const std::string &where,
            bool &out) {
    const Json *j = member(obj, key, where, false);
    if (!j)
      return true;
    if (j->kind() != Json::Kind::Bool)
      return fail(where + "." + key, "not true or false");
    out = j->asBool();
    return true;
  }
  // An array of non-negative integers.
  bool uints(const Json &obj, const std::string &key, const std::string &where,
             std::vector<uint64_t> &out) {
    const Json *j = member(obj, key, where);
    if (!j)
      return false;
    if (!j->isArray())
      return fail(where + "." + key, "not an array");
    out.clear();
    for (const Json &e : j->items()) {
      uint64_t v;
      if (!e.asUint64(v))
        return fail(where + "." + key, "wants non-negative integers");
      out.push_back(v);
    }
    return true;
  }
  template <size_t N, typename T>
  bool dims(const Json &obj, const std::string &key, const std::string &where,
            std::array<T, N> &out) {
    const Json *j = member(obj, key, where);
    if (!j)
      return false;
    if (!j->isArray() || j->items().empty() || j->items().size() > N)
      return fail(where + "." + key, "wants 1 to " + std::to_string(N) + " positive integers");
    out.fill(1);
    for (size_t i = 0; i < j->items().size(); ++i) {
      uint64_t v;
      if (!j->items()[i].asUint64(v) || v == 0 || v > (uint64_t(1) << 31) - 1)
        return fail(where + "." + key, "wants positive integers below 2^31");
      out[i] = T(v);
    }
    return true;
  }
};

// A file name inside the bundle: relative, no "..", no empty name.
bool insideBundle(const std::string &name) {
  if (name.empty() || name[0] == '/')
    return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string::npos)
      end = name.size();
    std::string part = name.substr(start, end - start);
    if (part == ".." || part.empty())
      return false;
    start = end + 1;
  }
  return true;
}

bool fileSize(const std::string &path, uint64_t &size) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  size = uint64_t(st.st_size);
  return true;
}

} // namespace

bool checkDescriptorArg(const Arg &a, std::string &why) {
  const size_t rank = a.shape.size();
  const uint64_t size = elemBytes(a.elem);
  if (rank == 0 || rank > kMaxDescriptorRank) {
    why = "a descriptor's shape wants 1 to " +
          std::to_string(kMaxDescriptorRank) + " sizes";
    return false;
  }
  if (a.strides.size() != rank) {
    why = "a descriptor of rank " + std::to_string(rank) +
          " needs as many strides, not " + std::to_string(a.strides.size());
    return false;
  }
  uint64_t last = 0, product = 1;
  bool contiguous = true;
  for (size_t d = 0; d < rank; ++d) {
    if (a.shape[d] == 0 || a.shape[d] > (uint64_t(1) << 32)) {
      why = "shape[" + std::to_string(d) + "] wants 1 to 2^32";
      return false;
    }
    if (a.strides[d] == 0 || a.strides[d] > (uint64_t(1) << 32)) {
      why = "strides[" + std::to_string(d) + "] wants 1 to 2^32 elements";
      return false;
    }
    if (d + 1 < rank && (a.strides[d] * size) % 16) {
      why = "strides[" + std::to_string(d) + "] is " +
            std::to_string(a.strides[d] * size) +
            " bytes; TMA wants a multiple of 16";
      return false;
    }
    // Saturated at 2^40, beyond any count: the sum cannot wrap.
    last +=
        std::min<uint64_t>((a.shape[d] - 1) * a.strides[d], uint64_t(1) << 40);
    product *= a.shape[d];
    if (product > (uint64_t(1) << 32)) {
      why = "a descriptor of more than 2^32 elements";
      return false;
    }
  }
  if (a.strides[rank - 1] != 1) {
    why = "strides[" + std::to_string(rank - 1) + "] is " +
          std::to_string(a.strides[rank - 1]) +
          "; TMA wants the innermost stride 1";
    return false;
  }
  for (size_t d = rank - 1, want = 1; d-- > 0;) {
    want *= a.shape[d + 1];
    contiguous &= a.strides[d] == want;
  }
  if (contiguous ? a.buffer.count != product : a.buffer.count <= last) {
    why = "count " + std::to_string(a.buffer.count) +
          " does not match the shape and strides (" +
          (contiguous ? std::to_string(product) + " elements"
                      : "the last element is " + std::to_string(last)) +
          ")";
    return false;
  }
  return true;
}

bool tensorMapParams(const Bundle &b, const Image &image, unsigned arg,
                     TensorMapParams &out, std::string &why) {
  if (arg >= b.args.size() || !b.args[arg].isDescriptor) {
    why = "argument " + std::to_string(arg) + " is not a descriptor";
    return false;
  }
  const ImageDescriptor *d = image.descriptorFor(arg);
  if (!d) {
    why = "image '" + image.impl +
          "' gives no encoding (box, swizzle) for descriptor argument " +
          std::to_string(arg);
    return false;
  }
  const Arg &a = b.args[arg];
  out = TensorMapParams();
  out.rank = unsigned(a.shape.size());
  out.elem = a.elem;
  out.swizzleBytes = d->swizzleBytes;
  for (unsigned i = 0; i < out.rank; ++i) {
    unsigned d2 = out.rank - 1 - i; // the bundle's dim, outermost first
    out.globalDim[i] = a.shape[d2];
    out.boxDim[i] = d->box[d2];
    out.elementStrides[i] = 1;
    if (i > 0)
      out.globalStridesBytes[i - 1] = a.strides[d2] * elemBytes(a.elem);
  }
  return true;
}

bool loadBundle(const std::string &dir, Bundle &b, std::string &error) {
  b = Bundle();
  b.dir = dir;
  std::string text, why;
  std::string metaPath = joinPath(dir, "meta.json");
  if (!readFile(metaPath, text, error))
    return false;
  Json meta;
  if (!Json::parse(text, meta, why)) {
    error = metaPath + ": " + why;
    return false;
  }
  Reader r(error);
  auto located = [&](bool ok) {
    if (!ok)
      error = metaPath + ": " + error;
    return ok;
  };
  std::string format;
  if (!meta.isObject())
    return located(r.fail("meta", "not an object"));
  if (!r.string(meta, "format", "meta", format))
    return located(false);
  if (format != kFormat)
    return located(r.fail("meta.format", "'" + format + "', this reader knows '" +
                                             std::string(kFormat) + "'"));
  if (!r.string(meta, "name", "meta", b.name) ||
      !r.string(meta, "source", "meta", b.source, false) ||
      !r.string(meta, "launch", "meta", b.launch, false) ||
      !r.dims(meta, "grid", "meta", b.grid))
    return located(false);

  const Json *args = r.member(meta, "args", "meta");
  if (!args || !args->isArray())
    return located(args ? r.fail("meta.args", "not an array") : false);
  for (size_t i = 0; i < args->items().size(); ++i) {
    const Json &a = args->items()[i];
    std::string where = "args[" + std::to_string(i) + "]";
    std::string kind, type;
    Arg arg;
    if (!r.string(a, "kind", where, kind) || !r.string(a, "type", where, type))
      return located(false);
    if (!parseElem(type, arg.elem))
      return located(r.fail(where + ".type", "unknown element type '" + type + "'"));
    if (kind == "scalar") {
      std::string bits;
      if (!r.string(a, "bits", where, bits) || !r.string(a, "value", where, arg.text, false))
        return located(false);
      char *end = nullptr;
      errno = 0;
      unsigned long long v = std::strtoull(bits.c_str(), &end, 16);
      unsigned width = elemBytes(arg.elem) * 8;
      if (bits.rfind("0x", 0) != 0 || errno || *end ||
          (width < 64 && (v >> width) != 0))
        return located(r.fail(where + ".bits", "wants 0x and at most " +
                                                   std::to_string(width / 4) + " hex digits"));
      arg.scalarBits = v;
    } else if (kind == "buffer" || kind == "descriptor") {
      arg.isBuffer = true;
      arg.isDescriptor = kind == "descriptor";
      Buffer &buf = arg.buffer;
      buf.elem = arg.elem;
      if (!r.count(a, "count", where, buf.count) ||
          !r.string(a, "input", where, buf.input) ||
          !r.string(a, "expected", where, buf.expected) ||
          !r.flag(a, "output", where, buf.output) ||
          !r.flag(a, "poisoned", where, buf.poisoned))
        return located(false);
      if (buf.count == 0 || buf.count > (uint64_t(1) << 32))
        return located(r.fail(where + ".count", "wants 1 to 2^32 elements"));
      if (arg.isDescriptor) {
        if (!r.uints(a, "shape", where, arg.shape) ||
            !r.uints(a, "strides", where, arg.strides))
          return located(false);
        if (!checkDescriptorArg(arg, why))
          return located(r.fail(where, why));
      }
      if (const Json *c = r.member(a, "compare", where, false)) {
        if (!r.number(*c, "atol", where + ".compare", buf.rule.atol) ||
            !r.number(*c, "rtol", where + ".compare", buf.rule.rtol) ||
            !r.string(*c, "why", where + ".compare", buf.rule.why, false))
          return located(false);
      }
      uint64_t want = buf.count * elemBytes(buf.elem);
      for (const std::string *f : {&buf.input, &buf.expected}) {
        uint64_t size = 0;
        if (!insideBundle(*f))
          return located(r.fail(where, "'" + *f + "' is not a file inside the bundle"));
        if (!fileSize(joinPath(dir, *f), size))
          return located(r.fail(where, "no file '" + *f + "'"));
        if (size != want)
          return located(r.fail(where, "'" + *f + "' has " + std::to_string(size) +
                                           " bytes, " + std::to_string(buf.count) +
                                           " x " + type + " need " + std::to_string(want)));
      }
    } else {
      return located(
          r.fail(where + ".kind",
                 "'" + kind + "', expected buffer, descriptor or scalar"));
    }
    b.args.push_back(std::move(arg));
  }

  const Json *images = r.member(meta, "images", "meta");
  if (!images || !images->isArray() || images->items().empty())
    return located(images ? r.fail("meta.images", "wants a non-empty array") : false);
  for (size_t i = 0; i < images->items().size(); ++i) {
    const Json &m = images->items()[i];
    std::string where = "images[" + std::to_string(i) + "]";
    Image img;
    if (!r.string(m, "impl", where, img.impl) || !r.string(m, "file", where, img.file) ||
        !r.string(m, "entry", where, img.entry) || !r.dims(m, "block", where, img.block) ||
        !r.count(m, "shared_bytes", where, img.sharedBytes, false))
      return located(false);
    uint64_t size = 0;
    if (!insideBundle(img.file) || !fileSize(joinPath(dir, img.file), size) || size == 0)
      return located(r.fail(where + ".file", "no file '" + img.file + "' in the bundle"));
    if (uint64_t(img.block[0]) * img.block[1] * img.block[2] > 1024)
      return located(r.fail(where + ".block", "more than 1024 threads"));
    if (const Json *s = r.member(m, "scratch_per_program", where, false)) {
      if (!s->isArray())
        return located(r.fail(where + ".scratch_per_program", "not an array"));
      for (const Json &e : s->items()) {
        uint64_t v;
        if (!e.asUint64(v) || v > (uint64_t(1) << 30))
          return located(r.fail(where + ".scratch_per_program", "wants byte counts below 2^30"));
        img.scratchPerProgram.push_back(v);
      }
    }
    if (!r.string(m, "build_failure", where, img.buildFailure, false))
      return located(false);
    if (const Json *ds = r.member(m, "descriptors", where, false)) {
      if (!ds->isArray())
        return located(r.fail(where + ".descriptors", "not an array"));
      for (size_t di = 0; di < ds->items().size(); ++di) {
        const Json &dj = ds->items()[di];
        std::string dwhere = where + ".descriptors[" + std::to_string(di) + "]";
        ImageDescriptor d;
        uint64_t argIndex = 0, swizzle = 0, elem = 0;
        std::vector<uint64_t> box;
        if (!dj.isObject())
          return located(r.fail(dwhere, "not an object"));
        if (!r.count(dj, "arg", dwhere, argIndex) ||
            !r.uints(dj, "box", dwhere, box) ||
            !r.count(dj, "swizzle_bytes", dwhere, swizzle) ||
            !r.count(dj, "elem_bytes", dwhere, elem))
          return located(false);
        if (argIndex >= b.args.size() || !b.args[argIndex].isDescriptor)
          return located(
              r.fail(dwhere + ".arg", std::to_string(argIndex) +
                                          " is not a descriptor argument"));
        const Arg &target = b.args[argIndex];
        if (img.descriptorFor(unsigned(argIndex)))
          return located(r.fail(dwhere + ".arg", "argument " +
                                                     std::to_string(argIndex) +
                                                     " is described twice"));
        if (box.size() != target.shape.size())
          return located(
              r.fail(dwhere + ".box", std::to_string(box.size()) +
                                          " dims for a descriptor of rank " +
                                          std::to_string(target.shape.size())));
        for (uint64_t v : box)
          if (v == 0 || v > 256)
            return located(r.fail(dwhere + ".box",
                                  "wants sizes from 1 to 256 (TMA's limit)"));
        if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
          return located(
              r.fail(dwhere + ".swizzle_bytes", "wants 0, 32, 64 or 128"));
        if (elem != elemBytes(target.elem))
          return located(r.fail(
              dwhere + ".elem_bytes",
              std::to_string(elem) + ", but argument " +
                  std::to_string(argIndex) + " holds " + elemName(target.elem) +
                  " (" + std::to_string(elemBytes(target.elem)) + " bytes)"));
        if (swizzle && box.back() * elem > swizzle)
          return located(r.fail(dwhere + ".box",
                                "an inner box of " +
                                    std::to_string(box.back() * elem) +
                                    " bytes is wider than the " +
                                    std::to_string(swizzle) + "-byte swizzle"));
        d.arg = unsigned(argIndex);
        d.box.assign(box.begin(), box.end());
        d.swizzleBytes = unsigned(swizzle);
        d.elemBytes = unsigned(elem);
        img.descriptors.push_back(std::move(d));
      }
    }
    img.extra = Json::object();
    for (const auto &mm : m.members())
      if (mm.first != "impl" && mm.first != "file" && mm.first != "entry" &&
          mm.first != "block" && mm.first != "shared_bytes" &&
          mm.first != "scratch_per_program" && mm.first != "build_failure" &&
          mm.first != "descriptors")
        img.extra.set(mm.first, mm.second);
    for (const Image &other : b.images)
      if (other.impl == img.impl)
        return located(r.fail(where + ".impl", "two images of '" + img.impl + "'"));
    b.images.push_back(std::move(img));
  }

  b.extra = Json::object();
  for (const auto &m : meta.members())
    if (m.first != "format" && m.first != "name" && m.first != "source" &&
        m.first != "launch" && m.first != "grid" && m.first != "args" &&
        m.first != "images")
      b.extra.set(m.first, m.second);
  return true;
}

Json bundleToJson(const Bundle &b) {
  Json meta = Json::object();
  meta.set("format", kFormat);
  meta.set("name", b.name);
  if (!b.source.empty())
    meta.set("source", b.source);
  if (!b.launch.empty())
    meta.set("launch", b.launch);
  Json grid = Json::array();
  for (uint64_t g : b.grid)
    grid.push(g);
  meta.set("grid", grid);
  Json args = Json::array();
  for (const Arg &a : b.args) {
    Json j = Json::object();
    j.set("kind", a.isDescriptor ? "descriptor"
                  : a.isBuffer   ? "buffer"
                                 : "scalar");
    j.set("type", elemName(a.elem));
    if (!a.isBuffer) {
      char bits[24];
      std::snprintf(bits, sizeof bits, "0x%llx", (unsigned long long)a.scalarBits);
      j.set("bits", bits);
      if (!a.text.empty())
        j.set("value", a.text);
    } else {
      const Buffer &buf = a.buffer;
      j.set("count", buf.count);
      if (a.isDescriptor) {
        Json shape = Json::array(), strides = Json::array();
        for (uint64_t v : a.shape)
          shape.push(v);
        for (uint64_t v : a.strides)
          strides.push(v);
        j.set("shape", shape);
        j.set("strides", strides);
      }
      j.set("input", buf.input);
      j.set("expected", buf.expected);
      j.set("output", buf.output);
      if (buf.poisoned)
        j.set("poisoned", true);
      if (buf.output) {
        Json c = Json::object();
        c.set("atol", buf.rule.atol);
        c.set("rtol", buf.rule.rtol);
        if (!buf.rule.why.empty())
          c.set("why", buf.rule.why);
        j.set("compare", c);
      }
    }
    args.push(j);
  }
  meta.set("args", args);
  Json images = Json::array();
  for (const Image &img : b.images) {
    Json j = Json::object();
    j.set("impl", img.impl);
    j.set("file", img.file);
    j.set("entry", img.entry);
    Json block = Json::array();
    for (unsigned t : img.block)
      block.push(t);
    j.set("block", block);
    j.set("shared_bytes", img.sharedBytes);
    if (!img.scratchPerProgram.empty()) {
      Json s = Json::array();
      for (uint64_t v : img.scratchPerProgram)
        s.push(v);
      j.set("scratch_per_program", s);
    }
    if (!img.buildFailure.empty())
      j.set("build_failure", img.buildFailure);
    if (!img.descriptors.empty()) {
      Json ds = Json::array();
      for (const ImageDescriptor &d : img.descriptors) {
        Json dj = Json::object(), box = Json::array();
        dj.set("arg", d.arg);
        for (uint32_t v : d.box)
          box.push(unsigned(v));
        dj.set("box", box);
        dj.set("swizzle_bytes", d.swizzleBytes);
        dj.set("elem_bytes", d.elemBytes);
        ds.push(dj);
      }
      j.set("descriptors", ds);
    }
    for (const auto &m : img.extra.members())
      j.set(m.first, m.second);
    images.push(j);
  }
  meta.set("images", images);
  for (const auto &m : b.extra.members())
    meta.set(m.first, m.second);
  return meta;
}

bool saveBundleMeta(const Bundle &b, std::string &error) {
  std::string text = bundleToJson(b).dump(2) + "\n";
  return writeFile(joinPath(b.dir, "meta.json"), text.data(), text.size(), error);
}

} // namespace tgpu::bundle
