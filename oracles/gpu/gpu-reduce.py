#!/usr/bin/env python3
"""Reduces a GPU-oracle finding with the GPU in the loop, in rounds: the
candidates are made here (tgpu-opt checks each, tgpu-oracle bundles it with a
fresh CPU reference, so a candidate that verifies but has undefined behaviour
is dropped) and judged on the GPU machine (gpu-campaign.sh, Triton included);
the smallest candidate whose verdict is still the finding's starts the next
round, until none is.

  gpu-reduce.py propose KERNEL -o ROUND_DIR    # here: candidates + bundles
  oracles/gpu/gpu-campaign.sh --triton ROUND_DIR   # there: report.json
  gpu-reduce.py pick ROUND_DIR REPORT_DIR --want WANT [-o NEXT_KERNEL]

For a finding against Triton that needs no reference (an error such as an
illegal address, or a compiler crash) the rounds can also run on the GPU
machine alone, many in one call:

  gpu-reduce.py loop BUNDLE GENERIC_KERNEL --want WANT --runner tgpu-gpu-run -o DIR

starts from GENERIC_KERNEL (tgpu-opt --mlir-print-op-generic of the bundle's
kernel: Triton reads the generic form), judges candidates with Triton's image
alone on BUNDLE's inputs, and writes each round's best to DIR. Without the
reference it cannot see undefined behaviour: bundle the result here again
(tgpu-oracle checks it) and confirm it three ways.

WANT says what keeps a candidate interesting:
  IMPL:error[:TEXT]   IMPL's image stopped with an error (its message holds TEXT)
  IMPL:fail           IMPL's image ran and gave wrong results
  triton:crash        Triton's compiler died (add_triton_images reported "crash:")
  triton:reject:TEXT  Triton refused the kernel with TEXT in its first error or its
                      log (loop only; an assertion Triton's crash recovery caught reads
                      "A signal was caught")
where the other images must pass (so the verdict stays against IMPL).

Candidates, each followed by dead-code removal (ops whose results nothing
uses, unless they write memory): ops replaced by zero constants, or by one of
their operands of the same type, in chunks of halving sizes down to single
ops (ddmin-style); each store removed; chains of convert_layouts bypassed. Ops are found in MLIR's generic form (tgpu-opt
--mlir-print-op-generic), where every op states its result types.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

SIDE_EFFECTS = ("tt.store", "tt.atomic_rmw", "tt.atomic_cas", "tt.print", "tt.assert",
                "ttg.local_store", "ttg.local_dealloc")
TERMINATORS = ("tt.return", "scf.yield", "scf.condition", "tt.reduce.return",
               "tt.scan.return")


class Op:
    def __init__(self, start, end, results, name, types):
        self.start, self.end = start, end   # line range [start, end]
        self.results = results              # ["%5"] or ["%5#0", "%5#1"]
        self.name = name
        self.types = types                  # result type texts
        self.children = []


def split_top(text, sep=","):
    """Splits at `sep` outside <>, (), [], {} and quotes."""
    parts, depth, cur, quote = [], 0, "", False
    for ch in text:
        if ch == '"':
            quote = not quote
        if not quote:
            if ch in "<([{":
                depth += 1
            elif ch in ">)]}":
                depth -= 1
            elif ch == sep and depth == 0:
                parts.append(cur.strip())
                cur = ""
                continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def result_types(sig):
    """'(A, B) -> C' or '(A) -> (C, D)' -> ['C'] / ['C', 'D']."""
    depth = 0
    for i in range(len(sig)):
        ch = sig[i]
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif depth == 0 and sig.startswith("->", i):
            res = sig[i + 2:].strip()
            if res.startswith("(") and res.endswith(")"):
                return split_top(res[1:-1])
            return [res]
    return []


OP_START = re.compile(r'^\s*(?:(%[\w$.]+)(?::(\d+))?\s*=\s*)?"([\w.]+)"')


def signature_of(line):
    """The text after the last top-level ' : ' of an op's final line."""
    depth, quote, at = 0, False, -1
    for i, ch in enumerate(line):
        if ch == '"':
            quote = not quote
        if quote:
            continue
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif depth == 0 and line.startswith(" : ", i):
            at = i
    return line[at + 3:] if at >= 0 else ""


def parse_ops(lines):
    """The ops of a generic-form module, as a tree by line ranges."""
    root = Op(-1, len(lines), [], "root", [])
    stack = [root]
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("})"):
            op = stack.pop()
            op.end = i
            op.types = result_types(signature_of(line))
            continue
        m = OP_START.match(line)
        if not m:
            continue
        name, count, opname = m.group(1), m.group(2), m.group(3)
        results = []
        if name:
            results = ["%s#%d" % (name, k) for k in range(int(count))] if count else [name]
        op = Op(i, i, results, opname, [])
        stack[-1].children.append(op)
        if stripped.endswith("({"):
            stack.append(op)
        else:
            op.types = result_types(signature_of(line))
    return root


def walk(op):
    for c in op.children:
        yield c
        yield from walk(c)


def zero_constant(name, ty):
    if "!tt.ptr" in ty or "memdesc" in ty:
        return None
    m = re.match(r"tensor<(?:\d+x)*([a-z0-9]+)\s*(,.*)?>$", ty)
    elem = m.group(1) if m else ty
    if elem == "i1":
        value = "false"
    elif re.fullmatch(r"i\d+", elem):
        value = "0"
    elif re.fullmatch(r"(f16|bf16|f32|f64|f8\w*)", elem):
        value = "0.000000e+00"
    else:
        return None
    attr = ("dense<%s> : %s" % (value, ty)) if m else ("%s : %s" % (value, ty))
    return '%s = "arith.constant"() <{value = %s}> : () -> %s' % (name, attr, ty)


def use_pattern(name):
    # %5 must not match %50 or %5#1's other results.
    return re.compile(re.escape(name) + r"(?![\w$.])")


def replace_op(lines, op):
    """Replaces op's lines by zero constants for its results (or by nothing
    when it has none); None when a result cannot be a constant."""
    if len(op.types) != len(op.results):
        return None
    indent = re.match(r"\s*", lines[op.start]).group(0)
    new = []
    for res, ty in zip(op.results, op.types):
        c = zero_constant(res.replace("#", "_r"), ty)
        if c is None:
            return None
        new.append(indent + c)
    out = lines[:op.start] + new + lines[op.end + 1:]
    # %5#0 becomes the plain name %5_r0 its constant was given.
    for r in op.results:
        if "#" in r:
            pat = use_pattern(r)
            out = [pat.sub(r.replace("#", "_r"), l) for l in out]
    return out


TOKEN = re.compile(r"%[\w$.]+(?:#\d+)?")


def has_effects(lines, op):
    return any(('"%s"' % n) in lines[i] for i in range(op.start, op.end + 1) for n in SIDE_EFFECTS)


def dce(lines):
    """Removes, to a fixpoint, the ops whose results nothing uses and that
    write no memory."""
    while True:
        root = parse_ops(lines)
        counts = {}
        for tok in TOKEN.findall("\n".join(lines)):
            counts[tok] = counts.get(tok, 0) + 1
        dead = []
        for op in walk(root):
            if (op.name in TERMINATORS or op.name in ("tt.func", "builtin.module")
                    or not op.results or has_effects(lines, op)):
                continue
            if len(op.results) == 1:
                uses = counts.get(op.results[0], 0) - 1   # its definition
            else:
                uses = sum(counts.get(r, 0) for r in op.results)
            if uses <= 0:
                dead.append((op.start, op.end))
        if not dead:
            return lines
        drop = set()
        for lo, hi in dead:
            drop.update(range(lo, hi + 1))
        lines = [l for i, l in enumerate(lines) if i not in drop]


def body_ops(root):
    """The kernel's ops, outermost first (candidates for replacement)."""
    return [op for op in walk(root)
            if op.name not in TERMINATORS and op.name not in ("tt.func", "builtin.module")]


def count_ops(lines):
    return len(body_ops(parse_ops(lines)))


def bypass_converts(lines, root):
    """For each convert_layout of a convert_layout: convert from the first's
    source (or use it directly when the types match)."""
    ops = {op.results[0]: op for op in walk(root) if len(op.results) == 1}
    out = []
    for op in walk(root):
        if op.name != "ttg.convert_layout":
            continue
        m = re.search(r'"ttg.convert_layout"\((%[\w$.#]+)\)', lines[op.start])
        src = ops.get(m.group(1)) if m else None
        if not src or src.name != "ttg.convert_layout":
            continue
        m2 = re.search(r'"ttg.convert_layout"\((%[\w$.#]+)\)\s*:\s*\((.*)\)\s*->', lines[src.start])
        if not m2:
            continue
        first, first_ty = m2.group(1), m2.group(2)
        new = list(lines)
        if first_ty == op.types[0]:
            pat = use_pattern(op.results[0])
            new = new[:op.start] + new[op.start + 1:]
            new = [pat.sub(first, l) for l in new]
        else:
            new[op.start] = re.sub(r'\((%[\w$.#]+)\)\s*:\s*\((.*)\)\s*->',
                                   "(%s) : (%s) ->" % (first, first_ty), new[op.start])
        out.append(("bypass %s" % op.results[0], new))
    return out


def operand_types(sig):
    """'(A, B) -> C' -> ['A', 'B']."""
    depth = 0
    for i, ch in enumerate(sig):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif depth == 0 and sig.startswith("->", i):
            head = sig[:i].strip()
            if head.startswith("(") and head.endswith(")"):
                return split_top(head[1:-1])
            return []
    return []


def forward_operand(lines, op):
    """Removes a one-line, one-result op, its uses taking its first operand
    of the result's type (mlir-reduce's operand forwarding); None when no
    operand has that type."""
    if op.start != op.end or len(op.results) != 1 or "#" in op.results[0]:
        return None
    m = re.search(r'"[\w.]+"\(([^()]*)\)', lines[op.start])
    if not m or not m.group(1).strip():
        return None
    names = [n.strip() for n in m.group(1).split(",")]
    types = operand_types(signature_of(lines[op.start]))
    if len(names) != len(types):
        return None
    for name, ty in zip(names, types):
        if ty == op.types[0]:
            pat = use_pattern(op.results[0])
            out = lines[:op.start] + lines[op.start + 1:]
            return [pat.sub(name, l) for l in out]
    return None


def candidates(lines):
    root = parse_ops(lines)
    ops = body_ops(root)
    found = []
    # Chunks of consecutive top-level-first ops, halving down to one.
    n = len(ops)
    size = max(1, n // 2)
    budget = 150   # chunks per round (two candidates each): coarse levels first
    while budget > 0:
        budget -= (n + size - 1) // size
        for lo in range(0, n, size):
            new = list(lines)
            ok = False
            for op in sorted(ops[lo:lo + size], key=lambda o: -o.start):
                if op.name == "arith.constant" or op.name in SIDE_EFFECTS:
                    continue
                # Ops nested in an op already replaced are gone with it.
                if op.start >= len(new):
                    continue
                cur = parse_ops(new)
                match = [o for o in walk(cur) if o.start == op.start and o.name == op.name]
                if not match:
                    continue
                r = replace_op(new, match[0])
                if r is not None:
                    new, ok = r, True
            if ok:
                found.append(("zero ops %d..%d" % (lo, min(n, lo + size) - 1), new))
            # The same chunk with each op's result replaced by one of its
            # operands instead: keeps addresses apart where zeros would
            # make stores collide (undefined behaviour, dropped).
            new, ok = list(lines), False
            for op in sorted(ops[lo:lo + size], key=lambda o: -o.start):
                if op.start >= len(new):
                    continue
                match = [o for o in walk(parse_ops(new)) if o.start == op.start and o.name == op.name]
                r = forward_operand(new, match[0]) if match else None
                if r is not None:
                    new, ok = r, True
            if ok:
                found.append(("forward ops %d..%d" % (lo, min(n, lo + size) - 1), new))
        if size == 1:
            break
        size //= 2
    for op in ops:
        if op.name in ("tt.store",):
            found.append(("drop store line %d" % op.start, lines[:op.start] + lines[op.end + 1:]))
    found += bypass_converts(lines, root)
    return found


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def propose(args):
    tools = args.tools
    ext = os.path.splitext(args.kernel)[1]
    generic = run([os.path.join(tools, "tgpu-opt"), "--mlir-print-op-generic", args.kernel])
    if generic.returncode != 0:
        sys.exit("gpu-reduce: tgpu-opt cannot read %s:\n%s" % (args.kernel, generic.stderr))
    lines = generic.stdout.splitlines()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    seen = set()
    kept = []
    base = count_ops(lines)
    for k, (what, cand) in enumerate(candidates(lines)):
        cand = dce(cand)
        text = "\n".join(cand) + "\n"
        if text in seen:
            continue
        seen.add(text)
        tmp = os.path.join(args.out, "tmp" + ext)
        with open(tmp, "w") as f:
            f.write(text)
        pretty = run([os.path.join(tools, "tgpu-opt"), tmp])
        if pretty.returncode != 0:
            continue
        name = "cand_%04d" % k
        kfile = os.path.join(args.out, name + ext)
        with open(kfile, "w") as f:
            f.write(pretty.stdout)
        bundle = run([os.path.join(tools, "tgpu-oracle"), "bundle", kfile,
                      "-o", os.path.join(args.out, "bundles", name)])
        if bundle.returncode != 0:   # undefined behaviour, or tgpu cannot compile it
            os.remove(kfile)
            continue
        kept.append({"name": name, "what": what, "ops": count_ops(cand)})
    if os.path.exists(os.path.join(args.out, "tmp" + ext)):
        os.remove(os.path.join(args.out, "tmp" + ext))
    with open(os.path.join(args.out, "candidates.json"), "w") as f:
        json.dump({"kernel": os.path.abspath(args.kernel), "ops": base, "candidates": kept}, f, indent=1)
    print("gpu-reduce: %s has %d ops; %d candidates bundled in %s/bundles"
          % (args.kernel, base, len(kept), args.out))


def interesting(want, case, crashed):
    parts = want.split(":", 2)
    impl, kind = parts[0], parts[1]
    text = parts[2] if len(parts) > 2 else ""
    if kind == "crash":
        return crashed
    images = {im["impl"]: im for im in case.get("images", [])}
    if impl not in images:
        return False
    me = images[impl]
    others_pass = all(im["status"] == "pass" for k, im in images.items() if k != impl)
    if not others_pass or me["status"] != kind:
        return False
    return text in me.get("detail", "")


def pick(args):
    with open(os.path.join(args.round, "candidates.json")) as f:
        cands = json.load(f)
    with open(os.path.join(args.report, "report.json")) as f:
        report = json.load(f)
    cases = report["results"] if isinstance(report, dict) else report
    by_name = {c["case"]: c for c in cases}
    crashed = set()
    triton_txt = os.path.join(args.report, "triton.txt")
    if os.path.exists(triton_txt):
        for line in open(triton_txt, errors="replace"):
            m = re.match(r"\s*triton rejected (\S+): crash:", line)
            if m:
                crashed.add(m.group(1))
    hits = [c for c in cands["candidates"]
            if c["name"] in by_name and interesting(args.want, by_name[c["name"]], c["name"] in crashed)]
    print("gpu-reduce: %d of %d candidates keep '%s' (the kernel had %d ops)"
          % (len(hits), len(cands["candidates"]), args.want, cands["ops"]))
    if not hits:
        print("gpu-reduce: none: the kernel is reduced as far as these candidates go")
        return 1
    best = min(hits, key=lambda c: (c["ops"], c["name"]))
    ext = os.path.splitext(cands["kernel"])[1]
    src = os.path.join(args.round, best["name"] + ext)
    print("gpu-reduce: best %s (%s): %d ops" % (best["name"], best["what"], best["ops"]))
    if args.output:
        shutil.copyfile(src, args.output)
    return 0


def read_log(bundle):
    """Triton's messages for a kernel it refused (add_triton_images.py)."""
    try:
        with open(os.path.join(bundle, "triton_error.txt"), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def loop(args):
    """Rounds on the GPU machine: Triton's image only, BUNDLE's inputs."""
    import time
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import add_triton_images as ati
    impl, kind = args.want.split(":")[:2]
    want_text = args.want.split(":", 2)[2] if args.want.count(":") >= 2 else ""
    if impl != "triton" or kind not in ("error", "crash", "reject"):
        sys.exit("gpu-reduce loop: only triton:error[:TEXT], triton:crash or "
                 "triton:reject:TEXT (a wrong result needs a fresh reference: use propose/pick)")
    with open(os.path.join(args.bundle, "meta.json")) as f:
        meta = json.load(f)
    ext = os.path.splitext(meta.get("kernel", "kernel.ttgir"))[1]
    with open(args.kernel) as f:
        lines = f.read().splitlines()
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    pool = ati.Pool(args.jobs, 90, args.kernel_timeout)
    rnd = 0
    log = open(os.path.join(args.out, "loop.log"), "a")

    def say(text):
        print(text, flush=True)
        log.write(text + "\n")
        log.flush()

    say("gpu-reduce loop: %s, %d ops, want %s" % (args.kernel, count_ops(lines), args.want))
    try:
        while time.time() - start < args.budget:
            rnd += 1
            rdir = os.path.join(args.out, "round%02d" % rnd)
            shutil.rmtree(rdir, ignore_errors=True)
            os.makedirs(rdir)
            seen, cands = set(), []
            for what, cand in candidates(lines):
                cand = dce(cand)
                text = "\n".join(cand) + "\n"
                if text in seen:
                    continue
                seen.add(text)
                name = "cand_%04d" % len(cands)
                b = os.path.join(rdir, name)
                os.makedirs(b)
                for sub in ("in", "ref"):
                    if os.path.isdir(os.path.join(args.bundle, sub)):
                        shutil.copytree(os.path.join(args.bundle, sub), os.path.join(b, sub))
                m = dict(meta, name=name, kernel="kernel" + ext, images=[])
                with open(os.path.join(b, "meta.json"), "w") as f:
                    json.dump(m, f)
                with open(os.path.join(b, "kernel" + ext), "w") as f:
                    f.write(text)
                cands.append({"name": name, "what": what, "ops": count_ops(cand), "dir": b,
                              "lines": cand})
            if not cands:
                break
            deadline = start + args.budget
            results = dict(pool.run([c["dir"] for c in cands], deadline))
            crashed = {d for d, e in results.items() if e and e.startswith("crash:")}
            hits = []
            if kind == "crash":
                hits = [c for c in cands if c["dir"] in crashed]
            elif kind == "reject":
                # Triton's MLIR crash recovery turns an assertion into a
                # failed pass ("A signal was caught ..."): a rejection.
                # The assertion's own text is in Triton's log, not in its
                # first located error: look in both.
                hits = [c for c in cands if results.get(c["dir"]) and
                        (want_text in results[c["dir"]] or want_text in read_log(c["dir"]))]
            else:
                runnable = [c["dir"] for c in cands if c["dir"] in results and not results[c["dir"]]]
                if runnable:
                    rj = os.path.join(rdir, "report.json")
                    subprocess.run([args.runner, "--quiet", "--json", rj, "--jobs", str(args.jobs),
                                    "--timeout", "20"] + runnable,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    if os.path.exists(rj):
                        with open(rj) as f:
                            by_dir = {r.get("dir"): r for r in json.load(f)["results"]}
                        hits = [c for c in cands
                                if c["dir"] in by_dir and interesting(args.want, by_dir[c["dir"]], False)]
            say("round %d: %d candidates, %d Triton compiled, %d crashed, %d keep it (%.0f s)"
                % (rnd, len(cands), sum(1 for e in results.values() if not e), len(crashed),
                   len(hits), time.time() - start))
            if not hits:
                break
            best = min(hits, key=lambda c: (c["ops"], c["name"]))
            lines = best["lines"]
            with open(os.path.join(args.out, "best%02d%s" % (rnd, ext)), "w") as f:
                f.write("\n".join(lines) + "\n")
            say("round %d: best %s (%s): %d ops" % (rnd, best["name"], best["what"], best["ops"]))
            if not args.keep_rounds:
                shutil.rmtree(rdir, ignore_errors=True)
    finally:
        pool.close()
    with open(os.path.join(args.out, "final" + ext), "w") as f:
        f.write("\n".join(lines) + "\n")
    say("gpu-reduce loop: %d ops after %d rounds, %.0f s: %s"
        % (count_ops(lines), rnd, time.time() - start, os.path.join(args.out, "final" + ext)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("propose")
    p.add_argument("kernel")
    p.add_argument("-o", dest="out", required=True)
    p.add_argument("--tools", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "..", "build", "bin"))
    q = sub.add_parser("pick")
    q.add_argument("round")
    q.add_argument("report")
    q.add_argument("--want", required=True)
    q.add_argument("-o", dest="output")
    lp = sub.add_parser("loop")
    lp.add_argument("bundle")
    lp.add_argument("kernel")
    lp.add_argument("--want", required=True)
    lp.add_argument("--runner", required=True)
    lp.add_argument("-o", dest="out", required=True)
    lp.add_argument("--budget", type=float, default=300)
    lp.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    lp.add_argument("--kernel-timeout", type=float, default=60)
    lp.add_argument("--keep-rounds", action="store_true")
    args = ap.parse_args()
    if args.cmd == "loop":
        return loop(args)
    if args.cmd == "propose":
        propose(args)
        return 0
    return pick(args)


if __name__ == "__main__":
    sys.exit(main())
