"""LayerNorm and RMSNorm as a PyTorch user runs them, beside `oclfuse bench --op norm` (issue 20).

    python3 tools/lab/h200/norm_peers.py 8192x4096:f32 1024x16384:bf16 ...

For each rows x cols and storage type: F.layer_norm (weight and bias), F.rms_norm (weight), and
each under torch.compile, timed with triton.testing.do_bench (median; it flushes the L2 before
each repetition). GB/s count one read and one write of x, in its storage type, as the issue's
table and the bench do (weights are a row, noise beside the rows).
"""
import sys

import torch
import torch.nn.functional as F
import triton.testing

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}

for spec in sys.argv[1:]:
    shape, dt = spec.split(":")
    rows, cols = map(int, shape.split("x"))
    x = torch.randn(rows, cols, device="cuda", dtype=DTYPES[dt])
    w = torch.randn(cols, device="cuda", dtype=DTYPES[dt])
    b = torch.randn(cols, device="cuda", dtype=DTYPES[dt])

    def layer(t):
        return F.layer_norm(t, (cols,), w, b, 1e-5)

    def rms(t):
        return F.rms_norm(t, (cols,), w, 1e-5)

    layer_c, rms_c = torch.compile(layer), torch.compile(rms)
    peers = (("layer_norm", layer), ("layer_norm_compiled", layer_c), ("rms_norm", rms),
             ("rms_norm_compiled", rms_c))
    results = []
    for name, fn in peers:
        try:
            ms = triton.testing.do_bench(lambda: fn(x), warmup=25, rep=100, return_mode="median")
            results.append("%s %.0f" % (name, 2 * x.numel() * x.element_size() / ms / 1e6))
        except Exception as e:  # a peer that fails is reported, not fatal
            results.append("%s failed(%s)" % (name, type(e).__name__))
    print("norm %s %s GB/s: %s" % (shape, dt, "  ".join(results)), flush=True)
