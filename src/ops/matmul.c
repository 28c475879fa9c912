/* ocf_matmul, ocf_matmul_ex and ocf_matmul_host: argument checks, then the run loop
   (src/runtime/run.c) with the plan of src/plan/plan_matmul.c.

   A column-major call is turned into the row-major one it is in memory: C^T = op(B)^T op(A)^T,
   so m and n, A and B (with their transposes, offsets, leading dimensions and batch strides)
   trade places, and a bias along n runs along the row-major problem's m. Every check below runs
   on that row-major problem, with each operand keeping the caller's name in errors.

   Batches: each matrix of the batch is checked as a single call would be, and the whole batch
   of an operand spans (batch - 1) * stride + extent elements from its offset, which must not
   overflow and must fit its buffer. C's span must not overlap A's, B's or the bias's (the same
   range test single calls use), and no two C's of the batch may share an element: that is
   tested exactly, so interleaved C's (stride_c = n with ldc = batch * n, say) are fine, while
   stride_c = 0 with batch > 1 is refused as every product would write the same C. */
#include "runtime/context.h"
#include "runtime/run.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The size of the first published ocf_matmul_options (0.2). */
#define OPTIONS_FIRST_SIZE (offsetof(ocf_matmul_options, bias_dtype) + sizeof(ocf_dtype))

/* A data type the matmul kernels take (all of ocf_dtype: the storage macros of cl/common.cl). */
static ocf_status check_matmul_dtype(const char *what, ocf_dtype dtype) {
  if (ocf_dtype_size(dtype) == 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: data type %d is not an ocf_dtype", what,
                    (int)dtype);
  return OCF_SUCCESS;
}

/* Checks the options' values (the buffers come later, with the shapes). */
static ocf_status check_options(const ocf_matmul_options *opt) {
  ocf_status status;
  if ((status = check_matmul_dtype("ocf_matmul: A", opt->a_dtype)) != OCF_SUCCESS ||
      (status = check_matmul_dtype("ocf_matmul: B", opt->b_dtype)) != OCF_SUCCESS ||
      (status = check_matmul_dtype("ocf_matmul: C", opt->c_dtype)) != OCF_SUCCESS ||
      (status = check_matmul_dtype("ocf_matmul: bias", opt->bias_dtype)) != OCF_SUCCESS)
    return status;
  if ((unsigned)opt->precision > OCF_PRECISION_3XTF32)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul: precision %d is not an ocf_precision",
                    (int)opt->precision);
  if ((unsigned)opt->layout > OCF_COL_MAJOR)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul: layout %d is not an ocf_layout",
                    (int)opt->layout);
  if ((unsigned)opt->activation > OCF_ACTIVATION_SILU)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul: activation %d is not an ocf_activation",
                    (int)opt->activation);
  if ((unsigned)opt->bias_axis > OCF_BIAS_M)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul: bias_axis %d is not an ocf_bias_axis",
                    (int)opt->bias_axis);
  if (opt->bias_axis != OCF_BIAS_NONE && !opt->bias)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul: bias_axis is set but bias is NULL");
  if (opt->bias_axis == OCF_BIAS_NONE && opt->bias)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_matmul: a bias buffer is given but bias_axis is OCF_BIAS_NONE");
  return OCF_SUCCESS;
}

/* One operand of the row-major problem. */
typedef struct operand {
  const char *name; /* "ocf_matmul: A", for errors */
  cl_mem buffer;
  ocf_place place; /* for the overlap tests: C's parent is queried once */
  size_t offset, ld, stride;
  size_t element_size;
  size_t rows, cols; /* as stored */
  size_t extent;     /* elements of one matrix */
  size_t span;       /* elements of the whole batch from offset; 0 when empty */
} operand;

static operand operand_of(const char *name, cl_mem buffer, size_t offset, size_t ld, size_t stride,
                          ocf_dtype dtype) {
  operand x;
  memset(&x, 0, sizeof x);
  x.name = name;
  x.buffer = buffer;
  x.place = ocf_place_of(buffer);
  x.offset = offset, x.ld = ld, x.stride = stride;
  x.element_size = ocf_dtype_size(dtype);
  return x;
}

/* A call as the row-major problem the kernels run: op(a) op(b) + C, where a and b are the
   caller's A and B, or B and A for a column-major call. */
typedef struct problem {
  ocf_matmul_call call;
  operand a, b, c, bias;
  float alpha, beta;
  size_t batch;
} problem;

/* The stored shape of A (or B) given its transpose: rows x cols. */
static void stored_shape(ocf_transpose trans, size_t inner, size_t outer, size_t *rows,
                         size_t *cols) {
  *rows = trans == OCF_TRANS ? inner : outer;
  *cols = trans == OCF_TRANS ? outer : inner;
}

/* Whether a plan with optional scratch may take the call: the staged wgmma plans
   (src/plan/plan_matmul_wgmma.c, rule 4: fp32 A and B in TF32 or 3XTF32), its split-K plans
   (rule 5: those and 16-bit A and B), or the padded tiled plans (src/plan/plan_matmul.c, rule 5:
   an fp32 A or B off aligned vector loads, or across a rim in few waves). */
static int staging_may_apply(const ocf_matmul_call *call) {
  return (call->a_dtype == OCF_F32 && call->b_dtype == OCF_F32 &&
          (call->precision == OCF_PRECISION_TF32 || call->precision == OCF_PRECISION_3XTF32)) ||
         (call->a_dtype == call->b_dtype && call->a_dtype != OCF_F32) || /* wgmma split K */
         ocf_matmul_pad_may_apply(call);
}

static void make_problem(ocf_transpose trans_a, ocf_transpose trans_b, size_t m, size_t n, size_t k,
                         float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem b,
                         size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                         size_t ldc, const ocf_matmul_options *o, const ocf_launch *settings,
                         problem *p) {
  const int swap = o->layout == OCF_COL_MAJOR;
  operand A = operand_of(swap ? "ocf_matmul: A (column-major)" : "ocf_matmul: A", a, a_offset, lda,
                         o->stride_a, o->a_dtype);
  operand B = operand_of(swap ? "ocf_matmul: B (column-major)" : "ocf_matmul: B", b, b_offset, ldb,
                         o->stride_b, o->b_dtype);
  p->a = swap ? B : A;
  p->b = swap ? A : B;
  p->c = operand_of(swap ? "ocf_matmul: C (column-major)" : "ocf_matmul: C", c, c_offset, ldc,
                    o->stride_c, o->c_dtype);
  p->bias = operand_of("ocf_matmul: bias", o->bias, o->bias_offset, 0, 0, o->bias_dtype);
  p->alpha = alpha, p->beta = beta;
  p->batch = o->batch ? o->batch : 1;

  ocf_matmul_call *call = &p->call;
  memset(call, 0, sizeof *call);
  call->trans_a = swap ? trans_b : trans_a;
  call->trans_b = swap ? trans_a : trans_b;
  call->m = swap ? n : m;
  call->n = swap ? m : n;
  call->k = k;
  call->a_off = p->a.offset, call->lda = p->a.ld, call->stride_a = p->a.stride;
  call->b_off = p->b.offset, call->ldb = p->b.ld, call->stride_b = p->b.stride;
  call->c_off = c_offset, call->ldc = ldc, call->stride_c = o->stride_c;
  call->a_dtype = swap ? o->b_dtype : o->a_dtype;
  call->b_dtype = swap ? o->a_dtype : o->b_dtype;
  call->c_dtype = o->c_dtype;
  call->variant = settings->variant;
  call->workgroup = settings->workgroup_size;
  call->batch = p->batch;
  call->precision = o->precision;
  call->activation = o->activation;
  call->bias_axis = !swap                        ? o->bias_axis
                    : o->bias_axis == OCF_BIAS_N ? OCF_BIAS_M
                    : o->bias_axis == OCF_BIAS_M ? OCF_BIAS_N
                                                 : OCF_BIAS_NONE;
  call->bias_dtype = o->bias_dtype;

  /* op(a) is m x k (stored k x m transposed), op(b) k x n (n x k), C m x n; a bias runs
     along n or m. */
  stored_shape((ocf_transpose)call->trans_a, call->k, call->m, &p->a.rows, &p->a.cols);
  stored_shape((ocf_transpose)call->trans_b, call->n, call->k, &p->b.rows, &p->b.cols);
  p->c.rows = call->m, p->c.cols = call->n;
  p->bias.rows = 1;
  p->bias.cols = call->bias_axis == OCF_BIAS_N ? call->n : call->m;
  p->bias.ld = p->bias.cols;
}

/* Extent of one matrix and span of the batch, checked for overflow in elements and bytes. */
static ocf_status measure(operand *x, size_t batch) {
  ocf_status status =
      ocf_matrix_extent(x->name, x->rows, x->cols, x->ld, x->element_size, &x->extent);
  if (status != OCF_SUCCESS) return status;
  x->span = x->extent;
  if (x->extent == 0 || batch <= 1) return OCF_SUCCESS;
  const size_t limit = SIZE_MAX / x->element_size;
  if (x->stride != 0 && (batch - 1 > (limit - x->extent) / x->stride))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "%s: a batch of %zu matrices %zu elements apart overflows the addressable "
                    "size",
                    x->name, batch, x->stride);
  x->span = (batch - 1) * x->stride + x->extent;
  return OCF_SUCCESS;
}

/* Refuses an output whose span meets an input's (OCF_ERR_ALIASING, naming the input), or passes
   on a failed buffer query. */
static ocf_status check_disjoint(operand *out, operand *in, const char *in_name) {
  int overlap = 0, same_start = 0;
  ocf_status status = ocf_places_overlap(
      &out->place, out->offset * out->element_size, out->span * out->element_size, &in->place,
      in->offset * in->element_size, in->span * in->element_size, &overlap, &same_start);
  if (status != OCF_SUCCESS) return status;
  if (overlap) return ocf_fail(OCF_ERR_ALIASING, "ocf_matmul: C overlaps %s", in_name);
  return OCF_SUCCESS;
}

/* Whether two C's of a batch (rows x cols, row stride ld >= cols, `stride` apart) share an
   element. C_i and C_(i+t) do when t * stride = dr * ld + dc for some |dr| < rows, |dc| < cols;
   with q, e the quotient and remainder of t * stride by ld, only (dr, dc) = (q, e) and
   (q + 1, e - ld) can satisfy |dc| < cols <= ld. Differences past the first matrix's extent
   cannot, so the loop stops there. */
static int batch_self_overlap(size_t rows, size_t cols, size_t ld, size_t stride, size_t batch) {
  if (batch <= 1 || rows == 0 || cols == 0) return 0;
  if (stride == 0) return 1;
  const size_t extent = (rows - 1) * ld + cols;
  for (size_t t = 1; t < batch && stride <= (extent - 1) / t; t++) {
    size_t d = t * stride, q = d / ld, e = d % ld;
    if ((q < rows && e < cols) || (q + 1 < rows && ld - e < cols)) return 1;
  }
  return 0;
}

/* Every check of the shapes, buffers and overlaps (see the top of this file). */
static ocf_status check_problem(const ocf_context *ctx, problem *p) {
  ocf_status status;
  operand *const matrices[3] = {&p->a, &p->b, &p->c};
  for (int i = 0; i < 3; i++)
    if ((status = measure(matrices[i], p->batch)) != OCF_SUCCESS) return status;
  for (int i = 0; i < 3; i++)
    if ((status = ocf_check_buffer(ctx, matrices[i]->name, matrices[i]->buffer, matrices[i]->offset,
                                   matrices[i]->span, matrices[i]->element_size)) != OCF_SUCCESS)
      return status;
  const int has_bias = p->call.bias_axis != OCF_BIAS_NONE;
  if (has_bias) {
    p->bias.extent = p->bias.span = p->bias.cols;
    if ((status = ocf_check_buffer(ctx, p->bias.name, p->bias.buffer, p->bias.offset, p->bias.span,
                                   p->bias.element_size)) != OCF_SUCCESS)
      return status;
  }
  /* p->a and p->b are named by the caller's operands, whichever way round they run. */
  if ((status = check_disjoint(&p->c, &p->a, p->a.name + strlen("ocf_matmul: "))) != OCF_SUCCESS ||
      (status = check_disjoint(&p->c, &p->b, p->b.name + strlen("ocf_matmul: "))) != OCF_SUCCESS ||
      (has_bias && (status = check_disjoint(&p->c, &p->bias, "the bias")) != OCF_SUCCESS))
    return status;
  if (batch_self_overlap(p->c.rows, p->c.cols, p->c.ld, p->c.stride, p->batch))
    return ocf_fail(OCF_ERR_ALIASING,
                    "ocf_matmul: two C's of the batch share elements (stride_c %zu with ldc %zu "
                    "for %zu x %zu matrices)",
                    p->c.stride, p->c.ld, p->c.rows, p->c.cols);
  return OCF_SUCCESS;
}

/* The call's arguments as the tiled kernels' frame, the source of every matmul frame
   (src/ops/matmul_row.c: the plan adds its K splits; the matrix-unit kernels take this frame,
   the skinny kernels one derived from it). Without a bias the kernels still take a buffer
   argument, never read: NULL, which the binder sets once, not at every call. */
static ocf_matmul_frame frame_source(const problem *p) {
  const ocf_matmul_call *call = &p->call;
  ocf_matmul_frame f = {.m = call->m,
                        .n = call->n,
                        .k = call->k,
                        .k_split = 0,
                        .splits = 0,
                        .batch = p->batch,
                        .alpha = p->alpha,
                        .a = p->a.buffer,
                        .a_off = p->a.offset,
                        .lda = p->a.ld,
                        .stride_a = p->a.stride,
                        .b = p->b.buffer,
                        .b_off = p->b.offset,
                        .ldb = p->b.ld,
                        .stride_b = p->b.stride,
                        .beta = p->beta,
                        .c = p->c.buffer,
                        .c_off = p->c.offset,
                        .ldc = p->c.ld,
                        .stride_c = p->c.stride,
                        .bias = call->bias_axis != OCF_BIAS_NONE ? p->bias.buffer : NULL,
                        .bias_off = p->bias.offset,
                        .partial = NULL};
  return f;
}

/* Runs the problem through the run loop (src/runtime/run.c: plans again when a built kernel
   takes fewer work-items than planned, when a probe of the matrix units was due, and when a
   matrix-unit program fails to build after its probe passed), or for the size query
   (`workspace` not NULL) prepares it. */
static ocf_status run_problem(ocf_context *ctx, cl_command_queue queue, const ocf_launch *settings,
                              const problem *p, size_t *workspace) {
  const ocf_matmul_frame source = frame_source(p);
  const ocf_run_call run = {OCF_OP_MATMUL, &p->call, &source, queue, settings};
  return workspace ? ocf_run_prepare(ctx, &run, workspace) : ocf_run(ctx, &run);
}

/* The checks ocf_matmul_ex and its workspace size query share, so that the query answers for
   the call it describes: the launch (*settings, *queue), the transposes and the options (read
   into *opt). `name` begins every message. The query need not be given the bias buffer
   (query != 0): the plan only asks whether there is one, so a placeholder stands in for it. */
static ocf_status check_call(ocf_context *ctx, const char *name, ocf_transpose trans_a,
                             ocf_transpose trans_b, const ocf_matmul_options *options,
                             const ocf_launch *launch, int query, ocf_launch *settings,
                             cl_command_queue *queue, ocf_matmul_options *opt) {
  ocf_status status = ocf_check_launch(ctx, launch, settings, queue);
  if (status != OCF_SUCCESS) return status;
  const int bad_a = trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS;
  if (bad_a || (trans_b != OCF_NO_TRANS && trans_b != OCF_TRANS))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: trans_%s = %d is not an ocf_transpose", name,
                    bad_a ? "a" : "b", bad_a ? (int)trans_a : (int)trans_b);
  *opt = (ocf_matmul_options)OCF_MATMUL_OPTIONS_INIT;
  if (options) {
    char label[64];
    snprintf(label, sizeof label, "%s: options", name);
    if ((status = ocf_read_struct(label, options, OPTIONS_FIRST_SIZE, opt, sizeof *opt)) !=
        OCF_SUCCESS)
      return status;
  }
  if (query && opt->bias_axis != OCF_BIAS_NONE && !opt->bias) opt->bias = (cl_mem)1;
  return check_options(opt);
}

ocf_status ocf_matmul_ex(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                         size_t n, size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda,
                         cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c,
                         size_t c_offset, size_t ldc, const ocf_matmul_options *options,
                         const ocf_launch *launch) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul: ctx is NULL");
  if (!a || !b || !c)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul: %s: buffer is NULL",
                    !a   ? "A"
                    : !b ? "B"
                         : "C");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_matmul_options opt;
  ocf_status status =
      check_call(ctx, "ocf_matmul", trans_a, trans_b, options, launch, 0, &settings, &queue, &opt);
  if (status != OCF_SUCCESS) return status;
  problem p;
  make_problem(trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta, c,
               c_offset, ldc, &opt, &settings, &p);
  if ((status = check_problem(ctx, &p)) != OCF_SUCCESS) return status;
  operand *const operands[4] = {&p.a, &p.b, &p.c, &p.bias};
  for (int i = 0; i < 4; i++)
    if ((i < 3 || p.call.bias_axis != OCF_BIAS_NONE) &&
        (status = ocf_workspace_check_disjoint(&settings, operands[i]->name, operands[i]->buffer,
                                               operands[i]->offset * operands[i]->element_size,
                                               operands[i]->span * operands[i]->element_size)) !=
            OCF_SUCCESS)
      return status;
  /* alpha == 0 or k == 0: C = act(beta * C + bias); A and B are not read (no K loop). */
  if (alpha == 0.0f) p.call.k = 0;
  if (p.call.k == 0) p.alpha = 0.0f;
  status = run_problem(ctx, queue, &settings, &p, NULL);
  /* The library's scratch for a staged wgmma plan or a padded tiled plan could not be had:
     nothing but scratch was written (their steps before the last write only scratch), and the
     call runs without them. */
  if ((status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_OUT_OF_RESOURCES ||
       status == OCF_ERR_OUT_OF_HOST_MEMORY) &&
      staging_may_apply(&p.call) && !settings.workspace) {
    ocf_error_clear();
    p.call.no_staging = 1;
    status = run_problem(ctx, queue, &settings, &p, NULL);
  }
  return status;
}

ocf_status ocf_matmul_workspace_size(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b,
                                     size_t m, size_t n, size_t k, float alpha, cl_mem a,
                                     size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                                     size_t ldb, float beta, cl_mem c, size_t c_offset, size_t ldc,
                                     const ocf_matmul_options *options, const ocf_launch *launch,
                                     size_t *bytes) {
  ocf_error_clear();
  if (!ctx || !bytes)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_workspace_size: %s is NULL",
                    !ctx ? "ctx" : "bytes");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_matmul_options opt;
  ocf_status status = check_call(ctx, "ocf_matmul_workspace_size", trans_a, trans_b, options,
                                 launch, 1, &settings, &queue, &opt);
  if (status != OCF_SUCCESS) return status;
  problem p;
  make_problem(trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta, c,
               c_offset, ldc, &opt, &settings, &p);
  operand *const matrices[3] = {&p.a, &p.b, &p.c};
  for (int i = 0; i < 3; i++)
    if ((status = measure(matrices[i], p.batch)) != OCF_SUCCESS) return status;
  if (alpha == 0.0f) p.call.k = 0;
  if (p.call.k == 0) p.alpha = 0.0f;
  *bytes = 0;
  return run_problem(ctx, queue, &settings, &p, bytes);
}

ocf_status ocf_matmul(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                      size_t n, size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda,
                      cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                      size_t ldc, const ocf_launch *launch) {
  return ocf_matmul_ex(ctx, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb,
                       beta, c, c_offset, ldc, NULL, launch);
}

/* ---- ocf_matmul_host ---- */

ocf_status ocf_matmul_host(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                           size_t n, size_t k, float alpha, const float *a, size_t lda,
                           const float *b, size_t ldb, float beta, float *c, size_t ldc) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_host: ctx is NULL");
  if ((trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS) ||
      (trans_b != OCF_NO_TRANS && trans_b != OCF_TRANS))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul_host: a transpose is not an ocf_transpose");
  size_t a_rows, a_cols, b_rows, b_cols, a_extent, b_extent, c_extent;
  stored_shape(trans_a, k, m, &a_rows, &a_cols);
  stored_shape(trans_b, n, k, &b_rows, &b_cols);
  ocf_status status;
  if ((status = ocf_matrix_extent("ocf_matmul_host: A", a_rows, a_cols, lda, sizeof(float),
                                  &a_extent)) != OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul_host: B", b_rows, b_cols, ldb, sizeof(float),
                                  &b_extent)) != OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul_host: C", m, n, ldc, sizeof(float), &c_extent)) !=
          OCF_SUCCESS)
    return status;
  if ((a_extent && !a) || (b_extent && !b) || (c_extent && !c))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_host: %s is NULL",
                    a_extent && !a   ? "a"
                    : b_extent && !b ? "b"
                                     : "c");
  if (c_extent == 0) return OCF_SUCCESS;

  /* C is read only when beta != 0; otherwise the device copy starts uninitialised and only the
     m x n elements are copied back, so the gaps between rows of the host array stay as they
     were. The device copy holds m whole rows of ldc (the host array's last row may be short):
     some drivers check a rectangle read against rows * row pitch. */
  if (m > SIZE_MAX / sizeof(float) / ldc)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_matmul_host: C of %zu rows of %zu overflows", m,
                    ldc);
  cl_mem ab = NULL, bb = NULL, cb = NULL;
  status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, a_extent, a, &ab);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, b_extent, b, &bb);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, m * ldc, NULL, &cb);
  if (status == OCF_SUCCESS && beta != 0.0f) {
    cl_int err = clEnqueueWriteBuffer(ctx->queue, cb, CL_TRUE, 0, c_extent * sizeof(float), c, 0,
                                      NULL, NULL);
    if (err != CL_SUCCESS) status = ocf_fail_cl(err, "clEnqueueWriteBuffer");
  }
  /* The write above is blocking (done before the call's first command is queued); the
     read-back waits for the call's event, as the queue may be out of order. */
  ocf_launch launch = OCF_LAUNCH_INIT;
  cl_event done = NULL;
  launch.event = &done;
  if (status == OCF_SUCCESS)
    status = ocf_matmul(ctx, trans_a, trans_b, m, n, k, alpha, ab, 0, lda, bb, 0, ldb, beta, cb, 0,
                        ldc, &launch);
  if (status == OCF_SUCCESS) {
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {n * sizeof(float), m, 1};
    cl_int err =
        clEnqueueReadBufferRect(ctx->queue, cb, CL_TRUE, origin, origin, region,
                                ldc * sizeof(float), 0, ldc * sizeof(float), 0, c, 1, &done, NULL);
    if (err != CL_SUCCESS) status = ocf_fail_cl(err, "clEnqueueReadBufferRect");
  }
  if (done) clReleaseEvent(done);
  if (cb) clReleaseMemObject(cb);
  if (bb) clReleaseMemObject(bb);
  if (ab) clReleaseMemObject(ab);
  return status;
}
