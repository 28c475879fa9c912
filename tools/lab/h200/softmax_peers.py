import sys, torch, triton.testing
for spec in sys.argv[1:]:
    shape, dt = spec.split(":")
    r, c = map(int, shape.split("x"))
    tdt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[dt]
    x = torch.randn(r, c, device="cuda", dtype=tdt)
    f = torch.compile(lambda t: torch.softmax(t, dim=-1))
    res = []
    for name, fn in (("torch", lambda: torch.softmax(x, dim=-1)), ("compile", lambda: f(x))):
        try:
            ms = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
            res.append(f"{name} {2*r*c*x.element_size()/ms/1e6:7.0f} GB/s")
        except Exception as e:
            res.append(f"{name} failed {type(e).__name__}")
    print(f"softmax {shape:>12s} {dt:5s} " + "  ".join(res), flush=True)
