#!/usr/bin/env python3
"""Run the CPU reference after every one of Triton's passes: pin a wrong result to the pass.

Usage: ci/triton_pass_reference.py DUMP_DIR PROGRAM_DIR [--bin build/bin]
                                   [--jobs N] [--out FILE.tsv] [--markdown FILE]

DUMP_DIR is what `corpus/kernels/triton_pipeline/dump_pipeline.py --every-pass`
wrote on the GPU machine for generated programs: one folder per compilation,
<kernel>.w<warps>.cuda<arch>.s<stages>/NNN.<pass>.ttgir (the module Triton 3.6
handed to its pass NNN, make_ttgir's passes and make_llir's up to the LLVM
conversion; with --changed-only only the modules that differ from the one
before), NNN.<pass>+K.<step>.ttgir (a step the pass printed while it ran: the
pipeliner's LowerLoops and ExpandLoops) and passes.txt (every pass in order).
PROGRAM_DIR holds the programs as tgpu-gen wrote them: <kernel>.ttir and
<kernel>.json, whose "launch" is how the reference runs the kernel.

For each compilation, tgpu-run runs the program's TTIR (the reference) and then
every module in order, with the same launch. A module's result is compared with
the reference bit for bit; after a pass that reassociates float reductions
(tritongpu-optimize-thread-locality, as Triton's does) a float output may differ
within the program's `abs_tolerance` and the module's results become the
reference from there on. The first module that computes something else, or
that the reference calls undefined behaviour (e.g. a read of a shared slot
whose async copy was not waited for), is a finding: pinned to the pass before
it (for module 000, to make_ttir, Triton's TTIR passes), with the file to
reduce. The rest of that compilation is not run. A module tgpu-run cannot read
or run (an op it lacks) is counted as unread and the next module is tried.

The table lists, per pass, the modules it produced that ran, agreed, were
wrong, undefined, or unread.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

STEM = re.compile(r"^(?P<kernel>.+)\.w(?P<warps>\d+)\.cuda(?P<arch>\d+)\.s(?P<stages>\d+)$")
MODULE = re.compile(r"^(?P<index>\d{3})\.(?P<name>[^/+]+)(?:\+(?P<step>\d+)\.(?P<stepname>[\w-]+))?\.ttgir$")
REASSOCIATING = {"tritongpu-optimize-thread-locality"}
FLOAT_FORMATS = {"f16": ("e", 2), "f32": ("f", 4), "f64": ("d", 8), "bf16": (None, 2)}
TIMEOUT_S = 120


def modules_of(folder):
    """[(index, step, producer, file)] in run order; producer is the pass whose
    output the module is ("make_ttir" for module 000)."""
    order_file = os.path.join(folder, "passes.txt")
    names = []
    if os.path.exists(order_file):
        with open(order_file) as f:
            names = [l.strip() for l in f if l.strip()]
    found = []
    for f in os.listdir(folder):
        m = MODULE.match(f)
        if not m:
            continue
        index, step = int(m.group("index")), int(m.group("step") or 0)
        if step:
            producer = "%s (%s)" % (m.group("name"), m.group("stepname"))
        elif index == 0:
            producer = "make_ttir"
        elif index - 1 < len(names):
            producer = names[index - 1]
        else:
            producer = "pass %d" % (index - 1)
        found.append((index, step, producer, os.path.join(folder, f)))
    return sorted(found)


def run_reference(tgpu_run, path, launch, dump):
    """(status, detail): "ok", "undefined" or "unread"."""
    options, _, args = launch.partition(" -- ")
    cmd = [tgpu_run, path] + options.split() + ["--dump", dump, "--"] + args.split()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "unread", "timeout"
    if proc.returncode == 0:
        return "ok", ""
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    detail = next((l for l in lines if "undefined behaviour" in l or "error" in l), lines[0] if lines else "")
    if proc.returncode == 2 and "undefined behaviour" in proc.stderr:
        return "undefined", detail.strip()[:300]
    return "unread", (detail.strip() or "exit %d" % proc.returncode)[:300]


INT_FORMATS = {"i1": "B", "i8": "b", "i16": "h", "i32": "i", "i64": "q"}


def elements(data, type_name):
    """The buffer's elements as numbers, or None for a type not listed."""
    if type_name in FLOAT_FORMATS:
        fmt, size = FLOAT_FORMATS[type_name]
        n = len(data) // size
        if fmt:
            return struct.unpack("<%d%s" % (n, fmt), data[:n * size])
        halves = struct.unpack("<%dH" % n, data[:n * size])
        return [struct.unpack("<f", struct.pack("<I", h << 16))[0] for h in halves]
    if type_name in INT_FORMATS:
        size = struct.calcsize(INT_FORMATS[type_name])
        n = len(data) // size
        return struct.unpack("<%d%s" % (n, INT_FORMATS[type_name]), data[:n * size])
    return None


def difference(ref_dir, got_dir, outputs, tolerant):
    """'' when the dumps agree (within an output's abs_tolerance when
    `tolerant`); else the first element that differs."""
    names = sorted(set(os.listdir(ref_dir)) | set(os.listdir(got_dir)))
    for name in names:
        a_path, b_path = os.path.join(ref_dir, name), os.path.join(got_dir, name)
        if not (os.path.exists(a_path) and os.path.exists(b_path)):
            return "%s written by one side only" % name
        with open(a_path, "rb") as f:
            a = f.read()
        with open(b_path, "rb") as f:
            b = f.read()
        if a == b:
            continue
        arg = int(re.sub(r"\D", "", name) or -1)
        out = outputs.get(arg, {})
        xs, ys = elements(a, out.get("type")), elements(b, out.get("type"))
        if xs is None or len(a) != len(b):
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            return "arg%d byte %d: %s, reference %s" % (arg, i, b[i:i + 4].hex(), a[i:i + 4].hex())
        allowed = out.get("abs_tolerance", 0) if tolerant and out.get("type") in FLOAT_FORMATS else 0
        bad = [i for i, (x, y) in enumerate(zip(xs, ys))
               if not (x == y or abs(x - y) <= allowed or (x != x and y != y))]
        if not bad:
            continue
        i = bad[0]
        return "arg%d[%d]: %r, reference %r%s" % (
            arg, i, ys[i], xs[i], " (beyond the tolerance %g)" % allowed if allowed else "")
    return ""


def check_compilation(tgpu_run, folder, program_dir, tmp):
    """(kernel-level status, [(producer, module status, detail, file, (index, step))])."""
    m = STEM.match(os.path.basename(folder))
    kernel = m.group("kernel")
    meta_path = os.path.join(program_dir, kernel + ".json")
    ttir = os.path.join(program_dir, kernel + ".ttir")
    if not (os.path.exists(meta_path) and os.path.exists(ttir)):
        return "no program", []
    with open(meta_path) as f:
        meta = json.load(f)
    launch = meta["launch"]
    outputs = {o["arg"]: o for o in meta.get("outputs", [])}
    work = tempfile.mkdtemp(dir=tmp)
    try:
        ref = os.path.join(work, "ref")
        status, detail = run_reference(tgpu_run, ttir, launch, ref)
        if status != "ok":
            return "reference refuses: " + detail, []
        rows = []
        for k, (index, step, producer, path) in enumerate(modules_of(folder)):
            got = os.path.join(work, "m%d" % k)
            status, detail = run_reference(tgpu_run, path, launch, got)
            if status == "ok":
                base = producer.split(" (")[0]
                diff = difference(ref, got, outputs, base in REASSOCIATING)
                if diff:
                    status, detail = "wrong", diff
                elif base in REASSOCIATING:
                    ref = got  # results within the tolerance are the reference from here
            rows.append((producer, status, detail, path, (index, step)))
            if status in ("wrong", "undefined"):
                break
        return "ok", rows
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump_dir")
    ap.add_argument("program_dir")
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", help="per-module results as TSV")
    ap.add_argument("--markdown", help="per-pass table as Markdown")
    opts = ap.parse_args()
    for d in (opts.dump_dir, opts.program_dir):
        if not os.path.isdir(d):
            print("error: %s is not a folder" % d, file=sys.stderr)
            return 1
    tgpu_run = os.path.join(opts.bin, "tgpu-run")
    if not os.access(tgpu_run, os.X_OK):
        print("error: no tgpu-run in %s" % opts.bin, file=sys.stderr)
        return 1
    folders = sorted(os.path.join(opts.dump_dir, f) for f in os.listdir(opts.dump_dir)
                     if STEM.match(f) and os.path.isdir(os.path.join(opts.dump_dir, f)))
    refused = sorted(f for f in os.listdir(opts.dump_dir) if f.endswith(".error"))
    tmp = tempfile.mkdtemp(prefix="triton-pass-reference-")
    results = {}
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
            futures = {pool.submit(check_compilation, tgpu_run, f, opts.program_dir, tmp): f
                       for f in folders}
            for fut in concurrent.futures.as_completed(futures):
                results[futures[fut]] = fut.result()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    per_pass = {}
    position = {}  # producer -> earliest (index, step) it made a module at
    kernel_status = collections.Counter()
    findings, unread = [], collections.Counter()
    tsv = ["compilation\tproducer\tstatus\tdetail"]
    for folder in folders:
        status, rows = results[folder]
        kernel_status[status.split(":")[0]] += 1
        for producer, st, detail, path, key in rows:
            position[producer] = min(position.get(producer, key), key)
            counts = per_pass.setdefault(producer, collections.Counter())
            counts[st] += 1
            tsv.append("%s\t%s\t%s\t%s" % (os.path.basename(folder), producer, st, detail))
            if st in ("wrong", "undefined"):
                findings.append((producer, st, detail, path))
            elif st == "unread":
                unread[detail.split(":")[-1].strip()[:100]] += 1

    lines = ["| module made by | ran | agree | wrong | undefined | unread |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    total = collections.Counter()
    for producer, c in sorted(per_pass.items(), key=lambda kv: position[kv[0]]):
        ran = c["ok"] + c["wrong"] + c["undefined"]
        total.update(c)
        lines.append("| `%s` | %d | %d | %d | %d | %d |" % (
            producer, ran, c["ok"], c["wrong"], c["undefined"], c["unread"]))
    ran = total["ok"] + total["wrong"] + total["undefined"]
    lines.append("| **all** | %d | %d | %d | %d | %d |" % (
        ran, total["ok"], total["wrong"], total["undefined"], total["unread"]))
    table = "\n".join(lines)
    print("%d compilations (%s); %d refused by Triton" % (
        len(folders), ", ".join("%s %d" % kv for kv in sorted(kernel_status.items())), len(refused)))
    print(table)
    if unread:
        print("\nunread modules, by tgpu-run's message:")
        for msg, n in unread.most_common(10):
            print("  %4d  %s" % (n, msg))
    print("\nfindings: %d" % len(findings))
    for producer, st, detail, path in findings:
        print("  %s after %s: %s\n    %s" % (st, producer, detail, path))
    if opts.out:
        with open(opts.out, "w") as f:
            f.write("\n".join(tsv) + "\n")
    if opts.markdown:
        with open(opts.markdown, "w") as f:
            f.write(table + "\n")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
