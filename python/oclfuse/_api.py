"""The Python face of liboclfuse: a Context, the ops on numpy arrays (through the library's
synchronous host forms) and on OpenCL buffers (the asynchronous device forms, zero-copy, with
pyopencl's objects or raw handles passed through)."""
import ctypes
import operator

import numpy as np

from . import _lib
from ._errors import check

try:  # bfloat16 arrays, when the caller has ml_dtypes; uint16 bit patterns otherwise
    import ml_dtypes as _ml_dtypes

    BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the machine
    BFLOAT16 = None

try:
    import pyopencl as _cl
except ImportError:  # pragma: no cover - depends on the machine
    _cl = None

F32, F16, BF16 = 0, 1, 2
_DTYPE_NAMES = {
    "f32": F32, "float32": F32, "float": F32,
    "f16": F16, "float16": F16, "half": F16,
    "bf16": BF16, "bfloat16": BF16,
}
_PRECISIONS = {"fp32": 0, "tf32": 1, "3xtf32": 2}
_ACTIVATIONS = {None: 0, "none": 0, "relu": 1, "gelu": 2, "gelu_erf": 2, "gelu_tanh": 3,
                "silu": 4}
_LAYOUTS = {"row": 0, "row_major": 0, "col": 1, "col_major": 1, "column_major": 1}
_BIAS_AXES = {None: 0, "none": 0, "n": 1, "m": 2}


def dtype_code(dtype):
    """The ocf_dtype of `dtype`: "f32"/"f16"/"bf16" (or "float32", "float16", "bfloat16"),
    numpy's float32 and float16, ml_dtypes' bfloat16, or uint16 (bfloat16 bit patterns)."""
    if isinstance(dtype, str) and dtype.lower() in _DTYPE_NAMES:
        return _DTYPE_NAMES[dtype.lower()]
    if isinstance(dtype, int) and dtype in (F32, F16, BF16):
        return dtype
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return F32
    if dtype == np.float16:
        return F16
    if dtype == np.uint16 or (BFLOAT16 is not None and dtype == BFLOAT16):
        return BF16
    raise TypeError("oclfuse: %s is not a storage type of the library (float32, float16, "
                    "bfloat16 as ml_dtypes.bfloat16 or uint16 bits)" % dtype)


def numpy_dtype(code):
    """The numpy dtype results of ocf_dtype `code` come in: float32, float16, and bfloat16 as
    ml_dtypes.bfloat16 where it is installed, else uint16 bit patterns."""
    return {F32: np.dtype(np.float32), F16: np.dtype(np.float16),
            BF16: BFLOAT16 if BFLOAT16 is not None else np.dtype(np.uint16)}[dtype_code(code)]


def _choice(table, value, what):
    key = value.lower() if isinstance(value, str) else value
    if key not in table:
        raise ValueError("oclfuse: %s must be one of %s, not %r"
                         % (what, ", ".join(sorted(str(k) for k in table if k is not None)),
                            value))
    return table[key]


def version():
    """The linked library's version, "MAJOR.MINOR.PATCH"."""
    return _lib.ocf_version_string().decode()


def last_plan():
    """What the calling thread's last successful op call enqueued (kernels, workgroup sizes,
    compile-time parameters); "" when it enqueued nothing."""
    return (_lib.ocf_last_plan() or b"").decode("utf-8", "replace")


def _info_dict(info):
    text = lambda raw: raw.decode("utf-8", "replace")  # noqa: E731
    return {
        "platform_index": info.platform_index, "device_index": info.device_index,
        "platform": info.platform, "device": info.device, "type": info.type,
        "platform_name": text(info.platform_name), "device_name": text(info.device_name),
        "vendor": text(info.vendor), "driver_version": text(info.driver_version),
        "device_version": text(info.device_version), "compute_units": info.compute_units,
        "max_clock_mhz": info.max_clock_mhz, "global_mem_bytes": info.global_mem_bytes,
        "local_mem_bytes": info.local_mem_bytes, "max_workgroup_size": info.max_workgroup_size,
        "max_alloc_bytes": info.max_alloc_bytes,
    }


def devices():
    """Every OpenCL device of every platform, as dicts (names, limits, indices for a spec
    "P:D")."""
    count = ctypes.c_size_t(0)
    check(_lib.ocf_devices_list(None, 0, ctypes.byref(count)))
    infos = (_lib.DeviceInfo * max(count.value, 1))()
    for info in infos:
        info.size = ctypes.sizeof(_lib.DeviceInfo)
    check(_lib.ocf_devices_list(infos, count.value, ctypes.byref(count)))
    return [_info_dict(info) for info in infos[:count.value]]


# ---- the 16-bit conversions ----

def _convert(function, array, in_dtype, out_dtype):
    source = np.ascontiguousarray(array, dtype=in_dtype)
    result = np.empty(source.shape, dtype=out_dtype)
    check(function(source.size, source.ctypes.data, result.ctypes.data))
    return result


def float_to_half(array):
    """fp32 -> IEEE binary16 as the kernels round (ocf_float_to_half): round to nearest even,
    overflow to inf, NaN to a quiet NaN. Returns a float16 array of the same shape."""
    bits = _convert(_lib.ocf_float_to_half, array, np.float32, np.uint16)
    return bits.view(np.float16)


def half_to_float(array):
    """IEEE binary16 (float16, or uint16 bit patterns) -> float32, exact (ocf_half_to_float)."""
    source = np.asarray(array)
    if source.dtype == np.float16:
        source = source.view(np.uint16)
    return _convert(_lib.ocf_half_to_float, source, np.uint16, np.float32)


def float_to_bfloat16(array):
    """fp32 -> bfloat16 as the kernels round (ocf_float_to_bfloat16): round to nearest even, a
    NaN kept a quiet NaN. Returns ml_dtypes.bfloat16 where installed, else uint16 bits."""
    bits = _convert(_lib.ocf_float_to_bfloat16, array, np.float32, np.uint16)
    return bits.view(BFLOAT16) if BFLOAT16 is not None else bits


def bfloat16_to_float(array):
    """bfloat16 (ml_dtypes.bfloat16, or uint16 bit patterns) -> float32, exact."""
    source = np.asarray(array)
    if BFLOAT16 is not None and source.dtype == BFLOAT16:
        source = source.view(np.uint16)
    return _convert(_lib.ocf_bfloat16_to_float, source, np.uint16, np.float32)


# ---- OpenCL objects passed through ----

def _handle(obj, what):
    """A raw OpenCL handle (an int) from a pyopencl object (its int_ptr), any object with an
    int_ptr, a ctypes c_void_p, an int, or None."""
    if obj is None:
        return None
    if isinstance(obj, int):
        return obj
    if isinstance(obj, ctypes.c_void_p):
        return obj.value
    int_ptr = getattr(obj, "int_ptr", None)
    if isinstance(int_ptr, int):
        return int_ptr
    raise TypeError("oclfuse: %s must be an OpenCL object with int_ptr (pyopencl), a handle "
                    "as an int, or None; got %r" % (what, type(obj).__name__))


class Event:
    """An OpenCL event owned by this object (released when it is collected), for callers
    without pyopencl; with pyopencl the device calls return pyopencl.Event instead.
    `int_ptr` is the cl_event handle."""

    def __init__(self, int_ptr):
        self.int_ptr = int_ptr

    def wait(self):
        """Blocks until the event has completed (clWaitForEvents)."""
        handle = ctypes.c_void_p(self.int_ptr)
        status = _lib.opencl.clWaitForEvents(1, ctypes.byref(handle))
        if status != 0:
            check(status)

    def __del__(self):
        if self.int_ptr and _lib.opencl is not None:
            _lib.opencl.clReleaseEvent(ctypes.c_void_p(self.int_ptr))
            self.int_ptr = 0


def _wrap_event(handle):
    if not handle:
        return None
    if _cl is not None:
        return _cl.Event.from_int_ptr(handle, retain=False)
    return Event(handle)


_CL_MEM_SIZE = 0x1102


def _buffer_bytes(buffer):
    """The size of cl_mem `buffer` in bytes, asked of the OpenCL library that liboclfuse links
    (CL_MEM_SIZE, what the library reads itself); 0 when the query fails, so that the library's
    own check of the handle, on the call, says what is wrong with it."""
    if _lib.opencl is None:
        raise ValueError("oclfuse: no OpenCL library is loaded here to read the workspace's "
                         "size; pass workspace_size")
    size = ctypes.c_size_t(0)
    status = _lib.opencl.clGetMemObjectInfo(ctypes.c_void_p(buffer), _CL_MEM_SIZE,
                                            ctypes.sizeof(size), ctypes.byref(size), None)
    return size.value if status == 0 else 0


def _workspace_bytes(workspace, offset, size):
    """ocf_launch.workspace_size for the keywords: `size` as given, or, for None, the rest of
    the buffer from `offset` (0 without a workspace).

    None reads the buffer's size rather than being refused: lending a whole buffer is the usual
    case, and the size read cannot go wrong unseen, as the library reads the buffer's size
    itself and checks the lent range against it and against the call's operands. Where no
    OpenCL library can be loaded here, the size must be given. A size given without a workspace
    goes to the library as given, which refuses it."""
    if size is not None:
        return _size(size, "workspace_size")
    if workspace is None:
        return 0
    total = _buffer_bytes(workspace)
    return total - offset if offset <= total else 0  # past the end: the library says so


class _LaunchArgs:
    """An ocf_launch for one device call: the queue, the wait list, the workgroup size, the
    out event and the caller's workspace, kept alive for the call."""

    def __init__(self, queue, wait_for, workgroup_size, variant, workspace=None,
                 workspace_offset=0, workspace_size=None):
        self.launch = _lib.Launch()
        self.launch.size = ctypes.sizeof(_lib.Launch)
        self.launch.workgroup_size = int(workgroup_size or 0)
        self.launch.queue = _handle(queue, "queue")
        waits = [_handle(event, "wait_for event") for event in (wait_for or [])]
        self.waits = (ctypes.c_void_p * max(len(waits), 1))(*waits)
        self.launch.num_wait_events = len(waits)
        self.launch.wait_events = self.waits if waits else None
        self.event = ctypes.c_void_p()
        self.launch.event = ctypes.pointer(self.event)
        self.launch.variant = int(variant)
        self.launch.workspace = _handle(workspace, "workspace")
        self.launch.workspace_offset = _size(workspace_offset, "workspace_offset")
        self.launch.workspace_size = _workspace_bytes(self.launch.workspace,
                                                      self.launch.workspace_offset,
                                                      workspace_size)

    def result(self):
        return _wrap_event(self.event.value)


class _Request:
    """One call of an op as both its device form and its workspace size query take it, built
    once from the caller's keywords so that the size answers for exactly that call. The two
    argument lists are the same values; the query's leaves out the buffers where the C query
    takes none (the norms, attention)."""

    def __init__(self, handle, call, call_args, query, query_args, options, launch):
        self.handle = handle
        self.call, self.call_args = call, call_args
        self.query, self.query_args = query, query_args
        self.options = options
        self.launch = launch

    def enqueue(self):
        """Enqueues the call; returns its event."""
        check(self.call(self.handle, *self.call_args, ctypes.byref(self.options),
                        ctypes.byref(self.launch.launch)))
        return self.launch.result()

    def workspace_size(self):
        """The bytes of workspace the call would use (0: its plan needs none)."""
        self.launch.launch.event = None  # a query enqueues nothing, so it asks for no event
        size = ctypes.c_size_t(0)
        check(self.query(self.handle, *self.query_args, ctypes.byref(self.options),
                         ctypes.byref(self.launch.launch), ctypes.byref(size)))
        return size.value


# ---- numpy arrays as the host forms take them ----

def _matrix_order(x):
    """How a (batch of) matrix lies in memory: ("row", ld) when element (i, j) is at
    i * ld + j, ("col", ld) when at i + j * ld (ld in elements), or None."""
    isz = x.dtype.itemsize
    rows, cols = x.shape[-2:]
    s0, s1 = x.strides[-2:]
    if any(s < 0 for s in x.strides):
        return None
    if (cols <= 1 or s1 == isz) and (rows <= 1 or (s0 % isz == 0 and s0 // isz >= cols)):
        return "row", (s0 // isz if rows > 1 else max(cols, 1))
    if (rows <= 1 or s0 == isz) and (cols <= 1 or (s1 % isz == 0 and s1 // isz >= rows)):
        return "col", (s1 // isz if cols > 1 else max(rows, 1))
    return None


def _batch_stride(x):
    if x.ndim == 2 or x.shape[0] <= 1:
        return 0
    stride = x.strides[0]
    if stride < 0 or stride % x.dtype.itemsize:
        return None
    return stride // x.dtype.itemsize


def _pointer(x):
    return x.ctypes.data if x.size else None


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1


def _size(value, what):
    """value as a size_t (ctypes would wrap a negative int round silently)."""
    value = operator.index(value)  # TypeError for what is not an integer
    if not 0 <= value <= _SIZE_MAX:
        raise ValueError("oclfuse: %s is %d, not a size_t (0 .. %d)" % (what, value, _SIZE_MAX))
    return value


def _softmax_options(in_code, out_code, scale, log, lengths, lengths_offset, causal,
                     causal_period, causal_offset, default_period):
    """An ocf_softmax_options. causal_period None is default_period (at least 1: no rows are
    still one head) with causal, else 0; every other value goes to the library as given, which
    refuses what does not make a call."""
    if causal_period is None:
        causal_period = max(default_period, 1) if causal else 0
    return _lib.SoftmaxOptions(ctypes.sizeof(_lib.SoftmaxOptions), in_code, out_code,
                               float(scale), 1 if log else 0, lengths,
                               _size(lengths_offset, "lengths_offset"), 1 if causal else 0,
                               _size(causal_period, "causal_period"),
                               _size(causal_offset, "causal_offset"))


_LONG_LONG_MIN, _LONG_LONG_MAX = -2 ** 63, 2 ** 63 - 1


def _long_long(value, what):
    """value as a long long (ctypes would wrap one out of range silently)."""
    value = operator.index(value)
    if not _LONG_LONG_MIN <= value <= _LONG_LONG_MAX:
        raise ValueError("oclfuse: %s is %d, outside a long long" % (what, value))
    return value


def _attention_scale(scale, name):
    """ocf_attention_options.scale for `scale`: None is the library's 1 / sqrt(d), which the
    struct spells 0, so an explicit 0 would silently mean the default and is refused here."""
    if scale is None:
        return 0.0
    value = float(scale)
    if value == 0.0:
        raise ValueError("%s: scale 0 is the library's 'default'; pass a non-zero scale or "
                         "None" % name)
    return value


def _tensor_strides(strides, what):
    """An attention tensor's (batch, head, row) strides in elements as the size_t[3] that
    ocf_attention reads, or None (NULL: the dense [b, h, l, d] layout)."""
    if strides is None:
        return None
    strides = tuple(strides)
    if len(strides) != 3:
        raise ValueError("oclfuse: %s must be 3 strides (batch, head, row), not %d"
                         % (what, len(strides)))
    return (ctypes.c_size_t * 3)(*(_size(s, "%s[%d]" % (what, i)) for i, s in enumerate(strides)))


class Context:
    """One device, its OpenCL context and queue, its tuning and built programs
    (ocf_context). Context(spec) picks a device as ocf_context_create does ("P:D", a name
    substring, None: $OCLFUSE_DEVICE, else the first GPU, else any device); Context.wrap and
    Context.from_queue run on the caller's OpenCL objects (pyopencl's or raw handles), which
    are retained, not owned. Calls on one context from several threads are safe. Release it
    with close() or a with-block; it is also released when collected.

    Workspaces: a plan of several kernels (softmax's split of long rows, matmul's split-K, the
    norms' split, attention's decode split) keeps scratch on the device, from the context's pool
    or, given the keyword `workspace` of a *_buffers method, from the caller's buffer:
    workspace_size bytes (None: the rest of the buffer) from byte workspace_offset (0 or a
    multiple of the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN), not overlapping an operand. Its
    size bounds the plan (fewer ranges of a split, or none, where the plan needs more); only a
    plan with no smaller form (a baseline's) refuses one too small (BufferTooSmallError,
    nothing enqueued). Calls that share a workspace must be ordered by the caller (one in-order
    queue, or events). The *_workspace_size methods say how many bytes a call's unbounded plan
    uses (0: it needs none)."""

    def __init__(self, spec=None):
        handle = ctypes.c_void_p()
        check(_lib.ocf_context_create(spec.encode() if spec else None, ctypes.byref(handle)))
        self._handle = handle
        self._objects = None

    @classmethod
    def wrap(cls, context, device, queue):
        """A context over the caller's OpenCL context, device and queue: pyopencl objects,
        anything with int_ptr, or raw handles as ints. The queue is every call's default and
        may be out of order."""
        self = cls.__new__(cls)
        self._handle = ctypes.c_void_p()
        self._objects = (context, device, queue)
        check(_lib.ocf_context_wrap(_handle(context, "context"), _handle(device, "device"),
                                    _handle(queue, "queue"), ctypes.byref(self._handle)))
        return self

    @classmethod
    def from_queue(cls, queue):
        """A context over a pyopencl CommandQueue, its context and its device."""
        return cls.wrap(queue.context, queue.device, queue)

    def close(self):
        """Waits for the context's queue, then releases the context (ocf_context_release)."""
        if getattr(self, "_handle", None) and self._handle.value:
            _lib.ocf_context_release(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    @property
    def handle(self):
        """The ocf_context pointer, as an int."""
        if not self._handle.value:
            raise ValueError("oclfuse: the context is closed")
        return self._handle.value

    # -- the OpenCL objects --

    @property
    def cl_context_ptr(self):
        """The context's cl_context, as an int (valid while the context lives)."""
        return _lib.ocf_context_cl_context(self.handle)

    @property
    def device_ptr(self):
        """The context's cl_device_id, as an int."""
        return _lib.ocf_context_device(self.handle)

    @property
    def queue_ptr(self):
        """The context's default cl_command_queue, as an int."""
        return _lib.ocf_context_queue(self.handle)

    def pyopencl_context(self):
        """The context's OpenCL context as a pyopencl.Context (needs pyopencl)."""
        return _cl.Context.from_int_ptr(self.cl_context_ptr, retain=True)

    def pyopencl_queue(self):
        """The context's default queue as a pyopencl.CommandQueue (needs pyopencl)."""
        return _cl.CommandQueue.from_int_ptr(self.queue_ptr, retain=True)

    @property
    def device_info(self):
        """The device's description (ocf_device_info) as a dict."""
        info = _lib.DeviceInfo()
        info.size = ctypes.sizeof(info)
        check(_lib.ocf_context_device_info(self.handle, ctypes.byref(info)))
        return _info_dict(info)

    @property
    def device_name(self):
        """"<platform> <device>"."""
        info = self.device_info
        return "%s %s" % (info["platform_name"], info["device_name"])

    # -- tuning --

    def set_tuning(self, op, values, dtype="f32", shape_class=None):
        """Sets tunables of op for a data type and shape class ("name=value ..."; None or ""
        restores the resolved values): ocf_context_set_tuning."""
        check(_lib.ocf_context_set_tuning(self.handle, op.encode(), dtype_code(dtype),
                                          shape_class.encode() if shape_class else None,
                                          values.encode() if values else None))

    def get_tuning(self, op, dtype="f32", shape_class=None):
        """The values in force, "name=value ...": ocf_context_get_tuning."""
        text = ctypes.create_string_buffer(4096)
        check(_lib.ocf_context_get_tuning(self.handle, op.encode(), dtype_code(dtype),
                                          shape_class.encode() if shape_class else None, text,
                                          len(text)))
        return text.value.decode()

    @property
    def tuning_origin(self):
        """Where the context's tuning came from."""
        return _lib.ocf_context_tuning_origin(self.handle).decode()

    def warmup(self, op=None):
        """Builds (or loads) every program op ("add", "softmax", "matmul", "norm",
        "attention"; None: all) needs, blocking; returns the number of kernel plans
        prepared."""
        plans = ctypes.c_size_t(0)
        check(_lib.ocf_warmup(self.handle, op.encode() if op else None, ctypes.byref(plans)))
        return plans.value

    # -- numpy arrays (synchronous) --

    def add(self, x, y, out=None):
        """out = x + y elementwise on float32 arrays of one shape (ocf_add_host). Returns out
        (a new array when not given; it may be x or y)."""
        x = np.ascontiguousarray(x, dtype=np.float32)
        y = np.ascontiguousarray(y, dtype=np.float32)
        if x.shape != y.shape:
            raise ValueError("oclfuse.add: shapes %s and %s differ" % (x.shape, y.shape))
        result = out
        if out is None:
            result = np.empty_like(x)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.float32
                  and out.shape == x.shape and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError("oclfuse.add: out must be a writeable C-contiguous float32 array "
                             "of shape %s" % (x.shape,))
        check(_lib.ocf_add_host(self.handle, x.size, _pointer(x), _pointer(y),
                                _pointer(result)))
        return result

    def layernorm(self, x, weight=None, bias=None, *, eps=1e-5, residual=None,
                  out_dtype=None, return_residual=False, return_stats=False):
        """LayerNorm of each row (the last axis) of x (ocf_layernorm_host):
        (x - mean) / sqrt(var + eps) * weight + bias. residual: added to x first (fp32 sum,
        stored in the residual's dtype), the sum normalized; return_residual: also return that
        sum (the pre-norm block's updated residual). return_stats: also return each row's mean
        and rstd (float32). Storage types float32, float16, bfloat16 in any mix; arithmetic
        fp32. Returns y, then the residual sum, then (mean, rstd), as asked."""
        return self._norm(False, x, weight, bias, eps, residual, out_dtype, return_residual,
                          return_stats)

    def rmsnorm(self, x, weight=None, *, eps=1e-5, residual=None, out_dtype=None,
                return_residual=False, return_stats=False):
        """RMSNorm of each row: x / sqrt(mean(x^2) + eps) * weight (ocf_rmsnorm_host); the
        other arguments as layernorm's (return_stats gives rstd only)."""
        return self._norm(True, x, weight, None, eps, residual, out_dtype, return_residual,
                          return_stats)

    def _norm(self, rms, x, weight, bias, eps, residual, out_dtype, return_residual,
              return_stats):
        name = "oclfuse.rmsnorm" if rms else "oclfuse.layernorm"
        x = np.asarray(x)
        if x.ndim == 0:
            raise ValueError("%s: x needs at least one axis" % name)
        cols = x.shape[-1]
        x2 = np.ascontiguousarray(x).reshape(-1, cols)
        rows = x2.shape[0]
        in_code = dtype_code(x2.dtype)
        out_code = dtype_code(out_dtype) if out_dtype is not None else in_code
        y = np.empty((rows, cols), dtype=numpy_dtype(out_code))
        options = _lib.NormOptions()
        options.size = ctypes.sizeof(_lib.NormOptions)
        options.in_dtype, options.out_dtype, options.eps = in_code, out_code, eps
        w_code = None
        vectors = []
        for vector in (weight, bias):
            if vector is None:
                vectors.append(None)
                continue
            v = np.ascontiguousarray(vector).reshape(-1)
            if v.size != cols:
                raise ValueError("%s: weight and bias need %d elements" % (name, cols))
            if w_code is not None and dtype_code(v.dtype) != w_code:
                raise ValueError("%s: weight and bias differ in dtype" % name)
            w_code = dtype_code(v.dtype)
            vectors.append(v)
        options.weight_dtype = w_code if w_code is not None else F32
        res = res_out = None
        if residual is not None:
            res = np.ascontiguousarray(residual).reshape(-1, cols)
            if res.shape != (rows, cols):
                raise ValueError("%s: residual must have x's shape" % name)
            options.residual_dtype = dtype_code(res.dtype)
            options.residual_ld = cols
            if return_residual:
                res_out = np.empty_like(res)
                options.residual_out_ld = cols
        elif return_residual:
            raise ValueError("%s: return_residual needs a residual" % name)
        mean = rstd = None
        if return_stats:
            rstd = np.empty(rows, dtype=np.float32)
            mean = None if rms else np.empty(rows, dtype=np.float32)
        p = lambda a: _pointer(a) if a is not None else None  # noqa: E731
        if rms:
            status = _lib.ocf_rmsnorm_host(self.handle, rows, cols, _pointer(x2), cols,
                                           _pointer(y), cols, p(vectors[0]), p(res), p(res_out),
                                           p(rstd), ctypes.byref(options))
        else:
            status = _lib.ocf_layernorm_host(self.handle, rows, cols, _pointer(x2), cols,
                                             _pointer(y), cols, p(vectors[0]), p(vectors[1]),
                                             p(res), p(res_out), p(mean), p(rstd),
                                             ctypes.byref(options))
        check(status)
        result = [y.reshape(x.shape)]
        if return_residual:
            result.append(res_out.reshape(x.shape))
        if return_stats:
            result.append(rstd if rms else (mean, rstd))
        return result[0] if len(result) == 1 else tuple(result)

    def attention(self, q, k, v, *, scale=None, causal=False, causal_offset=None,
                  lengths=None, out_dtype=None, return_lse=False, precision="fp32"):
        """Fused attention, softmax(scale * q k^T + mask) v (ocf_attention_host), the scores
        never stored. q: [b, h, lq, d] (or [h, lq, d], or [lq, d]); k and v: [b, h_kv, lk, d]
        with h a multiple of h_kv (grouped-query attention), same number of axes as q; d up to
        256. Storage types float32, float16, bfloat16 (ml_dtypes, or uint16 bits), any mix;
        the softmax and the sums are fp32. Arrays whose last axis is contiguous are passed with
        their strides as they lie (a head-interleaved view too), others are copied. scale: None
        is 1 / sqrt(d). causal: key j kept for query i when j <= i + causal_offset (None: lk -
        lq, FlashAttention's bottom-right alignment). lengths: b valid key counts (uint32; above
        lk counts as lk). out_dtype: the result's type (default q's). return_lse: also return
        the log-sum-exp of each query row's scaled scores, float32 [b, h, lq] (the shape of q
        without d). precision: how fp32 q, k and v may be multiplied, "fp32" (exact products,
        the default), "tf32" or "3xtf32" (NVIDIA's matrix units where the library's
        attention_mma takes the call; ocf_attention_options.precision). Returns out [q's shape],
        then lse."""
        arrays = [np.asarray(a) for a in (q, k, v)]
        ndim = arrays[0].ndim
        if not 2 <= ndim <= 4 or any(a.ndim != ndim for a in arrays):
            raise ValueError("oclfuse.attention: q, k and v need the same number of axes, "
                             "2 to 4 ([lq, d], [h, lq, d] or [b, h, lq, d])")
        lead = (1,) * (4 - ndim)
        arrays = [a.reshape(lead + a.shape) if ndim < 4 else a for a in arrays]
        b, h, lq, d = arrays[0].shape
        kb, h_kv, lk, kd = arrays[1].shape
        if arrays[2].shape != arrays[1].shape or kd != d or kb != b:
            raise ValueError("oclfuse.attention: k and v must both be [b, h_kv, lk, d] with q's "
                             "b and d (q %s, k %s, v %s)" % (arrays[0].shape, arrays[1].shape,
                                                            arrays[2].shape))
        codes = [dtype_code(a.dtype) for a in arrays]
        strides = []
        for i, a in enumerate(arrays):
            isz = a.dtype.itemsize
            if a.shape[3] > 1 and a.strides[3] != isz or any(
                    s < 0 or s % isz for s in a.strides[:3]):
                a = arrays[i] = np.ascontiguousarray(a)
            # Element strides of batch, head and row; a single row's stride is moot (d).
            step = [st // isz for st in a.strides[:3]]
            if a.shape[2] <= 1:
                step[2] = d
            strides.append((ctypes.c_size_t * 3)(*step))
        out_code = dtype_code(out_dtype) if out_dtype is not None else codes[0]
        out = np.empty((b, h, lq, d), dtype=numpy_dtype(out_code))
        options = _lib.AttentionOptions()
        options.size = ctypes.sizeof(_lib.AttentionOptions)
        options.scale = _attention_scale(scale, "oclfuse.attention")
        options.q_dtype, options.k_dtype, options.v_dtype = codes
        options.out_dtype = out_code
        if causal_offset is not None and not causal:
            raise ValueError("oclfuse.attention: causal_offset needs causal=True")
        options.causal = 1 if causal else 0
        options.precision = _choice(_PRECISIONS, precision, "precision")
        if causal_offset is not None:
            options.causal_offset_set, options.causal_offset = 1, operator.index(causal_offset)
        lengths_array = None
        if lengths is not None:
            lengths_array = np.ascontiguousarray(lengths, dtype=np.uint32).reshape(-1)
            if lengths_array.size != b:
                raise ValueError("oclfuse.attention: %d lengths for a batch of %d"
                                 % (lengths_array.size, b))
        lse = np.empty((b, h, lq), dtype=np.float32) if return_lse else None
        check(_lib.ocf_attention_host(
            self.handle, b, h, h_kv, lq, lk, d,
            _pointer(arrays[0]), strides[0], _pointer(arrays[1]), strides[1],
            _pointer(arrays[2]), strides[2], _pointer(out), None,
            _pointer(lengths_array) if lengths_array is not None else None,
            _pointer(lse) if lse is not None else None, ctypes.byref(options)))
        shape = np.asarray(q).shape
        out = out.reshape(shape[:-1] + (d,))
        return (out, lse.reshape(shape[:-1])) if return_lse else out

    def softmax(self, x, *, scale=1.0, log=False, lengths=None, causal=False,
                causal_period=None, causal_offset=0, out_dtype=None, out=None):
        """Softmax (log=True: log-softmax) of scale * x along the last axis
        (ocf_softmax_host_ex). x: float32, float16 or bfloat16 (ml_dtypes, or uint16 bits);
        a 2-D x may have a row stride (a slice of a wider array). lengths: one valid length per
        row (the leading columns that take part; the rest come out 0, -inf for log). causal:
        the causal band, PyTorch's is_causal: row r keeps its columns 0 .. (r mod
        causal_period) + causal_offset (and at most its length); causal_period is the rows per
        head (default x.shape[-2]: each matrix of x is one head), causal_offset the key
        position of each head's first row (nk - nq aligns the last query with the last key).
        out_dtype: the result's storage type (default: x's); out: an array to write (x itself:
        in place). Returns the result."""
        x = np.asarray(x)
        in_code = dtype_code(x.dtype)
        if x.ndim == 0:
            raise ValueError("oclfuse.softmax: x needs at least one axis")
        cols = x.shape[-1]
        x2 = x.reshape(1, cols) if x.ndim == 1 else x
        if x2.ndim > 2 or _matrix_order(x2) is None or _matrix_order(x2)[0] != "row":
            x2 = np.ascontiguousarray(x2).reshape(-1, cols)
        rows = x2.shape[0]
        in_ld = _matrix_order(x2)[1]

        if out is None:
            out_code = dtype_code(out_dtype) if out_dtype is not None else in_code
            result = np.empty(x.shape, dtype=numpy_dtype(out_code))
            out2 = result.reshape(rows, cols)
        else:
            result = out
            if not isinstance(out, np.ndarray) or out.shape != x.shape or not out.flags.writeable:
                raise ValueError("oclfuse.softmax: out must be a writeable array of shape %s"
                                 % (x.shape,))
            out_code = dtype_code(out.dtype)
            if out_dtype is not None and dtype_code(out_dtype) != out_code:
                raise ValueError("oclfuse.softmax: out_dtype and out's dtype differ")
            out2 = out.reshape(1, cols) if out.ndim == 1 else out
            order = _matrix_order(out2) if out2.ndim == 2 else None
            if out2.ndim > 2 and out.flags.c_contiguous:
                out2 = out.reshape(rows, cols)
                order = _matrix_order(out2)
            if order is None or order[0] != "row":
                raise ValueError("oclfuse.softmax: out must be C-contiguous, or 2-D with rows "
                                 "of contiguous elements")
        out_ld = _matrix_order(out2)[1]

        lengths_array = None
        if lengths is not None:
            lengths_array = np.ascontiguousarray(lengths, dtype=np.uint32).reshape(-1)
            if lengths_array.size != rows:
                raise ValueError("oclfuse.softmax: %d lengths for %d rows"
                                 % (lengths_array.size, rows))
        # The rows of a matrix of x (its last-but-one axis; 1 for a vector) are one head.
        options = _softmax_options(in_code, out_code, scale, log, None, 0, causal,
                                   causal_period, causal_offset,
                                   x.shape[-2] if x.ndim > 1 else 1)
        check(_lib.ocf_softmax_host_ex(
            self.handle, rows, cols, _pointer(x2), in_ld, _pointer(out2), out_ld,
            _pointer(lengths_array) if lengths_array is not None else None,
            ctypes.byref(options)))
        return result

    def matmul(self, a, b, c=None, *, alpha=1.0, beta=0.0, trans_a=False, trans_b=False,
               bias=None, bias_axis=None, activation=None, precision="fp32", out_dtype=None):
        """C = act(alpha * op(a) @ op(b) + beta * c + bias) (ocf_matmul_host_ex).
        a, b, c: 2-D, or 3-D for a batch (a 2-D operand, or a batch of 1, is shared by every
        product); float32, float16 or bfloat16 (ml_dtypes, or uint16 bits), any mix.
        trans_a/trans_b: use the transpose of a/b. Row- and column-ordered arrays and
        row-strided slices are passed as they lie (the transposes and the layout follow from
        the strides); others are copied. c: the matrix beta scales, and the output (written in
        place and returned); without c a new array of out_dtype (default float32) is returned.
        bias: 1-D, n values (bias_axis "n", one per column) or m ("m"; the default is "n"
        when its length is n). activation: None, "relu", "gelu" (erf), "gelu_tanh", "silu".
        precision: "fp32", "tf32" or "3xtf32"."""
        a = np.asarray(a)
        b = np.asarray(b)
        A = np.swapaxes(a, -1, -2) if trans_a else a
        B = np.swapaxes(b, -1, -2) if trans_b else b
        if A.ndim not in (2, 3) or B.ndim not in (2, 3):
            raise ValueError("oclfuse.matmul: a and b must be 2-D or 3-D (a batch)")
        m, k = A.shape[-2:]
        k_b, n = B.shape[-2:]
        if k != k_b:
            raise ValueError("oclfuse.matmul: op(a) is %d x %d but op(b) is %d x %d"
                             % (m, k, k_b, n))
        batches = {x.shape[0] for x in (A, B) if x.ndim == 3 and x.shape[0] != 1}
        if c is not None and np.ndim(c) == 3 and np.shape(c)[0] != 1:
            batches.add(np.shape(c)[0])
        if len(batches) > 1:
            raise ValueError("oclfuse.matmul: batch sizes %s differ" % sorted(batches))
        batched = A.ndim == 3 or B.ndim == 3 or (c is not None and np.ndim(c) == 3)
        batch = batches.pop() if batches else 1

        shape = (batch, m, n) if batched else (m, n)
        if c is None:
            if beta != 0.0:
                raise ValueError("oclfuse.matmul: beta != 0 needs c")
            result = np.empty(shape, dtype=numpy_dtype(out_dtype or F32))
        else:
            result = c
            if not isinstance(c, np.ndarray) or c.shape != shape or not c.flags.writeable:
                raise ValueError("oclfuse.matmul: c must be a writeable array of shape %s"
                                 % (shape,))
            if out_dtype is not None and dtype_code(out_dtype) != dtype_code(c.dtype):
                raise ValueError("oclfuse.matmul: out_dtype and c's dtype differ")
        C = result
        order = _matrix_order(C)
        if order is None or _batch_stride(C) is None:
            C = np.ascontiguousarray(result)
            order = _matrix_order(C)
        layout = order[0]

        def operand(x):
            info = _matrix_order(x)
            if info is None or _batch_stride(x) is None:
                x = np.ascontiguousarray(x)
                info = _matrix_order(x)
            trans = 0 if info[0] == layout else 1
            return x, trans, info[1], _batch_stride(x)

        A, ta, lda, stride_a = operand(A)
        B, tb, ldb, stride_b = operand(B)
        stride_c = _batch_stride(C)

        axis = 0
        bias_array = None
        if bias is not None:
            bias_array = np.ascontiguousarray(bias).reshape(-1)
            if bias_axis is None:
                bias_axis = "n" if bias_array.size == n else "m"
            axis = _choice(_BIAS_AXES, bias_axis, "bias_axis")
            want = n if axis == 1 else m
            if axis == 0 or bias_array.size != want:
                raise ValueError("oclfuse.matmul: a bias along %s needs %d values, not %d"
                                 % (bias_axis, want, bias_array.size))
        elif bias_axis not in (None, "none"):
            raise ValueError("oclfuse.matmul: bias_axis without a bias")

        options = _lib.MatmulOptions()
        options.size = ctypes.sizeof(options)
        options.a_dtype = dtype_code(A.dtype)
        options.b_dtype = dtype_code(B.dtype)
        options.c_dtype = dtype_code(C.dtype)
        options.precision = _choice(_PRECISIONS, precision, "precision")
        options.layout = 0 if layout == "row" else 1
        options.batch = batch if batched else 1
        options.stride_a, options.stride_b, options.stride_c = stride_a, stride_b, stride_c
        options.activation = _choice(_ACTIVATIONS, activation, "activation")
        options.bias_axis = axis
        options.bias_dtype = dtype_code(bias_array.dtype) if bias_array is not None else F32
        # In the column-major layout the library reads the storage order of each operand the
        # other way round: "trans" above is relative to C's order, which is what it expects.
        check(_lib.ocf_matmul_host_ex(
            self.handle, ta, tb, m, n, k, float(alpha), _pointer(A), lda, _pointer(B), ldb,
            float(beta), _pointer(C), order[1], _pointer(bias_array) if axis else None,
            ctypes.byref(options)))
        if C is not result:
            result[...] = C
        return result

    # -- OpenCL buffers (asynchronous, zero-copy) --

    def add_buffers(self, n, x, y, out, *, x_offset=0, y_offset=0, out_offset=0, queue=None,
                    wait_for=None, workgroup_size=0, workspace=None, workspace_offset=0,
                    workspace_size=None):
        """ocf_add on cl_mem buffers (pyopencl.Buffer, objects with int_ptr, or handles):
        out[i] = x[i] + y[i], float32, offsets in elements. Enqueued on `queue` (default: the
        context's) after `wait_for`; returns the call's event (a pyopencl.Event with pyopencl,
        else an oclfuse.Event). A workspace is checked, never used: add is one kernel."""
        args = _LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                           workspace_size)
        check(_lib.ocf_add(self.handle, n, _handle(x, "x"), x_offset, _handle(y, "y"), y_offset,
                           _handle(out, "out"), out_offset, ctypes.byref(args.launch)))
        return args.result()

    def softmax_buffers(self, rows, cols, x, out, *, in_offset=0, in_ld=None, out_offset=0,
                        out_ld=None, in_dtype="f32", out_dtype=None, scale=1.0, log=False,
                        lengths=None, lengths_offset=0, causal=False, causal_period=None,
                        causal_offset=0, queue=None, wait_for=None, workgroup_size=0,
                        workspace=None, workspace_offset=0, workspace_size=None):
        """ocf_softmax_ex on cl_mem buffers: rows x cols elements of in_dtype from in_offset
        with row stride in_ld (default cols) into out (out_dtype, default in_dtype). lengths:
        an optional buffer of cl_uint row lengths (one above cols counts as cols). causal,
        causal_period (default rows: one head), causal_offset: the causal band, as
        Context.softmax. workspace: scratch lent for a split plan (see Context;
        softmax_workspace_size gives the bytes). Returns the call's event."""
        return self._softmax_request(
            rows, cols, x, out, in_offset=in_offset, in_ld=in_ld, out_offset=out_offset,
            out_ld=out_ld, in_dtype=in_dtype, out_dtype=out_dtype, scale=scale, log=log,
            lengths=lengths, lengths_offset=lengths_offset, causal=causal,
            causal_period=causal_period, causal_offset=causal_offset,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).enqueue()

    def softmax_workspace_size(self, rows, cols, x=None, out=None, *, in_offset=0, in_ld=None,
                               out_offset=0, out_ld=None, in_dtype="f32", out_dtype=None,
                               scale=1.0, log=False, lengths=None, lengths_offset=0,
                               causal=False, causal_period=None, causal_offset=0, queue=None,
                               wait_for=None, workgroup_size=0, workspace=None,
                               workspace_offset=0, workspace_size=None):
        """The bytes of workspace softmax_buffers with the same arguments would use
        (ocf_softmax_workspace_size; 0: its plan needs none). x and out may be left out: they
        only tell an in-place call, which can plan differently, and without them the size
        covers both. The lengths are not read. Builds the plan's programs as the first call
        would (blocking), so the size holds on this context until its tuning changes."""
        return self._softmax_request(
            rows, cols, x, out, in_offset=in_offset, in_ld=in_ld, out_offset=out_offset,
            out_ld=out_ld, in_dtype=in_dtype, out_dtype=out_dtype, scale=scale, log=log,
            lengths=lengths, lengths_offset=lengths_offset, causal=causal,
            causal_period=causal_period, causal_offset=causal_offset,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).workspace_size()

    def _softmax_request(self, rows, cols, x, out, *, in_offset, in_ld, out_offset, out_ld,
                         in_dtype, out_dtype, scale, log, lengths, lengths_offset, causal,
                         causal_period, causal_offset, launch):
        """softmax_buffers' and softmax_workspace_size's call: one argument list for both."""
        in_code = dtype_code(in_dtype)
        out_code = dtype_code(out_dtype) if out_dtype is not None else in_code
        options = _softmax_options(in_code, out_code, scale, log, _handle(lengths, "lengths"),
                                   lengths_offset, causal, causal_period, causal_offset, rows)
        args = (rows, cols, _handle(x, "x"), in_offset, cols if in_ld is None else in_ld,
                _handle(out, "out"), out_offset, cols if out_ld is None else out_ld)
        return _Request(self.handle, _lib.ocf_softmax_ex, args, _lib.ocf_softmax_workspace_size,
                        args, options, launch)

    def matmul_buffers(self, m, n, k, a, b, c, *, alpha=1.0, beta=0.0, trans_a=False,
                       trans_b=False, a_offset=0, lda=None, b_offset=0, ldb=None, c_offset=0,
                       ldc=None, a_dtype="f32", b_dtype="f32", c_dtype="f32", precision="fp32",
                       layout="row", batch=1, stride_a=0, stride_b=0, stride_c=0,
                       activation=None, bias=None, bias_axis=None, bias_offset=0,
                       bias_dtype="f32", queue=None, wait_for=None, workgroup_size=0,
                       workspace=None, workspace_offset=0, workspace_size=None):
        """ocf_matmul_ex on cl_mem buffers: C = act(alpha op(A) op(B) + beta C + bias), every
        option of ocf_matmul_options by name; leading dimensions default to the packed ones
        of the layout. workspace: scratch lent for split-K and the other plans with scratch
        (see Context; matmul_workspace_size gives the bytes). Returns the call's event."""
        return self._matmul_request(
            m, n, k, a, b, c, alpha=alpha, beta=beta, trans_a=trans_a, trans_b=trans_b,
            a_offset=a_offset, lda=lda, b_offset=b_offset, ldb=ldb, c_offset=c_offset, ldc=ldc,
            a_dtype=a_dtype, b_dtype=b_dtype, c_dtype=c_dtype, precision=precision,
            layout=layout, batch=batch, stride_a=stride_a, stride_b=stride_b, stride_c=stride_c,
            activation=activation, bias=bias, bias_axis=bias_axis, bias_offset=bias_offset,
            bias_dtype=bias_dtype,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).enqueue()

    def matmul_workspace_size(self, m, n, k, a=None, b=None, c=None, *, alpha=1.0, beta=0.0,
                              trans_a=False, trans_b=False, a_offset=0, lda=None, b_offset=0,
                              ldb=None, c_offset=0, ldc=None, a_dtype="f32", b_dtype="f32",
                              c_dtype="f32", precision="fp32", layout="row", batch=1,
                              stride_a=0, stride_b=0, stride_c=0, activation=None, bias=None,
                              bias_axis=None, bias_offset=0, bias_dtype="f32", queue=None,
                              wait_for=None, workgroup_size=0, workspace=None,
                              workspace_offset=0, workspace_size=None):
        """The bytes of workspace matmul_buffers with the same arguments would use
        (ocf_matmul_workspace_size; 0: its plan needs none). a, b and c may be left out: they
        do not change the plan. A workspace given here bounds what the plans that can do
        without scratch take, as it does for the call. Builds the plan's programs as the first
        call would (blocking), so the size holds on this context until its tuning changes."""
        return self._matmul_request(
            m, n, k, a, b, c, alpha=alpha, beta=beta, trans_a=trans_a, trans_b=trans_b,
            a_offset=a_offset, lda=lda, b_offset=b_offset, ldb=ldb, c_offset=c_offset, ldc=ldc,
            a_dtype=a_dtype, b_dtype=b_dtype, c_dtype=c_dtype, precision=precision,
            layout=layout, batch=batch, stride_a=stride_a, stride_b=stride_b, stride_c=stride_c,
            activation=activation, bias=bias, bias_axis=bias_axis, bias_offset=bias_offset,
            bias_dtype=bias_dtype,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).workspace_size()

    def _matmul_request(self, m, n, k, a, b, c, *, alpha, beta, trans_a, trans_b, a_offset, lda,
                        b_offset, ldb, c_offset, ldc, a_dtype, b_dtype, c_dtype, precision,
                        layout, batch, stride_a, stride_b, stride_c, activation, bias, bias_axis,
                        bias_offset, bias_dtype, launch):
        """matmul_buffers' and matmul_workspace_size's call: one argument list for both."""
        col = _choice(_LAYOUTS, layout, "layout") == 1
        ta, tb = int(bool(trans_a)), int(bool(trans_b))

        def packed(rows, cols):  # the stored matrix's leading dimension when packed
            return max(rows if col else cols, 1)

        if lda is None:
            lda = packed(*((k, m) if ta else (m, k)))
        if ldb is None:
            ldb = packed(*((n, k) if tb else (k, n)))
        if ldc is None:
            ldc = packed(m, n)
        options = _lib.MatmulOptions()
        options.size = ctypes.sizeof(options)
        options.a_dtype, options.b_dtype = dtype_code(a_dtype), dtype_code(b_dtype)
        options.c_dtype = dtype_code(c_dtype)
        options.precision = _choice(_PRECISIONS, precision, "precision")
        options.layout = 1 if col else 0
        options.batch = batch
        options.stride_a, options.stride_b, options.stride_c = stride_a, stride_b, stride_c
        options.activation = _choice(_ACTIVATIONS, activation, "activation")
        if bias is not None and bias_axis is None:
            bias_axis = "n"
        options.bias_axis = _choice(_BIAS_AXES, bias_axis, "bias_axis")
        options.bias = _handle(bias, "bias")
        options.bias_offset = bias_offset
        options.bias_dtype = dtype_code(bias_dtype)
        args = (ta, tb, m, n, k, float(alpha), _handle(a, "a"), a_offset, lda, _handle(b, "b"),
                b_offset, ldb, float(beta), _handle(c, "c"), c_offset, ldc)
        return _Request(self.handle, _lib.ocf_matmul_ex, args, _lib.ocf_matmul_workspace_size,
                        args, options, launch)

    def layernorm_buffers(self, rows, cols, x, out, *, in_offset=0, in_ld=None, out_offset=0,
                          out_ld=None, in_dtype="f32", out_dtype=None, eps=1e-5, weight=None,
                          weight_offset=0, bias=None, bias_offset=0, weight_dtype=None,
                          residual=None, residual_offset=0, residual_ld=None,
                          residual_dtype=None, residual_out=None, residual_out_offset=0,
                          residual_out_ld=None, mean=None, mean_offset=0, rstd=None,
                          rstd_offset=0, queue=None, wait_for=None, workgroup_size=0,
                          workspace=None, workspace_offset=0, workspace_size=None):
        """ocf_layernorm on cl_mem buffers: each of the rows x cols rows of x (in_dtype, from
        in_offset, row stride in_ld) normalized into out (out_dtype), every member of
        ocf_norm_options by name. weight and bias: buffers of cols elements of weight_dtype
        from their offsets. residual: added to x first (the sum stored as residual_dtype is
        what is normalized), and written to residual_out when given (residual_out=residual
        with the same offset and stride updates it in place). mean and rstd: float32 buffers
        that receive one value per row from their offsets. The dtypes default to in_dtype,
        the row strides to cols (packed; residual_ld and residual_out_ld only where their
        buffer is given). out may be x exactly (in place). workspace: scratch lent for the
        split of long rows (see Context; layernorm_workspace_size gives the bytes). Returns
        the call's event."""
        return self._norm_request(
            False, rows, cols, x, out, in_offset=in_offset, in_ld=in_ld, out_offset=out_offset,
            out_ld=out_ld, in_dtype=in_dtype, out_dtype=out_dtype, eps=eps, weight=weight,
            weight_offset=weight_offset, bias=bias, bias_offset=bias_offset,
            weight_dtype=weight_dtype, residual=residual, residual_offset=residual_offset,
            residual_ld=residual_ld, residual_dtype=residual_dtype, residual_out=residual_out,
            residual_out_offset=residual_out_offset, residual_out_ld=residual_out_ld, mean=mean,
            mean_offset=mean_offset, rstd=rstd, rstd_offset=rstd_offset,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).enqueue()

    def layernorm_workspace_size(self, rows, cols, *, in_offset=0, in_ld=None, out_offset=0,
                                 out_ld=None, in_dtype="f32", out_dtype=None, eps=1e-5,
                                 weight=None, weight_offset=0, bias=None, bias_offset=0,
                                 weight_dtype=None, residual=None, residual_offset=0,
                                 residual_ld=None, residual_dtype=None, residual_out=None,
                                 residual_out_offset=0, residual_out_ld=None, mean=None,
                                 mean_offset=0, rstd=None, rstd_offset=0, queue=None,
                                 wait_for=None, workgroup_size=0, workspace=None,
                                 workspace_offset=0, workspace_size=None):
        """The bytes of workspace layernorm_buffers with the same arguments would use
        (ocf_norm_workspace_size; 0: its plan needs none). It takes no x and out; the options'
        buffers (weight, bias, residual, ...) only count as given or not, and are not queried.
        Builds the plan's programs as the first call would (blocking), so the size holds on
        this context until its tuning changes."""
        return self._norm_request(
            False, rows, cols, None, None, in_offset=in_offset, in_ld=in_ld,
            out_offset=out_offset, out_ld=out_ld, in_dtype=in_dtype, out_dtype=out_dtype,
            eps=eps, weight=weight, weight_offset=weight_offset, bias=bias,
            bias_offset=bias_offset, weight_dtype=weight_dtype, residual=residual,
            residual_offset=residual_offset, residual_ld=residual_ld,
            residual_dtype=residual_dtype, residual_out=residual_out,
            residual_out_offset=residual_out_offset, residual_out_ld=residual_out_ld, mean=mean,
            mean_offset=mean_offset, rstd=rstd, rstd_offset=rstd_offset,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).workspace_size()

    def rmsnorm_buffers(self, rows, cols, x, out, *, in_offset=0, in_ld=None, out_offset=0,
                        out_ld=None, in_dtype="f32", out_dtype=None, eps=1e-5, weight=None,
                        weight_offset=0, weight_dtype=None, residual=None, residual_offset=0,
                        residual_ld=None, residual_dtype=None, residual_out=None,
                        residual_out_offset=0, residual_out_ld=None, rstd=None, rstd_offset=0,
                        queue=None, wait_for=None, workgroup_size=0, workspace=None,
                        workspace_offset=0, workspace_size=None):
        """ocf_rmsnorm on cl_mem buffers, y = x / sqrt(mean(x^2) + eps) * weight: as
        layernorm_buffers without bias and mean (rmsnorm_workspace_size gives a workspace's
        bytes). Returns the call's event."""
        return self._norm_request(
            True, rows, cols, x, out, in_offset=in_offset, in_ld=in_ld, out_offset=out_offset,
            out_ld=out_ld, in_dtype=in_dtype, out_dtype=out_dtype, eps=eps, weight=weight,
            weight_offset=weight_offset, bias=None, bias_offset=0, weight_dtype=weight_dtype,
            residual=residual, residual_offset=residual_offset, residual_ld=residual_ld,
            residual_dtype=residual_dtype, residual_out=residual_out,
            residual_out_offset=residual_out_offset, residual_out_ld=residual_out_ld, mean=None,
            mean_offset=0, rstd=rstd, rstd_offset=rstd_offset,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).enqueue()

    def rmsnorm_workspace_size(self, rows, cols, *, in_offset=0, in_ld=None, out_offset=0,
                               out_ld=None, in_dtype="f32", out_dtype=None, eps=1e-5,
                               weight=None, weight_offset=0, weight_dtype=None, residual=None,
                               residual_offset=0, residual_ld=None, residual_dtype=None,
                               residual_out=None, residual_out_offset=0, residual_out_ld=None,
                               rstd=None, rstd_offset=0, queue=None, wait_for=None,
                               workgroup_size=0, workspace=None, workspace_offset=0,
                               workspace_size=None):
        """The bytes of workspace rmsnorm_buffers with the same arguments would use
        (ocf_norm_workspace_size; 0: its plan needs none), as layernorm_workspace_size."""
        return self._norm_request(
            True, rows, cols, None, None, in_offset=in_offset, in_ld=in_ld,
            out_offset=out_offset, out_ld=out_ld, in_dtype=in_dtype, out_dtype=out_dtype,
            eps=eps, weight=weight, weight_offset=weight_offset, bias=None, bias_offset=0,
            weight_dtype=weight_dtype, residual=residual, residual_offset=residual_offset,
            residual_ld=residual_ld, residual_dtype=residual_dtype, residual_out=residual_out,
            residual_out_offset=residual_out_offset, residual_out_ld=residual_out_ld, mean=None,
            mean_offset=0, rstd=rstd, rstd_offset=rstd_offset,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).workspace_size()

    def _norm_request(self, rms, rows, cols, x, out, *, in_offset, in_ld, out_offset, out_ld,
                      in_dtype, out_dtype, eps, weight, weight_offset, bias, bias_offset,
                      weight_dtype, residual, residual_offset, residual_ld, residual_dtype,
                      residual_out, residual_out_offset, residual_out_ld, mean, mean_offset,
                      rstd, rstd_offset, launch):
        """The call of ocf_layernorm (rms False) or ocf_rmsnorm and of ocf_norm_workspace_size,
        the options built from the keywords: every value goes to the library as given, which
        refuses what does not make a call (an offset or stride for an absent buffer, a bias for
        RMSNorm)."""
        rows, cols = _size(rows, "rows"), _size(cols, "cols")
        in_code = dtype_code(in_dtype)

        def code_or_input(dtype):
            return dtype_code(dtype) if dtype is not None else in_code

        def stride_of(buffer, ld, what):  # packed when its buffer is given, else 0 (absent)
            if ld is None:
                return cols if buffer is not None else 0
            return _size(ld, what)

        options = _lib.NormOptions()
        options.size = ctypes.sizeof(_lib.NormOptions)
        options.in_dtype, options.out_dtype = in_code, code_or_input(out_dtype)
        options.eps = float(eps)
        options.weight = _handle(weight, "weight")
        options.weight_offset = _size(weight_offset, "weight_offset")
        options.bias = _handle(bias, "bias")
        options.bias_offset = _size(bias_offset, "bias_offset")
        options.weight_dtype = code_or_input(weight_dtype)
        options.residual = _handle(residual, "residual")
        options.residual_offset = _size(residual_offset, "residual_offset")
        options.residual_ld = stride_of(residual, residual_ld, "residual_ld")
        options.residual_dtype = code_or_input(residual_dtype)
        options.residual_out = _handle(residual_out, "residual_out")
        options.residual_out_offset = _size(residual_out_offset, "residual_out_offset")
        options.residual_out_ld = stride_of(residual_out, residual_out_ld, "residual_out_ld")
        options.mean = _handle(mean, "mean")
        options.mean_offset = _size(mean_offset, "mean_offset")
        options.rstd = _handle(rstd, "rstd")
        options.rstd_offset = _size(rstd_offset, "rstd_offset")
        in_offset, out_offset = _size(in_offset, "in_offset"), _size(out_offset, "out_offset")
        in_ld = cols if in_ld is None else _size(in_ld, "in_ld")
        out_ld = cols if out_ld is None else _size(out_ld, "out_ld")
        call_args = (rows, cols, _handle(x, "x"), in_offset, in_ld, _handle(out, "out"),
                     out_offset, out_ld)
        query_args = (1 if rms else 0, rows, cols, in_offset, in_ld, out_offset, out_ld)
        return _Request(self.handle, _lib.ocf_rmsnorm if rms else _lib.ocf_layernorm, call_args,
                        _lib.ocf_norm_workspace_size, query_args, options, launch)

    def attention_buffers(self, b, h, h_kv, lq, lk, d, q, k, v, out, *, q_offset=0,
                          q_strides=None, k_offset=0, k_strides=None, v_offset=0,
                          v_strides=None, out_offset=0, out_strides=None, q_dtype="f32",
                          k_dtype=None, v_dtype=None, out_dtype=None, scale=None, causal=False,
                          causal_offset=None, lengths=None, lengths_offset=0, lse=None,
                          lse_offset=0, precision="fp32", queue=None, wait_for=None,
                          workgroup_size=0, workspace=None, workspace_offset=0,
                          workspace_size=None):
        """ocf_attention on cl_mem buffers: out = softmax(scale q k^T + mask) v for q and out
        [b, h, lq, d], k and v [b, h_kv, lk, d] (h a multiple of h_kv: grouped-query
        attention), every member of ocf_attention_options by name. Each tensor starts at its
        offset; its strides are (batch, head, row) in elements, the d elements of a row
        contiguous (None: the dense [b, h, l, d] layout; a head-interleaved [b, l, h, d]
        tensor is (l h d, d, h d)). k_dtype, v_dtype and out_dtype default to q_dtype.
        scale: None is 1 / sqrt(d). causal: key j kept for query i when j <= i +
        causal_offset (None: lk - lq). lengths: a buffer of b cl_uint valid key counts from
        lengths_offset. lse: a float32 buffer receiving each query row's log-sum-exp, dense
        [b, h, lq] from lse_offset. precision: "fp32", "tf32" or "3xtf32". workspace: scratch
        lent for the decode split (see Context; attention_workspace_size gives the bytes).
        Returns the call's event."""
        return self._attention_request(
            b, h, h_kv, lq, lk, d, q, k, v, out, q_offset=q_offset, q_strides=q_strides,
            k_offset=k_offset, k_strides=k_strides, v_offset=v_offset, v_strides=v_strides,
            out_offset=out_offset, out_strides=out_strides, q_dtype=q_dtype, k_dtype=k_dtype,
            v_dtype=v_dtype, out_dtype=out_dtype, scale=scale, causal=causal,
            causal_offset=causal_offset, lengths=lengths, lengths_offset=lengths_offset,
            lse=lse, lse_offset=lse_offset, precision=precision,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).enqueue()

    def attention_workspace_size(self, b, h, h_kv, lq, lk, d, *, q_offset=0, q_strides=None,
                                 k_offset=0, k_strides=None, v_offset=0, v_strides=None,
                                 out_offset=0, out_strides=None, q_dtype="f32", k_dtype=None,
                                 v_dtype=None, out_dtype=None, scale=None, causal=False,
                                 causal_offset=None, lengths=None, lengths_offset=0, lse=None,
                                 lse_offset=0, precision="fp32", queue=None, wait_for=None,
                                 workgroup_size=0, workspace=None, workspace_offset=0,
                                 workspace_size=None):
        """The bytes of workspace attention_buffers with the same arguments would use
        (ocf_attention_workspace_size; 0: its plan needs none). It takes no q, k, v and out;
        lengths and lse only count as given or not, and are not queried. Builds the plan's
        programs as the first call would (blocking), so the size holds on this context until
        its tuning changes."""
        return self._attention_request(
            b, h, h_kv, lq, lk, d, None, None, None, None, q_offset=q_offset,
            q_strides=q_strides, k_offset=k_offset, k_strides=k_strides, v_offset=v_offset,
            v_strides=v_strides, out_offset=out_offset, out_strides=out_strides,
            q_dtype=q_dtype, k_dtype=k_dtype, v_dtype=v_dtype, out_dtype=out_dtype, scale=scale,
            causal=causal, causal_offset=causal_offset, lengths=lengths,
            lengths_offset=lengths_offset, lse=lse, lse_offset=lse_offset, precision=precision,
            launch=_LaunchArgs(queue, wait_for, workgroup_size, 0, workspace, workspace_offset,
                               workspace_size)).workspace_size()

    def _attention_request(self, b, h, h_kv, lq, lk, d, q, k, v, out, *, q_offset, q_strides,
                           k_offset, k_strides, v_offset, v_strides, out_offset, out_strides,
                           q_dtype, k_dtype, v_dtype, out_dtype, scale, causal, causal_offset,
                           lengths, lengths_offset, lse, lse_offset, precision, launch):
        """attention_buffers' and attention_workspace_size's call: the query's arguments are
        the call's without the four tensors' buffers."""
        q_code = dtype_code(q_dtype)
        options = _lib.AttentionOptions()
        options.size = ctypes.sizeof(_lib.AttentionOptions)
        options.scale = _attention_scale(scale, "oclfuse.attention_buffers")
        options.q_dtype = q_code
        options.k_dtype, options.v_dtype, options.out_dtype = (
            dtype_code(dtype) if dtype is not None else q_code
            for dtype in (k_dtype, v_dtype, out_dtype))
        options.causal = 1 if causal else 0
        if causal_offset is not None:  # without causal, the library refuses it
            options.causal_offset_set = 1
            options.causal_offset = _long_long(causal_offset, "causal_offset")
        options.lengths = _handle(lengths, "lengths")
        options.lengths_offset = _size(lengths_offset, "lengths_offset")
        options.lse = _handle(lse, "lse")
        options.lse_offset = _size(lse_offset, "lse_offset")
        options.precision = _choice(_PRECISIONS, precision, "precision")
        sizes = tuple(_size(value, what) for value, what in
                      zip((b, h, h_kv, lq, lk, d), ("b", "h", "h_kv", "lq", "lk", "d")))
        call_args, query_args = sizes, sizes
        for name, buffer, offset, strides in (("q", q, q_offset, q_strides),
                                              ("k", k, k_offset, k_strides),
                                              ("v", v, v_offset, v_strides),
                                              ("out", out, out_offset, out_strides)):
            placement = (_size(offset, name + "_offset"),
                         _tensor_strides(strides, name + "_strides"))
            call_args += (_handle(buffer, name),) + placement
            query_args += placement
        return _Request(self.handle, _lib.ocf_attention, call_args,
                        _lib.ocf_attention_workspace_size, query_args, options, launch)
