#!/usr/bin/env python3
"""On the GPU machine: times tgpu's and Triton 3.6's compilations of the same
descriptor kernel TTIR (tutorial 09's matmul_kernel_tma (--kind mm), its
persistent forms matmul_kernel_tma_persistent (mm-persistent, host
descriptors) and matmul_kernel_descriptor_persistent (mm-device, descriptors
made in the kernel), tutorial 06's _attn_fwd (attn)), both launched the same
way: cubins loaded with the driver API,
CUtensorMaps encoded with cuTensorMapEncodeTiled from each image's own box
and swizzle, cuLaunchKernel timed with CUDA events around --iters launches
after warm-ups. Prints one markdown row per size.

usage: bench_descriptors.py --kind mm|mm-persistent|mm-device|attn --ttir K.ttir --ptx TGPU.ptx --metadata TGPU.json
                     --num-warps W --num-stages S [--sizes ...] [--iters N]
                     [--head-dim D] [--causal] [--num-sms N]
"""
import argparse, ctypes, json, os, subprocess, sys, tempfile
import torch, triton
from triton.backends.compiler import GPUTarget

cuda = ctypes.CDLL("libcuda.so.1")


def check(rc, what):
    if rc != 0:
        name = ctypes.c_char_p()
        cuda.cuGetErrorName(rc, ctypes.byref(name))
        raise RuntimeError("%s: %s" % (what, name.value))


SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}


def tensor_map(t, box, swizzle_bytes):
    """A CUtensorMap over the 2-D f16 tensor `t` with `box` (outermost first)."""
    m = (ctypes.c_uint8 * 128)()
    rows, cols = t.shape
    dims = (ctypes.c_uint64 * 2)(cols, rows)
    strides = (ctypes.c_uint64 * 1)(t.stride(0) * t.element_size())
    boxd = (ctypes.c_uint32 * 2)(box[1], box[0])
    es = (ctypes.c_uint32 * 2)(1, 1)
    check(cuda.cuTensorMapEncodeTiled(m, 6, 2, ctypes.c_void_p(t.data_ptr()), dims, strides, boxd, es,
                                      0, SWIZZLE[swizzle_bytes], 2, 0), "cuTensorMapEncodeTiled")
    return m


class Image:
    def __init__(self, cubin, entry, shared, threads, boxes, scratch):
        self.mod = ctypes.c_void_p()
        check(cuda.cuModuleLoadData(ctypes.byref(self.mod), cubin), "cuModuleLoadData")
        self.fn = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.fn), self.mod, entry.encode()), "cuModuleGetFunction")
        if shared > 48 * 1024:
            check(cuda.cuFuncSetAttribute(self.fn, 8, shared), "cuFuncSetAttribute")
        self.shared, self.threads, self.boxes, self.scratch = shared, threads, boxes, scratch

    def launch_params(self, args, grid):
        """args: list of ('desc', tensor) | ('i32', v) | ('i64', v) | ('f32', v) | ('ptr', tensor)."""
        vals, keep = [], []
        d = 0
        for kind, v in args:
            if kind == "desc":
                box, sw = self.boxes[d]
                d += 1
                vals.append(tensor_map(v, box, sw))
            elif kind == "ptr":
                vals.append(ctypes.c_uint64(v.data_ptr()))
            elif kind == "i32":
                vals.append(ctypes.c_int32(v))
            elif kind == "i64":
                vals.append(ctypes.c_int64(v))
            elif kind == "f32":
                vals.append(ctypes.c_float(v))
        programs = grid[0] * grid[1] * grid[2]
        for per in self.scratch:
            buf = torch.zeros(max(per * programs, 1), dtype=torch.uint8, device="cuda") if per else None
            keep.append(buf)
            vals.append(ctypes.c_uint64(buf.data_ptr() if buf is not None else 0))
        params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
        return params, (vals, keep)

    def time(self, args, grid, iters):
        params, keep = self.launch_params(args, grid)
        def go():
            check(cuda.cuLaunchKernel(self.fn, grid[0], grid[1], grid[2], self.threads, 1, 1, self.shared,
                                      None, params, None), "cuLaunchKernel")
        for _ in range(3):
            go()
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(iters):
            go()
        e.record()
        torch.cuda.synchronize()
        return s.elapsed_time(e) / iters


def desc_scalars(t):
    return [("i32", t.shape[0]), ("i32", t.shape[1]), ("i64", t.stride(0)), ("i64", 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", required=True)
    ap.add_argument("--ttir", required=True)
    ap.add_argument("--ptx", required=True)
    ap.add_argument("--metadata", required=True)
    ap.add_argument("--num-warps", type=int, required=True)
    ap.add_argument("--num-stages", type=int, required=True)
    ap.add_argument("--sizes", default="")
    ap.add_argument("--head-dim", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--num-sms", type=int, default=132)
    ap.add_argument("--causal", action="store_true")
    a = ap.parse_args()
    torch.zeros(1, device="cuda")
    md = json.load(open(a.metadata))
    tmp = tempfile.mkdtemp()
    subprocess.run(["ptxas", "-arch=sm_90a", a.ptx, "-o", tmp + "/t.cubin"], check=True)
    tgpu = Image(open(tmp + "/t.cubin", "rb").read(), md["kernel"], md["shared_memory_bytes"], md["threads_per_cta"],
                 [(x["tma"]["box"], x["tma"]["swizzle_bytes"]) for x in md["arguments"] if "tma" in x],
                 [md["global_scratch_bytes"]] if md.get("global_scratch_bytes") else [])
    k = triton.compile(a.ttir, target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": a.num_warps, "num_stages": a.num_stages})
    tm = k.metadata
    nparams = len(md["arguments"]) - (1 if md.get("global_scratch_bytes") else 0)
    trit = Image(k.asm["cubin"], tm.name, tm.shared, 32 * tm.num_warps,
                 [(d["block_size"], {0: 0, 1: 32, 2: 64, 3: 128}[d["swizzle"]]) for d in (tm.tensordesc_meta or [])],
                 [int(tm.global_scratch_size or 0), int(getattr(tm, "profile_scratch_size", 0) or 0)])
    print("| size | tgpu ms | Triton ms | tgpu TFLOP/s | Triton TFLOP/s | tgpu / Triton speed |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for size in [int(x) for x in a.sizes.split(",")]:
        if a.kind.startswith("mm"):
            M = N = K = size
            A = torch.randn(M, K, device="cuda", dtype=torch.float16)
            B = torch.randn(N, K, device="cuda", dtype=torch.float16)
            C = torch.empty(M, N, device="cuda", dtype=torch.float16)
            if a.kind == "mm-device":
                args = [("ptr", A), ("ptr", B), ("ptr", C)]
            else:
                args = [("desc", A)] + desc_scalars(A) + [("desc", B)] + desc_scalars(B) + [("desc", C)] + \
                       desc_scalars(C)
            args += [("i32", M), ("i32", N), ("i32", K)]
            tiles = triton.cdiv(M, 128) * triton.cdiv(N, 128)
            # The persistent kernels loop over tiles with a stride of their
            # NUM_SMS (132 in the tutorial's TTIR: the H100 SXM's SM count).
            grid = (tiles if a.kind == "mm" else min(a.num_sms, tiles), 1, 1)
            flops = 2.0 * M * N * K
            label = "%d³" % size
        else:
            Z, H, D = 4, 32, a.head_dim
            y = Z * H * size
            q, kk, v = (torch.randn(y, D, device="cuda", dtype=torch.float16) for _ in range(3))
            o = torch.empty(y, D, device="cuda", dtype=torch.float16)
            Mbuf = torch.empty(y, device="cuda", dtype=torch.float32)
            args = [("f32", 0.5), ("ptr", Mbuf), ("i32", Z), ("i32", H)]
            for t in (q, kk, v, o):
                args += [("desc", t)] + desc_scalars(t)
            args += [("i32", size)]
            grid = (triton.cdiv(size, 128), Z * H, 1)
            # A causal kernel computes the blocks on and below the diagonal.
            flops = 4.0 * Z * H * size * size * D * (0.5 if a.causal else 1.0)
            label = "Z=%d H=%d N=%d D=%d%s" % (Z, H, size, D, " causal" if a.causal else "")
        t1 = tgpu.time(args, grid, a.iters)
        t2 = trit.time(args, grid, a.iters)
        print("| %s | %.3f | %.3f | %.0f | %.0f | %.2f× |" % (label, t1, t2, flops / t1 / 1e9, flops / t2 / 1e9, t2 / t1))


if __name__ == "__main__":
    main()
