#include "fuzz/targets/FuzzTarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tgpu::fuzz {

std::optional<RegressionHeader> parseRegressionFile(llvm::StringRef file,
                                                    llvm::StringRef &payload) {
  payload = file;
  if (!file.starts_with(kRegressionPrefix))
    return std::nullopt;
  auto [line, rest] = file.split('\n');
  payload = rest;
  RegressionHeader header;
  llvm::StringRef fields = line.drop_front(kRegressionPrefix.size()).trim();
  // key=value pairs; the signature is last and runs to the end of the line.
  while (!fields.empty()) {
    auto [pair, tail] = fields.split(' ');
    auto [key, value] = pair.split('=');
    if (key == "signature") {
      header.signature = fields.drop_front(key.size() + 1).trim().str();
      break;
    }
    if (key == "target")
      header.target = value.str();
    else if (key == "kind")
      header.kind = value.str();
    else if (key == "input")
      header.input = value.str();
    fields = tail.ltrim();
  }
  if (header.input.empty())
    header.input = "bytes";
  return header;
}

std::string formatRegressionHeader(const RegressionHeader &header) {
  std::string s = kRegressionPrefix.str();
  s += " target=" + header.target + " kind=" + header.kind +
       " input=" + (header.input.empty() ? "bytes" : header.input) +
       " signature=" + header.signature;
  return s;
}

Reproducer identifyReproducer(llvm::StringRef path, llvm::StringRef file,
                              llvm::StringRef targetOverride,
                              llvm::StringRef inputOverride) {
  Reproducer r;
  std::optional<RegressionHeader> header = parseRegressionFile(file, r.payload);
  r.target = targetOverride.str();
  r.input = inputOverride.str();
  if (header) {
    if (r.target.empty())
      r.target = header->target;
    if (r.input.empty())
      r.input = header->input;
  }
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (r.input.empty() && (ext == ".ttir" || ext == ".ttgir"))
    r.input = ext.drop_front().str();
  if (r.target.empty() && (r.input == "ttir" || r.input == "ttgir"))
    r.target = "fuzz_pipeline";
  if (r.input.empty())
    r.input = "bytes";
  return r;
}

std::string normalizeSignature(llvm::StringRef text, size_t maxLength) {
  std::string out;
  size_t i = 0, n = text.size();
  while (i < n && out.size() < maxLength) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      out += ' ';
      ++i;
      continue;
    }
    // SSA names (%x, %12, %arg3) and symbol names vary between programs.
    if ((c == '%' || c == '^') && i + 1 < n &&
        (std::isalnum((unsigned char)text[i + 1]) || text[i + 1] == '_')) {
      out += c;
      out += 'N';
      ++i;
      while (i < n && (std::isalnum((unsigned char)text[i]) || text[i] == '_' ||
                       text[i] == '#'))
        ++i;
      continue;
    }
    if (std::isdigit((unsigned char)c)) {
      // Keep digits that are part of identifiers or types (f32, i64, sm_90,
      // dim0), blank free-standing numbers.
      bool inWord = !out.empty() &&
                    (std::isalpha((unsigned char)out.back()) || out.back() == '_');
      if (inWord) {
        while (i < n && std::isdigit((unsigned char)text[i]))
          out += text[i++];
        continue;
      }
      out += 'N';
      while (i < n && (std::isdigit((unsigned char)text[i]) || text[i] == '.' ||
                       text[i] == 'x' || text[i] == 'e' || text[i] == '-'))
        ++i;
      continue;
    }
    out += c;
    ++i;
  }
  // Collapse runs of spaces.
  std::string collapsed;
  for (char c : out)
    if (!(c == ' ' && !collapsed.empty() && collapsed.back() == ' '))
      collapsed += c;
  return llvm::StringRef(collapsed).trim().str();
}

llvm::ArrayRef<uint8_t> placeBeforeGuardPage(llvm::ArrayRef<uint8_t> data) {
  static uint8_t *base = nullptr;
  static size_t usable = 0; // bytes before the guard page
  static bool warned = false;
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  if (!base || data.size() > usable) {
    if (base)
      munmap(base, usable + page);
    base = nullptr;
    usable = std::max<size_t>(page, (data.size() + page - 1) / page * page);
    void *p = mmap(nullptr, usable + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED && mprotect(static_cast<uint8_t *>(p) + usable, page,
                                    PROT_NONE) == 0) {
      base = static_cast<uint8_t *>(p);
    } else {
      // No guard for this input (an input too large to map): it still runs,
      // only reads past its end go unnoticed.
      if (p != MAP_FAILED)
        munmap(p, usable + page);
      usable = 0;
      if (!warned)
        llvm::errs() << "placeBeforeGuardPage: cannot map a guarded copy of "
                     << data.size() << " bytes; running unguarded\n";
      warned = true;
      return data;
    }
  }
  uint8_t *start = base + usable - data.size();
  if (!data.empty())
    std::memcpy(start, data.data(), data.size());
  return llvm::ArrayRef<uint8_t>(start, data.size());
}

std::optional<Finding> runPayload(const TargetInfo &target,
                                  llvm::StringRef inputKind,
                                  llvm::StringRef payload) {
  llvm::ArrayRef<uint8_t> guarded = placeBeforeGuardPage(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(payload.data()), payload.size()));
  payload = llvm::StringRef(reinterpret_cast<const char *>(guarded.data()),
                            guarded.size());
  if (inputKind.empty() || inputKind == "bytes")
    return target.run(guarded);
  if (!target.runText)
    return Finding{"bad-reproducer", "input kind",
                   std::string(target.name) + " takes bytes, not input=" +
                       inputKind.str()};
  return target.runText(inputKind, payload);
}

namespace {

// The line of a crashed child's stderr that says what failed: an
// assertion, an LLVM fatal error or unreachable, a sanitizer's summary.
std::string crashLine(llvm::StringRef log) {
  static const char *const markers[] = {
      "Assertion", "LLVM ERROR", "UNREACHABLE", "SUMMARY: ", "runtime error:"};
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (const char *marker : markers)
    for (llvm::StringRef line : lines)
      if (line.contains(marker)) {
        // An assertion's program prefix ("tgpu-repro: ") varies by caller.
        size_t at = line.find(marker);
        return line.drop_front(at).trim().str();
      }
  return "";
}

// Reads a whole file; empty when it cannot.
std::string slurp(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

} // namespace

std::optional<Finding> runPayloadIsolated(const TargetInfo &target,
                                          llvm::StringRef inputKind,
                                          llvm::StringRef payload,
                                          unsigned timeoutSeconds) {
  llvm::SmallString<128> logPath, resultPath;
  if (llvm::sys::fs::createTemporaryFile("tgpu-child", "log", logPath) ||
      llvm::sys::fs::createTemporaryFile("tgpu-child", "result", resultPath))
    return Finding{"harness", "no temporary file",
                   "cannot create the child's temporary files"};
  llvm::errs().flush();
  llvm::outs().flush();
  pid_t child = fork();
  if (child < 0) {
    llvm::sys::fs::remove(logPath);
    llvm::sys::fs::remove(resultPath);
    return Finding{"harness", "fork failed", std::strerror(errno)};
  }
  if (child == 0) {
    int log = ::open(logPath.c_str(), O_WRONLY | O_TRUNC);
    if (log >= 0) {
      ::dup2(log, STDERR_FILENO);
      ::close(log);
    }
    if (timeoutSeconds)
      ::alarm(timeoutSeconds);
    std::optional<Finding> f = runPayload(target, inputKind, payload);
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(resultPath, ec);
      if (!ec && f)
        os << f->kind << '\0' << f->signature << '\0' << f->message;
      else if (!ec)
        os << "none";
    }
    llvm::errs().flush();
    ::_exit(ec ? 3 : 0);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::string log = slurp(logPath), result = slurp(resultPath);
  llvm::sys::fs::remove(logPath);
  llvm::sys::fs::remove(resultPath);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !result.empty()) {
    if (result == "none")
      return std::nullopt;
    llvm::SmallVector<llvm::StringRef, 3> parts;
    llvm::StringRef(result).split(parts, '\0', /*MaxSplit=*/2);
    parts.resize(3);
    return Finding{parts[0].str(), parts[1].str(), parts[2].str()};
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    return Finding{"timeout",
                   "no result in " + std::to_string(timeoutSeconds) + " s",
                   "the run took longer than " +
                       std::to_string(timeoutSeconds) + " s\n" + log};
  std::string what = crashLine(log);
  if (what.empty())
    what = WIFSIGNALED(status)
               ? "signal " + std::string(strsignal(WTERMSIG(status)))
               : "exit status " + std::to_string(WEXITSTATUS(status));
  return Finding{"crash", normalizeSignature(what), log};
}

void printFinding(llvm::StringRef target, const Finding &finding) {
  llvm::errs() << "==tgpu-finding== target=" << target
               << " kind=" << finding.kind
               << " signature=" << finding.signature << "\n"
               << finding.message;
  if (!llvm::StringRef(finding.message).ends_with("\n"))
    llvm::errs() << "\n";
  llvm::errs().flush();
}

} // namespace tgpu::fuzz
