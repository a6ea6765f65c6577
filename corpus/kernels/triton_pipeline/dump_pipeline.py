#!/usr/bin/env python3
"""Reference outputs of Triton 3.6's software pipeliner (run on the GPU machine).

For every TTIR file given (FILE.ttir or FILE.ttir:NUM_WARPS, 4 warps by
default), each target (cuda:80 and cuda:90) and num_stages 1 to 4, compiles the
file with triton.compile in a child process with MLIR_ENABLE_DUMP=1, which makes
Triton's pass manager print the module before every pass, and keeps three of
those modules and the final TTGIR:

  <kernel>.<target>.s<N>.pre-pipeline.ttgir  the input of tritongpu-assign-latencies
  <kernel>.<target>.s<N>.pipeline.ttgir      the output of tritongpu-pipeline
  <kernel>.<target>.s<N>.prefetch.ttgir      the output of tritongpu-prefetch (cuda:80)
  <kernel>.<target>.s<N>.ttgir               what make_ttgir returns

and <kernel>.<target>.passes.txt, the passes Triton ran on the TTGIR in that
order (make_ttgir's, then make_llir's up to the LLVM conversion).
A compilation Triton refuses gets a .error file with its message instead.
Machine paths in locations are cut to the file name.

With --every-pass, each compilation instead keeps every module of the run:
<kernel>.w<warps>.<target>.s<N>/NNN.<pass>.ttgir is the module pass NNN received (so
the next file is that pass's output), and .../final.ttgir
what make_ttgir returned, and .../passes.txt the passes in order; a pass's own
steps that it prints while it runs (the pipeliner's LowerLoops and
ExpandLoops) go to .../NNN.<pass>+K.<step>.ttgir;
ci/triton_pass_agreement.py runs tgpu's passes on those inputs.
--changed-only (with --every-pass) leaves out a module the pass before it did
not change (the same text as the module that pass received), which is most
of them; ci/triton_pass_reference.py runs the CPU reference on what is left.
--targets and --stages pick other targets and num_stages.

usage: dump_pipeline.py [--every-pass [--changed-only]] [--targets cuda:90,...]
                        [--stages 3,...] OUT_DIR FILE.ttir[:NUM_WARPS[:NUM_STAGES]]...
"""
import os
import re
import subprocess
import sys
import tempfile

TARGETS = ("cuda:80", "cuda:90")
STAGES = (1, 2, 3, 4)
# Triton's pipeliner prints its own steps while it runs (LowerLoops,
# ExpandLoops): they land in the text of the module the pass received.
INTERNAL = re.compile(r"^// -----// (\w+) internal IR Dump After: (\w+)[^\n]*$", re.M)
HEADER = re.compile(r"^// -----// IR Dump Before (\S+) \((\S+)\) \('([^']+)' operation(?:: @\S+)?\) //----- //$",
                    re.M)


def strip_paths(text):
    return re.sub(r'"[^"\n]*/([^"/\n]+\.(?:py|ttir))"', r'"\1"', text)


def compile_one(path, target, warps, stages):
    """Child: compile one TTIR file; MLIR prints to this process's stderr."""
    import triton
    from triton.backends.compiler import GPUTarget
    backend, arch = target.split(":")
    kernel = triton.compile(path, target=GPUTarget(backend, int(arch), 32),
                            options={"num_warps": warps, "num_stages": stages})
    sys.stdout.write(kernel.asm["ttgir"])


def dumps(log):
    """[(pass argument, module text before it)] of the make_ttgir pass manager."""
    found = []
    marks = list(HEADER.finditer(log))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(log)
        found.append((m.group(2), log[m.end():end].strip() + "\n"))
    # make_ttgir is the run that starts with convert-triton-to-tritongpu.
    starts = [i for i, (name, _) in enumerate(found) if name == "convert-triton-to-tritongpu"]
    if not starts:
        return []
    first = starts[-1]
    ends = [i for i in range(first, len(found)) if found[i][0] == "convert-triton-gpu-to-llvm"]
    return found[first:ends[0] if ends else len(found)]


def after(passes, name):
    """The module the pass after `name` received, i.e. `name`'s output."""
    for i, (arg, _) in enumerate(passes):
        if arg == name and i + 1 < len(passes):
            return passes[i + 1][1]
    return None


def split_internal(text):
    """(the module a pass received, [(step, module) the pass printed while it ran])."""
    marks = list(INTERNAL.finditer(text))
    if not marks:
        return text, []
    steps = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        steps.append((m.group(2), text[m.end():end].strip() + "\n"))
    return text[:marks[0].start()].strip() + "\n", steps


def write_every_pass(stem, passes, final, changed_only=False):
    """NNN.<pass>.ttgir: the module pass NNN received; NNN.<pass>+K.<step>.ttgir:
    the K-th module that pass printed of its own steps while it ran."""
    os.makedirs(stem, exist_ok=True)
    previous = None
    for i, (name, text) in enumerate(passes):
        received, steps = split_internal(strip_paths(text))
        files = [(f"{i:03d}.{name}.ttgir", received)]
        files += [(f"{i:03d}.{name}+{k + 1}.{step}.ttgir", module)
                  for k, (step, module) in enumerate(steps)]
        for file_name, module in files:
            if changed_only and module == previous:
                continue
            previous = module
            with open(os.path.join(stem, file_name), "w") as f:
                f.write(module)
    with open(os.path.join(stem, "passes.txt"), "w") as f:
        f.write("".join(name + "\n" for name, _ in passes))
    with open(os.path.join(stem, "final.ttgir"), "w") as f:
        f.write(strip_paths(final))


def run(path, warps, out_dir, targets=TARGETS, stage_counts=STAGES, every_pass=False,
        changed_only=False):
    kernel = os.path.basename(path).rsplit(".", 1)[0]
    for target in targets:
        order = None
        for stages in stage_counts:
            warps_part = f".w{warps}" if every_pass else ""
            stem = os.path.join(out_dir, f"{kernel}{warps_part}.{target.replace(':', '')}.s{stages}")
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, MLIR_ENABLE_DUMP="1", TRITON_ALWAYS_COMPILE="1",
                           TRITON_CACHE_DIR=cache)
                child = subprocess.run(
                    [sys.executable, __file__, "--one", path, target, str(warps), str(stages)],
                    env=env, capture_output=True, text=True)
            if child.returncode != 0:
                # The IR dumps fill stderr; the diagnostics are lines among them.
                said = [l for l in child.stderr.splitlines()
                        if re.search(r"error:|Assertion|LLVM ERROR|Error\b|note:", l)
                        and not l.startswith("// -----//")]
                with open(stem + ".error", "w") as f:
                    f.write(strip_paths("\n".join(said[:40]) + "\n----- the end of stderr:\n"
                                        + child.stderr[-2000:]))
                print("refused", kernel, target, stages, flush=True)
                continue
            passes = dumps(child.stderr)
            if not passes:
                with open(stem + ".error", "w") as f:
                    f.write("no make_ttgir IR dumps found; stderr began:\n" + strip_paths(child.stderr[:4000]))
                continue
            order = order or [name for name, _ in passes]
            if every_pass:
                write_every_pass(stem, passes, child.stdout, changed_only)
                print("done", kernel, target, stages, len(passes), "passes", flush=True)
                continue
            outputs = {
                "pre-pipeline": next((text for name, text in passes if name == "tritongpu-assign-latencies"), None),
                "pipeline": after(passes, "tritongpu-pipeline"),
                "prefetch": after(passes, "tritongpu-prefetch"),
            }
            for stage, text in outputs.items():
                if text is not None:
                    with open(f"{stem}.{stage}.ttgir", "w") as f:
                        f.write(strip_paths(text))
            with open(stem + ".ttgir", "w") as f:
                f.write(strip_paths(child.stdout))
            print("done", kernel, target, stages, sorted(k for k, v in outputs.items() if v), flush=True)
        if order:
            with open(os.path.join(out_dir, f"{kernel}.{target.replace(':', '')}.passes.txt"), "w") as f:
                f.write("\n".join(order) + "\n")


def main():
    if sys.argv[1] == "--one":
        compile_one(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    args = sys.argv[1:]
    every_pass = "--every-pass" in args
    changed_only = "--changed-only" in args
    args = [a for a in args if a not in ("--every-pass", "--changed-only")]
    targets, stage_counts = TARGETS, STAGES
    while args and args[0] in ("--targets", "--stages"):
        flag, value, args = args[0], args[1], args[2:]
        if flag == "--targets":
            targets = tuple(value.split(","))
        else:
            stage_counts = tuple(int(v) for v in value.split(","))
    out_dir = args[0]
    os.makedirs(out_dir, exist_ok=True)
    for arg in args[1:]:
        path, _, rest = arg.partition(":")
        warps, _, stages = rest.partition(":")
        run(path, int(warps or 4), out_dir, targets,
            (int(stages),) if stages else stage_counts, every_pass, changed_only)


if __name__ == "__main__":
    main()
