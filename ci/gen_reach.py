#!/usr/bin/env python3
"""How far generated programs reach into the async and tensor-core half.

Generates programs with tgpu-gen, compiles each TTIR at the stages and target
its launch says (and, with --ttgir, each TTGIR variant as it is) with
tgpu-compile, and prints a table: how many programs have a matmul K loop, how
many PTX files pipeline (cp.async at num_stages >= 2), how many run on
wgmma, per stage count and target. A figure, not a test.

  ci/gen_reach.py [--count N] [--seed S] [--policy k=v,...] [--num-warps W]
                  [--ttgir] [--build DIR]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile


def launch_fields(launch):
    """num-warps, num-stages and arch of a launch text (tgpu-run syntax)."""
    fields = {"num-warps": "4", "num-stages": "3", "arch": "sm_90"}
    words = launch.split(" -- ")[0].split()
    for i, w in enumerate(words):
        key, _, value = w.partition("=")
        key = key.lstrip("-")
        if key in fields:
            fields[key] = value if value else words[i + 1]
    return fields


def compile_ptx(compiler, path, args):
    out = subprocess.run([compiler, path, "-o", "-"] + args,
                         capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="dot=40,numel-log2=11")
    ap.add_argument("--num-warps", type=int, default=4)
    ap.add_argument("--ttgir", action="store_true",
                    help="also compile the TTGIR variants")
    ap.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    opts = ap.parse_args()
    gen = os.path.join(opts.build, "bin", "tgpu-gen")
    compiler = os.path.join(opts.build, "bin", "tgpu-compile")
    for tool in (gen, compiler):
        if not os.access(tool, os.X_OK):
            sys.exit("gen_reach.py: %s not built" % tool)

    with tempfile.TemporaryDirectory() as tmp:
        cmd = [gen, "--seed", str(opts.seed), "--count", str(opts.count),
               "--num-warps", str(opts.num_warps), "--policy", opts.policy,
               "-o", tmp]
        if opts.ttgir:
            cmd.append("--ttgir")
        subprocess.run(cmd, check=True, capture_output=True)
        rows = collections.Counter()
        by_stage = collections.defaultdict(collections.Counter)
        failed = []
        stems = sorted(f[:-5] for f in os.listdir(tmp) if f.endswith(".json"))
        for stem in stems:
            with open(os.path.join(tmp, stem + ".json")) as f:
                meta = json.load(f)
            fields = launch_fields(meta["launch"])
            ttir = os.path.join(tmp, stem + ".ttir")
            with open(ttir) as f:
                kloop = bool(re.search(r"scf\.for %k\d+ = .*iter_args\(%acc", f.read()))
            ptx = compile_ptx(compiler, ttir,
                              ["--num-warps", fields["num-warps"],
                               "--num-stages", fields["num-stages"],
                               "--arch", fields["arch"]])
            key = (fields["num-stages"], fields["arch"])
            rows["programs"] += 1
            by_stage[key]["programs"] += 1
            if kloop:
                rows["with a K loop"] += 1
                by_stage[key]["with a K loop"] += 1
            if ptx is None:
                failed.append(stem + ".ttir")
                continue
            if "cp.async" in ptx:
                rows["TTIR pipelined (cp.async)"] += 1
                by_stage[key]["pipelined"] += 1
            if "wgmma.mma_async" in ptx:
                rows["TTIR on wgmma"] += 1
                by_stage[key]["wgmma"] += 1
            variant = os.path.join(tmp, stem + ".ttgir")
            if opts.ttgir and os.path.exists(variant):
                vptx = compile_ptx(compiler, variant, [])
                rows["TTGIR variants"] += 1
                if vptx is None:
                    failed.append(stem + ".ttgir")
                elif "wgmma.mma_async" in vptx:
                    rows["TTGIR variants on wgmma"] += 1

    n = max(rows["programs"], 1)
    print("| %d programs, seed %d, --policy %s, %d warps | count | share |"
          % (rows["programs"], opts.seed, opts.policy, opts.num_warps))
    print("|---|---|---|")
    for name in ("with a K loop", "TTIR pipelined (cp.async)", "TTIR on wgmma"):
        print("| %s | %d | %.1f%% |" % (name, rows[name], 100.0 * rows[name] / n))
    if opts.ttgir:
        v = max(rows["TTGIR variants"], 1)
        print("| TTGIR variants on wgmma | %d | %.1f%% of %d |"
              % (rows["TTGIR variants on wgmma"],
                 100.0 * rows["TTGIR variants on wgmma"] / v, rows["TTGIR variants"]))
    print()
    print("| stages, target | programs | with a K loop | pipelined | on wgmma |")
    print("|---|---|---|---|---|")
    for (stages, arch) in sorted(by_stage):
        c = by_stage[(stages, arch)]
        print("| %s, %s | %d | %d | %d | %d |" % (stages, arch, c["programs"],
                                               c["with a K loop"], c["pipelined"],
                                               c["wgmma"]))
    if failed:
        print("\ndid not compile: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
