"""Finding bundles and rewriting their meta.json, for the GPU machine's
scripts (add_triton_images.py, ptxas_images.py); format in BUNDLE.md."""
import json
import os
import sys


def find_bundles(path):
    """PATH itself when it holds meta.json, else every bundle below it."""
    if os.path.isfile(os.path.join(path, "meta.json")):
        return [path]
    found = []
    for name in sorted(os.listdir(path)):
        sub = os.path.join(path, name)
        if os.path.isdir(sub):
            found += find_bundles(sub)
    return found


def bundles_in(paths, tool):
    """Every bundle under PATHS; exits with TOOL's message when a path is
    not a folder or there is no bundle at all."""
    bundles = []
    for p in paths:
        if not os.path.isdir(p):
            sys.exit("%s: '%s' is not a folder" % (tool, p))
        bundles += find_bundles(p)
    if not bundles:
        sys.exit("%s: no bundle found" % tool)
    return bundles


def write_meta(bundle, meta):
    """Atomically: a run cut short leaves no half-written meta.json."""
    tmp = os.path.join(bundle, "meta.json.tmp")
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    os.replace(tmp, os.path.join(bundle, "meta.json"))
