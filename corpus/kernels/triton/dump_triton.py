#!/usr/bin/env python3
"""Dump the TTIR and TTGIR that Triton 3.x prints for a set of small kernels.

Runs on the GPU machine (Triton + PyTorch + a CUDA GPU). Each kernel is launched
once on real data and its result checked against PyTorch, so the dumped IR is
IR of a kernel that works. Kernels that only need compiling for another target
(sm_80, for mma v2 / cp.async) are compiled with triton.compile.

Usage: dump_triton.py OUTDIR
Writes OUTDIR/<name>.ttir, OUTDIR/<name>.ttgir (machine paths stripped from
locations) and OUTDIR/manifest.txt (name, target, num_warps, status).
"""
import os
import re
import sys
import traceback

import torch
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

OUT = sys.argv[1] if len(sys.argv) > 1 else "triton-dumps"
os.makedirs(OUT, exist_ok=True)
manifest = []


def strip_paths(text):
    # loc("/some/machine/path/file.py":12:3) -> loc("dump_triton.py":12:3)
    return re.sub(r'"[^"\n]*/([^"/\n]+\.py)"', r'"\1"', text)


def save(name, compiled, target, num_warps, note=""):
    for key in ("ttir", "ttgir"):
        with open(os.path.join(OUT, f"{name}.{key}"), "w") as f:
            f.write(strip_paths(compiled.asm[key]))
    manifest.append(f"{name}\t{target}\tnum_warps={num_warps}\tok\t{note}")


ONLY = [n for n in os.environ.get("ONLY", "").split(",") if n]


def attempt(name, fn):
    if ONLY and name not in ONLY:
        return
    try:
        fn()
    except Exception:
        manifest.append(f"{name}\t-\t-\tFAILED\t" + traceback.format_exc().replace("\n", " | "))


# ---------------------------------------------------------------- kernels
@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, num / den, mask=mask)


@triton.jit
def layernorm(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < n, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n, other=0.).to(tl.float32)
        x = tl.where(cols < n, x - mean, 0.)
        acc += x * x
    var = tl.sum(acc, axis=0) / n
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = GROUP_M * num_n
    gid = pid // group
    first_m = gid * GROUP_M
    gsize = min(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % group) % gsize)
    pid_n = (pid % group) // gsize
    offs_m = (pid_m * BM + tl.arange(0, BM)) % M
    offs_n = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(tl.float16)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + scm * cm[:, None] + scn * cn[None, :], c, mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def transpose(in_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(in_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=mask)


@triton.jit
def trans_op(in_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(in_ptr + rm[:, None] * BN + rn[None, :])
    y = tl.trans(x)
    tl.store(out_ptr + rn[:, None] * BM + rm[None, :], y)


@triton.jit
def row_sum_loop(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def misc_ops(x_ptr, i_ptr, out_ptr, iout_ptr, cnt_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    # scan, argmax-style reduce, clamp, precise ops, umulhi, bitcast, fp8 casts
    cs = tl.cumsum(x, axis=0)
    mx, idx = tl.max(x, axis=0, return_indices=True)
    c = tl.clamp(x, -0.5, 0.5)
    s = tl.sqrt_rn(tl.abs(x)) + tl.div_rn(x, 3.0)
    hi = tl.umulhi(i.to(tl.uint32), 0x9E3779B9)
    bits = x.to(tl.int32, bitcast=True)
    f8 = x.to(tl.float8e5).to(tl.float32)
    h = tl.histogram(i & 15, 16)
    j = tl.join(x, c)
    a, b = tl.split(j)
    r = tl.reshape(cs, (BLOCK // 2, 2))
    r2 = tl.sum(r, axis=1)
    g = tl.gather(x, (i & (BLOCK - 1)).to(tl.int32), axis=0)
    srt = tl.sort(x)
    tl.store(out_ptr + offs, cs + c + s + f8 + a * b + g + srt + mx)
    tl.store(out_ptr + BLOCK + tl.arange(0, BLOCK // 2), tl.expand_dims(r2, 0).sum(0))
    tl.store(iout_ptr + offs, (hi ^ bits.to(tl.uint32)).to(tl.int32) + idx)
    tl.store(iout_ptr + BLOCK + tl.arange(0, 16), h)
    tl.atomic_add(cnt_ptr + (i & 3), 1)
    tl.atomic_max(cnt_ptr + 4 + (i & 3), i)
    tl.atomic_cas(cnt_ptr + 8, 0, 1)
    tl.atomic_xchg(cnt_ptr + 9, 7, mask=offs == 0)


@triton.jit
def cat_and_asm(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    z = tl.cat(x, y, can_reorder=True)
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), z)


@triton.jit
def libdevice_and_assert(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.device_assert(offs >= 0, "negative offset")
    y = tl.extra.cuda.libdevice.tanh(x) + tl.math.erf(x) + tl.math.rsqrt(tl.abs(x) + 1.0)
    y = tl.math.fma(y, x, 1.0) + tl.math.log2(tl.abs(x) + 1.0) + tl.sin(x) * tl.cos(x)
    if tl.program_id(0) == 0:
        tl.device_print("y", y)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def while_loop(x_ptr, out_ptr, n):
    i = 0
    acc = 0.0
    while i < n:
        acc += tl.load(x_ptr + i)
        i += 1
    tl.store(out_ptr, acc)


@triton.jit
def mixed_types(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)  # bf16
    b = tl.load(b_ptr + offs)  # int8
    c = a.to(tl.float32) * b.to(tl.float32)
    d = tl.where(c > 0, c, -c).to(tl.float16).to(tl.float64)
    e = (b.to(tl.int64) << 3) // 5 % 7
    tl.store(out_ptr + offs, (d + e.to(tl.float64)).to(tl.float32), eviction_policy="evict_last", cache_modifier=".cg")


# misc_ops above does not parse in Triton 3.6 (kept as the record of that);
# the same ops are split into small kernels that each compile and are checked.
@triton.jit
def scan_ops(x_ptr, cs_ptr, cp_ptr, cm_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(cs_ptr + offs, tl.cumsum(x, axis=1))
    tl.store(cp_ptr + offs, tl.cumsum(x, axis=0, reverse=True))
    tl.store(cm_ptr + offs, tl.associative_scan(x, 1, _max_combine))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def join_split_reshape(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    j = tl.join(x, y)                       # [BLOCK, 2]
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), tl.reshape(j, (2 * BLOCK,)))
    a, b = tl.split(j)
    r = tl.reshape(a * 2.0 - b, (BLOCK // 16, 16))
    s = tl.sum(r, axis=1)
    tl.store(out_ptr + 2 * BLOCK + tl.arange(0, BLOCK // 16), s)
    p = tl.permute(tl.reshape(x, (4, BLOCK // 4)), (1, 0))
    tl.store(out_ptr + 2 * BLOCK + BLOCK // 16 + tl.arange(0, BLOCK // 4)[:, None] * 4
             + tl.arange(0, 4)[None, :], p)


@triton.jit
def argmax_rows(x_ptr, val_ptr, idx_ptr, C: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * C + tl.arange(0, C))
    v, i = tl.max(x, axis=0, return_indices=True)
    tl.store(val_ptr + row, v)
    tl.store(idx_ptr + row, i)


@triton.jit
def gather_hist(x_ptr, i_ptr, out_ptr, h_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(x, i & (BLOCK - 1), axis=0))
    tl.store(h_ptr + tl.arange(0, 16), tl.histogram(i & 15, 16))


@triton.jit
def precise_math(x_ptr, u_ptr, out_ptr, uout_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    u = tl.load(u_ptr + offs)
    y = tl.sqrt_rn(tl.abs(x)) + tl.div_rn(x, 3.0) + tl.clamp(x, -0.5, 0.5)
    tl.store(out_ptr + offs, y)
    tl.store(uout_ptr + offs, tl.umulhi(u, 0x9E3779B9))


@triton.jit
def softmax_rows_stages(out_ptr, in_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    # Persistent rows with a stage count of their own: Triton pipelines the
    # row load although no dot reads it.
    cols = tl.arange(0, BLOCK)
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=3):
        x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@triton.jit
def row_sum_stages(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # The pipelined load feeds a loop-carried sum.
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in tl.range(0, n_cols, BLOCK, num_stages=4):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # One block of query rows against every key: online softmax, the
    # probabilities (computed in registers) as the second dot's A.
    pid = tl.program_id(0)
    offs_m = pid * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, n_ctx, BN):
        offs_n = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + offs_n[None, :] * D + offs_d[:, None])
        s = tl.dot(q, kt) * sm_scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + offs_n[:, None] * D + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o_ptr + offs_m[:, None] * D + offs_d[None, :], acc / l_i[:, None])


@triton.jit
def matmul_typed(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                 ACC: tl.constexpr, TO_FP8: tl.constexpr):
    # Row-major A [M, K], B [K, N], C [M, N] in whole tiles; the
    # accumulator type ACC (f16 for an f16 accumulator, int32 for i8
    # inputs); TO_FP8 converts the loaded f16 operands to fp8 e4m3 first.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    N = tl.num_programs(1) * BN
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + offs_m[:, None] * K + (k0 + offs_k)[None, :])
        b = tl.load(b_ptr + (k0 + offs_k)[:, None] * N + offs_n[None, :])
        if TO_FP8:
            a = a.to(tl.float8e4nv)
            b = b.to(tl.float8e4nv)
        acc = tl.dot(a, b, acc, out_dtype=ACC)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)


def dev(shape, dtype=torch.float32):
    return torch.randn(shape, device="cuda").to(dtype)


def run_all():
    # vector add, several num_warps
    for nw in (1, 4, 8):
        def f(nw=nw):
            n = 98432
            x, y = dev(n), dev(n)
            out = torch.empty_like(x)
            k = vector_add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, num_warps=nw)
            assert torch.allclose(out, x + y)
            save(f"vector_add_w{nw}", k, "cuda:90", nw)
        attempt(f"vector_add_w{nw}", f)

    def f():
        x = dev((123, 781))
        out = torch.empty_like(x)
        k = softmax[(123,)](out, x, x.stride(0), out.stride(0), 781, BLOCK=1024, num_warps=8)
        assert torch.allclose(out, torch.softmax(x, 1), atol=1e-5)
        save("softmax", k, "cuda:90", 8)
    attempt("softmax", f)

    def f():
        M, N = 64, 1000
        x = dev((M, N), torch.float16)
        w, b = dev(N), dev(N)
        y = torch.empty_like(x)
        mean = torch.empty(M, device="cuda")
        rstd = torch.empty(M, device="cuda")
        k = layernorm[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK=256, num_warps=4)
        ref = torch.nn.functional.layer_norm(x.float(), (N,), w, b, 1e-5).half()
        assert torch.allclose(y, ref, atol=2e-2)
        save("layernorm", k, "cuda:90", 4)
    attempt("layernorm", f)

    for (bm, bn, bk, nw, ns) in ((128, 128, 64, 4, 3), (128, 256, 64, 8, 3), (64, 64, 32, 4, 2)):
        name = f"matmul_f16_{bm}x{bn}x{bk}_w{nw}_s{ns}"
        def f(bm=bm, bn=bn, bk=bk, nw=nw, ns=ns, name=name):
            M, N, K = 512, 512, 256
            a, b = dev((M, K), torch.float16), dev((K, N), torch.float16)
            c = torch.empty((M, N), device="cuda", dtype=torch.float16)
            grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
            k = matmul[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                             c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk, GROUP_M=8, num_warps=nw, num_stages=ns)
            assert torch.allclose(c.float(), (a.float() @ b.float()), atol=0.5, rtol=1e-2)
            save(name, k, "cuda:90", nw)
        attempt(name, f)

    def f():
        M, N = 300, 500
        x = dev((M, N))
        out = torch.empty((N, M), device="cuda")
        k = transpose[(triton.cdiv(M, 64), triton.cdiv(N, 64))](x, out, M, N, BM=64, BN=64, num_warps=4)
        assert torch.equal(out, x.t())
        save("transpose", k, "cuda:90", 4)
    attempt("transpose", f)

    def f():
        x = dev((32, 64))
        out = torch.empty((64, 32), device="cuda")
        k = trans_op[(1,)](x, out, BM=32, BN=64, num_warps=4)
        assert torch.equal(out, x.t())
        save("trans_op", k, "cuda:90", 4)
    attempt("trans_op", f)

    def f():
        x = dev((16, 3000))
        out = torch.empty(16, device="cuda")
        k = row_sum_loop[(16,)](x, out, 3000, x.stride(0), BLOCK=512, num_warps=4)
        assert torch.allclose(out, x.sum(1), atol=1e-3)
        save("row_sum_loop", k, "cuda:90", 4)
    attempt("row_sum_loop", f)

    def f():
        B = 64
        x = dev(B)
        i = torch.randint(0, 1000, (B,), device="cuda", dtype=torch.int32)
        out = torch.zeros(2 * B, device="cuda")
        iout = torch.zeros(B + 16, device="cuda", dtype=torch.int32)
        cnt = torch.zeros(16, device="cuda", dtype=torch.int32)
        k = misc_ops[(1,)](x, i, out, iout, cnt, BLOCK=B, num_warps=2)
        torch.cuda.synchronize()
        save("misc_ops", k, "cuda:90", 2)
    attempt("misc_ops", f)

    def f():
        x = dev(128)
        out = torch.empty(256, device="cuda")
        k = cat_and_asm[(1,)](x, out, BLOCK=128, num_warps=4)
        torch.cuda.synchronize()
        save("cat_and_asm", k, "cuda:90", 4, "tt.cat may reorder; not value-checked")
    attempt("cat_and_asm", f)

    def f():
        x = dev(100)
        out = torch.empty(100, device="cuda")
        k = libdevice_and_assert[(1,)](x, out, 100, BLOCK=128, num_warps=4)
        torch.cuda.synchronize()
        save("libdevice_and_assert", k, "cuda:90", 4)
    attempt("libdevice_and_assert", f)

    def f():
        x = dev(10)
        out = torch.empty(1, device="cuda")
        k = while_loop[(1,)](x, out, 10, num_warps=1)
        assert torch.allclose(out, x.sum(), atol=1e-5)
        save("while_loop", k, "cuda:90", 1)
    attempt("while_loop", f)

    def f():
        a = dev(256, torch.bfloat16)
        b = torch.randint(-100, 100, (256,), device="cuda", dtype=torch.int8)
        out = torch.empty(256, device="cuda")
        k = mixed_types[(1,)](a, b, out, BLOCK=256, num_warps=4)
        torch.cuda.synchronize()
        save("mixed_types", k, "cuda:90", 4)
    attempt("mixed_types", f)

    def f():
        R, C = 16, 64
        x = dev((R, C))
        cs, cp, cm = (torch.empty_like(x) for _ in range(3))
        k = scan_ops[(1,)](x, cs, cp, cm, R=R, C=C, num_warps=4)
        assert torch.allclose(cs, x.cumsum(1), atol=1e-4)
        assert torch.allclose(cp, x.flip(0).cumsum(0).flip(0), atol=1e-4)
        assert torch.equal(cm, x.cummax(1).values)
        save("scan_ops", k, "cuda:90", 4)
    attempt("scan_ops", f)

    def f():
        B = 256
        x, y = dev(B), dev(B)
        out = torch.empty(2 * B + B // 16 + B, device="cuda")
        k = join_split_reshape[(1,)](x, y, out, BLOCK=B, num_warps=4)
        assert torch.equal(out[:2 * B], torch.stack([x, y], 1).reshape(-1))
        assert torch.allclose(out[2 * B:2 * B + B // 16], (x * 2 - y).reshape(B // 16, 16).sum(1), atol=1e-4)
        assert torch.equal(out[2 * B + B // 16:], x.reshape(4, B // 4).t().reshape(-1))
        save("join_split_reshape", k, "cuda:90", 4)
    attempt("join_split_reshape", f)

    def f():
        R, C = 8, 512
        x = dev((R, C))
        v = torch.empty(R, device="cuda")
        i = torch.empty(R, device="cuda", dtype=torch.int32)
        k = argmax_rows[(R,)](x, v, i, C=C, num_warps=4)
        assert torch.equal(v, x.max(1).values) and torch.equal(i.long(), x.argmax(1))
        save("argmax_rows", k, "cuda:90", 4)
    attempt("argmax_rows", f)

    def f():
        B = 128
        x = dev(B)
        i = torch.randint(0, 1000, (B,), device="cuda", dtype=torch.int32)
        out = torch.empty(B, device="cuda")
        h = torch.empty(16, device="cuda", dtype=torch.int32)
        k = gather_hist[(1,)](x, i, out, h, BLOCK=B, num_warps=4)
        assert torch.equal(out, x[(i & (B - 1)).long()])
        assert torch.equal(h.long(), torch.bincount((i & 15).long(), minlength=16))
        save("gather_hist", k, "cuda:90", 4)
    attempt("gather_hist", f)

    def f():
        B = 256
        x = dev(B)
        u = torch.randint(0, 2**31 - 1, (B,), device="cuda", dtype=torch.int32)
        out = torch.empty(B, device="cuda")
        uout = torch.empty(B, device="cuda", dtype=torch.int32)
        k = precise_math[(1,)](x, u, out, uout, BLOCK=B, num_warps=4)
        ref = torch.sqrt(x.abs()) + x / 3.0 + x.clamp(-0.5, 0.5)
        assert torch.allclose(out, ref, atol=1e-5)
        save("precise_math", k, "cuda:90", 4)
    attempt("precise_math", f)

    def f():
        x = dev((37, 784))
        out = torch.zeros_like(x)
        k = softmax_rows_stages[(8,)](out, x, 37, 781, 784, BLOCK=1024, num_warps=4)
        assert torch.allclose(out[:, :781], torch.softmax(x[:, :781], dim=1), atol=1e-6)
        save("softmax_rows_stages", k, "cuda:90", 4)
    attempt("softmax_rows_stages", f)

    def f():
        x = dev((5, 1000))
        out = torch.zeros(5, device="cuda")
        k = row_sum_stages[(5,)](x, out, 1000, 1000, BLOCK=128, num_warps=4)
        assert torch.allclose(out, x.sum(1), atol=1e-3)
        save("row_sum_stages", k, "cuda:90", 4)
    attempt("row_sum_stages", f)

    # wgmma beyond f16 x f16 -> f32 from shared memory: A in registers
    # (attention's probabilities; fp8 converted in the kernel), an f16
    # accumulator, i8 -> i32.
    for (bm, nw, ns) in ((64, 4, 2), (128, 8, 2)):
        name = f"attention_fwd_{bm}_w{nw}_s{ns}"
        def f(bm=bm, nw=nw, ns=ns, name=name):
            n_ctx, D = 256, 64
            q, k, v = (dev((2 * bm, D), torch.float16), dev((n_ctx, D), torch.float16),
                       dev((n_ctx, D), torch.float16))
            o = torch.empty((2 * bm, D), device="cuda")
            kern = attention_fwd[(2,)](q, k, v, o, n_ctx, 0.125, BM=bm, BN=64, D=D,
                                       num_warps=nw, num_stages=ns)
            ref = torch.softmax((q.float() @ k.float().T) * 0.125, 1) @ v.float()
            assert torch.allclose(o, ref, atol=2e-2, rtol=2e-2)
            save(name, kern, "cuda:90", nw)
        attempt(name, f)
    for (name, acc, fp8, dt) in (("matmul_f16acc", tl.float16, False, torch.float16),
                                 ("matmul_i8", tl.int32, False, torch.int8),
                                 ("matmul_fp8", tl.float32, True, torch.float16)):
        def f(name=name, acc=acc, fp8=fp8, dt=dt):
            M, N, K = 128, 128, 256
            if dt == torch.int8:
                a = torch.randint(-100, 100, (M, K), device="cuda", dtype=torch.int8)
                b = torch.randint(-100, 100, (K, N), device="cuda", dtype=torch.int8)
                c = torch.empty((M, N), device="cuda", dtype=torch.int32)
            else:
                a, b = dev((M, K), dt), dev((K, N), dt)
                c = torch.empty((M, N), device="cuda",
                                dtype=torch.float16 if acc == tl.float16 else torch.float32)
            kern = matmul_typed[(M // 64, N // 64)](a, b, c, K, BM=64, BN=64, BK=64, ACC=acc,
                                                     TO_FP8=fp8, num_warps=4, num_stages=3)
            if dt == torch.int8:
                assert torch.equal(c.cpu(), a.cpu().int() @ b.cpu().int())
            elif fp8:
                fa, fb = a.to(torch.float8_e4m3fn).float(), b.to(torch.float8_e4m3fn).float()
                assert torch.allclose(c, fa @ fb, atol=0.5, rtol=2e-2)
            else:
                assert torch.allclose(c.float(), a.float() @ b.float(), atol=0.5, rtol=2e-2)
            save(name, kern, "cuda:90", 4)
        attempt(name, f)

    # sm_80: mma v2, dot_op with kWidth, swizzled shared, cp.async pipelining (compile only)
    for (name, dt) in (("matmul_f16_sm80", "*fp16"), ("matmul_f32_sm80_tf32", "*fp32")):
        def f(name=name, dt=dt):
            sig = {"a_ptr": dt, "b_ptr": dt, "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                   "sam": "i32", "sak": "i32", "sbk": "i32", "sbn": "i32", "scm": "i32", "scn": "i32"}
            src = triton.compiler.ASTSource(fn=matmul, signature=sig,
                                            constexprs={"BM": 128, "BN": 64, "BK": 32, "GROUP_M": 8})
            k = triton.compile(src, target=GPUTarget("cuda", 80, 32), options={"num_warps": 4, "num_stages": 3})
            save(name, k, "cuda:80", 4)
        attempt(name, f)


def dump_layouts(path):
    """Triton's own LinearLayouts for random attributes (data for the layout issue)."""
    import json
    import random
    from triton._C.libtriton import ir, gluon_ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    rng = random.Random(20261122)
    names = [n for n in dir(b) if "layout" in n.lower()]
    out = open(path, "w")
    out.write(json.dumps({"builder_methods": names}) + "\n")

    def pow2s(total, rank):
        parts = [1] * rank
        while total > 1:
            parts[rng.randrange(rank)] *= 2
            total //= 2
        return parts

    def emit(kind, params, shape, fn):
        rec = {"kind": kind, "params": params, "shape": shape}
        try:
            ll = fn()
            rec["ll"] = str(ll)
            for attr in ("bases", "get_bases", "out_dims", "get_out_dims"):
                if hasattr(ll, attr):
                    v = getattr(ll, attr)
                    rec[attr] = v() if callable(v) else v
        except Exception as e:
            rec["error"] = f"{type(e).__name__}: {e}"
        out.write(json.dumps(rec, default=str) + "\n")

    for _ in range(400):
        rank = rng.choice([1, 2, 2, 3])
        nw = rng.choice([1, 2, 4, 8])
        spt = [rng.choice([1, 1, 2, 4, 8]) for _ in range(rank)]
        tpw = pow2s(32, rank)
        wpc = pow2s(nw, rank)
        order = list(range(rank))
        rng.shuffle(order)
        shape = [rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 256]) for _ in range(rank)]
        params = {"spt": spt, "tpw": tpw, "wpc": wpc, "order": order}
        emit("blocked", params, shape,
             lambda: b.to_linear_layout(b.get_blocked_layout(spt, tpw, wpc, order, []), shape))
        if rank >= 2:
            d = rng.randrange(rank)
            sshape = shape[:d] + shape[d + 1:]
            emit("slice", dict(params, dim=d), sshape,
                 lambda: b.to_linear_layout(
                     b.get_slice_layout(d, b.get_blocked_layout(spt, tpw, wpc, order, [])), sshape))
    out.close()


if __name__ == "__main__":
    run_all()
    with open(os.path.join(OUT, "manifest.txt"), "w") as f:
        f.write(f"# triton {triton.__version__}, torch {torch.__version__}, "
                f"{torch.cuda.get_device_name()}\n")
        f.write("\n".join(manifest) + "\n")
    if ONLY:
        sys.exit(0)
    try:
        dump_layouts(os.path.join(OUT, "layouts.jsonl"))
    except Exception:
        with open(os.path.join(OUT, "layouts.jsonl"), "w") as f:
            f.write(traceback.format_exc())
