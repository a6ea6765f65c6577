#!/usr/bin/env python3
"""Compares the GPU's buffers with the CPU oracle's for one bundle.
Integers and pointers must be equal bit for bit; floats must have NaNs in the
same places and otherwise |gpu - cpu| <= RTOL * (|cpu| + max |cpu| over the
buffer), with RTOL per type (f32: 1e-5, f16/bf16: 1e-2, f64: 1e-12). The
relative part covers element-wise rounding and PTX's approximate exp/log
(relative error 2^-22.5 before scaling); the norm-wise part covers sums and
dot products accumulated in another order, whose error scales with the size
of their terms, not of the (possibly cancelled) result. Prints the worst
relative error per buffer.
usage: compare_buffers.py REF_DIR OUT_DIR ARG..."""
import math
import os
import struct
import sys

BOUNDS = {"f64": (1e-12, 1e-300), "f32": (1e-5, 1e-30), "f16": (1e-2, 1e-6),
          "bf16": (1e-2, 1e-6)}
FORMATS = {"f64": "d", "f32": "f", "f16": "e"}


def floats(raw, ty):
    if ty == "bf16":
        n = len(raw) // 2
        return [struct.unpack("<f", b"\0\0" + raw[2 * i:2 * i + 2])[0] for i in range(n)]
    size = struct.calcsize(FORMATS[ty])
    return list(struct.unpack("<%d%s" % (len(raw) // size, FORMATS[ty]), raw))


def main():
    ref_dir, out_dir, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    ok = True
    report = []
    for k, spec in enumerate(specs):
        if not spec.startswith("ptr:"):
            continue
        ty = spec[4:].split("=")[0]
        name = "arg%d.bin" % k
        with open(os.path.join(ref_dir, name), "rb") as f:
            ref = f.read()
        with open(os.path.join(out_dir, name), "rb") as f:
            out = f.read()
        if len(ref) != len(out):
            report.append("%s: size %d vs %d" % (name, len(out), len(ref)))
            ok = False
            continue
        if ty not in BOUNDS:
            if ref != out:
                diff = sum(1 for a, b in zip(ref, out) if a != b)
                report.append("%s: %d bytes differ" % (name, diff))
                ok = False
            continue
        rtol, atol = BOUNDS[ty]
        gpu, cpu = floats(out, ty), floats(ref, ty)
        finite = [abs(b) for b in cpu if not (math.isnan(b) or math.isinf(b))]
        atol = max(atol, rtol * max(finite, default=0.0))
        worst = 0.0
        for i, (a, b) in enumerate(zip(gpu, cpu)):
            if math.isnan(a) or math.isnan(b):
                if not (math.isnan(a) and math.isnan(b)):
                    report.append("%s[%d]: %r vs %r" % (name, i, a, b))
                    ok = False
                    break
                continue
            if a == b:
                continue
            err = abs(a - b)
            if math.isinf(err) or err > atol + rtol * abs(b):
                report.append("%s[%d]: gpu %r, cpu %r" % (name, i, a, b))
                ok = False
                break
            worst = max(worst, err / max(abs(b), atol))
        if worst:
            report.append("%s: max rel err %.2e" % (name, worst))
    print("; ".join(report))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
