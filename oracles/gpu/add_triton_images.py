#!/usr/bin/env python3
"""Adds Triton 3.6's compilation of each bundle's kernel as a second image
(impl "triton") to its meta.json, for tgpu-gpu-run's three-way comparison
(tgpu, Triton, the CPU reference). Runs on the GPU machine, where Triton is.

Triton compiles the bundle's kernel.ttir (or kernel.ttgir) for the same
target (cuda:90 by default) and num-warps as tgpu did; its cubin goes into
the bundle as triton.cubin. Triton's kernels take pointer parameters after
the kernel's own (global and profile scratch in 3.x): their count comes from
the PTX entry's parameter list and their sizes from the metadata
(global_scratch_size, profile_scratch_size), per program. Tensor
descriptor arguments get the CUtensorMap encoding (box, swizzle) Triton's
launcher would use, from its metadata's tensordesc_meta. A kernel Triton
rejects keeps tgpu's image only, and the reason is written to
triton_error.txt in its bundle (a finding against Triton's front end only
when tgpu and the reference accept the kernel; listed at the end).

Each worker process imports Triton once and compiles kernel after kernel. A
kernel that kills its worker (Triton crashed) or runs past --kernel-timeout
is reported as "crash: ..." or "timeout: ..." in triton_error.txt, and the
worker is replaced.

usage: add_triton_images.py [--jobs N] [--arch 90] [--budget S]
                            [--kernel-timeout S] BUNDLE_OR_DIR...
"""
import argparse
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import sys
import time

from bundle_io import bundles_in, write_meta




def entry_param_count(ptx, entry):
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\((.*?)\)", ptx, re.S)
    if not m:
        return None
    return len(re.findall(r"\.param\s", m.group(1)))


def add_image(job):
    bundle, arch = job
    import triton
    from triton.backends.compiler import GPUTarget

    with open(os.path.join(bundle, "meta.json")) as f:
        meta = json.load(f)
    meta["images"] = [im for im in meta["images"] if im["impl"] != "triton"]
    err_path = os.path.join(bundle, "triton_error.txt")
    if os.path.exists(err_path):
        os.remove(err_path)
    kernel = meta.get("kernel")
    if not kernel:
        return bundle, "no kernel file in the bundle"
    # Triton's MLIR diagnostics (and the module it dumps on a failed pass)
    # go to the process's stderr: catch them in the bundle's error file.
    log_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    saved = os.dup(2)
    os.dup2(log_fd, 2)
    try:
        options = {"num_warps": int(meta.get("num_warps", 4))}
        # Triton pipelines at the stages tgpu compiled the TTIR with (a
        # generated program draws its own); its default where none is given.
        if meta.get("num_stages"):
            options["num_stages"] = int(meta["num_stages"])
        if kernel.endswith(".ttgir"):
            options = {}
        compiled = triton.compile(os.path.join(bundle, kernel),
                                  target=GPUTarget("cuda", arch, 32), options=options)
        md = compiled.metadata
        ptx = compiled.asm["ptx"]
        nparams = entry_param_count(ptx, md.name)
        nargs = len(meta["args"])
        if nparams is None or nparams < nargs:
            raise RuntimeError("cannot match Triton's entry %s parameters (%s) with %d arguments"
                               % (md.name, nparams, nargs))
        sizes = [int(getattr(md, "global_scratch_size", 0) or 0),
                 int(getattr(md, "profile_scratch_size", 0) or 0)]
        extra = nparams - nargs
        scratch = (sizes + [0] * extra)[:extra]
        with open(os.path.join(bundle, "triton.cubin"), "wb") as f:
            f.write(compiled.asm["cubin"])
        with open(os.path.join(bundle, "triton.ptx"), "w") as f:
            f.write(ptx)
        image = {"impl": "triton", "file": "triton.cubin", "entry": md.name,
                 "block": [32 * int(md.num_warps), 1, 1], "shared_bytes": int(md.shared)}
        if scratch:
            image["scratch_per_program"] = scratch
        # Triton says, per descriptor parameter in order, how its launcher
        # encodes the CUtensorMap (box, swizzle mode 0-3, element size).
        descs = [k for k, a in enumerate(meta["args"]) if a.get("kind") == "descriptor"]
        tma = list(getattr(md, "tensordesc_meta", None) or [])
        if descs and len(tma) != len(descs):
            raise RuntimeError("Triton describes %d tensor descriptors, the bundle has %d"
                               % (len(tma), len(descs)))
        if descs:
            image["descriptors"] = [
                {"arg": k, "box": list(d["block_size"]),
                 "swizzle_bytes": {0: 0, 1: 32, 2: 64, 3: 128}[int(d["swizzle"])],
                 "elem_bytes": int(d["elem_size"])}
                for k, d in zip(descs, tma)]
        meta["images"].append(image)
        result = None
    except Exception as e:  # Triton's front end or back end said no
        # The first located error Triton printed says more than the exception.
        os.write(2, (str(e) + "\n").encode())
        result = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(log_fd)
    if result is None:
        os.remove(err_path)
    else:
        with open(err_path, errors="replace") as f:
            located = [l for l in f if ": error: " in l]
        if located:
            result = located[0].strip()
    write_meta(bundle, meta)
    return bundle, result


def worker_loop(conn, arch):
    """A worker: imports Triton once, then compiles the bundles it is sent."""
    while True:
        bundle = conn.recv()
        if bundle is None:
            return
        conn.send(add_image((bundle, arch)))


class Pool:
    """Worker processes that survive what Triton does to them: a worker that
    dies (Triton crashed: a signal) or runs past --kernel-timeout is replaced,
    and its kernel is reported as a crash or a timeout. multiprocessing.Pool
    would never return a dead worker's task, and the run would wait for it."""

    def __init__(self, jobs, arch, kernel_timeout):
        self.ctx = multiprocessing.get_context("spawn")
        self.arch = arch
        self.kernel_timeout = kernel_timeout
        self.workers = [self._spawn() for _ in range(max(1, jobs))]

    def _spawn(self):
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=worker_loop, args=(child, self.arch), daemon=True)
        proc.start()
        child.close()
        return {"proc": proc, "conn": parent, "bundle": None, "since": 0.0}

    def _replace(self, w):
        w["proc"].kill()
        w["proc"].join()
        w["conn"].close()
        w.update(self._spawn())

    def run(self, bundles, deadline):
        """Yields (bundle, error or None) as kernels finish; stops handing out
        kernels at the deadline (None: never) and abandons running ones."""
        todo = list(reversed(bundles))
        while True:
            now = time.time()
            for w in self.workers:
                if w["bundle"] is None and todo and (deadline is None or now < deadline):
                    w["bundle"] = todo.pop()
                    w["since"] = now
                    w["conn"].send(w["bundle"])
            busy = [w for w in self.workers if w["bundle"] is not None]
            if not busy:
                return
            if deadline is not None and now >= deadline:
                return
            waits = [w["conn"] for w in busy] + [w["proc"].sentinel for w in busy]
            multiprocessing.connection.wait(waits, timeout=1.0)
            for w in busy:
                bundle = w["bundle"]
                if w["conn"].poll():
                    try:
                        _, err = w["conn"].recv()
                    except EOFError:
                        err = None
                    else:
                        w["bundle"] = None
                        yield bundle, err
                        continue
                if not w["proc"].is_alive():
                    code = w["proc"].exitcode
                    why = ("crash: Triton's process died with signal %d" % -code
                           if code is not None and code < 0
                           else "crash: Triton's process exited with status %s" % code)
                    record_failure(bundle, why)
                    w["bundle"] = None
                    self._replace(w)
                    yield bundle, why
                elif self.kernel_timeout and time.time() - w["since"] > self.kernel_timeout:
                    why = "timeout: Triton took over %g s" % self.kernel_timeout
                    record_failure(bundle, why)
                    w["bundle"] = None
                    self._replace(w)
                    yield bundle, why

    def close(self):
        """Idle workers are told to stop; busy ones (past the budget) are
        killed at once, not waited for."""
        for w in self.workers:
            if w["bundle"] is not None:
                w["proc"].kill()
                continue
            try:
                w["conn"].send(None)
            except OSError:
                w["proc"].kill()
        for w in self.workers:
            w["proc"].join(timeout=5)
            if w["proc"].is_alive():
                w["proc"].kill()
                w["proc"].join()


def record_failure(bundle, why):
    """A kernel whose worker died or hung: its bundle says so (the worker
    could not), and keeps tgpu's image only."""
    path = os.path.join(bundle, "triton_error.txt")
    try:
        with open(path, "a") as f:
            f.write(why + "\n")
    except OSError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--arch", type=int, default=90)
    ap.add_argument("--budget", type=float, default=0,
                    help="stop handing out kernels after this many seconds")
    ap.add_argument("--kernel-timeout", type=float, default=120,
                    help="a kernel Triton has not compiled after this many seconds is a timeout")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    bundles = bundles_in(args.paths, "add_triton_images")
    failed = []
    start = time.time()
    done = 0
    deadline = start + args.budget if args.budget else None
    pool = Pool(args.jobs, args.arch, args.kernel_timeout)
    try:
        for bundle, err in pool.run(bundles, deadline):
            done += 1
            if err:
                failed.append((bundle, err))
            if done % 100 == 0:
                print("add_triton_images: %d/%d in %.0f s" % (done, len(bundles), time.time() - start),
                      file=sys.stderr, flush=True)
    finally:
        pool.close()
    print("add_triton_images: %d bundles, %d handled in %.0f s: Triton compiled %d, rejected %d"
          " (crashed %d, timed out %d)"
          % (len(bundles), done, time.time() - start, done - len(failed), len(failed),
             sum(e.startswith("crash:") for _, e in failed),
             sum(e.startswith("timeout:") for _, e in failed)))
    for bundle, err in sorted(failed):
        print("  triton rejected %s: %s" % (os.path.basename(bundle), err[:200]))


if __name__ == "__main__":
    main()
