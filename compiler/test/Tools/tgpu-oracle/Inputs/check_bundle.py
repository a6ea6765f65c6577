# Checks a vector_add bundle against a second computation: every element
# below n of the expected output is the f32 sum of the two inputs (the sum of
# two f32s is exact in a double, so one rounding to f32 is the IEEE result),
# every element from n on is still the 0xA5 poison, and the inputs are the
# tgpu-run buffers the launch names. Prints one line per fact.
import json, os, struct, sys

d, n = sys.argv[1], int(sys.argv[2])
meta = json.load(open(os.path.join(d, "meta.json")))
def floats(path):
    raw = open(os.path.join(d, path), "rb").read()
    return raw, struct.unpack("<%df" % (len(raw) // 4), raw)
a = floats(meta["args"][0]["input"])[1]
b = floats(meta["args"][1]["input"])[1]
raw_out_in, _ = floats(meta["args"][2]["input"])
raw_ref, ref = floats(meta["args"][2]["expected"])
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
wrong = sum(1 for i in range(n) if ref[i] != f32(a[i] + b[i]))
print("sums below n wrong:", wrong)
print("poison from n on:", raw_ref[4 * n:] == b"\xa5" * (len(raw_ref) - 4 * n))
print("output input is poison:", raw_out_in == b"\xa5" * len(raw_out_in))
print("inputs unchanged:", all(open(os.path.join(d, meta["args"][k]["input"]), "rb").read() ==
                              open(os.path.join(d, meta["args"][k]["expected"]), "rb").read()
                              for k in (0, 1)))
