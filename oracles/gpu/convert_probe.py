#!/usr/bin/env python3
"""Writes small TTGIR kernels that test one layout L against a blocked layout
B: the probes that tell whether a generated finding comes from L (run them
with a control, the same L with the suspect bases changed, and compare).

  convert_probe.py --shape 32 --warps 2 --layout '#ttg.linear<{...}>' \\
      [--blocked '#ttg.blocked<{...}>'] [--elem i32] -o DIR [--name NAME]

writes DIR/NAME_<probe>.ttgir for each probe (i32 data; the launch is in the
module's tgpu.launch attribute, so `tgpu-oracle bundle FILE` takes them):
  roundtrip   load in B -> convert to L -> convert to B -> store
  to          load in B -> convert to L -> store through pointers in L
  from        load through pointers in L -> convert to B -> store
  make_range  (rank 1) make_range in L -> convert to B -> store: out[i] = i
  zero        a zero constant in L converted to B, added to the offsets

B defaults to one element per thread along the last dimension, lanes and
warps laid out row-major.
"""
import argparse
import os
import sys


class Body:
    """SSA text of one kernel body."""

    def __init__(self):
        self.lines = []
        self.n = 0

    def emit(self, rhs):
        self.n += 1
        name = "%%v%d" % self.n
        self.lines.append("    %s = %s" % (name, rhs))
        return name


def tensor(shape, elem, layout):
    return "tensor<%sx%s, %s>" % ("x".join(map(str, shape)), elem, layout)


def row_major_offsets(body, shape, layout):
    """The row-major linear index of each element, as an i32 tensor in
    `layout`: per dim, make_range in the layout sliced down to that dim,
    expand_dims back up, broadcast, times the dim's stride."""
    rank = len(shape)
    strides = [1] * rank
    for d in range(rank - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    total = None
    for d in range(rank):
        others = [r for r in range(rank) if r != d]
        # layouts[k]: `layout` with the k highest other dims sliced away
        layouts = [layout]
        for r in sorted(others, reverse=True):
            layouts.append("#ttg.slice<{dim = %d, parent = %s}>" % (r, layouts[-1]))
        cur_shape = [shape[d]]
        v = body.emit("tt.make_range {end = %d : i32, start = 0 : i32} : %s"
                      % (shape[d], tensor(cur_shape, "i32", layouts[-1])))
        for k, r in enumerate(sorted(others)):
            src_layout = layouts[len(others) - k]
            dst_layout = layouts[len(others) - k - 1]
            new_shape = list(cur_shape)
            new_shape.insert(r, 1)
            v = body.emit("tt.expand_dims %s {axis = %d : i32} : %s -> %s"
                          % (v, r, tensor(cur_shape, "i32", src_layout),
                             tensor(new_shape, "i32", dst_layout)))
            cur_shape = new_shape
        if rank > 1:
            v = body.emit("tt.broadcast %s : %s -> %s" % (
                v, tensor(cur_shape, "i32", layout), tensor(shape, "i32", layout)))
        if strides[d] != 1:
            c = body.emit("arith.constant dense<%d> : %s" % (strides[d], tensor(shape, "i32", layout)))
            v = body.emit("arith.muli %s, %s : %s" % (v, c, tensor(shape, "i32", layout)))
        total = v if total is None else body.emit(
            "arith.addi %s, %s : %s" % (total, v, tensor(shape, "i32", layout)))
    return total


def pointers(body, arg, offsets, shape, layout):
    ptrs = tensor(shape, "!tt.ptr<i32>", layout)
    p = body.emit("tt.splat %s : !tt.ptr<i32> -> %s" % (arg, ptrs))
    return body.emit("tt.addptr %s, %s : %s, %s" % (p, offsets, ptrs, tensor(shape, "i32", layout)))


def convert(body, value, shape, elem, src, dst):
    return body.emit("ttg.convert_layout %s : %s -> %s" % (
        value, tensor(shape, elem, src), tensor(shape, elem, dst)))


def probe(kind, shape):
    """Body lines of one probe; B and L stand for the layouts (#B, #L)."""
    body = Body()
    off = row_major_offsets(body, shape, "#B")
    ptrs_b = lambda arg: pointers(body, arg, off, shape, "#B")
    ptrs_ty = lambda lay: tensor(shape, "!tt.ptr<i32>", lay)
    if kind == "roundtrip":
        x = body.emit("tt.load %s : %s" % (ptrs_b("%in"), ptrs_ty("#B")))
        y = convert(body, x, shape, "i32", "#B", "#L")
        z = convert(body, y, shape, "i32", "#L", "#B")
        body.lines.append("    tt.store %s, %s : %s" % (ptrs_b("%out"), z, ptrs_ty("#B")))
    elif kind == "to":
        x = body.emit("tt.load %s : %s" % (ptrs_b("%in"), ptrs_ty("#B")))
        y = convert(body, x, shape, "i32", "#B", "#L")
        p = convert(body, ptrs_b("%out"), shape, "!tt.ptr<i32>", "#B", "#L")
        body.lines.append("    tt.store %s, %s : %s" % (p, y, ptrs_ty("#L")))
    elif kind == "from":
        p = convert(body, ptrs_b("%in"), shape, "!tt.ptr<i32>", "#B", "#L")
        x = body.emit("tt.load %s : %s" % (p, ptrs_ty("#L")))
        y = convert(body, x, shape, "i32", "#L", "#B")
        body.lines.append("    tt.store %s, %s : %s" % (ptrs_b("%out"), y, ptrs_ty("#B")))
    elif kind == "make_range":
        r = body.emit("tt.make_range {end = %d : i32, start = 0 : i32} : %s"
                      % (shape[0], tensor(shape, "i32", "#L")))
        y = convert(body, r, shape, "i32", "#L", "#B")
        body.lines.append("    tt.store %s, %s : %s" % (ptrs_b("%out"), y, ptrs_ty("#B")))
    elif kind == "zero":
        c = body.emit("arith.constant dense<0> : %s" % tensor(shape, "i32", "#L"))
        c = convert(body, c, shape, "i32", "#L", "#B")
        off2 = body.emit("arith.addi %s, %s : %s" % (off, c, tensor(shape, "i32", "#B")))
        p_in = pointers(body, "%in", off2, shape, "#B")
        x = body.emit("tt.load %s : %s" % (p_in, ptrs_ty("#B")))
        p_out = pointers(body, "%out", off2, shape, "#B")
        body.lines.append("    tt.store %s, %s : %s" % (p_out, x, ptrs_ty("#B")))
    return body.lines


def default_blocked(shape, warps):
    rank = len(shape)
    def spread(total_log2):
        # powers of two over the dims, the last dim first, capped by the shape
        out = [1] * rank
        left = total_log2
        for d in range(rank - 1, -1, -1):
            while left and out[d] < shape[d]:
                out[d] *= 2
                left -= 1
        out[0] *= 2 ** left
        return out
    lanes = spread(5)
    ws = spread(warps.bit_length() - 1)
    lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
    return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, order = %s}>"
            % (lst([1] * rank), lst(lanes), lst(ws), lst(list(range(rank - 1, -1, -1)))))


def kernel(kind, shape, warps, blocked, layout):
    n = 1
    for s in shape:
        n *= s
    head = [
        "#B = " + blocked,
        "#L = " + layout,
        'module attributes {tgpu.launch = "--grid 1 -- ptr:i32=rand:%d:7 ptr:i32=zeros:%d", '
        '"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, ttg.target = "cuda:90", '
        '"ttg.threads-per-warp" = 32 : i32} {' % (n, n, warps),
        "  tt.func public @kernel(%in: !tt.ptr<i32> {tt.divisibility = 16 : i32}, "
        "%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {",
    ]
    return "\n".join(head + probe(kind, shape) + ["    tt.return", "  }", "}", ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shape", required=True, help="e.g. 32 or 4x128")
    ap.add_argument("--warps", type=int, default=4)
    ap.add_argument("--layout", required=True, help="the layout under test (L)")
    ap.add_argument("--blocked", help="the blocked layout B (default: see above)")
    ap.add_argument("--probes", default="roundtrip,to,from,make_range,zero")
    ap.add_argument("--name", default="probe")
    ap.add_argument("-o", required=True, dest="out")
    args = ap.parse_args()
    try:
        shape = [int(s) for s in args.shape.split("x")]
    except ValueError:
        sys.exit("convert_probe: bad --shape '%s' (want e.g. 32 or 4x128)" % args.shape)
    if any(s <= 0 or s & (s - 1) for s in shape) or args.warps <= 0 or args.warps & (args.warps - 1):
        sys.exit("convert_probe: the shape and --warps must be powers of two")
    kinds = args.probes.split(",")
    unknown = [k for k in kinds if k not in ("roundtrip", "to", "from", "make_range", "zero")]
    if unknown:
        sys.exit("convert_probe: unknown probe '%s'" % unknown[0])
    if "make_range" in kinds and len(shape) != 1:
        kinds.remove("make_range")
    blocked = args.blocked or default_blocked(shape, args.warps)
    os.makedirs(args.out, exist_ok=True)
    for k in kinds:
        path = os.path.join(args.out, "%s_%s.ttgir" % (args.name, k))
        with open(path, "w") as f:
            f.write(kernel(k, shape, args.warps, blocked, args.layout))
        print(path)


if __name__ == "__main__":
    main()
