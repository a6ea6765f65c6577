#include "tgpu/Support/DebugOptions.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>
#include <vector>

namespace {

struct DebugOptions {
  llvm::cl::opt<bool> debug{
      "debug", llvm::cl::desc("Print every LLVM_DEBUG message of tgpu's code"),
      llvm::cl::Hidden,
      llvm::cl::callback([](const bool &on) { llvm::DebugFlag = on; })};
  llvm::cl::list<std::string> debugOnly{
      "debug-only",
      llvm::cl::desc("Print the LLVM_DEBUG messages of these debug types "
                     "(a pass's argument), comma-separated"),
      llvm::cl::Hidden,
      llvm::cl::CommaSeparated,
      llvm::cl::value_desc("type"),
      llvm::cl::callback([this](const std::string &type) { add(type); })};
  std::vector<std::string> types;

  void add(const std::string &type) {
    types.push_back(type);
    std::vector<const char *> names;
    for (const std::string &t : types)
      names.push_back(t.c_str());
    llvm::DebugFlag = true;
    llvm::setCurrentDebugTypes(names.data(), names.size());
  }
};

} // namespace

void mlir::tgpu::registerDebugOptions() {
  static DebugOptions options;
  (void)options;
}
