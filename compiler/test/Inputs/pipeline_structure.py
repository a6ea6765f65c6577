#!/usr/bin/env python3
"""The software-pipelining structure of a TTGIR module, for comparing two
pipeliners' outputs (tgpu's and Triton's) on the same kernel.

For each function: the ring buffers (ttg.local_alloc without an initial value
that ttg.memdesc_index reads; shape, element type and shared encoding with the
alias resolved), and around each scf.for that issues async copies, how many
ttg.async_copy_global_to_local and ttg.async_commit_group run before it (the
prologue), in its body and after it; the `num` of every ttg.async_wait in the
body and after the loop; the ttg.local_dealloc after it; for wgmma, how many
ttng.warp_group_dot the body issues, how many asynchronously, and the
`pendings` of the ttng.warp_group_dot_wait ops in and after the loop.

Not part of the structure: where in the body the wait sits, and whether one
precedes the loop. Triton waits at the top of the body and loads the operands
there; tgpu waits at the end of the body for the next iteration and carries
the slot views into it, which puts the first iteration's wait before the loop
(printed as `waits before loop`, left out of --compare).

usage: pipeline_structure.py FILE          print the structure
       pipeline_structure.py --compare REF OURS
                                   exit 1 and show both when they differ
"""
import re
import sys

ALIAS = re.compile(r"^(#[\w.$-]+) = (.*)$")
FOR = re.compile(r"^(\s*)(?:%[\w#:.$-]+ = )?scf\.for ")
FUNC = re.compile(r"^\s*tt\.func\b.*@([\w$.-]+)")
RING = re.compile(r"(%[\w.$-]+) = ttg\.local_alloc\s*: \(\) -> !ttg\.memdesc<([^>]*)>")
WAIT = re.compile(r"ttg\.async_wait\b.*\{num = (\d+) : i32\}")
DOT_WAIT = re.compile(r"ttng\.warp_group_dot_wait\b.*\{pendings = (\d+) : i32\}")


def strip_loc(line):
    return re.sub(r"\s*loc\(.*$", "", line.rstrip())


def resolve(memdesc, aliases):
    parts = [p.strip() for p in memdesc.split(",")]
    return ", ".join(aliases.get(p, p) for p in parts if p not in ("#smem", "#ttg.shared_memory"))


def count(lines, pattern):
    return sum(1 for line in lines if pattern in line)


def waits(lines, pattern=WAIT):
    return [int(m.group(1)) for m in (pattern.search(line) for line in lines) if m]


def structure(path):
    lines = [strip_loc(line) for line in open(path)]
    aliases = {}
    for line in lines:
        m = ALIAS.match(line)
        if m:
            aliases[m.group(1)] = m.group(2)
    out = []
    i = 0
    while i < len(lines):
        m = FUNC.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        indent = len(lines[i]) - len(lines[i].lstrip())
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j].startswith(" " * indent + "}") and
                    len(lines[j]) - len(lines[j].lstrip()) == indent), len(lines))
        body = lines[i + 1:end]
        out.append(f"func @{name}")
        rings = []
        for line in body:
            r = RING.search(line)
            if r and (r.group(1) + "[") in " ".join(body):
                rings.append(resolve(r.group(2), aliases))
        for ring in sorted(rings):
            out.append(f"  ring {ring}")
        before = 0
        k = 0
        while k < len(body):
            f = FOR.match(body[k])
            if not f:
                k += 1
                continue
            pad = f.group(1)
            close = next((j for j in range(k + 1, len(body))
                          if body[j].startswith(pad + "}") and
                          len(body[j]) - len(body[j].lstrip()) == len(pad)), len(body))
            loop = body[k + 1:close]
            if count(loop, "ttg.async_copy_global_to_local") == 0:
                k = close + 1
                continue
            prologue = body[before:k]
            # What follows the loop, up to the next loop that issues copies.
            nxt = next((j for j in range(close + 1, len(body)) if FOR.match(body[j])), len(body))
            tail = body[close + 1:nxt]
            out.append("  pipelined loop")
            out.append(f"    prologue: {count(prologue, 'ttg.async_copy_global_to_local')} copies, "
                       f"{count(prologue, 'ttg.async_commit_group')} commit groups")
            out.append(f"    waits before loop: {waits(prologue)}")
            out.append(f"    body: {count(loop, 'ttg.async_copy_global_to_local')} copies, "
                       f"{count(loop, 'ttg.async_commit_group')} commit groups, waits {waits(loop)}")
            dots = count(loop, "ttng.warp_group_dot ")
            if dots:
                out.append(f"    body: {dots} wgmma, async {count(loop, 'isAsync = true')}, "
                           f"wgmma waits {waits(loop, DOT_WAIT)}")
            out.append(f"    after: {count(tail, 'ttg.async_copy_global_to_local')} copies, waits {waits(tail)}, "
                       f"{count(tail, 'ttg.local_dealloc')} deallocs")
            if dots:
                out.append(f"    after: wgmma waits {waits(tail, DOT_WAIT)}")
            before = close + 1
            k = close + 1
        i = end + 1
    return out


def main():
    if sys.argv[1] == "--compare":
        ref, ours = (structure(p) for p in sys.argv[2:4])
        def compared(lines):
            return [line for line in lines if "waits before loop" not in line]
        if compared(ref) != compared(ours):
            print("Triton:\n" + "\n".join(ref) + "\ntgpu:\n" + "\n".join(ours))
            sys.exit(1)
        return
    print("\n".join(structure(sys.argv[1])))


if __name__ == "__main__":
    main()
