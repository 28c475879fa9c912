/*
 * Helpers of the _host convenience calls (host_buffers.c).
 */
#ifndef OCLFUSE_HOST_BUFFERS_H
#define OCLFUSE_HOST_BUFFERS_H

#include "common.h"

#include <stddef.h>

/* ---- host_buffers.c: helpers for the _host convenience calls ---- */

/* Creates a buffer of `bytes` with `flags` holding a copy of `data` (NULL: uninitialised), made
   by clCreateBuffer: nothing is enqueued. 0 bytes allocate one, so that a valid handle exists
   for empty work. */
ocf_status ocf_host_bytes(ocf_context *ctx, cl_mem_flags flags, size_t bytes, const void *data,
                          cl_mem *buffer);
/* Blocking read of `bytes` at byte `offset` of `buffer` into `data` (nothing for 0), after
   `after` (the call's event; NULL: none). The context's queue may be out of order
   (ocf_context_wrap), where a read-back with no wait list may run before the kernels that write
   the buffer. */
ocf_status ocf_host_read_bytes(ocf_context *ctx, cl_mem buffer, size_t offset, size_t bytes,
                               void *data, cl_event after);
/* Whether the host byte ranges [a, a + a_bytes) and [b, b + b_bytes) meet (empty ranges never
   do): the host forms' aliasing rule. */
int ocf_host_ranges_meet(const void *a, size_t a_bytes, const void *b, size_t b_bytes);
/* ocf_host_bytes of `count` floats (0: one float, uninitialised). */
ocf_status ocf_host_buffer(ocf_context *ctx, cl_mem_flags flags, size_t count, const float *data,
                           cl_mem *buffer);
/* ocf_host_read_bytes of `count` floats from the start of `buffer`. */
ocf_status ocf_host_read(ocf_context *ctx, cl_mem buffer, size_t count, float *data,
                         cl_event after);

#endif /* OCLFUSE_HOST_BUFFERS_H */
