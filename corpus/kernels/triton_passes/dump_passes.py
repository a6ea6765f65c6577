#!/usr/bin/env python3
"""Reference outputs of Triton 3.6's TTIR -> TTGIR passes (run on the GPU machine).

For every TTIR file given, parses it with Triton's own parser and runs, one at
a time and cumulatively, the passes tgpu reimplements:
  convert-triton-to-tritongpu (target, num-warps, threads-per-warp 32, num-ctas 1)
  tritongpu-coalesce
  tritongpu-remove-layout-conversions
writing OUT_DIR/<kernel>.w<num_warps>.<target>.<stage>.ttgir. A kernel Triton cannot
read or convert gets a .error file with the message instead.

usage: dump_passes.py OUT_DIR FILE.ttir...
"""
import os
import sys
import traceback

from triton._C.libtriton import ir, passes, nvidia  # noqa: F401


def run(path, out_dir, target, num_warps):
    name = os.path.basename(path).rsplit(".", 1)[0]
    stem = os.path.join(out_dir, f"{name}.w{num_warps}.{target.replace(':', '')}")
    ctx = ir.context()
    ir.load_dialects(ctx)
    try:
        mod = ir.parse_mlir_module(path, ctx)
        mod.context = ctx
        stages = [
            ("convert", lambda pm: passes.ttir.add_convert_to_ttgpuir(pm, target, num_warps, 32, 1)),
            ("coalesce", lambda pm: passes.ttgpuir.add_coalesce(pm)),
            ("remove-layout-conversions", lambda pm: passes.ttgpuir.add_remove_layout_conversions(pm)),
        ]
        for stage, add in stages:
            pm = ir.pass_manager(ctx)
            pm.enable_debug()
            add(pm)
            try:
                pm.run(mod, stage)
            except TypeError:
                pm.run(mod)
            with open(f"{stem}.{stage}.ttgir", "w") as f:
                f.write(str(mod))
    except Exception:
        with open(f"{stem}.error", "w") as f:
            f.write(traceback.format_exc())


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for path in sys.argv[2:]:
        for target, warps in (("cuda:90", 4), ("cuda:80", 4), ("cuda:90", 1), ("cuda:90", 8)):
            run(path, out_dir, target, warps)
        print("done", path, flush=True)


if __name__ == "__main__":
    main()
