"""peers.py: cuBLAS through PyTorch on the lab's shapes: bf16, f16 (fp32 accumulate) and fp32
with TF32, 4096^3 and 8192^3, timed with triton.testing.do_bench (median, L2 flushed by it)."""
import torch
import triton.testing

torch.backends.cuda.matmul.allow_tf32 = True
print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
for dt, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16"), (torch.float32, "tf32")):
    for s in (4096, 8192):
        a = torch.rand(s, s, device="cuda", dtype=dt) * 2 - 1
        b = torch.rand(s, s, device="cuda", dtype=dt) * 2 - 1
        for trans in (False, True):
            bb = b.t() if trans else b
            ms = triton.testing.do_bench(lambda: torch.matmul(a, bb), warmup=50, rep=300,
                                         return_mode="median")
            print(f"cuBLAS {name:5s} {s}^3 {'B^T' if trans else 'NN '} {ms:.3f} ms "
                  f"{2 * s**3 / ms / 1e9:.1f} TFLOP/s", flush=True)
