/* ocf_softmax, ocf_softmax_ex and ocf_softmax_host: argument checks, then the run loop
   (src/runtime/run.c) with the plan of src/plan/plan_softmax.c. */
#include "runtime/context.h"
#include "runtime/run.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size of the first published ocf_softmax_options (0.2). */
#define OPTIONS_FIRST_SIZE (offsetof(ocf_softmax_options, lengths_offset) + sizeof(size_t))

/* Checks the options' own values (those that need no buffer query). */
static ocf_status check_options(const ocf_softmax_options *opt) {
  if (ocf_dtype_size(opt->in_dtype) == 0 || ocf_dtype_size(opt->out_dtype) == 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_softmax: %s data type %d is not an ocf_dtype",
                    ocf_dtype_size(opt->in_dtype) == 0 ? "in" : "out",
                    (int)(ocf_dtype_size(opt->in_dtype) == 0 ? opt->in_dtype : opt->out_dtype));
  if (!(opt->scale > 0.0f) || !isfinite(opt->scale))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_softmax: scale %g is not finite and > 0",
                    (double)opt->scale);
  if (!opt->lengths && opt->lengths_offset != 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT,
                    "ocf_softmax: lengths_offset is %zu but lengths is NULL (NULL means every row "
                    "has all columns, and takes offset 0)",
                    opt->lengths_offset);
  if (!opt->causal && (opt->causal_period != 0 || opt->causal_offset != 0))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_softmax: causal_period %zu and causal_offset %zu given but causal is 0 "
                    "(set causal to use the band)",
                    opt->causal_period, opt->causal_offset);
  if (opt->causal && opt->causal_period == 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_softmax: causal with causal_period 0 (rows per head: at least 1; rows "
                    "for one head)");
  /* The longest band, causal_period - 1 + causal_offset + 1, is computed on the device. */
  if (opt->causal && opt->causal_offset > SIZE_MAX - opt->causal_period)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_softmax: causal_period %zu + causal_offset %zu overflows a size_t",
                    opt->causal_period, opt->causal_offset);
  return OCF_SUCCESS;
}

/* The planner's description of a call (or of the call a workspace size query answers for). */
static ocf_softmax_call softmax_call(size_t rows, size_t cols, size_t in_offset, size_t in_ld,
                                     size_t out_offset, size_t out_ld,
                                     const ocf_softmax_options *opt, const ocf_launch *settings,
                                     int in_place, int spans_meet) {
  ocf_softmax_call call;
  memset(&call, 0, sizeof call); /* its bytes key the plan cache */
  call.rows = rows, call.cols = cols;
  call.in_off = in_offset, call.in_ld = in_ld, call.out_off = out_offset, call.out_ld = out_ld;
  call.in_dtype = opt->in_dtype, call.out_dtype = opt->out_dtype;
  call.variant = settings->variant;
  call.workgroup = settings->workgroup_size;
  call.log = opt->log != 0;
  call.has_lengths = opt->lengths != NULL;
  call.in_place = in_place;
  call.spans_meet = spans_meet || in_place;
  call.causal = opt->causal != 0;
  return call;
}

/* The names of check_call's messages, for the call (0) and its workspace size query (1): made
   once, not at every call. */
static const char *const labels[2][3] = {
    {"ocf_softmax: options", "ocf_softmax: in", "ocf_softmax: out"},
    {"ocf_softmax_workspace_size: options", "ocf_softmax_workspace_size: in",
     "ocf_softmax_workspace_size: out"}};

/* The checks ocf_softmax_ex (query 0) and its workspace size query (1) share, so that the query
   answers for the call it describes: the launch (*settings, *queue), the options (read into
   *opt) and the extents of in and out. */
static ocf_status check_call(ocf_context *ctx, int query, size_t rows, size_t cols, size_t in_ld,
                             size_t out_ld, const ocf_softmax_options *options,
                             const ocf_launch *launch, ocf_launch *settings,
                             cl_command_queue *queue, ocf_softmax_options *opt, size_t *in_extent,
                             size_t *out_extent) {
  ocf_status status = ocf_check_launch(ctx, launch, settings, queue);
  if (status != OCF_SUCCESS) return status;
  *opt = (ocf_softmax_options)OCF_SOFTMAX_OPTIONS_INIT;
  const char *const *label = labels[query];
  if (options && (status = ocf_read_struct(label[0], options, OPTIONS_FIRST_SIZE, opt,
                                           sizeof *opt)) != OCF_SUCCESS)
    return status;
  if ((status = check_options(opt)) != OCF_SUCCESS) return status;
  const size_t in_size = ocf_dtype_size(opt->in_dtype), out_size = ocf_dtype_size(opt->out_dtype);
  if ((status = ocf_matrix_extent(label[1], rows, cols, in_ld, in_size, in_extent)) != OCF_SUCCESS)
    return status;
  return ocf_matrix_extent(label[2], rows, cols, out_ld, out_size, out_extent);
}

ocf_status ocf_softmax_ex(ocf_context *ctx, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                          size_t in_ld, cl_mem out, size_t out_offset, size_t out_ld,
                          const ocf_softmax_options *options, const ocf_launch *launch) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax: ctx is NULL");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_softmax_options opt;
  size_t in_extent = 0, out_extent = 0;
  ocf_status status = check_call(ctx, 0, rows, cols, in_ld, out_ld, options, launch, &settings,
                                 &queue, &opt, &in_extent, &out_extent);
  if (status != OCF_SUCCESS) return status;
  const size_t in_size = ocf_dtype_size(opt.in_dtype), out_size = ocf_dtype_size(opt.out_dtype);
  if ((status = ocf_check_buffer(ctx, "ocf_softmax: in", in, in_offset, in_extent, in_size)) !=
          OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "ocf_softmax: out", out, out_offset, out_extent, out_size)) !=
          OCF_SUCCESS)
    return status;
  if (opt.lengths &&
      (status = ocf_check_buffer(ctx, "ocf_softmax: lengths", opt.lengths, opt.lengths_offset, rows,
                                 sizeof(cl_uint))) != OCF_SUCCESS)
    return status;
  /* Element-wise: rows of out may interleave with rows of in (same buffer and stride) as long
     as no element is both; each kernel reads only in's elements and writes only out's. */
  ocf_place in_at = ocf_place_of(in), out_at = ocf_place_of(out);
  const ocf_matrix_view in_view = {in, in_offset, rows, cols, in_ld, in_size, &in_at};
  const ocf_matrix_view out_view = {out, out_offset, rows, cols, out_ld, out_size, &out_at};
  int overlap = 0, in_place = 0;
  if ((status = ocf_matrices_overlap(&out_view, &in_view, &overlap, &in_place)) != OCF_SUCCESS)
    return status;
  if (overlap && !in_place)
    return ocf_fail(OCF_ERR_ALIASING, "ocf_softmax: out shares elements with in other than exactly "
                                      "in place (same buffer, offset and stride)");
  /* Whether out's span meets in's, though no element is both (rows interleaved): the kernels
     then read nothing of in's span outside its rows (WHOLE_ENDS, cl/softmax_rows.cl). */
  int spans_meet = 0, same_start = 0;
  if ((status = ocf_places_overlap(&out_at, out_offset * out_size, out_extent * out_size, &in_at,
                                   in_offset * in_size, in_extent * in_size, &spans_meet,
                                   &same_start)) != OCF_SUCCESS)
    return status;
  if (opt.lengths) {
    int lengths_overlap = 0, lengths_start = 0;
    ocf_place lengths_at = ocf_place_of(opt.lengths);
    if ((status = ocf_places_overlap(&out_at, out_offset * out_size, out_extent * out_size,
                                     &lengths_at, opt.lengths_offset * sizeof(cl_uint),
                                     rows * sizeof(cl_uint), &lengths_overlap, &lengths_start)) !=
        OCF_SUCCESS)
      return status;
    if (lengths_overlap) return ocf_fail(OCF_ERR_ALIASING, "ocf_softmax: out overlaps lengths");
  }
  if ((status = ocf_workspace_check_disjoint(&settings, "ocf_softmax: in", in, in_offset * in_size,
                                             in_extent * in_size)) != OCF_SUCCESS ||
      (status = ocf_workspace_check_disjoint(&settings, "ocf_softmax: out", out,
                                             out_offset * out_size, out_extent * out_size)) !=
          OCF_SUCCESS ||
      (opt.lengths &&
       (status = ocf_workspace_check_disjoint(&settings, "ocf_softmax: lengths", opt.lengths,
                                              opt.lengths_offset * sizeof(cl_uint),
                                              rows * sizeof(cl_uint))) != OCF_SUCCESS))
    return status;

  const ocf_softmax_call call = softmax_call(rows, cols, in_offset, in_ld, out_offset, out_ld, &opt,
                                             &settings, in_place, spans_meet);
  /* The lengths and the band are read on the device only (row_length() in cl/softmax_common.clh,
     which also takes a length above cols as cols): the call never waits for its wait list. */
  ocf_softmax_frame frame = {rows,
                             cols,
                             in,
                             in_offset,
                             in_ld,
                             out,
                             out_offset,
                             out_ld,
                             opt.scale,
                             opt.lengths,
                             opt.lengths_offset,
                             opt.causal ? opt.causal_period : 1,
                             opt.causal ? opt.causal_offset : 0,
                             1,
                             0,
                             NULL};
  const ocf_run_call run = {OCF_OP_SOFTMAX, &call, &frame, queue, &settings};
  return ocf_run(ctx, &run);
}

ocf_status ocf_softmax(ocf_context *ctx, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                       size_t in_ld, cl_mem out, size_t out_offset, size_t out_ld,
                       const ocf_launch *launch) {
  return ocf_softmax_ex(ctx, rows, cols, in, in_offset, in_ld, out, out_offset, out_ld, NULL,
                        launch);
}

ocf_status ocf_softmax_host(ocf_context *ctx, size_t rows, size_t cols, const float *in,
                            size_t in_ld, float *out, size_t out_ld) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_host: ctx is NULL");
  size_t in_extent = 0, out_extent = 0;
  ocf_status status =
      ocf_matrix_extent("ocf_softmax_host: in", rows, cols, in_ld, sizeof(float), &in_extent);
  if (status == OCF_SUCCESS)
    status =
        ocf_matrix_extent("ocf_softmax_host: out", rows, cols, out_ld, sizeof(float), &out_extent);
  if (status != OCF_SUCCESS) return status;
  if (in_extent && (!in || !out))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_host: %s is NULL", !in ? "in" : "out");
  if (in_extent == 0) return OCF_SUCCESS;
  /* The rule of ocf_softmax: in place, or no element shared (interleaved rows may be). */
  uintptr_t in_start = (uintptr_t)in, out_start = (uintptr_t)out;
  int in_place = in_start == out_start;
  size_t distance = in_place               ? 0
                    : in_start < out_start ? out_start - in_start
                                           : in_start - out_start;
  int overlap = in_start < out_start + out_extent * sizeof(float) &&
                out_start < in_start + in_extent * sizeof(float) &&
                (in_ld != out_ld || distance % sizeof(float) != 0 ||
                 ocf_strided_overlap(in_start / sizeof(float), rows, cols,
                                     out_start / sizeof(float), rows, cols, in_ld));
  if ((in_place && in_ld != out_ld) || (!in_place && overlap))
    return ocf_fail(OCF_ERR_ALIASING, "ocf_softmax_host: out shares elements with in other than "
                                      "exactly in place (same array and stride)");

  cl_mem in_buffer = NULL, out_buffer = NULL;
  if (in_place) {
    status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, in_extent, in, &in_buffer);
    out_buffer = in_buffer;
  } else {
    status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, in_extent, in, &in_buffer);
    /* The gaps between out's rows must come back as they were: start from out's contents. */
    if (status == OCF_SUCCESS)
      status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, out_extent, out_ld == cols ? NULL : out,
                               &out_buffer);
  }
  /* The read-back waits for the call's event: the queue may be out of order. */
  ocf_launch launch = OCF_LAUNCH_INIT;
  cl_event done = NULL;
  launch.event = &done;
  if (status == OCF_SUCCESS)
    status = ocf_softmax(ctx, rows, cols, in_buffer, 0, in_ld, out_buffer, 0, out_ld, &launch);
  if (status == OCF_SUCCESS) status = ocf_host_read(ctx, out_buffer, out_extent, out, done);
  if (done) clReleaseEvent(done);
  if (out_buffer && out_buffer != in_buffer) clReleaseMemObject(out_buffer);
  if (in_buffer) clReleaseMemObject(in_buffer);
  return status;
}

ocf_status ocf_softmax_workspace_size(ocf_context *ctx, size_t rows, size_t cols, cl_mem in,
                                      size_t in_offset, size_t in_ld, cl_mem out, size_t out_offset,
                                      size_t out_ld, const ocf_softmax_options *options,
                                      const ocf_launch *launch, size_t *bytes) {
  ocf_error_clear();
  if (!ctx || !bytes)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_workspace_size: %s is NULL",
                    !ctx ? "ctx" : "bytes");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_softmax_options opt;
  size_t in_extent = 0, out_extent = 0;
  ocf_status status = check_call(ctx, 1, rows, cols, in_ld, out_ld, options, launch, &settings,
                                 &queue, &opt, &in_extent, &out_extent);
  if (status != OCF_SUCCESS) return status;
  const size_t in_size = ocf_dtype_size(opt.in_dtype), out_size = ocf_dtype_size(opt.out_dtype);
  /* In place or not, as the call will tell from its buffers; without them, the larger of the
     two plans. */
  int in_place[2] = {0, 1}, cases = 2;
  if (in && out) {
    const ocf_matrix_view in_view = {in, in_offset, rows, cols, in_ld, in_size, NULL};
    const ocf_matrix_view out_view = {out, out_offset, rows, cols, out_ld, out_size, NULL};
    int overlap = 0;
    if ((status = ocf_matrices_overlap(&out_view, &in_view, &overlap, &in_place[0])) != OCF_SUCCESS)
      return status;
    cases = 1;
  }
  *bytes = 0;
  for (int i = 0; i < cases; i++) {
    const ocf_softmax_call call = softmax_call(rows, cols, in_offset, in_ld, out_offset, out_ld,
                                               &opt, &settings, in_place[i], 0);
    const ocf_run_call run = {OCF_OP_SOFTMAX, &call, NULL, queue, &settings};
    size_t needed = 0;
    if ((status = ocf_run_prepare(ctx, &run, &needed)) != OCF_SUCCESS) return status;
    if (needed > *bytes) *bytes = needed;
  }
  return OCF_SUCCESS;
}
