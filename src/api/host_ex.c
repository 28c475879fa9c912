/* ocf_softmax_host_ex and ocf_matmul_host_ex: the host-array forms of the _ex calls.

   Each measures the span of every host array (first to last element, a batch's matrices
   included) from the call's shapes, strides and data types, refuses what only the host form can
   get wrong (NULL arrays, a cl_mem where a host array goes, host arrays that overlap), copies each
   span into a temporary device buffer as the buffer is created (nothing is enqueued), and calls the
   device form, which checks everything else before it enqueues anything. The output's span is read
   back with a wait on the device call's event, which is what keeps the read after the kernels on an
   out-of-order queue. */
#include "runtime/context.h"

#include <stdint.h>
#include <string.h>

/* The first published sizes of the options structs (0.2), as in src/ops. */
#define SOFTMAX_OPTIONS_FIRST_SIZE (offsetof(ocf_softmax_options, lengths_offset) + sizeof(size_t))
#define MATMUL_OPTIONS_FIRST_SIZE (offsetof(ocf_matmul_options, bias_dtype) + sizeof(ocf_dtype))

static void release_buffer(cl_mem buffer) {
  if (buffer) clReleaseMemObject(buffer);
}

/* ---- ocf_softmax_host_ex ---- */

ocf_status ocf_softmax_host_ex(ocf_context *ctx, size_t rows, size_t cols, const void *in,
                               size_t in_ld, void *out, size_t out_ld, const cl_uint *lengths,
                               const ocf_softmax_options *options) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_host_ex: ctx is NULL");
  ocf_softmax_options opt = OCF_SOFTMAX_OPTIONS_INIT;
  ocf_status status;
  if (options) {
    if ((status = ocf_read_struct("ocf_softmax_host_ex: options", options,
                                  SOFTMAX_OPTIONS_FIRST_SIZE, &opt, sizeof opt)) != OCF_SUCCESS)
      return status;
  }
  if (opt.lengths)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_softmax_host_ex: options->lengths is a cl_mem; the host form takes the "
                    "lengths as its host array argument `lengths`");
  const size_t in_size = ocf_dtype_size(opt.in_dtype), out_size = ocf_dtype_size(opt.out_dtype);
  if (in_size == 0 || out_size == 0)
    return ocf_fail(
        OCF_ERR_INVALID_VALUE, "ocf_softmax_host_ex: %s data type %d is not an ocf_dtype",
        in_size == 0 ? "in" : "out", (int)(in_size == 0 ? opt.in_dtype : opt.out_dtype));
  size_t in_extent = 0, out_extent = 0;
  if ((status = ocf_matrix_extent("ocf_softmax_host_ex: in", rows, cols, in_ld, in_size,
                                  &in_extent)) != OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_softmax_host_ex: out", rows, cols, out_ld, out_size,
                                  &out_extent)) != OCF_SUCCESS)
    return status;
  if (in_extent && (!in || !out))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_host_ex: %s is NULL", !in ? "in" : "out");
  if (!lengths && opt.lengths_offset != 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT,
                    "ocf_softmax_host_ex: lengths_offset is %zu but lengths is NULL",
                    opt.lengths_offset);
  if (lengths && (opt.lengths_offset > SIZE_MAX / sizeof(cl_uint) ||
                  rows > SIZE_MAX / sizeof(cl_uint) - opt.lengths_offset))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "ocf_softmax_host_ex: lengths_offset %zu + %zu rows overflows",
                    opt.lengths_offset, rows);
  const cl_uint *row_lengths = lengths ? lengths + opt.lengths_offset : NULL;

  /* Arrays that meet go to the device as one buffer over both spans, at their distances in it,
     so that ocf_softmax_ex decides exactly which sharing is allowed (in place, interleaved rows);
     a distance that is not a whole number of elements shares part of an element. */
  const size_t in_bytes = in_extent * in_size, out_bytes = out_extent * out_size;
  const int shared = ocf_host_ranges_meet(in, in_bytes, out, out_bytes);
  const uintptr_t in_start = (uintptr_t)in, out_start = (uintptr_t)out;
  const uintptr_t base = shared && in_start < out_start ? in_start : out_start;
  size_t in_offset = 0, out_offset = 0;
  if (shared) {
    if ((in_start - base) % in_size != 0 || (out_start - base) % out_size != 0)
      return ocf_fail(OCF_ERR_ALIASING, "ocf_softmax_host_ex: out and in overlap at a distance "
                                        "that is not a whole number of elements");
    in_offset = (in_start - base) / in_size;
    out_offset = (out_start - base) / out_size;
  }

  cl_mem in_buffer = NULL, out_buffer = NULL, lengths_buffer = NULL;
  if (shared) {
    const uintptr_t in_end = in_start + in_bytes, out_end = out_start + out_bytes;
    status = ocf_host_bytes(ctx, CL_MEM_READ_WRITE, (in_end > out_end ? in_end : out_end) - base,
                            (const void *)base, &in_buffer);
    out_buffer = in_buffer;
  } else {
    status = ocf_host_bytes(ctx, CL_MEM_READ_ONLY, in_bytes, in, &in_buffer);
    /* The span comes back whole: gaps between rows go down with their values. */
    if (status == OCF_SUCCESS)
      status = ocf_host_bytes(ctx, CL_MEM_READ_WRITE, out_bytes,
                              rows > 1 && out_ld > cols ? out : NULL, &out_buffer);
  }
  if (status == OCF_SUCCESS && lengths) {
    status =
        ocf_host_bytes(ctx, CL_MEM_READ_ONLY, rows * sizeof(cl_uint), row_lengths, &lengths_buffer);
    opt.lengths = lengths_buffer;
    opt.lengths_offset = 0;
  }
  cl_event done = NULL;
  if (status == OCF_SUCCESS) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.event = &done;
    status = ocf_softmax_ex(ctx, rows, cols, in_buffer, in_offset, in_ld, out_buffer, out_offset,
                            out_ld, &opt, &launch);
  }
  if (status == OCF_SUCCESS)
    status = ocf_host_read_bytes(ctx, out_buffer, out_offset * out_size, out_bytes, out, done);
  if (done) clReleaseEvent(done);
  release_buffer(lengths_buffer);
  if (out_buffer != in_buffer) release_buffer(out_buffer);
  release_buffer(in_buffer);
  return status;
}

/* ---- ocf_matmul_host_ex ---- */

/* One host array of a matmul call: its span in elements (a batch's matrices included). */
typedef struct host_operand {
  const char *name;
  const void *data;
  size_t element_size;
  size_t span;
} host_operand;

/* The span of `batch` matrices of rows x cols (row stride ld, `stride` apart) in elements, or
   an error when a stride is short or the span overflows size_t bytes. */
static ocf_status measure_span(host_operand *x, size_t rows, size_t cols, size_t ld, size_t stride,
                               size_t batch) {
  size_t extent = 0;
  ocf_status status = ocf_matrix_extent(x->name, rows, cols, ld, x->element_size, &extent);
  if (status != OCF_SUCCESS) return status;
  x->span = extent;
  if (extent == 0 || batch <= 1) return OCF_SUCCESS;
  if (stride != 0 && batch - 1 > (SIZE_MAX / x->element_size - extent) / stride)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "%s: a batch of %zu matrices %zu elements apart overflows", x->name, batch,
                    stride);
  x->span = (batch - 1) * stride + extent;
  return OCF_SUCCESS;
}

ocf_status ocf_matmul_host_ex(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b,
                              size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                              const void *b, size_t ldb, float beta, void *c, size_t ldc,
                              const void *bias, const ocf_matmul_options *options) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_host_ex: ctx is NULL");
  if ((trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS) ||
      (trans_b != OCF_NO_TRANS && trans_b != OCF_TRANS))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_matmul_host_ex: trans_%s = %d is not an ocf_transpose",
                    trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS ? "a" : "b",
                    trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS ? (int)trans_a : (int)trans_b);
  ocf_matmul_options opt = OCF_MATMUL_OPTIONS_INIT;
  ocf_status status;
  if (options) {
    if ((status = ocf_read_struct("ocf_matmul_host_ex: options", options, MATMUL_OPTIONS_FIRST_SIZE,
                                  &opt, sizeof opt)) != OCF_SUCCESS)
      return status;
  }
  if (opt.bias)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_matmul_host_ex: options->bias is a cl_mem; the host form takes the bias "
                    "as its host array argument `bias`");
  host_operand A = {"ocf_matmul_host_ex: A", a, ocf_dtype_size(opt.a_dtype), 0};
  host_operand B = {"ocf_matmul_host_ex: B", b, ocf_dtype_size(opt.b_dtype), 0};
  host_operand C = {"ocf_matmul_host_ex: C", c, ocf_dtype_size(opt.c_dtype), 0};
  host_operand BIAS = {"ocf_matmul_host_ex: bias", bias, ocf_dtype_size(opt.bias_dtype), 0};
  host_operand *const all[4] = {&A, &B, &C, &BIAS};
  for (int i = 0; i < 4; i++)
    if (all[i]->element_size == 0)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: data type is not an ocf_dtype", all[i]->name);
  if ((unsigned)opt.layout > OCF_COL_MAJOR)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul_host_ex: layout %d is not an ocf_layout",
                    (int)opt.layout);
  if ((unsigned)opt.bias_axis > OCF_BIAS_M)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_matmul_host_ex: bias_axis %d is not an ocf_bias_axis", (int)opt.bias_axis);
  if (opt.bias_axis != OCF_BIAS_NONE && !bias)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_host_ex: bias_axis is set but bias is NULL");
  if (opt.bias_axis == OCF_BIAS_NONE && bias)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_matmul_host_ex: a bias array is given but bias_axis is OCF_BIAS_NONE");

  /* Stored shapes, as rows x cols of a row-major array: op(A) is m x k, op(B) k x n; a
     column-major matrix of r x c is, in memory, a row-major one of c x r. */
  const int col_major = opt.layout == OCF_COL_MAJOR;
  const size_t batch = opt.batch ? opt.batch : 1;
  size_t ar = trans_a == OCF_TRANS ? k : m, ac = trans_a == OCF_TRANS ? m : k;
  size_t br = trans_b == OCF_TRANS ? n : k, bc = trans_b == OCF_TRANS ? k : n;
  size_t cr = m, cc = n;
  if (col_major) {
    size_t t = ar;
    ar = ac, ac = t;
    t = br, br = bc, bc = t;
    t = cr, cr = cc, cc = t;
  }
  if ((status = measure_span(&A, ar, ac, lda, opt.stride_a, batch)) != OCF_SUCCESS ||
      (status = measure_span(&B, br, bc, ldb, opt.stride_b, batch)) != OCF_SUCCESS ||
      (status = measure_span(&C, cr, cc, ldc, opt.stride_c, batch)) != OCF_SUCCESS)
    return status;
  if (opt.bias_axis != OCF_BIAS_NONE) {
    const size_t length = opt.bias_axis == OCF_BIAS_N ? n : m;
    if (length > SIZE_MAX / BIAS.element_size ||
        opt.bias_offset > SIZE_MAX / BIAS.element_size - length)
      return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_matmul_host_ex: bias_offset %zu overflows",
                      opt.bias_offset);
    BIAS.span = opt.bias_offset + length;
  }
  for (int i = 0; i < 4; i++)
    if (all[i]->span && !all[i]->data)
      return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s is NULL", all[i]->name);
  for (int i = 0; i < 4; i++)
    if (i != 2 && ocf_host_ranges_meet(c, C.span * C.element_size, all[i]->data,
                                       all[i]->span * all[i]->element_size))
      return ocf_fail(OCF_ERR_ALIASING, "ocf_matmul_host_ex: C overlaps %s",
                      all[i]->name + strlen("ocf_matmul_host_ex: "));

  cl_mem buffers[4] = {NULL, NULL, NULL, NULL};
  status = OCF_SUCCESS;
  for (int i = 0; i < 4 && status == OCF_SUCCESS; i++)
    if (i != 3 || opt.bias_axis != OCF_BIAS_NONE)
      /* C goes down too: beta may read it, and its gaps come back with their values. */
      status = ocf_host_bytes(ctx, i == 2 ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY,
                              all[i]->span * all[i]->element_size, all[i]->data, &buffers[i]);
  cl_event done = NULL;
  if (status == OCF_SUCCESS) {
    opt.bias = buffers[3];
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.event = &done;
    status = ocf_matmul_ex(ctx, trans_a, trans_b, m, n, k, alpha, buffers[0], 0, lda, buffers[1], 0,
                           ldb, beta, buffers[2], 0, ldc, &opt, &launch);
  }
  if (status == OCF_SUCCESS)
    status = ocf_host_read_bytes(ctx, buffers[2], 0, C.span * C.element_size, c, done);
  if (done) clReleaseEvent(done);
  for (int i = 0; i < 4; i++)
    release_buffer(buffers[i]);
  return status;
}
