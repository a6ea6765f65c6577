#!/usr/bin/env python3
"""Kernels of the kinds Triton's tutorials teach (vector add, row softmax,
grouped-order matmul with a fused activation, dropout, layer norm forward and
backward with locks, attention forward and backward preprocessing, grouped
GEMM through pointer tables, persistent matmul, a libdevice call, 8-bit float
decoding and fp8 matmul), written for
this project, at sizes that do not fill whole blocks. Each launch is checked
against PyTorch here; run under oracles/gpu/launch_check.py each launch is also
compiled by tgpu and compared with Triton's result on the same inputs.

usage: tutorial_style.py [NAME...]   (default: all; names as in CASES)"""
import sys

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

DEV = "cuda"


def close(name, got, want, atol, rtol=0.0):
    err = (got.double() - want.double()).abs().max().item()
    ok = torch.allclose(got.double(), want.double(), atol=atol, rtol=rtol)
    print("%-24s %s (max |error| %.3g)" % (name, "ok" if ok else "WRONG", err))
    return ok


# -- elementwise ---------------------------------------------------------------
@triton.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    y = tl.load(y_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, alpha * x + y, mask=keep)


def case_axpy():
    n = 70001
    x, y = torch.randn(n, device=DEV), torch.randn(n, device=DEV)
    out = torch.empty_like(x)
    axpy_kernel[(triton.cdiv(n, 1024),)](x, y, out, 0.75, n, BLOCK=1024)
    return close("axpy", out, 0.75 * x + y, 1e-6)


@triton.jit
def arcsine_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep, other=0.0)
    tl.store(out_ptr + offs, libdevice.asin(x), mask=keep)


def case_libdevice():
    n = 5000
    x = torch.rand(n, device=DEV) * 2 - 1
    out = torch.empty_like(x)
    arcsine_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
    return close("libdevice asin", out, torch.asin(x), 1e-5)


@triton.jit
def fp8_decode_kernel(e5_ptr, e4_ptr, out5_ptr, out4_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out5_ptr + offs, tl.load(e5_ptr + offs).to(tl.float32))
    tl.store(out4_ptr + offs, tl.load(e4_ptr + offs).to(tl.float32))


def case_fp8_decode():
    # Every byte in both 8-bit float formats, NaNs, infinities, subnormals
    # and negative zero included.
    bits = torch.arange(256, device=DEV, dtype=torch.int32).to(torch.uint8)
    e5, e4 = bits.view(torch.float8_e5m2), bits.view(torch.float8_e4m3fn)
    out5 = torch.empty(256, device=DEV)
    out4 = torch.empty(256, device=DEV)
    fp8_decode_kernel[(1,)](e5, e4, out5, out4, BLOCK=256, num_warps=2)
    ok = True
    for name, got, want in (("f8E5M2", out5, e5.float()), ("f8E4M3FN", out4, e4.float())):
        same = torch.equal(got.view(torch.int32), want.view(torch.int32)) or (
            torch.equal(got.isnan(), want.isnan()) and
            torch.equal(got[~got.isnan()].view(torch.int32), want[~want.isnan()].view(torch.int32)))
        print("%-24s %s" % ("fp8 decode " + name, "ok" if same else "WRONG"))
        ok &= same
    return ok


# -- softmax: a persistent grid walks the rows, the loop pipelined ------------
@triton.jit
def softmax_rows_kernel(out_ptr, in_ptr, in_stride, out_stride, rows, cols,
                        BLOCK: tl.constexpr, STAGES: tl.constexpr):
    cols_idx = tl.arange(0, BLOCK)
    for r in tl.range(tl.program_id(0), rows, tl.num_programs(0), num_stages=STAGES):
        x = tl.load(in_ptr + r * in_stride + cols_idx, mask=cols_idx < cols, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        e = tl.exp(z)
        tl.store(out_ptr + r * out_stride + cols_idx, e / tl.sum(e, axis=0), mask=cols_idx < cols)


def case_softmax():
    x = torch.randn(333, 781, device=DEV)
    y = torch.empty_like(x)
    softmax_rows_kernel[(64,)](y, x, x.stride(0), y.stride(0), 333, 781, BLOCK=1024, STAGES=3,
                               num_warps=8)
    return close("softmax", y, torch.softmax(x, dim=1), 1e-6)


# -- matmul: grouped tile order, fused activation, fp16 -------------------------
@triton.jit
def leaky(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                ACT: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    first_m = (pid // per_group) * GROUP
    group_rows = min(tiles_m - first_m, GROUP)
    tm = first_m + (pid % per_group) % group_rows
    tn = (pid % per_group) // group_rows
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        acc = tl.dot(tl.load(a, mask=rk[None, :] < left, other=0.0),
                     tl.load(b, mask=rk[:, None] < left, other=0.0), acc)
        a += BK * sak
        b += BK * sbk
    if ACT:
        acc = leaky(acc)
    cm = tm * BM + tl.arange(0, BM)
    cn = tn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * scm + cn[None, :] * scn, acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def case_matmul():
    ok = True
    for (M, N, K), (bm, bn, bk, w, s), act in (((300, 260, 200), (128, 128, 64, 4, 3), False),
                                              ((257, 129, 320), (64, 64, 32, 4, 4), True),
                                              ((512, 512, 512), (128, 256, 64, 8, 3), False)):
        a = torch.randn(M, K, device=DEV, dtype=torch.float16) * 0.5
        b = torch.randn(K, N, device=DEV, dtype=torch.float16) * 0.5
        c = torch.empty(M, N, device=DEV, dtype=torch.float16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        gemm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                          c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk, GROUP=8, ACT=act,
                          num_warps=w, num_stages=s)
        want = a.float() @ b.float()
        if act:
            want = torch.where(want >= 0, want, 0.01 * want)
        ok &= close("matmul %dx%dx%d" % (M, N, K), c, want, 5e-2, 1e-2)
    # 8-bit float operands, f32 accumulation; B column-major as fp8 dots on
    # Hopper read it.
    for dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
        M, N, K = 192, 160, 256
        a = (torch.randn(M, K, device=DEV) * 0.5).to(dtype)
        b = (torch.randn(N, K, device=DEV) * 0.5).to(dtype).T
        c = torch.empty(M, N, device=DEV, dtype=torch.float16)
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
        gemm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                          c.stride(0), c.stride(1), BM=64, BN=64, BK=64, GROUP=4, ACT=False,
                          num_warps=4, num_stages=3)
        ok &= close("matmul %s" % str(dtype)[6:], c, a.float() @ b.float(), 5e-2, 1e-2)
    return ok


@triton.jit
def persistent_gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                           PROGRAMS: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for tile in range(tl.program_id(0), tiles, PROGRAMS):
        tm = tile // tiles_n
        tn = tile % tiles_n
        rm = tm * BM + tl.arange(0, BM)
        rn = tn * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            rk = k0 + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :],
                        mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :],
                        mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc.to(tl.float16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


def case_persistent_matmul():
    M, N, K = 384, 320, 256
    a = torch.randn(M, K, device=DEV, dtype=torch.float16) * 0.5
    b = torch.randn(K, N, device=DEV, dtype=torch.float16) * 0.5
    c = torch.empty(M, N, device=DEV, dtype=torch.float16)
    persistent_gemm_kernel[(7,)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                 BM=128, BN=64, BK=64, PROGRAMS=7, num_warps=4, num_stages=3)
    return close("persistent matmul", c, a.float() @ b.float(), 5e-2, 1e-2)


@triton.jit
def grouped_gemm_kernel(a_table, b_table, c_table, dims, groups,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                        PROGRAMS: tl.constexpr):
    # Each group g is C_g = A_g B_g with row-major operands whose addresses come
    # from the tables; the programs share out the tiles of all groups.
    first = 0
    for g in range(groups):
        M = tl.load(dims + 3 * g)
        N = tl.load(dims + 3 * g + 1)
        K = tl.load(dims + 3 * g + 2)
        tiles_n = tl.cdiv(N, BN)
        tiles = tl.cdiv(M, BM) * tiles_n
        a_ptr = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
        b_ptr = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
        c_ptr = tl.load(c_table + g).to(tl.pointer_type(tl.float16))
        start = (tl.program_id(0) - first % PROGRAMS + PROGRAMS) % PROGRAMS
        for tile in range(start, tiles, PROGRAMS):
            rm = (tile // tiles_n) * BM + tl.arange(0, BM)
            rn = (tile % tiles_n) * BN + tl.arange(0, BN)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k0 in range(0, K, BK):
                rk = k0 + tl.arange(0, BK)
                a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                            mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
                b = tl.load(b_ptr + rk[:, None] * N + rn[None, :],
                            mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
                acc = tl.dot(a, b, acc)
            tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
                     mask=(rm[:, None] < M) & (rn[None, :] < N))
        first += tiles


def case_grouped_gemm():
    shapes = [(200, 136, 96), (64, 64, 64), (130, 72, 160)]
    A = [torch.randn(m, k, device=DEV, dtype=torch.float16) * 0.5 for m, n, k in shapes]
    B = [torch.randn(k, n, device=DEV, dtype=torch.float16) * 0.5 for m, n, k in shapes]
    C = [torch.empty(m, n, device=DEV, dtype=torch.float16) for m, n, k in shapes]
    table = lambda ts: torch.tensor([t.data_ptr() for t in ts], device=DEV, dtype=torch.int64)
    dims = torch.tensor([d for s in shapes for d in s], device=DEV, dtype=torch.int32)
    grouped_gemm_kernel[(5,)](table(A), table(B), table(C), dims, len(shapes),
                              BM=64, BN=64, BK=32, PROGRAMS=5, num_warps=4, num_stages=3)
    ok = True
    for i, (a, b, c) in enumerate(zip(A, B, C)):
        ok &= close("grouped gemm %d" % i, c, a.float() @ b.float(), 5e-2, 1e-2)
    return ok


# -- dropout ---------------------------------------------------------------------
@triton.jit
def dropout_seeded_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep_in = offs < n
    x = tl.load(x_ptr + offs, mask=keep_in)
    kept = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(kept, x / (1 - p), 0.0), mask=keep_in)


@triton.jit
def dropout_mask_kernel(x_ptr, keep_ptr, out_ptr, n, p, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep_in = offs < n
    x = tl.load(x_ptr + offs, mask=keep_in)
    kept = tl.load(keep_ptr + offs, mask=keep_in)
    tl.store(out_ptr + offs, tl.where(kept != 0, x / (1 - p), 0.0), mask=keep_in)


def case_dropout():
    n, p = 10007, 0.3
    x = torch.randn(n, device=DEV)
    out, out2 = torch.empty_like(x), torch.empty_like(x)
    dropout_seeded_kernel[(triton.cdiv(n, 1024),)](x, out, n, p, 1234, BLOCK=1024)
    dropout_seeded_kernel[(triton.cdiv(n, 1024),)](x, out2, n, p, 1234, BLOCK=1024)
    kept = out != 0
    share = kept.float().mean().item()
    ok = close("dropout seeded", out[kept], x[kept] / (1 - p), 1e-5)
    ok &= torch.equal(out, out2) and abs(share - (1 - p)) < 0.03
    print("%-24s kept %.3f of the elements, same seed same mask: %s" % (
        "", share, torch.equal(out, out2)))
    keep = (torch.rand(n, device=DEV) > p).to(torch.int8)
    dropout_mask_kernel[(triton.cdiv(n, 1024),)](x, keep, out, n, p, BLOCK=1024)
    ok &= close("dropout with mask", out, torch.where(keep != 0, x / (1 - p), 0.0), 1e-6)
    return ok


# -- layer norm: forward, backward with per-group locks, weight-gradient sum -------
@triton.jit
def ln_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N, eps,
                  BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    keep = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=keep, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(keep, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(w_ptr + cols, mask=keep)
    b = tl.load(b_ptr + cols, mask=keep)
    tl.store(y_ptr + row * stride + cols, (d * rstd * w + b).to(tl.float16), mask=keep)


@triton.jit
def ln_bwd_dx_kernel(dx_ptr, dy_ptr, dw_part, db_part, x_ptr, w_ptr, mean_ptr, rstd_ptr,
                     locks, stride, N, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    # dx per row; the row's contribution to dw and db is added to one of GROUPS
    # partial rows, each guarded by a spin lock; a second word counts writers so
    # the first writer stores instead of adding.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    keep = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=keep, other=0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=keep, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=keep).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = tl.where(keep, (x - mean) * rstd, 0.0)
    wdy = tl.where(keep, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(dx_ptr + row * stride + cols, ((wdy - (xhat * c1 + c2)) * rstd).to(tl.float16),
             mask=keep)
    g = row % GROUPS
    lock = locks + g
    count = locks + GROUPS + g
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    dw = (dy * xhat).to(tl.float32)
    db = dy
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        dw += tl.load(dw_part + g * N + cols, mask=keep)
        db += tl.load(db_part + g * N + cols, mask=keep)
    tl.store(dw_part + g * N + cols, dw, mask=keep)
    tl.store(db_part + g * N + cols, db, mask=keep)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def ln_bwd_dwdb_kernel(dw_part, db_part, dw_ptr, db_ptr, groups, N,
                       BR: tl.constexpr, BC: tl.constexpr):
    cols = tl.program_id(0) * BC + tl.arange(0, BC)
    dw = tl.zeros((BR, BC), dtype=tl.float32)
    db = tl.zeros((BR, BC), dtype=tl.float32)
    for r0 in range(0, groups, BR):
        rows = r0 + tl.arange(0, BR)
        m = (rows[:, None] < groups) & (cols[None, :] < N)
        dw += tl.load(dw_part + rows[:, None] * N + cols[None, :], mask=m, other=0.0)
        db += tl.load(db_part + rows[:, None] * N + cols[None, :], mask=m, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(db_ptr + cols, tl.sum(db, axis=0), mask=cols < N)


def case_layernorm():
    M, N, eps, groups = 150, 700, 1e-5, 16
    x = (torch.randn(M, N, device=DEV) * 2 + 0.5).half()
    w = torch.rand(N, device=DEV) + 0.5
    b = torch.randn(N, device=DEV)
    dy = torch.randn(M, N, device=DEV).half()
    y = torch.empty_like(x)
    mean = torch.empty(M, device=DEV)
    rstd = torch.empty(M, device=DEV)
    ln_fwd_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK=1024, num_warps=4)
    xr = x.float().requires_grad_()
    wr = w.clone().requires_grad_()
    br = b.clone().requires_grad_()
    ref = torch.nn.functional.layer_norm(xr, (N,), wr, br, eps)
    ok = close("layernorm forward", y, ref, 2e-2)
    ref.backward(dy.float())
    dx = torch.empty_like(x)
    dw_part = torch.zeros(groups, N, device=DEV)
    db_part = torch.zeros(groups, N, device=DEV)
    locks = torch.zeros(2 * groups, device=DEV, dtype=torch.int32)
    ln_bwd_dx_kernel[(M,)](dx, dy, dw_part, db_part, x, w, mean, rstd, locks, x.stride(0), N,
                           GROUPS=groups, BLOCK=1024, num_warps=8)
    dw = torch.empty_like(w)
    db = torch.empty_like(b)
    ln_bwd_dwdb_kernel[(triton.cdiv(N, 128),)](dw_part, db_part, dw, db, groups, N, BR=32,
                                               BC=128, num_warps=4)
    ok &= close("layernorm dx", dx, xr.grad, 2e-2)
    ok &= close("layernorm dw", dw, wr.grad, 5e-2, 1e-3)
    ok &= close("layernorm db", db, br.grad, 5e-2, 1e-3)
    return ok


# -- attention -------------------------------------------------------------------
@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, scale, s_bh, s_t, T,
                         D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                         CAUSAL: tl.constexpr):
    # One program per (block of BM queries, batch-head); keys walked BN at a
    # time with the running max and sum of the online softmax, base 2.
    bh = tl.program_id(1)
    qm = tl.program_id(0) * BM + tl.arange(0, BM)
    d = tl.arange(0, D)
    base = bh * s_bh
    q = tl.load(q_ptr + base + qm[:, None] * s_t + d[None, :], mask=qm[:, None] < T, other=0.0)
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    qk_scale = scale * 1.4426950408889634
    hi = tl.minimum((tl.program_id(0) + 1) * BM, T) if CAUSAL else T
    for n0 in range(0, hi, BN):
        kn = n0 + tl.arange(0, BN)
        k = tl.load(k_ptr + base + kn[None, :] * s_t + d[:, None], mask=kn[None, :] < T, other=0.0)
        s = tl.dot(q, k) * qk_scale
        valid = kn[None, :] < T
        if CAUSAL:
            valid = valid & (qm[:, None] >= kn[None, :])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + kn[:, None] * s_t + d[None, :], mask=kn[:, None] < T, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    tl.store(lse_ptr + bh * T + qm, m_i + tl.math.log2(l_i), mask=qm < T)
    tl.store(o_ptr + base + qm[:, None] * s_t + d[None, :], (acc / l_i[:, None]).to(tl.float16),
             mask=qm[:, None] < T)


@triton.jit
def attention_bwd_delta_kernel(o_ptr, do_ptr, delta_ptr, rows, D: tl.constexpr, BM: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    d = tl.arange(0, D)
    o = tl.load(o_ptr + r[:, None] * D + d[None, :], mask=r[:, None] < rows, other=0.0)
    do = tl.load(do_ptr + r[:, None] * D + d[None, :], mask=r[:, None] < rows, other=0.0)
    tl.store(delta_ptr + r, tl.sum(o.to(tl.float32) * do.to(tl.float32), axis=1), mask=r < rows)


def case_attention():
    ok = True
    BH, T, D = 3, 200, 64
    for causal in (False, True):
        q, k, v = (torch.randn(BH, T, D, device=DEV, dtype=torch.float16) * 0.5 for _ in range(3))
        o = torch.empty_like(q)
        lse = torch.empty(BH, T, device=DEV)
        attention_fwd_kernel[(triton.cdiv(T, 64), BH)](q, k, v, o, lse, 0.125, q.stride(0),
                                                       q.stride(1), T, D=D, BM=64, BN=32,
                                                       CAUSAL=causal, num_warps=4, num_stages=2)
        s = (q.float() @ k.float().transpose(1, 2)) * 0.125
        if causal:
            s = s.masked_fill(torch.ones(T, T, device=DEV).triu(1).bool(), -float("inf"))
        ok &= close("attention causal=%d" % causal, o, torch.softmax(s, -1) @ v.float(), 2e-2)
    do = torch.randn_like(o)
    delta = torch.empty(BH * T, device=DEV)
    attention_bwd_delta_kernel[(triton.cdiv(BH * T, 128),)](o, do, delta, BH * T, D=D, BM=128)
    ok &= close("attention delta", delta, (o.float() * do.float()).sum(-1).reshape(-1), 1e-3)
    return ok


CASES = {"axpy": case_axpy, "libdevice": case_libdevice, "fp8_decode": case_fp8_decode,
         "softmax": case_softmax,
         "matmul": case_matmul, "persistent_matmul": case_persistent_matmul,
         "grouped_gemm": case_grouped_gemm, "dropout": case_dropout,
         "layernorm": case_layernorm, "attention": case_attention}


def main():
    names = sys.argv[1:] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit("unknown case(s): %s; known: %s" % (", ".join(unknown), ", ".join(CASES)))
    torch.manual_seed(0)
    bad = [n for n in names if not CASES[n]()]
    print("Triton against PyTorch: %d of %d cases right%s" % (
        len(names) - len(bad), len(names), (" (wrong: %s)" % ", ".join(bad)) if bad else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
