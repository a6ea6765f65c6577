# Counts, over the programs tgpu-gen wrote to a folder, what Triton 3.6
# cannot compile or compiles wrong (GenPolicy::tritonSafe): its missing ops
# and 16-bit (f16, bf16) division,
# float -> i1 casts, and #ttg.linear layouts holding an element twice
# through non-zero bases (a basis in the GF(2) span of the ones before it,
# checked here with Python integers, independently of the C++ code), and
# #ttg.linear / #ttg.shared_linear bases that move more than one bit within
# a dim ([3], [0, 10]: Triton computes wrong values through them).
import glob, os, re, sys

OPS = ["arith.negf", "math.tanh", "math.ctpop", "math.ctlz", "math.cttz",
       "math.trunc", "math.roundeven"]


def repeats(layout):
    span = []
    for basis in re.findall(r"\[(-?[0-9]+(?:, -?[0-9]+)*)\]", layout):
        v = 0
        for c in basis.split(","):
            v = (v << 32) | int(c)
        if not v:
            continue
        for b in span:
            v = min(v, v ^ b)
        if not v:
            return True
        span.append(v)
    return False


def multi_bit(bases):
    return any(int(c) & (int(c) - 1) for c in re.findall(r"-?[0-9]+", bases))


counts = {k: 0 for k in OPS + ["16bit-divf", "tensor-bitcast", "float-to-i1", "linear-repeats",
                               "multi-bit-bases", "files"]}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.tt*ir"))):
    text = open(path).read()
    counts["files"] += 1
    for op in OPS:
        counts[op] += len(re.findall(r"= " + re.escape(op) + r"\b", text))
    counts["16bit-divf"] += len(re.findall(r"= arith\.divf \S+, \S+ : (tensor<[0-9x]*x(?:b?f16)[,>]|b?f16\b)", text))
    counts["tensor-bitcast"] += len(re.findall(r"= arith\.bitcast \S+ : tensor<", text))
    counts["float-to-i1"] += len(re.findall(r"= arith\.fpto[us]i \S+ : \S+ to (tensor<[0-9x]*xi1[,>]|i1\b)", text))
    for m in re.finditer(r"#ttg\.linear<\{register = (.*?), block", text):
        counts["linear-repeats"] += repeats(m.group(1))
        counts["multi-bit-bases"] += multi_bit(m.group(1))
    for m in re.finditer(r"#ttg\.shared_linear<\{offset = (.*?)\}", text):
        counts["multi-bit-bases"] += multi_bit(m.group(1))
print(" ".join("%s=%d" % kv for kv in counts.items()))
