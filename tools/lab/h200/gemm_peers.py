import sys, torch, triton.testing
torch.backends.cuda.matmul.allow_tf32 = False
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 5: continue
    dt, tb, m, n, k = f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4])
    torch.backends.cuda.matmul.allow_tf32 = dt == "tf32"
    tdt = {"bf16": torch.bfloat16, "f16": torch.float16}.get(dt, torch.float32)
    a = torch.rand(m, k, device="cuda", dtype=tdt) - 0.5
    b = (torch.rand(n, k, device="cuda", dtype=tdt) - 0.5).t() if tb else torch.rand(k, n, device="cuda", dtype=tdt) - 0.5
    ms = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=25, rep=150, return_mode="median")
    print(f"cuBLAS {dt:5s} B{'^T' if tb else '  '} {m:6d}x{n:6d}x{k:6d}  {ms:8.3f} ms  {2*m*n*k/ms/1e9:7.1f} TFLOP/s", flush=True)
