"""Prints what torch.compile (Inductor) generates for softmax over the last dimension, one shape
at a time: the Triton kernel's launch configuration (its heuristics, XBLOCK/RBLOCK, num_warps)
and its body, so that a round can compare that plan with the library's.

    python3 tools/lab/softmax/inductor_code.py 65536x300:bf16 30000x781:f16

Facts read from it may be cited; no code of it belongs in the library.
"""
import sys

import torch
from torch._inductor.utils import run_and_get_code

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def main(args):
    for arg in args:
        shape, dtype = arg.split(":")
        rows, cols = (int(v) for v in shape.split("x"))
        x = torch.randn(rows, cols, device="cuda", dtype=DTYPES[dtype])
        torch._dynamo.reset()
        fn = torch.compile(lambda t: torch.softmax(t, dim=-1))
        _, codes = run_and_get_code(fn, x)
        print(f"==== {arg}")
        for code in codes:
            keep = False
            for line in code.splitlines():
                if "@triton_heuristics" in line or "@triton.jit" in line:
                    keep = True
                if keep:
                    print(line)
                if keep and line.strip().startswith("''', device_str"):
                    keep = False
            for line in code.splitlines():
                if ".run(" in line or "grid" in line and "=" in line:
                    print("launch:", line.strip())


if __name__ == "__main__":
    main(sys.argv[1:])
