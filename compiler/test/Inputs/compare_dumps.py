#!/usr/bin/env python3
"""Compares two tgpu-run --dump folders (argK.bin per buffer argument) for
TTGIR that may change float rounding (a dot split along K rounds its
partial sums): integer buffers must be bit-identical, float buffers equal
within --ulps units in the last place of their type (or both NaN), or
within --ulps units in the last place of the buffer's largest magnitude:
a partial sum rounds by half an ulp of its own size, which a result that
cancels to something small does not show. The
element types come from the kernel's run arguments (ptr:TYPE=...), in
argument order.

usage: compare_dumps.py --ulps N REF_DIR OUT_DIR ARG...
Exit status 0 when they agree, 1 otherwise (the first difference printed).
"""
import argparse
import math
import os
import struct
import sys

FLOAT = {"f16": ("e", 2), "bf16": (None, 2), "f32": ("f", 4), "f64": ("d", 8)}
INT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
FRACTION_BITS = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52}


def value(bits, kind):
    if kind == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    code, size = FLOAT[kind]
    fmt = {2: "H", 4: "I", 8: "Q"}[size]
    return struct.unpack("<" + code, struct.pack("<" + fmt, bits))[0]


def ulp_of(v, kind):
    if v == 0 or math.isinf(v) or math.isnan(v):
        return 0.0
    return math.ldexp(1.0, math.frexp(abs(v))[1] - 1 - FRACTION_BITS[kind])


def ordered(bits, width):
    """The float's position on the number line, as an integer (ULP steps)."""
    sign = bits >> (width - 1)
    magnitude = bits & ((1 << (width - 1)) - 1)
    return -magnitude if sign else magnitude


def is_nan(bits, kind):
    width = INT_BITS[kind]
    exp_bits = {"f16": 5, "bf16": 8, "f32": 8, "f64": 11}[kind]
    mant = width - 1 - exp_bits
    exp = (bits >> mant) & ((1 << exp_bits) - 1)
    return exp == (1 << exp_bits) - 1 and bits & ((1 << mant) - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ulps", type=int, required=True)
    ap.add_argument("ref")
    ap.add_argument("out")
    ap.add_argument("args", nargs="*")
    o = ap.parse_args()
    # tgpu-run numbers buffers by their place among all arguments.
    for index, arg in enumerate(o.args):
        if not arg.startswith("ptr:"):
            continue
        kind = arg[4:].split("=")[0]
        name = "arg%d.bin" % index
        ref = open(os.path.join(o.ref, name), "rb").read()
        out = open(os.path.join(o.out, name), "rb").read()
        if len(ref) != len(out):
            print("%s: sizes differ" % name)
            return 1
        if kind not in FLOAT:
            if ref != out:
                print("%s: integer buffer differs" % name)
                return 1
            continue
        size = FLOAT[kind][1]
        width = INT_BITS[kind]
        fmt = {2: "H", 4: "I", 8: "Q"}[size]
        count = len(ref) // size
        rb = struct.unpack("<%d%s" % (count, fmt), ref)
        ob = struct.unpack("<%d%s" % (count, fmt), out)
        finite = [abs(value(x, kind)) for x in rb if not is_nan(x, kind)]
        finite = [v for v in finite if not math.isinf(v)]
        slack = o.ulps * ulp_of(max(finite, default=0.0), kind)
        for e, (x, y) in enumerate(zip(rb, ob)):
            if x == y:
                continue
            if is_nan(x, kind) and is_nan(y, kind):
                continue
            near = abs(value(x, kind) - value(y, kind)) <= slack
            if abs(ordered(x, width) - ordered(y, width)) > o.ulps and not near:
                print("%s[%d]: 0x%x vs 0x%x, more than %d ulps apart" %
                      (name, e, x, y, o.ulps))
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
