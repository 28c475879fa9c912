/* ocf_matmul, ocf_matmul_ex and ocf_matmul_host: argument checks, then the plan
   (src/plan/plan_matmul.c) and its launch. */
#include "runtime/context.h"

#include <stdint.h>
#include <string.h>

/* The size of the first published ocf_matmul_options (0.2). */
#define OPTIONS_FIRST_SIZE (offsetof(ocf_matmul_options, bias_dtype) + sizeof(ocf_dtype))

/* Checks the options' values. The ones whose kernels are still to come are refused. */
static ocf_status check_options(const ocf_matmul_options *opt) {
  ocf_status status;
  if ((status = ocf_check_dtype("ocf_matmul: A", opt->a_dtype)) != OCF_SUCCESS ||
      (status = ocf_check_dtype("ocf_matmul: B", opt->b_dtype)) != OCF_SUCCESS ||
      (status = ocf_check_dtype("ocf_matmul: C", opt->c_dtype)) != OCF_SUCCESS)
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
  if (opt->precision != OCF_PRECISION_FP32 || opt->layout != OCF_ROW_MAJOR || opt->batch > 1 ||
      opt->activation != OCF_ACTIVATION_NONE || opt->bias_axis != OCF_BIAS_NONE)
    return ocf_fail(OCF_ERR_UNSUPPORTED, "ocf_matmul: precision modes, column-major layout, "
                                         "batches and epilogues are not built yet");
  return OCF_SUCCESS;
}

/* The stored shape of A (or B) given its transpose: rows x cols. */
static void stored_shape(ocf_transpose trans, size_t inner, size_t outer, size_t *rows,
                         size_t *cols) {
  *rows = trans == OCF_TRANS ? inner : outer;
  *cols = trans == OCF_TRANS ? outer : inner;
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
  ocf_status status = ocf_check_launch(ctx, launch, &settings, &queue);
  if (status != OCF_SUCCESS) return status;
  if ((trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS) ||
      (trans_b != OCF_NO_TRANS && trans_b != OCF_TRANS))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul: trans_%s = %d is not an ocf_transpose",
                    trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS ? "a" : "b",
                    trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS ? (int)trans_a : (int)trans_b);
  ocf_matmul_options opt = OCF_MATMUL_OPTIONS_INIT;
  if (options) {
    if ((status = ocf_check_struct_size("ocf_matmul: options", options->size,
                                        OPTIONS_FIRST_SIZE)) != OCF_SUCCESS)
      return status;
    /* A caller built against a newer header may pass a larger struct: read what we know. */
    memcpy(&opt, options, options->size < sizeof opt ? options->size : sizeof opt);
  }
  if ((status = check_options(&opt)) != OCF_SUCCESS) return status;
  const size_t a_size = ocf_dtype_size(opt.a_dtype), b_size = ocf_dtype_size(opt.b_dtype),
               c_size = ocf_dtype_size(opt.c_dtype);

  /* A is m x k (k x m transposed), B is k x n (n x k transposed), C is m x n. */
  size_t a_rows, a_cols, b_rows, b_cols, a_extent, b_extent, c_extent;
  stored_shape(trans_a, k, m, &a_rows, &a_cols);
  stored_shape(trans_b, n, k, &b_rows, &b_cols);
  if ((status = ocf_matrix_extent("ocf_matmul: A", a_rows, a_cols, lda, a_size, &a_extent)) !=
          OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul: B", b_rows, b_cols, ldb, b_size, &b_extent)) !=
          OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul: C", m, n, ldc, c_size, &c_extent)) != OCF_SUCCESS)
    return status;
  if ((status = ocf_check_buffer(ctx, "ocf_matmul: A", a, a_offset, a_extent, a_size)) !=
          OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "ocf_matmul: B", b, b_offset, b_extent, b_size)) !=
          OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "ocf_matmul: C", c, c_offset, c_extent, c_size)) !=
          OCF_SUCCESS)
    return status;
  int overlap = 0, same_start = 0;
  if ((status = ocf_ranges_overlap(c, c_offset * c_size, c_extent * c_size, a, a_offset * a_size,
                                   a_extent * a_size, &overlap, &same_start)) != OCF_SUCCESS)
    return status;
  if (overlap) return ocf_fail(OCF_ERR_ALIASING, "ocf_matmul: C overlaps A");
  if ((status = ocf_ranges_overlap(c, c_offset * c_size, c_extent * c_size, b, b_offset * b_size,
                                   b_extent * b_size, &overlap, &same_start)) != OCF_SUCCESS)
    return status;
  if (overlap) return ocf_fail(OCF_ERR_ALIASING, "ocf_matmul: C overlaps B");

  /* alpha == 0 or k == 0: C = beta * C, and A and B are not read (the K loop does not run). */
  size_t k_run = alpha == 0.0f ? 0 : k;
  float alpha_run = k_run == 0 ? 0.0f : alpha;
  const ocf_matmul_call call = {trans_a,
                                trans_b,
                                m,
                                n,
                                k_run,
                                a_offset,
                                lda,
                                b_offset,
                                ldb,
                                c_offset,
                                ldc,
                                opt.a_dtype,
                                opt.b_dtype,
                                opt.c_dtype,
                                settings.variant,
                                settings.workgroup_size};
  ocf_matmul_frame frame = {m, n,        k_run, alpha_run, a, a_offset, lda,
                            b, b_offset, ldb,   beta,      c, c_offset, ldc};
  const ocf_shape shape = {{m, n, k}};
  ocf_tuning_values tuning;
  ocf_context_tuning_for(ctx, OCF_OP_MATMUL, opt.a_dtype, &shape, &tuning);
  for (;;) {
    ocf_device_facts facts;
    ocf_context_facts(ctx, &facts);
    ocf_plan plan;
    status = ocf_plan_matmul(&facts, &tuning, &call, &plan);
    if (status != OCF_SUCCESS) return status;
    if (m == 0 || n == 0) return ocf_dispatch_nothing(queue, &settings);
    int replan = 0;
    status = ocf_launch_plan(ctx, queue, &plan, &frame, NULL, &settings, &replan);
    if (!replan) return status;
    ocf_error_clear();
  }
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
  if (status == OCF_SUCCESS)
    status = ocf_matmul(ctx, trans_a, trans_b, m, n, k, alpha, ab, 0, lda, bb, 0, ldb, beta, cb, 0,
                        ldc, NULL);
  if (status == OCF_SUCCESS) {
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {n * sizeof(float), m, 1};
    cl_int err =
        clEnqueueReadBufferRect(ctx->queue, cb, CL_TRUE, origin, origin, region,
                                ldc * sizeof(float), 0, ldc * sizeof(float), 0, c, 0, NULL, NULL);
    if (err != CL_SUCCESS) status = ocf_fail_cl(err, "clEnqueueReadBufferRect");
  }
  if (cb) clReleaseMemObject(cb);
  if (bb) clReleaseMemObject(bb);
  if (ab) clReleaseMemObject(ab);
  return status;
}
