"""Attention as a PyTorch user runs it, beside `oclfuse bench --op attention` (issue 21).

    python3 tools/lab/h200/attention_peers.py 4x32x4096x4096x128:bf16:causal 1x32x1x8192x128:bf16

Each case is b x h x lq x lk x d, a storage type and optionally `causal` (bottom-right aligned,
as FlashAttention and the library align it). F.scaled_dot_product_attention with each backend
forced (cuDNN, flash, efficient, math), timed with triton.testing.do_bench (median; the L2 is
flushed before each repetition). TFLOP/s count 4 b h lq lk d, halved for causal; decode cases
(lq = 1) print GB/s of K and V read as well.
"""
import sys

import torch
import torch.nn.functional as F
import triton.testing
from torch.nn.attention import SDPBackend, sdpa_kernel

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
BACKENDS = (("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION), ("math", SDPBackend.MATH))

for spec in sys.argv[1:]:
    fields = spec.split(":")
    b, h, lq, lk, d = map(int, fields[0].split("x"))
    dtype = DTYPES[fields[1]]
    causal = "causal" in fields[2:]
    q = torch.randn(b, h, lq, d, device="cuda", dtype=dtype)
    k = torch.randn(b, h, lk, d, device="cuda", dtype=dtype)
    v = torch.randn(b, h, lk, d, device="cuda", dtype=dtype)
    # FlashAttention's causal mask is top-left aligned in PyTorch's is_causal; bottom-right needs
    # an explicit mask when lq != lk.
    mask = None
    if causal and lq != lk:
        mask = torch.ones(lq, lk, device="cuda", dtype=torch.bool).tril(diagonal=lk - lq)
    flops = 4.0 * b * h * lq * lk * d / (2.0 if causal else 1.0)
    kv_bytes = 2.0 * b * h * lk * d * k.element_size()
    results = []
    for name, backend in BACKENDS:
        try:
            with sdpa_kernel(backend):
                def call():
                    if mask is not None:
                        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                ms = triton.testing.do_bench(call, warmup=10, rep=60, return_mode="median")
            text = "%s %.1f TFLOP/s" % (name, flops / ms / 1e9)
            if lq == 1:
                text += " (%.0f GB/s)" % (kv_bytes / ms / 1e6)
            results.append(text)
        except Exception as e:  # a backend that refuses the case is reported, not fatal
            results.append("%s -" % name)
    print("attention %s %s%s: %s" % (fields[0], fields[1], " causal" if causal else "",
                                      "  ".join(results)), flush=True)
