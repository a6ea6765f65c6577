#include "oracles/gpu/runner/Case.h"

#include "oracles/gpu/bundle/Compare.h"

#include <sys/stat.h>

namespace tgpu::gpu {

using bundle::Json;

namespace {

struct Outcome {
  std::string impl;
  std::string status = "not run"; // pass, fail, error, timeout, not run
  std::string detail;
  double loadMs = 0, runMs = 0;
  std::vector<std::vector<uint8_t>> buffers;
};

// Non-output buffers must come back unchanged, bit for bit.
const bundle::CompareRule kUnchanged{0, 0, "input, must not change"};

// Compares the buffers `got` with `want` under each buffer's rule; returns
// "" when they agree, else what differs.
std::string compareAll(const bundle::Bundle &b,
                       const std::vector<std::vector<uint8_t>> &got,
                       const std::vector<std::vector<uint8_t>> &want) {
  std::string detail;
  for (size_t k = 0; k < b.args.size(); ++k) {
    const bundle::Arg &a = b.args[k];
    if (!a.isBuffer)
      continue;
    const bundle::Buffer &buf = a.buffer;
    const bundle::CompareRule &rule = buf.output ? buf.rule : kUnchanged;
    bundle::BufferVerdict v =
        bundle::compareBuffer(buf.elem, buf.count, got[k].data(), want[k].data(), rule,
                              buf.output && buf.poisoned);
    if (v.ok)
      continue;
    if (!detail.empty())
      detail += " | ";
    if (!buf.output)
      detail += "input arg" + std::to_string(k) + " changed: ";
    detail += bundle::describe(v, unsigned(k), buf.elem, buf.count, rule);
  }
  return detail;
}

bool makeDirs(const std::string &path) {
  std::string sofar;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!sofar.empty())
        mkdir(sofar.c_str(), 0755);
    }
    if (i < path.size())
      sofar += path[i];
  }
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

Json runCase(Executor &exec, const std::string &dir, const CaseOptions &options,
             bool &sticky) {
  sticky = false;
  Json res = Json::object();
  bundle::Bundle b;
  std::string why;
  if (!bundle::loadBundle(dir, b, why)) {
    res.set("case", bundle::baseName(dir));
    res.set("dir", dir);
    res.set("status", "ERROR");
    Json against = Json::array();
    against.push("bundle");
    res.set("against", against);
    res.set("detail", why);
    return res;
  }
  res.set("case", b.name);
  res.set("dir", dir);

  std::vector<std::vector<uint8_t>> inputs(b.args.size()), expected(b.args.size());
  for (size_t k = 0; k < b.args.size(); ++k) {
    if (!b.args[k].isBuffer)
      continue;
    std::string in, ex;
    if (!bundle::readFile(bundle::joinPath(dir, b.args[k].buffer.input), in, why) ||
        !bundle::readFile(bundle::joinPath(dir, b.args[k].buffer.expected), ex, why)) {
      res.set("status", "ERROR");
      res.set("detail", why);
      return res;
    }
    inputs[k].assign(in.begin(), in.end());
    expected[k].assign(ex.begin(), ex.end());
  }

  std::vector<Outcome> outcomes;
  for (const bundle::Image &image : b.images) {
    Outcome o;
    o.impl = image.impl;
    if (sticky) { // an earlier image lost the context
      outcomes.push_back(std::move(o));
      continue;
    }
    if (!image.buildFailure.empty()) { // ptxas failed or gave up: nothing to load
      o.status = image.buildFailure.rfind("timeout", 0) == 0 ? "timeout" : "error";
      o.detail = "build " + image.buildFailure;
      outcomes.push_back(std::move(o));
      continue;
    }
    ImageRun run = exec.run(b, image, inputs);
    o.loadMs = run.loadMs;
    o.runMs = run.runMs;
    if (!run.ok) {
      o.status = "error";
      o.detail = run.error;
      sticky = run.sticky;
    } else {
      o.detail = compareAll(b, run.buffers, expected);
      for (const std::string &g : run.guardViolations)
        o.detail += (o.detail.empty() ? "" : " | ") + g;
      o.status = o.detail.empty() ? "pass" : "fail";
      o.buffers = std::move(run.buffers);
    }
    outcomes.push_back(std::move(o));
  }

  // The verdict.
  std::vector<const Outcome *> wrong;
  bool anyFail = false, anyTimeout = false;
  for (const Outcome &o : outcomes)
    if (o.status != "pass") {
      wrong.push_back(&o);
      anyFail |= o.status == "fail";
      anyTimeout |= o.status == "timeout";
    }
  Json against = Json::array();
  std::string detail;
  if (wrong.empty()) {
    res.set("status", "PASS");
  } else {
    res.set("status", anyFail ? "FAIL" : anyTimeout ? "TIMEOUT" : "ERROR");
    bool allRanWrong = outcomes.size() >= 2 && wrong.size() == outcomes.size();
    for (const Outcome &o : outcomes)
      allRanWrong &= o.status == "fail";
    if (allRanWrong) {
      // Every image disagrees with the reference. If they agree with each
      // other under the same rules, the reference is the odd one out.
      std::string cross;
      for (size_t i = 1; i < outcomes.size() && cross.empty(); ++i)
        cross = compareAll(b, outcomes[i].buffers, outcomes[0].buffers);
      if (cross.empty()) {
        against.push("reference");
        detail = "every image agrees with the others, not with the CPU reference";
      } else {
        against.push("unclear");
        detail = "the images disagree with the reference and with each other";
      }
    } else {
      for (const Outcome *o : wrong)
        if (o->status != "not run")
          against.push(o->impl);
    }
    for (const Outcome *o : wrong)
      if (o->status != "not run")
        detail += (detail.empty() ? "" : "; ") + o->impl + ": " + o->detail;
    res.set("detail", detail);
  }
  res.set("against", against);

  Json images = Json::array();
  for (const Outcome &o : outcomes) {
    Json j = Json::object();
    j.set("impl", o.impl);
    j.set("status", o.status);
    if (!o.detail.empty())
      j.set("detail", o.detail);
    j.set("load_ms", o.loadMs);
    j.set("run_ms", o.runMs);
    images.push(j);
  }
  res.set("images", images);

  if (!options.saveFailedDir.empty())
    for (const Outcome &o : outcomes) {
      if (o.status != "fail")
        continue;
      std::string out = bundle::joinPath(bundle::joinPath(options.saveFailedDir, b.name), o.impl);
      if (!makeDirs(out))
        continue;
      for (size_t k = 0; k < o.buffers.size(); ++k)
        if (b.args[k].isBuffer)
          bundle::writeFile(bundle::joinPath(out, "arg" + std::to_string(k) + ".bin"),
                            o.buffers[k].data(), o.buffers[k].size(), why);
    }
  return res;
}

} // namespace tgpu::gpu
