"""Loads liboclfuse with ctypes and declares the C API (include/oclfuse.h) to it.

Lookup order: the OCLFUSE_LIBRARY environment variable (a path), then a library bundled next
to this package (oclfuse/liboclfuse.so*), then the system's (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import glob
import os
import sys

c_size_t = ctypes.c_size_t
c_int = ctypes.c_int
c_uint = ctypes.c_uint
c_float = ctypes.c_float
c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_uint64 = ctypes.c_uint64
c_uint16_p = ctypes.POINTER(ctypes.c_uint16)
c_float_p = ctypes.POINTER(ctypes.c_float)
c_uint_p = ctypes.POINTER(ctypes.c_uint)


def _candidates():
    path = os.environ.get("OCLFUSE_LIBRARY")
    if path:
        yield path
        return
    here = os.path.dirname(os.path.abspath(__file__))
    patterns = ["liboclfuse.so*", "liboclfuse*.dylib", "oclfuse.dll"]
    for pattern in patterns:
        for found in sorted(glob.glob(os.path.join(here, pattern))):
            yield found
    found = ctypes.util.find_library("oclfuse")
    if found:
        yield found


def _load():
    tried = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate), candidate
        except OSError as error:
            tried.append("%s (%s)" % (candidate, error))
    raise ImportError(
        "oclfuse: liboclfuse not found; set OCLFUSE_LIBRARY to the library's path, install "
        "liboclfuse (its .deb or `cmake --install`), or copy liboclfuse.so next to the "
        "package. Tried: %s" % (", ".join(tried) or "nothing (no candidate)"))


lib, path = _load()


class Launch(ctypes.Structure):
    """ocf_launch, the caller's workspace included (size is sizeof the whole struct, as
    OCF_LAUNCH_INIT sets it)."""
    _fields_ = [
        ("size", c_size_t),
        ("workgroup_size", c_size_t),
        ("queue", c_void_p),
        ("num_wait_events", c_uint),
        ("wait_events", ctypes.POINTER(c_void_p)),
        ("event", ctypes.POINTER(c_void_p)),
        ("variant", c_int),
        ("first_event", ctypes.POINTER(c_void_p)),
        ("workspace", c_void_p),
        ("workspace_offset", c_size_t),
        ("workspace_size", c_size_t),
    ]


class SoftmaxOptions(ctypes.Structure):
    """ocf_softmax_options, the causal band included (a library older than the band reads the
    members up to lengths_offset and ignores the rest)."""
    _fields_ = [
        ("size", c_size_t),
        ("in_dtype", c_int),
        ("out_dtype", c_int),
        ("scale", c_float),
        ("log", c_int),
        ("lengths", c_void_p),
        ("lengths_offset", c_size_t),
        ("causal", c_int),
        ("causal_period", c_size_t),
        ("causal_offset", c_size_t),
    ]


class MatmulOptions(ctypes.Structure):
    """ocf_matmul_options (the members of 0.2)."""
    _fields_ = [
        ("size", c_size_t),
        ("a_dtype", c_int),
        ("b_dtype", c_int),
        ("c_dtype", c_int),
        ("precision", c_int),
        ("layout", c_int),
        ("batch", c_size_t),
        ("stride_a", c_size_t),
        ("stride_b", c_size_t),
        ("stride_c", c_size_t),
        ("activation", c_int),
        ("bias_axis", c_int),
        ("bias", c_void_p),
        ("bias_offset", c_size_t),
        ("bias_dtype", c_int),
    ]


class NormOptions(ctypes.Structure):
    """ocf_norm_options (0.4: LayerNorm and RMSNorm)."""
    _fields_ = [
        ("size", c_size_t),
        ("in_dtype", c_int),
        ("out_dtype", c_int),
        ("eps", c_float),
        ("weight", c_void_p),
        ("weight_offset", c_size_t),
        ("bias", c_void_p),
        ("bias_offset", c_size_t),
        ("weight_dtype", c_int),
        ("residual", c_void_p),
        ("residual_offset", c_size_t),
        ("residual_ld", c_size_t),
        ("residual_dtype", c_int),
        ("residual_out", c_void_p),
        ("residual_out_offset", c_size_t),
        ("residual_out_ld", c_size_t),
        ("mean", c_void_p),
        ("mean_offset", c_size_t),
        ("rstd", c_void_p),
        ("rstd_offset", c_size_t),
    ]


class AttentionOptions(ctypes.Structure):
    """ocf_attention_options (0.4, with precision)."""
    _fields_ = [
        ("size", c_size_t),
        ("scale", c_float),
        ("q_dtype", c_int),
        ("k_dtype", c_int),
        ("v_dtype", c_int),
        ("out_dtype", c_int),
        ("causal", c_int),
        ("causal_offset_set", c_int),
        ("causal_offset", ctypes.c_longlong),
        ("lengths", c_void_p),
        ("lengths_offset", c_size_t),
        ("lse", c_void_p),
        ("lse_offset", c_size_t),
        ("precision", c_int),
    ]


class DeviceInfo(ctypes.Structure):
    """ocf_device_info."""
    _fields_ = [
        ("size", c_size_t),
        ("platform_index", c_uint),
        ("device_index", c_uint),
        ("platform", c_void_p),
        ("device", c_void_p),
        ("type", c_uint64),
        ("platform_name", ctypes.c_char * 128),
        ("device_name", ctypes.c_char * 128),
        ("vendor", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 64),
        ("device_version", ctypes.c_char * 64),
        ("compute_units", c_uint),
        ("max_clock_mhz", c_uint),
        ("global_mem_bytes", c_uint64),
        ("local_mem_bytes", c_uint64),
        ("max_workgroup_size", c_size_t),
        ("max_work_item_sizes", c_size_t * 3),
        ("max_alloc_bytes", c_uint64),
        ("nv_compute_capability_major", c_uint),
        ("nv_compute_capability_minor", c_uint),
    ]


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


_status = c_int
_ctx = c_void_p
_mem = c_void_p

ocf_version_number = _declare("ocf_version_number", c_uint)
ocf_version_string = _declare("ocf_version_string", c_char_p)

# The structs above are those of 0.4 (the softmax band's fields, the norms and attention); an
# older library would read them only up to its own sizes and silently drop what it does not know.
_NEEDED_VERSION = 400
if ocf_version_number() < _NEEDED_VERSION:
    raise ImportError(
        f"oclfuse: {path} is liboclfuse {ocf_version_string().decode()}; this package "
        f"needs 0.4 or newer (set OCLFUSE_LIBRARY to a newer build)")
ocf_status_name = _declare("ocf_status_name", c_char_p, _status)
ocf_status_message = _declare("ocf_status_message", c_char_p, _status)
ocf_last_error = _declare("ocf_last_error", c_char_p)
ocf_last_plan = _declare("ocf_last_plan", c_char_p)
ocf_devices_list = _declare("ocf_devices_list", _status, ctypes.POINTER(DeviceInfo), c_size_t,
                            ctypes.POINTER(c_size_t))
ocf_context_create = _declare("ocf_context_create", _status, c_char_p, ctypes.POINTER(_ctx))
ocf_context_wrap = _declare("ocf_context_wrap", _status, c_void_p, c_void_p, c_void_p,
                            ctypes.POINTER(_ctx))
ocf_context_release = _declare("ocf_context_release", None, _ctx)
ocf_context_cl_context = _declare("ocf_context_cl_context", c_void_p, _ctx)
ocf_context_device = _declare("ocf_context_device", c_void_p, _ctx)
ocf_context_queue = _declare("ocf_context_queue", c_void_p, _ctx)
ocf_context_device_info = _declare("ocf_context_device_info", _status, _ctx,
                                   ctypes.POINTER(DeviceInfo))
ocf_context_set_tuning = _declare("ocf_context_set_tuning", _status, _ctx, c_char_p, c_int,
                                  c_char_p, c_char_p)
ocf_context_get_tuning = _declare("ocf_context_get_tuning", _status, _ctx, c_char_p, c_int,
                                  c_char_p, c_char_p, c_size_t)
ocf_context_tuning_origin = _declare("ocf_context_tuning_origin", c_char_p, _ctx)
ocf_warmup = _declare("ocf_warmup", _status, _ctx, c_char_p, ctypes.POINTER(c_size_t))

ocf_add = _declare("ocf_add", _status, _ctx, c_size_t, _mem, c_size_t, _mem, c_size_t, _mem,
                   c_size_t, ctypes.POINTER(Launch))
ocf_add_host = _declare("ocf_add_host", _status, _ctx, c_size_t, c_void_p, c_void_p, c_void_p)
ocf_softmax_ex = _declare("ocf_softmax_ex", _status, _ctx, c_size_t, c_size_t, _mem, c_size_t,
                          c_size_t, _mem, c_size_t, c_size_t, ctypes.POINTER(SoftmaxOptions),
                          ctypes.POINTER(Launch))
ocf_softmax_host_ex = _declare("ocf_softmax_host_ex", _status, _ctx, c_size_t, c_size_t, c_void_p,
                               c_size_t, c_void_p, c_size_t, c_void_p,
                               ctypes.POINTER(SoftmaxOptions))
ocf_matmul_ex = _declare("ocf_matmul_ex", _status, _ctx, c_int, c_int, c_size_t, c_size_t,
                         c_size_t, c_float, _mem, c_size_t, c_size_t, _mem, c_size_t, c_size_t,
                         c_float, _mem, c_size_t, c_size_t, ctypes.POINTER(MatmulOptions),
                         ctypes.POINTER(Launch))
ocf_matmul_host_ex = _declare("ocf_matmul_host_ex", _status, _ctx, c_int, c_int, c_size_t,
                              c_size_t, c_size_t, c_float, c_void_p, c_size_t, c_void_p, c_size_t,
                              c_float, c_void_p, c_size_t, c_void_p,
                              ctypes.POINTER(MatmulOptions))
ocf_layernorm_host = _declare("ocf_layernorm_host", _status, _ctx, c_size_t, c_size_t, c_void_p,
                              c_size_t, c_void_p, c_size_t, c_void_p, c_void_p, c_void_p,
                              c_void_p, c_void_p, c_void_p, ctypes.POINTER(NormOptions))
ocf_rmsnorm_host = _declare("ocf_rmsnorm_host", _status, _ctx, c_size_t, c_size_t, c_void_p,
                            c_size_t, c_void_p, c_size_t, c_void_p, c_void_p, c_void_p, c_void_p,
                            ctypes.POINTER(NormOptions))
_strides = ctypes.POINTER(c_size_t)
ocf_attention_host = _declare("ocf_attention_host", _status, _ctx, c_size_t, c_size_t, c_size_t,
                              c_size_t, c_size_t, c_size_t, c_void_p, _strides, c_void_p,
                              _strides, c_void_p, _strides, c_void_p, _strides, c_void_p,
                              c_void_p, ctypes.POINTER(AttentionOptions))
ocf_layernorm = _declare("ocf_layernorm", _status, _ctx, c_size_t, c_size_t, _mem, c_size_t,
                         c_size_t, _mem, c_size_t, c_size_t, ctypes.POINTER(NormOptions),
                         ctypes.POINTER(Launch))
ocf_rmsnorm = _declare("ocf_rmsnorm", _status, _ctx, c_size_t, c_size_t, _mem, c_size_t, c_size_t,
                       _mem, c_size_t, c_size_t, ctypes.POINTER(NormOptions),
                       ctypes.POINTER(Launch))
ocf_attention = _declare("ocf_attention", _status, _ctx, c_size_t, c_size_t, c_size_t, c_size_t,
                         c_size_t, c_size_t, _mem, c_size_t, _strides, _mem, c_size_t, _strides,
                         _mem, c_size_t, _strides, _mem, c_size_t, _strides,
                         ctypes.POINTER(AttentionOptions), ctypes.POINTER(Launch))
_bytes_out = ctypes.POINTER(c_size_t)
ocf_softmax_workspace_size = _declare("ocf_softmax_workspace_size", _status, _ctx, c_size_t,
                                      c_size_t, _mem, c_size_t, c_size_t, _mem, c_size_t,
                                      c_size_t, ctypes.POINTER(SoftmaxOptions),
                                      ctypes.POINTER(Launch), _bytes_out)
ocf_matmul_workspace_size = _declare("ocf_matmul_workspace_size", _status, _ctx, c_int, c_int,
                                     c_size_t, c_size_t, c_size_t, c_float, _mem, c_size_t,
                                     c_size_t, _mem, c_size_t, c_size_t, c_float, _mem, c_size_t,
                                     c_size_t, ctypes.POINTER(MatmulOptions),
                                     ctypes.POINTER(Launch), _bytes_out)
ocf_norm_workspace_size = _declare("ocf_norm_workspace_size", _status, _ctx, c_int, c_size_t,
                                   c_size_t, c_size_t, c_size_t, c_size_t, c_size_t,
                                   ctypes.POINTER(NormOptions), ctypes.POINTER(Launch),
                                   _bytes_out)
ocf_attention_workspace_size = _declare("ocf_attention_workspace_size", _status, _ctx, c_size_t,
                                        c_size_t, c_size_t, c_size_t, c_size_t, c_size_t,
                                        c_size_t, _strides, c_size_t, _strides, c_size_t,
                                        _strides, c_size_t, _strides,
                                        ctypes.POINTER(AttentionOptions), ctypes.POINTER(Launch),
                                        _bytes_out)
ocf_float_to_half = _declare("ocf_float_to_half", _status, c_size_t, c_void_p, c_void_p)
ocf_half_to_float = _declare("ocf_half_to_float", _status, c_size_t, c_void_p, c_void_p)
ocf_float_to_bfloat16 = _declare("ocf_float_to_bfloat16", _status, c_size_t, c_void_p, c_void_p)
ocf_bfloat16_to_float = _declare("ocf_bfloat16_to_float", _status, c_size_t, c_void_p, c_void_p)


def _load_opencl():
    """The OpenCL ICD loader (the one liboclfuse links, loaded once in the process), for the
    events of a call when pyopencl is not installed and for the size of a lent workspace."""
    for name in ("OpenCL", "libOpenCL.so.1"):
        found = ctypes.util.find_library(name) if name == "OpenCL" else name
        if not found:
            continue
        try:
            opencl = ctypes.CDLL(found)
        except OSError:
            continue
        opencl.clWaitForEvents.restype = c_int
        opencl.clWaitForEvents.argtypes = [c_uint, ctypes.POINTER(c_void_p)]
        opencl.clReleaseEvent.restype = c_int
        opencl.clReleaseEvent.argtypes = [c_void_p]
        opencl.clRetainEvent.restype = c_int
        opencl.clRetainEvent.argtypes = [c_void_p]
        opencl.clGetEventInfo.restype = c_int
        opencl.clGetEventInfo.argtypes = [c_void_p, c_uint, c_size_t, c_void_p,
                                          ctypes.POINTER(c_size_t)]
        opencl.clGetMemObjectInfo.restype = c_int
        opencl.clGetMemObjectInfo.argtypes = [c_void_p, c_uint, c_size_t, c_void_p,
                                              ctypes.POINTER(c_size_t)]
        return opencl
    return None


opencl = _load_opencl() if sys.platform != "win32" else None
