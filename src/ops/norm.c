/* ocf_layernorm, ocf_rmsnorm, their host-array forms and their workspace size query: argument
   checks, then the call struct and the frame source, and the run loop (src/runtime/run.c), which
   plans (src/plan/plan_norm.c) and launches. */
#include "runtime/context.h"
#include "runtime/run.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size of the first published ocf_norm_options (0.4). */
#define OPTIONS_FIRST_SIZE (offsetof(ocf_norm_options, rstd_offset) + sizeof(size_t))

/* The operands of a call, for the overlap checks: 0 in, 1 out, 2 weight, 3 bias, 4 residual,
   5 residual_out, 6 mean, 7 rstd. */
enum { OP_IN, OP_OUT, OP_WEIGHT, OP_BIAS, OP_RES, OP_RES_OUT, OP_MEAN, OP_RSTD, OP_COUNT };
static const char *const operand_names[OP_COUNT] = {"in",       "out",          "weight", "bias",
                                                    "residual", "residual_out", "mean",   "rstd"};
/* Which operands the call writes. */
static const int operand_written[OP_COUNT] = {0, 1, 0, 0, 0, 1, 1, 1};

/* The names in a device call's messages, made once rather than at every call: the function,
   then "<function>: <operand>" in operand order, then "<function>: options". */
enum { LABEL_FN, LABEL_OPERAND, LABEL_OPTIONS = LABEL_OPERAND + OP_COUNT, LABEL_COUNT };
#define NORM_LABELS(fn)                                                                          \
  {                                                                                              \
    fn, fn ": in", fn ": out", fn ": weight", fn ": bias", fn ": residual", fn ": residual_out", \
        fn ": mean", fn ": rstd", fn ": options"                                                 \
  }
static const char *const layernorm_labels[LABEL_COUNT] = NORM_LABELS("ocf_layernorm");
static const char *const rmsnorm_labels[LABEL_COUNT] = NORM_LABELS("ocf_rmsnorm");
static const char *const query_labels[LABEL_COUNT] = NORM_LABELS("ocf_norm_workspace_size");

/* Checks the options' own values (those that need no buffer query). */
static ocf_status check_options(const char *name, int rms, const ocf_norm_options *opt) {
  const ocf_dtype types[4] = {opt->in_dtype, opt->out_dtype, opt->weight_dtype,
                              opt->residual_dtype};
  static const char *const type_names[4] = {"in", "out", "weight", "residual"};
  for (int i = 0; i < 4; i++)
    if (ocf_dtype_size(types[i]) == 0)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s data type %d is not an ocf_dtype", name,
                      type_names[i], (int)types[i]);
  if (!(opt->eps >= 0.0f) || !isfinite(opt->eps))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: eps %g is not finite and >= 0", name,
                    (double)opt->eps);
  if (rms && (opt->bias || opt->bias_offset))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: RMSNorm takes no bias", name);
  if (rms && (opt->mean || opt->mean_offset))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: RMSNorm has no mean to write (rstd only)", name);
  /* An offset or stride for an absent buffer is a caller's slip: say which. */
  const struct {
    const void *buffer;
    size_t value;
    const char *what;
  } given[] = {{opt->weight, opt->weight_offset, "weight_offset"},
               {opt->bias, opt->bias_offset, "bias_offset"},
               {opt->residual, opt->residual_offset, "residual_offset"},
               {opt->residual, opt->residual_ld, "residual_ld"},
               {opt->residual_out, opt->residual_out_offset, "residual_out_offset"},
               {opt->residual_out, opt->residual_out_ld, "residual_out_ld"},
               {opt->mean, opt->mean_offset, "mean_offset"},
               {opt->rstd, opt->rstd_offset, "rstd_offset"}};
  for (size_t i = 0; i < OCF_ARRAY_LEN(given); i++)
    if (!given[i].buffer && given[i].value != 0)
      return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: %s is %zu but its buffer is NULL", name,
                      given[i].what, given[i].value);
  if (opt->residual_out && !opt->residual)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT,
                    "%s: residual_out is set but residual is NULL (x' = in + residual)", name);
  return OCF_SUCCESS;
}

/* Every operand of a call as a matrix in its buffer (absent ones with a NULL buffer). */
typedef struct norm_operands {
  ocf_matrix_view v[OP_COUNT];
  ocf_place at[OP_COUNT]; /* the buffers' places (v[i].place, for the overlap tests) */
} norm_operands;

/* The checks the call and its workspace size query share: the launch (*settings, *queue), the
   options (read into *opt) and every operand's extent (into ops, without buffers). `label`:
   the names of the messages (NORM_LABELS). */
static ocf_status check_call(ocf_context *ctx, const char *const *label, int rms, size_t rows,
                             size_t cols, size_t in_ld, size_t out_ld,
                             const ocf_norm_options *options, const ocf_launch *launch,
                             ocf_launch *settings, cl_command_queue *queue, ocf_norm_options *opt,
                             norm_operands *ops, size_t *extents) {
  const char *name = label[LABEL_FN];
  ocf_status status = ocf_check_launch(ctx, launch, settings, queue);
  if (status != OCF_SUCCESS) return status;
  *opt = (ocf_norm_options)OCF_NORM_OPTIONS_INIT;
  if (options && (status = ocf_read_struct(label[LABEL_OPTIONS], options, OPTIONS_FIRST_SIZE, opt,
                                           sizeof *opt)) != OCF_SUCCESS)
    return status;
  if ((status = check_options(name, rms, opt)) != OCF_SUCCESS) return status;
  const size_t in_size = ocf_dtype_size(opt->in_dtype), out_size = ocf_dtype_size(opt->out_dtype);
  const size_t w_size = ocf_dtype_size(opt->weight_dtype);
  const size_t r_size = ocf_dtype_size(opt->residual_dtype);
  /* rows x cols matrices; weight and bias one row of cols, mean and rstd one row of rows. */
  const ocf_matrix_view views[OP_COUNT] = {
      {NULL, 0, rows, cols, in_ld, in_size, NULL},
      {NULL, 0, rows, cols, out_ld, out_size, NULL},
      {NULL, opt->weight_offset, 1, cols, cols, w_size, NULL},
      {NULL, opt->bias_offset, 1, cols, cols, w_size, NULL},
      {NULL, opt->residual_offset, rows, cols, opt->residual_ld, r_size, NULL},
      {NULL, opt->residual_out_offset, rows, cols, opt->residual_out_ld, r_size, NULL},
      {NULL, opt->mean_offset, 1, rows, rows, sizeof(float), NULL},
      {NULL, opt->rstd_offset, 1, rows, rows, sizeof(float), NULL}};
  const int present[OP_COUNT] = {1,
                                 1,
                                 opt->weight != NULL,
                                 opt->bias != NULL,
                                 opt->residual != NULL,
                                 opt->residual_out != NULL,
                                 opt->mean != NULL,
                                 opt->rstd != NULL};
  for (int i = 0; i < OP_COUNT; i++) {
    ops->v[i] = views[i];
    extents[i] = 0;
    if (!present[i]) continue;
    if ((status = ocf_matrix_extent(label[LABEL_OPERAND + i], views[i].rows, views[i].cols,
                                    views[i].ld, views[i].element_size, &extents[i])) !=
        OCF_SUCCESS)
      return status;
  }
  return OCF_SUCCESS;
}

/* The planner's description of a call (memset first: its bytes key the plan cache). */
static ocf_norm_call norm_call(int rms, size_t rows, size_t cols, size_t in_offset, size_t in_ld,
                               size_t out_offset, size_t out_ld, const ocf_norm_options *opt,
                               const ocf_launch *settings) {
  ocf_norm_call call;
  memset(&call, 0, sizeof call);
  call.rows = rows, call.cols = cols;
  call.in_off = in_offset, call.in_ld = in_ld, call.out_off = out_offset, call.out_ld = out_ld;
  call.in_dtype = opt->in_dtype, call.out_dtype = opt->out_dtype;
  call.res_dtype = opt->residual_dtype, call.weight_dtype = opt->weight_dtype;
  call.variant = settings->variant;
  call.workgroup = settings->workgroup_size;
  call.rms = rms;
  call.has_weight = opt->weight != NULL, call.has_bias = opt->bias != NULL;
  call.has_res = opt->residual != NULL, call.has_res_out = opt->residual_out != NULL;
  call.has_mean = opt->mean != NULL, call.has_rstd = opt->rstd != NULL;
  call.weight_off = opt->weight_offset, call.bias_off = opt->bias_offset;
  call.res_off = opt->residual_offset, call.res_ld = opt->residual_ld;
  call.res_out_off = opt->residual_out_offset, call.res_out_ld = opt->residual_out_ld;
  return call;
}

static ocf_status norm_device(ocf_context *ctx, int rms, size_t rows, size_t cols, cl_mem in,
                              size_t in_offset, size_t in_ld, cl_mem out, size_t out_offset,
                              size_t out_ld, const ocf_norm_options *options,
                              const ocf_launch *launch) {
  const char *const *label = rms ? rmsnorm_labels : layernorm_labels;
  const char *name = label[LABEL_FN];
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: ctx is NULL", name);
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_norm_options opt;
  norm_operands ops;
  size_t extents[OP_COUNT];
  ocf_status status = check_call(ctx, label, rms, rows, cols, in_ld, out_ld, options, launch,
                                 &settings, &queue, &opt, &ops, extents);
  if (status != OCF_SUCCESS) return status;
  ops.v[OP_IN].buffer = in, ops.v[OP_IN].offset = in_offset;
  ops.v[OP_OUT].buffer = out, ops.v[OP_OUT].offset = out_offset;
  ops.v[OP_WEIGHT].buffer = opt.weight, ops.v[OP_BIAS].buffer = opt.bias;
  ops.v[OP_RES].buffer = opt.residual, ops.v[OP_RES_OUT].buffer = opt.residual_out;
  ops.v[OP_MEAN].buffer = opt.mean, ops.v[OP_RSTD].buffer = opt.rstd;
  for (int i = 0; i < OP_COUNT; i++) {
    ops.at[i] = ocf_place_of(ops.v[i].buffer);
    ops.v[i].place = &ops.at[i];
  }
  for (int i = 0; i < OP_COUNT; i++) {
    if (i > OP_OUT && !ops.v[i].buffer) continue;
    if ((status = ocf_check_buffer(ctx, label[LABEL_OPERAND + i], ops.v[i].buffer, ops.v[i].offset,
                                   extents[i], ops.v[i].element_size)) != OCF_SUCCESS)
      return status;
  }
  /* Every output shares no element with any other operand, but for the two in-place updates:
     out exactly over in, residual_out exactly over residual. Element-wise for matrices of one
     stride (interleaved rows may share a buffer). */
  for (int i = 0; i < OP_COUNT; i++) {
    if (!operand_written[i] || (i != OP_OUT && !ops.v[i].buffer)) continue;
    for (int j = 0; j < OP_COUNT; j++) {
      if (j == i || (j > OP_OUT && !ops.v[j].buffer) || (operand_written[j] && j < i)) continue;
      int overlap = 0, same = 0;
      if ((status = ocf_matrices_overlap(&ops.v[i], &ops.v[j], &overlap, &same)) != OCF_SUCCESS)
        return status;
      const int allowed = same && ((i == OP_OUT && j == OP_IN) || (i == OP_RES_OUT && j == OP_RES));
      if (overlap && !allowed)
        return ocf_fail(OCF_ERR_ALIASING, "%s: %s shares elements with %s%s", name,
                        operand_names[i], operand_names[j],
                        (i == OP_OUT && j == OP_IN) || (i == OP_RES_OUT && j == OP_RES)
                            ? " other than exactly in place (same buffer, offset and stride)"
                            : "");
    }
  }
  for (int i = 0; i < OP_COUNT; i++) {
    if (i > OP_OUT && !ops.v[i].buffer) continue;
    if ((status = ocf_workspace_check_disjoint(&settings, label[LABEL_OPERAND + i], ops.v[i].buffer,
                                               ops.v[i].offset * ops.v[i].element_size,
                                               extents[i] * ops.v[i].element_size)) != OCF_SUCCESS)
      return status;
  }

  const ocf_norm_call call =
      norm_call(rms, rows, cols, in_offset, in_ld, out_offset, out_ld, &opt, &settings);
  ocf_norm_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.rows = rows, frame.cols = cols;
  frame.in = in, frame.in_off = in_offset, frame.in_ld = in_ld;
  frame.out = out, frame.out_off = out_offset, frame.out_ld = out_ld;
  frame.eps = opt.eps;
  frame.weight = opt.weight, frame.weight_off = opt.weight_offset;
  frame.bias = opt.bias, frame.bias_off = opt.bias_offset;
  frame.res = opt.residual, frame.res_off = opt.residual_offset, frame.res_ld = opt.residual_ld;
  frame.res_out = opt.residual_out, frame.res_out_off = opt.residual_out_offset;
  frame.res_out_ld = opt.residual_out_ld;
  frame.mean = opt.mean, frame.mean_off = opt.mean_offset;
  frame.rstd = opt.rstd, frame.rstd_off = opt.rstd_offset;
  const ocf_run_call run = {OCF_OP_NORM, &call, &frame, queue, &settings};
  return ocf_run(ctx, &run);
}

ocf_status ocf_layernorm(ocf_context *ctx, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                         size_t in_ld, cl_mem out, size_t out_offset, size_t out_ld,
                         const ocf_norm_options *options, const ocf_launch *launch) {
  return norm_device(ctx, 0, rows, cols, in, in_offset, in_ld, out, out_offset, out_ld, options,
                     launch);
}

ocf_status ocf_rmsnorm(ocf_context *ctx, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                       size_t in_ld, cl_mem out, size_t out_offset, size_t out_ld,
                       const ocf_norm_options *options, const ocf_launch *launch) {
  return norm_device(ctx, 1, rows, cols, in, in_offset, in_ld, out, out_offset, out_ld, options,
                     launch);
}

ocf_status ocf_norm_workspace_size(ocf_context *ctx, int rms, size_t rows, size_t cols,
                                   size_t in_offset, size_t in_ld, size_t out_offset, size_t out_ld,
                                   const ocf_norm_options *options, const ocf_launch *launch,
                                   size_t *bytes) {
  ocf_error_clear();
  if (!ctx || !bytes)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_norm_workspace_size: %s is NULL",
                    !ctx ? "ctx" : "bytes");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_norm_options opt;
  norm_operands ops;
  size_t extents[OP_COUNT];
  ocf_status status = check_call(ctx, query_labels, rms != 0, rows, cols, in_ld, out_ld, options,
                                 launch, &settings, &queue, &opt, &ops, extents);
  if (status != OCF_SUCCESS) return status;
  const ocf_norm_call call =
      norm_call(rms != 0, rows, cols, in_offset, in_ld, out_offset, out_ld, &opt, &settings);
  const ocf_run_call run = {OCF_OP_NORM, &call, NULL, queue, &settings};
  *bytes = 0;
  return ocf_run_prepare(ctx, &run, bytes);
}

/* ---- the host-array forms ---- */

/* One host array: where it starts, the bytes it spans from there (offset included) and the
   first byte the call may write. */
typedef struct host_array {
  const void *base;
  size_t bytes;  /* the span from base: (offset + extent) elements */
  size_t start;  /* byte of the first element the call touches */
  size_t ld;     /* row stride in elements (matrices) */
  size_t size;   /* element size */
  cl_mem buffer; /* its device copy */
} host_array;

static int spans_meet(const host_array *a, const host_array *b) {
  return ocf_host_ranges_meet((const char *)a->base + a->start, a->bytes - a->start,
                              (const char *)b->base + b->start, b->bytes - b->start);
}

/* The element rule of a matrix pair (out over in, residual_out over residual): the same array
   and stride (in place), or no element shared (interleaved rows may be). 1: refused. */
static int matrix_pair_bad(const host_array *o, const host_array *i, size_t rows, size_t cols) {
  const uintptr_t os = (uintptr_t)o->base + o->start, is = (uintptr_t)i->base + i->start;
  if (os == is) return o->ld != i->ld || o->size != i->size;
  if (!spans_meet(o, i)) return 0;
  const size_t distance = os > is ? os - is : is - os;
  return o->ld != i->ld || o->size != i->size || distance % o->size != 0 ||
         ocf_strided_overlap(is / o->size, rows, cols, os / o->size, rows, cols, o->ld);
}

static ocf_status norm_host(ocf_context *ctx, int rms, size_t rows, size_t cols, const void *in,
                            size_t in_ld, void *out, size_t out_ld, const void *weight,
                            const void *bias, const void *residual, void *residual_out, float *mean,
                            float *rstd, const ocf_norm_options *options) {
  const char *name = rms ? "ocf_rmsnorm_host" : "ocf_layernorm_host";
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: ctx is NULL", name);
  ocf_norm_options opt = OCF_NORM_OPTIONS_INIT;
  char label[96];
  ocf_status status;
  if (options) {
    snprintf(label, sizeof label, "%s: options", name);
    if ((status = ocf_check_struct_size(label, options->size, OPTIONS_FIRST_SIZE)) != OCF_SUCCESS)
      return status;
    memcpy(&opt, options, options->size < sizeof opt ? options->size : sizeof opt);
  }
  if (opt.weight || opt.bias || opt.residual || opt.residual_out || opt.mean || opt.rstd)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "%s: the options' buffers must be NULL (the host arrays are arguments)", name);
  /* The device call judges the options; its buffers stand for the arrays given here. */
  cl_mem marker = (cl_mem)(uintptr_t)1; /* never passed on: replaced by real buffers below */
  opt.weight = weight ? marker : NULL;
  opt.bias = bias ? marker : NULL;
  opt.residual = residual ? marker : NULL;
  opt.residual_out = residual_out ? marker : NULL;
  opt.mean = mean ? marker : NULL;
  opt.rstd = rstd ? marker : NULL;
  if ((status = check_options(name, rms, &opt)) != OCF_SUCCESS) return status;
  const size_t in_size = ocf_dtype_size(opt.in_dtype), out_size = ocf_dtype_size(opt.out_dtype);
  const size_t w_size = ocf_dtype_size(opt.weight_dtype);
  const size_t r_size = ocf_dtype_size(opt.residual_dtype);
  size_t extent[OP_COUNT] = {0};
  const size_t lds[OP_COUNT] = {in_ld, out_ld, cols, cols, opt.residual_ld, opt.residual_out_ld,
                                rows,  rows};
  const size_t sizes[OP_COUNT] = {in_size, out_size, w_size,        w_size,
                                  r_size,  r_size,   sizeof(float), sizeof(float)};
  const size_t offsets[OP_COUNT] = {0,
                                    0,
                                    opt.weight_offset,
                                    opt.bias_offset,
                                    opt.residual_offset,
                                    opt.residual_out_offset,
                                    opt.mean_offset,
                                    opt.rstd_offset};
  const void *bases[OP_COUNT] = {in, out, weight, bias, residual, residual_out, mean, rstd};
  for (int i = 0; i < OP_COUNT; i++) {
    if (i > OP_OUT && !bases[i]) continue;
    const int matrix = i == OP_IN || i == OP_OUT || i == OP_RES || i == OP_RES_OUT;
    snprintf(label, sizeof label, "%s: %s", name, operand_names[i]);
    if ((status =
             ocf_matrix_extent(label, matrix ? rows : 1, i == OP_MEAN || i == OP_RSTD ? rows : cols,
                               lds[i], sizes[i], &extent[i])) != OCF_SUCCESS)
      return status;
    if (offsets[i] > SIZE_MAX / sizes[i] - extent[i])
      return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: %s's offset plus extent overflows", name,
                      operand_names[i]);
  }
  if (extent[OP_IN] && (!in || !out))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: %s is NULL", name, !in ? "in" : "out");
  if (extent[OP_IN] == 0) return OCF_SUCCESS;

  host_array a[OP_COUNT];
  memset(a, 0, sizeof a);
  for (int i = 0; i < OP_COUNT; i++) {
    a[i].base = bases[i];
    a[i].size = sizes[i];
    a[i].ld = lds[i];
    a[i].start = offsets[i] * sizes[i];
    a[i].bytes = bases[i] ? (offsets[i] + extent[i]) * sizes[i] : 0;
  }
  /* The device call's rules, on the host arrays: in place or no element shared for the two
     matrix pairs, no byte shared between an output and any other array. */
  if (matrix_pair_bad(&a[OP_OUT], &a[OP_IN], rows, cols))
    return ocf_fail(OCF_ERR_ALIASING,
                    "%s: out shares elements with in other than exactly in place (same array "
                    "and stride)",
                    name);
  if (residual_out && matrix_pair_bad(&a[OP_RES_OUT], &a[OP_RES], rows, cols))
    return ocf_fail(OCF_ERR_ALIASING,
                    "%s: residual_out shares elements with residual other than exactly in "
                    "place (same array and stride)",
                    name);
  for (int i = 0; i < OP_COUNT; i++) {
    if (!operand_written[i] || !a[i].base) continue;
    for (int j = 0; j < OP_COUNT; j++) {
      if (j == i || !a[j].base || (i == OP_OUT && j == OP_IN) || (i == OP_RES_OUT && j == OP_RES) ||
          (operand_written[j] && j < i))
        continue;
      if (spans_meet(&a[i], &a[j]))
        return ocf_fail(OCF_ERR_ALIASING, "%s: %s overlaps %s", name, operand_names[i],
                        operand_names[j]);
    }
  }

  /* Device copies: in place pairs share one buffer; outputs start from their arrays so that
     the elements between rows come back as they were. */
  const int out_in_place = (uintptr_t)out == (uintptr_t)in;
  const int res_in_place = residual_out && (uintptr_t)residual_out == (uintptr_t)residual &&
                           opt.residual_out_offset == opt.residual_offset;
  status = OCF_SUCCESS;
  for (int i = 0; i < OP_COUNT && status == OCF_SUCCESS; i++) {
    if (!a[i].base || (i == OP_OUT && out_in_place) || (i == OP_RES_OUT && res_in_place)) continue;
    const int shared = (i == OP_IN && out_in_place) || (i == OP_RES && res_in_place);
    const cl_mem_flags flags = operand_written[i] || shared ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
    status = ocf_host_bytes(ctx, flags, a[i].bytes, a[i].base, &a[i].buffer);
  }
  if (out_in_place) a[OP_OUT].buffer = a[OP_IN].buffer;
  if (res_in_place) a[OP_RES_OUT].buffer = a[OP_RES].buffer;

  ocf_launch launch = OCF_LAUNCH_INIT;
  cl_event done = NULL;
  launch.event = &done;
  opt.weight = a[OP_WEIGHT].buffer;
  opt.bias = a[OP_BIAS].buffer;
  opt.residual = a[OP_RES].buffer;
  opt.residual_out = a[OP_RES_OUT].buffer;
  opt.mean = a[OP_MEAN].buffer;
  opt.rstd = a[OP_RSTD].buffer;
  opt.size = sizeof opt;
  if (status == OCF_SUCCESS)
    status = norm_device(ctx, rms, rows, cols, a[OP_IN].buffer, 0, in_ld, a[OP_OUT].buffer, 0,
                         out_ld, &opt, &launch);
  /* The outputs' spans come back once the call's event completes (the queue may be out of
     order). */
  for (int i = 0; i < OP_COUNT && status == OCF_SUCCESS; i++)
    if (operand_written[i] && a[i].base)
      status = ocf_host_read_bytes(ctx, a[i].buffer, a[i].start, a[i].bytes - a[i].start,
                                   (char *)(uintptr_t)a[i].base + a[i].start, done);
  if (done) clReleaseEvent(done);
  for (int i = 0; i < OP_COUNT; i++)
    if (a[i].buffer && !(i == OP_OUT && out_in_place) && !(i == OP_RES_OUT && res_in_place))
      clReleaseMemObject(a[i].buffer);
  return status;
}

ocf_status ocf_layernorm_host(ocf_context *ctx, size_t rows, size_t cols, const void *in,
                              size_t in_ld, void *out, size_t out_ld, const void *weight,
                              const void *bias, const void *residual, void *residual_out,
                              float *mean, float *rstd, const ocf_norm_options *options) {
  return norm_host(ctx, 0, rows, cols, in, in_ld, out, out_ld, weight, bias, residual, residual_out,
                   mean, rstd, options);
}

ocf_status ocf_rmsnorm_host(ocf_context *ctx, size_t rows, size_t cols, const void *in,
                            size_t in_ld, void *out, size_t out_ld, const void *weight,
                            const void *residual, void *residual_out, float *rstd,
                            const ocf_norm_options *options) {
  return norm_host(ctx, 1, rows, cols, in, in_ld, out, out_ld, weight, NULL, residual, residual_out,
                   NULL, rstd, options);
}
