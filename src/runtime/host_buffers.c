/* Device buffers for the synchronous host-array calls. */
#include "runtime/context.h"

ocf_status ocf_host_buffer(ocf_context *ctx, cl_mem_flags flags, size_t count, const float *data,
                           cl_mem *buffer) {
  size_t bytes = (count ? count : 1) * sizeof(float);
  cl_int err = CL_SUCCESS;
  if (data && count) flags |= CL_MEM_COPY_HOST_PTR;
  *buffer = clCreateBuffer(ctx->cl_ctx, flags, bytes, data && count ? (void *)data : NULL, &err);
  if (err != CL_SUCCESS) {
    *buffer = NULL;
    return ocf_fail_cl(err, "clCreateBuffer");
  }
  return OCF_SUCCESS;
}

ocf_status ocf_host_read(ocf_context *ctx, cl_mem buffer, size_t count, float *data,
                         cl_event after) {
  if (count == 0) return OCF_SUCCESS;
  cl_int err = clEnqueueReadBuffer(ctx->queue, buffer, CL_TRUE, 0, count * sizeof(float), data,
                                   after ? 1 : 0, after ? &after : NULL, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueReadBuffer");
  return OCF_SUCCESS;
}
