# check_double.py IN OUT: counts the f16 elements of OUT that are not 2 * IN
# (doubling is exact in f16 unless it overflows, which [-1, 1) inputs do not).
import struct, sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
n = len(a) // 2
x = struct.unpack(f"<{n}e", a)
y = struct.unpack(f"<{n}e", b)
print(f"{n} elements, {sum(1 for u, v in zip(x, y) if v != 2 * u)} wrong")
