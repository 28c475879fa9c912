#!/usr/bin/env python3
"""What a user would run instead of liboclfuse's softmax, timed on the cases of shapes.txt.

Peers: torch.softmax / torch.log_softmax (eager), torch.compile of the same function, and a
one-row-a-program Triton kernel (rows of at most 32768 columns, same type in and out, no
lengths). For "lengths" cases the user's way is timed: masked_fill of the padding with -inf, then
softmax (eager, and compiled, which fuses them); padding then comes out as 0 like liboclfuse's.

Timing: inputs uniform in [-4, 4); after warm-up calls (which also compile), each of `repeats`
calls is bracketed by CUDA events on the stream and the median of their elapsed times is taken.
GB/s count one read of the input and one write of the output in their storage types, as the lab
does. The script stops starting new measurements once its time budget is spent; it never waits
on anything but the GPU.

Output: tab-separated lines "case peer median_us GB/s note" (case = index of the shapes.txt line
among the cases), a "#" header first.
"""
import argparse
import statistics
import sys
import time

import torch

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
SIZES = {"f32": 4, "f16": 2, "bf16": 2}


def read_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            rows, cols, din, dout, mode = fields[:5]
            cases.append(
                {
                    "rows": int(rows),
                    "cols": int(cols),
                    "in": din,
                    "out": dout,
                    "log": mode == "log",
                    "lengths": len(fields) > 5 and fields[5] == "lengths",
                }
            )
    return cases


def case_lengths(case):
    """The lab's ragged lengths: cols - (r * 7919) % (cols // 2 + 1)."""
    r = torch.arange(case["rows"], device="cuda", dtype=torch.int64)
    return case["cols"] - (r * 7919) % (case["cols"] // 2 + 1)


def eager_fn(case):
    out = DTYPES[case["out"]]
    same = case["in"] == case["out"]
    op = torch.log_softmax if case["log"] else torch.softmax
    if case["lengths"]:
        cols = torch.arange(case["cols"], device="cuda")
        mask = cols[None, :] >= case_lengths(case)[:, None]
        return lambda x: op(x.masked_fill(mask, float("-inf")), -1, dtype=None if same else out)
    return lambda x: op(x, -1, dtype=None if same else out)


def compiled_fn(case):
    return torch.compile(eager_fn(case), dynamic=False)


TRITON_MAX_COLS = 32768

try:
    import triton
    import triton.language as tl

    @triton.jit
    def _row_kernel(src, dst, stride, n, BLOCK: tl.constexpr, LOG: tl.constexpr):
        """One program a row, the row in one block, fp32 inside."""
        row = tl.program_id(0)
        col = tl.arange(0, BLOCK)
        keep = col < n
        x = tl.load(src + row * stride + col, mask=keep, other=float("-inf")).to(tl.float32)
        t = x - tl.max(x, axis=0)
        e = tl.exp(t)
        s = tl.sum(e, axis=0)
        if LOG:
            y = t - tl.log(s)
        else:
            y = e / s
        tl.store(dst + row * stride + col, y.to(dst.dtype.element_ty), mask=keep)

except ImportError:
    triton = None


def triton_fn(case):
    if triton is None or case["lengths"] or case["in"] != case["out"]:
        return None
    if case["cols"] > TRITON_MAX_COLS:
        return None
    block = triton.next_power_of_2(case["cols"])
    warps = 4 if block <= 2048 else 8 if block <= 8192 else 16

    def run(x):
        y = torch.empty_like(x)
        _row_kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1], BLOCK=block, LOG=case["log"],
                                   num_warps=warps)
        return y

    return run


def time_fn(fn, x, repeats):
    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(repeats)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(repeats)]
    for i in range(repeats):
        starts[i].record()
        fn(x)
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", default="tools/lab/softmax/shapes.txt")
    parser.add_argument("--budget", type=float, default=50.0, help="seconds")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    start = time.monotonic()
    # Every case compiles its own static shapes: let dynamo keep them all.
    for name in ("cache_size_limit", "recompile_limit", "accumulated_cache_size_limit",
                 "accumulated_recompile_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 4096)
    cases = read_cases(args.shapes)
    print("#device\t%s\ttorch %s" % (torch.cuda.get_device_name(), torch.__version__))
    print("#case\tpeer\tmedian_us\tGB/s\tnote")
    sys.stdout.flush()
    # Eager first for every case (quick), then, case by case in the file's order (most important
    # first), the peers that compile, while time remains.
    plan = [("torch", eager_fn, index, case) for index, case in enumerate(cases)]
    for index, case in enumerate(cases):
        plan += [("triton", triton_fn, index, case), ("torch.compile", compiled_fn, index, case)]
    for peer, make, index, case in plan:
        if time.monotonic() - start > args.budget:
            print("%d\t%s\t\t\tskipped (time budget)" % (index, peer))
            continue
        moved = case["rows"] * case["cols"] * (SIZES[case["in"]] + SIZES[case["out"]])
        try:
            fn = make(case)
            if fn is None:
                continue
            x = torch.empty(case["rows"], case["cols"], dtype=DTYPES[case["in"]], device="cuda")
            x.uniform_(-4.0, 4.0)
            repeats = args.repeats if moved < (1 << 30) else max(5, args.repeats // 4)
            ms = time_fn(fn, x, repeats)
            print("%d\t%s\t%.2f\t%.1f\t" % (index, peer, ms * 1e3, moved / (ms * 1e6)))
            del x
        except Exception as error:  # a peer that cannot run this case: say so, go on
            why = (str(error) or type(error).__name__).splitlines()[0][:80]
            print("%d\t%s\t\t\tfailed (%s)" % (index, peer, why))
        sys.stdout.flush()
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
