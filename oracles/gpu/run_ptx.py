#!/usr/bin/env python3
"""Runs one compiled kernel (PTX or cubin) on the GPU through the CUDA driver
API (ctypes, libcuda only) and writes every buffer argument's final contents
to OUT/argK.bin -- the files tgpu-run --dump writes for the same arguments, so
the two runs compare byte for byte (or within the float bounds of the op).

usage: run_ptx.py KERNEL.{ptx,cubin} --entry NAME --grid X[,Y[,Z]]
                  --threads N [--shared BYTES] --inputs DIR --out DIR
                  [--bench N] -- ARG...
With --bench N the buffers are sized from the ARGs (ptr:TYPE=KIND:COUNT),
zero-filled instead of read, and the kernel is timed over N launches (CUDA
events, after 3 warm-up launches); nothing is written.
ARG is what tgpu-run takes: ptr:TYPE=... (the buffer is read from
INPUTS/argK.bin, as tgpu-run --dump-inputs wrote it) or TYPE=VALUE for
scalars (i1 i8 i16 i32 i64 f16 f32 f64)."""
import argparse
import ctypes
import os
import struct
import sys


def fail(msg):
    sys.stderr.write("run_ptx: " + msg + "\n")
    sys.exit(1)


class Cuda:
    def __init__(self):
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            fail("cannot load libcuda.so.1: %s" % e)
        self.check(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ctx = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.ctx), dev),
                   "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")

    def check(self, rc, what):
        if rc != 0:
            name = ctypes.c_char_p()
            self.lib.cuGetErrorName(rc, ctypes.byref(name))
            fail("%s failed: %s (%d)" % (what, name.value.decode() if name.value else "?", rc))

    def load(self, image, entry):
        module = ctypes.c_void_p()
        log = ctypes.create_string_buffer(8192)
        # CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
        opts = (ctypes.c_int * 2)(5, 6)
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(len(log)))
        rc = self.lib.cuModuleLoadDataEx(ctypes.byref(module), image, 2, opts, vals)
        if rc != 0:
            sys.stderr.write(log.value.decode(errors="replace") + "\n")
            self.check(rc, "cuModuleLoadDataEx")
        func = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(func), module, entry.encode()),
                   "cuModuleGetFunction(%s)" % entry)
        return func

    def alloc(self, data):
        ptr = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(ptr), max(len(data), 1)), "cuMemAlloc")
        if data:
            self.check(self.lib.cuMemcpyHtoD_v2(ptr, data, len(data)), "cuMemcpyHtoD")
        return ptr

    def read(self, ptr, size):
        buf = ctypes.create_string_buffer(size)
        if size:
            self.check(self.lib.cuMemcpyDtoH_v2(buf, ptr, size), "cuMemcpyDtoH")
        return buf.raw


SCALARS = {"i1": "<B", "i8": "<b", "i16": "<h", "i32": "<i", "i64": "<q",
           "f16": "<e", "f32": "<f", "f64": "<d"}


def scalar_bytes(ty, text):
    if ty not in SCALARS:
        fail("unsupported scalar type %s" % ty)
    value = float(text) if ty.startswith("f") else int(text, 0)
    if ty.startswith("i") and ty != "i1":
        bits = int(ty[1:])
        value = (value + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
    return struct.pack(SCALARS[ty], value)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        fail("expected '--' before the kernel arguments")
    split = argv.index("--")
    p = argparse.ArgumentParser()
    p.add_argument("kernel")
    p.add_argument("--entry", required=True)
    p.add_argument("--grid", required=True)
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--shared", type=int, default=0)
    p.add_argument("--inputs", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--bench", type=int, default=0)
    opts = p.parse_args(argv[:split])
    specs = argv[split + 1:]

    grid = [int(g) for g in opts.grid.split(",")] + [1, 1]
    with open(opts.kernel, "rb") as f:
        image = f.read()
    if opts.kernel.endswith(".ptx"):
        image += b"\0"

    cuda = Cuda()
    func = cuda.load(image, opts.entry)
    if opts.shared > 48 * 1024:
        # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: beyond 48 KiB needs an opt-in.
        cuda.check(cuda.lib.cuFuncSetAttribute(func, 8, opts.shared), "cuFuncSetAttribute")
    holders, buffers = [], []
    for k, spec in enumerate(specs):
        if spec.startswith("ptr:") and opts.bench:
            ty, _, init = spec[4:].partition("=")
            count = int(init.split(":")[-1])
            size = count * {"i1": 1, "i8": 1, "i16": 2, "f16": 2, "bf16": 2,
                            "i32": 4, "f32": 4, "i64": 8, "f64": 8}[ty]
            data = bytes(size)
            ptr = cuda.alloc(data)
            buffers.append((k, ptr, len(data)))
            holders.append(ctypes.c_uint64(ptr.value))
        elif spec.startswith("ptr:"):
            path = os.path.join(opts.inputs, "arg%d.bin" % k)
            with open(path, "rb") as f:
                data = f.read()
            ptr = cuda.alloc(data)
            buffers.append((k, ptr, len(data)))
            holders.append(ctypes.c_uint64(ptr.value))
        else:
            ty, _, text = spec.partition("=")
            raw = scalar_bytes(ty, text)
            holders.append(ctypes.create_string_buffer(raw, len(raw)))
    params = (ctypes.c_void_p * max(len(holders), 1))(
        *[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
    def launch():
        cuda.check(cuda.lib.cuLaunchKernel(func, grid[0], grid[1], grid[2], opts.threads, 1, 1,
                                           opts.shared, None, params, None), "cuLaunchKernel")

    if opts.bench:
        start, stop = ctypes.c_void_p(), ctypes.c_void_p()
        cuda.check(cuda.lib.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
        cuda.check(cuda.lib.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
        for _ in range(3):
            launch()
        cuda.check(cuda.lib.cuEventRecord(start, None), "cuEventRecord")
        for _ in range(opts.bench):
            launch()
        cuda.check(cuda.lib.cuEventRecord(stop, None), "cuEventRecord")
        cuda.check(cuda.lib.cuEventSynchronize(stop), "kernel execution")
        ms = ctypes.c_float()
        cuda.check(cuda.lib.cuEventElapsedTime(ctypes.byref(ms), start, stop), "cuEventElapsedTime")
        print("%.3f us per launch" % (ms.value * 1000.0 / opts.bench))
        return
    launch()
    cuda.check(cuda.lib.cuCtxSynchronize(), "kernel execution")
    os.makedirs(opts.out, exist_ok=True)
    for k, ptr, size in buffers:
        with open(os.path.join(opts.out, "arg%d.bin" % k), "wb") as f:
            f.write(cuda.read(ptr, size))


if __name__ == "__main__":
    main()
