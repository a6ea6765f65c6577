#!/usr/bin/env python3
"""Compares two tgpu-run --dump folders (argK.bin per buffer argument) for
TTGIR that may change float rounding (a dot split along K rounds its
partial sums): integer buffers must be bit-identical, float buffers equal
within --ulps units in the last place of their type (or both NaN). The
element types come from the kernel's run arguments (ptr:TYPE=...), in
argument order.

usage: compare_dumps.py --ulps N REF_DIR OUT_DIR ARG...
Exit status 0 when they agree, 1 otherwise (the first difference printed).
"""
import argparse
import os
import struct
import sys

FLOAT = {"f16": ("e", 2), "bf16": (None, 2), "f32": ("f", 4), "f64": ("d", 8)}
INT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


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
        for e, (x, y) in enumerate(zip(rb, ob)):
            if x == y:
                continue
            if is_nan(x, kind) and is_nan(y, kind):
                continue
            if abs(ordered(x, width) - ordered(y, width)) > o.ulps:
                print("%s[%d]: 0x%x vs 0x%x, more than %d ulps apart" %
                      (name, e, x, y, o.ulps))
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
