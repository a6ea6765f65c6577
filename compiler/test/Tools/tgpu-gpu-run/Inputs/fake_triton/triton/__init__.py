"""A stand-in for Triton 3.6 in tests of add_triton_images.py and
gpu-reduce.py loop without Triton or a GPU: compile() makes an image for
tgpu-gpu-run --simulate. A kernel with a convert_layout to #linear "loses
the context" (a sticky error, as an illegal address would); one with
"fake-crash" in it kills the process; one with "fake-reject" is refused;
any other returns the expected buffers."""
import json
import os
import re
import signal


class _Metadata:
    def __init__(self, nargs):
        self.name = "kernel"
        self.num_warps = 4
        self.shared = 0
        self.global_scratch_size = 0
        self.profile_scratch_size = 0
        self.nargs = nargs


class _Compiled:
    def __init__(self, action, nargs):
        self.metadata = _Metadata(nargs)
        params = ", ".join(".param .u64 p%d" % i for i in range(nargs + 2))
        self.asm = {"ptx": ".visible .entry kernel(%s)\n" % params,
                    "cubin": ("// simulate: %s\n" % action).encode()}


def compile(path, target=None, options=None):
    with open(path) as f:
        text = f.read()
    with open(os.path.join(os.path.dirname(path), "meta.json")) as f:
        nargs = len(json.load(f)["args"])
    if "fake-crash" in text:
        os.kill(os.getpid(), signal.SIGSEGV)
    if "fake-reject" in text:
        raise RuntimeError("%s:1:1: error: fake rejection" % path)
    if "math.exp" in text:
        raise RuntimeError("%s:1:1: error: fake rejection of exp" % path)
    if "tt.func" not in text:
        raise RuntimeError("%s:1:1: error: no kernel" % path)
    bad = re.search(r"ttg\.convert_layout.*->\s*tensor<[^>]*#linear>", text)
    return _Compiled("sticky" if bad else "expected", nargs)
