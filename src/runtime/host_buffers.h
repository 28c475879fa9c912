/*
 * Helpers of the _host convenience calls (host_buffers.c).
 */
#ifndef OCLFUSE_HOST_BUFFERS_H
#define OCLFUSE_HOST_BUFFERS_H

#include "common.h"

#include <stddef.h>

/* ---- host_buffers.c: helpers for the _host convenience calls ---- */

/* Creates a read-only (or read-write) buffer of `count` floats initialised from `data` (NULL:
   uninitialised). count 0 allocates one float so that a valid handle exists. */
ocf_status ocf_host_buffer(ocf_context *ctx, cl_mem_flags flags, size_t count, const float *data,
                           cl_mem *buffer);
/* Blocking read of `count` floats from the start of `buffer` into `data`, after `after` (the
   call's event; NULL: none). The context's queue may be out of order (ocf_context_wrap), where
   a read-back with no wait list may run before the kernels that write the buffer. */
ocf_status ocf_host_read(ocf_context *ctx, cl_mem buffer, size_t count, float *data,
                         cl_event after);

#endif /* OCLFUSE_HOST_BUFFERS_H */
