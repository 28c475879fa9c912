#!/usr/bin/env python3
"""What a user would pick instead of liboclfuse, on the shapes an `oclfuse bench` run measured.

Reads the JSON of `oclfuse bench --format json` (--bench) and times, on the same GPU through
PyTorch (CUDA):
  softmax  torch.softmax(x, dim=-1) eager, and torch.compile of the same function (Inductor
           generates a Triton kernel for it)
  matmul   a @ b in fp32 with TF32 off (cuBLAS SGEMM, the like-for-like peer), with TF32 on,
           and with bf16 inputs and output
Timing: after warm-up calls (which also compile), batches of --repeat calls enqueued back to back
between two CUDA events (the host's launch time hidden, as in oclfuse bench), the median of 5, the same rates as the bench (softmax GB/s of one read and one write, matmul
TFLOP/s of 2mnk). Prints one table: per shape liboclfuse's rate, each peer's, and the ratio
liboclfuse / peer (above 1: liboclfuse is faster). A peer the budget leaves out is "-".

  python3 bench/peers.py --bench run.json [--repeat 20] [--budget 120] [--out peers.tsv]
"""
import argparse
import json
import statistics
import sys
import time


def timed(torch, fn, repeat):
    """Device time of one fn() in ms, after warm-up: the median over 5 batches of `repeat` calls
    enqueued back to back between two events, so that the host's launch time is hidden as it is
    in oclfuse bench (events around single calls would count the host's gaps for short calls)."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeat):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / repeat)
    return statistics.median(times)


def softmax_peers(torch, rows, cols, repeat):
    x = torch.rand(rows, cols, device="cuda", dtype=torch.float32) * 8 - 4
    compiled = torch.compile(lambda t: torch.softmax(t, dim=-1), dynamic=False)
    bytes_moved = 2 * 4 * rows * cols
    out = {}
    for name, fn in (("torch.softmax", lambda: torch.softmax(x, dim=-1)),
                     ("torch.compile", lambda: compiled(x))):
        out[name] = bytes_moved / (timed(torch, fn, repeat) * 1e-3) / 1e9
    return out


def matmul_peers(torch, m, n, k, repeat):
    a = torch.rand(m, k, device="cuda") - 0.5
    b = torch.rand(k, n, device="cuda") - 0.5
    flops = 2.0 * m * n * k
    out = {}
    for name, tf32 in (("torch fp32", False), ("torch tf32", True)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        out[name] = flops / (timed(torch, lambda: a @ b, repeat) * 1e-3) / 1e12
    torch.backends.cuda.matmul.allow_tf32 = False
    ab, bb = a.to(torch.bfloat16), b.to(torch.bfloat16)
    out["torch bf16"] = flops / (timed(torch, lambda: ab @ bb, repeat) * 1e-3) / 1e12
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="oclfuse bench --format json output")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--budget", type=float, default=120.0, help="seconds for every peer")
    parser.add_argument("--out", help="also write the table, tab-separated, here")
    args = parser.parse_args()
    import torch

    with open(args.bench) as f:
        run = json.load(f)
    ours = {}
    for r in run["results"]:
        if r["variant"] == "oclfuse" and not r["sweep"] and r["status"] == "ok":
            if r["op"] in ("softmax", "matmul"):
                ours[(r["op"], tuple(r["dims"]))] = r["rate"]
    deadline = time.monotonic() + args.budget
    lines = [("op", "shape", "oclfuse", "peer", "peer_rate", "unit", "oclfuse/peer")]
    for (op, dims), rate in ours.items():
        if time.monotonic() > deadline:
            lines.append((op, "x".join(map(str, dims)), "%.1f" % rate, "-", "-", "", "budget"))
            continue
        try:
            if op == "softmax":
                peers, unit, mine = softmax_peers(torch, *dims, args.repeat), "GB/s", rate
            else:
                peers, unit, mine = matmul_peers(torch, *dims, args.repeat), "TFLOP/s", rate / 1e3
        except Exception as error:  # a shape torch cannot run here: say so, go on
            lines.append((op, "x".join(map(str, dims)), "", "error", str(error)[:60], "", ""))
            continue
        for name, value in peers.items():
            lines.append((op, "x".join(map(str, dims)), "%.1f" % mine, name, "%.1f" % value, unit,
                          "%.2f" % (mine / value)))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        print("  ".join(str(v).ljust(w) for v, w in zip(line, widths)).rstrip())
    if args.out:
        with open(args.out, "w") as f:
            for line in lines:
                f.write("\t".join(map(str, line)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
