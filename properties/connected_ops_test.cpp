// getConnectedOps (one walk) against mlir::getSlice (the closure it replaces
// in Coalesce), as sets, from every op of every kernel in corpus/: the
// hand-written and Triton-dumped kernels, the fuzz seeds and regressions
// (loops, ifs, whiles, reductions with regions, several functions).
#include "tgpu/Dialect/TritonGPU/Transforms/ConnectedOps.h"
#include "tgpu/InitAllDialects.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

TEST(ConnectedOps, SameSetsAsGetSlice) {
  mlir::DialectRegistry registry;
  mlir::tgpu::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Corpus files that are malformed on purpose are skipped quietly.
  mlir::ScopedDiagnosticHandler quiet(&context,
                                      [](mlir::Diagnostic &) { return mlir::success(); });
  unsigned files = 0, roots = 0, nested = 0;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(TGPU_CORPUS_ROOT, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef path = it->path();
    if (!path.ends_with(".ttir") && !path.ends_with(".ttgir"))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      continue;
    auto module = mlir::parseSourceString<mlir::ModuleOp>(
        (*buffer)->getBuffer(), mlir::ParserConfig(&context));
    if (!module)
      continue;
    ++files;
    module->walk([&](mlir::Operation *op) {
      if (op == module->getOperation() ||
          op->hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
        return;
      ++roots;
      if (op->getNumRegions())
        ++nested;
      auto expected = mlir::getSlice(op);
      auto got = mlir::tgpu::getConnectedOps(op);
      llvm::DenseSet<mlir::Operation *> want(expected.begin(), expected.end());
      llvm::DenseSet<mlir::Operation *> have(got.begin(), got.end());
      EXPECT_EQ(want.size(), expected.size());
      std::string where;
      llvm::raw_string_ostream os(where);
      os << op->getLoc();
      EXPECT_TRUE(want == have)
          << path.str() << ": " << op->getName().getStringRef().str()
          << " at " << where << ": getSlice has "
          << want.size() << " ops, getConnectedOps " << have.size();
    });
  }
  // Not vacuous: many kernels, ops with regions among the roots.
  EXPECT_GT(files, 100u);
  EXPECT_GT(nested, 100u);
  std::printf("compared the slices of %u ops (%u with regions) in %u files\n",
              roots, nested, files);
}

} // namespace
