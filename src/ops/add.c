/* ocf_add and ocf_add_host: argument checks, then the run loop (src/runtime/run.c) with the plan of
   src/plan/plan_add.c. */
#include "runtime/context.h"
#include "runtime/run.h"

#include <stdint.h>
#include <string.h>

ocf_status ocf_add(ocf_context *ctx, size_t n, cl_mem x, size_t x_offset, cl_mem y, size_t y_offset,
                   cl_mem out, size_t out_offset, const ocf_launch *launch) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_add: ctx is NULL");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_status status = ocf_check_launch(ctx, launch, &settings, &queue);
  if (status != OCF_SUCCESS) return status;
  const size_t size = sizeof(float);
  if (n > SIZE_MAX / size)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_add: n = %zu floats overflow size_t bytes", n);
  if ((status = ocf_check_buffer(ctx, "ocf_add: x", x, x_offset, n, size)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "ocf_add: y", y, y_offset, n, size)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "ocf_add: out", out, out_offset, n, size)) != OCF_SUCCESS)
    return status;
  int overlap = 0, same_start = 0;
  ocf_place out_place = ocf_place_of(out), x_place = ocf_place_of(x), y_place = ocf_place_of(y);
  if ((status = ocf_places_overlap(&out_place, out_offset * size, n * size, &x_place,
                                   x_offset * size, n * size, &overlap, &same_start)) !=
      OCF_SUCCESS)
    return status;
  if (overlap && !same_start)
    return ocf_fail(OCF_ERR_ALIASING, "ocf_add: out partly overlaps x (only out == x is allowed)");
  if ((status = ocf_places_overlap(&out_place, out_offset * size, n * size, &y_place,
                                   y_offset * size, n * size, &overlap, &same_start)) !=
      OCF_SUCCESS)
    return status;
  if (overlap && !same_start)
    return ocf_fail(OCF_ERR_ALIASING, "ocf_add: out partly overlaps y (only out == y is allowed)");

  ocf_add_call call;
  memset(&call, 0, sizeof call); /* its bytes key the plan cache */
  call.n = n;
  call.x_off = x_offset, call.y_off = y_offset, call.out_off = out_offset;
  call.dtype = OCF_F32;
  call.variant = settings.variant;
  call.workgroup = settings.workgroup_size;
  const ocf_add_frame frame = {n, x, x_offset, y, y_offset, out, out_offset};
  const ocf_run_call run = {OCF_OP_ADD, &call, &frame, queue, &settings};
  return ocf_run(ctx, &run);
}

ocf_status ocf_add_host(ocf_context *ctx, size_t n, const float *x, const float *y, float *out) {
  ocf_error_clear();
  if (!ctx || (n && (!x || !y || !out)))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_add_host: %s is NULL",
                    !ctx ? "ctx"
                    : !x ? "x"
                    : !y ? "y"
                         : "out");
  if (n > SIZE_MAX / sizeof(float))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_add_host: n = %zu overflows", n);
  if (n == 0) return OCF_SUCCESS;
  cl_mem xb = NULL, yb = NULL, ob = NULL;
  ocf_status status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, n, x, &xb);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, n, y, &yb);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_WRITE_ONLY, n, NULL, &ob);
  /* The read-back waits for the call's event: the queue may be out of order. */
  ocf_launch launch = OCF_LAUNCH_INIT;
  cl_event done = NULL;
  launch.event = &done;
  if (status == OCF_SUCCESS) status = ocf_add(ctx, n, xb, 0, yb, 0, ob, 0, &launch);
  if (status == OCF_SUCCESS) status = ocf_host_read(ctx, ob, n, out, done);
  if (done) clReleaseEvent(done);
  if (ob) clReleaseMemObject(ob);
  if (yb) clReleaseMemObject(yb);
  if (xb) clReleaseMemObject(xb);
  return status;
}
