#!/usr/bin/env python3
"""Probe Triton 3.6's gluon_ir layout builders on the GPU machine: print each
builder's signature and Triton's LinearLayout for a few mma / dot_op / shared
attributes. Output feeds the layout differential data (properties/data)."""
import json
import sys
import traceback
from triton._C.libtriton import ir, gluon_ir

ctx = ir.context()
ir.load_dialects(ctx)
b = gluon_ir.GluonOpBuilder(ctx)
out = {"signatures": {}}
for name in dir(b):
    if "layout" in name:
        out["signatures"][name] = (getattr(b, name).__doc__ or "").strip()[:600]


def attempt(label, fn):
    try:
        out[label] = str(fn())
    except Exception:
        out[label] = "ERROR " + traceback.format_exc().splitlines()[-1]
    # Written after every attempt: to_linear_layout on a shared layout aborts
    # the whole process in Triton 3.6 (an assert, not an exception).
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1)


attempt("mma_v2", lambda: b.to_linear_layout(b.get_mma_layout([2, 0], [2, 2], [], [16, 8]), [64, 64]))
attempt("mma_v3", lambda: b.to_linear_layout(b.get_mma_layout([3, 0], [4, 1], [], [16, 64, 16]), [128, 64]))
attempt("dot_v2_a", lambda: b.to_linear_layout(
    b.get_dot_operand_layout(0, b.get_mma_layout([2, 0], [2, 2], [], [16, 8]), 2), [64, 32]))
attempt("dot_v2_b", lambda: b.to_linear_layout(
    b.get_dot_operand_layout(1, b.get_mma_layout([2, 0], [2, 2], [], [16, 8]), 2), [32, 64]))
attempt("swizzled", lambda: b.to_linear_layout(b.get_swizzled_shared_layout(8, 1, 4, [1, 0], []), [32, 64]))
attempt("nvmma", lambda: b.to_linear_layout(
    b.get_nvmma_shared_layout(128, 16, False, False, [], 2), [64, 64]))
