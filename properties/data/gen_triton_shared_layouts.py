#!/usr/bin/env python3
"""Shared-memory layouts as Triton 3.6 really places them (run on the GPU).

Triton's gluon builder cannot hand out the LinearLayout of a shared layout
(to_linear_layout aborts on them), so this asks the hardware instead: a Gluon
kernel stores a tensor whose elements hold their own row (or column) index
into shared memory with the layout under test, reinterprets that buffer as a
flat unswizzled array, and copies it out. Word `offset` of the buffer then
names the element stored there, which is the layout's map offset -> element.

Writes one JSON object per line: {"kind", "params", "shape", "ll"} with "ll"
in the form "SharedLinearLayout(offset_bases=[...], block_bases=[])" (the
images of offsets 1, 2, 4, ...), plus "linear": whether every offset's element
is the XOR of the images of its bits (true for every real layout), or "ll":
"ERROR ..." when Triton rejects the case.

usage: gen_triton_shared_layouts.py OUT.jsonl [SEED] [COUNT_PER_KIND]
"""
import json
import random
import sys
import traceback

import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl


@gluon.jit
def dump_kernel(out_ptr, R: ttgl.constexpr, C: ttgl.constexpr, LAYOUT: ttgl.constexpr,
                WHICH: ttgl.constexpr, DT: ttgl.constexpr):
    blocked: ttgl.constexpr = ttgl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])
    rows = ttgl.arange(0, R, layout=ttgl.SliceLayout(1, blocked))
    cols = ttgl.arange(0, C, layout=ttgl.SliceLayout(0, blocked))
    if WHICH == 0:
        vals = rows[:, None] + cols[None, :] * 0
    else:
        vals = rows[:, None] * 0 + cols[None, :]
    smem = ttgl.allocate_shared_memory(DT, [R, C], LAYOUT, vals.to(DT))
    flat = smem._reinterpret(DT, [R * C], ttgl.SwizzledSharedLayout(1, 1, 1, [0]))
    lin: ttgl.constexpr = ttgl.BlockedLayout([1], [32], [4], [0])
    v = flat.load(lin)
    offs = ttgl.arange(0, R * C, layout=lin)
    ttgl.store(out_ptr + offs, v)


TORCH = {8: torch.int8, 16: torch.int16, 32: torch.int32}
GLUON = {8: ttgl.int8, 16: ttgl.int16, 32: ttgl.int32}


def place(layout, bits, r, c):
    """The (row, col) stored at every offset of an r x c buffer."""
    got = []
    for which in (0, 1):
        out = torch.full((r * c,), -1, dtype=TORCH[bits], device="cuda")
        dump_kernel[(1,)](out, r, c, layout, which, GLUON[bits], num_warps=4)
        got.append([int(x) & ((1 << bits) - 1) for x in out.cpu().tolist()])
    return list(zip(got[0], got[1]))


def to_record(kind, params, shape, elems):
    bases = []
    n = len(elems)
    i = 1
    while i < n:
        bases.append(list(elems[i]))
        i *= 2
    linear = True
    for off in range(n):
        acc = [0, 0]
        for b, basis in enumerate(bases):
            if off >> b & 1:
                acc = [acc[0] ^ basis[0], acc[1] ^ basis[1]]
        if tuple(acc) != tuple(elems[off]):
            linear = False
            break
    ll = "SharedLinearLayout(offset_bases=%s, block_bases=[])" % json.dumps(bases)
    return {"kind": kind, "params": params, "shape": shape, "ll": ll, "linear": linear}


def main():
    out = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261122
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        order = rng.choice([[1, 0], [0, 1]])
        p = dict(vec=1 << rng.randint(0, 3), perPhase=1 << rng.randint(0, 3),
                 maxPhase=1 << rng.randint(0, 3), order=order)
        cases.append(("swizzled_shared", p, [1 << rng.randint(0, 7), 1 << rng.randint(0, 7)]))
    for _ in range(count):
        sw = rng.choice([0, 32, 64, 128])
        bits = rng.choice([8, 16, 32])
        transposed = rng.random() < 0.3
        shape = [1 << rng.randint(3, 8), 1 << rng.randint(3, 8)]
        cd = 0 if transposed else 1
        if sw:
            shape[cd] = max(shape[cd], 8 * sw // bits)
        shape[1 - cd] = max(shape[1 - cd], 8)
        # Keep the buffer within 64 KiB of shared memory.
        while shape[0] * shape[1] * bits // 8 > 65536 and shape[1 - cd] > 8:
            shape[1 - cd] //= 2
        p = dict(swizzle=sw, bits=bits, transposed=transposed, fp4Padded=False, rank=2)
        cases.append(("nvmma_shared", p, shape))
    with open(out, "w") as f:
        for kind, p, shape in cases:
            r, c = shape
            try:
                if kind == "swizzled_shared":
                    layout = ttgl.SwizzledSharedLayout(p["vec"], p["perPhase"], p["maxPhase"], p["order"])
                    bits = 32
                else:
                    layout = ttgl.NVMMASharedLayout(swizzle_byte_width=p["swizzle"], element_bitwidth=p["bits"],
                                                    rank=2, transposed=p["transposed"])
                    bits = p["bits"]
                rec = to_record(kind, p, shape, place(layout, bits, r, c))
            except Exception:
                rec = {"kind": kind, "params": p, "shape": shape,
                       "ll": "ERROR " + traceback.format_exc().splitlines()[-1][:300]}
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(kind, shape, rec["ll"][:80], flush=True)


if __name__ == "__main__":
    main()
