"""oclfuse: fused, tunable OpenCL kernels (liboclfuse) from Python.

    import numpy as np, oclfuse
    with oclfuse.Context() as ctx:                       # or Context("0:0"), Context("NVIDIA")
        y = ctx.softmax(np.random.rand(4, 1000).astype(np.float32), scale=0.5)
        c = ctx.matmul(a, b, bias=bias, activation="gelu")

numpy arrays go through the library's synchronous host forms; OpenCL buffers (pyopencl's, or
raw handles) through its asynchronous device forms (the *_buffers methods), zero-copy, on the
caller's queue and wait list, returning the call's event. Failures raise OclfuseError
subclasses carrying the status and the library's own text.
"""
from ._api import (BF16, BFLOAT16, F16, F32, Context, Event, bfloat16_to_float, devices,
                   dtype_code, float_to_bfloat16, float_to_half, half_to_float, last_plan,
                   numpy_dtype, version)
from ._errors import (AliasingError, BufferTooSmallError, BuildFailedError, ContextMismatchError,
                      EnqueuedWithoutEventError, InvalidSpecError, InvalidStrideError,
                      InvalidStructError, InvalidValueError, InvalidWorkgroupError,
                      KernelMismatchError, NoDeviceError, NullArgumentError, OclfuseError,
                      OpenCLError, OutOfHostMemoryError, SizeOverflowError, UnsupportedError)
from ._lib import path as library_path

__version__ = "0.4.0"

__all__ = [
    "Context", "Event", "F32", "F16", "BF16", "BFLOAT16", "version", "devices", "last_plan",
    "dtype_code", "numpy_dtype", "float_to_half", "half_to_float", "float_to_bfloat16",
    "bfloat16_to_float", "library_path", "OclfuseError", "NullArgumentError",
    "InvalidValueError", "SizeOverflowError", "BufferTooSmallError", "InvalidStrideError",
    "InvalidWorkgroupError", "AliasingError", "BuildFailedError", "NoDeviceError",
    "InvalidSpecError", "OutOfHostMemoryError", "UnsupportedError", "ContextMismatchError",
    "KernelMismatchError", "InvalidStructError", "EnqueuedWithoutEventError", "OpenCLError",
]
