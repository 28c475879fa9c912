"""Statuses as exceptions: one class per status of OCF_STATUS_LIST, all OclfuseError, and
OpenCLError for OpenCL's own codes. Each carries the status number, its name and the library's
text (ocf_last_error) about the failed call."""
from . import _lib


class OclfuseError(Exception):
    """A liboclfuse call failed. `status` is the ocf_status (an int), `name` its symbol
    ("OCF_ERR_ALIASING", "CL_OUT_OF_RESOURCES"), `detail` the library's text about this call
    (ocf_last_error(): which argument, which limit, the OpenCL error, the build log)."""

    def __init__(self, status, name, detail):
        self.status = status
        self.name = name
        self.detail = detail
        super().__init__("%s (%d): %s" % (name, status, detail or _message(status)))


def _message(status):
    return _lib.ocf_status_message(status).decode("utf-8", "replace")


class NullArgumentError(OclfuseError):
    """OCF_ERR_NULL_ARGUMENT: a required pointer or handle is NULL."""


class InvalidValueError(OclfuseError):
    """OCF_ERR_INVALID_VALUE: an argument is outside its allowed values."""


class SizeOverflowError(OclfuseError):
    """OCF_ERR_SIZE_OVERFLOW: the sizes give an extent that overflows."""


class BufferTooSmallError(OclfuseError):
    """OCF_ERR_BUFFER_TOO_SMALL: a buffer is smaller than its offset plus extent."""


class InvalidStrideError(OclfuseError):
    """OCF_ERR_INVALID_STRIDE: a row stride is shorter than a row."""


class InvalidWorkgroupError(OclfuseError):
    """OCF_ERR_INVALID_WORKGROUP: the workgroup size cannot run on this device and kernel."""


class AliasingError(OclfuseError):
    """OCF_ERR_ALIASING: an output overlaps an input where that is not allowed."""


class BuildFailedError(OclfuseError):
    """OCF_ERR_BUILD_FAILED: an OpenCL program failed to build (the detail holds the log)."""


class NoDeviceError(OclfuseError):
    """OCF_ERR_NO_DEVICE: no OpenCL device matches."""


class InvalidSpecError(OclfuseError):
    """OCF_ERR_INVALID_SPEC: the device spec is malformed."""


class OutOfHostMemoryError(OclfuseError):
    """OCF_ERR_OUT_OF_HOST_MEMORY."""


class UnsupportedError(OclfuseError):
    """OCF_ERR_UNSUPPORTED: the device or the library lacks a capability this call needs."""


class ContextMismatchError(OclfuseError):
    """OCF_ERR_CONTEXT_MISMATCH: a buffer or queue belongs to another OpenCL context."""


class KernelMismatchError(OclfuseError):
    """OCF_ERR_KERNEL_MISMATCH: a built kernel's arguments differ from its description."""


class InvalidStructError(OclfuseError):
    """OCF_ERR_INVALID_STRUCT: a struct's size member is not one this library knows."""


class EnqueuedWithoutEventError(OclfuseError):
    """OCF_ERR_ENQUEUED_WITHOUT_EVENT: the call is enqueued and will write its output, but its
    event could not be returned (wait for the queue before reading the output)."""


class OpenCLError(OclfuseError):
    """An OpenCL error code passed through (-1 .. -999): CL_OUT_OF_RESOURCES and the like."""


_BY_STATUS = {
    -2001: NullArgumentError,
    -2002: InvalidValueError,
    -2003: SizeOverflowError,
    -2004: BufferTooSmallError,
    -2005: InvalidStrideError,
    -2006: InvalidWorkgroupError,
    -2007: AliasingError,
    -2008: BuildFailedError,
    -2009: NoDeviceError,
    -2010: InvalidSpecError,
    -2011: OutOfHostMemoryError,
    -2012: UnsupportedError,
    -2013: ContextMismatchError,
    -2014: KernelMismatchError,
    -2015: InvalidStructError,
    -2016: EnqueuedWithoutEventError,
}


def error_for(status):
    """The exception for a failed status, with the calling thread's ocf_last_error() text."""
    name = _lib.ocf_status_name(status).decode("utf-8", "replace")
    detail = (_lib.ocf_last_error() or b"").decode("utf-8", "replace")
    cls = _BY_STATUS.get(status, OpenCLError if -1000 < status < 0 else OclfuseError)
    return cls(status, name, detail)


def check(status):
    """Raises the status's exception unless it is OCF_SUCCESS (0)."""
    if status != 0:
        raise error_for(status)
