#!/usr/bin/env python3
"""Flags PTX that writes a register a wgmma.mma_async reads as accumulator or
as operand A after the wgmma.fence before it (PTX ISA, wgmma.fence: the
fence must come between any register access and a wgmma that accesses the
same register, except accumulator accesses across wgmmas of one shape).
ptxas may then read stale values (docs/FINDINGS.md finding 15).

Each straight-line run from a wgmma.fence to the next fence, commit or
label is checked: a register written there by a non-wgmma instruction and
then read by a later wgmma's D or A operand is a hazard. Registers written
by an earlier wgmma of the run (the accumulator chain) are not.

usage: wgmma_fence_check.py FILE.ptx...   (exit 1 when any file has one)
"""
import re
import sys

REG = re.compile(r"%[a-z]+[0-9]+")
WGMMA = re.compile(r"wgmma\.mma_async[^{]*\{([^}]*)\}\s*,\s*(\{[^}]*\}|%[a-z]+[0-9]+)")


def instructions(text):
    """PTX statements in order (inline asm braces and comments dropped)."""
    text = re.sub(r"//[^\n]*", "", text)
    for stmt in re.split(r"[;\n]", text):
        stmt = stmt.strip().strip("{}").strip()
        if stmt:
            yield stmt


def check(text):
    hazards = []
    in_run = False
    written = {}  # register -> the statement that wrote it after the fence
    for stmt in instructions(text):
        if stmt.startswith("wgmma.fence"):
            in_run, written = True, {}
            continue
        if not in_run:
            continue
        if stmt.startswith("wgmma.commit_group") or stmt.endswith(":"):
            in_run = False
            continue
        m = WGMMA.search(stmt)
        if m:
            read = REG.findall(m.group(1))
            if m.group(2).startswith("{"):
                read += REG.findall(m.group(2))
            for r in read:
                if r in written:
                    hazards.append((r, written[r], stmt[:90]))
            for r in REG.findall(m.group(1)):
                written.pop(r, None)
            continue
        parts = stmt.split(None, 1)
        if len(parts) == 2 and not parts[0].startswith(("st.", "bar", "setp", "@")):
            dest = REG.findall(parts[1].split(",")[0])
            for r in dest:
                written[r] = stmt[:60]
        elif len(parts) == 2 and parts[0].startswith("setp"):
            pass
    return hazards


def main():
    bad = 0
    for path in sys.argv[1:]:
        hazards = check(open(path).read())
        if hazards:
            bad += 1
            r, w, use = hazards[0]
            print("%s: %d register(s) written after wgmma.fence and read by a wgmma, "
                  "first %s (%s; read by %s)" % (path, len(hazards), r, w, use))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
