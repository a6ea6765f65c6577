#!/usr/bin/env python3
"""Normalise MLIR text so two printers can be compared: drop locations and
#loc definitions, blank lines, comments and runs of spaces, and rename SSA values and block
arguments in order of first appearance (Triton names them from its name
locations; names carry no meaning)."""
import re
import sys


def strip_locs(line):
    out, i = [], 0
    while i < len(line):
        if line.startswith(" loc(", i):
            depth, j = 0, i + 4
            while j < len(line):
                if line[j] == "(":
                    depth += 1
                elif line[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                elif line[j] == '"':
                    j = line.index('"', j + 1)
                j += 1
            i = j + 1
            continue
        out.append(line[i])
        i += 1
    return "".join(out)


DEF_LIST = re.compile(r"^\s*((%[\w.$\-]+(:\d+)?, )+%[\w.$\-]+(:\d+)?) =")


def main(path):
    # A name gets a fresh number where it is defined (results, block and
    # function arguments, loop variables), so printers that reuse names in
    # sibling regions and printers that keep them unique compare equal.
    current = {}
    counter = 0
    ssa = re.compile(r"%[A-Za-z_$.\-0-9]+")
    for raw in open(path):
        line = raw.rstrip("\n")
        if line.startswith("#loc") or not line.strip() or line.lstrip().startswith("//"):
            continue
        # Runs of spaces differ between MLIR releases (an empty operand list
        # leaves two); they carry no meaning, so they collapse to one.
        line = re.sub(r"(?<=\S)  +", " ", strip_locs(line).rstrip())
        m = DEF_LIST.match(line)
        def_list_end = m.end(1) if m else -1
        out, pos = [], 0
        for tok in ssa.finditer(line):
            name = tok.group(0)
            rest = line[tok.end():]
            is_def = (tok.start() < def_list_end or re.match(r"(:\d+)? =", rest) is not None
                      or rest.startswith(": "))
            if is_def or name not in current:
                current[name] = f"%v{counter}"
                counter += 1
            out.append(line[pos:tok.start()])
            out.append(current[name])
            pos = tok.end()
        out.append(line[pos:])
        print("".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
