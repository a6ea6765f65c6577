#!/usr/bin/env python3
"""Checks every Triton kernel launch of a Python program against tgpu's
compilation of the same TTIR, on the same inputs, on the GPU.

A program that uses Triton (a tutorial, a test, a model) runs unchanged with a
hook on `JITFunction.run`. Three steps, because the GPU machine has no LLVM or
MLIR and this one has no GPU:

  1. there:  launch_check.py dump PROGRAM.py -o DIR [-- ARGS...]
     runs the program; every kernel Triton compiles for a launch is written
     as DIR/ttir/<sha>.ttir (<sha>: the TTIR text's SHA-1), and DIR/launches.json
     lists the distinct (TTIR, num_warps) pairs with Triton's metadata.
  2. here:   launch_check.py compile DIR --tgpu-compile build/bin/tgpu-compile
     compiles each pair with tgpu-compile to a cubin (DIR/tgpu/<sha>.w<W>.cubin
     with its --metadata JSON); a kernel tgpu refuses keeps its error text.
  3. there:  launch_check.py check PROGRAM.py DIR [--markdown F] [--json F]
     runs the program again. At a launch whose (TTIR, num_warps) has a cubin,
     the hook snapshots every tensor argument (and the tensors the program
     named with `launch_check.also_compare`, and the tensors whose addresses an
     int64 tensor argument holds), launches tgpu's cubin on the real
     tensors, keeps what it wrote, restores the snapshot, lets Triton run, and
     compares tgpu's buffers with Triton's: integers and booleans bit for bit,
     floats within bounds per dtype (--tol; DEFAULT_TOLERANCE says why).
     Triton's result stays, so the program goes on exactly as it would
     without the hook. Pointer tables work
     because both kernels write the real tensors.

Triton's own TTGIR instead of its TTIR (what its pipeliner made, for another
target): between steps 1 and 2, on the GPU machine,
  launch_check.py triton-ttgir DIR --target cuda:80
has Triton compile each dumped TTIR for that target at the launch's num_warps
and num_stages into DIR/ttgir/<key>.ttgir, and step 2 becomes
  launch_check.py compile DIR --from-ttgir [--device-arch sm_90]
which compiles those files with tgpu-compile to PTX and with ptxas for the
GPU that runs step 3 (a cubin for sm_80 does not load on an H100).

Every launch of a key is checked up to --launches times (default 2). The
report has one row per checked key: PASS, FAIL (mismatching elements, the
largest error, its index), TGPU-ERROR (tgpu-compile refused it: its message),
ARGS (the Python arguments do not map onto the TTIR's parameters), or
LAUNCH-ERROR (the CUDA driver refused tgpu's launch). A kernel that corrupts the
CUDA context ends the program; the rows written so far stay in --json.
"""
import argparse
import hashlib
import inspect
import json
import os
import re
import runpy
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Default comparison bounds per element type, (rtol, atol, stol): an element
# passes when |tgpu - triton| <= rtol * |triton| + atol + stol * max|triton|,
# the maximum taken over the buffer. The two compilers order reductions and
# dot accumulations differently (Triton's fp8 wgmma even accumulates with
# fewer bits), and their fast exp/log differ in the last bits: an output's
# error then scales with the magnitudes summed into it, which the buffer's
# largest magnitude stands for, not with its own. rtol and stol are a few
# units in the last place of the type; narrow types get more.
DEFAULT_TOLERANCE = {
    "float64": (1e-9, 1e-12, 1e-12),
    "float32": (1e-4, 1e-5, 1e-6),
    "float16": (1e-2, 1e-3, 1e-3),
    "bfloat16": (2e-2, 1e-2, 8e-3),
    "float8_e4m3fn": (0.125, 0.0625, 0.0625),
    "float8_e5m2": (0.25, 0.125, 0.125),
}

_extra_tensors = []


def also_compare(*tensors):
    """Names tensors the next launch writes without taking them as arguments
    (for example through a table of pointers), so that the check compares them
    too. A program may call it whether or not the hook is active."""
    _extra_tensors.extend(tensors)


def fail(msg):
    sys.stderr.write("launch_check: " + msg + "\n")
    sys.exit(2)


def pointed_to(values):
    """The live CUDA tensors whose addresses an int64 tensor argument holds: a
    kernel that loads its pointers from such a table writes them too."""
    import gc
    import torch
    addrs = set()
    for v in values:
        if (isinstance(v, torch.Tensor) and v.is_cuda and v.dtype == torch.int64
                and v.numel() <= 65536):
            addrs.update(int(x) for x in v.reshape(-1).tolist())
    addrs.discard(0)
    if not addrs:
        return []
    return [o for o in gc.get_objects()
            if isinstance(o, torch.Tensor) and o.is_cuda and o.data_ptr() in addrs]


def ttir_params(ttir):
    """(name, type) of each parameter of the TTIR's public tt.func, in order.
    Triton names each parameter after its Python argument (`%x_ptr`), and
    drops the arguments it specialised into constants (an int equal to 1, a
    None), so the names, not the positions, say which value goes where."""
    m = re.search(r"tt\.func\s+public\s+@[\w$.]+\s*\(", ttir)
    if not m:
        return None
    depth, i, start = 1, m.end(), m.end()
    while i < len(ttir) and depth:
        depth += {"(": 1, ")": -1}.get(ttir[i], 0)
        i += 1
    params, depth, cur = [], 0, ""
    for ch in ttir[start:i - 1] + ",":
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            pm = re.match(r"\s*%([\w$.-]+)\s*:\s*(.*)", cur, re.S)
            if pm:
                ty = re.split(r"\s+(?:\{|loc\()", pm.group(2).strip(), maxsplit=1)[0]
                params.append((pm.group(1), ty.strip()))
            cur = ""
        else:
            cur += ch
    return params


# CUDA's CUtensorMapDataType for torch's dtypes (8-bit floats travel as
# bytes).
CU_TENSOR_MAP_DATA_TYPE = {
    "torch.uint8": 0, "torch.int8": 0, "torch.float8_e4m3fn": 0, "torch.float8_e5m2": 0,
    "torch.int16": 1, "torch.int32": 3, "torch.int64": 5, "torch.float16": 6,
    "torch.float32": 7, "torch.float64": 8, "torch.bfloat16": 9,
}


def is_descriptor(v):
    """A host tensor descriptor (triton.tools.tensor_descriptor.TensorDescriptor)."""
    return all(hasattr(v, a) for a in ("base", "shape", "strides", "block_shape"))


def expand_descriptors(params, named):
    """The runtime value of each TTIR parameter: Triton passes a host tensor
    descriptor argument as the descriptor and then its shape (i32 each) and
    strides (i64 each), 2·rank parameters named after it with suffixes."""
    values, types, i = [], [], 0
    while i < len(params):
        pname, ty = params[i]
        if pname not in named:
            raise KeyError(pname)
        v = named[pname]
        values.append(v)
        types.append(ty)
        i += 1
        if ty.startswith("!tt.tensordesc") and is_descriptor(v):
            rank = len(v.shape)
            for extent in list(v.shape) + list(v.strides):
                if i >= len(params):
                    break
                values.append(int(extent))
                types.append(params[i][1])
                i += 1
    return values, types


def sha_of(text):
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def key_of(sha, warps):
    return "%s.w%d" % (sha, warps)


class Hook:
    """Sees every kernel launch of the program: JITFunction.run (kernel[grid](...),
    autotuned launches too) and a compiled kernel's own launcher
    (kernel.warmup(...) then compiled[grid](...), as tutorial 02 does)."""

    def __init__(self, mode, folder, opts):
        self.mode, self.folder, self.opts = mode, folder, opts
        self.launches = {}
        self.rows = []
        self.counts = {}
        self.modules = {}
        self.cuda = None
        self.busy = False
        path = os.path.join(folder, "launches.json")
        if mode == "check":
            with open(path) as f:
                self.launches = json.load(f)
        os.makedirs(os.path.join(folder, "ttir"), exist_ok=True)

    def install(self):
        from triton.compiler.compiler import CompiledKernel
        from triton.runtime.jit import JITFunction
        original_run = JITFunction.run
        original_getitem = getattr(CompiledKernel, "__getitem__", None)
        hook = self

        def run(fn, *args, grid, warmup, **kwargs):
            if warmup or hook.busy:
                return original_run(fn, *args, grid=grid, warmup=warmup, **kwargs)
            kernel = original_run(fn, *args, grid=grid, warmup=True, **kwargs)
            sig = inspect.signature(fn.fn)
            bound = sig.bind(*args, **{k: v for k, v in kwargs.items() if k in sig.parameters})
            bound.apply_defaults()
            named = dict(bound.arguments)
            grid_of = lambda: grid(dict(named, **kwargs)) if callable(grid) else grid
            triton = lambda: original_run(fn, *args, grid=grid, warmup=False, **kwargs)
            return hook.launch(fn.__name__, kernel, named, grid_of, triton)

        def getitem(kernel, grid):
            runner = original_getitem(kernel, grid)

            def launch(*args, **kw):
                fn = getattr(kernel.src, "fn", None)
                if hook.busy or fn is None:
                    return runner(*args, **kw)
                named = dict(zip([p.name for p in fn.params], args))
                return hook.launch(fn.__name__, kernel, named, lambda: grid,
                                   lambda: runner(*args, **kw))
            return launch

        JITFunction.run = run
        if original_getitem is not None:
            CompiledKernel.__getitem__ = getitem

    def launch(self, name, kernel, named, grid_of, triton):
        ttir = kernel.asm["ttir"]
        warps = int(kernel.metadata.num_warps)
        key = key_of(sha_of(ttir), warps)
        self.busy = True
        try:
            if self.mode == "dump":
                self.dump(name, kernel, ttir, key, warps)
                _extra_tensors.clear()
                return triton()
            return self.check(name, named, grid_of, triton, ttir, key)
        finally:
            self.busy = False

    # -- dump -----------------------------------------------------------------
    def dump(self, name, kernel, ttir, key, warps):
        if key in self.launches:
            self.launches[key]["launches"] += 1
            return
        sha = key.split(".w")[0]
        with open(os.path.join(self.folder, "ttir", sha + ".ttir"), "w") as f:
            f.write(ttir)
        md = kernel.metadata
        self.launches[key] = {
            "kernel": name, "ttir": "ttir/%s.ttir" % sha, "num_warps": warps,
            "num_stages": int(getattr(md, "num_stages", 0) or 0),
            "arch": "sm_%s" % getattr(md.target, "arch", "90"), "launches": 1}
        with open(os.path.join(self.folder, "launches.json"), "w") as f:
            json.dump(self.launches, f, indent=1, sort_keys=True)

    # -- check ----------------------------------------------------------------
    def row(self, key, name, status, detail="", grid=None):
        entry = self.launches.get(key, {})
        r = {"key": key, "kernel": name, "warps": entry.get("num_warps"),
             "stages": entry.get("num_stages"), "grid": grid, "status": status,
             "detail": detail}
        self.rows.append(r)
        print("launch_check: %-12s %-28s %s %s" % (status, name, key, detail[:160]))
        sys.stdout.flush()
        if self.opts.json:
            with open(self.opts.json, "w") as f:
                json.dump(self.rows, f, indent=1)

    def check(self, name, named, grid_of, triton, ttir, key):
        import ctypes
        import torch
        extra = list(_extra_tensors)
        _extra_tensors.clear()
        entry = self.launches.get(key)
        seen = self.counts.get(key, 0)
        if entry is None or seen >= self.opts.launches:
            if entry is None and seen == 0:
                self.counts[key] = 1
                self.row(key, name, "NOT-DUMPED", "the dump run never launched this kernel")
            return triton()
        self.counts[key] = seen + 1
        stem = os.path.join(self.folder, "tgpu", key)
        if os.path.exists(stem + ".error"):
            with open(stem + ".error") as f:
                self.row(key, name, "TGPU-ERROR", f.read().strip())
            return triton()
        if not os.path.exists(stem + ".cubin"):
            self.row(key, name, "NOT-COMPILED", "no %s.cubin" % stem)
            return triton()

        params = ttir_params(ttir)
        if params is None:
            self.row(key, name, "ARGS", "no public tt.func in the TTIR")
            return triton()
        try:
            runtime, types = expand_descriptors(params, named)
        except KeyError as e:
            self.row(key, name, "ARGS", "TTIR parameter %s is not an argument of %s"
                     % (e.args[0], name))
            return triton()
        g = [int(x) for x in (tuple(grid_of()) + (1, 1))[:3]]
        with open(stem + ".json") as f:
            md = json.load(f)

        extra += pointed_to(runtime)
        tensors, seen_ptrs = [], set()
        for v in runtime + extra:
            if is_descriptor(v):
                v = v.base
            if isinstance(v, torch.Tensor) and v.data_ptr() not in seen_ptrs:
                seen_ptrs.add(v.data_ptr())
                tensors.append(v)
        try:
            holders = self.pack(runtime, types, md)
        except (TypeError, ValueError, RuntimeError) as e:
            self.row(key, name, "ARGS", str(e), g)
            return triton()
        # A kernel that makes descriptors gets its grid's global scratch
        # as one more parameter (tgpu's metadata says how much a program).
        scratch = None
        per_program = int(md.get("global_scratch_bytes", 0) or 0)
        if per_program:
            scratch = torch.zeros(per_program * g[0] * g[1] * g[2], dtype=torch.uint8,
                                  device="cuda")
            holders.append(ctypes.c_uint64(scratch.data_ptr()))

        torch.cuda.synchronize()
        before = [t.clone() for t in tensors]
        try:
            self.launch_tgpu(stem, holders, g)
        except RuntimeError as e:
            self.row(key, name, "LAUNCH-ERROR", str(e), g)
            return triton()
        ours = [t.clone() for t in tensors]
        for t, b in zip(tensors, before):
            t.copy_(b)
        result = triton()
        torch.cuda.synchronize()
        status, detail = "PASS", []
        for idx, (mine, theirs) in enumerate(zip(ours, tensors)):
            bad, text = self.compare(mine, theirs)
            if bad:
                status = "FAIL"
                detail.append("buffer %d: %s" % (idx, text))
        self.row(key, name, status, "; ".join(detail), g)
        return result

    def pack(self, values, types, md):
        import ctypes
        import struct
        import torch
        holders = []
        tma = [a["tma"] for a in md.get("arguments", []) if "tma" in a]
        for v, ty in zip(values, types):
            if ty.startswith("!tt.tensordesc"):
                if not is_descriptor(v):
                    raise TypeError("cannot pass %s as %s" % (type(v).__name__, ty))
                if not tma:
                    raise ValueError("tgpu's metadata has no TMA encoding for %s" % ty)
                holders.append(self.tensor_map(v, tma.pop(0)))
                continue
            if ty.startswith("!tt.ptr"):
                if isinstance(v, torch.Tensor):
                    addr = v.data_ptr()
                elif isinstance(v, int):
                    addr = v
                elif v is None:
                    addr = 0
                else:
                    raise TypeError("cannot pass %s as %s" % (type(v).__name__, ty))
                holders.append(ctypes.c_uint64(addr))
                continue
            if ty.startswith("!tt.") or ty.startswith("tensor"):
                raise TypeError("parameter of type %s is not supported" % ty)
            fmt = {"i1": "<B", "i8": "<b", "i16": "<h", "i32": "<i", "i64": "<q",
                   "f16": "<e", "f32": "<f", "f64": "<d"}.get(ty)
            if fmt is None:
                raise TypeError("scalar parameter of type %s is not supported" % ty)
            if isinstance(v, bool) or ty == "i1":
                raw = struct.pack("<B", 1 if v else 0)
            elif ty.startswith("f"):
                raw = struct.pack(fmt, float(v))
            else:
                bits = int(ty[1:])
                value = (int(v) + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
                raw = struct.pack(fmt, value)
            holders.append(ctypes.create_string_buffer(raw, len(raw)))
        return holders

    def tensor_map(self, desc, enc):
        """A CUtensorMap over a TensorDescriptor's tensor with tgpu's box and
        swizzle for it (--metadata's "tma")."""
        import ctypes
        self.ensure_cuda()
        t = desc.base
        rank = len(desc.shape)
        dtype = CU_TENSOR_MAP_DATA_TYPE.get(str(t.dtype))
        if dtype is None:
            raise TypeError("no CUtensorMap element type for %s" % t.dtype)
        size = t.element_size()
        m = (ctypes.c_uint8 * 128)()
        dims = (ctypes.c_uint64 * rank)(*[int(x) for x in reversed(desc.shape)])
        strides = (ctypes.c_uint64 * max(rank - 1, 1))(
            *[int(x) * size for x in reversed(list(desc.strides)[:-1])] or [0])
        box = (ctypes.c_uint32 * rank)(*[int(x) for x in reversed(enc["box"])])
        ones = (ctypes.c_uint32 * rank)(*([1] * rank))
        swizzle = {0: 0, 32: 1, 64: 2, 128: 3}[int(enc["swizzle_bytes"])]
        nan_fill = 1 if getattr(desc, "padding", "zero") == "nan" else 0
        self.cuda.check(self.cuda.lib.cuTensorMapEncodeTiled(
            m, dtype, rank, ctypes.c_void_p(t.data_ptr()), dims, strides, box, ones,
            0, swizzle, 2, nan_fill), "cuTensorMapEncodeTiled")
        return m

    def ensure_cuda(self):
        if self.cuda is None:
            sys.path.insert(0, HERE)
            from run_ptx import Cuda

            class RaisingCuda(Cuda):
                def check(self, rc, what):
                    if rc != 0:
                        raise RuntimeError("%s failed with CUDA error %d" % (what, rc))

            self.cuda = RaisingCuda()

    def launch_tgpu(self, stem, holders, grid):
        import ctypes
        import torch
        self.ensure_cuda()
        with open(stem + ".json") as f:
            md = json.load(f)
        if stem not in self.modules:
            with open(stem + ".cubin", "rb") as f:
                image = f.read()
            func = self.cuda.load(image, md["kernel"])
            shared = int(md["shared_memory_bytes"])
            if shared > 48 * 1024:
                self.cuda.check(self.cuda.lib.cuFuncSetAttribute(func, 8, shared),
                                "cuFuncSetAttribute")
            self.modules[stem] = func
        func = self.modules[stem]
        params = (ctypes.c_void_p * max(len(holders), 1))(
            *[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        self.cuda.check(self.cuda.lib.cuLaunchKernel(
            func, grid[0], grid[1], grid[2], int(md["threads_per_cta"]), 1, 1,
            int(md["shared_memory_bytes"]), stream, params, None), "cuLaunchKernel")
        self.cuda.check(self.cuda.lib.cuCtxSynchronize(), "tgpu's kernel")

    def compare(self, mine, theirs):
        import torch
        name = str(theirs.dtype).replace("torch.", "")
        if not theirs.dtype.is_floating_point:
            diff = (mine.reshape(-1) != theirs.reshape(-1))
            n = int(diff.sum())
            if n == 0:
                return False, ""
            i = int(diff.nonzero()[0])
            return True, "%d of %d %s elements differ, first at %d: %s vs %s" % (
                n, diff.numel(), name, i, mine.reshape(-1)[i].item(), theirs.reshape(-1)[i].item())
        rtol, atol, stol = self.opts.tolerance.get(
            name, DEFAULT_TOLERANCE.get(name, (1e-3, 1e-3, 1e-3)))
        a, b = mine.reshape(-1).double(), theirs.reshape(-1).double()
        finite = b[b.isfinite()]
        scale = float(finite.abs().max()) if finite.numel() else 0.0
        err = (a - b).abs()
        both_nan = a.isnan() & b.isnan()
        same_inf = (a == b) & a.isinf()
        ok = (err <= rtol * b.abs() + atol + stol * scale) | both_nan | same_inf
        n = int((~ok).sum())
        if n == 0:
            return False, ""
        err = err.nan_to_num(nan=float("inf"))
        err[ok] = 0
        i = int(err.argmax())
        return True, ("%d of %d %s elements beyond rtol %g atol %g stol %g (largest |value| "
                      "%.4g), the worst at %d: %r vs %r" % (
                          n, ok.numel(), name, rtol, atol, stol, scale, i, a[i].item(),
                          b[i].item()))


def run_program(hook, program, argv):
    hook.install()
    sys.modules.setdefault("launch_check", sys.modules[__name__])
    sys.argv = [program] + argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
    try:
        runpy.run_path(program, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            print("launch_check: the program exited with %s" % e.code)


def markdown(rows):
    """One row per checked (TTIR, num_warps): the worst verdict of its
    launches (FAIL before the errors before PASS) and how many were checked."""
    order = ["FAIL", "LAUNCH-ERROR", "ARGS", "TGPU-ERROR", "NOT-COMPILED", "NOT-DUMPED", "PASS"]
    keys, merged = [], {}
    for r in rows:
        if r["key"] not in merged:
            keys.append(r["key"])
            merged[r["key"]] = dict(r, launches=0)
        m = merged[r["key"]]
        m["launches"] += 1
        if order.index(r["status"]) < order.index(m["status"]):
            m.update(status=r["status"], detail=r["detail"], grid=r["grid"])
    out = ["| kernel | TTIR | warps | stages | grid | launches | tgpu vs Triton | detail |",
           "|---|---|---|---|---|---|---|---|"]
    counts = {}
    for k in keys:
        r = merged[k]
        counts[r["status"]] = counts.get(r["status"], 0) + 1
        grid = "×".join(str(x) for x in r["grid"]) if r.get("grid") else ""
        detail = r["detail"].replace("|", "\\|").replace("\n", " ")
        if len(detail) > 200:
            detail = detail[:197] + "..."
        out.append("| %s | %s | %s | %s | %s | %d | %s | %s |" % (
            r["kernel"], k.split(".w")[0], r["warps"], r["stages"], grid, r["launches"],
            r["status"], detail))
    out.append("")
    out.append("Kernels (TTIR, num_warps): " + ", ".join(
        "%s %d" % (s, counts[s]) for s in order if s in counts))
    return "\n".join(out) + "\n"


def triton_ttgir(opts):
    import triton
    from triton.backends.compiler import GPUTarget
    with open(os.path.join(opts.folder, "launches.json")) as f:
        launches = json.load(f)
    backend, arch = opts.target.split(":")
    out = os.path.join(opts.folder, "ttgir")
    os.makedirs(out, exist_ok=True)
    done = failed = 0
    for key, entry in sorted(launches.items()):
        source = os.path.join(opts.folder, entry["ttir"])
        with open(source) as f:
            if int(arch) < 90 and "!tt.tensordesc" in f.read():
                # Tensor descriptors are TMA, which sm_80 lacks: Triton 3.6's
                # back end aborts the process on them (LLVM cannot select
                # nvvm.elect.sync) instead of raising.
                failed += 1
                print("%s %s: skipped: tensor descriptors need sm_90" % (entry["kernel"], key))
                continue
        try:
            kernel = triton.compile(
                source,
                target=GPUTarget(backend, int(arch), 32),
                options={"num_warps": entry["num_warps"],
                         "num_stages": entry.get("num_stages") or 3})
        except Exception as e:  # Triton's refusal is a result, not an error here
            failed += 1
            first = (str(e).strip().splitlines() or ["?"])[0]
            print("%s %s: Triton: %s" % (entry["kernel"], key, first[:300]))
            continue
        with open(os.path.join(out, key + ".ttgir"), "w") as f:
            f.write(kernel.asm["ttgir"])
        done += 1
    print("Triton made the TTGIR of %d of %d kernels for %s" % (done, done + failed, opts.target))


def compile_all(opts):
    with open(os.path.join(opts.folder, "launches.json")) as f:
        launches = json.load(f)
    outdir = os.path.join(opts.folder, "tgpu")
    os.makedirs(outdir, exist_ok=True)
    done = failed = 0
    for key, entry in sorted(launches.items()):
        stem = os.path.join(outdir, key)
        for suffix in (".cubin", ".json", ".error"):
            if os.path.exists(stem + suffix):
                os.remove(stem + suffix)
        if opts.from_ttgir:
            source = os.path.join(opts.folder, "ttgir", key + ".ttgir")
            if not os.path.exists(source):
                failed += 1
                with open(stem + ".error", "w") as f:
                    f.write("no Triton TTGIR for this kernel (triton-ttgir refused it)\n")
                continue
            # The module's ttg.target and ttg.num-warps decide; PTX, then a
            # cubin for the GPU that runs the check.
            cmds = [[opts.tgpu_compile, source, "--emit", "ptx", "-o", stem + ".ptx",
                     "--metadata", stem + ".json"],
                    [opts.ptxas, "-arch=" + opts.device_arch, stem + ".ptx", "-o",
                     stem + ".cubin"]]
        else:
            # The launch's num_stages too: the pipeline depth decides the
            # rings' shared memory, which the largest tiles need at Triton's.
            cmds = [[opts.tgpu_compile, os.path.join(opts.folder, entry["ttir"]),
                     "--num-warps", str(entry["num_warps"]), "--arch", opts.arch,
                     "--emit", "cubin", "-o", stem + ".cubin", "--metadata", stem + ".json"]
                    + (["--num-stages", str(entry["num_stages"])] if entry.get("num_stages") else [])]
        rc, err = 0, ""
        for cmd in cmds:
            try:
                res = subprocess.run(cmd, capture_output=True, text=True, timeout=opts.timeout)
                rc, err = res.returncode, res.stderr
            except subprocess.TimeoutExpired:
                rc, err = -1, "%s did not finish in %d s" % (os.path.basename(cmd[0]),
                                                             opts.timeout)
            if rc != 0:
                break
        if rc == 0:
            done += 1
            continue
        failed += 1
        lines = [l for l in err.splitlines() if l.strip()]
        first = next((l for l in lines if "error" in l), lines[0] if lines else "exit %d" % rc)
        first = first.replace(os.path.join(opts.folder, ""), "")
        with open(stem + ".error", "w") as f:
            f.write(first + "\n")
        print("%s %s: %s" % (entry["kernel"], key, first))
    print("compiled %d of %d kernels (%d refused)" % (done, done + failed, failed))


def parse_tolerances(items):
    out = {}
    for item in items or []:
        name, _, rest = item.partition("=")
        try:
            values = [float(x) for x in rest.split(",")]
        except ValueError:
            values = []
        if len(values) not in (2, 3):
            fail("--tol takes DTYPE=RTOL,ATOL[,STOL], not %r" % item)
        out[name] = tuple(values + [0.0] * (3 - len(values)))
    return out


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        split = argv.index("--")
        argv, extra = argv[:split], argv[split + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("program")
    d.add_argument("-o", dest="folder", required=True)
    c = sub.add_parser("compile")
    c.add_argument("folder")
    c.add_argument("--tgpu-compile", default=os.path.join(HERE, "..", "..", "build", "bin",
                                                          "tgpu-compile"))
    c.add_argument("--arch", default="sm_90a")
    c.add_argument("--timeout", type=int, default=300)
    c.add_argument("--from-ttgir", action="store_true",
                   help="compile DIR/ttgir/<key>.ttgir (triton-ttgir) instead of the TTIR")
    c.add_argument("--ptxas", default=os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas"))
    c.add_argument("--device-arch", default="sm_90",
                   help="--from-ttgir: the GPU the cubins are for")
    t = sub.add_parser("triton-ttgir")
    t.add_argument("folder")
    t.add_argument("--target", default="cuda:80",
                   help="Triton's target for the TTGIR (backend:arch)")
    k = sub.add_parser("check")
    k.add_argument("program")
    k.add_argument("folder")
    k.add_argument("--launches", type=int, default=2)
    k.add_argument("--json")
    k.add_argument("--markdown")
    k.add_argument("--tol", action="append",
                   help="DTYPE=RTOL,ATOL[,STOL] (e.g. float16=1e-2,1e-3,1e-3)")
    opts = p.parse_args(argv)
    if opts.cmd in ("compile", "triton-ttgir"):
        if not os.path.exists(os.path.join(opts.folder, "launches.json")):
            fail("%s has no launches.json (run dump first)" % opts.folder)
        (compile_all if opts.cmd == "compile" else triton_ttgir)(opts)
        return
    if not os.path.exists(opts.program):
        fail("no such program: %s" % opts.program)
    if opts.cmd == "dump":
        os.makedirs(opts.folder, exist_ok=True)
        hook = Hook("dump", opts.folder, opts)
        run_program(hook, opts.program, extra)
        with open(os.path.join(opts.folder, "launches.json"), "w") as f:
            json.dump(hook.launches, f, indent=1, sort_keys=True)
        print("launch_check: %d kernels written to %s" % (len(hook.launches), opts.folder))
        return
    if not os.path.exists(os.path.join(opts.folder, "launches.json")):
        fail("%s has no launches.json (run dump first)" % opts.folder)
    opts.tolerance = parse_tolerances(opts.tol)
    hook = Hook("check", opts.folder, opts)
    run_program(hook, opts.program, extra)
    table = markdown(hook.rows)
    if opts.markdown:
        with open(opts.markdown, "w") as f:
            f.write(table)
    print(table)
    sys.exit(0 if all(r["status"] == "PASS" for r in hook.rows) else 1)


if __name__ == "__main__":
    main()
