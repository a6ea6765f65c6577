#!/usr/bin/env python3
"""Run tgpu's passes on the modules Triton's own passes received, pass by pass.

Usage: ci/triton_pass_agreement.py DUMP_DIR [--bin build/bin] [--passes A,B]
                                   [--out FILE.tsv] [--markdown FILE] [--jobs N]
                                   [--show-diff N]

DUMP_DIR is what `corpus/kernels/triton_pipeline/dump_pipeline.py --every-pass`
wrote on the GPU machine: one folder per compilation,
<kernel>.w<warps>.<target>.s<stages>/NNN.<pass>.ttgir, the module Triton 3.6's
make_ttgir handed to its pass NNN (the next file is that pass's output). For
each make_ttgir pass that tgpu-opt registers under Triton's name, the script
runs tgpu-opt with that pass (and Triton's options: target and warps for the
conversion, num-stages for the pipeliner) on Triton's input and compares the
printed result with Triton's output, both printed by tgpu-opt so that alias
names and formatting match. The modules are Triton's output for our kernels;
they stay in the dump folder (git ignores scratch/), only the table goes into
docs.

Per pass it reports how many modules agree, and of those how many Triton left
unchanged; differ (with --show-diff, the first lines of N diffs); tgpu-opt
failed on Triton's input (a pass error or an input tgpu does not read); or
crashed. Passes tgpu does not have are counted apart.
"""

import argparse
import collections
import concurrent.futures
import difflib
import os
import re
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triton_lit import crashed, first_error, registered_passes, run_tool  # noqa: E402

STEM = re.compile(r"^(?P<kernel>.+)\.w(?P<warps>\d+)\.cuda(?P<arch>\d+)\.s(?P<stages>\d+)$")
# NNN.<pass>.ttgir; a pass's own internal steps (NNN.<pass>+K.<step>.ttgir)
# are not modules a pass received.
FILE = re.compile(r"^(?P<index>\d{3})\.(?P<name>[^/+]+)\.ttgir$")


def make_ttgir_steps(folder):
    """[(pass, input file, output file)] of make_ttgir's passes in `folder`.

    make_ttgir ends with sccp, cse, canonicalize; the modules after those
    belong to make_llir (dump_pipeline keeps them up to the LLVM conversion).
    With passes.txt (every pass in order), a pass whose module is missing
    (dump_pipeline --changed-only) received the module of the last file
    before it.
    """
    files = {int(FILE.match(f).group("index")): f for f in os.listdir(folder) if FILE.match(f)}
    order_file = os.path.join(folder, "passes.txt")
    if os.path.exists(order_file):
        with open(order_file) as f:
            names = [l.strip() for l in f if l.strip()]
    else:
        names = [FILE.match(files[i]).group("name") for i in sorted(files)]
        files = dict(enumerate(files[i] for i in sorted(files)))
    end = len(names)
    if "sccp" in names:
        end = min(names.index("sccp") + 3, len(names))

    def received(index):
        """The file holding the module pass `index` received, or None."""
        if index >= len(names):
            return "final.ttgir" if os.path.exists(os.path.join(folder, "final.ttgir")) else None
        earlier = [i for i in files if i <= index]
        return files[max(earlier)] if earlier else None

    steps = []
    for i in range(end):
        src, out = received(i), received(i + 1)
        if src is None or out is None:
            continue
        steps.append((names[i], os.path.join(folder, src), os.path.join(folder, out)))
    return steps


def pass_args(name, config):
    if name == "convert-triton-to-tritongpu":
        return ["--convert-triton-to-tritongpu=target=cuda:%s num-warps=%s threads-per-warp=32 num-ctas=1"
                % (config["arch"], config["warps"])]
    if name in ("tritongpu-assign-latencies", "tritongpu-pipeline"):
        return ["--%s=num-stages=%s" % (name, config["stages"])]
    return ["--" + name]


_normalized = {}
_normalized_lock = threading.Lock()


def normalized(tgpu_opt, path):
    """The module at `path` as tgpu-opt prints it (None if it cannot read it).

    A module is the output of one pass and the input of the next: printed
    once and remembered.
    """
    with _normalized_lock:
        if path in _normalized:
            return _normalized[path]
    p = run_tool([tgpu_opt, path])
    text = p.stdout if p.returncode == 0 else None
    with _normalized_lock:
        _normalized[path] = text
    return text


def compare(tgpu_opt, name, config, src, dst):
    ours = run_tool([tgpu_opt] + pass_args(name, config) + [src])
    if crashed(ours):
        return "crash", first_error(ours.stderr)
    if ours.returncode != 0:
        return "tgpu error", first_error(ours.stderr)
    theirs = normalized(tgpu_opt, dst)
    if theirs is None:
        return "tgpu error", "tgpu-opt cannot read Triton's output"
    if ours.stdout == theirs:
        before = normalized(tgpu_opt, src)
        return ("agree (unchanged)" if before == theirs else "agree"), ""
    diff = difflib.unified_diff(theirs.splitlines(), ours.stdout.splitlines(),
                                "triton", "tgpu", lineterm="", n=1)
    return "differ", "\n".join(list(diff)[:40])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump_dir")
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--passes", default="", help="only these passes (comma-separated)")
    ap.add_argument("--out", help="per-module results as TSV")
    ap.add_argument("--markdown", help="per-pass table as Markdown")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--show-diff", type=int, default=0, metavar="N",
                    help="print the first lines of N differing modules per pass")
    args = ap.parse_args()
    tgpu_opt = os.path.abspath(os.path.join(args.bin, "tgpu-opt"))
    if not os.access(tgpu_opt, os.X_OK):
        sys.exit("error: no tgpu-opt at %s (build first, or pass --bin)" % tgpu_opt)
    if not os.path.isdir(args.dump_dir):
        sys.exit("error: %s is not a folder" % args.dump_dir)
    wanted = set(p for p in args.passes.split(",") if p)
    known = registered_passes(tgpu_opt)

    jobs, missing = [], collections.Counter()
    for entry in sorted(os.listdir(args.dump_dir)):
        m = STEM.match(entry)
        folder = os.path.join(args.dump_dir, entry)
        if not m or not os.path.isdir(folder):
            continue
        config = m.groupdict()
        for name, src, dst in make_ttgir_steps(folder):
            if wanted and name not in wanted:
                continue
            if name not in known:
                missing[name] += 1
                continue
            jobs.append((entry, name, config, src, dst))
    if not jobs and not missing:
        sys.exit("error: no <kernel>.w<warps>.cuda<arch>.s<stages>/NNN.<pass>.ttgir files in %s"
                 % args.dump_dir)

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(compare, tgpu_opt, name, config, src, dst)
                   for entry, name, config, src, dst in jobs]
        for (entry, name, config, src, dst), fut in zip(jobs, futures):
            status, detail = fut.result()
            results.append((name, entry, os.path.basename(src), status, detail))

    order = []
    for name, *_ in results:
        if name not in order:
            order.append(name)
    statuses = ["agree", "agree (unchanged)", "differ", "tgpu error", "crash"]
    table = {n: collections.Counter() for n in order}
    for name, _, _, status, _ in results:
        table[name][status] += 1

    lines = ["| pass | modules | agree (changed by Triton) | agree (unchanged) | differ | tgpu error | crash |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    totals = collections.Counter()
    for name in order:
        c = table[name]
        totals.update(c)
        lines.append("| `%s` | %d | %s |" % (name, sum(c.values()),
                                               " | ".join(str(c[s]) for s in statuses)))
    lines.append("| **all** | %d | %s |" % (sum(totals.values()),
                                             " | ".join(str(totals[s]) for s in statuses)))
    print("\n".join(lines))
    if missing:
        print("\npasses tgpu does not have (modules): " +
              ", ".join("%s %d" % kv for kv in sorted(missing.items(), key=lambda kv: -kv[1])))
    if args.show_diff:
        shown = collections.Counter()
        for name, entry, src, status, detail in results:
            if status in ("differ", "tgpu error", "crash") and shown[name] < args.show_diff:
                shown[name] += 1
                print("\n=== %s on %s/%s: %s\n%s" % (name, entry, src, status, detail))
    if args.out:
        with open(args.out, "w") as f:
            for row in results:
                f.write("\t".join(row[:4]) + "\t" + row[4].replace("\n", "\\n") + "\n")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
            if missing:
                f.write("\nPasses tgpu does not have (modules): " +
                        ", ".join("`%s` %d" % kv for kv in sorted(missing.items(), key=lambda kv: -kv[1]))
                        + "\n")
    sys.exit(1 if totals["crash"] else 0)


if __name__ == "__main__":
    main()
