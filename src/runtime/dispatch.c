/* Enqueueing kernels with the launch's wait list and out event. */
#include "runtime/context.h"

ocf_status ocf_dispatch(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                        const size_t *global, const size_t *local, const ocf_launch *launch,
                        int first, int last, cl_event *chain) {
  cl_uint wait_count = 0;
  const cl_event *wait_list = NULL;
  if (first && launch) {
    wait_count = launch->num_wait_events;
    wait_list = launch->wait_events;
  } else if (!first && *chain) {
    wait_count = 1;
    wait_list = chain;
  }
  /* An event is needed to chain to the next kernel, or for the caller on the last one. */
  int want_event = !last || (launch && launch->event);
  cl_event done = NULL;
  cl_int err = clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, local, wait_count,
                                      wait_list, want_event ? &done : NULL);
  if (*chain) {
    clReleaseEvent(*chain);
    *chain = NULL;
  }
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clEnqueueNDRangeKernel");
  if (last) {
    if (launch && launch->event) *launch->event = done;
  } else {
    *chain = done;
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
