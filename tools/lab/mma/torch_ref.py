"""cuBLAS through PyTorch on the lab's shapes, the baseline the lab's table is read against.

Run after the lab on the GPU machine (run.sh does): for fp32 (TF32 off), TF32, bf16 and
fp16 inputs (16-bit output for the 16-bit ones, as PyTorch does: compare with the lab's
bf16>bf16 and f16>f16 rows, whose error includes that rounding), the median time of 10 runs
(CUDA events, one warm-up, two operand sets alternating) and the error on a 64 x 64 grid of
sampled elements against fp64 on the same inputs (uniform in [-1, 1), the lab's distribution;
16-bit inputs are rounded first, so their error is the accumulation's, as in the lab), as
max |got - want| / sum |a b| in units of 2^-24 and max / mean |got - want| / |want|.
"""
import sys
import time

import torch

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4097, 4095, 4104), (8192, 1024, 8192),
          (16384, 4096, 1024), (2048, 2048, 16384)]
MODES = ["fp32", "tf32", "bf16", "fp16"]


def run(mode, a, b):
    """One product as a PyTorch user gets it: 16-bit inputs give a 16-bit output."""
    torch.backends.cuda.matmul.allow_tf32 = mode == "tf32"
    return a @ b


def time_ms(mode, sets):
    torch.cuda.synchronize()
    run(mode, *sets[0])
    times = []
    for r in range(10):
        a, b = sets[r % len(sets)]
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run(mode, a, b)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def errors(mode, a, b):
    c = run(mode, a, b)
    g = torch.Generator(device="cpu").manual_seed(5)
    rows = torch.randint(0, a.shape[0], (64,), generator=g).cuda()
    cols = torch.randint(0, b.shape[1], (64,), generator=g).cuda()
    a64, b64 = a[rows].double(), b[:, cols].double()
    want = a64 @ b64
    bound = a64.abs() @ b64.abs()
    got = c[rows][:, cols].double()
    err = (got - want).abs()
    rel = err / want.abs().clamp_min(1e-300)
    return (err / bound).max().item() / 2.0**-24, rel.max().item(), rel.mean().item()


def main():
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name()}")
    print(f"{'mode':6} {'shape':18} {'TFLOP/s':>8} {'ms':>8} {'err_u':>10} {'rel_max':>9} "
          f"{'rel_mean':>9}")
    deadline = time.time() + 30
    for (m, n, k) in SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(m * 31 + n * 17 + k)
        base = [(torch.rand(m, k, device="cuda", generator=gen) * 2 - 1,
                 torch.rand(k, n, device="cuda", generator=gen) * 2 - 1) for _ in range(2)]
        for mode in MODES:
            if time.time() > deadline:
                print(f"{mode:6} {m}x{n}x{k}: skipped (time)")
                continue
            dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(mode, torch.float32)
            sets = [(a.to(dtype), b.to(dtype)) for a, b in base]
            ms = time_ms(mode, sets)
            tflops = 2.0 * m * n * k / (ms * 1e-3) / 1e12
            err_u, rel_max, rel_mean = errors(mode, *sets[0]) if m <= 8192 and k <= 8192 else (
                float("nan"),) * 3
            print(f"{mode:6} {f'{m}x{n}x{k}':18} {tflops:8.1f} {ms:8.3f} {err_u:10.1f} "
                  f"{rel_max:9.2e} {rel_mean:9.2e}", flush=True)
            del sets
        del base
        torch.cuda.empty_cache()


if __name__ == "__main__":
    sys.exit(main())
