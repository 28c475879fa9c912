/* Device buffers for the synchronous host-array calls. */
#include "runtime/context.h"

#include <stdint.h>

ocf_status ocf_host_bytes(ocf_context *ctx, cl_mem_flags flags, size_t bytes, const void *data,
                          cl_mem *buffer) {
  cl_int err = CL_SUCCESS;
  if (data && bytes) flags |= CL_MEM_COPY_HOST_PTR;
  *buffer = clCreateBuffer(ctx->cl_ctx, flags, bytes ? bytes : 1,
                           data && bytes ? (void *)data : NULL, &err);
  if (err != CL_SUCCESS) {
    *buffer = NULL;
    return ocf_fail_cl(err, "clCreateBuffer");
  }
  return OCF_SUCCESS;
}

ocf_status ocf_host_read_bytes(ocf_context *ctx, cl_mem buffer, size_t offset, size_t bytes,
                               void *data, cl_event after) {
  if (bytes == 0) return OCF_SUCCESS;
  cl_int err = clEnqueueReadBuffer(ctx->queue, buffer, CL_TRUE, offset, bytes, data, after ? 1 : 0,
                                   after ? &after : NULL, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueReadBuffer");
  return OCF_SUCCESS;
}

int ocf_host_ranges_meet(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return a_bytes && b_bytes && x < y + b_bytes && y < x + a_bytes;
}

ocf_status ocf_host_buffer(ocf_context *ctx, cl_mem_flags flags, size_t count, const float *data,
                           cl_mem *buffer) {
  /* One float for none, as it always was: a valid handle of a whole element. */
  if (!count) return ocf_host_bytes(ctx, flags, sizeof(float), NULL, buffer);
  return ocf_host_bytes(ctx, flags, count * sizeof(float), data, buffer);
}

ocf_status ocf_host_read(ocf_context *ctx, cl_mem buffer, size_t count, float *data,
                         cl_event after) {
  return ocf_host_read_bytes(ctx, buffer, 0, count * sizeof(float), data, after);
}
