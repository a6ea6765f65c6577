#!/usr/bin/env python3
"""Compiles each bundle's tgpu PTX image into a cubin with ptxas, many at a
time, so tgpu-gpu-run loads machine code instead of waiting for the
driver's JIT one kernel after another (the JIT is what bounds a campaign of
fresh kernels). Runs on the GPU machine, or anywhere CUDA's ptxas is.

For every image of impl "tgpu" whose file is PTX, ptxas writes KERNEL.cubin
for the bundle's "arch" (sm_90 unless it says otherwise) at ptxas's default
optimisation, the level the driver's JIT uses too. On success the image's
file becomes the cubin and its "ptx" member names the PTX it came from. A
kernel ptxas rejects or does not finish within --kernel-timeout keeps its
PTX and gets "build_failure" ("error: ptxas: ..." or "timeout: ..."); the
runner reports that image as an ERROR or TIMEOUT without loading it. Rerunning
starts again from the PTX.

--device-arch sm_XY (gpu-campaign.sh passes the GPU's) compiles a bundle
made for an older target (PTX for sm_80, say) for the GPU it will run on:
PTX is forward compatible, a cubin is not. Architecture-specific targets
(sm_90a) are kept as they are.

The largest PTX files start first, so one slow kernel does not trail the
run. --budget stops handing out kernels after that many seconds; the ones
not reached keep their PTX (the driver's JIT then compiles them).

usage: ptxas_images.py [--ptxas PATH] [--jobs N] [--budget S]
                       [--kernel-timeout S] [--device-arch sm_XY] BUNDLE_OR_DIR...
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

from bundle_io import bundles_in, write_meta




def find_ptxas(given):
    if given:  # named: that one or none
        return given if os.access(given, os.X_OK) else None
    for cand in (os.environ.get("PTXAS"), "/usr/local/cuda/bin/ptxas", shutil.which("ptxas")):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def tgpu_ptx(meta):
    """The tgpu image and its PTX file, or (None, None) when there is none."""
    for im in meta.get("images", []):
        if im.get("impl") == "tgpu":
            ptx = im.get("ptx") or im.get("file", "")
            return (im, ptx) if ptx.endswith(".ptx") else (None, None)
    return None, None




def arch_number(arch):
    """90 for sm_90; None for anything else (sm_90a included)."""
    digits = arch[3:] if arch.startswith("sm_") else ""
    return int(digits) if digits.isdigit() else None


def cubin_arch(bundle_arch, device_arch):
    """The target of a bundle's cubin: its own, or the device's when the
    bundle's PTX is for an older generic target."""
    mine, device = arch_number(bundle_arch), arch_number(device_arch or "")
    if mine is not None and device is not None and device > mine:
        return device_arch
    return bundle_arch


def build(bundle, ptxas, timeout, device_arch=None):
    """Returns (bundle, seconds, failure or None), seconds None when the
    bundle has no tgpu PTX."""
    with open(os.path.join(bundle, "meta.json")) as f:
        meta = json.load(f)
    image, ptx = tgpu_ptx(meta)
    if image is None:
        return bundle, None, None
    cubin = ptx[:-len(".ptx")] + ".cubin"
    image.pop("build_failure", None)
    image["file"] = ptx
    image.pop("ptx", None)
    arch = cubin_arch(meta.get("arch", "sm_90"), device_arch)
    start = time.time()
    failure = None
    try:
        r = subprocess.run([ptxas, "-arch=" + arch, ptx, "-o", cubin], cwd=bundle,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, errors="replace")
        if r.returncode != 0:
            lines = [l.strip() for l in r.stdout.splitlines() if l.strip()]
            located = [l for l in lines if "error" in l.lower()] or lines or ["exit status %d" % r.returncode]
            failure = "error: ptxas: " + located[0][:300]
    except subprocess.TimeoutExpired:
        failure = "timeout: ptxas took over %g s" % timeout
    seconds = time.time() - start
    if failure:
        image["build_failure"] = failure
        try:
            os.remove(os.path.join(bundle, cubin))
        except OSError:
            pass
    else:
        image["file"] = cubin
        image["ptx"] = ptx
    image["build_s"] = round(seconds, 3)
    write_meta(bundle, meta)
    return bundle, seconds, failure


def ptx_size(bundle):
    try:
        with open(os.path.join(bundle, "meta.json")) as f:
            _, ptx = tgpu_ptx(json.load(f))
        return os.path.getsize(os.path.join(bundle, ptx)) if ptx else 0
    except (OSError, ValueError):
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptxas", help="ptxas to use (default: $PTXAS, /usr/local/cuda/bin/ptxas, PATH)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--budget", type=float, default=0,
                    help="stop handing out kernels after this many seconds")
    ap.add_argument("--kernel-timeout", type=float, default=120,
                    help="a kernel ptxas has not compiled after this many seconds is a timeout")
    ap.add_argument("--device-arch", default=None,
                    help="the GPU's target (sm_90): older generic targets are compiled for it")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    ptxas = find_ptxas(args.ptxas)
    if not ptxas:
        sys.exit("ptxas_images: no ptxas (give --ptxas PATH or set PTXAS)")
    if args.jobs < 1 or args.kernel_timeout <= 0:
        sys.exit("ptxas_images: --jobs and --kernel-timeout want positive values")
    bundles = bundles_in(args.paths, "ptxas_images")
    bundles.sort(key=ptx_size, reverse=True)

    start = time.time()
    deadline = start + args.budget if args.budget else None
    failed, built, skipped, cpu, no_ptx = [], 0, 0, 0.0, 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        pending = set()
        todo = list(reversed(bundles))
        while todo or pending:
            while todo and len(pending) < args.jobs:
                if deadline is not None and time.time() >= deadline:
                    skipped = len(todo)
                    todo = []
                    break
                pending.add(pool.submit(build, todo.pop(), ptxas, args.kernel_timeout,
                                         args.device_arch))
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                bundle, seconds, failure = fut.result()
                if seconds is None:
                    no_ptx += 1
                    continue
                cpu += seconds
                if failure:
                    failed.append((bundle, failure))
                else:
                    built += 1
    wall = time.time() - start
    print("ptxas_images: %d bundles in %.1f s (%d jobs, %.1f s of ptxas): %d cubins, %d failed"
          " (%d timed out), %d left as PTX past --budget, %d without tgpu PTX"
          % (len(bundles), wall, args.jobs, cpu, built, len(failed),
             sum(f.startswith("timeout:") for _, f in failed), skipped, no_ptx))
    for bundle, failure in sorted(failed):
        print("  %s: %s" % (os.path.basename(bundle), failure))


if __name__ == "__main__":
    main()
