/* The scratch memory of a call of several kernels: the caller's workspace, the context's pool, or
   a buffer of the call's own (include/oclfuse.h, "Workspaces"). */
#include "runtime/context.h"

#include <stdlib.h>

static void CL_CALLBACK release_buffer(cl_event event, cl_int event_status, void *buffer) {
  (void)event, (void)event_status;
  clReleaseMemObject((cl_mem)buffer);
}

/* OpenCL would keep a buffer released right after enqueue alive anyway; releasing it from the
   completion callback also keeps implementations that free early (Oclgrind) from reading freed
   scratch. */
void ocf_release_after(cl_mem buffer, cl_event done) {
  if (!done || clSetEventCallback(done, CL_COMPLETE, release_buffer, buffer) != CL_SUCCESS)
    clReleaseMemObject(buffer);
}

/* A scratch buffer; small ones zero-filled from the host (*zeroed set). The kernels write every
   value before reading it but softmax_coop's slots, which start at zero, and Oclgrind 21.10
   misreports writes to a fresh uninitialised buffer that reuses a freed one's memory, and does not
   count a device fill as initialisation: so small scratch (softmax's per-row statistics, every
   scratch of the small test shapes Oclgrind runs) comes zeroed from the host, where the copy
   costs a few bytes a row. Larger scratch (matmul's split-K sums, megabytes) is zeroed on the
   device by the launch: a host copy of zeros would cross the bus every time. */
static ocf_status create_buffer(ocf_context *ctx, size_t bytes, cl_mem *buffer, int *zeroed) {
  void *zeros = NULL;
  if (bytes <= OCF_SCRATCH_HOST_ZEROED_MAX) {
    zeros = calloc(1, bytes);
    if (!zeros) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "scratch of %zu bytes", bytes);
  }
  cl_int err = CL_SUCCESS;
  *buffer = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | (zeros ? CL_MEM_COPY_HOST_PTR : 0),
                           bytes, zeros, &err);
  free(zeros);
  if (err != CL_SUCCESS) {
    *buffer = NULL;
    return ocf_fail_cl(err, "clCreateBuffer(scratch)");
  }
  *zeroed = zeros != NULL;
  return OCF_SUCCESS;
}

ocf_status ocf_scratch_create(ocf_context *ctx, size_t bytes, cl_mem *buffer) {
  int zeroed = 0;
  return create_buffer(ctx, bytes, buffer, &zeroed);
}

/* The buffer a sub-buffer of `buffer` must be made from (a sub-buffer's parent: OpenCL makes no
   sub-buffer of a sub-buffer), and the byte where `buffer` starts in it. */
static ocf_status root_of(cl_mem buffer, cl_mem *root, size_t *base) {
  cl_mem parent = NULL;
  size_t offset = 0;
  cl_int err =
      clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
  if (err == CL_SUCCESS && parent)
    err = clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof offset, &offset, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "launch workspace: clGetMemObjectInfo");
  *root = parent ? parent : buffer;
  *base = parent ? offset : 0;
  return OCF_SUCCESS;
}

ocf_status ocf_base_address_align(const ocf_context *ctx, size_t *bytes) {
  cl_uint align_bits = 0;
  cl_int err = clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                               &align_bits, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
  *bytes = align_bits >= 8 ? align_bits / 8 : 1;
  return OCF_SUCCESS;
}

ocf_status ocf_workspace_check(const ocf_context *ctx, const ocf_launch *launch) {
  if (!launch->workspace) {
    if (launch->workspace_offset || launch->workspace_size)
      return ocf_fail(OCF_ERR_NULL_ARGUMENT,
                      "launch workspace is NULL but its offset (%zu) or size (%zu) is not 0",
                      launch->workspace_offset, launch->workspace_size);
    return OCF_SUCCESS;
  }
  ocf_status status = ocf_check_buffer(ctx, "launch workspace", launch->workspace,
                                       launch->workspace_offset, launch->workspace_size, 1);
  if (status != OCF_SUCCESS || launch->workspace_offset == 0) return status;
  size_t align = 1;
  if ((status = ocf_base_address_align(ctx, &align)) != OCF_SUCCESS) return status;
  cl_mem root = NULL;
  size_t base = 0;
  if ((status = root_of(launch->workspace, &root, &base)) != OCF_SUCCESS) return status;
  if ((base + launch->workspace_offset) % align != 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "launch workspace_offset %zu is not a multiple of the device's "
                    "CL_DEVICE_MEM_BASE_ADDR_ALIGN, %zu bytes%s",
                    launch->workspace_offset, align,
                    base ? " (counted from the start of the workspace's parent buffer)" : "");
  return OCF_SUCCESS;
}

ocf_status ocf_workspace_check_disjoint(const ocf_launch *launch, const char *what, cl_mem buffer,
                                        size_t start, size_t bytes) {
  if (!launch->workspace || !buffer || bytes == 0 || launch->workspace_size == 0)
    return OCF_SUCCESS;
  int overlap = 0, same_start = 0;
  ocf_status status =
      ocf_ranges_overlap(launch->workspace, launch->workspace_offset, launch->workspace_size,
                         buffer, start, bytes, &overlap, &same_start);
  if (status != OCF_SUCCESS) return status;
  if (overlap) return ocf_fail(OCF_ERR_ALIASING, "%s overlaps the launch workspace", what);
  return OCF_SUCCESS;
}

ocf_status ocf_scratch_prepare(ocf_context *ctx, cl_command_queue queue, const ocf_launch *launch,
                               size_t bytes, ocf_scratch *s) {
  s->mem = NULL;
  s->owned = s->pooled = s->zeroed = 0;
  if (launch->workspace) {
    if (launch->workspace_size < bytes)
      return ocf_fail(OCF_ERR_BUFFER_TOO_SMALL,
                      "launch workspace holds %zu bytes; this call needs %zu, as no plan of it "
                      "takes less (the op's _workspace_size function gives it)",
                      launch->workspace_size, bytes);
    if (launch->workspace_offset == 0) {
      s->mem = launch->workspace;
      return OCF_SUCCESS;
    }
    cl_mem root = NULL;
    size_t base = 0;
    ocf_status status = root_of(launch->workspace, &root, &base);
    if (status != OCF_SUCCESS) return status;
    const cl_buffer_region region = {base + launch->workspace_offset, bytes};
    cl_int err = CL_SUCCESS;
    s->mem = clCreateSubBuffer(root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS) {
      s->mem = NULL;
      return ocf_fail_cl(err, "clCreateSubBuffer(launch workspace)");
    }
    s->owned = 1;
    return OCF_SUCCESS;
  }
  if (ctx->pool.usable && queue == ctx->queue) {
    s->pooled = 1; /* taken under the lock, once every kernel is built */
    return OCF_SUCCESS;
  }
  ocf_status status = create_buffer(ctx, bytes, &s->mem, &s->zeroed);
  s->owned = status == OCF_SUCCESS;
  return status;
}

ocf_status ocf_scratch_pool_take(ocf_context *ctx, size_t bytes, ocf_scratch *s) {
  ocf_workspace_pool *pool = &ctx->pool;
  if (pool->buffer && pool->bytes >= bytes) {
    s->mem = pool->buffer;
    s->zeroed = 0;
    return OCF_SUCCESS;
  }
  cl_mem fresh = NULL;
  int zeroed = 0;
  ocf_status status = create_buffer(ctx, bytes, &fresh, &zeroed);
  if (status != OCF_SUCCESS) return status;
  /* The smaller buffer goes once the commands enqueued on it so far have finished. */
  if (pool->buffer) ocf_release_after(pool->buffer, pool->last);
  if (pool->last) clReleaseEvent(pool->last);
  pool->buffer = fresh;
  pool->bytes = bytes;
  pool->last = NULL;
  pool->creations++;
  s->mem = fresh;
  s->zeroed = zeroed;
  return OCF_SUCCESS;
}

ocf_status ocf_pool_borrow(ocf_context *ctx, size_t bytes, cl_mem *buffer, size_t *held) {
  ocf_workspace_pool *pool = &ctx->pool;
  ocf_status status = OCF_SUCCESS;
  pthread_mutex_lock(&ctx->lock);
  *held = bytes;
  if (pool->buffer && pool->bytes >= bytes) {
    *buffer = pool->buffer;
    *held = pool->bytes;
  } else {
    int zeroed = 0;
    status = create_buffer(ctx, bytes, buffer, &zeroed);
    if (status == OCF_SUCCESS) pool->creations++;
    /* The smaller buffer goes once the commands enqueued on it so far have finished. */
    if (status == OCF_SUCCESS && pool->buffer) ocf_release_after(pool->buffer, pool->last);
  }
  if (status == OCF_SUCCESS) {
    /* Out of the pool: the queue's order puts the borrower's commands after those the event
       tracked, and other calls meanwhile find the pool empty and create their own. */
    if (pool->last) clReleaseEvent(pool->last);
    pool->buffer = NULL;
    pool->bytes = 0;
    pool->last = NULL;
  }
  pthread_mutex_unlock(&ctx->lock);
  return status;
}

void ocf_pool_give_back(ocf_context *ctx, cl_mem buffer, size_t bytes, cl_event last) {
  ocf_workspace_pool *pool = &ctx->pool;
  pthread_mutex_lock(&ctx->lock);
  if (pool->buffer && pool->bytes >= bytes) {
    /* Another call filled the pool meanwhile with at least as much: keep that one. */
    pthread_mutex_unlock(&ctx->lock);
    ocf_release_after(buffer, last);
    return;
  }
  if (pool->buffer) ocf_release_after(pool->buffer, pool->last);
  if (pool->last) clReleaseEvent(pool->last);
  pool->buffer = buffer;
  pool->bytes = bytes;
  pool->last = last && clRetainEvent(last) == CL_SUCCESS ? last : NULL;
  pthread_mutex_unlock(&ctx->lock);
}

void ocf_scratch_used(ocf_context *ctx, const ocf_scratch *s, cl_event last) {
  if (!s->pooled || !last) return;
  /* A retain that fails leaves the older event: the buffer, should the pool grow, is then
     released before this call's commands finish, which OpenCL allows (they keep it alive). */
  if (clRetainEvent(last) != CL_SUCCESS) return;
  if (ctx->pool.last) clReleaseEvent(ctx->pool.last);
  ctx->pool.last = last;
}

void ocf_scratch_release(const ocf_scratch *s, cl_event last) {
  if (s->owned && s->mem) ocf_release_after(s->mem, last);
}

void ocf_workspace_pool_free(ocf_context *ctx) {
  if (ctx->pool.buffer) clReleaseMemObject(ctx->pool.buffer);
  if (ctx->pool.last) clReleaseEvent(ctx->pool.last);
  ctx->pool.buffer = NULL;
  ctx->pool.last = NULL;
  ctx->pool.bytes = 0;
}

ocf_status ocf_context_workspace_pool(ocf_context *ctx, size_t *bytes, size_t *creations) {
  ocf_error_clear();
  if (!ctx || !bytes)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_workspace_pool: %s is NULL",
                    !ctx ? "ctx" : "bytes");
  pthread_mutex_lock(&ctx->lock);
  *bytes = ctx->pool.bytes;
  if (creations) *creations = ctx->pool.creations;
  pthread_mutex_unlock(&ctx->lock);
  return OCF_SUCCESS;
}

ocf_status ocf_context_trim_workspace(ocf_context *ctx) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_trim_workspace: ctx is NULL");
  pthread_mutex_lock(&ctx->lock);
  if (ctx->pool.buffer) ocf_release_after(ctx->pool.buffer, ctx->pool.last);
  if (ctx->pool.last) clReleaseEvent(ctx->pool.last);
  ctx->pool.buffer = NULL;
  ctx->pool.last = NULL;
  ctx->pool.bytes = 0;
  pthread_mutex_unlock(&ctx->lock);
  return OCF_SUCCESS;
}
