#!/usr/bin/env python3
"""What a user would pick instead of liboclfuse, on every call an `oclfuse bench` run measured.

Reads the JSON of `oclfuse bench --format json` (--bench) and times, on the same GPU through
PyTorch (CUDA), the peers of each liboclfuse row (variant oclfuse, not a sweep, status ok), with
the row's storage types and options (its `shape`, in the bench's --sizes language):
  add        x + y
  softmax    torch.softmax (log_softmax for `log`, the input scaled first for `scale=`), row
             lengths and a causal band as a mask the user builds once (random lengths in
             [0, cols], as the bench draws them, or all `lengths=L`), rows `pad=` apart as a
             strided view; eager and under torch.compile (Inductor's Triton kernel).
  norm       F.layer_norm / F.rms_norm with the row's weight and bias, its residual added first
             (and the sum returned, as the library writes it); eager and under torch.compile.
             `stats` rows are timed against the plain forward (torch returns no statistics).
  matmul     torch.matmul on the row's layout (transposes as views, column-major as the
             transposed product, batch and a shared operand as broadcasts), storage types and
             precision (fp32 and 3xtf32 against cuBLAS fp32 with TF32 off, tf32 with it on),
             alpha and beta through addmm / baddbmm, bias and activation after it; eager, and
             under torch.compile where there is an epilogue to fuse.
  attention  F.scaled_dot_product_attention with each backend forced (cuDNN, flash, efficient,
             math), grouped key heads through enable_gqa (else expanded once, outside the
             timing), the causal mask bottom-right aligned as the library aligns it (an
             explicit mask where lq != lk); math is left out where its scores pass 16 GiB.
Each peer is timed with triton.testing.do_bench (median of its repetitions, the L2 flushed before
each, as the bench flushes it). Rates are the row's own: a peer's rate is the row's rate times the
row's time over the peer's (the same work, in the row's unit), and oclfuse/peer is the peer's time
over the row's (above 1: liboclfuse is faster). Prints every peer, then each row against its best
peer. --list names each row's peers without PyTorch (a dry run: what a GPU run would time).

  python3 bench/peers.py --bench run.json [--budget 120] [--out peers.tsv] [--list]
"""
import argparse
import contextlib
import json
import sys
import time

DTYPE_WORDS = ("f32", "f16", "bf16")
TORCH_DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}


def options_of(shape):
    """The option words after the sizes of a row's shape: {"bf16": True, "causal": "1024", ...}."""
    options = {}
    for word in shape.split(":")[1:]:
        key, equals, value = word.partition("=")
        options[key] = value if equals else True
    return options


def storage(options, *names):
    """The storage type the row gives the first of `names` ("a", "in", ...), else its plain type
    word, else f32."""
    for name in names:
        if name in options:
            return options[name]
    for word in DTYPE_WORDS:
        if word in options:
            return word
    return "f32"


class Peers:
    """The peers of one row: (name, function) pairs, or why it has none. Built with torch None,
    only the names (the dry run); with torch, the tensors on the GPU and the calls."""

    def __init__(self, torch):
        self.torch = torch
        self.calls = []
        self.none = None

    def add(self, name, make, context=None):
        """`make` returns the call to time (it runs only with torch, inside `context`, a
        function giving the context manager the call is timed in: a forced backend)."""
        if not self.torch:
            self.calls.append((name, None, None))
            return
        with context() if context else contextlib.nullcontext():
            self.calls.append((name, make(), context))

    def compiled(self, name, fn):
        """fn and, under its own name, torch.compile(fn)."""
        self.add(name, lambda: fn)
        self.add(name + " compiled", lambda: self.torch.compile(fn, dynamic=False))


def tensor(torch, dtype, *shape):
    return torch.randn(*shape, device="cuda", dtype=getattr(torch, TORCH_DTYPES[dtype]))


def add_peers(p, dims, options):
    (n,) = dims
    if p.torch:
        x, y = tensor(p.torch, "f32", n), tensor(p.torch, "f32", n)
    p.add("torch.add", lambda: lambda: x + y)


def softmax_peers(p, dims, options):
    rows, cols = dims
    in_type, out_type = storage(options, "in"), storage(options, "out")
    scale = float(options.get("scale", 1.0))
    log = "log" in options
    pad = int(options.get("pad", 0))
    causal = options.get("causal")
    if not p.torch:
        fn = None
    else:
        torch = p.torch
        x = tensor(torch, in_type, rows, cols + pad)[:, :cols]
        out_dtype = getattr(torch, TORCH_DTYPES[out_type])
        keep = None
        lengths = options.get("lengths")
        if lengths:
            # row r keeps its first length columns (a length above cols keeps them all)
            if lengths is True:
                length = torch.randint(0, cols + 1, (rows, 1), device="cuda")
            else:
                length = torch.full((rows, 1), int(lengths), device="cuda")
            keep = torch.arange(cols, device="cuda").unsqueeze(0) < length
        if causal:
            # row r keeps columns 0 .. (r mod P) + O: `causal` is one head from key 0, causal=P
            # heads of P rows whose last rows keep every column (O = cols - P), causal=P,O both
            if causal is True:
                period, offset = rows, 0
            else:
                period, _, offset = causal.partition(",")
                period = int(period)
                offset = int(offset) if offset else cols - period
            r = torch.arange(rows, device="cuda").unsqueeze(1)
            c = torch.arange(cols, device="cuda").unsqueeze(0)
            band = c <= (r % period) + offset
            keep = band if keep is None else keep & band
        op = torch.log_softmax if log else torch.softmax
        cast = {} if in_type == out_type else {"dtype": out_dtype}

        def fn():
            t = x * scale if scale != 1.0 else x
            if keep is not None:
                t = t.masked_fill(~keep, float("-inf"))
            return op(t, dim=-1, **cast)

    p.compiled("torch.log_softmax" if log else "torch.softmax", fn)


def norm_peers(p, dims, options):
    rows, cols = dims
    rms, residual = "rms" in options, "residual" in options
    eps = float(options.get("eps", 1e-5))
    if not p.torch:
        fn = None
    else:
        torch, dtype = p.torch, storage(options)
        import torch.nn.functional as F
        x = tensor(torch, dtype, rows, cols)
        r = tensor(torch, dtype, rows, cols) if residual else None
        w = tensor(torch, dtype, cols) if "weight" in options else None
        b = tensor(torch, dtype, cols) if "bias" in options and not rms else None

        def normed(t):
            if rms:
                return F.rms_norm(t, (cols,), w, eps)
            return F.layer_norm(t, (cols,), w, b, eps)

        def fn():
            if r is None:
                return normed(x)
            h = x + r  # the pre-norm block's update, written out as the library writes x'
            return normed(h), h

    p.compiled("F.rms_norm" if rms else "F.layer_norm", fn)


ACTIVATIONS = {"relu": "relu", "gelu": "gelu", "gelu_tanh": "gelu", "silu": "silu"}


def matmul_peers(p, dims, options):
    m, n, k = dims
    transposes = next((w for w in ("nn", "nt", "tn", "tt") if w in options), "nn")
    precision = next((w for w in ("fp32", "tf32", "3xtf32") if w in options), "fp32")
    a_type, b_type = storage(options, "a"), storage(options, "b")
    c_type = storage(options, "c")
    batch, share = int(options.get("batch", 1)), options.get("share")
    alpha, beta = float(options.get("alpha", 1.0)), float(options.get("beta", 0.0))
    bias_axis, act = options.get("bias"), options.get("act")
    epilogue = bias_axis or act or beta != 0.0 or alpha != 1.0 or c_type != a_type
    name = "torch.matmul " + ("tf32" if precision == "tf32" else a_type)
    if not p.torch:
        fn = None
    else:
        torch = p.torch
        import torch.nn.functional as F
        # TF32 for the tf32 rows only: fp32 and 3xtf32 (fp32-class error) against cuBLAS SGEMM
        torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
        ta, tb = transposes[0] == "t", transposes[1] == "t"
        if "col" in options:
            # Column-major storage read row-major is each matrix transposed: C^T (n x m) =
            # op(B)^T op(A)^T, B's storage first, with the same transpose words.
            m, n, a_type, b_type, ta, tb = n, m, b_type, a_type, tb, ta
            share = {"a": "b", "b": "a"}.get(share)

        def operand(dtype, rows, cols, transposed, shared):
            lead = () if shared or batch == 1 else (batch,)
            t = tensor(torch, dtype, *lead, cols, rows) if transposed else tensor(
                torch, dtype, *lead, rows, cols)
            return t.transpose(-1, -2) if transposed else t

        a = operand(a_type, m, k, ta, share == "a")
        b = operand(b_type, k, n, tb, share == "b")
        lead = () if batch == 1 else (batch,)
        c = tensor(torch, c_type, *lead, m, n) if beta != 0.0 else None
        bias = None
        if bias_axis:
            bias = tensor(torch, c_type, n) if bias_axis == "n" else tensor(torch, c_type, m, 1)
        activation = getattr(F, ACTIVATIONS[act]) if act else None
        c_dtype = getattr(torch, TORCH_DTYPES[c_type])

        def fn():
            y = torch.matmul(a, b)
            if alpha != 1.0:
                y = y * alpha
            if c is not None:
                y = y + beta * c
            if bias is not None:
                y = y + bias
            if activation is not None:
                y = activation(y, approximate="tanh") if act == "gelu_tanh" else activation(y)
            return y.to(c_dtype)

    if epilogue:
        p.compiled(name, fn)
    else:
        p.add(name, lambda: fn)


def attention_peers(p, dims, options):
    b, h, lq, lk, d = dims
    kv = int(options.get("kv", h))
    causal = "causal" in options
    scale = float(options.get("scale", 0.0)) or None
    backends = ["cudnn", "flash", "efficient", "math"]
    if 4.0 * b * h * lq * lk > 16 * 2 ** 30:  # math materializes the fp32 scores
        backends.remove("math")
    if p.torch:
        torch = p.torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
        dtype = storage(options)
        torch.backends.cuda.matmul.allow_tf32 = options.get("precision") == "1"
        q = tensor(torch, dtype, b, h, lq, d)
        k, v = tensor(torch, dtype, b, kv, lk, d), tensor(torch, dtype, b, kv, lk, d)
        mask = None
        if causal and lq != lk:  # bottom-right: query i keeps keys j <= i + lk - lq
            mask = torch.ones(lq, lk, device="cuda", dtype=torch.bool).tril(diagonal=lk - lq)
        kinds = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
                 "efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}

        def call(keys, values, gqa):
            return lambda: F.scaled_dot_product_attention(
                q, keys, values, attn_mask=mask, is_causal=causal and mask is None, scale=scale,
                enable_gqa=gqa)

        def make():  # inside the backend's context (Peers.add)
            if kv == h:
                return call(k, v, False)
            try:  # a backend that takes grouped heads as they are ...
                fn = call(k, v, True)
                fn()
                return fn
            except Exception:  # ... else the user's expansion, once, outside the timing
                group = h // kv
                return call(k.repeat_interleave(group, 1), v.repeat_interleave(group, 1), False)

    for backend in backends:
        # The backend is forced around the timing, not in each call (whose host time would
        # count in short decoding calls).
        context = (lambda backend=backend: sdpa_kernel(kinds[backend])) if p.torch else None
        p.add("sdpa " + backend, make if p.torch else None, context)


PEERS = {"add": add_peers, "softmax": softmax_peers, "norm": norm_peers, "matmul": matmul_peers,
         "attention": attention_peers}


def rows_of(run):
    """The liboclfuse rows a peer is timed against."""
    return [r for r in run["results"]
            if r["variant"] == "oclfuse" and not r["sweep"] and r["status"] == "ok"
            and r["op"] in PEERS and r["median_ms"]]


def peers_of(torch, row):
    p = Peers(torch)
    PEERS[row["op"]](p, row["dims"], options_of(row["shape"]))
    return p


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="oclfuse bench --format json output")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds for every peer")
    parser.add_argument("--out", help="also write the table, tab-separated, here")
    parser.add_argument("--list", action="store_true", help="name the peers only (no PyTorch)")
    args = parser.parse_args()
    with open(args.bench) as f:
        run = json.load(f)
    rows = rows_of(run)
    if args.list:
        for row in rows:
            p = peers_of(None, row)
            names = ", ".join(name for name, _, _ in p.calls) or "none: " + p.none
            print("%s %s: %s" % (row["op"], row["shape"], names))
        return 0

    import torch
    import triton.testing

    deadline = time.monotonic() + args.budget
    lines = [("op", "shape", "oclfuse", "peer", "peer_rate", "unit", "oclfuse/peer")]
    best = [("op", "shape", "oclfuse", "best peer", "its rate", "unit", "oclfuse/best")]
    for row in rows:
        op, shape, rate, unit = row["op"], row["shape"], row["rate"], row["unit"]
        ours = "%.1f" % rate
        if time.monotonic() > deadline:
            lines.append((op, shape, ours, "-", "-", unit, "budget"))
            continue
        try:
            p = peers_of(torch, row)
        except Exception as error:  # a shape torch cannot hold here: say so, go on
            lines.append((op, shape, ours, "error", str(error)[:60], unit, ""))
            continue
        if p.none:
            lines.append((op, shape, ours, "none", p.none, unit, ""))
        top = None
        for name, fn, context in p.calls:
            try:
                with context() if context else contextlib.nullcontext():
                    ms = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
            except Exception as error:  # a backend that refuses the call is reported, not fatal
                lines.append((op, shape, ours, name, "failed: " + type(error).__name__, unit, ""))
                continue
            peer_rate = rate * row["median_ms"] / ms
            lines.append((op, shape, ours, name, "%.1f" % peer_rate, unit,
                          "%.2f" % (ms / row["median_ms"])))
            if top is None or ms < top[1]:
                top = (name, ms, peer_rate)
        if top:
            best.append((op, shape, ours, top[0], "%.1f" % top[2], unit,
                         "%.2f" % (top[1] / row["median_ms"])))
        del p
        torch.cuda.empty_cache()
    for table in (lines, best):
        widths = [max(len(str(line[i])) for line in table) for i in range(len(table[0]))]
        for line in table:
            print("  ".join(str(v).ljust(w) for v, w in zip(line, widths)).rstrip())
        print()
    if args.out:
        with open(args.out, "w") as f:
            for line in lines + [()] + best:
                f.write("\t".join(map(str, line)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
