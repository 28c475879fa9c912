"""Decoding attention as a PyTorch user runs it, beside the decode lab (README.md).

    python3 tools/lab/decode/peers.py [--budget SECONDS] bf16:1x32x32x8192x128 bf16:1x32x8x8192x128

Each shape is the lab's: [bf16:|f16:|f32:]b x h x h_kv x lk x d, one query row a head (lq = 1).
tools/lab/h200/attention_peers.py takes b x h x lq x lk x d with as many key heads as query
heads, so grouped heads (h_kv < h) need this one: F.scaled_dot_product_attention with each
backend forced (cuDNN, FlashAttention-2, memory-efficient), K and V of h_kv heads and
enable_gqa where h_kv < h, timed with triton.testing.do_bench (median; it clears the L2 before
each repetition). Prints one line a (shape, backend):

    PEER shape=bf16:1x32x32x8192x128 backend=cudnn us=47.31 GBps=2837

GB/s count K and V read once (b h_kv lk d elements each); a backend that refuses the call prints
`us=- GBps=-` and why.
"""
import argparse
import time

import torch
import torch.nn.functional as F
import triton.testing
from torch.nn.attention import SDPBackend, sdpa_kernel

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
BACKENDS = (("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION))


def parse(spec):
    dtype, _, dims = spec.rpartition(":")
    b, h, h_kv, lk, d = map(int, dims.split("x"))
    return DTYPES[dtype or "bf16"], b, h, h_kv, lk, d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=0.0, help="seconds; 0: no limit")
    ap.add_argument("shapes", nargs="+")
    args = ap.parse_args()
    start = time.time()
    for spec in args.shapes:
        if args.budget and time.time() - start > args.budget:
            print("PEER shape=%s skipped: budget" % spec, flush=True)
            continue
        dtype, b, h, h_kv, lk, d = parse(spec)
        q = torch.randn(b, h, 1, d, device="cuda", dtype=dtype)
        k = torch.randn(b, h_kv, lk, d, device="cuda", dtype=dtype)
        v = torch.randn(b, h_kv, lk, d, device="cuda", dtype=dtype)
        kv_bytes = 2.0 * b * h_kv * lk * d * k.element_size()
        gqa = {"enable_gqa": True} if h_kv != h else {}
        for name, backend in BACKENDS:
            try:
                with sdpa_kernel(backend):
                    def call():
                        return F.scaled_dot_product_attention(q, k, v, **gqa)
                    call()
                    ms = triton.testing.do_bench(call, warmup=10, rep=60, return_mode="median")
                print("PEER shape=%s backend=%s us=%.2f GBps=%.0f"
                      % (spec, name, ms * 1e3, kv_bytes / ms / 1e6), flush=True)
            except Exception as e:  # a backend that refuses the call is reported, not fatal
                why = str(e).strip().splitlines()[0][:120] if str(e).strip() else type(e).__name__
                print("PEER shape=%s backend=%s us=- GBps=- (%s)" % (spec, name, why), flush=True)
        del q, k, v
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
