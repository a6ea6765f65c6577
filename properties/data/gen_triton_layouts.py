#!/usr/bin/env python3
"""Differential layout data from Triton 3.6 (run on the GPU machine).

Draws random layout attributes of every kind tgpu converts (own seeds), asks
Triton's gluon builder for its LinearLayout of each at a random shape, and
writes one JSON object per line: {"kind", "params", "shape", "ll"}, where "ll"
is Triton's repr of the layout (or "ERROR ..." / "ABORT" when Triton rejects
or crashes on the case; those are kept, they are facts too).

Triton aborts the process on some inputs (asserts), so the cases run in a
child process that is restarted after the case that killed it.

usage: gen_triton_layouts.py OUT.jsonl [SEED] [COUNT_PER_KIND]
"""
import json
import multiprocessing as mp
import random
import sys
import traceback


def pow2(rng, lo, hi):
    return 1 << rng.randint(lo, hi)


def warps(rng, rank, total):
    w = [1] * rank
    for _ in range(total.bit_length() - 1):
        w[rng.randrange(rank)] *= 2
    return w


def cga_bases(rng, rank):
    """CGA bases as Triton's split parameters make them: per dim (in a random
    CTA order) identity bases for the split, then zero bases for CTAs that
    repeat the data. Two or four CTAs, or none (the default) 60% of the time."""
    if rng.random() < 0.6:
        return []
    left = rng.choice([1, 2])  # log2 of the CTA count
    order = list(range(rank))
    rng.shuffle(order)
    bases = []
    for k, d in enumerate(order):
        n = left if k == rank - 1 else rng.randint(0, left)
        split = rng.randint(0, n)
        for i in range(split):
            b = [0] * rank
            b[d] = 1 << i
            bases.append(b)
        bases += [[0] * rank for _ in range(n - split)]
        left -= n
    return bases


def blocked(rng, rank):
    order = list(range(rank))
    rng.shuffle(order)
    tpw = warps(rng, rank, 32)
    return dict(spt=[pow2(rng, 0, 3) for _ in range(rank)], tpw=tpw,
                wpc=warps(rng, rank, rng.choice([1, 2, 4, 8])), order=order)


def gen_cases(seed, count):
    rng = random.Random(seed)
    cases = []
    def shape(rank, lo=0, hi=8):
        return [pow2(rng, lo, hi) for _ in range(rank)]
    for _ in range(count):
        r = rng.choice([2, 2, 3])
        inst = [16, 8] if r == 2 else [1, 16, 8]
        cases.append(("mma_v2", dict(version=[2, 0], wpc=warps(rng, r, rng.choice([1, 2, 4, 8])),
                                     instr=inst), shape(r)))
    for _ in range(count):
        n = rng.choice([8, 16, 32, 64, 128, 256])
        w = [4 * rng.choice([1, 2]), 1]
        if w[0] == 4 and rng.random() < 0.5:
            w = [4, 2]
        cases.append(("mma_v3", dict(version=[3, 0], wpc=w, instr=[16, n, 16]), shape(2, 3, 9)))
    for _ in range(count):
        r = rng.choice([2, 2, 3])
        inst = [16, 8] if r == 2 else [1, 16, 8]
        op = rng.randrange(2)
        cases.append(("dot_v2", dict(version=[2, 0], wpc=warps(rng, r, rng.choice([1, 2, 4, 8])),
                                     instr=inst, opIdx=op, kWidth=rng.choice([1, 2, 4, 8])), shape(r)))
    for _ in range(count // 2):
        n = rng.choice([16, 32, 64, 128])
        w = rng.choice([[4, 1], [4, 2], [8, 1]])
        cases.append(("dot_v3", dict(version=[3, 0], wpc=w, instr=[16, n, 16], opIdx=0,
                                     kWidth=rng.choice([1, 2, 4])), shape(2, 3, 8)))
    for _ in range(count):
        r = rng.choice([2, 2, 3])
        p = blocked(rng, r)
        p["opIdx"] = rng.randrange(2)
        cases.append(("dot_blocked", p, shape(r, 0, 6)))
    for _ in range(count // 2):
        r = rng.choice([2, 3])
        inst = [16, 8] if r == 2 else [1, 16, 8]
        cases.append(("slice_mma_v2", dict(version=[2, 0], wpc=warps(rng, r, rng.choice([1, 2, 4, 8])),
                                           instr=inst, dim=rng.randrange(r)), shape(r - 1)))
    for _ in range(count // 2):
        r = rng.choice([1, 2, 3])
        p = blocked(rng, r)
        p["cga"] = cga_bases(rng, r)
        cases.append(("blocked_cga", p, shape(r, 0, 8)))
    for _ in range(count):
        r = rng.choice([1, 2, 2, 3])
        order = list(range(r))
        rng.shuffle(order)
        cases.append(("swizzled_shared", dict(vec=pow2(rng, 0, 3), perPhase=pow2(rng, 0, 3),
                                              maxPhase=pow2(rng, 0, 3), order=order),
                      shape(r, 0, 7)))
    for _ in range(count):
        r = rng.choice([2, 2, 3])
        sw = rng.choice([0, 32, 64, 128])
        bits = rng.choice([8, 16, 32])
        cases.append(("nvmma_shared", dict(swizzle=sw, bits=bits, transposed=rng.random() < 0.3,
                                           fp4Padded=False, rank=r), shape(r, 3, 8)))
    for _ in range(count // 2):
        # A linear layout read back at another shape (the reshaping path).
        r = rng.choice([1, 2])
        p = blocked(rng, r)
        cases.append(("linear_from_blocked", dict(blocked=p, shape0=shape(r, 0, 7)), shape(r, 0, 7)))
    return cases


def build(b, kind, p):
    if kind in ("mma_v2", "mma_v3"):
        return b.get_mma_layout(p["version"], p["wpc"], [], p["instr"])
    if kind in ("dot_v2", "dot_v3"):
        parent = b.get_mma_layout(p["version"], p["wpc"], [], p["instr"])
        return b.get_dot_operand_layout(p["opIdx"], parent, p["kWidth"])
    if kind == "dot_blocked":
        parent = b.get_blocked_layout(p["spt"], p["tpw"], p["wpc"], p["order"], [])
        return b.get_dot_operand_layout(p["opIdx"], parent, 0)
    if kind == "slice_mma_v2":
        parent = b.get_mma_layout(p["version"], p["wpc"], [], p["instr"])
        return b.get_slice_layout(p["dim"], parent)
    if kind == "blocked_cga":
        return b.get_blocked_layout(p["spt"], p["tpw"], p["wpc"], p["order"], p["cga"])
    if kind == "swizzled_shared":
        return b.get_swizzled_shared_layout(p["vec"], p["perPhase"], p["maxPhase"], p["order"], [])
    if kind == "nvmma_shared":
        return b.get_nvmma_shared_layout(p["swizzle"], p["bits"], p["transposed"], p["fp4Padded"], [], p["rank"])
    raise ValueError(kind)


def worker(cases, start, path):
    from triton._C.libtriton import ir, gluon_ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    with open(path, "a") as f:
        for i in range(start, len(cases)):
            kind, p, shape = cases[i]
            # Mark the case as started: if Triton aborts, the parent sees it.
            f.write(json.dumps({"index": i, "started": True}) + "\n")
            f.flush()
            try:
                if kind == "linear_from_blocked":
                    q = p["blocked"]
                    ll = b.to_linear_layout(
                        b.get_blocked_layout(q["spt"], q["tpw"], q["wpc"], q["order"], []), p["shape0"])
                    lin = b.get_distributed_linear_layout(ll.reg_bases, ll.lane_bases, ll.warp_bases,
                                                          ll.block_bases, ll.shape)
                    p = dict(p, ll0=str(ll))
                    res = str(b.to_linear_layout(lin, shape))
                else:
                    res = str(b.to_linear_layout(build(b, kind, p), shape))
            except Exception:
                res = "ERROR " + traceback.format_exc().splitlines()[-1]
            f.write(json.dumps({"index": i, "kind": kind, "params": p, "shape": shape, "ll": res}) + "\n")
            f.flush()


def main():
    out = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261122
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    cases = gen_cases(seed, count)
    raw = out + ".raw"
    open(raw, "w").close()
    start = 0
    ctx = mp.get_context("fork")
    while start < len(cases):
        proc = ctx.Process(target=worker, args=(cases, start, raw))
        proc.start()
        proc.join()
        done = {}
        last_started = -1
        for line in open(raw):
            rec = json.loads(line)
            if rec.get("started"):
                last_started = max(last_started, rec["index"])
            else:
                done[rec["index"]] = rec
        if last_started >= 0 and last_started not in done:
            kind, p, shape = cases[last_started]
            with open(raw, "a") as f:
                f.write(json.dumps({"index": last_started, "kind": kind, "params": p, "shape": shape,
                                    "ll": "ABORT exit code %s" % proc.exitcode}) + "\n")
        start = last_started + 1
    recs = {}
    for line in open(raw):
        rec = json.loads(line)
        if not rec.get("started"):
            recs[rec["index"]] = rec
    with open(out, "w") as f:
        for i in sorted(recs):
            rec = recs[i]
            del rec["index"]
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
