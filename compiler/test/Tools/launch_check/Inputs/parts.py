import sys

sys.path.insert(0, sys.argv[1])
import launch_check as lc

print("params", lc.ttir_params(open(sys.argv[2]).read()))
rows = [
    {"key": "aaaa.w4", "kernel": "k", "warps": 4, "stages": 3, "grid": [2, 1, 1],
     "status": "PASS", "detail": ""},
    {"key": "aaaa.w4", "kernel": "k", "warps": 4, "stages": 3, "grid": [2, 1, 1],
     "status": "FAIL", "detail": "buffer 0: off"},
    {"key": "bbbb.w8", "kernel": "k", "warps": 8, "stages": 3, "grid": None,
     "status": "TGPU-ERROR", "detail": "no"},
]
print(lc.markdown(rows))
print("tol", lc.parse_tolerances(["float16=1e-2,1e-3", "float32=0,1e-6,2e-6"]))
