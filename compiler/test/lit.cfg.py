# lit configuration for tgpu: .mlir/.ttir/.ttgir tests run with RUN lines
# against the tools in the build tree and FileCheck from LLVM 22.
import os
import sys
import lit.formats

config.name = "tgpu"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tgpu_obj_root, "compiler", "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

tool_dirs = [
    os.path.join(config.tgpu_obj_root, "bin"),
    config.llvm_tools_dir,
    "/usr/lib/llvm-22/bin",
]
config.environment["PATH"] = os.pathsep.join(tool_dirs + [config.environment.get("PATH", "")])
config.substitutions.append(("%tgpu_src_root", config.tgpu_src_root))
config.substitutions.append(("%tgpu_bin", os.path.join(config.tgpu_obj_root, "bin")))
# The interpreter running lit, not a `python3` found on PATH: version-manager
# shims cost a fraction of a second per call, and the corpus tests make
# hundreds of calls.
config.substitutions.append(("%python", sys.executable))
config.environment["PYTHON"] = sys.executable
config.substitutions.append(("%corpus", os.path.join(config.tgpu_src_root, "corpus")))

# CUDA is optional (docs/ARCHITECTURE.md, "Conventions"): tests that run ptxas say `REQUIRES: ptxas`.
ptxas = os.environ.get("TGPU_PTXAS") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    # compile_corpus.sh checks every PTX with it when it is set.
    config.environment["PTXAS"] = ptxas
    if "TGPU_PTXAS" in os.environ:
        config.environment["TGPU_PTXAS"] = os.environ["TGPU_PTXAS"]

# libdevice (CUDA's math library bitcode) for kernels that call __nv_*
# functions; tests that link it say `REQUIRES: libdevice`.
libdevice = os.environ.get("TGPU_LIBDEVICE") or "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
if os.path.isfile(libdevice):
    config.available_features.add("libdevice")
if "TGPU_LIBDEVICE" in os.environ:
    config.environment["TGPU_LIBDEVICE"] = os.environ["TGPU_LIBDEVICE"]

# The GPU runner is built where a CUDA toolkit (cuda.h) is found; its tests
# run it with --simulate, so they need no GPU.
if os.path.exists(os.path.join(config.tgpu_obj_root, "bin", "tgpu-gpu-run")):
    config.available_features.add("tgpu-gpu-run")

# The test-only twins with planted bugs (CMake option TGPU_PLANTED_BUGS).
if os.path.exists(os.path.join(config.tgpu_obj_root, "bin", "tgpu-repro-planted")):
    config.available_features.add("planted-bugs")
