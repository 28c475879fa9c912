/* Arrival counters that kernels leave at zero: one set per in-order queue (runtime/arrivals.h). */
#include "runtime/context.h"

#include <stdlib.h>

/* `count` zeroed counters, written from the host at creation: no command on any queue. */
static ocf_status create_counters(ocf_context *ctx, size_t count, cl_mem *counters) {
  cl_uint *zeros = calloc(count, sizeof *zeros);
  if (!zeros) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "%zu arrival counters", count);
  cl_int err = CL_SUCCESS;
  *counters = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             count * sizeof *zeros, zeros, &err);
  free(zeros);
  if (err != CL_SUCCESS) {
    *counters = NULL;
    return ocf_fail_cl(err, "clCreateBuffer(arrival counters)");
  }
  return OCF_SUCCESS;
}

/* The set of `queue`, a free entry for it (in-order queues only), or NULL. */
static ocf_arrival_set *set_of(ocf_context *ctx, cl_command_queue queue) {
  ocf_arrival_set *free_set = NULL;
  for (int i = 0; i < OCF_ARRIVAL_QUEUES; i++) {
    ocf_arrival_set *set = &ctx->arrivals.sets[i];
    if (set->queue == queue) return set;
    if (!set->queue && !free_set) free_set = set;
  }
  cl_command_queue_properties properties = 0;
  if (!free_set ||
      clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, NULL) !=
          CL_SUCCESS ||
      (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ||
      clRetainCommandQueue(queue) != CL_SUCCESS)
    return NULL;
  free_set->queue = queue;
  return free_set;
}

ocf_status ocf_arrivals_take(ocf_context *ctx, cl_command_queue queue, size_t count,
                             ocf_arrival_use *use) {
  use->counters = NULL;
  use->set = set_of(ctx, queue);
  if (!use->set) return create_counters(ctx, count, &use->counters);
  ocf_arrival_set *set = use->set;
  if (set->count < count) {
    /* Grown: the new counters are zero, and the old ones go once the queue's commands on them
       have finished. */
    cl_mem grown = NULL;
    ocf_status status = create_counters(ctx, count, &grown);
    if (status != OCF_SUCCESS) {
      use->set = NULL;
      return status;
    }
    if (set->counters) ocf_release_after(set->counters, set->last);
    if (set->last) clReleaseEvent(set->last);
    set->counters = grown;
    set->count = count;
    set->last = NULL;
  }
  use->counters = set->counters;
  return OCF_SUCCESS;
}

void ocf_arrivals_used(const ocf_arrival_use *use, cl_event last) {
  if (!use->set) {
    if (use->counters) ocf_release_after(use->counters, last);
    return;
  }
  /* A retain that fails leaves the older event: grown counters may then be released before
     this call's kernel finishes, which OpenCL allows (the kernel keeps them alive). */
  if (!last || clRetainEvent(last) != CL_SUCCESS) return;
  if (use->set->last) clReleaseEvent(use->set->last);
  use->set->last = last;
}

void ocf_arrivals_free(ocf_context *ctx) {
  for (int i = 0; i < OCF_ARRIVAL_QUEUES; i++) {
    ocf_arrival_set *set = &ctx->arrivals.sets[i];
    if (set->counters) ocf_release_after(set->counters, set->last);
    if (set->last) clReleaseEvent(set->last);
    if (set->queue) clReleaseCommandQueue(set->queue);
    set->queue = NULL, set->counters = NULL, set->last = NULL, set->count = 0;
  }
}
