// tgpu-gpu-run: runs GPU-oracle bundles (oracles/gpu/BUNDLE.md) on the GPU.
//
//   tgpu-gpu-run [--jobs N] [--timeout SECONDS] [--budget SECONDS]
//                [--json FILE] [--save-failed DIR] [--device N] [--quiet]
//                [--simulate] PATH...
//
// PATH is a bundle folder (it holds meta.json) or a folder searched for
// bundles. Cases run in worker processes (N at a time, default 4): the
// parent never touches CUDA, so a kernel that hangs is killed after
// --timeout seconds (default 60, the driver's JIT included) and reported as
// TIMEOUT, and one that loses its CUDA context (illegal address, trap) is
// reported and its worker replaced; the campaign goes on either way. With
// --budget no case starts after that many seconds (the rest are NOT-RUN),
// so a campaign fits a time slot. Kernels' printf output is discarded.
// Prints PASS / FAIL / ERROR / TIMEOUT per case, a table, and a one-line
// JSON summary; --json writes every case's result. --simulate runs without
// a GPU (SimulatedExecutor, for the runner's own tests). Exit status: 0 all
// passed, 1 some did not, 2 bad arguments or no usable GPU.
#include "oracles/gpu/bundle/Json.h"
#include "oracles/gpu/runner/Case.h"
#include "oracles/gpu/runner/CudaExecutor.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using tgpu::bundle::Json;

namespace {

struct Options {
  unsigned jobs = 4;
  double timeoutS = 60;
  double budgetS = 0; // 0: none
  std::string jsonPath;
  std::string saveFailedDir;
  int device = 0;
  bool quiet = false;
  bool simulate = false;
  std::vector<std::string> paths;
};

[[noreturn]] void usage(const std::string &why) {
  std::fprintf(stderr, "tgpu-gpu-run: %s\nusage: tgpu-gpu-run [--jobs N] [--timeout SECONDS] "
                       "[--budget SECONDS] [--json FILE] [--save-failed DIR] [--device N] [--quiet] "
                       "[--simulate] PATH...\n",
               why.c_str());
  std::exit(2);
}

bool parseNumber(const char *text, double &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtod(text, &end);
  return !errno && end != text && !*end;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      size_t eq = a.find('=');
      if (eq != std::string::npos)
        return argv[i] + eq + 1;
      if (i + 1 >= argc)
        usage(a + " needs a value");
      return argv[++i];
    };
    auto is = [&](const char *name) {
      return a == name || a.rfind(std::string(name) + "=", 0) == 0;
    };
    double v;
    if (is("--jobs")) {
      if (!parseNumber(value(), v) || v < 1 || v > 64 || v != double(unsigned(v)))
        usage("--jobs wants 1 to 64");
      o.jobs = unsigned(v);
    } else if (is("--timeout")) {
      if (!parseNumber(value(), v) || !(v > 0) || v > 86400)
        usage("--timeout wants positive seconds");
      o.timeoutS = v;
    } else if (is("--budget")) {
      if (!parseNumber(value(), v) || !(v > 0))
        usage("--budget wants positive seconds");
      o.budgetS = v;
    } else if (is("--device")) {
      if (!parseNumber(value(), v) || v < 0 || v > 63 || v != double(int(v)))
        usage("--device wants a device number");
      o.device = int(v);
    } else if (is("--json")) {
      o.jsonPath = value();
    } else if (is("--save-failed")) {
      o.saveFailedDir = value();
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--simulate") {
      o.simulate = true;
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: tgpu-gpu-run [--jobs N] [--timeout SECONDS] [--budget SECONDS] "
                  "[--json FILE] [--save-failed DIR] [--device N] [--quiet] [--simulate] "
                  "PATH...\n");
      std::exit(0);
    } else if (a.size() > 1 && a[0] == '-') {
      usage("unknown option '" + a + "'");
    } else {
      o.paths.push_back(a);
    }
  }
  if (o.paths.empty())
    usage("no bundle given");
  return o;
}

bool isDir(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool isFile(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Bundle folders under `path` (itself, or its subfolders, sorted).
void findBundles(const std::string &path, int depth, std::vector<std::string> &out) {
  if (isFile(path + "/meta.json")) {
    out.push_back(path);
    return;
  }
  if (depth > 4)
    return;
  DIR *d = opendir(path.c_str());
  if (!d)
    return;
  std::vector<std::string> subs;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..")
      continue;
    if (isDir(path + "/" + name))
      subs.push_back(path + "/" + name);
  }
  closedir(d);
  std::sort(subs.begin(), subs.end());
  for (const std::string &s : subs)
    findBundles(s, depth + 1, out);
}

// ---- worker side -----------------------------------------------------------

// Reads case indices from `in`, answers "<index> <json>\n" on `out`. Exits
// after a result that lost the CUDA context.
[[noreturn]] void workerMain(int in, int out, const Options &o,
                             const std::vector<std::string> &cases) {
  std::signal(SIGPIPE, SIG_DFL);
  // Kernels' printf (tt.print) writes to stdout: keep it out of the report.
  if (int null = open("/dev/null", O_WRONLY); null >= 0) {
    dup2(null, 1);
    close(null);
  }
  auto say = [&](const std::string &line) {
    std::string s = line + "\n";
    size_t done = 0;
    while (done < s.size()) {
      ssize_t n = write(out, s.data() + done, s.size() - done);
      if (n <= 0)
        _exit(1);
      done += size_t(n);
    }
  };
  std::string error;
  std::unique_ptr<tgpu::gpu::Executor> exec;
  if (o.simulate)
    exec = std::make_unique<tgpu::gpu::SimulatedExecutor>();
  else
    exec = tgpu::gpu::CudaExecutor::create(o.device, error);
  if (!exec) {
    say("! " + error);
    _exit(3);
  }
  say("ready " + exec->deviceName());
  tgpu::gpu::CaseOptions copts;
  copts.saveFailedDir = o.saveFailedDir;
  std::string pending;
  char buf[256];
  while (true) {
    size_t nl = pending.find('\n');
    if (nl == std::string::npos) {
      ssize_t n = read(in, buf, sizeof buf);
      if (n <= 0)
        _exit(0);
      pending.append(buf, size_t(n));
      continue;
    }
    size_t index = std::strtoull(pending.substr(0, nl).c_str(), nullptr, 10);
    pending.erase(0, nl + 1);
    if (index >= cases.size())
      _exit(1);
    bool sticky = false;
    Json r = tgpu::gpu::runCase(*exec, cases[index], copts, sticky);
    if (sticky) // tells the parent to send nothing more
      r.set("worker_exits", true);
    say(std::to_string(index) + " " + r.dump(-1));
    if (sticky)
      _exit(0); // the context is gone; the parent starts a fresh worker
  }
}

// ---- parent side -----------------------------------------------------------

struct Worker {
  pid_t pid = -1;
  int toFd = -1, fromFd = -1;
  bool ready = false;
  bool exiting = false; // lost its CUDA context; ends after its last answer
  long busy = -1; // case index, -1 when idle
  std::chrono::steady_clock::time_point deadline;
  std::string pending;
};

bool spawn(Worker &w, std::vector<Worker> &all, const Options &o,
           const std::vector<std::string> &cases) {
  int down[2], up[2];
  if (pipe(down) != 0 || pipe(up) != 0)
    return false;
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    close(down[1]);
    close(up[0]);
    // The siblings' pipe ends came along with the fork; holding a sibling's
    // input open would keep it from ever seeing the end of its input.
    for (Worker &other : all)
      if (other.pid > 0) {
        close(other.toFd);
        close(other.fromFd);
      }
    workerMain(down[0], up[1], o, cases);
  }
  close(down[0]);
  close(up[1]);
  w = Worker();
  w.pid = pid;
  w.toFd = down[1];
  w.fromFd = up[0];
  // A worker must say "ready" (CUDA initialised) within the case timeout.
  w.deadline = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(long(o.timeoutS * 1000));
  return true;
}

std::string reap(Worker &w, bool kill) {
  if (w.pid > 0) {
    if (kill)
      ::kill(w.pid, SIGKILL);
    int status = 0;
    waitpid(w.pid, &status, 0);
    close(w.toFd);
    close(w.fromFd);
    w.pid = -1;
    if (WIFSIGNALED(status))
      return "worker killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
             strsignal(WTERMSIG(status)) + ")";
    if (WIFEXITED(status) && WEXITSTATUS(status))
      return "worker exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return "worker ended";
}


} // namespace

int main(int argc, char **argv) {
  Options o = parseArgs(argc, argv);
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> cases;
  for (std::string p : o.paths) {
    while (p.size() > 1 && p.back() == '/')
      p.pop_back();
    if (!isDir(p))
      usage("'" + p + "' is not a folder");
    size_t before = cases.size();
    findBundles(p, 0, cases);
    if (cases.size() == before)
      usage("no bundle (a folder with meta.json) under '" + p + "'");
  }

  const auto start = std::chrono::steady_clock::now();
  std::vector<Json> results(cases.size());
  std::vector<bool> done(cases.size(), false);
  size_t next = 0, finished = 0;
  std::vector<Worker> workers(std::min<size_t>(o.jobs, cases.size()));
  std::string deviceName = "?";
  std::map<std::string, unsigned> counts;
  std::map<std::string, unsigned> byAgainst;

  auto record = [&](size_t index, Json r) {
    if (done[index])
      return;
    done[index] = true;
    ++finished;
    std::string status = r.get("status") ? r.get("status")->asString() : "ERROR";
    ++counts[status];
    std::string against;
    if (const Json *a = r.get("against"))
      for (const Json &x : a->items()) {
        against += (against.empty() ? "" : ",") + x.asString();
        ++byAgainst[status + " " + x.asString()];
      }
    if (status != "PASS" || !o.quiet) {
      std::string line = status;
      line.resize(8, ' ');
      line += r.get("case") ? r.get("case")->asString() : tgpu::bundle::baseName(cases[index]);
      if (!against.empty())
        line += " [" + against + "]";
      if (const Json *d = r.get("detail"))
        line += ": " + d->asString();
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
    results[index] = std::move(r);
  };
  auto failCase = [&](size_t index, const std::string &status, const std::string &detail) {
    Json r = Json::object();
    r.set("case", tgpu::bundle::baseName(cases[index]));
    r.set("dir", cases[index]);
    r.set("status", status);
    r.set("against", Json::array());
    r.set("detail", detail);
    record(index, std::move(r));
  };

  auto timeoutMs = std::chrono::milliseconds(long(o.timeoutS * 1000));
  auto lastProgress = std::chrono::steady_clock::now();
  while (finished < cases.size()) {
    // Past the budget, the cases not started are reported, not run.
    if (o.budgetS > 0 && next < cases.size() &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            o.budgetS) {
      while (next < cases.size())
        failCase(next++, "NOT-RUN", "the --budget ran out before it started");
    }
    // Progress, for long campaigns (stderr, every 10 s).
    if (std::chrono::steady_clock::now() - lastProgress > std::chrono::seconds(10)) {
      lastProgress = std::chrono::steady_clock::now();
      std::fprintf(stderr, "tgpu-gpu-run: %zu of %zu cases done, %.0f s\n", finished,
                   cases.size(),
                   std::chrono::duration<double>(lastProgress - start).count());
    }
    // Start workers where needed and hand out work.
    for (Worker &w : workers) {
      if (w.pid < 0 && next < cases.size() && !spawn(w, workers, o, cases)) {
        std::fprintf(stderr, "tgpu-gpu-run: cannot start a worker: %s\n", std::strerror(errno));
        return 2;
      }
      if (w.pid > 0 && w.ready && !w.exiting && w.busy < 0 && next < cases.size()) {
        std::string line = std::to_string(next) + "\n";
        if (write(w.toFd, line.data(), line.size()) == ssize_t(line.size())) {
          w.busy = long(next++);
          w.deadline = std::chrono::steady_clock::now() + timeoutMs;
        } else {
          reap(w, true);
        }
      }
    }
    std::vector<pollfd> fds;
    std::vector<Worker *> owners;
    auto now = std::chrono::steady_clock::now();
    long waitMs = 1000;
    for (Worker &w : workers)
      if (w.pid > 0) {
        fds.push_back({w.fromFd, POLLIN, 0});
        owners.push_back(&w);
        if (w.busy >= 0 || !w.ready)
          waitMs = std::min<long>(waitMs, std::max<long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(w.deadline - now).count()));
      }
    if (fds.empty())
      break; // nothing running and nothing left to start
    int n = poll(fds.data(), fds.size(), int(waitMs));
    if (n < 0 && errno != EINTR) {
      std::perror("tgpu-gpu-run: poll");
      return 2;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      Worker &w = *owners[i];
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        ssize_t got = read(w.fromFd, buf, sizeof buf);
        if (got > 0) {
          w.pending.append(buf, size_t(got));
          size_t nl;
          while ((nl = w.pending.find('\n')) != std::string::npos) {
            std::string line = w.pending.substr(0, nl);
            w.pending.erase(0, nl + 1);
            if (line.rfind("! ", 0) == 0) {
              std::fprintf(stderr, "tgpu-gpu-run: %s\n", line.c_str() + 2);
              for (Worker &x : workers)
                if (x.pid > 0)
                  reap(x, true);
              return 2;
            }
            if (line.rfind("ready ", 0) == 0) {
              w.ready = true;
              deviceName = line.substr(6);
              continue;
            }
            size_t space = line.find(' ');
            size_t index = std::strtoull(line.substr(0, space).c_str(), nullptr, 10);
            Json r;
            std::string why;
            if (space == std::string::npos || index >= cases.size() ||
                !Json::parse(line.substr(space + 1), r, why)) {
              if (w.busy >= 0)
                failCase(size_t(w.busy), "ERROR", "unreadable worker answer: " + why);
            } else {
              w.exiting |= r.get("worker_exits") != nullptr;
              record(index, std::move(r));
            }
            w.busy = -1;
          }
          continue;
        }
        // End of file: the worker exited (a lost context) or crashed.
        std::string why = reap(w, false);
        if (w.busy >= 0)
          failCase(size_t(w.busy), "ERROR", why + " while running the case");
        continue;
      }
      if (!w.ready && w.pid > 0 && std::chrono::steady_clock::now() >= w.deadline) {
        reap(w, true);
        std::fprintf(stderr, "tgpu-gpu-run: a worker did not initialise CUDA within %g s\n",
                     o.timeoutS);
        for (Worker &x : workers)
          if (x.pid > 0)
            reap(x, true);
        return 2;
      }
      if (w.busy >= 0 && std::chrono::steady_clock::now() >= w.deadline) {
        size_t index = size_t(w.busy);
        reap(w, true);
        char detail[96];
        std::snprintf(detail, sizeof detail, "no result within %g s (worker killed)", o.timeoutS);
        failCase(index, "TIMEOUT", detail);
      }
    }
  }
  for (Worker &w : workers)
    if (w.pid > 0) {
      close(w.toFd); // the worker sees end of input and exits
      reap(w, false);
    }

  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Json summary = Json::object();
  summary.set("device", deviceName);
  summary.set("cases", uint64_t(cases.size()));
  for (const char *s : {"PASS", "FAIL", "ERROR", "TIMEOUT", "NOT-RUN"})
    summary.set(s, uint64_t(counts[s]));
  Json against = Json::object();
  for (const auto &kv : byAgainst)
    against.set(kv.first, uint64_t(kv.second));
  summary.set("by_verdict", against);
  summary.set("seconds", seconds);
  summary.set("cases_per_s", double(cases.size() - counts["NOT-RUN"]) / std::max(seconds, 1e-9));

  const unsigned ran = unsigned(cases.size()) - counts["NOT-RUN"];
  std::printf("\n%-8s %8s %8s %8s %8s %8s %10s %10s\n", "cases", "pass", "fail", "error",
              "timeout", "not-run", "seconds", "cases/s");
  std::printf("%-8zu %8u %8u %8u %8u %8u %10.1f %10.1f\n", cases.size(), counts["PASS"],
              counts["FAIL"], counts["ERROR"], counts["TIMEOUT"], counts["NOT-RUN"], seconds,
              double(ran) / std::max(seconds, 1e-9));
  for (const auto &kv : byAgainst)
    std::printf("  %-24s %u\n", kv.first.c_str(), kv.second);
  std::printf("summary: %s\n", summary.dump(-1).c_str());

  if (!o.jsonPath.empty()) {
    Json all = summary;
    Json list = Json::array();
    for (Json &r : results)
      list.push(std::move(r));
    all.set("results", list);
    std::string text = all.dump(1) + "\n", why;
    if (!tgpu::bundle::writeFile(o.jsonPath, text.data(), text.size(), why)) {
      std::fprintf(stderr, "tgpu-gpu-run: %s\n", why.c_str());
      return 2;
    }
  }
  return counts["PASS"] == cases.size() ? 0 : 1;
}
