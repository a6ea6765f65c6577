# Prints a dumped buffer: print_buffer.py FILE FORMAT ROW_LENGTH (struct format letter).
import struct, sys
data = open(sys.argv[1], "rb").read()
fmt = sys.argv[2]
size = struct.calcsize(fmt)
vals = struct.unpack(f"<{len(data) // size}{fmt}", data)
row = int(sys.argv[3])
for i in range(0, len(vals), row):
    print(" ".join(str(v) for v in vals[i:i + row]))
