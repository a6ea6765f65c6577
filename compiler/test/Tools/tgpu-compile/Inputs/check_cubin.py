# Checks that a file is an NVIDIA cubin: ELF, machine EM_CUDA (190), the
# expected SM in the flags' low byte, and the kernel's name in its symbols.
import sys
path, sm, kernel = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(path, "rb").read()
if data[:4] != b"\x7fELF":
    sys.exit(f"{path}: not an ELF file")
machine = int.from_bytes(data[18:20], "little")
if machine != 190:
    sys.exit(f"{path}: ELF machine {machine}, not EM_CUDA (190)")
# e_flags sits at offset 48 in a 64-bit ELF header; CUDA keeps the SM there
# (low byte in the pre-CUDA-12.x layout, bits 8..15 in the newer one).
flags = int.from_bytes(data[48:52], "little")
if sm not in (flags & 0xFF, (flags >> 8) & 0xFF):
    sys.exit(f"{path}: e_flags {flags:#x} do not name sm_{sm}")
if kernel.encode() not in data:
    sys.exit(f"{path}: no symbol {kernel}")
