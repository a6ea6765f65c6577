#!/usr/bin/env python3
"""Times Triton's own vector_add (the program of corpus/kernels/vector_add.ttir:
BLOCK 1024, 4 warps) on N float32 elements with CUDA events over 100 launches
after 3 warm-ups; prints microseconds per launch. usage: triton_vector_add.py N"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def main():
    n = int(sys.argv[1])
    x, y, o = (torch.zeros(n, device="cuda") for _ in range(3))
    grid = ((n + 1023) // 1024,)
    for _ in range(3):
        vector_add[grid](x, y, o, n, BLOCK=1024, num_warps=4)
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(100):
        vector_add[grid](x, y, o, n, BLOCK=1024, num_warps=4)
    stop.record()
    torch.cuda.synchronize()
    print("%.3f" % (start.elapsed_time(stop) * 1000 / 100))


if __name__ == "__main__":
    main()
