#!/usr/bin/env python3
"""bench/peers.py without a GPU: its PyTorch paths run on a stand-in torch that holds shapes only
and checks what the real one would refuse (a product's inner dimensions, broadcasts, a norm's
last dimension, attention's heads and mask), and a triton.testing.do_bench that calls once.

    python3 bench/test_peers.py RUN.json

RUN.json: an `oclfuse bench --format json` run whose --sizes use every option word of the
bench's language (tests/CMakeLists.txt makes one on the default device). Passes when every
liboclfuse row got its peers, each built, called and "timed" without an error, the rows with
no peer saying why; exits 1 naming what went wrong otherwise. A test of the peers' construction,
not of their speed: the GPU run (next_session.sh bench) is that.
"""
import contextlib
import io
import json
import os
import sys
import types


def broadcast(*shapes):
    """The broadcast of shapes, as torch computes it; ValueError where they do not broadcast."""
    width = max(len(s) for s in shapes)
    out = []
    for dims in zip(*[(1,) * (width - len(s)) + tuple(s) for s in shapes]):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            raise ValueError("shapes %s do not broadcast" % (shapes,))
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


class Tensor:
    """A tensor's shape and type, and the operations peers.py makes on it."""

    def __init__(self, shape, dtype="float32"):
        self.shape, self.dtype = tuple(shape), dtype

    def _with(self, other):
        other_shape = other.shape if isinstance(other, Tensor) else ()
        return Tensor(broadcast(self.shape, other_shape), self.dtype)

    __add__ = __radd__ = __mul__ = __rmul__ = __mod__ = __le__ = __lt__ = __and__ = _with

    def __invert__(self):
        return self

    def __getitem__(self, index):
        shape = list(self.shape)
        for axis, item in enumerate(index if isinstance(index, tuple) else (index,)):
            if isinstance(item, slice):
                shape[axis] = len(range(*item.indices(shape[axis])))
        return Tensor(shape, self.dtype)

    def transpose(self, a, b):
        shape = list(self.shape)
        shape[a], shape[b] = shape[b], shape[a]
        return Tensor(shape, self.dtype)

    def unsqueeze(self, axis):
        shape = list(self.shape)
        shape.insert(axis if axis >= 0 else len(shape) + 1 + axis, 1)
        return Tensor(shape, self.dtype)

    def masked_fill(self, mask, value):
        return self._with(mask)

    def repeat_interleave(self, times, axis):
        shape = list(self.shape)
        shape[axis] *= times
        return Tensor(shape, self.dtype)

    def to(self, dtype):
        return Tensor(self.shape, dtype)

    def tril(self, diagonal=0):
        return self


def make_torch():
    torch = types.ModuleType("torch")
    for name in ("float32", "float16", "bfloat16", "bool"):
        setattr(torch, name, name)

    def randn(*shape, device=None, dtype="float32"):
        assert device == "cuda", "a tensor off the GPU"
        assert all(isinstance(d, int) and d > 0 for d in shape), "bad shape %s" % (shape,)
        return Tensor(shape, dtype)

    def matmul(a, b):
        if a.shape[-1] != b.shape[-2]:
            raise ValueError("matmul of %s and %s" % (a.shape, b.shape))
        lead = broadcast(a.shape[:-2], b.shape[:-2])
        return Tensor(lead + (a.shape[-2], b.shape[-1]), a.dtype)

    def softmax(t, dim, dtype=None):
        return Tensor(t.shape, dtype or t.dtype)

    torch.randn = randn
    torch.ones = lambda *shape, device=None, dtype=None: Tensor(shape, dtype)
    torch.arange = lambda n, device=None: Tensor((n,), "int64")
    torch.randint = lambda low, high, shape, device=None: Tensor(shape, "int64")
    torch.full = lambda shape, value, device=None: Tensor(shape, "int64")
    torch.matmul = matmul
    torch.softmax = torch.log_softmax = softmax
    torch.compile = lambda fn, dynamic=None: fn
    torch.cuda = types.SimpleNamespace(empty_cache=lambda: None)
    torch.backends = types.SimpleNamespace(
        cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(allow_tf32=False)))

    functional = types.ModuleType("torch.nn.functional")

    def norm(t, shape, weight=None, bias=None, eps=None):
        for vector in (weight, bias):
            if vector is not None and vector.shape != tuple(shape):
                raise ValueError("weight %s for rows of %s" % (vector.shape, shape))
        if t.shape[-len(shape):] != tuple(shape):
            raise ValueError("norm over %s of %s" % (shape, t.shape))
        return t

    functional.layer_norm = norm
    functional.rms_norm = lambda t, shape, weight=None, eps=None: norm(t, shape, weight)
    functional.gelu = lambda t, approximate="none": t
    functional.relu = functional.silu = lambda t: t

    def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None, enable_gqa=False):
        (b, h, lq, d), (_, h_kv, lk, d_k) = q.shape, k.shape
        if d != d_k or k.shape != v.shape or (h != h_kv and not (enable_gqa and h % h_kv == 0)):
            raise ValueError("sdpa of q %s, k %s, v %s" % (q.shape, k.shape, v.shape))
        if attn_mask is not None and (attn_mask.shape != (lq, lk) or is_causal):
            raise ValueError("mask %s with is_causal %s" % (attn_mask.shape, is_causal))
        return q

    functional.scaled_dot_product_attention = sdpa
    attention = types.ModuleType("torch.nn.attention")
    attention.SDPBackend = types.SimpleNamespace(CUDNN_ATTENTION=0, FLASH_ATTENTION=1,
                                                 EFFICIENT_ATTENTION=2, MATH=3)
    attention.sdpa_kernel = lambda backend: contextlib.nullcontext()
    nn = types.ModuleType("torch.nn")
    nn.functional, nn.attention = functional, attention
    torch.nn = nn

    triton = types.ModuleType("triton")
    testing = types.ModuleType("triton.testing")

    def do_bench(fn, warmup=None, rep=None, return_mode=None):
        assert return_mode == "median"
        fn()
        return 0.5

    testing.do_bench = do_bench
    triton.testing = testing
    return {"torch": torch, "torch.nn": nn, "torch.nn.functional": functional,
            "torch.nn.attention": attention, "triton": triton, "triton.testing": testing}


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    run_path = sys.argv[1]
    sys.modules.update(make_torch())
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import peers

    sys.argv = ["peers.py", "--bench", run_path, "--budget", "1e9"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = peers.main()
    text = out.getvalue()
    print(text, end="")
    problems = []
    if status != 0:
        problems.append("peers.py exited %s" % status)
    for line in text.splitlines():
        if " error " in " %s " % line or "failed:" in line:
            problems.append(line)
    with open(run_path) as f:
        rows = peers.rows_of(json.load(f))
    if not rows:
        problems.append("no liboclfuse row in the run")
    for row in rows:
        if not any(line.split()[:2] == [row["op"], row["shape"]] for line in text.splitlines()):
            problems.append("no peer line for %s %s" % (row["op"], row["shape"]))
    for problem in problems:
        print("test_peers: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
