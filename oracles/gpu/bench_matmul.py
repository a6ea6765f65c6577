#!/usr/bin/env python3
"""On the GPU machine: times tgpu's compilation of one of the corpus matmul
kernels (corpus/kernels/triton/matmul_f16_*.ttir, made by dump_triton.py:
arguments a, b, c, M, N, K, stride_am, stride_bk, stride_cm; row-major,
unit inner strides) against Triton 3.6's compilations of the same TTIR, on
square M = N = K problems.

Every variant is a cubin launched the same way, by run_ptx.py --bench in its
own process (ctypes cuLaunchKernel, CUDA events around --iters launches after
3 warm-ups, zero-filled buffers), so the launch path is not part of the
difference. Correctness is the campaign's business (the same kernels run
against the CPU reference there). tgpu's PTX goes through ptxas for sm_90.
Triton's variants: sm_90 at the kernel's num_stages (wgmma, pipelined: what
Triton runs on an H100), sm_80 at the same stages (mma.sync, cp.async
pipelining) and sm_80 with one stage (mma.sync, no pipelining).

usage: bench_matmul.py --ptx TGPU.ptx --metadata TGPU.json --ttir KERNEL.ttir
                       --block-m BM --block-n BN --num-stages S
                       [--sizes 1024,4096] [--iters 50] [--label TEXT]
                       [--sm90-only]
(TGPU.json: tgpu-compile --metadata, which gives the warps and shared bytes.)
Prints one markdown row per (size, variant): time, TFLOP/s, ratio to tgpu.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def param_count(ptx, entry):
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", ptx, re.S)
    return len(re.findall(r"\.param\s", m.group(1))) if m else 0


def sm90_cubin(ptx_path, cubin, arch="sm_90"):
    # sm_90a PTX (wgmma) assembles only for sm_90a, which runs on an H100.
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    subprocess.run([ptxas, "-arch=" + arch, ptx_path, "-o", cubin], check=True)
    return cubin


def tgpu_variant(opts, tmp):
    with open(opts.metadata) as f:
        md = json.load(f)
    with open(opts.ptx) as f:
        ptx = f.read()
    cubin = sm90_cubin(opts.ptx, os.path.join(tmp, "tgpu.cubin"),
                       "sm_90a" if md.get("arch") == "sm_90a" else "sm_90")
    return {"what": opts.label, "cubin": cubin,
            "entry": md["kernel"], "threads": int(md["threads_per_cta"]),
            "shared": int(md["shared_memory_bytes"]),
            "params": param_count(ptx, md["kernel"]), "warps": int(md["num_warps"])}


def triton_variant(opts, tmp, arch, warps, stages, what):
    import triton
    from triton.backends.compiler import GPUTarget
    compiled = triton.compile(opts.ttir, target=GPUTarget("cuda", arch, 32),
                              options={"num_warps": warps, "num_stages": stages})
    md = compiled.metadata
    for name in ("global_scratch_size", "profile_scratch_size"):
        if int(getattr(md, name, 0) or 0):
            raise RuntimeError("Triton's kernel needs %s = %s" % (name, getattr(md, name)))
    cubin = os.path.join(tmp, "triton_%d_%d.cubin" % (arch, stages))
    if arch == 90:
        with open(cubin, "wb") as f:
            f.write(compiled.asm["cubin"])
    else:
        # An sm_80 cubin does not load on an H100: its PTX, through ptxas for sm_90.
        ptx = os.path.join(tmp, "triton_%d_%d.ptx" % (arch, stages))
        with open(ptx, "w") as f:
            f.write(compiled.asm["ptx"])
        sm90_cubin(ptx, cubin)
    return {"what": what, "cubin": cubin, "entry": md.name, "threads": 32 * int(md.num_warps),
            "shared": int(md.shared), "params": param_count(compiled.asm["ptx"], md.name)}


def time_us(v, size, grid, iters):
    args = ["ptr:f16=zeros:%d" % (size * size)] * 3 + ["i32=%d" % size] * 6
    # Triton 3.x appends scratch pointers (null: their sizes are 0).
    args += ["i64=0"] * (v["params"] - len(args))
    cmd = [sys.executable, os.path.join(HERE, "run_ptx.py"), v["cubin"], "--entry", v["entry"],
           "--grid", str(grid), "--threads", str(v["threads"]), "--shared", str(v["shared"]),
           "--inputs", "/dev/null", "--out", "/dev/null", "--bench", str(iters), "--"] + args
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError((out.stderr or out.stdout).strip().splitlines()[-1])
    return float(out.stdout.split()[0])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ptx", required=True)
    p.add_argument("--metadata", required=True)
    p.add_argument("--ttir", required=True)
    p.add_argument("--block-m", type=int, required=True)
    p.add_argument("--block-n", type=int, required=True)
    p.add_argument("--num-stages", type=int, required=True)
    p.add_argument("--sizes", default="1024,4096")
    p.add_argument("--iters", type=int, default=50)
    p.add_argument("--sm90-only", action="store_true",
                   help="time only Triton's sm_90 compilation (what it runs on an H100)")
    p.add_argument("--label", default="tgpu",
                   help="the name of tgpu's row (e.g. for a PTX made without --tensor-cores)")
    opts = p.parse_args()

    tmp = tempfile.mkdtemp(prefix="bench_matmul.")
    ours = tgpu_variant(opts, tmp)
    variants = [ours]
    st = opts.num_stages
    triton = [(90, st, "Triton sm_90, %d stages" % st),
              (80, st, "Triton sm_80 (mma.sync), %d stages" % st),
              (80, 1, "Triton sm_80 (mma.sync), 1 stage")]
    for arch, stages, what in triton[:1] if opts.sm90_only else triton:
        try:
            variants.append(triton_variant(opts, tmp, arch, ours["warps"], stages, what))
        except Exception as e:  # report and go on with the others
            print("%s: not compiled: %s" % (what, str(e).strip().splitlines()[-1][:200]))

    name = os.path.basename(opts.ttir).rsplit(".", 1)[0]
    print("| kernel | variant | M=N=K | time (us) | TFLOP/s | time / tgpu |")
    print("|---|---|---|---|---|---|")
    for size in [int(s) for s in opts.sizes.split(",")]:
        grid = -(-size // opts.block_m) * -(-size // opts.block_n)
        base = None
        for v in variants:
            try:
                us = time_us(v, size, grid, opts.iters)
            except Exception as e:
                print("| %s | %s | %d | failed: %s | | |" % (name, v["what"], size, e))
                continue
            base = base or us
            print("| %s | %s | %d | %.1f | %.1f | %.2f |"
                  % (name, v["what"], size, us, 2.0 * size ** 3 / us / 1e6, us / base))
            sys.stdout.flush()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
