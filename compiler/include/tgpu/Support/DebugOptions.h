// --debug and --debug-only=<type,...> for tgpu's tools, as LLVM's own tools
// have them in builds with assertions. Debian's libLLVM is built without
// them, so no tool would otherwise print what a pass's LLVM_DEBUG says; our
// code is compiled without NDEBUG, so its LLVM_DEBUG statements are there
// and these options turn them on (a pass's DEBUG_TYPE is its argument, e.g.
// --debug-only=tritongpu-remove-layout-conversions).
#ifndef TGPU_SUPPORT_DEBUGOPTIONS_H
#define TGPU_SUPPORT_DEBUGOPTIONS_H

namespace mlir::tgpu {

// Registers the two options with llvm::cl; call before parsing the command
// line. Safe to call more than once.
void registerDebugOptions();

} // namespace mlir::tgpu

#endif
