"""The ops on numpy arrays against numpy references in float64.

Tolerances (u = 2^-24, the fp32 unit roundoff):
  - add is exact (one correctly rounded fp32 addition).
  - softmax: tests/test_softmax_options.c argues, per element, a relative error of at most
    24u + 4u|t| plus b = u (12 + 4 max|t| + 9h) from the row sum, h = 2 ceil(cols / 64) + 70
    summation levels, doubled for second-order terms; with |t| = scale |x - max| <= 8 and
    cols <= 600: 2 (24 + 32 + 12 + 32 + 9 * 90) u = 1820u, about 1.1e-4 relative; log-softmax
    the same bound absolute plus 6u |log S|. A 16-bit output adds half an ulp of its type
    (2^-11 relative for fp16, 2^-8 for bf16; fp16 subnormals 2^-25 absolute). 16-bit inputs are
    exact: the reference takes the stored values.
  - matmul: each element is a dot product of k fp32 products summed in order, within
    (k + 2) u (|alpha| |A||B| + |beta C| + |bias|), doubled (harness/tolerance.c's model); TF32
    adds 2^-9 |alpha| |A||B| (the documented bound of its truncation); an activation adds the
    error of erf, tanh or exp and a division (16u of the output) to the propagated error (slopes
    below 1.2). A 16-bit C adds half an ulp of its type at the result.
"""
import numpy as np
import pytest

import oclfuse

U = 2.0 ** -24
HALF_ULP = {oclfuse.F32: 0.0, oclfuse.F16: 2.0 ** -11, oclfuse.BF16: 2.0 ** -8}
FLOOR = {oclfuse.F32: 1e-37, oclfuse.F16: 2.0 ** -25, oclfuse.BF16: 1e-37}


def stored(array):
    """The values an array holds, as float64 (bfloat16 from uint16 bits included)."""
    array = np.asarray(array)
    if array.dtype == np.uint16:
        return oclfuse.bfloat16_to_float(array).astype(np.float64)
    return array.astype(np.float64)


def as_dtype(x, code):
    x = np.asarray(x, dtype=np.float32)
    if code == oclfuse.F32:
        return x
    if code == oclfuse.F16:
        return oclfuse.float_to_half(x)
    return oclfuse.float_to_bfloat16(x)


def test_add(ctx, rng):
    x = rng.standard_normal((3, 1000)).astype(np.float32)
    y = rng.standard_normal((3, 1000)).astype(np.float32)
    assert np.array_equal(ctx.add(x, y), x + y)
    out = np.empty_like(x)
    assert ctx.add(x, y, out=out) is out and np.array_equal(out, x + y)
    ctx.add(x, y, out=x)  # in place
    assert np.array_equal(x, out)
    with pytest.raises(ValueError):
        ctx.add(x, y[:, :10])


def softmax_reference(x, scale, log, lengths):
    x = stored(x).reshape(-1, np.shape(x)[-1])
    out = np.zeros_like(x)
    for r in range(x.shape[0]):
        length = x.shape[1] if lengths is None else int(lengths[r])
        if length == 0:
            out[r] = -np.inf if log else 0.0
            continue
        row = scale * (x[r, :length] - (x[r, :length].max() if length else 0.0))
        if log:
            out[r, :length] = row - np.log(np.exp(row).sum())
            out[r, length:] = -np.inf
        else:
            out[r, :length] = np.exp(row) / np.exp(row).sum()
    return out


def assert_softmax_close(got, want, out_code, log):
    got = stored(got).reshape(want.shape)
    finite = np.isfinite(want)
    assert np.array_equal(got[~finite], want[~finite])
    bound = 1820 * U * (1.0 if log else np.abs(want[finite]))
    if log:
        bound = bound + 6 * U * np.abs(want[finite]) + 1e-6
    bound = bound + HALF_ULP[out_code] * np.abs(want[finite]) + FLOOR[out_code]
    err = np.abs(got[finite] - want[finite])
    assert np.all(err <= bound), "worst %g over %g" % (err.max(), bound.max())


# Each type appears in and out; every pair would build nine programs (seconds each on PoCL).
@pytest.mark.parametrize("in_code,out_code", [(oclfuse.F32, oclfuse.F32),
                                              (oclfuse.F16, oclfuse.BF16),
                                              (oclfuse.BF16, oclfuse.F16)])
def test_softmax_dtypes(ctx, rng, in_code, out_code):
    x = as_dtype(rng.uniform(-8, 8, (5, 130)), in_code)
    y = ctx.softmax(x, out_dtype=out_code)
    assert y.dtype == oclfuse.numpy_dtype(out_code)
    assert_softmax_close(y, softmax_reference(x, 1.0, False, None), out_code, False)


@pytest.mark.parametrize("log", [False, True])
def test_softmax_scale_log_lengths(ctx, rng, log):
    x = rng.uniform(-16, 16, (7, 600)).astype(np.float32)
    lengths = np.array([600, 0, 1, 599, 300, 64, 2], dtype=np.uint32)
    y = ctx.softmax(x, scale=0.5, log=log, lengths=lengths)
    assert_softmax_close(y, softmax_reference(x, 0.5, log, lengths), oclfuse.F32, log)
    # A length above cols counts as cols (the kernels clamp it): the same bits as the clamped.
    over = ctx.softmax(x, scale=0.5, log=log, lengths=lengths + 1)
    clamped = ctx.softmax(x, scale=0.5, log=log, lengths=np.minimum(lengths + 1, 600))
    assert np.array_equal(over, clamped, equal_nan=True)
    with pytest.raises(ValueError):
        ctx.softmax(x, lengths=lengths[:3])


def test_softmax_strides_in_place_and_shapes(ctx, rng):
    wide = rng.standard_normal((6, 50)).astype(np.float32)
    view = wide[:, 5:45]  # rows 50 apart: passed as they lie
    want = softmax_reference(view, 1.0, False, None)
    assert_softmax_close(ctx.softmax(view), want, oclfuse.F32, False)
    out = np.full((6, 64), 7.0, np.float32)
    ctx.softmax(view, out=out[:, :40])
    assert_softmax_close(out[:, :40], want, oclfuse.F32, False)
    assert np.all(out[:, 40:] == 7.0)  # the gaps between out's rows keep their values
    cube = rng.standard_normal((2, 3, 33)).astype(np.float16)
    y = ctx.softmax(cube)
    assert y.shape == cube.shape and y.dtype == np.float16
    assert_softmax_close(y, softmax_reference(cube, 1.0, False, None), oclfuse.F16, False)
    copy = cube.copy()
    assert ctx.softmax(copy, out=copy) is copy  # in place
    assert np.array_equal(copy, y)
    vector = ctx.softmax(np.zeros(4, np.float32))
    assert np.allclose(vector, 0.25)
    column_view = wide[:, :10].T  # not row-contiguous: copied first
    assert_softmax_close(ctx.softmax(column_view), softmax_reference(column_view, 1, False, None),
                         oclfuse.F32, False)


def kept_lengths(rows, cols, lengths=None, period=None, offset=0):
    """Each row's kept length as include/oclfuse.h defines it: the smallest of cols, its length
    (when given) and (r mod period) + offset + 1 (when period is given: the causal band)."""
    kept = np.full(rows, cols, np.int64)
    if lengths is not None:
        kept = np.minimum(kept, np.asarray(lengths, np.int64))
    if period is not None:
        kept = np.minimum(kept, np.arange(rows) % period + offset + 1)
    return kept


# The causal band. |t| = |x - max| <= 8 and cols <= 600, the range the bound above is argued for.
@pytest.mark.parametrize("log", [False, True])
def test_softmax_causal_one_head(ctx, rng, log):
    x = rng.uniform(-4, 4, (40, 96)).astype(np.float32)
    out = np.full_like(x, 7.0)
    assert ctx.softmax(x, log=log, causal=True, out=out) is out  # period: the 40 rows
    want = softmax_reference(x, 1.0, log, kept_lengths(40, 96, period=40))
    assert_softmax_close(out, want, oclfuse.F32, log)
    # past the band: exactly 0 (-inf), whatever out held
    assert np.all(out[np.triu_indices(40, 1)] == (-np.inf if log else 0.0))


@pytest.mark.parametrize("log", [False, True])
def test_softmax_causal_heads_offset_lengths(ctx, rng, log):
    heads, nq, nk = 3, 16, 40
    x = rng.uniform(-4, 4, (heads, nq, nk)).astype(np.float32)
    flat = x.reshape(heads * nq, nk)
    # nk - nq: the last query of each head sees every key (a query block at the end of the keys)
    want = softmax_reference(flat, 1.0, log, kept_lengths(heads * nq, nk, period=nq, offset=24))
    got = ctx.softmax(x, log=log, causal=True, causal_offset=nk - nq)  # period x.shape[-2]
    assert got.shape == x.shape
    assert_softmax_close(got, want, oclfuse.F32, log)
    assert np.array_equal(ctx.softmax(flat, log=log, causal=True, causal_period=nq,
                                      causal_offset=nk - nq), got.reshape(flat.shape))
    # bands past cols keep every column; the lengths cut where they are shorter than the band
    lengths = rng.integers(0, nk + 1, heads * nq).astype(np.uint32)
    got = ctx.softmax(flat, scale=0.5, log=log, lengths=lengths, causal=True, causal_period=nq,
                      causal_offset=30)
    kept = kept_lengths(heads * nq, nk, lengths, period=nq, offset=30)
    assert np.any(kept == nk) and np.any(kept < np.minimum(lengths, nk))
    assert_softmax_close(got, softmax_reference(flat, 0.5, log, kept), oclfuse.F32, log)


@pytest.mark.parametrize("out_code", [oclfuse.F16, oclfuse.F32])
def test_softmax_causal_float16(ctx, rng, out_code):
    x = as_dtype(rng.uniform(-4, 4, (2, 12, 20)), oclfuse.F16)
    got = ctx.softmax(x, causal=True, causal_offset=3, out_dtype=out_code)
    assert got.dtype == oclfuse.numpy_dtype(out_code)
    want = softmax_reference(x, 1.0, False, kept_lengths(24, 20, period=12, offset=3))
    assert_softmax_close(got, want, out_code, False)


def test_softmax_causal_refusals(ctx, rng):
    x = rng.uniform(-4, 4, (4, 8)).astype(np.float32)
    out = np.full_like(x, 7.0)
    # the library's refusals, in its words; out untouched
    with pytest.raises(oclfuse.InvalidValueError, match="causal_period 2 and causal_offset 0 "
                       "given but causal is 0") as refused:
        ctx.softmax(x, causal_period=2, out=out)
    assert refused.value.name == "OCF_ERR_INVALID_VALUE" and "ocf_softmax" in refused.value.detail
    with pytest.raises(oclfuse.InvalidValueError, match="causal is 0"):
        ctx.softmax(x, causal_offset=1, out=out)
    with pytest.raises(oclfuse.InvalidValueError, match="causal_period 0"):
        ctx.softmax(x, causal=True, causal_period=0, out=out)
    assert np.all(out == 7.0)
    # what is not a size_t cannot make a call (ctypes would wrap -1 round)
    with pytest.raises(ValueError, match="causal_offset is -1"):
        ctx.softmax(x, causal=True, causal_offset=-1)
    with pytest.raises(TypeError):
        ctx.softmax(x, causal=True, causal_period=2.5)


def activation_reference(x, name):
    from math import erf
    if name == "relu":
        return np.maximum(x, 0)
    if name == "gelu":
        return x / 2 * (1 + np.vectorize(erf)(x / np.sqrt(2)))
    if name == "gelu_tanh":
        return x / 2 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    if name == "silu":
        return x / (1 + np.exp(-x))
    return x


def matmul_reference(a, b, c, alpha, beta, trans_a, trans_b, bias, axis, activation):
    A, B = stored(a), stored(b)
    if trans_a:
        A = np.swapaxes(A, -1, -2)
    if trans_b:
        B = np.swapaxes(B, -1, -2)
    product = alpha * (A @ B)
    magnitude = abs(alpha) * (np.abs(A) @ np.abs(B))
    if c is not None and beta != 0:
        product = product + beta * stored(c)
        magnitude = magnitude + abs(beta) * np.abs(stored(c))
    if bias is not None:
        shaped = stored(bias).reshape(-1, 1) if axis == "m" else stored(bias).reshape(1, -1)
        product = product + shaped
        magnitude = magnitude + np.abs(shaped)
    return activation_reference(product, activation), magnitude


def assert_matmul_close(got, want, magnitude, k, c_code, precision="fp32", activation=None):
    bound = 2 * (k + 2) * U * magnitude
    if precision == "tf32":
        bound = bound + 2.0 ** -9 * magnitude
    if precision == "3xtf32":
        bound = 4 * bound
    if activation not in (None, "relu"):
        bound = 1.2 * bound + 16 * U * np.abs(want) + 1e-30
    bound = bound + HALF_ULP[c_code] * np.abs(want) + FLOOR[c_code]
    err = np.abs(stored(got) - want)
    assert np.all(err <= bound), "worst %g over %g" % ((err - bound).max(), bound.max())


@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("trans_b", [False, True])
def test_matmul_transposes_alpha_beta(ctx, rng, trans_a, trans_b):
    m, n, k = 21, 17, 40
    a = rng.uniform(-1, 1, (k, m) if trans_a else (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, k) if trans_b else (k, n)).astype(np.float32)
    c = rng.uniform(-1, 1, (m, n)).astype(np.float32)
    want, magnitude = matmul_reference(a, b, c, 0.75, -2.0, trans_a, trans_b, None, None, None)
    got = ctx.matmul(a, b, c.copy(), alpha=0.75, beta=-2.0, trans_a=trans_a, trans_b=trans_b)
    assert_matmul_close(got, want, magnitude, k, oclfuse.F32)


def test_matmul_views_and_layouts(ctx, rng):
    m, n, k = 9, 12, 30
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    want, magnitude = matmul_reference(a, b, None, 1, 0, False, False, None, None, None)
    # Transposed views, a row-strided slice and a column-ordered C: no copies, same product.
    a_view = np.ascontiguousarray(a.T).T
    b_wide = np.zeros((k, n + 5), np.float32)
    b_wide[:, 2:n + 2] = b
    c_fortran = np.asfortranarray(np.full((m, n), np.nan, np.float32))
    got = ctx.matmul(a_view, b_wide[:, 2:n + 2], c_fortran)
    assert got is c_fortran
    assert_matmul_close(got, want, magnitude, k, oclfuse.F32)
    # A C with gaps between its rows keeps them.
    c_wide = np.full((m, n + 3), 5.0, np.float32)
    ctx.matmul(a, b, c_wide[:, :n])
    assert_matmul_close(c_wide[:, :n], want, magnitude, k, oclfuse.F32)
    assert np.all(c_wide[:, n:] == 5.0)


def test_matmul_batch(ctx, rng):
    batch, m, n, k = 4, 6, 10, 12
    a = rng.uniform(-1, 1, (batch, m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)  # shared by every product
    c = rng.uniform(-1, 1, (batch, m, n)).astype(np.float32)
    want, magnitude = matmul_reference(a, b, c, 1.0, 0.5, False, False, None, None, None)
    got = ctx.matmul(a, b, c.copy(), beta=0.5)
    assert got.shape == (batch, m, n)
    assert_matmul_close(got, want, magnitude, k, oclfuse.F32)
    b3 = rng.uniform(-1, 1, (batch, n, k)).astype(np.float32)
    want, magnitude = matmul_reference(a, b3, None, 1, 0, False, True, None, None, None)
    assert_matmul_close(ctx.matmul(a, b3, trans_b=True), want, magnitude, k, oclfuse.F32)
    with pytest.raises(ValueError, match="batch"):
        ctx.matmul(a, b3[:3], trans_b=True)


@pytest.mark.parametrize("activation,axis", [(None, "n"), ("relu", "m"), ("gelu", "n"),
                                             ("gelu_tanh", "m"), ("silu", "n")])
def test_matmul_epilogue(ctx, rng, activation, axis):
    m, n, k = 14, 11, 20
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    bias = rng.uniform(-1, 1, n if axis == "n" else m).astype(np.float32)
    want, magnitude = matmul_reference(a, b, None, 1, 0, False, False, bias, axis, activation)
    got = ctx.matmul(a, b, bias=bias, bias_axis=axis, activation=activation)
    assert_matmul_close(got, want, magnitude, k, oclfuse.F32, activation=activation)


@pytest.mark.parametrize("precision", ["fp32", "tf32", "3xtf32"])
def test_matmul_precision(ctx, rng, precision):
    m, n, k = 16, 16, 64
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    want, magnitude = matmul_reference(a, b, None, 1, 0, False, False, None, None, None)
    got = ctx.matmul(a, b, precision=precision)
    assert_matmul_close(got, want, magnitude, k, oclfuse.F32, precision=precision)


@pytest.mark.parametrize("codes", [(oclfuse.F16, oclfuse.F16, oclfuse.F16),
                                   (oclfuse.BF16, oclfuse.F32, oclfuse.BF16),
                                   (oclfuse.F32, oclfuse.BF16, oclfuse.F16)])
def test_matmul_dtypes(ctx, rng, codes):
    m, n, k = 13, 9, 33
    a = as_dtype(rng.uniform(-1, 1, (m, k)), codes[0])
    b = as_dtype(rng.uniform(-1, 1, (k, n)), codes[1])
    bias = as_dtype(rng.uniform(-1, 1, n), oclfuse.F16)
    want, magnitude = matmul_reference(a, b, None, 1, 0, False, False, bias, "n", None)
    got = ctx.matmul(a, b, bias=bias, out_dtype=codes[2])
    assert got.dtype == oclfuse.numpy_dtype(codes[2])
    assert_matmul_close(got, want, magnitude, k, codes[2])


def test_errors_carry_the_library_text(ctx, rng):
    x = rng.standard_normal((4, 8)).astype(np.float32)
    with pytest.raises(oclfuse.InvalidValueError) as raised:
        ctx.softmax(x, scale=-1.0)
    error = raised.value
    assert error.status == -2002 and error.name == "OCF_ERR_INVALID_VALUE"
    assert "scale" in error.detail and "scale" in str(error)
    assert isinstance(error, oclfuse.OclfuseError)
    with pytest.raises(oclfuse.AliasingError, match="overlaps"):
        big = np.zeros((4, 8), np.float32)
        ctx.matmul(big[:, :4], x[:, :4], big[:, 2:6])  # C lies over A
    with pytest.raises(oclfuse.NoDeviceError):
        oclfuse.Context("no such device anywhere")
    with pytest.raises(oclfuse.InvalidSpecError):
        oclfuse.Context("1:2:3")
    with pytest.raises(ValueError):
        ctx.matmul(x, x)
    with pytest.raises(ValueError, match="activation"):
        ctx.matmul(x, x.T, activation="tanh")
    with pytest.raises(TypeError):
        ctx.softmax(x.astype(np.float64))


def test_context_facts(ctx):
    assert ctx.device_name
    assert ctx.device_info["max_workgroup_size"] >= 1
    assert ctx.queue_ptr and ctx.cl_context_ptr and ctx.device_ptr
    assert oclfuse.version().count(".") == 2
    assert any(d["device"] == ctx.device_ptr for d in oclfuse.devices())
    assert "wg" in ctx.get_tuning("add", shape_class="small").lower() or ctx.get_tuning(
        "add", shape_class="small")
    ctx.add(np.ones(10, np.float32), np.ones(10, np.float32))
    assert oclfuse.last_plan()
