# Adds an image (impl, file) to a bundle's meta.json, copying the first
# image's entry and launch shape, as add_triton_images.py does for Triton.
import json, os, sys
d, impl, f = sys.argv[1:4]
p = os.path.join(d, "meta.json")
m = json.load(open(p))
img = dict(m["images"][0])
img.update(impl=impl, file=f)
m["images"].append(img)
json.dump(m, open(p, "w"), indent=2)
