/*
 * ocf_layernorm and ocf_rmsnorm (issue 20) against the CPU reference (tests/reference_norm.c:
 * double, the library's rule for non-finite rows), within the error model of
 * ocft_norm_tolerance (tests/tolerance.c): ragged widths, strides and offsets, every storage
 * type, weight, bias, residual (written out or not, in place), statistics, in-place output,
 * every kernel (variants, and the planner's choices forced through the tuning, norm_stream's
 * long rows among them), rows far from zero, constant and non-finite rows, refusals at their
 * edges, the host forms and the workspace size query.
 */
#include "reference_norm.h"
#include "storage16.h"
#include "test_common.h"

#include "kernels/kernels.h"
#include "plan/plan.h"
#include "runtime/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- storage types on the host ---- */

static size_t dsize(ocf_dtype t) {
  return ocf_dtype_size(t);
}

/* v rounded to what type t holds (exact for what is already representable). */
static float round_to(ocf_dtype t, float v) {
  if (t == OCF_F16) return ocf_ref_f16_to_float(ocf_ref_f16_from_float(v));
  if (t == OCF_BF16) return ocf_ref_bf16_to_float(ocf_ref_bf16_from_float(v));
  return v;
}

/* n floats into the bytes of type t. */
static void *pack(ocf_dtype t, const float *v, size_t n) {
  unsigned char *bytes = malloc(n * dsize(t) + 1);
  assert_non_null(bytes);
  for (size_t i = 0; i < n; i++) {
    if (t == OCF_F32) {
      memcpy(bytes + 4 * i, &v[i], 4);
    } else {
      const uint16_t h =
          t == OCF_F16 ? ocf_ref_f16_from_float(v[i]) : ocf_ref_bf16_from_float(v[i]);
      memcpy(bytes + 2 * i, &h, 2);
    }
  }
  return bytes;
}

/* Element i of bytes of type t, as float. */
static float unpack1(ocf_dtype t, const void *bytes, size_t i) {
  const unsigned char *b = bytes;
  if (t == OCF_F32) {
    float f;
    memcpy(&f, b + 4 * i, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, b + 2 * i, 2);
  return t == OCF_F16 ? ocf_ref_f16_to_float(h) : ocf_ref_bf16_to_float(h);
}

static cl_mem bytes_buffer(const ocft_env *env, size_t bytes, const void *data) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(env->cl, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                            bytes ? bytes : 1, bytes ? (void *)data : NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  return m;
}

static void read_bytes(const ocft_env *env, cl_mem m, size_t bytes, void *data) {
  if (bytes == 0) return;
  assert_int_equal(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL),
                   CL_SUCCESS);
}

static size_t extent_of(size_t rows, size_t cols, size_t ld) {
  return rows && cols ? (rows - 1) * ld + cols : 0;
}

/* ---- one call ---- */

typedef struct norm_case {
  const char *what;
  int rms;
  size_t rows, cols;
  size_t in_off, in_ld, out_off, out_ld;
  ocf_dtype in_dtype, out_dtype, w_dtype, res_dtype;
  int weight, bias, residual, residual_out, stats;
  int in_place;     /* out over in (its offset and stride) */
  int res_in_place; /* residual_out over residual */
  size_t w_off, b_off, res_off, res_ld, res_out_off, res_out_ld, mean_off, rstd_off;
  float eps;
  int variant;
  size_t wg;
  float lo, hi; /* the inputs' range */
  float bump;   /* added to every input (rows far from zero) */
  int f16_cvt;  /* the tuning's f16_cvt when the case ran (for the message only) */
  int bf16_cvt; /* and its bf16_cvt */
} norm_case;

static norm_case plain(const char *what, int rms, size_t rows, size_t cols) {
  norm_case c;
  memset(&c, 0, sizeof c);
  c.what = what;
  c.rms = rms;
  c.rows = rows, c.cols = cols;
  c.in_ld = c.out_ld = cols;
  c.eps = 1e-5f;
  c.lo = -2.0f, c.hi = 2.0f;
  c.weight = 1, c.bias = !rms;
  return c;
}

/* What run_case hands back for further checks. */
typedef struct norm_result {
  ocf_status status;
  int refused_by_limit;
} norm_result;

/* Optional hook: the inputs after filling (the matrix as floats, row stride in_ld), to plant
   special values. */
typedef void (*plant_fn)(const norm_case *c, float *in, size_t in_len);

/*
 * Runs one case on fresh buffers and checks every output against the reference: y within the
 * model, x' exactly, the statistics within the model, and everything outside the outputs'
 * elements untouched.
 */
static norm_result run_case(ocft_env *env, const norm_case *c, plant_fn plant) {
  norm_result result = {OCF_SUCCESS, 0};
  const size_t rows = c->rows, cols = c->cols;
  const size_t in_len = c->in_off + extent_of(rows, cols, c->in_ld);
  const size_t out_off = c->in_place ? c->in_off : c->out_off;
  const size_t out_ld = c->in_place ? c->in_ld : c->out_ld;
  const size_t out_len = c->in_place ? in_len : out_off + extent_of(rows, cols, out_ld) + 5;
  const size_t res_len = c->res_off + extent_of(rows, cols, c->res_ld);
  const size_t ro_off = c->res_in_place ? c->res_off : c->res_out_off;
  const size_t ro_ld = c->res_in_place ? c->res_ld : c->res_out_ld;
  const size_t ro_len = c->res_in_place ? res_len : ro_off + extent_of(rows, cols, ro_ld) + 3;
  const uint64_t seed = 11 + rows * 7919 + cols * 31 + (size_t)c->in_dtype * 3 + c->in_off;

  /* Inputs, rounded to their types, so that the reference sees what the device does. */
  float *in = ocft_alloc_floats(in_len), *res = ocft_alloc_floats(res_len);
  float *w = ocft_alloc_floats(c->w_off + cols), *b = ocft_alloc_floats(c->b_off + cols);
  ocft_fill_uniform(in, in_len, c->lo, c->hi, seed);
  for (size_t i = 0; i < in_len; i++)
    in[i] = round_to(c->in_dtype, in[i] + c->bump);
  if (plant) plant(c, in, in_len);
  ocft_fill_uniform(res, res_len, -1.0f, 1.0f, seed + 1);
  ocft_fill_uniform(w, c->w_off + cols, 0.5f, 1.5f, seed + 2);
  ocft_fill_uniform(b, c->b_off + cols, -1.0f, 1.0f, seed + 3);
  for (size_t i = 0; i < res_len; i++)
    res[i] = round_to(c->res_dtype, res[i]);
  for (size_t i = 0; i < c->w_off + cols; i++)
    w[i] = round_to(c->w_dtype, w[i]);
  for (size_t i = 0; i < c->b_off + cols; i++)
    b[i] = round_to(c->w_dtype, b[i]);

  /* The reference's x (dense), y, statistics and tolerances. */
  const size_t n = rows * cols;
  float *x = ocft_alloc_floats(n);
  if (c->residual) {
    ocf_ref_norm_residual(rows, cols, in + c->in_off, c->in_ld, res + c->res_off, c->res_ld,
                          (int)c->res_dtype, x);
  } else {
    for (size_t r = 0; r < rows; r++)
      for (size_t k = 0; k < cols; k++)
        x[r * cols + k] = in[c->in_off + r * c->in_ld + k];
  }
  double *want = ocft_alloc_doubles(n), *tol = ocft_alloc_doubles(n);
  double *mean = ocft_alloc_doubles(rows), *rstd = ocft_alloc_doubles(rows);
  double *mean_tol = ocft_alloc_doubles(rows), *rstd_tol = ocft_alloc_doubles(rows);
  ocf_ref_norm(c->rms, rows, cols, x, cols, c->weight ? w + c->w_off : NULL,
               c->bias ? b + c->b_off : NULL, (double)c->eps, want, mean, rstd);
  ocft_norm_tolerance(c->rms, rows, cols, x, cols, c->weight ? w + c->w_off : NULL,
                      c->bias ? b + c->b_off : NULL, (double)c->eps, want, (int)c->out_dtype, c->wg,
                      &env->info, tol, mean_tol, rstd_tol);

  /* Device buffers: out and x' start as sentinels, so that untouched elements can be told. */
  void *in_bytes = pack(c->in_dtype, in, in_len), *res_bytes = pack(c->res_dtype, res, res_len);
  void *w_bytes = pack(c->w_dtype, w, c->w_off + cols),
       *b_bytes = pack(c->w_dtype, b, c->b_off + cols);
  float *sentinel = ocft_alloc_floats(out_len + ro_len + 2 * rows + 8);
  ocft_fill_uniform(sentinel, out_len + ro_len + 2 * rows + 8, 1e3f, 2e3f, seed + 4);
  void *out_before = pack(c->out_dtype, sentinel, out_len);
  void *ro_before = pack(c->res_dtype, sentinel, ro_len);
  const size_t stats_len = rows + 4;
  cl_mem in_b = bytes_buffer(env, in_len * dsize(c->in_dtype), in_bytes);
  cl_mem out_b = c->in_place ? in_b : bytes_buffer(env, out_len * dsize(c->out_dtype), out_before);
  cl_mem w_b = bytes_buffer(env, (c->w_off + cols) * dsize(c->w_dtype), w_bytes);
  cl_mem b_b = bytes_buffer(env, (c->b_off + cols) * dsize(c->w_dtype), b_bytes);
  cl_mem res_b = bytes_buffer(env, res_len * dsize(c->res_dtype), res_bytes);
  cl_mem ro_b =
      c->res_in_place ? res_b : bytes_buffer(env, ro_len * dsize(c->res_dtype), ro_before);
  cl_mem mean_b = bytes_buffer(env, (c->mean_off + stats_len) * 4, sentinel);
  cl_mem rstd_b = bytes_buffer(env, (c->rstd_off + stats_len) * 4, sentinel);

  ocf_norm_options opt = OCF_NORM_OPTIONS_INIT;
  opt.in_dtype = c->in_dtype, opt.out_dtype = c->out_dtype;
  opt.weight_dtype = c->w_dtype, opt.residual_dtype = c->res_dtype;
  opt.eps = c->eps;
  if (c->weight) opt.weight = w_b, opt.weight_offset = c->w_off;
  if (c->bias) opt.bias = b_b, opt.bias_offset = c->b_off;
  if (c->residual) {
    opt.residual = res_b, opt.residual_offset = c->res_off, opt.residual_ld = c->res_ld;
    if (c->residual_out)
      opt.residual_out = ro_b, opt.residual_out_offset = ro_off, opt.residual_out_ld = ro_ld;
  }
  if (c->stats) {
    if (!c->rms) opt.mean = mean_b, opt.mean_offset = c->mean_off;
    opt.rstd = rstd_b, opt.rstd_offset = c->rstd_off;
  }
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = c->variant;
  launch.workgroup_size = c->wg;
  result.status = c->rms ? ocf_rmsnorm(env->ctx, rows, cols, in_b, c->in_off, c->in_ld, out_b,
                                       out_off, out_ld, &opt, &launch)
                         : ocf_layernorm(env->ctx, rows, cols, in_b, c->in_off, c->in_ld, out_b,
                                         out_off, out_ld, &opt, &launch);
  char what[256];
  snprintf(what, sizeof what,
           "%s (%s %zu x %zu, %s/%s/%s/%s, variant %d, wg %zu, f16_cvt %d, bf16_cvt %d)", c->what,
           c->rms ? "rmsnorm" : "layernorm", rows, cols, ocf_dtype_name(c->in_dtype),
           ocf_dtype_name(c->out_dtype), ocf_dtype_name(c->w_dtype), ocf_dtype_name(c->res_dtype),
           c->variant, c->wg, c->f16_cvt, c->bf16_cvt);
  if (c->wg && ocft_refused_by_kernel_limit(result.status, c->wg)) {
    result.refused_by_limit = 1;
  } else {
    if (result.status != OCF_SUCCESS) print_error("%s: %s\n", what, ocf_last_error());
    ocft_assert_status(result.status, OCF_SUCCESS);
  }

  /* y: the matrix within the model, the rest untouched (in place: the rest is in's). */
  void *out_after = malloc(out_len * dsize(c->out_dtype) + 1);
  read_bytes(env, out_b, out_len * dsize(c->out_dtype), out_after);
  const void *out_reference = c->in_place ? in_bytes : out_before;
  float *got = ocft_alloc_floats(n);
  for (size_t r = 0; r < rows; r++)
    for (size_t k = 0; k < cols; k++)
      got[r * cols + k] = unpack1(c->out_dtype, out_after, out_off + r * out_ld + k);
  if (!result.refused_by_limit) {
    ocft_assert_close(what, got, want, tol, n);
  }
  const unsigned char *oa = out_after, *ob = out_reference;
  for (size_t i = 0; i < out_len; i++) {
    const size_t rel = i - out_off;
    const int inside =
        !result.refused_by_limit && i >= out_off && rel / out_ld < rows && rel % out_ld < cols;
    if (!inside && memcmp(oa + i * dsize(c->out_dtype), ob + i * dsize(c->out_dtype),
                          dsize(c->out_dtype)) != 0) {
      print_error("%s: out element %zu outside the matrix changed\n", what, i);
      fail();
    }
  }
  /* x': exactly the reference's sum, the rest untouched. */
  if (c->residual && c->residual_out && !result.refused_by_limit) {
    void *ro_after = malloc(ro_len * dsize(c->res_dtype) + 1);
    read_bytes(env, ro_b, ro_len * dsize(c->res_dtype), ro_after);
    const void *ro_reference = c->res_in_place ? res_bytes : ro_before;
    for (size_t i = 0; i < ro_len; i++) {
      const size_t rel = i - ro_off;
      const int inside = i >= ro_off && rel / ro_ld < rows && rel % ro_ld < cols;
      const float got_x = unpack1(c->res_dtype, ro_after, i);
      if (inside) {
        const float want_x = x[(rel / ro_ld) * cols + rel % ro_ld];
        if (!(got_x == want_x || (isnan(got_x) && isnan(want_x)))) {
          print_error("%s: x' element %zu is %g, want %g\n", what, i, (double)got_x,
                      (double)want_x);
          fail();
        }
      } else if (memcmp((unsigned char *)ro_after + i * dsize(c->res_dtype),
                        (const unsigned char *)ro_reference + i * dsize(c->res_dtype),
                        dsize(c->res_dtype)) != 0) {
        print_error("%s: residual_out element %zu outside the matrix changed\n", what, i);
        fail();
      }
    }
    free(ro_after);
  }
  /* The statistics. */
  if (c->stats && !result.refused_by_limit) {
    float *m_got = ocft_alloc_floats(c->mean_off + stats_len);
    float *r_got = ocft_alloc_floats(c->rstd_off + stats_len);
    ocft_read(env, mean_b, c->mean_off + stats_len, m_got);
    ocft_read(env, rstd_b, c->rstd_off + stats_len, r_got);
    if (!c->rms) ocft_assert_close("mean", m_got + c->mean_off, mean, mean_tol, rows);
    ocft_assert_close("rstd", r_got + c->rstd_off, rstd, rstd_tol, rows);
    if (c->rms) ocft_assert_unchanged("mean (RMSNorm)", m_got, sentinel, c->mean_off + stats_len);
    ocft_assert_unchanged("past mean", m_got + c->mean_off + rows, sentinel + c->mean_off + rows,
                          c->rms ? 0 : 4);
    ocft_assert_unchanged("past rstd", r_got + c->rstd_off + rows, sentinel + c->rstd_off + rows,
                          4);
    free(m_got), free(r_got);
  }

  clReleaseMemObject(in_b);
  if (!c->in_place) clReleaseMemObject(out_b);
  clReleaseMemObject(w_b), clReleaseMemObject(b_b), clReleaseMemObject(res_b);
  if (!c->res_in_place) clReleaseMemObject(ro_b);
  clReleaseMemObject(mean_b), clReleaseMemObject(rstd_b);
  free(in), free(res), free(w), free(b), free(x), free(want), free(tol);
  free(mean), free(rstd), free(mean_tol), free(rstd_tol);
  free(in_bytes), free(res_bytes), free(w_bytes), free(b_bytes), free(sentinel);
  free(out_before), free(ro_before), free(out_after), free(got);
  return result;
}

/* The plan the library makes for a case on a device of `facts` with the context's tuning now. */
static void plan_case(ocft_env *env, const norm_case *c, const ocf_device_facts *facts,
                      ocf_plan *plan) {
  ocf_norm_call call;
  memset(&call, 0, sizeof call);
  call.rows = c->rows, call.cols = c->cols;
  call.in_off = c->in_off, call.in_ld = c->in_ld;
  call.out_off = c->in_place ? c->in_off : c->out_off;
  call.out_ld = c->in_place ? c->in_ld : c->out_ld;
  call.in_dtype = c->in_dtype, call.out_dtype = c->out_dtype;
  call.res_dtype = c->res_dtype, call.weight_dtype = c->w_dtype;
  call.variant = c->variant, call.workgroup = c->wg, call.rms = c->rms;
  call.has_weight = c->weight, call.has_bias = c->bias, call.has_res = c->residual;
  call.has_res_out = c->residual && c->residual_out;
  call.weight_off = c->weight ? c->w_off : 0, call.bias_off = c->bias ? c->b_off : 0;
  call.res_off = c->residual ? c->res_off : 0, call.res_ld = c->residual ? c->res_ld : 0;
  if (call.has_res_out) {
    call.res_out_off = c->res_in_place ? c->res_off : c->res_out_off;
    call.res_out_ld = c->res_in_place ? c->res_ld : c->res_out_ld;
  }
  const ocf_shape shape = {{c->rows, c->cols, 0}};
  ocf_tuning_values values;
  ocf_context_tuning_for(env->ctx, OCF_OP_NORM, c->in_dtype, &shape, &values);
  ocft_assert_status(ocf_plan_norm(facts, &values, &call, plan), OCF_SUCCESS);
}

/* The plan the library makes for a case with the context's facts and tuning now. */
static void plan_now(ocft_env *env, const norm_case *c, ocf_plan *plan) {
  ocf_device_facts facts;
  ocf_context_facts(env->ctx, &facts);
  plan_case(env, c, &facts, plan);
}

/* Its first kernel. */
static ocf_kernel_id planned_kernel(ocft_env *env, const norm_case *c) {
  ocf_plan plan;
  plan_now(env, c, &plan);
  return plan.steps[0].kernel;
}

static void tuning_apply(ocft_env *env, ocf_dtype dtype, const char *text) {
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "norm", dtype, NULL, text), OCF_SUCCESS);
}

static const int all_variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL, OCF_VARIANT_BASELINE};

/* ---- the tests ---- */

/* Ragged widths, with weight and bias, both ops, every variant. */
static void test_norm_widths(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t widths[] = {1, 7, 63, 64, 65, 1000, 4097, 50257};
  static const size_t row_counts[] = {1, 3, 17};
  for (int rms = 0; rms < 2; rms++)
    for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++)
      for (size_t i = 0; i < OCF_ARRAY_LEN_T(widths); i++)
        for (size_t j = 0; j < OCF_ARRAY_LEN_T(row_counts); j++) {
          const size_t cols = widths[i], rows = row_counts[j];
          if (ocft_small() && (cols > 65 || rows > 3)) continue;
          if (rows * cols > 200000) continue;
          norm_case c = plain("widths", rms, rows, cols);
          c.variant = all_variants[v];
          c.stats = 1;
          run_case(env, &c, NULL);
        }
}

/* Every combination of the options on a few shapes: weight, bias, residual (written or not, in
   place or not), statistics. */
static void test_norm_option_combinations(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][2] = {{5, 33}, {2, 1000}};
  /* Bits: weight, bias, residual, residual_out, and (x' in place with the statistics); each on
     and off, in these eight, with most pairs both ways. */
  static const unsigned masks[] = {0, 3, 5, 12, 13, 19, 28, 31};
  for (int rms = 0; rms < 2; rms++)
    for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
      for (size_t m = 0; m < OCF_ARRAY_LEN_T(masks); m++) {
        const unsigned mask = masks[m];
        if (ocft_small() && s > 0) continue;
        norm_case c = plain("options", rms, shapes[s][0], shapes[s][1]);
        c.weight = mask & 1;
        c.bias = !rms && (mask & 2);
        c.residual = (mask & 4) != 0;
        c.residual_out = c.residual && (mask & 8);
        c.res_in_place = c.residual_out && (mask & 16);
        c.stats = (mask & 16) != 0;
        c.res_ld = c.res_out_ld = c.cols;
        run_case(env, &c, NULL);
      }
}

/* The storage types of x, y, the weights and the residual, with everything on: every pair of
   the four operands in all nine combinations of their types (an L9 orthogonal array: case
   (a, b) gives x type a, y type b, weights (a + b) % 3, residual (a + 2 b) % 3), so that each
   mix of two types meets, in nine programs an op rather than 81. */
static void test_norm_dtypes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const ocf_dtype types[] = {OCF_F32, OCF_F16, OCF_BF16};
  for (int rms = 0; rms < 2; rms++)
    for (size_t a = 0; a < 3; a++)
      for (size_t b = 0; b < 3; b++) {
        norm_case c = plain("dtypes", rms, 3, ocft_small() ? 19 : 300);
        c.in_dtype = types[a], c.out_dtype = types[b], c.w_dtype = types[(a + b) % 3];
        c.res_dtype = types[(a + 2 * b) % 3];
        c.residual = c.residual_out = c.stats = 1;
        c.res_ld = c.res_out_ld = c.cols;
        run_case(env, &c, NULL);
      }
}

static void plant_non_finite(const norm_case *c, float *in, size_t in_len);

/* 16-bit storage through whole aligned vectors (every row start a multiple of 16 elements): rows
   of whole vectors (EVEN) and with a partial last one, NaN and infinities among them. */
/* Each fp16 conversion (f16_cvt 0, 1, 2: cl/f16_words.clh; 2 is the portable 1 but on NVIDIA,
   where it is inline PTX), every operand fp16 in one of the two type sets; with it each bfloat16
   store (bf16_cvt 0 with f16_cvt 0, else 1: cl/bf16_words.clh; 1 is inline PTX on NVIDIA 8.0 on,
   0 elsewhere): out bfloat16 in the second set, res_out in the first. */
static void test_norm_dtypes_vectors(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const ocf_dtype types[] = {OCF_F16, OCF_BF16, OCF_F32};
  static const size_t widths[] = {64, 21};
  for (int cvt = 0; cvt <= 2; cvt++) {
    const int bf16_cvt = cvt > 0;
    char tuning[48];
    snprintf(tuning, sizeof tuning, "f16_cvt=%d bf16_cvt=%d", cvt, bf16_cvt);
    tuning_apply(env, OCF_F16, tuning);
    tuning_apply(env, OCF_BF16, tuning);
    for (int rms = 0; rms < 2; rms++)
      for (size_t a = 0; a < 2; a++)
        for (size_t w = 0; w < OCF_ARRAY_LEN_T(widths); w++)
          for (int special = 0; special < 2; special++) {
            norm_case c = plain("dtypes, vectors", rms, 5, widths[w]);
            c.in_dtype = c.out_dtype = types[a], c.w_dtype = types[a + 1];
            c.res_dtype = types[(a + 1) % 2];
            c.residual = c.residual_out = c.stats = 1;
            c.in_ld = c.out_ld = c.res_ld = c.res_out_ld = 64;
            c.f16_cvt = cvt, c.bf16_cvt = bf16_cvt;
            run_case(env, &c, special ? plant_non_finite : NULL);
          }
  }
  tuning_apply(env, OCF_F16, NULL);
  tuning_apply(env, OCF_BF16, NULL);
}

/* F16_CVT of the plan for a case with f16_cvt=cvt on a device of `facts`. */
static long long planned_f16_cvt(ocft_env *env, const norm_case *c, const ocf_device_facts *facts) {
  ocf_plan plan;
  plan_case(env, c, facts, &plan);
  return ocf_plan_define_value(&plan, "F16_CVT", -1);
}

/* f16_cvt reaches the plan as F16_CVT where an fp16 operand moves in vectors, as 0 where none
   does (one program for the calls it cannot change), and 2 (inline PTX) only on an NVIDIA GPU of
   compute capability 8.0 on: 1 on any other device. */
static void test_norm_f16_cvt_plans(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_device_facts devices[3];
  ocf_context_facts(env->ctx, &devices[0]);
  devices[1] = devices[0];
  devices[1].vendor = OCF_VENDOR_NVIDIA;
  devices[1].type = CL_DEVICE_TYPE_GPU;
  devices[1].nv_compute_capability = 90;
  devices[2] = devices[1];
  devices[2].nv_compute_capability = 75;
  for (int cvt = 0; cvt <= 2; cvt++) {
    char tuning[64];
    snprintf(tuning, sizeof tuning, "f16_cvt=%d vw=8", cvt);
    tuning_apply(env, OCF_F16, tuning);
    tuning_apply(env, OCF_BF16, tuning);
    for (size_t d = 0; d < 3; d++) {
      const ocf_device_facts *f = &devices[d];
      const int ptx = f->vendor == OCF_VENDOR_NVIDIA && (f->type & CL_DEVICE_TYPE_GPU) &&
                      f->nv_compute_capability >= 80;
      const long long want = cvt == 2 && !ptx ? 1 : cvt;
      norm_case c = plain("f16_cvt", 0, 4, 64);
      c.in_dtype = c.out_dtype = OCF_F16, c.w_dtype = OCF_BF16;
      assert_int_equal(planned_f16_cvt(env, &c, f), want);
      /* Only the residual fp16. */
      c.in_dtype = c.out_dtype = OCF_BF16, c.res_dtype = OCF_F16, c.residual = 1;
      assert_int_equal(planned_f16_cvt(env, &c, f), want);
      /* Only the weight's type fp16, with a weight; then without weight and bias. */
      c.residual = 0, c.w_dtype = OCF_F16;
      assert_int_equal(planned_f16_cvt(env, &c, f), want);
      c.weight = c.bias = 0;
      assert_int_equal(planned_f16_cvt(env, &c, f), 0);
      /* fp16 rows that start off the vector: scalar access. */
      c = plain("f16_cvt, unaligned", 0, 4, 64);
      c.in_dtype = c.out_dtype = OCF_F16, c.in_off = 1;
      assert_int_equal(planned_f16_cvt(env, &c, f), 0);
    }
  }
  tuning_apply(env, OCF_F16, NULL);
  tuning_apply(env, OCF_BF16, NULL);
}

/* Offsets and strides, aligned to every vector width and not, for each operand. */
static void test_norm_offsets_and_strides(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t offsets[] = {0, 1, 3, 16};
  static const size_t extras[] = {0, 1, 16};
  static const size_t widths[] = {13, 64, 1000};
  for (size_t o = 0; o < OCF_ARRAY_LEN_T(offsets); o++)
    for (size_t e = 0; e < OCF_ARRAY_LEN_T(extras); e++)
      for (size_t i = 0; i < OCF_ARRAY_LEN_T(widths); i++) {
        if (ocft_small() && widths[i] > 64) continue;
        norm_case c = plain("offsets", (int)(o + e) % 2, 4, widths[i]);
        c.in_off = offsets[o], c.out_off = offsets[(o + 1) % 4];
        c.in_ld = c.cols + extras[e], c.out_ld = c.cols + extras[(e + 1) % 3];
        c.residual = c.residual_out = c.stats = 1;
        c.res_off = offsets[(o + 2) % 4], c.res_ld = c.cols + extras[(e + 2) % 3];
        c.res_out_off = offsets[(o + 3) % 4], c.res_out_ld = c.cols + extras[e];
        c.w_off = offsets[(o + 1) % 4], c.b_off = offsets[o];
        c.mean_off = o, c.rstd_off = 2 * o;
        run_case(env, &c, NULL);
        /* The same, all aligned to 16 but for the input: the vector path throughout. */
        c.out_off = c.res_off = c.res_out_off = c.w_off = c.b_off = 16;
        c.out_ld = c.res_ld = c.res_out_ld = (c.cols + 15) / 16 * 16;
        c.in_off = 16, c.in_ld = c.out_ld;
        run_case(env, &c, NULL);
        /* Every start two elements off a vector of 4 (strides of 2 mod 4): vectors of 2. */
        c.in_off = c.w_off = 2, c.out_off = 6, c.res_off = 10, c.res_out_off = c.b_off = 14;
        c.in_ld = c.out_ld = c.res_ld = c.res_out_ld = (c.cols + 3) / 4 * 4 + 2;
        run_case(env, &c, NULL);
      }
}

/* Runs a case after checking that its plan is norm_rows SHIFTED where `must_hold` (rows that
   norm_rows holds on every device), else SHIFTED in norm_rows or the split (the tunings here set
   rows.shifted and split.shifted), or another kernel not SHIFTED: longer rows, or narrower
   vectors, may not fit norm_rows's registers here (PoCL). */
static void run_shifted(ocft_env *env, const norm_case *c, int must_hold) {
  ocf_plan plan;
  plan_now(env, c, &plan);
  const ocf_kernel_id kernel = plan.steps[0].kernel;
  const int held = kernel == OCF_KERNEL_NORM_ROWS;
  const int shifts = held || kernel == OCF_KERNEL_NORM_SPLIT_STATS;
  if ((!held && must_hold) || ocf_plan_define_value(&plan, "SHIFTED", -1) != shifts) {
    char text[512];
    ocf_plan_describe(&plan, text, sizeof text);
    fail_msg("%s %s %zu x %zu: not norm_rows SHIFTED: %s", c->what, ocf_dtype_name(c->in_dtype),
             c->rows, c->cols, text);
  }
  run_case(env, c, NULL);
}

/* 1 under Oclgrind, whose 21.10 reports uninitialized values in vectors of 16 lanes where there
   are none (tools/lab/oclgrind/float16_uninit.c): the suites below leave their last tuning, the
   16-lane one, to the other platforms there, so that Oclgrind's reports can fail this suite. */
static size_t oclgrind_lanes16(const ocft_env *env) {
  return strstr(env->info.device_name, "Oclgrind") != NULL;
}

/* Rows that start inside vectors, as far in for every operand (rows.shifted, SHIFTED in
   cl/norm.cl): whole vectors of the buffer, a row's first and last lane by lane, the weights
   and biases realigned to each row. Adjacent rows of an odd stride (each row its own lead, and
   the vector where one ends and the next starts touched by both, in place too), strides that
   differ by multiples of 16, every storage type, both ops with everything on; rows far from
   zero (LayerNorm's shift is the row's first element, `lead` lanes into its vector); batches
   looping with the next one prefetched. */
static void test_norm_shifted(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const ocf_dtype types[] = {OCF_F32, OCF_F16, OCF_BF16};
  static const size_t widths[] = {67, 200, 1001};
  /* Each vector width: every realignment of the weights (moves of 8, 4, 2 and 1 lanes). */
  static const char *const widths_vw[] = {
      "rows.shifted=1 split.shifted=1", "rows.shifted=1 split.shifted=1 vw=2",
      "rows.shifted=1 split.shifted=1 vw=8 rows.items=8 rows.seg_items=4",
      "rows.shifted=1 split.shifted=1 vw=16 rows.items=8 rows.seg_items=4"};
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(widths_vw) - oclgrind_lanes16(env); v++)
    for (int rms = 0; rms < 2; rms++)
      for (size_t t = 0; t < OCF_ARRAY_LEN_T(types); t++)
        for (size_t i = 0; i < OCF_ARRAY_LEN_T(widths); i++) {
          const size_t cols = widths[i];
          if (ocft_small() && cols > 200) continue;
          tuning_apply(env, types[t], widths_vw[v]);
          norm_case c = plain("shifted", rms, 9, cols);
          c.in_dtype = c.out_dtype = c.w_dtype = c.res_dtype = types[t];
          c.residual = c.residual_out = c.stats = 1;
          c.in_off = 3, c.out_off = 19, c.res_off = 35, c.res_out_off = 51;
          c.in_ld = c.out_ld = c.res_ld = c.res_out_ld = cols;
          c.w_off = 16, c.b_off = 32, c.mean_off = 1, c.rstd_off = 2;
          const int must_hold = v == 0 && cols <= 256;
          run_shifted(env, &c, must_hold);
          c.out_ld = cols + 16, c.res_out_ld = cols + 32;
          run_shifted(env, &c, must_hold);
          c.in_place = c.res_in_place = 1;
          run_shifted(env, &c, must_hold);
          tuning_apply(env, types[t], NULL);
        }
  /* 1e4 + noise, every row a different lead. */
  tuning_apply(env, OCF_F32, "rows.shifted=1 split.shifted=1");
  norm_case c = plain("shifted, 1e4 + noise", 0, 8, ocft_small() ? 65 : 4097);
  c.in_off = 1, c.out_off = 5, c.stats = 1;
  c.lo = -1.0f, c.hi = 1.0f, c.bump = 1e4f;
  run_shifted(env, &c, ocft_small());
  /* A workgroup looping over batches, the next loaded before this one is reduced. */
  tuning_apply(env, OCF_F32,
               "rows.shifted=1 rows.wg=8 rows.max_seg=4 rows.groups_per_unit=1 rows.prefetch=1");
  for (int rms = 0; rms < 2; rms++) {
    norm_case p = plain("shifted, prefetched", rms, 11, 61);
    p.in_place = 1, p.residual = p.residual_out = p.res_in_place = 1;
    p.in_off = p.res_off = 2, p.res_ld = p.in_ld;
    p.stats = 1;
    run_shifted(env, &p, 1);
  }
  tuning_apply(env, OCF_F32, NULL);
}

/* Runs a case after checking that its plan is the split SHIFTED, in `parts` slices a row at least
   (several slices: their bounds fall inside the row's vectors). */
static void run_split_shifted(ocft_env *env, const norm_case *c, size_t parts) {
  ocf_plan plan;
  plan_now(env, c, &plan);
  if (plan.steps[0].kernel != OCF_KERNEL_NORM_SPLIT_STATS ||
      ocf_plan_define_value(&plan, "SHIFTED", -1) != 1 || plan.parts < parts) {
    char text[512];
    ocf_plan_describe(&plan, text, sizeof text);
    fail_msg("%s %s %zu x %zu: not the split SHIFTED in %zu slices or more: %s (%zu slices)",
             c->what, ocf_dtype_name(c->in_dtype), c->rows, c->cols, parts, text, plan.parts);
  }
  run_case(env, c, NULL);
}

/* The split SHIFTED (split.shifted): rows that norm_rows is kept from holding (segments of one
   work-item holding one vector) cut into slices of a few loop steps. A row's vectors start
   `lead` lanes before it and a slice's bounds fall anywhere inside them; its last slice may be
   past the row's last vector (empty: statistics (0, 0, 0)). Adjacent rows of an odd stride,
   every vector width (each realignment of the weights), every storage type, both ops with the
   residual, x' and the statistics, in place, rows of 1e4 + noise. */
static void test_norm_shifted_split(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const ocf_dtype types[] = {OCF_F32, OCF_F16, OCF_BF16};
#define SPLIT_ONLY "rows.items=1 rows.seg_items=1 rows.max_seg=1 split.groups_per_unit=64 "
  static const char *const tunings[] = {SPLIT_ONLY "vw=2 split.wg=8 split.unroll=2 split.shifted=1",
                                        SPLIT_ONLY "vw=4 split.wg=8 split.unroll=1 split.shifted=1",
                                        SPLIT_ONLY "vw=8 split.wg=4 split.unroll=1 split.shifted=1",
                                        SPLIT_ONLY
                                        "vw=16 split.wg=2 split.unroll=1 split.shifted=1"};
#undef SPLIT_ONLY
  const size_t cols = ocft_small() ? 301 : 3001;
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(tunings) - oclgrind_lanes16(env); v++)
    for (int rms = 0; rms < 2; rms++)
      for (size_t t = 0; t < OCF_ARRAY_LEN_T(types); t++) {
        tuning_apply(env, types[t], tunings[v]);
        norm_case c = plain("shifted split", rms, 5, cols);
        c.in_dtype = c.out_dtype = c.w_dtype = c.res_dtype = types[t];
        c.residual = c.residual_out = c.stats = 1;
        c.in_off = 3, c.out_off = 19, c.res_off = 35, c.res_out_off = 51;
        c.in_ld = c.out_ld = c.res_ld = c.res_out_ld = cols;
        c.w_off = 16, c.b_off = 32, c.mean_off = 1, c.rstd_off = 2;
        run_split_shifted(env, &c, 2);
        c.in_place = c.res_in_place = 1;
        run_split_shifted(env, &c, 2);
        tuning_apply(env, types[t], NULL);
      }
  /* 1e4 + noise, every row a different lead. */
  tuning_apply(env, OCF_F32, tunings[1]);
  norm_case c = plain("shifted split, 1e4 + noise", 0, 8, ocft_small() ? 257 : 4097);
  c.in_off = 1, c.out_off = 5, c.stats = 1;
  c.lo = -1.0f, c.hi = 1.0f, c.bump = 1e4f;
  run_split_shifted(env, &c, 2);
  tuning_apply(env, OCF_F32, NULL);
}

/* out over in, x' over the residual, both, through every variant and the split. */
static void test_norm_in_place(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int rms = 0; rms < 2; rms++)
    for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++)
      for (int both = 0; both < 2; both++) {
        norm_case c = plain("in place", rms, 6, ocft_small() ? 40 : 3000);
        c.variant = all_variants[v];
        c.in_place = 1;
        c.in_ld = c.cols + 3, c.in_off = 2;
        c.residual = c.residual_out = c.res_in_place = both;
        c.res_ld = c.cols + 1, c.res_off = 1;
        c.stats = 1;
        run_case(env, &c, NULL);
      }
  /* The split, forced: every slice reads the row's shift after others may have written. */
  tuning_apply(env, OCF_F32,
               "rows.items=1 rows.seg_items=1 rows.max_seg=1 split.wg=16 split.unroll=1");
  norm_case c = plain("in place, split", 0, 3, ocft_small() ? 300 : 5000);
  c.in_place = 1, c.residual = c.residual_out = c.res_in_place = 1, c.res_ld = c.cols;
  c.stats = 1;
  assert_int_equal(planned_kernel(env, &c), OCF_KERNEL_NORM_SPLIT_STATS);
  run_case(env, &c, NULL);
  tuning_apply(env, OCF_F32, NULL);
  /* Batches prefetched: in place, the next batch's loads must not see this batch's stores. */
  tuning_apply(env, OCF_F32, "rows.wg=8 rows.max_seg=4 rows.groups_per_unit=1 rows.prefetch=1");
  for (int rms = 0; rms < 2; rms++) {
    norm_case p = plain("in place, prefetched", rms, 11, 60);
    p.in_place = 1, p.residual = p.residual_out = p.res_in_place = 1, p.res_ld = p.cols;
    p.stats = 1;
    assert_int_equal(planned_kernel(env, &p), OCF_KERNEL_NORM_ROWS);
    run_case(env, &p, NULL);
  }
  tuning_apply(env, OCF_F32, NULL);
}

/* Every kernel of the default variant forced through the tuning values, as the planner picks
   it: rows held by one work-item, by a segment, several rows a group, the split of a row into
   slices (one and several). */
static void test_norm_forced_kernels(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const struct {
    const char *tuning;
    ocf_kernel_id kernel;
    size_t rows, cols;
  } forced[] = {
      {"vw=4 rows.items=8 rows.seg_items=8 rows.max_seg=1 rows.wg=8", OCF_KERNEL_NORM_ROWS, 9, 31},
      {"vw=4 rows.items=4 rows.seg_items=1 rows.max_seg=16 rows.wg=32", OCF_KERNEL_NORM_ROWS, 5,
       200},
      /* (32 work-items a row hold it too: rusticl's kernels allow no more) */
      {"vw=4 rows.items=8 rows.seg_items=2 rows.max_seg=64 rows.wg=64 rows.seg_align=32",
       OCF_KERNEL_NORM_ROWS, 3, 1001},
      {"vw=1 rows.items=1 rows.seg_items=1 rows.max_seg=1 split.wg=32 split.unroll=2",
       OCF_KERNEL_NORM_SPLIT_STATS, 3, 77},
      {"vw=4 rows.items=1 rows.seg_items=1 rows.max_seg=1 split.wg=8 split.unroll=1 "
       "split.groups_per_unit=64",
       OCF_KERNEL_NORM_SPLIT_STATS, 2, 4099},
      /* A few workgroups looping over batches of rows, the next batch loaded before this one is
         reduced: segments of 16 and of 1, a ragged last batch. */
      {"vw=4 rows.items=4 rows.seg_items=1 rows.max_seg=16 rows.wg=32 rows.groups_per_unit=1 "
       "rows.prefetch=1",
       OCF_KERNEL_NORM_ROWS, 23, 200},
      {"vw=4 rows.items=8 rows.seg_items=8 rows.max_seg=1 rows.wg=4 rows.groups_per_unit=1 "
       "rows.prefetch=1",
       OCF_KERNEL_NORM_ROWS, 13, 29},
  };
  for (int rms = 0; rms < 2; rms++)
    for (size_t f = 0; f < OCF_ARRAY_LEN_T(forced); f++) {
      tuning_apply(env, OCF_F32, forced[f].tuning);
      norm_case c = plain(forced[f].tuning, rms, forced[f].rows, forced[f].cols);
      if (ocft_small() && c.cols > 300) c.cols = 300;
      c.in_ld = c.out_ld = c.cols;
      c.residual = c.residual_out = c.stats = 1, c.res_ld = c.res_out_ld = c.cols;
      assert_int_equal(planned_kernel(env, &c), forced[f].kernel);
      run_case(env, &c, NULL);
      tuning_apply(env, OCF_F32, NULL);
    }
}

/* norm_stream (stream.min_cols): a row a workgroup, its head held, the rest read twice, forced
   on through the tuning with small workgroups so that rows of a few hundred columns stream most
   of their vectors (held: stream.wg * stream.items). Two shapes of the kernel (vectors of 4,
   workgroups looping over rows, three vectors a step; vectors of 8, a workgroup a row), on
   ragged widths (a row shorter than the held part, a partial last vector, a last step of one
   vector), aligned offsets and strides (unaligned ones, vectors of 1, are not streamed),
   the residual written to its own buffer and over itself (the second pass reads x' back), out
   over in, every storage type (the L9 set of test_norm_dtypes), rows of 1e4 + noise, constant
   rows (eps 0 too) and non-finite ones. */
static void plant_constant(const norm_case *c, float *in, size_t in_len);

/* NaN and infinities in the streamed part of even rows (near the end), and in row 4's first
   element (the shift). */
static void plant_non_finite_streamed(const norm_case *c, float *in, size_t in_len) {
  (void)in_len;
  static const float specials[] = {NAN, INFINITY, -INFINITY};
  for (size_t r = 0; r < c->rows; r += 2) {
    const size_t k = r == 4 ? 0 : (c->cols - 1 - r * 13 % c->cols);
    in[c->in_off + r * c->in_ld + k] = specials[(r / 2) % 3];
  }
}

static void stream_tuning(ocft_env *env, const char *text) {
  tuning_apply(env, OCF_F32, text);
  tuning_apply(env, OCF_F16, text);
  tuning_apply(env, OCF_BF16, text);
}

static void run_streamed(ocft_env *env, const norm_case *c, plant_fn plant) {
  assert_int_equal(planned_kernel(env, c), OCF_KERNEL_NORM_STREAM);
  run_case(env, c, plant);
}

/* Every row start at a multiple of 16 elements (the vector path), strides past the row. */
static void stream_aligned(norm_case *c) {
  c->in_ld = c->out_ld = c->res_ld = c->res_out_ld = (c->cols + 15) / 16 * 16 + 16;
}

static void test_norm_streamed(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const tunings[] = {
      "vw=4 stream.min_cols=1 stream.wg=8 stream.items=2 stream.unroll=3 stream.groups_per_unit=1 "
      "stream.unit_rows=0",
      "vw=8 stream.min_cols=1 stream.wg=32 stream.items=1 stream.unroll=1 "
      "stream.groups_per_unit=0 stream.unit_rows=0",
      /* NVIDIA only: segments of several warps, summed by shuffles and one barrier (elsewhere
         the portable reduction of 32 work-items above covers what it would) */
      "vw=4 stream.min_cols=1 stream.wg=96 stream.items=1 stream.unroll=2 "
      "stream.groups_per_unit=1 stream.unit_rows=0",
  };
  ocf_device_facts facts;
  ocf_context_facts(env->ctx, &facts);
  const int nvidia = facts.vendor == OCF_VENDOR_NVIDIA && (facts.type & CL_DEVICE_TYPE_GPU);
  static const ocf_dtype types[] = {OCF_F32, OCF_F16, OCF_BF16};
  const int small = ocft_small();
  /* A row within the held part, then ragged ones; the last also rounded to whole vectors. */
  const size_t widths[] = {1, 29, small ? 133 : 1001, small ? 261 : 4099};
  for (size_t t = 0; t < OCF_ARRAY_LEN_T(tunings); t++) {
    if (t == 2 && !nvidia) continue;
    stream_tuning(env, tunings[t]);
    for (int rms = 0; rms < 2; rms++) {
      for (size_t w = 0; w < OCF_ARRAY_LEN_T(widths); w++) {
        /* Vectors, the residual written to its own buffer at another offset. */
        norm_case c = plain(tunings[t], rms, 7, widths[w]);
        stream_aligned(&c);
        c.residual = c.residual_out = c.stats = 1;
        c.out_off = 16, c.res_out_off = 32, c.w_off = 16, c.b_off = 32;
        run_streamed(env, &c, NULL);
        /* Unaligned offsets and strides (vectors of 1), out over in, x' over the residual: not
           streamed (the split or norm_rows take rows in vectors of 1), and right. */
        c = plain(tunings[t], rms, 7, widths[w]);
        c.in_off = 3, c.in_ld = c.cols + 5, c.in_place = 1;
        c.residual = c.residual_out = c.res_in_place = c.stats = 1;
        c.res_off = 1, c.res_ld = c.cols + 2;
        c.w_off = 1, c.b_off = 2, c.mean_off = 1, c.rstd_off = 3;
        assert_int_not_equal(planned_kernel(env, &c), OCF_KERNEL_NORM_STREAM);
        run_case(env, &c, NULL);
        /* Whole vectors (EVEN), in place in vectors, the residual read but not written. */
        c = plain(tunings[t], rms, 5, (widths[w] + 15) / 16 * 16);
        stream_aligned(&c);
        c.in_off = 16, c.in_place = 1, c.residual = 1, c.res_off = 48, c.stats = 1;
        run_streamed(env, &c, NULL);
      }
      /* Every storage type, with whole vectors and a partial last one. */
      for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++) {
          norm_case c = plain(tunings[t], rms, 3, (a + b) % 2 ? widths[2] : widths[2] + 7);
          stream_aligned(&c);
          c.in_dtype = types[a], c.out_dtype = types[b], c.w_dtype = types[(a + b) % 3];
          c.res_dtype = types[(a + 2 * b) % 3];
          c.residual = c.residual_out = c.stats = 1;
          c.res_in_place = b == 1;
          run_streamed(env, &c, NULL);
        }
      /* Rows of 1e4 + noise, constant rows (eps 0 too), NaN and infinities. */
      norm_case c = plain(tunings[t], rms, 4, widths[3]);
      stream_aligned(&c);
      c.lo = -1.0f, c.hi = 1.0f, c.bump = 1e4f, c.stats = 1;
      run_streamed(env, &c, NULL);
      for (int zero_eps = 0; zero_eps < 2; zero_eps++) {
        c = plain(tunings[t], rms, 4, widths[2]);
        stream_aligned(&c);
        c.eps = zero_eps ? 0.0f : 1e-5f;
        c.stats = 1;
        run_streamed(env, &c, plant_constant);
      }
      c = plain(tunings[t], rms, 7, widths[3]);
      stream_aligned(&c);
      c.residual = c.residual_out = c.stats = 1;
      run_streamed(env, &c, plant_non_finite_streamed);
    }
  }
  stream_tuning(env, NULL);
}

/* Rows of 1e4 + noise: the model's tolerance is that of the noise, and the library is within it.
   A one-pass E[x^2] - E[x]^2 in fp32 is not: the same check fails it (shown on the host). */
static void test_norm_large_mean(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    norm_case c = plain("1e4 + noise", 0, 4, ocft_small() ? 64 : 4097);
    c.variant = all_variants[v];
    c.lo = -1.0f, c.hi = 1.0f, c.bump = 1e4f;
    c.stats = 1;
    run_case(env, &c, NULL);
  }
  /* The one-pass statistics on the same kind of row, in fp32 on the host: outside the model. */
  const size_t cols = 4097;
  float *x = ocft_alloc_floats(cols), *y = ocft_alloc_floats(cols);
  double *want = ocft_alloc_doubles(cols), *tol = ocft_alloc_doubles(cols);
  ocft_fill_uniform(x, cols, -1.0f, 1.0f, 99);
  for (size_t k = 0; k < cols; k++)
    x[k] += 1e4f;
  float sum = 0.0f, squares = 0.0f;
  for (size_t k = 0; k < cols; k++)
    sum += x[k], squares += x[k] * x[k];
  const float mean = sum / (float)cols;
  const float var = squares / (float)cols - mean * mean;
  const float rs = 1.0f / sqrtf(fmaxf(var, 0.0f) + 1e-5f);
  for (size_t k = 0; k < cols; k++)
    y[k] = (x[k] - mean) * rs;
  ocf_ref_norm(0, 1, cols, x, cols, NULL, NULL, 1e-5, want, NULL, NULL);
  ocft_norm_tolerance(0, 1, cols, x, cols, NULL, NULL, 1e-5, want, 0, 0, &env->info, tol, NULL,
                      NULL);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(y, want, tol, cols, &check);
  assert_false(ocft_check_passed(&check));
  free(x), free(y), free(want), free(tol);
}

/* Constant rows: variance 0, y = bias (eps > 0), and NaN with eps = 0 (0 * inf). */
static void plant_constant(const norm_case *c, float *in, size_t in_len) {
  (void)in_len;
  for (size_t r = 0; r < c->rows; r++)
    for (size_t k = 0; k < c->cols; k++)
      in[c->in_off + r * c->in_ld + k] = r % 2 ? 0.0f : 3.25f;
}

static void test_norm_constant_rows(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int rms = 0; rms < 2; rms++)
    for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++)
      for (int zero_eps = 0; zero_eps < 2; zero_eps++) {
        norm_case c = plain("constant rows", rms, 4, ocft_small() ? 30 : 1000);
        c.variant = all_variants[v];
        c.eps = zero_eps ? 0.0f : 1e-5f;
        c.stats = 1;
        run_case(env, &c, plant_constant);
      }
}

/* NaN and infinities: their rows NaN throughout, the other rows as ever. */
static void plant_non_finite(const norm_case *c, float *in, size_t in_len) {
  (void)in_len;
  static const float specials[] = {NAN, INFINITY, -INFINITY};
  for (size_t r = 0; r < c->rows; r += 2) {
    const size_t k = (r * 7 + 3) % c->cols;
    in[c->in_off + r * c->in_ld + k] = specials[(r / 2) % 3];
  }
}

static void test_norm_non_finite(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int rms = 0; rms < 2; rms++)
    for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++)
      for (int split = 0; split < 2; split++) {
        if (split)
          tuning_apply(env, OCF_F32,
                       "rows.items=1 rows.seg_items=1 rows.max_seg=1 split.wg=16 split.unroll=1");
        norm_case c = plain("non-finite", rms, 7, ocft_small() ? 20 : 700);
        c.variant = all_variants[v];
        c.stats = 1;
        run_case(env, &c, plant_non_finite);
        /* A non-finite first element: the shift itself. */
        c.in_off = 0;
        if (split) tuning_apply(env, OCF_F32, NULL);
      }
}

/* Explicit workgroup sizes (the kernel's own limit may refuse the larger ones). */
static void test_norm_workgroup_sizes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t sizes[] = {1, 3, 32, 64};
  static const size_t widths[] = {5, 300, 3000};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(sizes); s++)
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(widths); i++)
      for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
        if (ocft_small() && widths[i] > 300) continue;
        norm_case c = plain("workgroup", (int)(s + i) % 2, 5, widths[i]);
        c.wg = sizes[s];
        c.variant = all_variants[v];
        c.stats = 1;
        run_case(env, &c, NULL);
      }
}

/* rows or cols 0: success, nothing enqueued but a marker when an event is asked for. */
static void test_norm_empty(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_mem buffer = ocft_buffer(env, 8, NULL);
  cl_event done = NULL;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.event = &done;
  ocft_assert_status(ocf_layernorm(env->ctx, 0, 8, buffer, 0, 8, buffer, 0, 8, NULL, &launch),
                     OCF_SUCCESS);
  assert_non_null(done);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done);
  ocft_assert_status(ocf_rmsnorm(env->ctx, 4, 0, buffer, 0, 0, buffer, 0, 0, NULL, NULL),
                     OCF_SUCCESS);
  clReleaseMemObject(buffer);
}

/* ---- refusals ---- */

enum { BAD_N = 64 };

typedef struct bad_norm {
  const char *what;
  ocf_status expected;
  int rms;
  size_t rows, cols;
  ocft_buf in;
  size_t in_off, in_ld;
  ocft_buf out;
  size_t out_off, out_ld;
  ocft_launch_kind launch;
  /* option edits, applied to OCF_NORM_OPTIONS_INIT: which member, and a buffer or a value */
  int edit;
  ocft_buf buf;
  size_t value;
} bad_norm;

enum {
  E_NONE,
  E_SIZE,
  E_IN_DTYPE,
  E_W_DTYPE,
  E_EPS_NEG,
  E_EPS_NAN,
  E_EPS_INF,
  E_WEIGHT,       /* weight = buf at offset value */
  E_WEIGHT_OFF,   /* weight_offset = value, no weight */
  E_BIAS,         /* bias = buf at offset value */
  E_RES,          /* residual = buf, ld value */
  E_RES_OUT,      /* residual = IN (ld 8), residual_out = buf at offset value (ld 8) */
  E_RES_OUT_ONLY, /* residual_out without residual */
  E_MEAN,         /* mean = buf at offset value */
  E_RSTD,         /* rstd = buf at offset value */
  E_RES_LD_ONLY   /* residual_ld without residual */
};

static const bad_norm bad_norms[] = {
    {"in NULL", OCF_ERR_NULL_ARGUMENT, 0, 4, 8, OCFT_NO_BUF, 0, 8, OCFT_OUT, 0, 8, 0, E_NONE, 0, 0},
    {"out NULL", OCF_ERR_NULL_ARGUMENT, 1, 4, 8, OCFT_IN, 0, 8, OCFT_NO_BUF, 0, 8, 0, E_NONE, 0, 0},
    {"in_ld below cols", OCF_ERR_INVALID_STRIDE, 0, 4, 8, OCFT_IN, 0, 7, OCFT_OUT, 0, 8, 0, E_NONE,
     0, 0},
    {"in past its buffer by one", OCF_ERR_BUFFER_TOO_SMALL, 0, 8, 8, OCFT_IN, 1, 8, OCFT_OUT, 0, 8,
     0, E_NONE, 0, 0},
    {"out past its buffer by one", OCF_ERR_BUFFER_TOO_SMALL, 1, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 1, 8,
     0, E_NONE, 0, 0},
    {"rows whose extent overflows", OCF_ERR_SIZE_OVERFLOW, 0, SIZE_MAX / 4, 8, OCFT_IN, 0, 8,
     OCFT_OUT, 0, 8, 0, E_NONE, 0, 0},
    {"out shifted over in", OCF_ERR_ALIASING, 0, 4, 8, OCFT_OUT, 0, 8, OCFT_OUT, 1, 8, 0, E_NONE, 0,
     0},
    {"in place with another stride", OCF_ERR_ALIASING, 0, 4, 8, OCFT_OUT, 0, 8, OCFT_OUT, 0, 9, 0,
     E_NONE, 0, 0},
    {"out a sub-buffer over in", OCF_ERR_ALIASING, 0, 2, 8, OCFT_OUT, 8, 8, OCFT_OUT_SUB, 0, 8, 0,
     E_NONE, 0, 0},
    {"in of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 4, 8, OCFT_FOREIGN, 0, 8, OCFT_OUT, 0, 8,
     0, E_NONE, 0, 0},
    {"unknown variant", OCF_ERR_INVALID_VALUE, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_BAD_VARIANT, E_NONE, 0, 0},
    {"launch size 0", OCF_ERR_INVALID_STRUCT, 1, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_SIZE_ZERO, E_NONE, 0, 0},
    {"a queue of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_FOREIGN_QUEUE, E_NONE, 0, 0},
    /* the options */
    {"options size 0", OCF_ERR_INVALID_STRUCT, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_SIZE, 0,
     0},
    {"in dtype out of range", OCF_ERR_INVALID_VALUE, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0,
     E_IN_DTYPE, 0, 0},
    {"weight dtype out of range", OCF_ERR_INVALID_VALUE, 1, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0,
     E_W_DTYPE, 0, 0},
    {"eps below 0", OCF_ERR_INVALID_VALUE, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_EPS_NEG, 0,
     0},
    {"eps NaN", OCF_ERR_INVALID_VALUE, 1, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_EPS_NAN, 0, 0},
    {"eps infinite", OCF_ERR_INVALID_VALUE, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_EPS_INF, 0,
     0},
    {"weight ends past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0,
     8, 0, E_WEIGHT, OCFT_IN, BAD_N - 7},
    {"weight over out", OCF_ERR_ALIASING, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_WEIGHT,
     OCFT_OUT, 24},
    {"weight_offset without weight", OCF_ERR_NULL_ARGUMENT, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     0, E_WEIGHT_OFF, 0, 1},
    {"weight of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     0, E_WEIGHT, OCFT_FOREIGN, 0},
    {"bias for RMSNorm", OCF_ERR_INVALID_VALUE, 1, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_BIAS,
     OCFT_IN, 0},
    {"residual stride below cols", OCF_ERR_INVALID_STRIDE, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     0, E_RES, OCFT_IN, 7},
    {"residual over out", OCF_ERR_ALIASING, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_RES,
     OCFT_OUT, 8},
    {"residual_out over in", OCF_ERR_ALIASING, 0, 4, 8, OCFT_IN, 32, 8, OCFT_OUT, 0, 8, 0,
     E_RES_OUT, OCFT_IN, 30},
    {"residual_out shifted over residual", OCF_ERR_ALIASING, 0, 3, 8, OCFT_IN, 32, 8, OCFT_OUT, 0,
     8, 0, E_RES_OUT, OCFT_IN, 1},
    {"residual_out past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, 4, 8, OCFT_IN, 32, 8, OCFT_OUT, 0,
     8, 0, E_RES_OUT, OCFT_OUT, BAD_N - 31},
    {"residual_out without residual", OCF_ERR_NULL_ARGUMENT, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     0, E_RES_OUT_ONLY, OCFT_OUT, 0},
    {"residual_ld without residual", OCF_ERR_NULL_ARGUMENT, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     0, E_RES_LD_ONLY, 0, 8},
    {"mean for RMSNorm", OCF_ERR_INVALID_VALUE, 1, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_MEAN,
     OCFT_OUT, 40},
    {"mean past its buffer by one", OCF_ERR_BUFFER_TOO_SMALL, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0,
     8, 0, E_MEAN, OCFT_IN, BAD_N - 3},
    {"mean over out", OCF_ERR_ALIASING, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_MEAN, OCFT_OUT,
     30},
    {"mean over in", OCF_ERR_ALIASING, 0, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_MEAN, OCFT_IN,
     30},
    {"rstd over in", OCF_ERR_ALIASING, 1, 4, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, E_RSTD, OCFT_IN,
     31},
};

/* Every validation rule gives its own status before anything is enqueued, out untouched. */
static void test_norm_rejects_bad_arguments(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocft_refusals run;
  ocft_refusals_start(&run, env, BAD_N, 7);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(bad_norms); i++) {
    const bad_norm *b = &bad_norms[i];
    cl_mem in = ocft_refusals_buffer(&run, b->in), out = ocft_refusals_buffer(&run, b->out);
    cl_mem buf = ocft_refusals_buffer(&run, b->buf);
    ocf_launch storage;
    const ocf_launch *launch = ocft_refusals_launch(&run, b->launch, &storage);
    ocf_norm_options opt = OCF_NORM_OPTIONS_INIT;
    switch (b->edit) {
    case E_SIZE:
      opt.size = 0;
      break;
    case E_IN_DTYPE:
      opt.in_dtype = (ocf_dtype)7;
      break;
    case E_W_DTYPE:
      opt.weight_dtype = (ocf_dtype)-1;
      break;
    case E_EPS_NEG:
      opt.eps = -1e-30f;
      break;
    case E_EPS_NAN:
      opt.eps = NAN;
      break;
    case E_EPS_INF:
      opt.eps = INFINITY;
      break;
    case E_WEIGHT:
      opt.weight = buf, opt.weight_offset = b->value;
      break;
    case E_WEIGHT_OFF:
      opt.weight_offset = b->value;
      break;
    case E_BIAS:
      opt.bias = buf, opt.bias_offset = b->value;
      break;
    case E_RES:
      opt.residual = buf, opt.residual_ld = b->value;
      break;
    case E_RES_OUT: /* the residual: the first rows of the input buffer */
      opt.residual = ocft_refusals_buffer(&run, OCFT_IN), opt.residual_ld = 8;
      opt.residual_out = buf, opt.residual_out_offset = b->value, opt.residual_out_ld = 8;
      break;
    case E_RES_OUT_ONLY:
      opt.residual_out = buf, opt.residual_out_ld = 8;
      break;
    case E_RES_LD_ONLY:
      opt.residual_ld = b->value;
      break;
    case E_MEAN:
      opt.mean = buf, opt.mean_offset = b->value;
      break;
    case E_RSTD:
      opt.rstd = buf, opt.rstd_offset = b->value;
      break;
    default:
      break;
    }
    const ocf_status status =
        b->rms ? ocf_rmsnorm(env->ctx, b->rows, b->cols, in, b->in_off, b->in_ld, out, b->out_off,
                             b->out_ld, &opt, launch)
               : ocf_layernorm(env->ctx, b->rows, b->cols, in, b->in_off, b->in_ld, out, b->out_off,
                               b->out_ld, &opt, launch);
    ocft_refusals_record(&run, b->what, status, b->expected);
  }
  /* A NULL context. */
  ocft_assert_status(ocf_layernorm(NULL, 1, 1, NULL, 0, 1, NULL, 0, 1, NULL, NULL),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_refusals_finish(&run);
}

/* The edges that pass: a weight that ends at its buffer's last element, statistics right after
   out's last row in the same buffer, a residual_out that interleaves with out (one stride). */
static void test_norm_exact_fits(void **state) {
  ocft_env *env = ocft_get_env(state);
  float values[64];
  ocft_fill_uniform(values, 64, -1.0f, 1.0f, 12);
  cl_mem in = ocft_buffer(env, 64, values), w = ocft_buffer(env, 64, values);
  cl_mem out = ocft_buffer(env, 40, NULL);
  ocf_norm_options opt = OCF_NORM_OPTIONS_INIT;
  opt.weight = w, opt.weight_offset = 56;
  opt.rstd = out, opt.rstd_offset = 32; /* out's rows: elements 0 .. 31 */
  opt.mean = out, opt.mean_offset = 36;
  ocft_assert_status(ocf_layernorm(env->ctx, 4, 8, in, 0, 8, out, 0, 8, &opt, NULL), OCF_SUCCESS);
  opt.weight_offset = 57;
  ocft_assert_status(ocf_layernorm(env->ctx, 4, 8, in, 0, 8, out, 0, 8, &opt, NULL),
                     OCF_ERR_BUFFER_TOO_SMALL);
  /* x' in columns 4..7 of rows 16 wide, y in columns 0..3: no element shared. */
  ocf_norm_options inter = OCF_NORM_OPTIONS_INIT;
  cl_mem both = ocft_buffer(env, 64, NULL);
  inter.residual = in, inter.residual_ld = 4;
  inter.residual_out = both, inter.residual_out_offset = 4, inter.residual_out_ld = 16;
  ocft_assert_status(ocf_rmsnorm(env->ctx, 4, 4, in, 16, 4, both, 0, 16, &inter, NULL),
                     OCF_SUCCESS);
  inter.residual_out_offset = 3;
  ocft_assert_status(ocf_rmsnorm(env->ctx, 4, 4, in, 16, 4, both, 0, 16, &inter, NULL),
                     OCF_ERR_ALIASING);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(in), clReleaseMemObject(w), clReleaseMemObject(out), clReleaseMemObject(both);
}

/* ---- host forms ---- */

static void test_norm_host(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t rows = 3, cols = ocft_small() ? 37 : 777, ld = cols + 2, n = rows * ld;
  float *in = ocft_alloc_floats(n), *res = ocft_alloc_floats(n), *w = ocft_alloc_floats(cols + 1);
  float *b = ocft_alloc_floats(cols), *out = ocft_alloc_floats(n), *xo = ocft_alloc_floats(n);
  float mean[3], rstd[3];
  ocft_fill_uniform(in, n, -3.0f, 3.0f, 5);
  ocft_fill_uniform(res, n, -1.0f, 1.0f, 6);
  ocft_fill_uniform(w, cols + 1, 0.5f, 1.5f, 7);
  ocft_fill_uniform(b, cols, -1.0f, 1.0f, 8);
  ocft_fill_uniform(out, n, 5.0f, 6.0f, 9);
  for (int rms = 0; rms < 2; rms++) {
    float *x = ocft_alloc_floats(rows * cols);
    double *want = ocft_alloc_doubles(rows * cols), *tol = ocft_alloc_doubles(rows * cols);
    double wm[3], wr[3], tm[3], tr[3];
    ocf_ref_norm_residual(rows, cols, in, ld, res, ld, 0, x);
    ocf_ref_norm(rms, rows, cols, x, cols, w + 1, rms ? NULL : b, 1e-5, want, wm, wr);
    ocft_norm_tolerance(rms, rows, cols, x, cols, w + 1, rms ? NULL : b, 1e-5, want, 0, 0,
                        &env->info, tol, tm, tr);
    ocf_norm_options opt = OCF_NORM_OPTIONS_INIT;
    opt.weight_offset = 1;
    opt.residual_ld = opt.residual_out_ld = ld;
    const float gap = out[cols]; /* between rows: kept */
    ocf_status status =
        rms ? ocf_rmsnorm_host(env->ctx, rows, cols, in, ld, out, ld, w, res, xo, rstd, &opt)
            : ocf_layernorm_host(env->ctx, rows, cols, in, ld, out, ld, w, b, res, xo, mean, rstd,
                                 &opt);
    ocft_assert_status(status, OCF_SUCCESS);
    assert_true(out[cols] == gap);
    float *got = ocft_alloc_floats(rows * cols);
    for (size_t r = 0; r < rows; r++)
      for (size_t k = 0; k < cols; k++) {
        got[r * cols + k] = out[r * ld + k];
        assert_true(xo[r * ld + k] == x[r * cols + k]);
      }
    ocft_assert_close("host y", got, want, tol, rows * cols);
    ocft_assert_close("host rstd", rstd, wr, tr, rows);
    if (!rms) ocft_assert_close("host mean", mean, wm, tm, rows);
    /* In place: out over in, x' over the residual (a copy of each). */
    float *io = ocft_alloc_floats(n), *rr = ocft_alloc_floats(n);
    memcpy(io, in, n * sizeof(float));
    memcpy(rr, res, n * sizeof(float));
    status = rms ? ocf_rmsnorm_host(env->ctx, rows, cols, io, ld, io, ld, w, rr, rr, NULL, &opt)
                 : ocf_layernorm_host(env->ctx, rows, cols, io, ld, io, ld, w, b, rr, rr, NULL,
                                      NULL, &opt);
    ocft_assert_status(status, OCF_SUCCESS);
    for (size_t r = 0; r < rows; r++)
      for (size_t k = 0; k < cols; k++) {
        got[r * cols + k] = io[r * ld + k];
        assert_true(rr[r * ld + k] == x[r * cols + k]);
      }
    ocft_assert_close("host in place", got, want, tol, rows * cols);
    /* Refusals: a cl_mem in the options, overlapping outputs, a NULL array. */
    ocf_norm_options bare = OCF_NORM_OPTIONS_INIT; /* no residual */
    bare.weight_offset = 1;
    ocf_norm_options with_buffer = bare;
    with_buffer.weight = (cl_mem)env->cl; /* any non-NULL handle: refused before use */
    ocft_assert_status(rms ? ocf_rmsnorm_host(env->ctx, rows, cols, in, ld, out, ld, w, NULL, NULL,
                                              NULL, &with_buffer)
                           : ocf_layernorm_host(env->ctx, rows, cols, in, ld, out, ld, w, b, NULL,
                                                NULL, NULL, NULL, &with_buffer),
                       OCF_ERR_INVALID_VALUE);
    ocft_assert_status(
        rms ? ocf_rmsnorm_host(env->ctx, rows, cols, in, ld, out, ld, w, NULL, NULL, out + 1, &bare)
            : ocf_layernorm_host(env->ctx, rows, cols, in, ld, out, ld, w, b, NULL, NULL, out + 1,
                                 NULL, &bare),
        OCF_ERR_ALIASING);
    ocft_assert_status(
        rms ? ocf_rmsnorm_host(env->ctx, rows, cols, in, ld, in + 1, ld, w, NULL, NULL, NULL, &bare)
            : ocf_layernorm_host(env->ctx, rows, cols, in, ld, in + 1, ld, w, b, NULL, NULL, NULL,
                                 NULL, &bare),
        OCF_ERR_ALIASING);
    ocft_assert_status(
        rms ? ocf_rmsnorm_host(env->ctx, rows, cols, NULL, ld, out, ld, w, NULL, NULL, NULL, &bare)
            : ocf_layernorm_host(env->ctx, rows, cols, NULL, ld, out, ld, w, b, NULL, NULL, NULL,
                                 NULL, &bare),
        OCF_ERR_NULL_ARGUMENT);
    free(x), free(want), free(tol), free(got), free(io), free(rr);
  }
  free(in), free(res), free(w), free(b), free(out), free(xo);
}

/* The workspace size query: 0 for rows held in registers, the split's scratch for long rows,
   and a caller's workspace of exactly that size serves the call; one byte less, or none, bounds
   the plan (fewer slices, or norm_stream), right to the tolerance and no byte written past the
   size lent; the baseline, which cannot shrink, is refused one byte short. */
static void test_norm_workspace(void **state) {
  ocft_env *env = ocft_get_env(state);
  size_t bytes = 1;
  ocft_assert_status(ocf_norm_workspace_size(env->ctx, 0, 4, 32, 0, 32, 0, 32, NULL, NULL, &bytes),
                     OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  tuning_apply(env, OCF_F32,
               "rows.items=1 rows.seg_items=1 rows.max_seg=1 split.wg=16 split.unroll=1");
  const size_t rows = 3, cols = ocft_small() ? 200 : 3000;
  ocft_assert_status(
      ocf_norm_workspace_size(env->ctx, 1, rows, cols, 0, cols, 0, cols, NULL, NULL, &bytes),
      OCF_SUCCESS);
  assert_true(bytes >= (3 * rows + rows) * sizeof(float));
  float *in = ocft_alloc_floats(rows * cols), *got = ocft_alloc_floats(rows * cols);
  double *want = ocft_alloc_doubles(rows * cols), *tol = ocft_alloc_doubles(rows * cols);
  ocft_fill_uniform(in, rows * cols, -1.0f, 1.0f, 3);
  ocf_ref_norm(1, rows, cols, in, cols, NULL, NULL, 1e-5, want, NULL, NULL);
  ocft_norm_tolerance(1, rows, cols, in, cols, NULL, NULL, 1e-5, want, 0, 0, &env->info, tol, NULL,
                      NULL);
  cl_mem ib = ocft_buffer(env, rows * cols, in), ob = ocft_buffer(env, rows * cols, NULL);
  /* NaN bytes: the split does not zero its scratch, so every float it reads must be written */
  cl_mem ws = ocft_nan_buffer(env, bytes);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workspace = ws;
  const size_t sizes[] = {bytes, bytes - 1, 0};
  for (size_t i = 0; i < 3; i++) {
    ocft_fill_bytes(env, ws, 0, bytes, 0xFF);
    launch.workspace_size = sizes[i];
    ocft_assert_status(ocf_rmsnorm(env->ctx, rows, cols, ib, 0, cols, ob, 0, cols, NULL, &launch),
                       OCF_SUCCESS);
    assert_true(strstr(ocf_last_plan(), "norm_split") ? i < 2 : i > 0);
    ocft_read(env, ob, rows * cols, got);
    ocft_assert_close("workspace", got, want, tol, rows * cols);
    assert_true(ocft_bytes_are(env, ws, sizes[i], bytes, 0xFF));
  }
  tuning_apply(env, OCF_F32, NULL);

  /* The baseline's scratch: exactly its size serves it, one byte less is refused, out and the
     workspace untouched. */
  launch = (ocf_launch)OCF_LAUNCH_INIT;
  launch.variant = OCF_VARIANT_BASELINE;
  ocft_assert_status(
      ocf_norm_workspace_size(env->ctx, 1, rows, cols, 0, cols, 0, cols, NULL, &launch, &bytes),
      OCF_SUCCESS);
  assert_int_equal(bytes, 3 * rows * sizeof(float));
  launch.workspace = ws, launch.workspace_size = bytes - 1;
  ocft_write(env, ob, rows * cols, in);
  ocft_fill_bytes(env, ws, 0, bytes, 0xFF);
  ocft_assert_status(ocf_rmsnorm(env->ctx, rows, cols, ib, 0, cols, ob, 0, cols, NULL, &launch),
                     OCF_ERR_BUFFER_TOO_SMALL);
  clFinish(env->queue);
  ocft_read(env, ob, rows * cols, got);
  ocft_assert_unchanged("out after a short workspace", got, in, rows * cols);
  assert_true(ocft_bytes_are(env, ws, 0, bytes, 0xFF));
  launch.workspace_size = bytes;
  ocft_assert_status(ocf_rmsnorm(env->ctx, rows, cols, ib, 0, cols, ob, 0, cols, NULL, &launch),
                     OCF_SUCCESS);
  ocft_read(env, ob, rows * cols, got);
  ocft_assert_close("baseline in a workspace", got, want, tol, rows * cols);
  clReleaseMemObject(ib), clReleaseMemObject(ob), clReleaseMemObject(ws);
  free(in), free(got), free(want), free(tol);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_norm_widths),        cmocka_unit_test(test_norm_option_combinations),
      cmocka_unit_test(test_norm_dtypes),        cmocka_unit_test(test_norm_dtypes_vectors),
      cmocka_unit_test(test_norm_f16_cvt_plans), cmocka_unit_test(test_norm_offsets_and_strides),
      cmocka_unit_test(test_norm_shifted),       cmocka_unit_test(test_norm_shifted_split),
      cmocka_unit_test(test_norm_in_place),      cmocka_unit_test(test_norm_forced_kernels),
      cmocka_unit_test(test_norm_large_mean),    cmocka_unit_test(test_norm_constant_rows),
      cmocka_unit_test(test_norm_non_finite),    cmocka_unit_test(test_norm_workgroup_sizes),
      cmocka_unit_test(test_norm_empty),         cmocka_unit_test(test_norm_rejects_bad_arguments),
      cmocka_unit_test(test_norm_exact_fits),    cmocka_unit_test(test_norm_host),
      cmocka_unit_test(test_norm_workspace),     cmocka_unit_test(test_norm_streamed),
  };
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  return cmocka_run_group_tests_name("norm", tests, ocft_group_setup, ocft_group_teardown);
}
