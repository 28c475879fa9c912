#include "matmul_check.h"

#include "reference_gemm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OCF_HAVE_CLBLAST
#include <clblast_c.h>
#endif

mmx_case mmx_plain(size_t m, size_t n, size_t k) {
  mmx_case t;
  memset(&t, 0, sizeof t);
  t.layout = OCF_ROW_MAJOR;
  t.ta = t.tb = OCF_NO_TRANS;
  t.m = m, t.n = n, t.k = k;
  t.alpha = 1.0f;
  t.batch = 1;
  t.a_dtype = t.b_dtype = t.c_dtype = t.bias_dtype = OCF_F32;
  t.precision = OCF_PRECISION_FP32;
  t.activation = OCF_ACTIVATION_NONE;
  t.bias_axis = OCF_BIAS_NONE;
  t.variant = OCF_VARIANT_AUTO;
  return t;
}

void mmx_describe(const mmx_case *t, char *out, size_t capacity) {
  static const char *const dtype[] = {"f32", "f16", "bf16"};
  static const char *const precision[] = {"fp32", "tf32", "3xtf32"};
  static const char *const act[] = {"none", "relu", "gelu_erf", "gelu_tanh", "silu"};
  snprintf(out, capacity,
           "%s %s%s m=%zu n=%zu k=%zu alpha=%g beta=%g pads=%zu,%zu,%zu offs=%zu,%zu,%zu "
           "batch=%zu strides=%zd,%zd,%zd %s/%s/%s %s act=%s bias=%d(%s@%zu) nan_c=%d nan_ab=%d "
           "variant=%d wg=%zu",
           t->layout == OCF_COL_MAJOR ? "col" : "row", t->ta ? "T" : "N", t->tb ? "T" : "N", t->m,
           t->n, t->k, (double)t->alpha, (double)t->beta, t->lda_pad, t->ldb_pad, t->ldc_pad,
           t->a_off, t->b_off, t->c_off, t->batch, (ptrdiff_t)t->stride_a, (ptrdiff_t)t->stride_b,
           (ptrdiff_t)t->stride_c, dtype[t->a_dtype % 3], dtype[t->b_dtype % 3],
           dtype[t->c_dtype % 3], precision[t->precision % 3], act[t->activation % 5],
           (int)t->bias_axis, dtype[t->bias_dtype % 3], t->bias_off, t->nan_c, t->nan_inputs,
           (int)t->variant, t->workgroup);
}

/* ---- host copies: raw storage and its decoded floats ---- */

typedef struct host_array {
  ocf_dtype dtype;
  size_t len;    /* elements */
  void *raw;     /* len elements of dtype */
  float *values; /* decoded */
} host_array;

static size_t dtype_bytes(ocf_dtype dtype) {
  return dtype == OCF_F32 ? 4 : 2;
}

static float decode(ocf_dtype dtype, const void *raw, size_t i) {
  if (dtype == OCF_F32) return ((const float *)raw)[i];
  uint16_t h = ((const uint16_t *)raw)[i];
  return dtype == OCF_F16 ? ocf_ref_f16_to_float(h) : ocf_ref_bf16_to_float(h);
}

static void encode(ocf_dtype dtype, void *raw, size_t i, float value) {
  if (dtype == OCF_F32)
    ((float *)raw)[i] = value;
  else
    ((uint16_t *)raw)[i] =
        dtype == OCF_F16 ? ocf_ref_f16_from_float(value) : ocf_ref_bf16_from_float(value);
}

/* Uniform [-1, 1) values stored in dtype (every nan_every-th a NaN when non-zero). */
static void host_array_make(host_array *h, ocf_dtype dtype, size_t len, uint64_t seed,
                            size_t nan_every, int all_nan) {
  h->dtype = dtype;
  h->len = len;
  h->raw = malloc((len ? len : 1) * dtype_bytes(dtype));
  h->values = ocft_alloc_floats(len);
  assert_non_null(h->raw);
  float *fresh = ocft_alloc_floats(len);
  ocft_fill_uniform(fresh, len, -1.0f, 1.0f, seed);
  for (size_t i = 0; i < len; i++) {
    float v = all_nan || (nan_every && i % nan_every == 0) ? NAN : fresh[i];
    encode(dtype, h->raw, i, v);
    h->values[i] = decode(dtype, h->raw, i);
  }
  free(fresh);
}

static void host_array_free(host_array *h) {
  free(h->raw);
  free(h->values);
}

static cl_mem device_copy(const ocft_env *env, const host_array *h) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (h->len ? h->len : 1) * dtype_bytes(h->dtype);
  cl_mem buffer = clCreateBuffer(env->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  if (h->len)
    assert_int_equal(clEnqueueWriteBuffer(env->queue, buffer, CL_TRUE, 0,
                                          h->len * dtype_bytes(h->dtype), h->raw, 0, NULL, NULL),
                     CL_SUCCESS);
  return buffer;
}

/* ---- geometry of one operand ---- */

typedef struct geometry {
  size_t rows, cols; /* as stored */
  size_t ld, extent, stride, span, len;
} geometry;

static void geometry_make(geometry *g, const mmx_case *t, size_t rows, size_t cols, size_t pad,
                          size_t offset, size_t stride) {
  const int row_major = t->layout == OCF_ROW_MAJOR;
  g->rows = rows, g->cols = cols;
  g->ld = (row_major ? cols : rows) + pad;
  if (g->ld == 0) g->ld = 1;
  g->extent =
      rows && cols ? (row_major ? (rows - 1) * g->ld + cols : (cols - 1) * g->ld + rows) : 0;
  g->stride = stride == MMX_PACKED ? (g->extent + 3) / 4 * 4 + 4 : stride;
  size_t batch = t->batch ? t->batch : 1;
  g->span = g->extent && batch > 1 ? (batch - 1) * g->stride + g->extent : g->extent;
  g->len = offset + g->span + 3;
}

static size_t at(const mmx_case *t, size_t ld, size_t r, size_t c) {
  return t->layout == OCF_ROW_MAJOR ? r * ld + c : r + c * ld;
}

/* Everything one case needs on the host. */
typedef struct mmx_data {
  geometry ga, gb, gc;
  size_t bias_len;
  host_array a, b, c, bias;
} mmx_data;

static void data_make(const mmx_case *t, mmx_data *d) {
  geometry_make(&d->ga, t, t->ta ? t->k : t->m, t->ta ? t->m : t->k, t->lda_pad, t->a_off,
                t->stride_a);
  geometry_make(&d->gb, t, t->tb ? t->n : t->k, t->tb ? t->k : t->n, t->ldb_pad, t->b_off,
                t->stride_b);
  geometry_make(&d->gc, t, t->m, t->n, t->ldc_pad, t->c_off, t->stride_c);
  d->bias_len = t->bias_off + (t->bias_axis == OCF_BIAS_M ? t->m : t->n) + 3;
  uint64_t seed = 11 + t->m * 7919 + t->n * 131 + t->k * 17 + (t->batch ? t->batch : 1);
  host_array_make(&d->a, t->a_dtype, d->ga.len, seed, t->nan_inputs ? 5 : 0, 0);
  host_array_make(&d->b, t->b_dtype, d->gb.len, seed + 1, t->nan_inputs ? 5 : 0, 0);
  host_array_make(&d->c, t->c_dtype, d->gc.len, seed + 2, 0, t->nan_c);
  host_array_make(&d->bias, t->bias_dtype, d->bias_len, seed + 3, 0, 0);
}

static void data_free(mmx_data *d) {
  host_array_free(&d->a);
  host_array_free(&d->b);
  host_array_free(&d->c);
  host_array_free(&d->bias);
}

/* The reference of product bi: want and tol, m x n each. */
static void reference(const mmx_case *t, const mmx_data *d, size_t bi, int exact, int precision,
                      double *want, double *tol) {
  ocf_ref_gemm g;
  memset(&g, 0, sizeof g);
  g.col_major = t->layout == OCF_COL_MAJOR;
  g.trans_a = t->ta, g.trans_b = t->tb;
  g.m = t->m, g.n = t->n, g.k = t->k;
  g.alpha = t->alpha, g.beta = t->beta;
  g.a = d->a.values + t->a_off + bi * d->ga.stride;
  g.b = d->b.values + t->b_off + bi * d->gb.stride;
  g.c = d->c.values + t->c_off + bi * d->gc.stride;
  g.lda = d->ga.ld, g.ldb = d->gb.ld, g.ldc = d->gc.ld;
  g.precision = precision;
  g.activation = t->activation;
  g.bias_axis = t->bias_axis;
  g.bias = d->bias.values + t->bias_off;
  g.c_dtype = t->c_dtype;
  g.truncating_sum = t->truncating_sum;
  ocf_ref_gemm_run(&g, exact, want, tol);
}

static int close_enough(double got, double want, double tol) {
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  return fabs(got - want) <= tol;
}

/* Compares C after the call (raw storage `after`) with the references; every element that is
   no product's output must be unchanged. */
static void compare(const mmx_case *t, const mmx_data *d, const void *after, mmx_outcome *out) {
  char what[400];
  mmx_describe(t, what, sizeof what);
  const size_t batch = t->batch ? t->batch : 1, count = t->m * t->n;
  unsigned char *owned = calloc(d->gc.len ? d->gc.len : 1, 1);
  double *want = ocft_alloc_doubles(count), *tol = ocft_alloc_doubles(count);
  double *want32 = out ? ocft_alloc_doubles(count) : NULL;
  double *tol32 = out ? ocft_alloc_doubles(count) : NULL;
  assert_non_null(owned);
  if (out) out->worst = out->worst_vs_fp32 = 0.0;
  for (size_t bi = 0; bi < batch; bi++) {
    reference(t, d, bi, t->exact_inputs, t->precision, want, tol);
    if (out) reference(t, d, bi, 1, OCF_PRECISION_FP32, want32, tol32);
    for (size_t i = 0; i < t->m; i++)
      for (size_t j = 0; j < t->n; j++) {
        size_t e = t->c_off + bi * d->gc.stride + at(t, d->gc.ld, i, j);
        owned[e] = 1;
        double got = decode(t->c_dtype, after, e), w = want[i * t->n + j];
        double tl = tol[i * t->n + j];
        if (!close_enough(got, w, tl)) {
          print_error("%s\n  product %zu element (%zu, %zu): got %.9g, want %.9g, |diff| %.3g > "
                      "tolerance %.3g\n",
                      what, bi, i, j, got, w, fabs(got - w), tl);
          fail();
        }
        if (out && isfinite(w)) {
          double r = tl > 0.0 ? fabs(got - w) / tl : (got == w ? 0.0 : INFINITY);
          if (r > out->worst) out->worst = r;
          double w32 = want32[i * t->n + j], t32 = tol32[i * t->n + j];
          double r32 = t32 > 0.0 ? fabs(got - w32) / t32 : (got == w32 ? 0.0 : INFINITY);
          if (r32 > out->worst_vs_fp32) out->worst_vs_fp32 = r32;
        }
      }
  }
  const size_t esize = dtype_bytes(t->c_dtype);
  for (size_t e = 0; e < d->gc.len; e++)
    if (!owned[e] &&
        memcmp((const char *)after + e * esize, (const char *)d->c.raw + e * esize, esize) != 0) {
      print_error("%s\n  C element %zu is no product's output but changed\n", what, e);
      fail();
    }
  free(owned), free(want), free(tol), free(want32), free(tol32);
}

static ocf_matmul_options options_of(const mmx_case *t, const mmx_data *d, cl_mem bias) {
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.a_dtype = t->a_dtype, o.b_dtype = t->b_dtype, o.c_dtype = t->c_dtype;
  o.precision = t->precision;
  o.layout = t->layout;
  o.batch = t->batch;
  o.stride_a = d->ga.stride, o.stride_b = d->gb.stride, o.stride_c = d->gc.stride;
  o.activation = t->activation;
  o.bias_axis = t->bias_axis;
  o.bias = t->bias_axis != OCF_BIAS_NONE ? bias : NULL;
  o.bias_offset = t->bias_off;
  o.bias_dtype = t->bias_dtype;
  return o;
}

void mmx_check(const ocft_env *env, const mmx_case *t, mmx_outcome *out) {
  mmx_data d;
  data_make(t, &d);
  cl_mem ab = device_copy(env, &d.a), bb = device_copy(env, &d.b), cb = device_copy(env, &d.c);
  cl_mem biasb = device_copy(env, &d.bias);
  ocf_matmul_options o = options_of(t, &d, biasb);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = t->variant;
  launch.workgroup_size = t->workgroup;
  launch.workspace = t->workspace;
  launch.workspace_size = t->workspace_size;
  cl_mem nan_workspace = NULL;
  if (t->nan_workspace && !t->workspace) {
    const size_t ws_bytes = mmx_workspace_size(env, t);
    if (ws_bytes) {
      nan_workspace = ocft_nan_buffer(env, ws_bytes);
      launch.workspace = nan_workspace, launch.workspace_size = ws_bytes;
    }
  }
  ocf_status status =
      ocf_matmul_ex(env->ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha, ab, t->a_off, d.ga.ld, bb,
                    t->b_off, d.gb.ld, t->beta, cb, t->c_off, d.gc.ld, &o, &launch);
  /* A size the built kernel cannot run (rusticl caps every kernel at 32 work-items) is refused by
     name, and C is left as it was. */
  const int refused = t->workgroup && ocft_refused_by_kernel_limit(status, t->workgroup);
  if (status != OCF_SUCCESS && !refused) {
    char what[400];
    mmx_describe(t, what, sizeof what);
    print_error("%s\n", what);
    ocft_assert_status(status, OCF_SUCCESS);
  }
  const size_t bytes = d.gc.len * dtype_bytes(t->c_dtype);
  void *after = malloc(bytes ? bytes : 1);
  assert_non_null(after);
  assert_int_equal(clEnqueueReadBuffer(env->queue, cb, CL_TRUE, 0, bytes, after, 0, NULL, NULL),
                   CL_SUCCESS);
  if (refused) {
    if (bytes) assert_memory_equal(after, d.c.raw, bytes);
  } else {
    compare(t, &d, after, out);
  }
  free(after);
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
  clReleaseMemObject(biasb);
  if (nan_workspace) clReleaseMemObject(nan_workspace);
  data_free(&d);
}

void mmx_tune(const ocft_env *env, const char *values) {
  for (int dtype = OCF_F32; dtype <= OCF_BF16; dtype++)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", (ocf_dtype)dtype, NULL, values),
                       OCF_SUCCESS);
}

size_t mmx_workspace_size(const ocft_env *env, const mmx_case *t) {
  mmx_data d;
  data_make(t, &d);
  ocf_matmul_options o = options_of(t, &d, NULL);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = t->variant;
  launch.workgroup_size = t->workgroup;
  size_t bytes = 0;
  ocft_assert_status(ocf_matmul_workspace_size(env->ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha,
                                               NULL, t->a_off, d.ga.ld, NULL, t->b_off, d.gb.ld,
                                               t->beta, NULL, t->c_off, d.gc.ld, &o, &launch,
                                               &bytes),
                     OCF_SUCCESS);
  data_free(&d);
  return bytes;
}

unsigned mmx_nvidia_compute_capability(void) {
  ocf_context *ctx = NULL;
  if (ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &ctx) != OCF_SUCCESS) return 0;
  ocf_device_info info;
  ocf_device_info_init(&info);
  const int nvidia = ocf_context_device_info(ctx, &info) == OCF_SUCCESS &&
                     (info.type & CL_DEVICE_TYPE_GPU) && strstr(info.vendor, "NVIDIA");
  ocf_context_release(ctx);
  return nvidia ? info.nv_compute_capability_major * 10 + info.nv_compute_capability_minor : 0;
}

int mmx_have_clblast(void) {
#ifdef OCF_HAVE_CLBLAST
  return !ocft_small();
#else
  return 0;
#endif
}

void mmx_check_clblast(const ocft_env *env, const mmx_case *t) {
#ifdef OCF_HAVE_CLBLAST
  assert_true(t->a_dtype == OCF_F32 && t->b_dtype == OCF_F32 && t->c_dtype == OCF_F32 &&
              t->precision == OCF_PRECISION_FP32 && t->activation == OCF_ACTIVATION_NONE &&
              t->bias_axis == OCF_BIAS_NONE);
  mmx_data d;
  data_make(t, &d);
  cl_mem ab = device_copy(env, &d.a), bb = device_copy(env, &d.b);
  cl_mem ours = device_copy(env, &d.c), theirs = device_copy(env, &d.c);
  ocf_matmul_options o = options_of(t, &d, NULL);
  ocft_assert_status(ocf_matmul_ex(env->ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha, ab, t->a_off,
                                   d.ga.ld, bb, t->b_off, d.gb.ld, t->beta, ours, t->c_off, d.gc.ld,
                                   &o, NULL),
                     OCF_SUCCESS);
  cl_command_queue queue = env->queue;
  const CLBlastLayout layout =
      t->layout == OCF_COL_MAJOR ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
  const CLBlastTranspose ta = t->ta ? CLBlastTransposeYes : CLBlastTransposeNo;
  const CLBlastTranspose tb = t->tb ? CLBlastTransposeYes : CLBlastTransposeNo;
  CLBlastStatusCode code;
  if (t->batch > 1)
    code = CLBlastSgemmStridedBatched(layout, ta, tb, t->m, t->n, t->k, t->alpha, ab, t->a_off,
                                      d.ga.ld, d.ga.stride, bb, t->b_off, d.gb.ld, d.gb.stride,
                                      t->beta, theirs, t->c_off, d.gc.ld, d.gc.stride, t->batch,
                                      &queue, NULL);
  else
    code = CLBlastSgemm(layout, ta, tb, t->m, t->n, t->k, t->alpha, ab, t->a_off, d.ga.ld, bb,
                        t->b_off, d.gb.ld, t->beta, theirs, t->c_off, d.gc.ld, &queue, NULL);
  if (code != CLBlastSuccess) {
    print_error("CLBlast failed with status %d\n", (int)code);
    fail();
  }
  const size_t bytes = d.gc.len * sizeof(float);
  float *got = ocft_alloc_floats(d.gc.len), *ref = ocft_alloc_floats(d.gc.len);
  ocft_read(env, ours, d.gc.len, got);
  ocft_read(env, theirs, d.gc.len, ref);
  (void)bytes;
  compare(t, &d, got, NULL);
  compare(t, &d, ref, NULL);
  /* Both within the tolerance of the exact result: within twice it of each other. */
  const size_t batch = t->batch ? t->batch : 1, count = t->m * t->n;
  double *want = ocft_alloc_doubles(count), *tol = ocft_alloc_doubles(count);
  for (size_t bi = 0; bi < batch; bi++) {
    reference(t, &d, bi, 0, OCF_PRECISION_FP32, want, tol);
    for (size_t i = 0; i < t->m; i++)
      for (size_t j = 0; j < t->n; j++) {
        size_t e = t->c_off + bi * d.gc.stride + at(t, d.gc.ld, i, j);
        if (!(fabs((double)got[e] - ref[e]) <= 2.0 * tol[i * t->n + j])) {
          char what[400];
          mmx_describe(t, what, sizeof what);
          print_error("%s\n  vs CLBlast, product %zu (%zu, %zu): %.9g vs %.9g\n", what, bi, i, j,
                      got[e], ref[e]);
          fail();
        }
      }
  }
  free(want), free(tol), free(got), free(ref);
  clReleaseMemObject(ab), clReleaseMemObject(bb);
  clReleaseMemObject(ours), clReleaseMemObject(theirs);
  data_free(&d);
#else
  (void)env, (void)t;
  fail_msg("mmx_check_clblast without CLBlast");
#endif
}

cl_mem mmx_pattern_buffer(const ocft_env *env, size_t bytes) {
  unsigned char *pattern = malloc(bytes ? bytes : 1);
  assert_non_null(pattern);
  for (size_t i = 0; i < bytes; i++)
    pattern[i] = (unsigned char)(i * 37 + 11);
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(env->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 bytes ? bytes : 1, pattern, &err);
  assert_int_equal(err, CL_SUCCESS);
  free(pattern);
  return buffer;
}

void mmx_assert_pattern(const ocft_env *env, cl_mem buffer, size_t bytes, const char *what) {
  unsigned char *got = malloc(bytes ? bytes : 1);
  assert_non_null(got);
  assert_int_equal(clEnqueueReadBuffer(env->queue, buffer, CL_TRUE, 0, bytes, got, 0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t i = 0; i < bytes; i++)
    if (got[i] != (unsigned char)(i * 37 + 11)) {
      print_error("%s: byte %zu changed\n", what, i);
      fail();
    }
  free(got);
}
