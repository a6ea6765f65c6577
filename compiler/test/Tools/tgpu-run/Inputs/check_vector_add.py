# Checks DIR/arg2.bin == arg0 + arg1 (f32, rounded once), element by element.
import struct, sys
d = sys.argv[1]
def rd(i):
    b = open(f"{d}/arg{i}.bin", "rb").read()
    return struct.unpack(f"<{len(b) // 4}f", b)
a, b, c = rd(0), rd(1), rd(2)
n = int(sys.argv[2])
bad = [k for k in range(len(c)) if c[k] != (struct.unpack("<f", struct.pack("<f", a[k] + b[k]))[0] if k < n else 0.0)]
print(f"{len(c)} elements, {len(bad)} wrong")
sys.exit(1 if bad else 0)
