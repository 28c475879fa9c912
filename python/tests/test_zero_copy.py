"""The device forms on the caller's OpenCL objects: pyopencl contexts, queues, buffers and
events passed through (int_ptr / from_int_ptr), in-order and out-of-order queues, and the same
with raw handles on plain objects and no pyopencl (oclfuse.Event). The host forms run the same
kernels on the same shapes from offset 0, so the device forms' results must equal theirs bit
for bit."""
import ctypes

import numpy as np
import pytest

import oclfuse
import oclfuse._api as api

cl = pytest.importorskip("pyopencl")


def pocl_queue(ctx, out_of_order=False):
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


def test_raw_handles_without_pyopencl(ctx, rng, monkeypatch):
    # As if pyopencl were not installed: events come back as oclfuse.Event.
    monkeypatch.setattr(api, "_cl", None)
    opencl = ctypes.CDLL("libOpenCL.so.1")
    opencl.clCreateBuffer.restype = ctypes.c_void_p
    opencl.clCreateBuffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t,
                                      ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    opencl.clEnqueueReadBuffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                                           ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                                           ctypes.c_uint, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.c_void_p]
    opencl.clReleaseMemObject.argtypes = [ctypes.c_void_p]
    x = rng.standard_normal(1000).astype(np.float32)
    err = ctypes.c_int(0)
    copy_host = (1 << 5) | (1 << 0)  # CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE
    xb = opencl.clCreateBuffer(ctx.cl_context_ptr, copy_host, x.nbytes, x.ctypes.data,
                               ctypes.byref(err))
    assert err.value == 0
    ob = opencl.clCreateBuffer(ctx.cl_context_ptr, 1, x.nbytes, None, ctypes.byref(err))
    assert err.value == 0
    try:
        event = ctx.add_buffers(1000, Handle(xb), xb, Handle(ob))
        assert isinstance(event, oclfuse.Event)
        second = ctx.softmax_buffers(1, 1000, Handle(ob), ob, queue=Handle(ctx.queue_ptr),
                                     wait_for=[event])  # in place, after the add
        second.wait()
        got = np.empty_like(x)
        wait = (ctypes.c_void_p * 1)(second.int_ptr)
        assert opencl.clEnqueueReadBuffer(ctx.queue_ptr, ob, 1, 0, x.nbytes, got.ctypes.data, 1,
                                          wait, None) == 0
        assert np.array_equal(got, ctx.softmax(x + x))
    finally:
        opencl.clReleaseMemObject(xb)
        opencl.clReleaseMemObject(ob)
    with pytest.raises(TypeError):
        ctx.add_buffers(4, "not a buffer", xb, ob)
