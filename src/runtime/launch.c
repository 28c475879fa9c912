/* Running a plan: build and check every kernel, then bind and enqueue them in order. */
#include "runtime/context.h"
#include "runtime/log.h"

#include <stdio.h>
#include <stdlib.h>

void ocf_context_facts(ocf_context *ctx, ocf_device_facts *facts) {
  pthread_mutex_lock(&ctx->lock);
  *facts = ctx->facts;
  pthread_mutex_unlock(&ctx->lock);
}

/* Checks a built kernel against the step that will run it. A default size above the kernel's
   own limit is learnt (the caller re-plans); a fixed one is refused by name. */
static ocf_status check_step(ocf_context *ctx, const ocf_plan *plan, const ocf_plan_step *step,
                             const ocf_built_kernel *kernel, int *replan) {
  size_t items = step->local[0] * step->local[1] * step->local[2];
  if (items > kernel->max_workgroup) {
    /* Learnt here or, since this call copied the facts, by another thread's call: either way a
       plan made from the facts as they are now fits. */
    if (!plan->fixed_workgroup) {
      size_t *known = &ctx->facts.kernel_max_workgroup[step->kernel];
      if (*known == 0 || *known > kernel->max_workgroup) *known = kernel->max_workgroup;
      *replan = 1;
    }
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "workgroup of %zu work-items exceeds this kernel's maximum of %zu (%s: its "
                    "registers or local memory allow no more)",
                    items, kernel->max_workgroup, kernel->desc->name);
  }
  const unsigned long long local_limit = ocf_facts_kernel_local_limit(&ctx->facts, plan->program);
  if (!plan->is_probe && kernel->local_bytes > local_limit) {
    /* The kernel takes more than the plan counted: the plan is made again for a budget scaled
       down by what the build reported (each round lowers it). Also under a caller's fixed size:
       the local memory a plan uses is the library's choice (tiles, staging), not the caller's. */
    if (plan->local_mem_bytes > 0 && plan->local_mem_bytes < kernel->local_bytes) {
      unsigned long long *budget = &ctx->facts.program_local_budget[plan->program];
      const unsigned long long scaled = plan->local_mem_bytes * local_limit / kernel->local_bytes;
      if (*budget == 0 || scaled < *budget) {
        *budget = scaled;
        *replan = 1;
      }
    }
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "kernel %s needs %llu bytes of local memory, the device has %llu",
                    kernel->desc->name, kernel->local_bytes, local_limit);
  }
  return OCF_SUCCESS;
}

static void CL_CALLBACK release_scratch(cl_event event, cl_int event_status, void *scratch) {
  (void)event, (void)event_status;
  clReleaseMemObject((cl_mem)scratch);
}

/* Releases a call's scratch buffer once the last kernel enqueued for the call (`done`, NULL if
   none was) completes. OpenCL would keep a buffer released right after enqueue alive anyway;
   releasing it from the completion callback also keeps implementations that free early
   (Oclgrind) from reading freed scratch. */
static void release_scratch_after(cl_mem scratch, cl_event done) {
  if (!done || clSetEventCallback(done, CL_COMPLETE, release_scratch, scratch) != CL_SUCCESS)
    clReleaseMemObject(scratch);
}

/* Scratch up to this size is created zeroed from the host, larger scratch zeroed on the device. */
#define SCRATCH_HOST_ZEROED_MAX ((size_t)8 << 10)

/* A zero-filled scratch buffer. The kernels write every value before reading it, but Oclgrind
   21.10 misreports writes to a fresh uninitialised buffer that reuses a freed one's memory, and
   does not count a device fill as initialisation: so small scratch (softmax's per-row
   statistics, every scratch of the small test shapes Oclgrind runs) comes zeroed from the host,
   where the copy costs a few bytes a row. Larger scratch (matmul's split-K sums, megabytes) is
   left to zero_scratch: a host copy of zeros would cross the bus on every call. */
static ocf_status create_scratch(ocf_context *ctx, size_t bytes, cl_mem *scratch) {
  void *zeros = NULL;
  if (bytes <= SCRATCH_HOST_ZEROED_MAX) {
    zeros = calloc(1, bytes);
    if (!zeros) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "scratch of %zu bytes", bytes);
  }
  cl_int err = CL_SUCCESS;
  *scratch = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | (zeros ? CL_MEM_COPY_HOST_PTR : 0),
                            bytes, zeros, &err);
  free(zeros);
  if (err != CL_SUCCESS) {
    *scratch = NULL;
    return ocf_fail_cl(err, "clCreateBuffer(scratch)");
  }
  return OCF_SUCCESS;
}

/* Zeroes large scratch on the device after the launch's wait list; *filled gets the event the
   first kernel waits for. */
static ocf_status zero_scratch(cl_command_queue queue, cl_mem scratch, size_t bytes,
                               const ocf_launch *launch, cl_event *filled) {
  const cl_uchar zero = 0;
  cl_int err = clEnqueueFillBuffer(queue, scratch, &zero, sizeof zero, 0, bytes,
                                   launch->num_wait_events, launch->wait_events, filled);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueFillBuffer(scratch)");
  return OCF_SUCCESS;
}

ocf_status ocf_launch_plan(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                           void *frame, cl_mem *scratch_slot, const ocf_launch *launch,
                           int *replan) {
  *replan = 0;
  char options[512];
  if (ocf_plan_options(plan, options, sizeof options) != 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: build options too long (a library bug)");
  cl_mem scratch = NULL;
  if (plan->scratch_bytes) {
    if (!scratch_slot)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: scratch for an op without one (a bug)");
    ocf_status status = create_scratch(ctx, plan->scratch_bytes, &scratch);
    if (status != OCF_SUCCESS) return status;
    *scratch_slot = scratch;
  }

  ocf_status status = OCF_SUCCESS;
  ocf_built_kernel *kernels[OCF_PLAN_MAX_STEPS] = {NULL, NULL, NULL};
  cl_event first = NULL, last = NULL;
  pthread_mutex_lock(&ctx->lock);
  /* Everything that can fail before the first enqueue: build (or find) and check every kernel,
     then bind every kernel's arguments (a plan's steps are distinct kernels). */
  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++) {
    status = ocf_kernel_get(ctx, plan->program, options, plan->steps[s].kernel, &kernels[s]);
    if (status == OCF_SUCCESS) status = check_step(ctx, plan, &plan->steps[s], kernels[s], replan);
  }
  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++)
    status = ocf_bind_arguments(kernels[s], frame);
  /* Large scratch is zeroed on the device first: the fill takes the launch's wait list, the
     first kernel waits for the fill, and the call's first command is the fill. */
  const int fill = scratch && plan->scratch_bytes > SCRATCH_HOST_ZEROED_MAX;
  cl_event filled = NULL;
  ocf_launch steps = *launch;
  if (fill && status == OCF_SUCCESS) {
    status = zero_scratch(queue, scratch, plan->scratch_bytes, launch, &filled);
    if (status == OCF_SUCCESS) {
      steps.num_wait_events = 1;
      steps.wait_events = &filled;
      steps.first_event = NULL;
      if (launch->first_event) {
        cl_int err = clRetainEvent(filled);
        if (err == CL_SUCCESS)
          first = filled;
        else
          status = ocf_fail_cl(err, "clRetainEvent(the scratch fill's event for first_event)");
      }
    }
  }
  /* Then the enqueues. Only the last kernel writes an output, so a later enqueue that fails
     leaves the outputs as they were (the commands already queued fill scratch and finish). */
  cl_event first_kernel = NULL;
  if (status == OCF_SUCCESS)
    status = ocf_dispatch_steps(queue, plan, kernels, &steps, scratch || launch->event,
                                &first_kernel, &last);
  if (first_kernel) first = first_kernel;
  if (filled) clReleaseEvent(filled);
  pthread_mutex_unlock(&ctx->lock);
  if (scratch) release_scratch_after(scratch, last);
  if (status != OCF_SUCCESS) {
    if (first) clReleaseEvent(first);
    if (last) clReleaseEvent(last);
    return status;
  }
  if (launch->event)
    *launch->event = last;
  else if (last)
    clReleaseEvent(last);
  if (launch->first_event) *launch->first_event = first;
  char description[512];
  ocf_plan_describe(plan, description, sizeof description);
  ocf_plan_note(description);
  ocf_log("%s", description);
  return OCF_SUCCESS;
}
