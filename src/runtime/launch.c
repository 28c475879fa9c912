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

void ocf_context_learn_workgroup(ocf_context *ctx, ocf_kernel_id kernel, size_t limit) {
  size_t *known = &ctx->facts.learnt.kernel_max_workgroup[kernel];
  if (*known == 0 || *known > limit) {
    *known = limit;
    ctx->plan_generation++;
  }
}

/* Checks a built kernel against the step that will run it. A default size above the kernel's
   own limit is learnt (the caller re-plans); a fixed one is refused by name; a wide plan's size
   passes where ocf_facts_wide_allows says so. */
static ocf_status check_step(ocf_context *ctx, const ocf_plan *plan, const ocf_plan_step *step,
                             const ocf_built_kernel *kernel, int *replan) {
  size_t items = step->local[0] * step->local[1] * step->local[2];
  /* A wide plan runs above what the kernel reports, where the facts allow it (the wide probe
     passed on this context, registers capped to fit): the enqueue has the last word
     (ocf_run learns a refusal). */
  const int wide = plan->wide_workgroup &&
                   ocf_facts_wide_allows(&ctx->facts, step->kernel, items, plan->max_registers);
  if (items > kernel->max_workgroup && !wide) {
    /* Learnt here or, since this call copied the facts, by another thread's call: either way a
       plan made from the facts as they are now fits. */
    if (!plan->fixed_workgroup) {
      ocf_context_learn_workgroup(ctx, step->kernel, kernel->max_workgroup);
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
      unsigned long long *budget = &ctx->facts.learnt.program_local_budget[plan->program];
      const unsigned long long scaled = plan->local_mem_bytes * local_limit / kernel->local_bytes;
      if (*budget == 0 || scaled < *budget) {
        *budget = scaled;
        ctx->plan_generation++;
        *replan = 1;
      }
    }
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "kernel %s needs %llu bytes of local memory, the device has %llu",
                    kernel->desc->name, kernel->local_bytes, local_limit);
  }
  return OCF_SUCCESS;
}

/* Zeroes scratch on the device after the launch's wait list; *filled gets the event the first
   kernel waits for. Small scratch (a reused pool buffer, a caller's workspace) is written from a
   static page of zeros, as create_buffer (workspace.c) zeroes a new one: Oclgrind 21.10 does not
   count a device fill as initialisation, and the host copy of a few KiB costs nothing. */
static ocf_status zero_scratch(cl_command_queue queue, cl_mem scratch, size_t bytes,
                               const ocf_launch *launch, cl_event *filled) {
  static const unsigned char zeros[OCF_SCRATCH_HOST_ZEROED_MAX];
  if (bytes <= sizeof zeros) {
    cl_int err = clEnqueueWriteBuffer(queue, scratch, CL_FALSE, 0, bytes, zeros,
                                      launch->num_wait_events, launch->wait_events, filled);
    if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueWriteBuffer(scratch zeros)");
    return OCF_SUCCESS;
  }
  const cl_uchar zero = 0;
  cl_int err = clEnqueueFillBuffer(queue, scratch, &zero, sizeof zero, 0, bytes,
                                   launch->num_wait_events, launch->wait_events, filled);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueFillBuffer(scratch)");
  return OCF_SUCCESS;
}

ocf_status ocf_plan_step_kernel(ocf_context *ctx, const ocf_plan *plan, unsigned step,
                                ocf_built_kernel **kernel) {
  /* A step before the last may be of another program (ocf_plan_verify), built with the
     defines its own kernel reads. */
  const ocf_program_id program = ocf_plan_step_program(plan, step);
  char options[512];
  if (ocf_plan_program_options(plan, program, options, sizeof options) != 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: build options too long (a library bug)");
  return ocf_kernel_get(ctx, program, options, plan->steps[step].kernel, kernel);
}

ocf_status ocf_plan_build(ocf_context *ctx, const ocf_plan *plan, ocf_built_kernel **kernels,
                          int *replan) {
  *replan = 0;
  ocf_status status = OCF_SUCCESS;
  pthread_mutex_lock(&ctx->lock);
  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++) {
    status = ocf_plan_step_kernel(ctx, plan, s, &kernels[s]);
    if (status == OCF_SUCCESS) status = check_step(ctx, plan, &plan->steps[s], kernels[s], replan);
  }
  pthread_mutex_unlock(&ctx->lock);
  return status;
}

ocf_status ocf_plan_enqueue(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                            ocf_built_kernel *const *kernels, void *frame,
                            const ocf_frame_slots *slots, const ocf_launch *launch) {
  cl_mem *scratch_slot = slots ? slots->scratch : NULL;
  cl_mem *arrivals_slot = slots ? slots->arrivals : NULL;
  if (plan->arrivals && !arrivals_slot)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: arrival counters for an op without them (a bug)");
  /* Scratch: the launch's workspace (too small: refused here), a buffer of the call's own, or
     the context's pool, which is taken under the lock below. */
  ocf_scratch scratch = {NULL, 0, 0, 0};
  if (plan->scratch_bytes) {
    if (!scratch_slot)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: scratch for an op without one (a bug)");
    ocf_status status = ocf_scratch_prepare(ctx, queue, launch, plan->scratch_bytes, &scratch);
    if (status != OCF_SUCCESS) return status;
  }

  cl_event first = NULL, last = NULL;
  pthread_mutex_lock(&ctx->lock);
  /* Everything that can fail before the first enqueue: take the pool's buffer (under the same
     hold of the lock as the enqueues below, so that the queue orders this call after every
     earlier user of the buffer), then bind every kernel's arguments (a plan's steps are
     distinct kernels). */
  ocf_status status = OCF_SUCCESS;
  if (scratch.pooled) status = ocf_scratch_pool_take(ctx, plan->scratch_bytes, &scratch);
  if (scratch.mem) *scratch_slot = scratch.mem;
  ocf_arrival_use arrivals = {NULL, NULL};
  if (plan->arrivals && status == OCF_SUCCESS) {
    status = ocf_arrivals_take(ctx, queue, plan->arrivals, &arrivals);
    if (status == OCF_SUCCESS) *arrivals_slot = arrivals.counters;
  }
  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++)
    status = ocf_bind_arguments(kernels[s], frame);
  /* Scratch not created zeroed is zeroed on the device first (unless the plan's steps read only
     what they wrote there, scratch_written): the fill takes the launch's wait list, the first
     kernel waits for the fill, and the call's first command is the fill. */
  const int fill = scratch.mem && !scratch.zeroed && !plan->scratch_written;
  cl_event filled = NULL;
  ocf_launch steps = *launch;
  if (fill && status == OCF_SUCCESS) {
    status = zero_scratch(queue, scratch.mem, plan->scratch_bytes, launch, &filled);
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
    status = ocf_dispatch_steps(queue, plan, kernels, &steps, scratch.mem || launch->event,
                                &first_kernel, &last);
  if (first_kernel) first = first_kernel;
  ocf_scratch_used(ctx, &scratch, last ? last : filled);
  ocf_arrivals_used(&arrivals, last);
  pthread_mutex_unlock(&ctx->lock);
  ocf_scratch_release(&scratch, last ? last : filled);
  if (filled) clReleaseEvent(filled);
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
  return OCF_SUCCESS;
}

ocf_status ocf_launch_plan(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                           void *frame, const ocf_frame_slots *slots, const ocf_launch *launch,
                           int *replan) {
  ocf_built_kernel *kernels[OCF_PLAN_MAX_STEPS] = {NULL, NULL, NULL};
  ocf_status status = ocf_plan_build(ctx, plan, kernels, replan);
  if (status == OCF_SUCCESS)
    status = ocf_plan_enqueue(ctx, queue, plan, kernels, frame, slots, launch);
  if (status != OCF_SUCCESS) return status;
  char description[512];
  ocf_plan_describe(plan, description, sizeof description);
  ocf_plan_note(description);
  ocf_log(&ctx->log, OCF_LOG_DEBUG, "%s", description);
  return OCF_SUCCESS;
}
