"""Fused attention on numpy arrays against a float64 reference.

Tolerance: harness/tolerance.c models each output of cl/attention.cl; for the inputs here
(q, k, v in [-1, 1), d <= 64, scale 1 / sqrt(d), at most 300 kept keys) it stays below
3e-4 max|v|: every weight's relative error is at most the score's, gamma_d |scale| sum |q k|
<= d u sqrt(d) = 3e-5 (d = 64), plus exp and the argument's rounding (about 10 u |s - m| <=
1e-5), and the normalised sum moves by at most twice that times sum w |v|; the running sums
add gamma_N, N = 3 kept + 2 (at most 6e-5). 16-bit inputs are exact (the reference reads the
stored values); a 16-bit out adds half an ulp of its type. The C suite (tests/test_attention.c)
checks the full model element by element; this file checks the binding: shapes, strides,
dtypes, masks, lse and refusals.
"""
import numpy as np
import pytest

import oclfuse
from storage import HALF_ULP, as_dtype, stored

TOL = 3e-4


def reference(q, k, v, scale=None, causal=False, causal_offset=None, lengths=None):
    """out and lse in float64; q [b, h, lq, d], k and v [b, h_kv, lk, d]."""
    q, k, v = stored(q), stored(k), stored(v)
    b, h, lq, d = q.shape
    h_kv, lk = k.shape[1], k.shape[2]
    scale = 1.0 / np.sqrt(d) if scale is None else scale
    offset = lk - lq if causal_offset is None else causal_offset
    out = np.zeros((b, h, lq, d))
    lse = np.full((b, h, lq), -np.inf)
    for batch in range(b):
        kept_len = lk if lengths is None else min(lk, int(lengths[batch]))
        for head in range(h):
            kv = head // (h // h_kv)
            for i in range(lq):
                kept = kept_len if not causal else max(0, min(kept_len, i + offset + 1))
                if kept == 0:
                    continue
                s = scale * (k[batch, kv, :kept] @ q[batch, head, i])
                m = s.max()
                w = np.exp(s - m)
                out[batch, head, i] = (w / w.sum()) @ v[batch, kv, :kept]
                lse[batch, head, i] = m + np.log(w.sum())
    return out, lse


def assert_close(got, want, v, code=oclfuse.F32):
    got = stored(got)
    vmax = max(np.max(np.abs(stored(v))), 1e-30)
    bound = TOL * vmax + HALF_ULP[code] * np.abs(want) * 2.0
    assert got.shape == want.shape
    assert np.all(np.abs(got - want) <= bound), np.max(np.abs(got - want) - bound)


def random_qkv(rng, b, h, h_kv, lq, lk, d):
    q = rng.uniform(-1, 1, (b, h, lq, d)).astype(np.float32)
    k = rng.uniform(-1, 1, (b, h_kv, lk, d)).astype(np.float32)
    v = rng.uniform(-1, 1, (b, h_kv, lk, d)).astype(np.float32)
    return q, k, v


@pytest.mark.parametrize("lq,lk", [(1, 1), (7, 300), (33, 17)])
def test_attention_fp32_gqa(ctx, rng, lq, lk):
    q, k, v = random_qkv(rng, 2, 4, 2, lq, lk, 64)
    out, lse = ctx.attention(q, k, v, return_lse=True)
    want, want_lse = reference(q, k, v)
    assert_close(out, want, v)
    assert out.dtype == np.float32 and lse.shape == (2, 4, lq)
    assert np.allclose(lse, want_lse, rtol=0, atol=1e-4)


@pytest.mark.parametrize("code", [oclfuse.F16, oclfuse.BF16])
def test_attention_16bit_in_and_out(ctx, rng, code):
    q, k, v = (as_dtype(a, code) for a in random_qkv(rng, 1, 2, 2, 5, 40, 32))
    out = ctx.attention(q, k, v)
    assert out.dtype == q.dtype
    assert_close(out, reference(q, k, v)[0], v, code)
    out32 = ctx.attention(q, k, v, out_dtype=oclfuse.F32)
    assert out32.dtype == np.float32
    assert_close(out32, reference(q, k, v)[0], v)


def test_attention_masks(ctx, rng):
    q, k, v = random_qkv(rng, 3, 2, 1, 6, 9, 16)
    lengths = np.array([9, 4, 0], dtype=np.uint32)
    out, lse = ctx.attention(q, k, v, scale=0.3, causal=True, lengths=lengths, return_lse=True)
    want, want_lse = reference(q, k, v, 0.3, True, None, lengths)
    assert_close(out, want, v)
    assert np.all(np.isneginf(lse[2])) and np.all(out[2] == 0)
    assert np.allclose(lse[:2], want_lse[:2], rtol=0, atol=1e-4)
    # An explicit offset: query i sees keys j <= i - 2 (the first two rows see none).
    out = ctx.attention(q, k, v, causal=True, causal_offset=-2)
    assert_close(out, reference(q, k, v, None, True, -2)[0], v)


def test_attention_strided_views_and_shapes(ctx, rng):
    # A head-interleaved [b, l, h, d] tensor viewed as [b, h, l, d]: passed as it lies.
    q = rng.uniform(-1, 1, (2, 5, 3, 8)).astype(np.float32).transpose(0, 2, 1, 3)
    k = rng.uniform(-1, 1, (2, 11, 3, 8)).astype(np.float32).transpose(0, 2, 1, 3)
    v = rng.uniform(-1, 1, (2, 11, 3, 8)).astype(np.float32).transpose(0, 2, 1, 3)
    assert not q.flags.c_contiguous
    assert_close(ctx.attention(q, k, v), reference(q, k, v)[0], v)
    # A non-contiguous last axis is copied; [h, l, d] and [l, d] forms.
    wide = rng.uniform(-1, 1, (4, 16)).astype(np.float32)
    q2, k2, v2 = wide[:, ::2], wide[:, 1::2], wide[:, ::2].copy()
    out2 = ctx.attention(q2, k2, v2)
    assert out2.shape == (4, 8)
    assert_close(out2, reference(q2[None, None], k2[None, None], v2[None, None])[0][0, 0], v2)
    out3, lse3 = ctx.attention(q[0], k[0], v[0], return_lse=True)
    assert out3.shape == (3, 5, 8) and lse3.shape == (3, 5)


@pytest.mark.parametrize("precision", ["3xtf32", "tf32"])
def test_attention_fp32_precision(ctx, rng, precision):
    """Leave to multiply in TF32 parts (NVIDIA's matrix units; elsewhere exact fp32). 3XTF32's
    products are off by at most 5 2^-22 of |x y|: each score by 1.2e-6 |scale| sum |q k| <= 1e-5
    (d 64), the weights by twice that relatively, within TOL. TF32 truncates each factor (2^-10):
    2^-9 |scale| sum |q k| <= 0.016 on a score, so out moves by up to 2 expm1(0.016) + 2^-9 of
    max|v|, below 0.04."""
    q, k, v = random_qkv(rng, 2, 4, 2, 33, 70, 64)
    out, lse = ctx.attention(q, k, v, causal=True, return_lse=True, precision=precision)
    want, want_lse = reference(q, k, v, causal=True)
    if precision == "3xtf32":
        assert_close(out, want, v)
        assert np.allclose(lse, want_lse, rtol=0, atol=1e-4)
    else:
        assert np.max(np.abs(out - want)) <= 0.04 * np.max(np.abs(v))
        assert np.allclose(lse, want_lse, rtol=0, atol=0.02)


def test_attention_refusals(ctx, rng):
    q, k, v = random_qkv(rng, 1, 3, 2, 4, 4, 8)
    with pytest.raises(oclfuse.InvalidValueError):
        ctx.attention(q, k, v)  # 3 heads over 2 kv heads
    q, k, v = random_qkv(rng, 1, 2, 2, 4, 4, 8)
    with pytest.raises(ValueError):
        ctx.attention(q, k[:, :, :, :4], v)
    with pytest.raises(ValueError):
        ctx.attention(q, k, v, lengths=[1, 2])
    with pytest.raises(ValueError):
        ctx.attention(q, k, v, causal_offset=1)
    with pytest.raises(oclfuse.InvalidValueError):
        ctx.attention(q, k, v, scale=float("nan"))
    with pytest.raises(ValueError):
        ctx.attention(q, k, v, precision="fp16")
    with pytest.raises(oclfuse.InvalidValueError):
        ctx.attention(rng.uniform(-1, 1, (1, 1, 2, 300)).astype(np.float32),
                      *random_qkv(rng, 1, 1, 1, 2, 2, 300)[1:])
