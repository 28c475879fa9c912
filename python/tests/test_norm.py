"""LayerNorm and RMSNorm on numpy arrays against numpy references in float64.

Tolerance: tests/tolerance.c (ocft_norm_tolerance) bounds each fp32 output by
|w| rho (E + |x - mean| e_rho) plus a few u |y|, with E about 3 (D + 5) u max|x - x_0| and
e_rho about 3 (D + 4) u / 2 for rows of spread above eps; for rows of at most 1000 values in
[-2, 2) (D at most cols + 4) that stays below 4e-4 (1 + |y|), the bound used here (the C suite,
tests/test_norm.c, checks the model itself element by element). A 16-bit output adds half an ulp
of its type at the result; 16-bit inputs are exact (the reference takes the stored values).
"""
import numpy as np
import pytest

import oclfuse
from storage import HALF_ULP, as_dtype, stored

TOL = 4e-4


def reference(x, weight, bias, eps, rms):
    x = stored(x)
    mean = np.zeros(x.shape[:-1] + (1,)) if rms else x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    y = (x - mean) * rstd
    if weight is not None:
        y = y * stored(weight)
    if bias is not None:
        y = y + stored(bias)
    return y, mean[..., 0], rstd[..., 0]


def assert_close(got, want, code=oclfuse.F32):
    got = stored(got)
    bound = TOL * (1.0 + np.abs(want)) + HALF_ULP[code] * np.abs(want) * 2.0
    assert np.all(np.abs(got - want) <= bound), np.max(np.abs(got - want) - bound)


@pytest.mark.parametrize("rms", [False, True])
def test_norm_fp32_everything(ctx, rng, rms):
    x = rng.uniform(-2, 2, (5, 333)).astype(np.float32)
    h = rng.uniform(-1, 1, (5, 333)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, 333).astype(np.float32)
    b = rng.uniform(-1, 1, 333).astype(np.float32)
    if rms:
        y, s, rstd = ctx.rmsnorm(x, w, residual=h, return_residual=True, return_stats=True)
    else:
        y, s, (mean, rstd) = ctx.layernorm(x, w, b, residual=h, return_residual=True,
                                           return_stats=True)
    assert np.array_equal(s, x + h)  # the fp32 sum, exactly
    want, want_mean, want_rstd = reference(s, w, None if rms else b, 1e-5, rms)
    assert_close(y, want)
    assert np.allclose(rstd, want_rstd, rtol=TOL)
    if not rms:
        assert np.allclose(mean, want_mean, rtol=0, atol=TOL)


@pytest.mark.parametrize("code", [oclfuse.F16, oclfuse.BF16])
def test_norm_16_bit(ctx, rng, code):
    x = as_dtype(rng.uniform(-2, 2, (3, 100)), code)
    w = as_dtype(rng.uniform(0.5, 1.5, 100), code)
    y = ctx.layernorm(x, w, eps=1e-6)
    assert y.dtype == x.dtype
    want, _, _ = reference(x, w, None, 1e-6, False)
    assert_close(y, want, code)
    y32 = ctx.rmsnorm(x, w, out_dtype="f32")
    assert y32.dtype == np.float32
    assert_close(y32, reference(x, w, None, 1e-5, True)[0])


def test_norm_large_mean(ctx, rng):
    x = (1e4 + rng.uniform(-1, 1, (2, 1000))).astype(np.float32)
    assert_close(ctx.layernorm(x), reference(x, None, None, 1e-5, False)[0])


def test_norm_refusals(ctx):
    with pytest.raises(oclfuse.InvalidValueError):
        ctx.layernorm(np.ones((2, 4), np.float32), eps=-1.0)
    with pytest.raises(ValueError):
        ctx.rmsnorm(np.ones((2, 4), np.float32), np.ones(3, np.float32))
