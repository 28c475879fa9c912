"""The device forms on the caller's OpenCL objects: pyopencl contexts, queues, buffers and
events passed through (int_ptr / from_int_ptr), in-order and out-of-order queues, and the same
with raw handles on plain objects and no pyopencl (oclfuse.Event). The host forms run the same
kernels on the same shapes from offset 0, so the device forms' results must equal theirs bit
for bit. For LayerNorm and RMSNorm that holds where each row starts at the same place inside
the kernels' vectors as in the host form's packed copy (offsets and strides congruent modulo
16 elements, the widest vector): rows that start elsewhere are summed in another grouping, and
are checked against the float64 reference of test_norm.py instead. The workspaces of the plans
of several kernels (each forced by tuning as the C tests force it): the size queries against
the calls, a lent workspace's results against the pool's, and the refusals."""
import contextlib
import ctypes
import inspect

import numpy as np
import pytest

import oclfuse
import oclfuse._api as api
from storage import as_dtype
from test_norm import assert_close as assert_norm_close
from test_norm import reference as norm_reference

try:
    import pyopencl as cl
except ImportError:  # pragma: no cover - depends on the machine
    cl = None  # the tests on raw handles still run; the others skip


def require_pyopencl():
    if cl is None:
        pytest.skip("pyopencl is not installed")


def pocl_queue(ctx, out_of_order=False):
    require_pyopencl()
    context = ctx.pyopencl_context()
    device = cl.Device.from_int_ptr(ctx.device_ptr, retain=False)
    properties = cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE if out_of_order else 0
    if out_of_order and not device.queue_properties & properties:
        pytest.skip("the device has no out-of-order queues")
    return cl.CommandQueue(context, device, properties=properties)


@pytest.mark.parametrize("out_of_order", [False, True])
def test_pyopencl_objects_pass_through(ctx, rng, out_of_order):
    queue = pocl_queue(ctx, out_of_order)
    with oclfuse.Context.from_queue(queue) as wrapped:
        assert wrapped.queue_ptr == queue.int_ptr
        rows, cols = 6, 300
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = rng.standard_normal((rows, cols)).astype(np.float32)
        flags = cl.mem_flags
        xb = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
        yb = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=y)
        sb = cl.Buffer(queue.context, flags.READ_WRITE, x.nbytes)
        ob = cl.Buffer(queue.context, flags.READ_WRITE, x.nbytes)
        # add then softmax of the sum, chained by events (an out-of-order queue needs them)
        added = wrapped.add_buffers(rows * cols, xb, yb, sb)
        assert isinstance(added, cl.Event)
        done = wrapped.softmax_buffers(rows, cols, sb, ob, scale=0.5, log=True,
                                       wait_for=[added])
        assert isinstance(done, cl.Event)
        got = np.empty_like(x)
        cl.enqueue_copy(queue, got, ob, wait_for=[done])
        queue.finish()
        want = ctx.softmax(ctx.add(x, y), scale=0.5, log=True)
        assert np.array_equal(got, want)

        # matmul with a bias buffer, a batch, 16-bit storage, on the caller's queue
        batch, m, n, k = 3, 8, 12, 16
        a = oclfuse.float_to_half(rng.uniform(-1, 1, (batch, m, k)))
        b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        bias = rng.uniform(-1, 1, m).astype(np.float32)
        ab = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=a)
        bb = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=b)
        biasb = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=bias)
        cb = cl.Buffer(queue.context, flags.READ_WRITE, batch * m * n * 4)
        event = wrapped.matmul_buffers(m, n, k, ab, bb, cb, a_dtype="f16", batch=batch,
                                       stride_a=m * k, stride_b=0, stride_c=m * n,
                                       bias=biasb, bias_axis="m", activation="silu",
                                       queue=queue)
        c = np.empty((batch, m, n), np.float32)
        cl.enqueue_copy(queue, c, cb, wait_for=[event])
        queue.finish()
        want = ctx.matmul(a, b, bias=bias, bias_axis="m", activation="silu")
        assert np.array_equal(c, want)


def test_softmax_buffers_causal(ctx, rng):
    queue = pocl_queue(ctx)
    heads, nq, nk = 2, 8, 24
    rows = heads * nq
    x = rng.uniform(-4, 4, (rows, nk)).astype(np.float32)
    # lengths from offset 3; above cols counts as cols
    lengths = np.concatenate([[5, 5, 5], rng.integers(0, 2 * nk, rows)]).astype(np.uint32)
    assert np.any(lengths[3:] > nk)
    flags = cl.mem_flags
    xb = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=x)
    lb = cl.Buffer(queue.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=lengths)
    ob = cl.Buffer(queue.context, flags.READ_WRITE, x.nbytes)
    for log, period, offset, lengths_buffer in [(False, None, 0, None), (True, nq, 10, lb)]:
        event = ctx.softmax_buffers(rows, nk, xb, ob, log=log, lengths=lengths_buffer,
                                    lengths_offset=3 if lengths_buffer else 0, causal=True,
                                    causal_period=period, causal_offset=offset, queue=queue)
        got = np.empty_like(x)
        cl.enqueue_copy(queue, got, ob, wait_for=[event])
        queue.finish()
        host_lengths = np.minimum(lengths[3:], nk) if lengths_buffer else None
        want = ctx.softmax(x, log=log, lengths=host_lengths, causal=True, causal_period=period,
                           causal_offset=offset)  # period None: the rows, one head
        assert np.array_equal(got, want)
    with pytest.raises(oclfuse.InvalidValueError, match="given but causal is 0"):
        ctx.softmax_buffers(rows, nk, xb, ob, causal_period=nq)


def test_buffer_of_another_context_is_refused(ctx):
    require_pyopencl()
    other = cl.Context([cl.Device.from_int_ptr(ctx.device_ptr, retain=False)])
    foreign = cl.Buffer(other, cl.mem_flags.READ_WRITE, 64)
    mine = cl.Buffer(ctx.pyopencl_context(), cl.mem_flags.READ_WRITE, 64)
    with pytest.raises(oclfuse.ContextMismatchError, match="ocf_add"):
        ctx.add_buffers(16, foreign, mine, mine)
    with pytest.raises(oclfuse.BufferTooSmallError):
        ctx.softmax_buffers(4, 8, mine, mine)


class Handle:
    """A plain object exposing a raw OpenCL handle, as other bindings do."""

    def __init__(self, int_ptr):
        self.int_ptr = int_ptr


def raw_opencl():
    """The OpenCL library through ctypes, with the calls these tests make on raw handles."""
    opencl = ctypes.CDLL("libOpenCL.so.1")
    opencl.clCreateBuffer.restype = ctypes.c_void_p
    opencl.clCreateBuffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t,
                                      ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    opencl.clEnqueueReadBuffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                                           ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                                           ctypes.c_uint, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.c_void_p]
    opencl.clReleaseMemObject.argtypes = [ctypes.c_void_p]
    return opencl


def raw_buffer(opencl, ctx, array=None, nbytes=None):
    """A raw cl_mem (an int) of the context: a copy of `array`, or `nbytes` uninitialised."""
    err = ctypes.c_int(0)
    read_write, copy_host = 1 << 0, 1 << 5  # CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR
    if array is not None:
        handle = opencl.clCreateBuffer(ctx.cl_context_ptr, read_write | copy_host, array.nbytes,
                                       array.ctypes.data, ctypes.byref(err))
    else:
        handle = opencl.clCreateBuffer(ctx.cl_context_ptr, read_write, nbytes, None,
                                       ctypes.byref(err))
    assert err.value == 0
    return handle


def raw_read(opencl, ctx, buffer, like, event):
    """The buffer's contents (like's dtype and size), read after `event` (an oclfuse.Event)."""
    got = np.empty_like(like)
    wait = (ctypes.c_void_p * 1)(event.int_ptr)
    assert opencl.clEnqueueReadBuffer(ctx.queue_ptr, buffer, 1, 0, got.nbytes, got.ctypes.data,
                                      1, wait, None) == 0
    return got


def test_raw_handles_without_pyopencl(ctx, rng, monkeypatch):
    # As if pyopencl were not installed: events come back as oclfuse.Event.
    monkeypatch.setattr(api, "_cl", None)
    opencl = raw_opencl()
    x = rng.standard_normal(1000).astype(np.float32)
    xb = raw_buffer(opencl, ctx, x)
    ob = raw_buffer(opencl, ctx, nbytes=x.nbytes)
    try:
        event = ctx.add_buffers(1000, Handle(xb), xb, Handle(ob))
        assert isinstance(event, oclfuse.Event)
        second = ctx.softmax_buffers(1, 1000, Handle(ob), ob, queue=Handle(ctx.queue_ptr),
                                     wait_for=[event])  # in place, after the add
        second.wait()
        assert np.array_equal(raw_read(opencl, ctx, ob, x, second), ctx.softmax(x + x))
    finally:
        opencl.clReleaseMemObject(xb)
        opencl.clReleaseMemObject(ob)
    with pytest.raises(TypeError):
        ctx.add_buffers(4, "not a buffer", xb, ob)


def test_raw_handles_norm_and_attention(ctx, rng, monkeypatch):
    # An RMSNorm in place, then attention reading it as q, k and v: handles as ints and on
    # plain objects, events as oclfuse.Event, the second call after the first by its event.
    monkeypatch.setattr(api, "_cl", None)
    opencl = raw_opencl()
    x = rng.uniform(-2, 2, (1, 2, 5, 16)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, 16).astype(np.float32)
    xb, wb = raw_buffer(opencl, ctx, x), raw_buffer(opencl, ctx, w)
    ob, lse = raw_buffer(opencl, ctx, nbytes=x.nbytes), raw_buffer(opencl, ctx, nbytes=10 * 4)
    try:
        norm = ctx.rmsnorm_buffers(10, 16, Handle(xb), xb, weight=Handle(wb))
        assert isinstance(norm, oclfuse.Event)
        done = ctx.attention_buffers(1, 2, 2, 5, 5, 16, xb, Handle(xb), xb, Handle(ob),
                                     lse=Handle(lse), queue=Handle(ctx.queue_ptr),
                                     wait_for=[norm])
        done.wait()
        normed = ctx.rmsnorm(x, w)
        want, want_lse = ctx.attention(normed, normed, normed, return_lse=True)
        assert np.array_equal(raw_read(opencl, ctx, ob, x, done), want)
        assert np.array_equal(raw_read(opencl, ctx, lse, want_lse, done), want_lse)
    finally:
        for buffer in (xb, wb, ob, lse):
            opencl.clReleaseMemObject(buffer)


# ---- LayerNorm, RMSNorm and attention on buffers ----

def to_device(queue, array):
    """A buffer of the queue's context holding a copy of `array`."""
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    return cl.Buffer(queue.context, flags, hostbuf=np.ascontiguousarray(array))


def from_device(queue, buffer, like, wait_for=None):
    """The buffer's contents as an array of like's dtype and size, once wait_for is done."""
    got = np.empty_like(like)
    cl.enqueue_copy(queue, got, buffer, wait_for=wait_for)
    queue.finish()
    return got


def rows_of(flat, offset, ld, rows, cols):
    """The view of the rows x cols matrix at `offset`, row stride `ld`, of a flat array."""
    return flat[offset:offset + rows * ld].reshape(rows, ld)[:, :cols]


def scattered(matrix, offset, ld, fill=7):
    """A flat array holding matrix at offset with row stride ld, `fill` everywhere else (so
    that a comparison of the whole array also sees the gaps the call must not write)."""
    matrix = np.asarray(matrix)
    flat = np.full(offset + matrix.shape[0] * ld, fill, dtype=matrix.dtype)
    rows_of(flat, offset, ld, *matrix.shape)[...] = matrix
    return flat


# (offset, row stride) of in, out, residual and residual_out, then the offsets of weight, bias,
# mean and rstd. "aligned": each row starts where the packed 7 x 333 copy's row does, modulo
# 16; "odd": elsewhere, and in and out at different places inside their vectors.
NORM_LAYOUTS = {
    "aligned": ([(16, 349), (32, 365), (48, 381), (64, 397)], [16, 32, 3, 5]),
    "odd": ([(5, 340), (3, 338), (1, 333), (7, 335)], [3, 1, 2, 0]),
}


@pytest.mark.parametrize("layout", sorted(NORM_LAYOUTS))
def test_layernorm_buffers_every_option(ctx, rng, layout):
    queue = pocl_queue(ctx)
    rows, cols = 7, 333
    x = rng.uniform(-2, 2, (rows, cols)).astype(np.float32)
    h = rng.uniform(-1, 1, (rows, cols)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, cols).astype(np.float32)
    b = rng.uniform(-1, 1, cols).astype(np.float32)
    (xl, ol, hl, sl), (w_off, b_off, mean_off, rstd_off) = NORM_LAYOUTS[layout]
    out_flat = scattered(np.zeros((rows, cols), np.float32), *ol)
    sum_flat = scattered(np.zeros((rows, cols), np.float32), *sl)
    stats = np.full(rows + 8, 7, np.float32)
    buffers = [to_device(queue, a) for a in (
        scattered(x, *xl), out_flat, scattered(h, *hl), sum_flat, np.concatenate(
            [np.zeros(w_off, np.float32), w]), np.concatenate([np.zeros(b_off, np.float32), b]),
        stats, stats)]
    xb, ob, hb, sb, wb, bb, mb, rb = buffers
    event = ctx.layernorm_buffers(
        rows, cols, xb, ob, in_offset=xl[0], in_ld=xl[1], out_offset=ol[0], out_ld=ol[1],
        weight=wb, weight_offset=w_off, bias=bb, bias_offset=b_off, residual=hb,
        residual_offset=hl[0], residual_ld=hl[1], residual_out=sb, residual_out_offset=sl[0],
        residual_out_ld=sl[1], mean=mb, mean_offset=mean_off, rstd=rb, rstd_offset=rstd_off,
        queue=queue)
    got_out = from_device(queue, ob, out_flat, wait_for=[event])
    got_sum = from_device(queue, sb, sum_flat)
    got_mean, got_rstd = from_device(queue, mb, stats), from_device(queue, rb, stats)
    want, want_sum, (want_mean, want_rstd) = ctx.layernorm(x, w, b, residual=h,
                                                           return_residual=True,
                                                           return_stats=True)
    assert np.array_equal(got_sum, scattered(want_sum, *sl))  # the fp32 sums, gaps kept
    for got, offset in ((got_mean, mean_off), (got_rstd, rstd_off)):  # nothing else written
        assert np.all(np.delete(got, np.arange(offset, offset + rows)) == 7)
    if layout == "aligned":
        assert np.array_equal(got_out, scattered(want, *ol))
        for got, want_stat, offset in ((got_mean, want_mean, mean_off),
                                       (got_rstd, want_rstd, rstd_off)):
            assert np.array_equal(got[offset:offset + rows], want_stat)
    else:
        # Within the rounding of the float64 reference, and the gaps between rows kept.
        assert np.array_equal(got_out, scattered(rows_of(got_out, *ol, rows, cols), *ol))
        y_ref, mean_ref, rstd_ref = norm_reference(want_sum, w, b, 1e-5, False)
        assert_norm_close(rows_of(got_out, *ol, rows, cols), y_ref)
        assert np.allclose(got_mean[mean_off:mean_off + rows], mean_ref, rtol=0, atol=4e-4)
        assert np.allclose(got_rstd[rstd_off:rstd_off + rows], rstd_ref, rtol=4e-4)


@pytest.mark.parametrize("code", [oclfuse.F16, oclfuse.BF16])
def test_rmsnorm_buffers_16_bit_packed_defaults(ctx, rng, code):
    # Packed layouts by default, every dtype from in_dtype, the residual updated in place.
    queue = pocl_queue(ctx)
    rows, cols = 7, 333
    x = as_dtype(rng.uniform(-2, 2, (rows, cols)), code)
    h = as_dtype(rng.uniform(-1, 1, (rows, cols)), code)
    w = as_dtype(rng.uniform(0.5, 1.5, cols), code)
    xb, hb, wb = to_device(queue, x), to_device(queue, h), to_device(queue, w)
    ob = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, x.nbytes)
    rb = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, rows * 4)
    event = ctx.rmsnorm_buffers(rows, cols, xb, ob, in_dtype=code, eps=1e-6, weight=wb,
                                residual=hb, residual_out=hb, rstd=rb, queue=queue)
    want, want_sum, want_rstd = ctx.rmsnorm(x, w, eps=1e-6, residual=h, return_residual=True,
                                            return_stats=True)
    assert np.array_equal(from_device(queue, ob, x, wait_for=[event]), want)
    assert np.array_equal(from_device(queue, hb, h), want_sum)
    assert np.array_equal(from_device(queue, rb, want_rstd), want_rstd)
    # An fp32 out of the 16-bit input: out_dtype alone changes.
    out32 = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, rows * cols * 4)
    event = ctx.rmsnorm_buffers(rows, cols, xb, out32, in_dtype=code, out_dtype="f32",
                                queue=queue)
    got = from_device(queue, out32, np.empty((rows, cols), np.float32), wait_for=[event])
    assert np.array_equal(got, ctx.rmsnorm(x, out_dtype="f32"))


def random_qkv(rng, b, h, h_kv, lq, lk, d, code=oclfuse.F32):
    q = as_dtype(rng.uniform(-1, 1, (b, h, lq, d)), code)
    k = as_dtype(rng.uniform(-1, 1, (b, h_kv, lk, d)), code)
    v = as_dtype(rng.uniform(-1, 1, (b, h_kv, lk, d)), code)
    return q, k, v


def test_attention_buffers_gqa_causal_strided(ctx, rng):
    queue = pocl_queue(ctx)
    b, h, h_kv, lq, lk, d = 1, 3, 1, 17, 33, 64
    q, k, v = random_qkv(rng, b, h, h_kv, lq, lk, d)
    # q head-interleaved ([b, lq, h, d] in memory) from offset 5; k and v packed from offsets
    # 3 and 0; out's rows 8 elements apart beyond d, from offset 2 (the gaps must stay 7);
    # lse from offset 4.
    q_flat = np.concatenate([np.zeros(5, np.float32), q.transpose(0, 2, 1, 3).ravel()])
    k_flat = np.concatenate([np.zeros(3, np.float32), k.ravel()])
    out_flat = scattered(np.zeros((b * h * lq, d), np.float32), 2, d + 8)
    lse_flat = np.full(4 + b * h * lq, 7, np.float32)
    qb, kb, vb, ob, lb = (to_device(queue, a) for a in (q_flat, k_flat, v, out_flat, lse_flat))
    event = ctx.attention_buffers(
        b, h, h_kv, lq, lk, d, qb, kb, vb, ob, q_offset=5, q_strides=(lq * h * d, d, h * d),
        k_offset=3, out_offset=2, out_strides=(h * lq * (d + 8), lq * (d + 8), d + 8),
        causal=True, lse=lb, lse_offset=4, queue=queue)
    got_out = from_device(queue, ob, out_flat, wait_for=[event])
    got_lse = from_device(queue, lb, lse_flat)
    want, want_lse = ctx.attention(q, k, v, causal=True, return_lse=True)
    assert np.array_equal(got_out, scattered(want.reshape(-1, d), 2, d + 8))
    assert np.array_equal(got_lse[4:], want_lse.ravel()) and np.all(got_lse[:4] == 7)


@pytest.mark.parametrize("code,out_code", [(oclfuse.F16, oclfuse.F16),
                                           (oclfuse.BF16, oclfuse.F32)])
def test_attention_buffers_16_bit_masks(ctx, rng, code, out_code):
    queue = pocl_queue(ctx)
    b, h, h_kv, lq, lk, d = 2, 4, 2, 6, 21, 32
    q, k, v = random_qkv(rng, b, h, h_kv, lq, lk, d, code)
    lengths = np.array([9, 9, 15, 40], np.uint32)  # from offset 2: 15, and 40 (all 21 keys)
    qb, kb, vb, lb = (to_device(queue, a) for a in (q, k, v, lengths))
    out = np.zeros((b, h, lq, d), api.numpy_dtype(out_code))
    ob = to_device(queue, out)
    lse = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, b * h * lq * 4)
    event = ctx.attention_buffers(b, h, h_kv, lq, lk, d, qb, kb, vb, ob, q_dtype=code,
                                  out_dtype=out_code, scale=-0.3, causal=True, causal_offset=2,
                                  lengths=lb, lengths_offset=2, lse=lse, queue=queue)
    want, want_lse = ctx.attention(q, k, v, scale=-0.3, causal=True, causal_offset=2,
                                   lengths=lengths[2:], out_dtype=out_code, return_lse=True)
    assert np.array_equal(from_device(queue, ob, out, wait_for=[event]), want)
    assert np.array_equal(from_device(queue, lse, want_lse), want_lse)


@pytest.mark.parametrize("out_of_order", [False, True])
def test_gemm_into_layernorm_into_attention_by_events(ctx, rng, out_of_order):
    # The chain these calls are for: a projection, its LayerNorm, attention over the result,
    # ordered by events alone on an out-of-order queue; no copy to the host in between.
    queue = pocl_queue(ctx, out_of_order)
    with oclfuse.Context.from_queue(queue) as wrapped:
        lq, width, d = 9, 40, 64
        a = rng.uniform(-1, 1, (lq, width)).astype(np.float32)
        wq = rng.uniform(-1, 1, (width, d)).astype(np.float32)
        kv = rng.uniform(-1, 1, (1, 1, 12, d)).astype(np.float32)
        ab, wqb, kvb = to_device(queue, a), to_device(queue, wq), to_device(queue, kv)
        projected, normed, out = (cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, lq * d * 4)
                                  for _ in range(3))
        gemm = wrapped.matmul_buffers(lq, d, width, ab, wqb, projected)
        norm = wrapped.layernorm_buffers(lq, d, projected, normed, wait_for=[gemm])
        done = wrapped.attention_buffers(1, 1, 1, lq, 12, d, normed, kvb, kvb, out,
                                         wait_for=[norm])
        got = from_device(queue, out, np.empty((1, 1, lq, d), np.float32), wait_for=[done])
        want = ctx.attention(ctx.layernorm(ctx.matmul(a, wq))[None, None], kv, kv)
        assert np.array_equal(got, want)


def test_buffers_wait_for_a_user_event(ctx, rng):
    # Each call on its own in-order queue, so that only the wait list holds it back; a third
    # queue reads the outputs while they are held.
    norm_queue, att_queue, reader = pocl_queue(ctx), pocl_queue(ctx), pocl_queue(ctx)
    gate = cl.UserEvent(reader.context)
    x = rng.uniform(-2, 2, (7, 333)).astype(np.float32)
    q, k, v = random_qkv(rng, 1, 3, 1, 17, 33, 64)
    xb, qb, kb, vb = (to_device(reader, a) for a in (x, q, k, v))
    norm_out, att_out = to_device(reader, np.full_like(x, 7)), to_device(reader, np.full_like(q, 7))
    try:
        norm = ctx.rmsnorm_buffers(7, 333, xb, norm_out, queue=norm_queue, wait_for=[gate])
        att = ctx.attention_buffers(1, 3, 1, 17, 33, 64, qb, kb, vb, att_out, causal=True,
                                    queue=att_queue, wait_for=[gate])
        for event in (norm, att):
            assert event.command_execution_status != cl.command_execution_status.COMPLETE
        assert np.all(from_device(reader, norm_out, x) == 7)
        assert np.all(from_device(reader, att_out, q) == 7)
    finally:
        gate.set_status(cl.command_execution_status.COMPLETE)
    assert np.array_equal(from_device(reader, norm_out, x, wait_for=[norm]), ctx.rmsnorm(x))
    assert np.array_equal(from_device(reader, att_out, q, wait_for=[att]),
                          ctx.attention(q, k, v, causal=True))


def test_buffers_refusals_leave_outputs_unchanged(ctx, rng):
    queue = pocl_queue(ctx)
    x = rng.uniform(-2, 2, (7, 333)).astype(np.float32)
    q, k, v = random_qkv(rng, 1, 3, 1, 17, 33, 64)
    xb, qb, kb, vb = (to_device(queue, a) for a in (x, q, k, v))
    out = to_device(queue, np.full_like(x, 7))
    att_out = to_device(queue, np.full_like(q, 7))
    short = to_device(queue, np.ones(332, np.float32))  # a weight one element short
    lse_short = to_device(queue, np.full(3 * 17 - 1, 7, np.float32))
    att = (1, 3, 1, 17, 33, 64, qb, kb, vb, att_out)
    # The library's own checks, its words in the exception.
    refusals = [
        (oclfuse.InvalidValueError, "eps -1 is not finite",
         lambda: ctx.layernorm_buffers(7, 333, xb, out, eps=-1.0)),
        (oclfuse.BufferTooSmallError, "ocf_rmsnorm: weight",
         lambda: ctx.rmsnorm_buffers(7, 333, xb, out, weight=short)),
        (oclfuse.NullArgumentError, "residual_ld is 333 but its buffer is NULL",
         lambda: ctx.layernorm_buffers(7, 333, xb, out, residual_ld=333)),
        (oclfuse.InvalidStrideError, "row stride",
         lambda: ctx.layernorm_buffers(7, 333, xb, out, out_ld=300)),
        (oclfuse.AliasingError, "out shares elements with in",
         lambda: ctx.layernorm_buffers(6, 333, xb, xb, out_offset=1)),
        (oclfuse.InvalidWorkgroupError, "exceeds",
         lambda: ctx.rmsnorm_buffers(7, 333, xb, out, workgroup_size=1 << 20)),
        (oclfuse.BufferTooSmallError, "ocf_attention: lse",
         lambda: ctx.attention_buffers(*att, lse=lse_short)),
        (oclfuse.InvalidValueError, "causal_offset given but causal is 0",
         lambda: ctx.attention_buffers(*att, causal_offset=0)),
        (oclfuse.InvalidValueError, "not a multiple of h_kv",
         lambda: ctx.attention_buffers(1, 3, 2, 17, 33, 64, qb, kb, vb, att_out)),
        (oclfuse.InvalidStrideError, "row stride 32 is shorter than d",
         lambda: ctx.attention_buffers(*att, q_strides=(0, 0, 32))),
        (oclfuse.NullArgumentError, "lengths_offset is 1 but lengths is NULL",
         lambda: ctx.attention_buffers(*att, lengths_offset=1)),
    ]
    for error, words, call in refusals:
        with pytest.raises(error, match=words):
            call()
    # What Python decides itself, before the library is called.
    for call in [lambda: ctx.layernorm_buffers(7, 333, xb, out, in_offset=-1),
                 lambda: ctx.attention_buffers(*att, q_strides=(0, 64)),
                 lambda: ctx.attention_buffers(*att, scale=0.0),
                 lambda: ctx.attention_buffers(*att, causal=True, causal_offset=2 ** 63),
                 lambda: ctx.attention_buffers(*att, precision="fp16")]:
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        ctx.rmsnorm_buffers(7, 333, xb, out, bias=xb)  # RMSNorm has none
    assert np.all(from_device(queue, out, x) == 7)
    assert np.all(from_device(queue, att_out, q) == 7)
    assert np.all(from_device(queue, lse_short, np.empty(3 * 17 - 1, np.float32)) == 7)


# ---- workspaces: the caller's scratch for the plans of several kernels ----

@contextlib.contextmanager
def forced_tuning(ctx, op, values):
    """op's fp32 tunables set to `values` (None: left alone) in every shape class, restored
    afterwards (ctx is the session's: the next test must find the tuning it was created with)."""
    if values:
        ctx.set_tuning(op, values)
    try:
        yield
    finally:
        if values:
            ctx.set_tuning(op, None)


class SplitCall:
    """One op call on buffers of the queue's context: size(**launch) is its workspace query,
    run(**launch) enqueues it, both with the same launch keywords; `out` is the buffer it
    writes (like `like`), `operand` one it reads."""

    def __init__(self, size, run, out, like, operand):
        self.size, self.run = size, run
        self.out, self.like, self.operand = out, like, operand


def softmax_split(ctx, queue, rng):
    # One row of 200 under a workgroup of one work-item.
    x = to_device(queue, rng.uniform(-4, 4, 200).astype(np.float32))
    like = np.zeros(200, np.float32)
    out = to_device(queue, like)
    fixed = dict(workgroup_size=1, queue=queue)
    return SplitCall(lambda **ws: ctx.softmax_workspace_size(1, 200, x, out, **fixed, **ws),
                     lambda **ws: ctx.softmax_buffers(1, 200, x, out, **fixed, **ws),
                     out, like, x)


def matmul_split(ctx, queue, rng):
    # Few output tiles over a long K: K is split where the tiles alone leave compute units idle
    # (tests/test_workspace.c picks its shape so); a device of many units splits none of them.
    for m, n, k in [(8, 8, 4096), (32, 32, 4096), (64, 64, 8192)]:
        if ctx.matmul_workspace_size(m, n, k, queue=queue):
            break
    else:
        pytest.skip("the device splits K in none of the shapes")
    a = to_device(queue, rng.uniform(-1, 1, (m, k)).astype(np.float32))
    b = to_device(queue, rng.uniform(-1, 1, (k, n)).astype(np.float32))
    like = np.zeros((m, n), np.float32)
    c = to_device(queue, like)
    return SplitCall(lambda **ws: ctx.matmul_workspace_size(m, n, k, a, b, c, queue=queue, **ws),
                     lambda **ws: ctx.matmul_buffers(m, n, k, a, b, c, queue=queue, **ws),
                     c, like, a)


def norm_split(rms):
    def make(ctx, queue, rng):
        # 3 rows of 3000; LayerNorm with weight and bias, which the query counts as given.
        x = to_device(queue, rng.uniform(-2, 2, (3, 3000)).astype(np.float32))
        like = np.zeros((3, 3000), np.float32)
        out = to_device(queue, like)
        if rms:
            return SplitCall(lambda **ws: ctx.rmsnorm_workspace_size(3, 3000, queue=queue, **ws),
                             lambda **ws: ctx.rmsnorm_buffers(3, 3000, x, out, queue=queue, **ws),
                             out, like, x)
        weights = dict(weight=to_device(queue, rng.uniform(0.5, 1.5, 3000).astype(np.float32)),
                       bias=to_device(queue, rng.uniform(-1, 1, 3000).astype(np.float32)),
                       queue=queue)
        return SplitCall(lambda **ws: ctx.layernorm_workspace_size(3, 3000, **weights, **ws),
                         lambda **ws: ctx.layernorm_buffers(3, 3000, x, out, **weights, **ws),
                         out, like, x)
    return make


def attention_split(ctx, queue, rng):
    # One query row of each of 2 heads over 200 keys of 64: the decode split.
    q, k, v = (to_device(queue, a) for a in random_qkv(rng, 1, 2, 2, 1, 200, 64))
    like = np.zeros((1, 2, 1, 64), np.float32)
    out = to_device(queue, like)
    shape = (1, 2, 2, 1, 200, 64)
    return SplitCall(lambda **ws: ctx.attention_workspace_size(*shape, queue=queue, **ws),
                     lambda **ws: ctx.attention_buffers(*shape, q, k, v, out, queue=queue, **ws),
                     out, like, k)


class Split:
    """An op whose call splits on any device under `tuning` (None: the shape alone), naming
    `kernel` in its plan; make(ctx, queue, rng) gives the call (a SplitCall) and unsplit(ctx)
    queries a call whose plan does not split under `unsplit_tuning`."""

    def __init__(self, op, tuning, kernel, make, unsplit, unsplit_tuning=None):
        self.op, self.tuning, self.kernel, self.make = op, tuning, kernel, make
        self.unsplit, self.unsplit_tuning = unsplit, unsplit_tuning


# The tunings force the plans the C tests force: tests/test_workspace.c, test_norm.c's
# test_norm_workspace, test_attention.c's test_attention_workspace.
NORM_SPLIT = "rows.items=1 rows.seg_items=1 rows.max_seg=1 split.wg=16 split.unroll=1"
SPLITS = {
    "softmax": Split("softmax",
                     "vw=8 items=4 rows.items=0 unroll=2 coop_spin=0 groups_per_unit=2",
                     "softmax_split_write", softmax_split,
                     lambda ctx: ctx.softmax_workspace_size(4, 64)),
    "matmul": Split("matmul", None, "split", matmul_split,
                    lambda ctx: ctx.matmul_workspace_size(64, 64, 8)),
    "layernorm": Split("norm", NORM_SPLIT, "norm_split_apply", norm_split(False),
                       lambda ctx: ctx.layernorm_workspace_size(4, 32)),
    "rmsnorm": Split("norm", NORM_SPLIT, "norm_split_apply", norm_split(True),
                     lambda ctx: ctx.rmsnorm_workspace_size(4, 32)),
    "attention": Split("attention", "split.fill=64 split.min=8 tiled.bk=8 tiled.tpr=4 "
                       "decode.wg=0 block.bq=0", "attention_split", attention_split,
                       lambda ctx: ctx.attention_workspace_size(1, 2, 2, 1, 200, 64),
                       "split.min=100000"),  # the same shape, one workgroup a row
}
ALIGN = 4096  # a multiple of every device's CL_DEVICE_MEM_BASE_ADDR_ALIGN


def byte_buffer(queue, nbytes, value=0xFF):
    return to_device(queue, np.full(nbytes, value, np.uint8))


@pytest.mark.parametrize("name", sorted(SPLITS))
def test_workspace_of_a_split_plan(ctx, rng, name):
    # The query agrees with the plan the call runs: a workspace of exactly its size gives the
    # pool's bits, so does the rest of a buffer from an aligned offset (workspace_size None);
    # one byte less bounds the plan (fewer ranges of the split, or none): the same values but
    # for sums in another order, and no byte written past the size lent.
    split = SPLITS[name]
    queue = pocl_queue(ctx)
    with forced_tuning(ctx, split.op, split.tuning):
        call = split.make(ctx, queue, rng)
        size = call.size()
        assert size > 0
        pooled = from_device(queue, call.out, call.like, wait_for=[call.run()])
        assert split.kernel in oclfuse.last_plan()
        workspace = byte_buffer(queue, ALIGN + size)
        fill = np.full_like(call.like, 7)
        cl.enqueue_copy(queue, call.out, fill)
        event = call.run(workspace=workspace, workspace_size=size - 1)
        short = from_device(queue, call.out, call.like, wait_for=[event])
        # fp32 sums of these few terms in another order: within a few ulps of the largest value.
        scale = float(np.abs(pooled.astype(np.float32)).max())
        np.testing.assert_allclose(short.astype(np.float32), pooled.astype(np.float32), rtol=0,
                                   atol=32 * np.finfo(np.float32).eps * scale)
        tail = from_device(queue, workspace, np.empty(ALIGN + size, np.uint8))[size - 1:]
        assert np.all(tail == 0xFF)
        cl.enqueue_copy(queue, call.out, fill)
        # The query takes the workspace as the call does, and its answer stays the same.
        assert call.size(workspace=workspace, workspace_size=size) == size
        event = call.run(workspace=workspace, workspace_size=size)
        assert np.array_equal(from_device(queue, call.out, call.like, wait_for=[event]), pooled)
        # The rest of the buffer from ALIGN is exactly `size` bytes; the bytes before stay.
        cl.enqueue_copy(queue, workspace, np.full(ALIGN, 0xFF, np.uint8))
        cl.enqueue_copy(queue, call.out, fill)
        event = call.run(workspace=workspace, workspace_offset=ALIGN)
        assert np.array_equal(from_device(queue, call.out, call.like, wait_for=[event]), pooled)
        assert np.all(from_device(queue, workspace, np.empty(ALIGN, np.uint8)) == 0xFF)
    with forced_tuning(ctx, split.op, split.unsplit_tuning):
        assert split.unsplit(ctx) == 0


def test_workspace_refusals_leave_out_unchanged(ctx, rng):
    queue = pocl_queue(ctx)
    with forced_tuning(ctx, "norm", NORM_SPLIT):
        call = norm_split(True)(ctx, queue, rng)
        size = call.size()
        workspace = byte_buffer(queue, ALIGN + size)
        other = cl.Context([cl.Device.from_int_ptr(ctx.device_ptr, retain=False)])
        foreign = cl.Buffer(other, cl.mem_flags.READ_WRITE, size)
        fill = np.full_like(call.like, 7)
        cl.enqueue_copy(queue, call.out, fill)
        refusals = [
            (oclfuse.InvalidValueError, "CL_DEVICE_MEM_BASE_ADDR_ALIGN",
             dict(workspace=workspace, workspace_offset=1, workspace_size=size)),
            (oclfuse.AliasingError, "overlaps the launch workspace",
             dict(workspace=call.operand)),
            (oclfuse.AliasingError, "overlaps the launch workspace", dict(workspace=call.out)),
            (oclfuse.ContextMismatchError, "launch workspace", dict(workspace=foreign)),
            # Given without a workspace: the library's refusal, naming the values it was given.
            (oclfuse.NullArgumentError, r"offset \(0\) or size \(16\)",
             dict(workspace_size=16)),
            (oclfuse.NullArgumentError, r"offset \(128\) or size \(0\)",
             dict(workspace_offset=128)),
            (oclfuse.BufferTooSmallError, "launch workspace",
             dict(workspace=workspace, workspace_size=ALIGN + size + 1)),
            # The rest of the buffer from past its end: no bytes, and the offset is refused.
            (oclfuse.BufferTooSmallError, "offset %d" % (2 * ALIGN),
             dict(workspace=workspace, workspace_offset=2 * ALIGN)),
        ]
        for error, words, launch in refusals:
            with pytest.raises(error, match=words):
                call.run(**launch)
        # The query checks the launch as the call does.
        with pytest.raises(oclfuse.InvalidValueError, match="CL_DEVICE_MEM_BASE_ADDR_ALIGN"):
            call.size(workspace=workspace, workspace_offset=1, workspace_size=size)
        with pytest.raises(oclfuse.NullArgumentError):
            call.size(workspace_size=16)
        # What Python decides itself.
        for launch in [dict(workspace=workspace, workspace_size=-1),
                       dict(workspace=workspace, workspace_offset=-ALIGN)]:
            with pytest.raises(ValueError):
                call.run(**launch)
        with pytest.raises(TypeError):
            call.run(workspace="not a buffer")
        assert np.array_equal(from_device(queue, call.out, fill), fill)
        # A call whose plan needs none takes a workspace and leaves it alone.
        x = to_device(queue, np.ones(64, np.float32))
        event = ctx.add_buffers(64, x, x, x, workspace=workspace, queue=queue)
        got = from_device(queue, workspace, np.empty(ALIGN + size, np.uint8), wait_for=[event])
        assert np.all(got == 0xFF)


def test_workspace_raw_handles_without_pyopencl(ctx, rng, monkeypatch):
    # The workspace as a handle (an int, or on a plain object), its size read through the
    # OpenCL library liboclfuse links when not given; events as oclfuse.Event.
    monkeypatch.setattr(api, "_cl", None)
    opencl = raw_opencl()
    x = rng.uniform(-2, 2, (3, 3000)).astype(np.float32)
    with forced_tuning(ctx, "norm", NORM_SPLIT):
        size = ctx.rmsnorm_workspace_size(3, 3000)
        assert size > 0
        xb, ob = raw_buffer(opencl, ctx, x), raw_buffer(opencl, ctx, nbytes=x.nbytes)
        workspace = raw_buffer(opencl, ctx, nbytes=size)
        try:
            pooled = ctx.rmsnorm_buffers(3, 3000, xb, ob)
            want = raw_read(opencl, ctx, ob, x, pooled)
            # One byte short: the plan takes fewer slices; the values within a few ulps.
            done = ctx.rmsnorm_buffers(3, 3000, xb, ob, workspace=workspace,
                                       workspace_size=size - 1)
            np.testing.assert_allclose(raw_read(opencl, ctx, ob, x, done), want, rtol=0,
                                       atol=32 * np.finfo(np.float32).eps * np.abs(want).max())
            for lent in (workspace, Handle(workspace)):
                done = ctx.rmsnorm_buffers(3, 3000, Handle(xb), ob, workspace=lent)
                assert isinstance(done, oclfuse.Event)
                assert np.array_equal(raw_read(opencl, ctx, ob, x, done), want)
            assert ctx.rmsnorm_workspace_size(3, 3000, workspace=Handle(workspace)) == size
        finally:
            for buffer in (xb, ob, workspace):
                opencl.clReleaseMemObject(buffer)


@pytest.mark.parametrize("op", ["softmax", "matmul", "layernorm", "rmsnorm", "attention"])
def test_workspace_queries_take_the_calls_keywords(op):
    # The same keyword arguments, defaults included, as the call they size (a drift between the
    # two signatures would make a query answer for another call).
    def keywords(method):
        return [(p.name, p.default) for p in inspect.signature(method).parameters.values()
                if p.kind == p.KEYWORD_ONLY]

    call = getattr(oclfuse.Context, op + "_buffers")
    query = getattr(oclfuse.Context, op + "_workspace_size")
    assert keywords(query) == keywords(call)
    assert "workspace" in dict(keywords(call))


def test_workspace_queries_without_buffers(ctx, rng):
    # softmax's and matmul's queries take their buffers or not: without them softmax's covers
    # an in-place call and one that is not, matmul's is the same (the buffers do not change
    # its plan).
    queue = pocl_queue(ctx)
    with forced_tuning(ctx, "softmax", SPLITS["softmax"].tuning):
        call = softmax_split(ctx, queue, rng)
        assert ctx.softmax_workspace_size(1, 200, workgroup_size=1) >= call.size() > 0
    a = to_device(queue, np.zeros((32, 4096), np.float32))
    assert (ctx.matmul_workspace_size(32, 32, 4096, a, a, None)
            == ctx.matmul_workspace_size(32, 32, 4096))
