/* Argument checks shared by every operation. Each runs before anything is enqueued, so a call
   that fails here has changed nothing. */
#include "internal.h"

#include <stdint.h>

ocf_status ocf_matrix_extent(const char *name, size_t rows, size_t cols, size_t ld,
                             size_t *extent) {
  if (ld < cols)
    return ocf_fail(OCF_ERR_INVALID_STRIDE,
                    "%s: row stride %zu is shorter than its row of %zu elements", name, ld, cols);
  if (rows == 0 || cols == 0) {
    *extent = 0;
    return OCF_SUCCESS;
  }
  /* (rows - 1) * ld + cols, and the same in bytes, must fit in size_t. */
  size_t limit = SIZE_MAX / sizeof(float);
  if (cols > limit || (ld != 0 && rows - 1 > (limit - cols) / ld))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "%s: %zu rows of stride %zu overflow the addressable size", name, rows, ld);
  *extent = (rows - 1) * ld + cols;
  return OCF_SUCCESS;
}

/* Follows a sub-buffer to its parent, adding the sub-buffer's origin to *byte_offset. */
static cl_int resolve_parent(cl_mem buffer, cl_mem *parent, size_t *byte_offset) {
  cl_mem associated = NULL;
  cl_int err =
      clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof associated, &associated, NULL);
  if (err != CL_SUCCESS) return err;
  if (!associated) {
    *parent = buffer;
    return CL_SUCCESS;
  }
  size_t origin = 0;
  err = clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof origin, &origin, NULL);
  if (err != CL_SUCCESS) return err;
  *byte_offset += origin;
  *parent = associated;
  return CL_SUCCESS;
}

ocf_status ocf_check_buffer(const ocf_context *ctx, const char *name, cl_mem buffer, size_t offset,
                            size_t extent) {
  if (!buffer) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "buffer %s is NULL", name);
  cl_context owner = NULL;
  cl_int err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, name);
  if (owner != ctx->cl_ctx)
    return ocf_fail(OCF_ERR_CONTEXT_MISMATCH,
                    "buffer %s was created in another OpenCL context than the ocf_context's", name);
  size_t bytes = 0;
  err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, name);
  size_t capacity = bytes / sizeof(float);
  if (offset > capacity || extent > capacity - offset)
    return ocf_fail(OCF_ERR_BUFFER_TOO_SMALL,
                    "buffer %s holds %zu floats but offset %zu plus extent %zu needs more", name,
                    capacity, offset, extent);
  return OCF_SUCCESS;
}

int ocf_ranges_overlap(cl_mem a, size_t a_offset, size_t a_extent, cl_mem b, size_t b_offset,
                       size_t b_extent, int *same_start) {
  *same_start = 0;
  size_t a_start = a_offset * sizeof(float), b_start = b_offset * sizeof(float);
  cl_mem a_root = a, b_root = b;
  /* Both buffers were checked already; if the queries fail anyway, compare handles only. */
  if (resolve_parent(a, &a_root, &a_start) != CL_SUCCESS ||
      resolve_parent(b, &b_root, &b_start) != CL_SUCCESS) {
    a_root = a;
    b_root = b;
    a_start = a_offset * sizeof(float);
    b_start = b_offset * sizeof(float);
  }
  if (a_root != b_root || a_extent == 0 || b_extent == 0) return 0;
  *same_start = a_start == b_start;
  size_t a_end = a_start + a_extent * sizeof(float), b_end = b_start + b_extent * sizeof(float);
  return a_start < b_end && b_start < a_end;
}

ocf_status ocf_check_launch(const ocf_context *ctx, const ocf_launch *launch,
                            cl_command_queue *queue) {
  *queue = ctx->queue;
  if (!launch) return OCF_SUCCESS;
  if (launch->variant != OCF_VARIANT_AUTO && launch->variant != OCF_VARIANT_GENERAL &&
      launch->variant != OCF_VARIANT_BASELINE)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "launch variant %d is not an ocf_variant",
                    (int)launch->variant);
  if (launch->num_wait_events > 0 && !launch->wait_events)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "launch has %u wait events but wait_events is NULL",
                    (unsigned)launch->num_wait_events);
  if (launch->num_wait_events == 0 && launch->wait_events)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "launch has wait_events but num_wait_events is 0 (OpenCL refuses this)");
  if (launch->queue) {
    cl_context queue_context = NULL;
    cl_device_id queue_device = NULL;
    cl_int err = clGetCommandQueueInfo(launch->queue, CL_QUEUE_CONTEXT, sizeof queue_context,
                                       &queue_context, NULL);
    if (err == CL_SUCCESS)
      err = clGetCommandQueueInfo(launch->queue, CL_QUEUE_DEVICE, sizeof queue_device,
                                  &queue_device, NULL);
    if (err != CL_SUCCESS) return ocf_fail_cl(err, "launch queue");
    if (queue_context != ctx->cl_ctx || queue_device != ctx->device)
      return ocf_fail(OCF_ERR_CONTEXT_MISMATCH,
                      "launch queue belongs to another %s than the ocf_context's",
                      queue_context != ctx->cl_ctx ? "OpenCL context" : "device");
    *queue = launch->queue;
  }
  return OCF_SUCCESS;
}

ocf_status ocf_check_workgroup(const ocf_context *ctx, cl_kernel kernel, size_t dims,
                               const size_t *local) {
  /* A device may report more than three dimensions; the query must make room for all. */
  size_t item_limits[16] = {0};
  size_t limits_size = 0;
  cl_int err = clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, NULL, &limits_size);
  if (err == CL_SUCCESS &&
      (limits_size > sizeof item_limits || limits_size < dims * sizeof(size_t)))
    err = CL_INVALID_VALUE;
  if (err == CL_SUCCESS)
    err =
        clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, limits_size, item_limits, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)");
  size_t total = 1;
  for (size_t d = 0; d < dims; d++) {
    if (local[d] == 0)
      return ocf_fail(OCF_ERR_INVALID_WORKGROUP, "workgroup dimension %zu is 0", d);
    if (local[d] > item_limits[d])
      return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                      "workgroup dimension %zu is %zu, above the device's limit of %zu", d,
                      local[d], item_limits[d]);
    total *= local[d];
  }
  if (total > ctx->info.max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "workgroup of %zu work-items exceeds the device's maximum of %zu", total,
                    ctx->info.max_workgroup_size);
  size_t kernel_limit = 0;
  err = clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof kernel_limit, &kernel_limit, NULL);
  if (err != CL_SUCCESS)
    return ocf_fail_cl(err, "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
  if (total > kernel_limit)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "workgroup of %zu work-items exceeds this kernel's maximum of %zu (its "
                    "registers or local memory allow no more)",
                    total, kernel_limit);
  cl_ulong local_bytes = 0;
  err = clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_bytes,
                                 &local_bytes, NULL);
  if (err != CL_SUCCESS)
    return ocf_fail_cl(err, "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)");
  if (local_bytes > ctx->info.local_mem_bytes)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "kernel needs %llu bytes of local memory, the device has %llu",
                    (unsigned long long)local_bytes, (unsigned long long)ctx->info.local_mem_bytes);
  return OCF_SUCCESS;
}
