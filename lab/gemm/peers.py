#!/usr/bin/env python3
"""PyTorch (cuBLAS / cuBLASLt) on the shapes gemm_lab measured, and the merged table.

Reads gemm_lab's CSV (--lab), runs each distinct shape through PyTorch on the GPU:
  torch fp32   a @ b with TF32 off (torch.backends.cuda.matmul.allow_tf32 = False)
  torch tf32   the same with TF32 on
  torch bf16   bf16 inputs and output
  batched shapes with torch.bmm; epilogue shapes as addmm + the activation (two kernels) and,
  where cuBLASLt has the epilogue (bias along n with relu or gelu), torch._addmm_activation
  (one kernel; its gelu is the tanh form);
timed with CUDA events (median of --repeat calls after warm-up). Transposed operands are
transposed views and padded leading dimensions are slices of wider tensors, so cuBLAS gets the
same strides the library did. Then prints one table: per shape the library's default, CLBlast
untuned and tuned, the best of the lab's sweep, and the PyTorch rows, in TFLOP/s (skinny shapes:
GB/s of the large operand), with oclfuse / torch fp32.

  python3 lab/gemm/peers.py --lab lab.csv [--repeat 20] [--budget 90] [--out torch.csv]
"""
import argparse
import csv
import statistics
import sys
import time


def read_lab(path):
    shapes, rows = [], []
    seen = set()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append(r)
            key = (r["group"], r["key"])
            if key not in seen:
                seen.add(key)
                shapes.append(r)
    return shapes, rows


def number(text):
    try:
        value = float(text)
        return value if value == value else None
    except (TypeError, ValueError):
        return None


class Peers:
    def __init__(self, torch, repeat, budget):
        self.torch = torch
        self.repeat = repeat
        self.deadline = time.monotonic() + budget

    def operands(self, s, dtype):
        """A (m x k), B (k x n), bias, with the lab's transposes and padded strides."""
        torch = self.torch
        m, n, k, batch = int(s["m"]), int(s["n"]), int(s["k"]), int(s["batch"])
        ta, tb, pad = int(s["ta"]), int(s["tb"]), int(s["pad"])
        dev = "cuda"

        def stored(rows, cols):
            shape = (batch, rows, cols + pad) if batch > 1 else (rows, cols + pad)
            t = torch.empty(shape, device=dev, dtype=torch.float32).uniform_(-1, 1).to(dtype)
            return t[..., :cols]

        a = stored(k, m).transpose(-1, -2) if ta else stored(m, k)
        b = stored(n, k).transpose(-1, -2) if tb else stored(k, n)
        axis = int(s["bias"])
        bias = None
        if axis == 1:
            bias = torch.empty(n, device=dev, dtype=dtype).uniform_(-1, 1)
        elif axis == 2:
            bias = torch.empty(m, 1, device=dev, dtype=dtype).uniform_(-1, 1)
        return a, b, bias

    def time_ms(self, fn):
        torch = self.torch
        fn()
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        first = start.elapsed_time(end)
        repeat = self.repeat if first * self.repeat < 1000 else max(3, int(1000 / max(first, 1e-3)))
        times = []
        for _ in range(repeat):
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times)

    def variants(self, s):
        """(name, dtype, tf32, function builder) for a shape's group."""
        torch = self.torch
        F = torch.nn.functional
        act = int(s["act"])
        acts = {
            0: lambda x: x,
            1: F.relu,
            2: F.gelu,
            3: lambda x: F.gelu(x, approximate="tanh"),
            4: F.silu,
        }
        out = []
        for name, dtype, tf32 in (
            ("torch fp32", torch.float32, False),
            ("torch tf32", torch.float32, True),
            ("torch bf16", torch.bfloat16, False),
        ):
            if s["group"] == "epilogue":
                out.append((name + " addmm+act", dtype, tf32, "unfused", acts[act]))
                if int(s["bias"]) == 1 and act in (1, 2, 3):
                    out.append((name + " addmm_act", dtype, tf32, "fused", act))
            else:
                out.append((name, dtype, tf32, "plain", None))
        return out

    def run(self, s):
        torch = self.torch
        results = []
        for name, dtype, tf32, kind, extra in self.variants(s):
            if time.monotonic() > self.deadline:
                results.append((name, None, "over the time budget"))
                continue
            torch.backends.cuda.matmul.allow_tf32 = tf32
            try:
                a, b, bias = self.operands(s, dtype)
                if kind == "plain":
                    fn = (lambda: torch.bmm(a, b)) if a.dim() == 3 else (lambda: a @ b)
                elif kind == "unfused":
                    fn = lambda: extra(torch.addmm(bias, a, b))
                else:
                    gelu = extra != 1
                    fn = lambda: torch._addmm_activation(bias, a, b, use_gelu=gelu)
                results.append((name, self.time_ms(fn), ""))
            except Exception as e:  # one failing peer must not end the run
                results.append((name, None, str(e).split("\n")[0][:60]))
            finally:
                torch.backends.cuda.matmul.allow_tf32 = False
        return results


def rate(s, ms, large_bytes=4.0):
    if ms is None or ms <= 0:
        return None
    m, n, k, batch = int(s["m"]), int(s["n"]), int(s["k"]), int(s["batch"])
    if s["group"] == "skinny":
        rows = m if n <= 16 else n
        return rows * k * large_bytes * batch / (ms * 1e-3) * 1e-9
    return 2.0 * m * n * k * batch / (ms * 1e-3) * 1e-12


def fmt(value):
    if value is None:
        return "-"
    return "%.0f" % value if value >= 100 else "%.2f" % value if value < 10 else "%.1f" % value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lab", required=True, help="gemm_lab's CSV")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--budget", type=float, default=90.0, help="seconds for the PyTorch runs")
    ap.add_argument("--out", help="also write the PyTorch rows as CSV")
    args = ap.parse_args()
    shapes, lab_rows = read_lab(args.lab)

    torch_rows = {}
    try:
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError("no CUDA device")
        torch.set_float32_matmul_precision("highest")
        peers = Peers(torch, args.repeat, args.budget)
        print("# PyTorch %s, %s" % (torch.__version__, torch.cuda.get_device_name()), flush=True)
        for s in shapes:
            for name, ms, note in peers.run(s):
                bytes_per = 2.0 if "bf16" in name else 4.0
                torch_rows.setdefault((s["group"], s["key"]), []).append(
                    (name, ms, rate(s, ms, bytes_per), note)
                )
                print(
                    "peers: %s %s %s %s %s"
                    % (s["group"], s["key"], name, "-" if ms is None else "%.4f ms" % ms, note),
                    file=sys.stderr,
                    flush=True,
                )
    except Exception as e:
        print("# PyTorch peers not run: %s" % e)

    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["group", "key", "variant", "ms", "rate", "note"])
            for (group, key), items in torch_rows.items():
                for name, ms, r, note in items:
                    w.writerow([group, key, name, ms, r, note])

    # The merged table: the lab's main variants, its best sweep row, and the peers.
    print()
    print("# TFLOP/s (skinny: GB/s of the large operand); 'best-swp' is the lab's fastest")
    print("# tuning override on that shape, the last column lists them (fastest first, at most")
    print("# six) and the other peers; ratio = oclfuse / torch fp32")
    header = "%-9s %-34s %8s %8s %8s %8s %8s %8s %8s %6s  %s" % (
        "group", "shape", "oclfuse", "clblast", "cl-tuned", "best-swp",
        "t-fp32", "t-tf32", "t-bf16", "ratio", "sweep rows / other peers")
    print(header)
    group = None
    for s in shapes:
        g, key = s["group"], s["key"]
        mine = [r for r in lab_rows if r["group"] == g and r["key"] == key]

        def lab_rate(variant):
            for r in mine:
                if r["variant"] == variant and r["status"] == "ok":
                    return number(r["gbps"] if g == "skinny" else r["tflops"])
            return None

        main_names = {"oclfuse", "clblast", "clblast-tuned", "oclfuse-loop", "gemm+bias_act"}
        sweep = [
            (number(r["gbps"] if g == "skinny" else r["tflops"]), r["variant"])
            for r in mine
            if r["variant"] not in main_names and r["status"] == "ok"
        ]
        sweep = [x for x in sweep if x[0] is not None]
        best = max(sweep) if sweep else (None, "")
        # every sweep row, fastest first (the checks of a change read against the default)
        listed = ["%s %s" % (v, fmt(r)) for r, v in sorted(sweep, reverse=True)[:6]]
        peers = {name: r for name, ms, r, note in torch_rows.get((g, key), [])}
        ours = lab_rate("oclfuse")
        if ours is None and sweep:  # the precision group names its rows by mode
            ours = dict((v, r) for r, v in sweep).get("fp32")
        fp32 = peers.get("torch fp32", peers.get("torch fp32 addmm+act"))
        ratio = ours / fp32 if ours and fp32 else None
        others = []
        for extra in ("oclfuse-loop", "gemm+bias_act"):
            if lab_rate(extra) is not None:
                others.append("%s %s" % (extra, fmt(lab_rate(extra))))
        for name, r in peers.items():
            if name not in ("torch fp32", "torch tf32", "torch bf16") and r is not None:
                others.append("%s %s" % (name.replace("torch ", ""), fmt(r)))
        if g != group:
            print()
            group = g
        print(
            "%-9s %-34s %8s %8s %8s %8s %8s %8s %8s %6s  %s"
            % (
                g, key, fmt(ours), fmt(lab_rate("clblast")), fmt(lab_rate("clblast-tuned")),
                fmt(best[0]), fmt(fp32), fmt(peers.get("torch tf32")),
                fmt(peers.get("torch bf16")), "-" if ratio is None else "%.2f" % ratio,
                "; ".join(listed + others),
            )
        )


if __name__ == "__main__":
    main()
