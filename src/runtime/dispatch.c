/* Enqueueing a plan's kernels with the launch's wait list and events. */
#include "runtime/launch.h"

#include <stdio.h>

ocf_status ocf_dispatch_steps(cl_command_queue queue, const ocf_plan *plan,
                              ocf_built_kernel *const *kernels, const ocf_launch *launch,
                              int want_last, cl_event *first, cl_event *last) {
  *first = *last = NULL;
  for (unsigned s = 0; s < plan->step_count; s++) {
    const ocf_plan_step *step = &plan->steps[s];
    const int is_last = s + 1 == plan->step_count;
    /* The first kernel waits for the launch's wait list, each later one for the kernel before
       it (so that out-of-order queues keep the order too). */
    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 1;
    const cl_event *wait_list = s == 0 ? launch->wait_events : last;
    const int want_event = !is_last || want_last || (s == 0 && launch->first_event);
    cl_event done = NULL;
    cl_int err =
        clEnqueueNDRangeKernel(queue, kernels[s]->kernel, step->dims, NULL, step->global,
                               step->local, wait_count, wait_list, want_event ? &done : NULL);
    if (err != CL_SUCCESS) {
      char what[96];
      snprintf(what, sizeof what, "clEnqueueNDRangeKernel(%s, step %u of %u)",
               kernels[s]->desc->name, s + 1, plan->step_count);
      return ocf_fail_cl(err, what);
    }
    if (*last) clReleaseEvent(*last);
    *last = done;
    if (s == 0 && launch->first_event) {
      /* The caller's reference to the first kernel's event, besides ours (the chain, or the
         out event of a one-kernel call). */
      err = clRetainEvent(done);
      if (err != CL_SUCCESS) {
        if (!is_last) return ocf_fail_cl(err, "clRetainEvent(first kernel's event)");
        return ocf_fail(OCF_ERR_ENQUEUED_WITHOUT_EVENT,
                        "clRetainEvent(the kernel's event for first_event) failed: %s (%d); the "
                        "call's kernel %s is enqueued and will write the output",
                        ocf_cl_error_name(err) ? ocf_cl_error_name(err) : "OpenCL error", (int)err,
                        kernels[s]->desc->name);
      }
      *first = done;
    }
  }
  return OCF_SUCCESS;
}

ocf_status ocf_dispatch_nothing(cl_command_queue queue, const ocf_launch *launch) {
  if (launch && launch->first_event) *launch->first_event = NULL;
  if (!launch || !launch->event) return OCF_SUCCESS;
  /* The caller asked for an event: a marker gives one that completes after the wait list. */
  cl_int err = clEnqueueMarkerWithWaitList(queue, launch->num_wait_events, launch->wait_events,
                                           launch->event);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueMarkerWithWaitList");
  return OCF_SUCCESS;
}
