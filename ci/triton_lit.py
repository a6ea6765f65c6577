#!/usr/bin/env python3
"""Measure how tgpu reads Triton's own lit tests.

Usage: ci/triton_lit.py TEST_DIR [--bin build/bin] [--out DIR] [--markdown FILE]
                        [--jobs N] [--filter SUBSTRING]

TEST_DIR holds Triton's lit test files (*.mlir, any depth), e.g. a folder that git
ignores into which test/{Triton,TritonGPU,TritonNvidiaGPU,Analysis,Conversion} of
triton-lang/triton were copied. They are Triton's text and never go into this
repository; this script only runs tgpu-opt on them and reports.

Every file is cut into chunks the way its RUN lines cut it (`// -----` under
-split-input-file). A chunk that targets AMD GPUs or Blackwell tensor memory
(tcgen05/tmem) is "excluded": tgpu reads NVIDIA IR up to Hopper. For every other
chunk the script records:

  read   tgpu-opt parses and verifies the chunk as Triton does: a chunk with
         expected-error/warning/remark lines from the verifier runs under
         --verify-diagnostics and must produce exactly those diagnostics, any
         other chunk must parse and verify cleanly.
  check  for each RUN line that pipes triton-opt into FileCheck and whose passes
         tgpu-opt registers: tgpu-opt runs the same passes and options on the
         chunk, and FileCheck checks the output against the chunk's CHECK lines
         (round-trip printing for RUN lines without passes). RUN lines that use a
         pass tgpu-opt does not have are listed as "missing pass", not counted.
  crash  any tgpu-opt run that died on a signal or printed a stack dump.

Output: a summary on stdout, per-chunk results as TSV in --out, and with
--markdown a table per file for docs/.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

TIMEOUT_S = 60

# A chunk is not NVIDIA-up-to-Hopper input when it mentions any of these.
EXCLUDED_MARKERS = [
    (re.compile(r"amdgpu|amdg\.|amd_mfma|amd_wmma|rocdl|#ttg\.padded_shared|gfx9|gfx1[0-9]|hip:"), "AMD"),
    (re.compile(r"ttng\.tmem|tc_gen5|tensor_memory|tcgen05|ttng\.tmem_|cuda:1[0-2]0|"
                r"compute-capability=1[0-2]0|ttng\.async_tma_scatter|nvws\."), "Blackwell"),
]

# Triton pass names and the tgpu-opt pass that does the same job (none at
# present: tgpu registers Triton's names).
PASS_ALIASES = {}

# Driver flags of triton-opt that are not passes.
DRIVER_FLAGS = {
    "split-input-file", "verify-diagnostics", "allow-unregistered-dialect",
    "mlir-disable-threading", "mlir-print-debuginfo", "mlir-pretty-debuginfo",
    "mlir-print-local-scope", "o", "debug", "debug-only",
}

DIAG_RE = re.compile(r"expected-(error|warning|remark|note)")
CHECK_DIAG_PASSES_NONE = object()


@dataclass
class Run:
    line: str
    opt_args: list            # tgpu-opt arguments (passes and flags), no input
    passes: list              # pass names in order
    filecheck: list = None    # FileCheck arguments with %s still in them
    expect_fail: bool = False
    stderr_to_stdout: bool = False
    amd: bool = False
    later_tools: list = field(default_factory=list)


@dataclass
class ChunkResult:
    file: str
    index: int
    line: int
    excluded: str = ""
    read: str = ""            # ok / fail
    read_detail: str = ""
    checks: list = field(default_factory=list)   # (run#, status, detail)
    crash: bool = False


def split_run_lines(text):
    """RUN lines with `\\` continuations joined."""
    runs, cur = [], None
    for raw in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", raw)
        if not m:
            continue
        part = m.group(1).rstrip()
        if cur is None:
            cur = part
        else:
            cur += " " + part
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        runs.append(cur.strip())
        cur = None
    return runs


def pass_name(arg):
    a = arg.lstrip("-")
    return re.split(r"[=\s{]", a, maxsplit=1)[0]


def parse_run(line):
    """Split a RUN line into its triton-opt and FileCheck stages."""
    stages = [s.strip() for s in re.split(r"\|(?!\|)", line)]
    run = Run(line=line, opt_args=[], passes=[])
    first = stages[0]
    # 2>&1 / 2>/dev/null on the triton-opt stage
    if "2>&1" in first:
        run.stderr_to_stdout = True
        first = first.replace("2>&1", "")
    first = re.sub(r"2>\s*/dev/null", "", first)
    try:
        toks = shlex.split(first)
    except ValueError:
        return None
    while toks and (toks[0] == "not" or toks[0] == "env" or re.match(r"^\w+=", toks[0])):
        if toks[0] == "not":
            run.expect_fail = True
        toks = toks[1:]
    if not toks or toks[0] != "triton-opt":
        return None
    toks = toks[1:]
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "%s":
            i += 1
            continue
        if t == "-o":
            i += 2
            continue
        name = pass_name(t)
        if t.startswith("-") and name in DRIVER_FLAGS:
            run.opt_args.append(t)
        elif t.startswith("-pass-pipeline") or t.startswith("--pass-pipeline"):
            run.opt_args.append(t)
            inner = t.split("=", 1)[1] if "=" in t else ""
            inner = re.sub(r"^builtin\.module\((.*)\)$", r"\1", inner.strip("'\""))
            depth, cur, names = 0, "", []
            for ch in inner:
                if ch in "({":
                    depth += 1
                elif ch in ")}":
                    depth -= 1
                if ch == "," and depth == 0:
                    names.append(cur)
                    cur = ""
                else:
                    cur += ch
            names.append(cur)
            run.passes += [re.split(r"[{(]", n.strip())[0] for n in names if n.strip()]
        elif t.startswith("-"):
            alias = PASS_ALIASES.get(name)
            if alias:
                t = t.replace(name, alias, 1)
                name = alias
            run.opt_args.append(t)
            run.passes.append(name)
        i += 1
    if any("amdgpu" in p or p.startswith("tritonamd") for p in run.passes):
        run.amd = True
    for st in stages[1:]:
        try:
            stoks = shlex.split(st)
        except ValueError:
            return None
        if stoks and stoks[0] == "FileCheck":
            run.filecheck = stoks[1:]
        elif stoks:
            run.later_tools.append(stoks[0])
    return run


def split_chunks(text, split):
    """(first line number, chunk text) pairs; the chunk keeps its line numbers
    by padding with blank lines so that diagnostics and FileCheck match."""
    lines = text.splitlines(keepends=True)
    if not split:
        return [(1, text)]
    chunks, start = [], 0
    for i, l in enumerate(lines):
        if re.match(r"^\s*//\s*-----\s*$", l):
            chunks.append((start, lines[start:i]))
            start = i + 1
    chunks.append((start, lines[start:]))
    return [(s + 1, "".join(c)) for s, c in chunks]


def registered_passes(tgpu_opt):
    out = subprocess.run([tgpu_opt, "--help"], capture_output=True, text=True).stdout
    names = set()
    for l in out.splitlines():
        m = re.match(r"^      --([a-z0-9][a-z0-9-]*)", l)
        if m:
            names.add(m.group(1))
    return names


def crashed(proc):
    return proc.returncode < 0 or "Stack dump" in proc.stderr or \
        "PLEASE submit a bug report" in proc.stderr


def run_tool(args, stdin=None):
    try:
        return subprocess.run(args, capture_output=True, text=True, input=stdin,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -999, "", "timeout (hang)")


def first_error(stderr):
    for l in stderr.splitlines():
        if "error:" in l:
            return l.strip()[:200]
    return stderr.strip().splitlines()[0][:200] if stderr.strip() else ""


def excluded_reason(chunk_text):
    body = "\n".join(l for l in chunk_text.splitlines()
                     if not re.match(r"\s*//\s*(RUN|CHECK|[A-Z0-9_-]+:)", l))
    for rx, why in EXCLUDED_MARKERS:
        if rx.search(body):
            return why
    return ""


def check_chunk(path, rel, idx, first_line, chunk, runs, diag_runs_no_pass, known,
                tgpu_opt, filecheck, tmpdir):
    res = ChunkResult(rel, idx, first_line)
    res.excluded = excluded_reason(chunk)
    if all(r.amd for r in runs) and runs:
        res.excluded = "AMD"
    if res.excluded:
        return res
    # Keep the chunk's line numbers: pad with blank lines.
    padded = "\n" * (first_line - 1) + chunk
    src = os.path.join(tmpdir, f"{abs(hash((rel, idx)))}.mlir")
    with open(src, "w") as f:
        f.write(padded)
    allow_unreg = any("allow-unregistered-dialect" in a for r in runs for a in r.opt_args)
    base = [tgpu_opt, src] + (["--allow-unregistered-dialect"] if allow_unreg else [])
    has_diag = bool(DIAG_RE.search(chunk))
    if has_diag and diag_runs_no_pass:
        p = run_tool(base + ["--verify-diagnostics"])
    else:
        p = run_tool(base + ["-o", os.devnull])
    res.crash |= crashed(p)
    res.read = "ok" if p.returncode == 0 else "fail"
    if p.returncode != 0:
        res.read_detail = first_error(p.stderr)
    for ri, r in enumerate(runs):
        if r.amd or r.filecheck is None:
            continue
        if r.later_tools:
            res.checks.append((ri, "other tool", " | ".join(r.later_tools)))
            continue
        missing = [x for x in r.passes if x not in known]
        if missing:
            res.checks.append((ri, "missing pass", ",".join(dict.fromkeys(missing))))
            continue
        args = [a for a in r.opt_args if "split-input-file" not in pass_name(a)]
        if not has_diag:
            args = [a for a in args if pass_name(a) != "verify-diagnostics"]
        p = run_tool(base + args)
        res.crash |= crashed(p)
        if crashed(p):
            res.checks.append((ri, "crash", first_error(p.stderr)))
            continue
        out = p.stdout + (p.stderr if r.stderr_to_stdout else "")
        if p.returncode != 0 and not r.expect_fail and not r.stderr_to_stdout:
            res.checks.append((ri, "fail", "tgpu-opt: " + first_error(p.stderr)))
            continue
        fc_args = [src if a == "%s" else a for a in r.filecheck]
        fc = run_tool([filecheck] + fc_args, stdin=out)
        if fc.returncode == 0:
            res.checks.append((ri, "ok", ""))
        elif "no check strings found" in fc.stderr:
            pass  # this chunk has no CHECK lines for this RUN line
        else:
            res.checks.append((ri, "fail", "FileCheck: " + first_error(fc.stderr)))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("test_dir")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin"))
    ap.add_argument("--filecheck", default="/usr/lib/llvm-22/bin/FileCheck")
    ap.add_argument("--out", help="folder for results.tsv")
    ap.add_argument("--markdown", help="write the per-file table here")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--filter", default="", help="only files whose path contains this")
    args = ap.parse_args()

    tgpu_opt = os.path.abspath(os.path.join(args.bin, "tgpu-opt"))
    if not os.access(tgpu_opt, os.X_OK):
        sys.exit(f"triton_lit.py: no tgpu-opt at {tgpu_opt}")
    if not os.path.isdir(args.test_dir):
        sys.exit(f"triton_lit.py: {args.test_dir}: not a folder")
    known = registered_passes(tgpu_opt)

    files = []
    for root, _, names in os.walk(args.test_dir):
        for n in names:
            if n.endswith(".mlir"):
                p = os.path.join(root, n)
                if args.filter in p:
                    files.append(p)
    files.sort()

    tmpdir = tempfile.mkdtemp(prefix="triton-lit-")
    jobs = []
    for path in files:
        rel = os.path.relpath(path, args.test_dir)
        text = open(path, encoding="utf-8", errors="replace").read()
        runs = [r for r in (parse_run(l) for l in split_run_lines(text)) if r]
        if not runs:
            continue
        split = any("split-input-file" in a for r in runs for a in r.opt_args)
        # Diagnostics come from the verifier when a verify-diagnostics RUN line
        # runs no pass.
        diag_no_pass = any(any("verify-diagnostics" in a for a in r.opt_args) and not r.passes
                           for r in runs)
        for idx, (line, chunk) in enumerate(split_chunks(text, split)):
            if not chunk.strip() or not re.search(r"\S", re.sub(r"//.*", "", chunk)):
                continue
            jobs.append((path, rel, idx, line, chunk, runs, diag_no_pass))

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(check_chunk, *j, known, tgpu_opt, args.filecheck, tmpdir)
                for j in jobs]
        for f in futs:
            results.append(f.result())

    report(results, args)


def report(results, args):
    nv = [r for r in results if not r.excluded]
    excl = len(results) - len(nv)
    read_ok = sum(r.read == "ok" for r in nv)
    checks = [(r, c) for r in nv for c in r.checks]
    counted = [(r, c) for r, c in checks if c[1] in ("ok", "fail", "crash")]
    check_ok = sum(c[1] == "ok" for _, c in counted)
    missing = {}
    for r, c in checks:
        if c[1] == "missing pass":
            for p in c[2].split(","):
                missing[p] = missing.get(p, 0) + 1
    crashes = [r for r in results if r.crash]
    pct = lambda a, b: f"{100.0 * a / b:.1f}%" if b else "n/a"
    # Files first: a summary piped into `head` must not lose them.
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "results.tsv"), "w") as f:
            f.write("file\tchunk\tline\texcluded\tread\tread_detail\tchecks\tcrash\n")
            for r in results:
                cs = "; ".join(f"run{c[0]}:{c[1]}" + (f" ({c[2]})" if c[2] else "")
                               for c in r.checks)
                f.write(f"{r.file}\t{r.index}\t{r.line}\t{r.excluded}\t{r.read}\t"
                        f"{r.read_detail}\t{cs}\t{int(r.crash)}\n")
    if args.markdown:
        by_file = {}
        for r in results:
            by_file.setdefault(r.file, []).append(r)
        with open(args.markdown, "w") as f:
            f.write("| file | chunks | excluded | read | CHECK agree | missing pass | crash |\n")
            f.write("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
            for name in sorted(by_file):
                rs = by_file[name]
                n = [r for r in rs if not r.excluded]
                c = [c for r in n for c in r.checks if c[1] in ("ok", "fail", "crash")]
                m = sum(1 for r in n for c in r.checks if c[1] == "missing pass")
                f.write(f"| {name} | {len(rs)} | {len(rs) - len(n)} | "
                        f"{sum(r.read == 'ok' for r in n)}/{len(n)} | "
                        f"{sum(x[1] == 'ok' for x in c)}/{len(c)} | {m} | "
                        f"{sum(r.crash for r in rs)} |\n")
            f.write(f"| **all** | {len(results)} | {excl} | {read_ok}/{len(nv)} "
                    f"({pct(read_ok, len(nv))}) | {check_ok}/{len(counted)} "
                    f"({pct(check_ok, len(counted))}) | {sum(missing.values())} | "
                    f"{len(crashes)} |\n")

    # A summary piped into `head` ends quietly, as other tools do. Only now:
    # while the tools run, a FileCheck that stops reading its input early
    # must not kill this script with SIGPIPE (Python's default turns it
    # into an error that subprocess handles).
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    print(f"chunks: {len(results)} ({excl} AMD/Blackwell excluded, {len(nv)} NVIDIA)")
    print(f"read as Triton reads them: {read_ok}/{len(nv)} = {pct(read_ok, len(nv))}")
    print(f"CHECK runs with passes tgpu has: {check_ok}/{len(counted)} agree = "
          f"{pct(check_ok, len(counted))}")
    print(f"CHECK runs with a pass tgpu lacks: {sum(missing.values())} "
          f"(passes: {', '.join(f'{k} {v}' for k, v in sorted(missing.items(), key=lambda kv: -kv[1]))})")
    print(f"crashes: {len(crashes)}")
    for r in crashes:
        print(f"  CRASH {r.file} chunk {r.index} (line {r.line})")


if __name__ == "__main__":
    main()
