/*
 * ocf_softmax_ex's options against the CPU reference (harness/reference_softmax.c): scale,
 * log-softmax, per-row lengths (above cols too), the causal band (alone and with lengths), f16
 * and bf16 storage in and out, non-finite inputs with each, the refusals, a wait list holding an
 * unset user event, and every softmax kernel (cl/softmax_*.cl) forced in turn (through the
 * context's tuning values, as the tuner sets them) on ragged shapes, strides, offsets and in place.
 *
 * Tolerance, per element (u = 2^-24). For a row with max m and scale a, t_i = a (x_i - m) over
 * its valid columns, y_i = exp(t_i) / S, S = sum_k exp(t_k). The kernels compute:
 *   - t_i as a (x_i - m'), a subtraction and a product (u each: 2u|t_i| absolute), and for softmax
 *     possibly through a work-item's own max m_j (exp(a (x_i - m_j)) exp(a (m_j - m)), both
 *     exponents at most |t_i|): 4u|t_i|, which exp turns into a relative error of that size;
 *   - exp, at most 3 ulp in OpenCL (6u), twice on a path: 12u; 1 / S (2.5 ulp: 5u) and two
 *     products (u each): softmax outputs carry a_i = 19u + 4u|t_i|, rounded up to 24u + 4u|t_i|;
 *   - S itself: each term its own 12u + 4u|t_k| (weight y_k), plus the summation: a partial sum
 *     passes through at most h levels of an addition (u) and a rescale by exp (6u, a product u,
 *     u/e from its argument): 9u a level. A work-item adds at most twice its vectors of the row
 *     serially (a level per vector and per combine), the vector lanes, the segment or workgroup
 *     trees and the slices of a split row add at most 70 more: h = 2 ceil(cols / w) + 70, with w
 *     the fewest work-items sharing a row (64 for the default tunings: every tuning row runs
 *     long rows with at least 64 work-items, and short ones hold at most 64 floats a work-item);
 *     b = u (sum_k y_k (12 + 4|t_k|) + 9h) bounds the relative error of S;
 *   - softmax: |r_i - y_i| <= y_i (a_i + b);
 *     log-softmax, r_i = t_i - log(S): 2u|t_i| + b (log of a relative error b) + 6u|log S| (log,
 *     3 ulp) + u|y_i| (the final subtraction);
 *   - the bound is first order: doubled for the rest; outputs below FLT_MIN may be flushed: an
 *     absolute floor of 2 FLT_MIN.
 * A 16-bit output is then rounded to its type: half an ulp of the type at |y_i| + that bound
 * (ocf_ref_half_ulp). The unfused baseline also stores exp(t_i) in the output type before it
 * divides by S: one more rounding, relative to exp(t_i) (at most two half-ulps of 1 relative,
 * or the type's subnormal half-ulp absolute). 16-bit inputs are exact: the reference takes the
 * rounded inputs.
 * Padding, NaN and infinite outputs must be exact.
 * The masks (lengths, the causal band) only choose how many leading columns of a row take part
 * (its kept length, ocf_ref_kept_lengths): the kernels run the same arithmetic on those columns,
 * so the same bound holds with the row's kept length in place of its length, in every storage
 * type (h, taken from cols, only over-counts a shorter row's levels). The columns past it are
 * padding, exact.
 */
#include "plan/plan.h"
#include "reference.h"
#include "reference_softmax.h"
#include "runtime/context.h"
#include "test_common.h"

#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double ulp_u = 1.0 / 16777216.0; /* 2^-24 */

/* How long a gated call (sm_case.gated) may take to return: it builds nothing (the same case ran
   before), so only a call that waits for its wait list comes near it. */
enum { GATE_SECONDS = 60 };

static void on_gate_alarm(int sig) {
  (void)sig;
  static const char message[] = "ocf_softmax_ex did not return while its wait list held an unset "
                                "user event (it waits for the wait list)\n";
  if (write(2, message, sizeof message - 1) < 0) _exit(2);
  _exit(1);
}

/* One call and what it runs on. */
typedef struct sm_case {
  const char *what;
  size_t rows, cols, in_off, in_ld, out_off, out_ld;
  ocf_dtype in_dtype, out_dtype;
  float scale;
  int log;
  const uint32_t *lengths; /* one per row, or NULL */
  int in_place;            /* out is in (the out offset and stride are ignored) */
  int variant;
  size_t wg;        /* launch workgroup size, 0: tuned */
  size_t row_items; /* the fewest work-items sharing a row (tolerance), 0: 64 */
  int causal;       /* the causal band, with period and offset */
  size_t period, offset;
  int gated; /* the call's wait list holds a user event, set only once the call has returned */
} sm_case;

static size_t extent_of(size_t rows, size_t cols, size_t ld) {
  return rows && cols ? (rows - 1) * ld + cols : 0;
}

/* ---- 16-bit storage on the host ---- */

/* Element i of bytes of type t, as float. */
static float element_get(ocf_dtype t, const unsigned char *bytes, size_t i) {
  if (t == OCF_F32) {
    float v;
    memcpy(&v, bytes + 4 * i, 4);
    return v;
  }
  uint16_t h;
  memcpy(&h, bytes + 2 * i, 2);
  return t == OCF_F16 ? ocf_ref_f16_to_float(h) : ocf_ref_bf16_to_float(h);
}

/* Stores v (rounded to nearest even) as element i of type t. */
static void element_set(ocf_dtype t, unsigned char *bytes, size_t i, float v) {
  if (t == OCF_F32) {
    memcpy(bytes + 4 * i, &v, 4);
    return;
  }
  uint16_t h = t == OCF_F16 ? ocf_ref_f16_from_float(v) : ocf_ref_bf16_from_float(v);
  memcpy(bytes + 2 * i, &h, 2);
}

static unsigned char *alloc_bytes(size_t count) {
  unsigned char *p = malloc(count ? count : 1);
  assert_non_null(p);
  return p;
}

static cl_mem bytes_buffer(const ocft_env *env, size_t count, const void *data) {
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(env->cl, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                            count ? count : 4, (void *)data, &err);
  assert_int_equal(err, CL_SUCCESS);
  return b;
}

static void bytes_read(const ocft_env *env, cl_mem b, size_t count, void *data) {
  assert_int_equal(clEnqueueReadBuffer(env->queue, b, CL_TRUE, 0, count, data, 0, NULL, NULL),
                   CL_SUCCESS);
}

/* ---- tolerances ---- */

/* Per-element tolerances of a case whose stored inputs are x (row r at x + r * in_ld). */
static void case_tolerance(const sm_case *c, const uint32_t *kept, const float *x,
                           const double *want, const double *lse, int stored_exp, double *tol) {
  const size_t w = c->row_items ? c->row_items : 64;
  const double h = 2.0 * (double)((c->cols + w - 1) / w) + 70.0;
  for (size_t r = 0; r < c->rows; r++) {
    const float *row = x + r * c->in_ld;
    const double *y = want + r * c->cols;
    const size_t len = kept[r];
    double m = -INFINITY;
    for (size_t k = 0; k < len; k++)
      if (row[k] > m) m = row[k];
    double weighted = 0.0;
    for (size_t k = 0; k < len; k++) {
      const double t = c->scale * ((double)row[k] - m);
      const double p = c->log ? exp(y[k]) : y[k];
      if (isfinite(t) && isfinite(p)) weighted += p * (12.0 + 4.0 * fabs(t));
    }
    const double b = ulp_u * (weighted + 9.0 * h);
    for (size_t k = 0; k < c->cols; k++) {
      double e = 0.0;
      const double t = c->scale * ((double)row[k] - m);
      /* t = -inf (a -inf entry): exactly 0 or -inf. */
      if (k < len && isfinite(y[k]) && isfinite(t)) {
        if (c->log)
          e = 2.0 * (2.0 * ulp_u * fabs(t) + b + 6.0 * ulp_u * fabs(lse[r]) + ulp_u * fabs(y[k])) +
              2.0 * FLT_MIN;
        else
          e = 2.0 * y[k] * (ulp_u * (24.0 + 4.0 * fabs(t)) + b) + 2.0 * FLT_MIN;
        /* exp(t) stored in the output type, then divided by S: that rounding is relative to
           exp(t), at most 2 half-ulps of 1 relative, or the type's subnormal half-ulp. */
        if (stored_exp && c->out_dtype != OCF_F32)
          e += fabs(y[k]) * 2.0 * ocf_ref_half_ulp((int)c->out_dtype, 1.0) +
               ocf_ref_half_ulp((int)c->out_dtype, 0.0);
        if (c->out_dtype != OCF_F32) e += ocf_ref_half_ulp((int)c->out_dtype, fabs(y[k]) + e);
      }
      tol[r * c->cols + k] = e;
    }
  }
}

/* ---- one call against the reference ---- */

/* The context's softmax values for `dtype` (every shape class) with the tunables `text` names
   set, through the public call (which runs the tuner's validator); tuning_restore goes back to
   the values resolved at the context's creation. */
static void tuning_apply(ocft_env *env, ocf_dtype dtype, const char *text) {
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "softmax", dtype, NULL, text), OCF_SUCCESS);
}

static void tuning_restore(ocft_env *env, ocf_dtype dtype) {
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "softmax", dtype, NULL, NULL), OCF_SUCCESS);
}

/* The first kernel the library plans for a case (with the context's tuning now). */
static ocf_kernel_id planned_kernel(ocft_env *env, const sm_case *c) {
  ocf_device_facts facts;
  ocf_context_facts(env->ctx, &facts);
  const size_t out_off = c->in_place ? c->in_off : c->out_off;
  const size_t out_ld = c->in_place ? c->in_ld : c->out_ld;
  ocf_softmax_call call = {c->rows,     c->cols,   c->in_off,   c->in_ld,
                           out_off,     out_ld,    c->in_dtype, c->out_dtype,
                           c->variant,  c->wg,     c->log != 0, c->lengths != NULL,
                           c->in_place, c->causal, c->in_place, {0, 0}};
  const ocf_shape shape = {{c->rows, c->cols, 0}};
  ocf_tuning_values values;
  ocf_context_tuning_for(env->ctx, OCF_OP_SOFTMAX, c->in_dtype, &shape, &values);
  ocf_plan plan;
  ocft_assert_status(ocf_plan_softmax(&facts, &values, &call, &plan), OCF_SUCCESS);
  return plan.steps[0].kernel;
}

/*
 * Runs one case on inputs `values` (in_off + extent floats, stored in in_dtype), compares every
 * element of the matrix with the reference, and checks that every other element of out (before,
 * between rows, after) kept its bytes. Lengths sit after 3 invalid entries of their buffer.
 */
static void run_case(ocft_env *env, const sm_case *c, const float *values) {
  const size_t in_size = ocf_dtype_size(c->in_dtype), out_size = ocf_dtype_size(c->out_dtype);
  const size_t out_off = c->in_place ? c->in_off : c->out_off;
  const size_t out_ld = c->in_place ? c->in_ld : c->out_ld;
  const size_t in_len = c->in_off + extent_of(c->rows, c->cols, c->in_ld);
  const size_t out_len = c->in_place ? in_len : out_off + extent_of(c->rows, c->cols, out_ld) + 7;
  const size_t n = c->rows * c->cols;

  /* The inputs as stored, and as floats for the reference. */
  unsigned char *in_bytes = alloc_bytes(in_len * in_size);
  float *x = ocft_alloc_floats(in_len);
  for (size_t i = 0; i < in_len; i++) {
    element_set(c->in_dtype, in_bytes, i, values[i]);
    x[i] = element_get(c->in_dtype, in_bytes, i);
  }
  double *want = ocft_alloc_doubles(n), *tol = ocft_alloc_doubles(n);
  double *lse = ocft_alloc_doubles(c->rows);
  uint32_t *kept = malloc((c->rows ? c->rows : 1) * sizeof *kept);
  assert_non_null(kept);
  ocf_ref_kept_lengths(c->rows, c->cols, c->lengths, c->causal, c->period, c->offset, kept);
  ocf_ref_softmax_ex(c->rows, c->cols, x + c->in_off, c->in_ld, c->scale, c->log, kept, want, lse);
  case_tolerance(c, kept, x + c->in_off, want, lse, c->variant == OCF_VARIANT_BASELINE && !c->log,
                 tol);

  /* out starts as a sentinel (values a 16-bit type holds), unless it is in. */
  unsigned char *before = alloc_bytes(out_len * out_size), *after = alloc_bytes(out_len * out_size);
  if (c->in_place) {
    memcpy(before, in_bytes, in_len * in_size);
  } else {
    float *sentinel = ocft_alloc_floats(out_len);
    ocft_fill_uniform(sentinel, out_len, 5.0f, 6.0f, 77 + n);
    for (size_t i = 0; i < out_len; i++)
      element_set(c->out_dtype, before, i, sentinel[i]);
    free(sentinel);
  }
  cl_mem ib = bytes_buffer(env, in_len * in_size, in_bytes);
  cl_mem ob = c->in_place ? ib : bytes_buffer(env, out_len * out_size, before);
  cl_mem lb = NULL;
  ocf_softmax_options opt = OCF_SOFTMAX_OPTIONS_INIT;
  opt.in_dtype = c->in_dtype;
  opt.out_dtype = c->out_dtype;
  opt.scale = c->scale;
  opt.log = c->log;
  if (c->lengths) {
    uint32_t *all = malloc((c->rows + 3) * sizeof *all);
    assert_non_null(all);
    all[0] = all[1] = all[2] = 0xffffffffu; /* never read: the lengths start at offset 3 */
    memcpy(all + 3, c->lengths, c->rows * sizeof *all);
    lb = bytes_buffer(env, (c->rows + 3) * sizeof *all, all);
    free(all);
    opt.lengths = lb;
    opt.lengths_offset = 3;
  }
  opt.causal = c->causal;
  opt.causal_period = c->causal ? c->period : 0;
  opt.causal_offset = c->causal ? c->offset : 0;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = c->variant;
  launch.workgroup_size = c->wg;
  cl_event gate = NULL, done = NULL;
  if (c->gated) {
    cl_int err = CL_SUCCESS;
    gate = clCreateUserEvent(env->cl, &err);
    assert_int_equal(err, CL_SUCCESS);
    launch.num_wait_events = 1;
    launch.wait_events = &gate;
    launch.event = &done;
    /* A call that waits for its wait list never returns on one thread: end the suite then. */
    signal(SIGALRM, on_gate_alarm);
    alarm(GATE_SECONDS);
  }
  ocft_assert_status(ocf_softmax_ex(env->ctx, c->rows, c->cols, ib, c->in_off, c->in_ld, ob,
                                    out_off, out_ld, &opt, &launch),
                     OCF_SUCCESS);
  if (c->gated) {
    alarm(0);
    /* Nothing of the call may have run yet: its last command waits for the gate. */
    cl_int done_status = CL_COMPLETE;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof done_status,
                                    &done_status, NULL),
                     CL_SUCCESS);
    assert_true(done_status != CL_COMPLETE && done_status >= 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    clReleaseEvent(gate);
  }
  bytes_read(env, ob, out_len * out_size, after);

  char what[256], band[64] = "";
  if (c->causal)
    snprintf(band, sizeof band, ", causal period %zu offset %zu", c->period, c->offset);
  snprintf(what, sizeof what,
           "%s: %zu x %zu, in %s off %zu ld %zu, out %s off %zu ld %zu%s, scale %g%s%s%s", c->what,
           c->rows, c->cols, ocf_dtype_name(c->in_dtype), c->in_off, c->in_ld,
           ocf_dtype_name(c->out_dtype), out_off, out_ld, c->in_place ? " (in place)" : "",
           (double)c->scale, c->log ? ", log" : "", c->lengths ? ", lengths" : "", band);
  float *row = ocft_alloc_floats(c->cols);
  for (size_t r = 0; r < c->rows; r++) {
    for (size_t k = 0; k < c->cols; k++)
      row[k] = element_get(c->out_dtype, after, out_off + r * out_ld + k);
    ocft_assert_close(what, row, want + r * c->cols, tol + r * c->cols, c->cols);
  }
  for (size_t i = 0; i < out_len; i++) {
    const size_t rel = i - out_off;
    const int inside = i >= out_off && rel / out_ld < c->rows && rel % out_ld < c->cols;
    if (!inside && memcmp(after + i * out_size, before + i * out_size, out_size) != 0) {
      print_error("%s: element %zu outside the matrix changed\n", what, i);
      fail();
    }
  }
  if (lb) clReleaseMemObject(lb);
  if (ob != ib) clReleaseMemObject(ob);
  clReleaseMemObject(ib);
  free(in_bytes), free(x), free(want), free(tol), free(lse), free(before), free(after), free(row);
  free(kept);
}

/* run_case on uniform inputs in [lo, hi). */
static void run_uniform(ocft_env *env, const sm_case *c, float lo, float hi) {
  const size_t in_len = c->in_off + extent_of(c->rows, c->cols, c->in_ld);
  float *values = ocft_alloc_floats(in_len);
  ocft_fill_uniform(values, in_len, lo, hi, 11 + c->rows * 131 + c->cols);
  run_case(env, c, values);
  free(values);
}

/* A dense case of a shape with the given options. */
static sm_case dense(const char *what, size_t rows, size_t cols, float scale, int log) {
  sm_case c = {what, rows, cols, 0, cols, 0, cols, OCF_F32, OCF_F32, scale,
               log,  NULL, 0,    0, 0,    0, 0,    0,       0,       0};
  return c;
}

/* Ragged lengths for `rows` rows of `cols`: 0, cols (or above: cols + 1, 2^32 - 1, which count as
   cols), 1, then a mix. */
static uint32_t *ragged_lengths(size_t rows, size_t cols, unsigned seed) {
  uint32_t *len = malloc((rows ? rows : 1) * sizeof *len);
  assert_non_null(len);
  float *u = ocft_alloc_floats(rows);
  ocft_fill_uniform(u, rows, 0.0f, 1.0f, seed);
  for (size_t r = 0; r < rows; r++) {
    switch (r % 5) {
    case 0:
      len[r] = 0;
      break;
    case 1: /* rows 1, 6, 11, 16, ...: cols, above, cols + 1, cols, ... */
      len[r] = r % 3 == 1 ? (uint32_t)cols : r % 3 == 0 ? 0xffffffffu : (uint32_t)cols + 1;
      break;
    case 2:
      len[r] = 1;
      break;
    default:
      len[r] = (uint32_t)(u[r] * (float)cols);
    }
  }
  free(u);
  return len;
}

/* ---- the options one at a time ---- */

/* Shapes that reach each kernel under the default tunings of a CPU (rows, resident, resident
   with a streamed rest, the split): every test below runs on them, so that the programs built
   for one (one per set of -D values) serve the others. */
static const size_t kernel_shapes[][2] = {{37, 33}, {3, 300}, {2, 5003}, {1, 40009}};

static size_t shape_count(void) {
  return ocft_small() ? 2 : OCF_ARRAY_LEN_T(kernel_shapes);
}

/* softmax(scale * x): a sharp and a flat temperature. */
static void test_softmax_options_scale(void **state) {
  ocft_env *env = ocft_get_env(state);
  const float scales[] = {0.125f, 0.7f, 3.0f, 40.0f};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(scales); s++)
    for (size_t i = 0; i < shape_count(); i++) {
      sm_case c = dense("scale", kernel_shapes[i][0], kernel_shapes[i][1], scales[s], 0);
      run_uniform(env, &c, -4.0f, 4.0f);
    }
}

/* log-softmax, with rows far from zero (x ~ 1e4 +- 8: t - log S must not lose them), wide
   ranges (|x| ~ 1e4: most terms vanish) and a scale. */
static void test_softmax_options_log(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < shape_count(); i++) {
    sm_case c = dense("log", kernel_shapes[i][0], kernel_shapes[i][1], 1.0f, 1);
    run_uniform(env, &c, -8.0f, 8.0f);
    c.what = "log, x ~ 1e4 +- 8";
    run_uniform(env, &c, 1e4f - 8.0f, 1e4f + 8.0f);
    c.what = "log, |x| ~ 1e4";
    run_uniform(env, &c, -1e4f, 1e4f);
    c.what = "log, scale 0.25";
    c.scale = 0.25f;
    run_uniform(env, &c, -30.0f, 30.0f);
  }
}

/* Row lengths 0, cols, 1 and ragged: the columns past them are 0 (-inf for log) whatever they
   hold (here NaN and +inf, which would poison the row if read), dense and in place on rows that
   start inside a vector. */
static void test_softmax_options_lengths(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < shape_count(); i++) {
    const size_t rows = kernel_shapes[i][0] < 6 ? 11 : kernel_shapes[i][0];
    const size_t cols = kernel_shapes[i][1];
    uint32_t *len = ragged_lengths(rows, cols, 5 + (unsigned)cols);
    for (int log = 0; log < 2; log++) {
      for (int layout = 0; layout < 2; layout++) {
        sm_case c = dense(log ? "lengths, log" : "lengths", rows, cols, 1.5f, log);
        c.lengths = len;
        if (layout == 1) c.in_off = 2, c.in_ld = cols + 1, c.in_place = 1;
        const size_t in_len = c.in_off + extent_of(rows, cols, c.in_ld);
        float *values = ocft_alloc_floats(in_len);
        ocft_fill_uniform(values, in_len, -6.0f, 6.0f, 9 + (unsigned)cols);
        for (size_t r = 0; r < rows; r++)
          for (size_t k = len[r]; k < cols; k++)
            values[c.in_off + r * c.in_ld + k] = k % 2 ? NAN : INFINITY;
        run_case(env, &c, values);
        free(values);
      }
    }
    free(len);
  }
}

/* Every pair of storage types (the pairs take the shapes in turn), softmax on dense rows, and
   log-softmax with a scale and lengths on rows that start inside a vector. */
static void test_softmax_options_dtypes(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int pair = 0; pair < 9; pair++) {
    const size_t *shape = kernel_shapes[(size_t)pair % shape_count()];
    const size_t rows = shape[0], cols = shape[1];
    uint32_t *len = ragged_lengths(rows, cols, 3);
    sm_case c = dense("dtypes", rows, cols, 1.0f, 0);
    c.in_dtype = (ocf_dtype)(pair / 3);
    c.out_dtype = (ocf_dtype)(pair % 3);
    run_uniform(env, &c, -5.0f, 5.0f);
    c.what = "dtypes, log, unaligned, lengths";
    c.log = 1;
    c.in_off = c.out_off = 3;
    c.in_ld = c.out_ld = cols + 1;
    c.lengths = len;
    c.scale = 0.5f;
    run_uniform(env, &c, -5.0f, 5.0f);
    free(len);
  }
}

/* The non-finite patterns of test_softmax (row r takes pattern r % 9), with each option: scale,
   log, lengths (the patterns cut by them; past them the values must not count), 16-bit types. */
static void fill_non_finite(float *x, size_t rows, size_t cols, size_t ld) {
  for (size_t r = 0; r < rows; r++) {
    float *v = x + r * ld;
    for (size_t k = 0; k < cols; k++) {
      int spot = k == 0 || k == cols / 2 || k == cols - 1;
      switch (r % 9) {
      case 0:
        v[k] = spot ? -INFINITY : v[k];
        break;
      case 1:
        v[k] = -INFINITY;
        break;
      case 2:
        v[k] = k == cols / 2 ? NAN : v[k];
        break;
      case 3:
        v[k] = k == cols - 1 ? INFINITY : v[k];
        break;
      case 4:
        v[k] = k % 2 ? -INFINITY : INFINITY;
        break;
      case 5:
        v[k] = k == 0 ? NAN : -INFINITY;
        break;
      case 6:
        v[k] = k == cols - 1 ? 1.0f : -INFINITY;
        break;
      case 7:
        v[k] = k % 3 ? -INFINITY : v[k];
        break;
      default:
        break; /* finite */
      }
    }
  }
}

static void test_softmax_options_non_finite(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { ROWS = 27 };
  for (size_t i = 0; i <= shape_count(); i++) {
    const size_t cols = i < shape_count() ? kernel_shapes[i][1] : 1; /* and rows of one */
    uint32_t len[ROWS];
    for (size_t r = 0; r < ROWS; r++) /* whole, cut after the middle, cut before it */
      len[r] = (uint32_t)(r < 9 ? cols : r < 18 ? cols / 2 + 1 : cols / 2);
    float *values = ocft_alloc_floats(ROWS * cols);
    ocft_fill_uniform(values, ROWS * cols, -5.0f, 5.0f, 90 + (unsigned)cols);
    fill_non_finite(values, ROWS, cols, cols);
    for (int option = 0; option < 6; option++) {
      sm_case c = dense("non-finite", ROWS, cols, 1.0f, 0);
      switch (option) {
      case 0:
        c.what = "non-finite, scale 2.5", c.scale = 2.5f;
        break;
      case 1:
        c.what = "non-finite, log", c.log = 1;
        break;
      case 2:
        c.what = "non-finite, lengths", c.lengths = len;
        break;
      case 3:
        c.what = "non-finite, log, lengths", c.log = 1, c.lengths = len;
        break;
      case 4:
        c.what = "non-finite, f16 -> bf16", c.in_dtype = OCF_F16, c.out_dtype = OCF_BF16;
        break;
      default:
        c.what = "non-finite, bf16 -> f16, log", c.in_dtype = OCF_BF16, c.out_dtype = OCF_F16;
        c.log = 1;
        break;
      }
      run_case(env, &c, values);
    }
    free(values);
  }
}

/* ---- every kernel, forced through the tuning values ---- */

/* A tuning that sends the shapes below to one kernel on any device (the choices do not depend
   on the device's compute units), and the shapes that reach it. */
typedef struct forced_kernel {
  const char *name;
  const char *tuning;
  ocf_kernel_id kernel;
  size_t row_items; /* the fewest work-items a row gets */
  size_t shapes[3][2];
} forced_kernel;

static const forced_kernel forced[] = {
    /* Segments of 1..12 work-items (non-powers of two), rows_wg 24: workgroups of 24. */
    {"rows, odd segments",
     "vw=4 items=8 rows_wg=24 seg_items=2 max_seg=12 seg_align=1 prefetch=0 "
     "rows_groups_per_unit=0",
     OCF_KERNEL_SOFTMAX_ROWS,
     1,
     {{7, 33}, {37, 61}, {5, 1}}},
    /* The same, with the next batch loaded early and one looping workgroup a compute unit. */
    {"rows, prefetch",
     "vw=4 items=8 rows_wg=24 seg_items=2 max_seg=12 seg_align=1 prefetch=1 "
     "rows_groups_per_unit=1",
     OCF_KERNEL_SOFTMAX_ROWS,
     1,
     {{7, 33}, {61, 40}, {5, 2}}},
    /* The same with the vectors that straddle a row's ends read whole (rows.whole_ends): the
       layouts with heads, lengths that end rows mid-vector; in place stays lane by lane. */
    {"rows, whole ends",
     "vw=4 items=8 rows_wg=24 seg_items=2 max_seg=12 seg_align=1 prefetch=0 "
     "rows_groups_per_unit=0 rows.whole_ends=1",
     OCF_KERNEL_SOFTMAX_ROWS,
     1,
     {{7, 33}, {37, 61}, {5, 2}}},
    /* 8 work-items holding 2 vectors in registers and 3 in local memory (160 floats); longer
       rows stream the rest twice. Segments of one work-item take rows of 2 vectors only. */
    {"resident, local memory, streamed rest",
     "vw=4 wg=8 min_wg=8 items=2 local_items=3 unroll=16 max_seg=1 seg_items=1 rows_wg=1 "
     "coop_spin=0 groups_per_unit=1",
     OCF_KERNEL_SOFTMAX_RESIDENT,
     8,
     {{3, 100}, {2, 300}, {4, 161}}},
    /* Slices of at most 8 * 3 vectors, one workgroup each, waiting up to 64 polls. */
    {"coop",
     "vw=4 wg=8 min_wg=8 items=2 local_items=1 unroll=16 max_seg=1 seg_items=1 rows_wg=1 "
     "coop_spin=64 groups_per_unit=1",
     OCF_KERNEL_SOFTMAX_COOP,
     8,
     {{1, 801}, {3, 333}, {2, 100}}}, /* 801: 9 or more slices, 8 pollers */
    /* The same, waiting one poll: the workgroups mostly compute their partners' (m, s). */
    {"coop, helping",
     "vw=4 wg=8 min_wg=8 items=2 local_items=0 unroll=16 max_seg=1 seg_items=1 rows_wg=1 "
     "coop_spin=1 groups_per_unit=1",
     OCF_KERNEL_SOFTMAX_COOP,
     8,
     {{1, 600}, {3, 217}, {2, 100}}}, /* 600: 10 or more slices */
    /* The two-kernel split: rows fewer than 64 a compute unit, slices of 4 loop steps. */
    {"split",
     "vw=4 wg=4 min_wg=4 items=1 unroll=1 max_seg=1 seg_items=1 rows_wg=1 coop_spin=0 "
     "groups_per_unit=64",
     OCF_KERNEL_SOFTMAX_SPLIT_STATS,
     4,
     {{2, 200}, {3, 517}, {1, 129}}},
    /* The split on its own unroll: unroll 16 would leave rows of 200 columns (50 vectors)
       whole, slices being at least 4 steps of 4 x 16 vectors; split_unroll 1 cuts them in 3
       (4 x 4 x 1). */
    {"split, split_unroll",
     "vw=4 wg=4 min_wg=4 items=1 unroll=16 long_rows.split_unroll=1 "
     "long_rows.split_rows_pct=6400 max_seg=1 seg_items=1 rows_wg=1 coop_spin=0 "
     "groups_per_unit=64",
     OCF_KERNEL_SOFTMAX_SPLIT_STATS,
     4,
     {{2, 200}, {3, 517}, {1, 129}}},
};

/* Layouts: dense; rows that start inside a vector (same heads in and out: vector access with a
   head); different heads (scalar access); in place with a head. */
enum { LAYOUTS = 4 };
static void apply_layout(sm_case *c, int layout) {
  const size_t cols = c->cols;
  c->in_off = c->out_off = 0;
  c->in_ld = c->out_ld = cols;
  c->in_place = 0;
  if (layout == 1) c->in_off = 1, c->in_ld = cols + 3, c->out_off = 5, c->out_ld = cols + 7;
  if (layout == 2) c->in_off = 3, c->in_ld = cols + 2, c->out_off = 0, c->out_ld = cols + 1;
  if (layout == 3) c->in_off = 2, c->in_ld = cols + 1, c->in_place = 1;
}

/* Option sets: plain f32; log with scale and lengths; f16 -> bf16 with lengths; bf16 -> f32
   log. In place needs equal element sizes: the 16-bit sets run it 16-bit to 16-bit. */
static void apply_options(sm_case *c, int set, const uint32_t *lengths) {
  c->scale = 1.0f;
  c->log = 0;
  c->lengths = NULL;
  c->in_dtype = c->out_dtype = OCF_F32;
  if (set == 1) c->log = 1, c->scale = 0.5f, c->lengths = lengths;
  if (set == 2) c->in_dtype = OCF_F16, c->out_dtype = OCF_BF16, c->lengths = lengths;
  if (set == 3) c->in_dtype = OCF_BF16, c->out_dtype = c->in_place ? OCF_BF16 : OCF_F32, c->log = 1;
}

/* Runs one forced kernel on a case, after checking that the planner picks it. */
static void run_forced(ocft_env *env, const forced_kernel *forced_one, sm_case *c,
                       const float *values) {
  c->row_items = forced_one->row_items;
  tuning_apply(env, c->in_dtype, forced_one->tuning);
  /* softmax_coop never runs in place: the same tuning holds and streams the row instead. */
  const ocf_kernel_id expected = c->in_place && forced_one->kernel == OCF_KERNEL_SOFTMAX_COOP
                                     ? OCF_KERNEL_SOFTMAX_RESIDENT
                                     : forced_one->kernel;
  const ocf_kernel_id planned = planned_kernel(env, c);
  if (planned != expected) {
    print_error("%s: %zu x %zu planned kernel %d, expected %d\n", forced_one->name, c->rows,
                c->cols, (int)planned, (int)expected);
    fail();
  }
  if (values)
    run_case(env, c, values);
  else
    run_uniform(env, c, -6.0f, 6.0f);
  tuning_restore(env, c->in_dtype);
}

static void test_softmax_options_every_kernel(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t f = 0; f < OCF_ARRAY_LEN_T(forced); f++) {
    for (size_t s = 0; s < (ocft_small() ? 1 : 2); s++) {
      const size_t rows = forced[f].shapes[s][0], cols = forced[f].shapes[s][1];
      uint32_t *len = ragged_lengths(rows, cols, 17 + (unsigned)f);
      /* Layout i with option set i: each once (the full cross would build a program per pair,
         and PoCL compiles each for seconds). */
      for (int layout = 0; layout < LAYOUTS; layout++) {
        if (ocft_small() && layout == 1) continue;
        sm_case c = dense(forced[f].name, rows, cols, 1.0f, 0);
        apply_layout(&c, layout);
        apply_options(&c, layout, len);
        run_forced(env, &forced[f], &c, NULL);
      }
      free(len);
    }
    /* The non-finite patterns (row r takes pattern r % 9), plain and as log-softmax with rows
       cut short: slices and segments of only -inf, NaN or +inf, and padding after them. */
    for (int log = 0; log < (ocft_small() ? 1 : 2); log++) {
      enum { ROWS = 9 };
      const size_t cols = forced[f].shapes[0][1];
      uint32_t len[ROWS];
      for (size_t r = 0; r < ROWS; r++)
        len[r] = (uint32_t)(r % 2 ? cols : cols / 2 + 1);
      float *values = ocft_alloc_floats(ROWS * cols);
      ocft_fill_uniform(values, ROWS * cols, -5.0f, 5.0f, 31 + (unsigned)f);
      fill_non_finite(values, ROWS, cols, cols);
      sm_case c = dense(log ? "non-finite, log, lengths" : "non-finite", ROWS, cols, 1.0f, log);
      c.lengths = log ? len : NULL;
      run_forced(env, &forced[f], &c, values);
      free(values);
    }
  }
}

/* 16-bit rows held packed (packed=1), where every other test holds them as floats (the
   default): the first forced tuning of each holding kernel, with the 16-bit option sets. */
static void test_softmax_options_packed(void **state) {
  ocft_env *env = ocft_get_env(state);
  int done[OCF_KERNEL_COUNT] = {0};
  for (size_t f = 0; f < OCF_ARRAY_LEN_T(forced); f++) {
    const ocf_kernel_id k = forced[f].kernel;
    if ((k != OCF_KERNEL_SOFTMAX_ROWS && k != OCF_KERNEL_SOFTMAX_RESIDENT &&
         k != OCF_KERNEL_SOFTMAX_COOP) ||
        done[k]++)
      continue;
    char tuning[512];
    snprintf(tuning, sizeof tuning, "%s packed=1", forced[f].tuning);
    forced_kernel packed = forced[f];
    packed.tuning = tuning;
    const size_t rows = forced[f].shapes[0][0], cols = forced[f].shapes[0][1];
    uint32_t *len = ragged_lengths(rows, cols, 5);
    for (int set = 2; set <= 3; set++) {
      sm_case c = dense("16-bit rows held packed", rows, cols, 1.0f, 0);
      apply_layout(&c, 0);
      apply_options(&c, set, len);
      run_forced(env, &packed, &c, NULL);
    }
    free(len);
  }
}

/* F16_CVT of the plan for a case on a device of `facts` (with the context's tuning now). */
static long long planned_f16_cvt(ocft_env *env, const sm_case *c, const ocf_device_facts *facts) {
  ocf_softmax_call call = {c->rows,    c->cols,   c->in_off,   c->in_ld,
                           c->out_off, c->out_ld, c->in_dtype, c->out_dtype,
                           c->variant, c->wg,     c->log != 0, c->lengths != NULL,
                           0,          c->causal, 0,           {0, 0}};
  const ocf_shape shape = {{c->rows, c->cols, 0}};
  ocf_tuning_values values;
  ocf_context_tuning_for(env->ctx, OCF_OP_SOFTMAX, c->in_dtype, &shape, &values);
  ocf_plan plan;
  ocft_assert_status(ocf_plan_softmax(facts, &values, &call, &plan), OCF_SUCCESS);
  return ocf_plan_define_value(&plan, "F16_CVT", -1);
}

/* One conversion case on forced[f]'s kernel under its tuning and `extra` (the conversion's
   tunables): 9 rows of its first shape's width, in -> out of these types, rows that start inside
   a vector (offsets 1, rows cols + 3 apart), the non-finite patterns, every other row's length
   half the row plus one (padding). */
static void run_conversion(ocft_env *env, size_t f, const char *extra, ocf_dtype in_dtype,
                           ocf_dtype out_dtype, const char *what, unsigned seed) {
  char tuning[512];
  snprintf(tuning, sizeof tuning, "%s %s", forced[f].tuning, extra);
  forced_kernel one = forced[f];
  one.tuning = tuning;
  enum { ROWS = 9 };
  const size_t cols = forced[f].shapes[0][1];
  uint32_t len[ROWS];
  for (size_t r = 0; r < ROWS; r++)
    len[r] = (uint32_t)(r % 2 ? cols : cols / 2 + 1);
  sm_case c = dense(what, ROWS, cols, 1.0f, 0);
  c.in_dtype = in_dtype;
  c.out_dtype = out_dtype;
  c.in_off = c.out_off = 1;
  c.in_ld = c.out_ld = cols + 3;
  c.lengths = len;
  const size_t in_len = c.in_off + extent_of(ROWS, cols, c.in_ld);
  float *values = ocft_alloc_floats(in_len);
  ocft_fill_uniform(values, in_len, -6.0f, 6.0f, seed);
  fill_non_finite(values + c.in_off, ROWS, cols, c.in_ld);
  run_forced(env, &one, &c, values);
  free(values);
}

/* Each fp16 conversion (f16_cvt 0, 1, 2: cl/f16_words.clh; 2 is the portable 1 but on an NVIDIA
   GPU of compute capability 8.0 on, where it is inline PTX) through each vector kernel, held as
   floats and packed: fp16 in and out, rows that start inside a vector (partial vectors), the
   non-finite patterns, lengths (padding). Then the plans: F16_CVT is the tuning's where fp16
   moves in vectors, 0 where it does not (one program for the calls it cannot change), and 2 only
   on such a GPU, 1 on any other device. */
static void test_softmax_options_f16_conversions(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int cvt = 0; cvt <= 2; cvt++) {
    int done[OCF_KERNEL_COUNT] = {0};
    for (size_t f = 0; f < OCF_ARRAY_LEN_T(forced); f++) {
      const ocf_kernel_id k = forced[f].kernel;
      if (done[k]++) continue;
      for (int packed = 0; packed < (k == OCF_KERNEL_SOFTMAX_SPLIT_STATS ? 1 : 2); packed++) {
        if (ocft_small() && packed) continue;
        char extra[64];
        snprintf(extra, sizeof extra, "packed=%d f16_cvt=%d", packed, cvt);
        run_conversion(env, f, extra, OCF_F16, OCF_F16, "f16 conversions", 41 + (unsigned)f);
      }
    }
  }

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
    snprintf(tuning, sizeof tuning, "vw=8 f16_cvt=%d", cvt);
    tuning_apply(env, OCF_F16, tuning);
    tuning_apply(env, OCF_BF16, tuning);
    for (size_t d = 0; d < 3; d++) {
      const ocf_device_facts *fa = &devices[d];
      const int ptx = fa->vendor == OCF_VENDOR_NVIDIA && (fa->type & CL_DEVICE_TYPE_GPU) &&
                      fa->nv_compute_capability >= 80;
      const long long want = cvt == 2 && !ptx ? 1 : cvt;
      sm_case c = dense("f16_cvt", 4, 4096, 1.0f, 0);
      c.in_dtype = OCF_F16;
      assert_int_equal(planned_f16_cvt(env, &c, fa), want);
      c.in_dtype = OCF_BF16, c.out_dtype = OCF_F16;
      assert_int_equal(planned_f16_cvt(env, &c, fa), want);
      c.out_dtype = OCF_BF16;
      assert_int_equal(planned_f16_cvt(env, &c, fa), 0);
      /* Rows with different heads in and out: scalar access. */
      c.in_dtype = c.out_dtype = OCF_F16, c.out_off = 1;
      assert_int_equal(planned_f16_cvt(env, &c, fa), 0);
    }
    tuning_restore(env, OCF_F16);
    tuning_restore(env, OCF_BF16);
  }
}

/* Each bfloat16 store (bf16_cvt 0, 1: cl/bf16_words.clh; 1 is inline PTX cvt.rn.bf16x2.f32 on an
   NVIDIA GPU of compute capability 8.0 on, and the planner gives it 0 anywhere else) through each
   vector kernel: bfloat16 in and out, held as floats and packed, and fp32 in, bfloat16 out; rows
   that start inside a vector (partial vectors), the non-finite patterns, lengths (padding). The
   plans' gate is test_plan's test_plan_bf16_cvt. */
static void test_softmax_options_bf16_conversions(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int cvt = 0; cvt <= 1; cvt++) {
    int done[OCF_KERNEL_COUNT] = {0};
    for (size_t f = 0; f < OCF_ARRAY_LEN_T(forced); f++) {
      const ocf_kernel_id k = forced[f].kernel;
      if (done[k]++) continue;
      /* 0, 1: bfloat16 in, held as floats, packed; 2: fp32 in. */
      for (int set = 0; set < 3; set++) {
        const int packed = set == 1;
        if (packed && (ocft_small() || k == OCF_KERNEL_SOFTMAX_SPLIT_STATS)) continue;
        char extra[64];
        snprintf(extra, sizeof extra, "packed=%d bf16_cvt=%d", packed, cvt);
        run_conversion(env, f, extra, set == 2 ? OCF_F32 : OCF_BF16, OCF_BF16, "bf16 conversions",
                       43 + (unsigned)f);
      }
    }
  }
}

/* The general and baseline variants take every option too (layout i with option set i). */
static void test_softmax_options_reference_variants(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const int variants[] = {OCF_VARIANT_GENERAL, OCF_VARIANT_BASELINE};
  const size_t rows = 11, cols = ocft_small() ? 45 : 1001;
  uint32_t *len = ragged_lengths(rows, cols, 23);
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(variants); v++)
    for (int layout = 0; layout < LAYOUTS; layout++) {
      sm_case c = dense(v ? "baseline" : "general", rows, cols, 1.0f, 0);
      apply_layout(&c, layout);
      apply_options(&c, layout, len);
      c.variant = variants[v];
      c.row_items = 64;
      run_uniform(env, &c, -6.0f, 6.0f);
    }
  free(len);
}

/* ---- the causal band ---- */

/* Bands for a rows x cols case: one head from the top left (offset 0: row r keeps r + 1),
   heads of a third of the rows at a query block that starts mid-row, one head aligned at the
   bottom right (its last row keeps every column), and heads of 2 rows past cols (every row
   whole). */
enum { BANDS = 4 };
static void apply_band(sm_case *c, int band) {
  c->causal = 1;
  c->period = c->rows, c->offset = 0;
  if (band == 1) c->period = c->rows / 3 ? c->rows / 3 : 1, c->offset = c->cols / 2;
  if (band == 2) c->offset = c->cols > c->rows ? c->cols - c->rows : 0;
  if (band == 3) c->period = 2, c->offset = c->cols + 5;
}

/* Inputs of a case (uniform, or with the non-finite patterns), with NaN and +inf in the columns
   past each row's kept length: read, they would poison the row. */
static float *masked_values(const sm_case *c, int non_finite, unsigned seed) {
  const size_t in_len = c->in_off + extent_of(c->rows, c->cols, c->in_ld);
  float *values = ocft_alloc_floats(in_len);
  ocft_fill_uniform(values, in_len, -6.0f, 6.0f, seed);
  if (non_finite) fill_non_finite(values + c->in_off, c->rows, c->cols, c->in_ld);
  uint32_t *kept = malloc((c->rows ? c->rows : 1) * sizeof *kept);
  assert_non_null(kept);
  ocf_ref_kept_lengths(c->rows, c->cols, c->lengths, c->causal, c->period, c->offset, kept);
  for (size_t r = 0; r < c->rows; r++)
    for (size_t k = kept[r]; k < c->cols; k++)
      values[c->in_off + r * c->in_ld + k] = k % 2 ? NAN : INFINITY;
  free(kept);
  return values;
}

static void run_masked(ocft_env *env, const sm_case *c, int non_finite, unsigned seed) {
  float *values = masked_values(c, non_finite, seed);
  run_case(env, c, values);
  free(values);
}

/* The causal band on the shapes of each kernel the default tunings pick: every band, softmax and
   log-softmax, log-softmax with ragged lengths too (the smaller of the two counts), in place on
   rows that start inside a vector, and with the non-finite patterns cut by the band. */
static void test_softmax_options_causal(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < shape_count(); i++) {
    const size_t rows = kernel_shapes[i][0], cols = kernel_shapes[i][1];
    uint32_t *len = ragged_lengths(rows, cols, 41 + (unsigned)cols);
    for (int log = 0; log < 2; log++) {
      for (int band = 0; band < BANDS; band++) {
        sm_case c = dense(log ? "causal, log" : "causal", rows, cols, log ? 0.75f : 1.0f, log);
        apply_band(&c, band);
        run_masked(env, &c, 0, 50 + (unsigned)band);
      }
      sm_case c = dense("causal, lengths, log", rows, cols, 1.0f, log);
      if (log) { /* (softmax with both: causal_dtypes) */
        apply_band(&c, 1);
        c.lengths = len;
        run_masked(env, &c, 0, 60);
      }
      c.what = log ? "causal, log, in place, unaligned" : "causal, in place, unaligned";
      c.lengths = NULL;
      c.in_off = 2, c.in_ld = cols + 1, c.in_place = 1;
      apply_band(&c, 2);
      run_masked(env, &c, 0, 61);
      c.what = "causal, non-finite";
      c.in_off = 0, c.in_ld = cols, c.in_place = 0;
      apply_band(&c, 1);
      run_masked(env, &c, 1, 62);
    }
    free(len);
  }
}

/* Every pair of storage types with the band (the pairs take the shapes and bands in turn),
   softmax and log-softmax, some with lengths on rows that start inside a vector. */
static void test_softmax_options_causal_dtypes(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int pair = 0; pair < 9; pair++) {
    const size_t *shape = kernel_shapes[(size_t)pair % shape_count()];
    const size_t rows = shape[0], cols = shape[1];
    uint32_t *len = ragged_lengths(rows, cols, 7 + (unsigned)pair);
    sm_case c = dense("causal, dtypes", rows, cols, 1.0f, pair % 2);
    c.in_dtype = (ocf_dtype)(pair / 3);
    c.out_dtype = (ocf_dtype)(pair % 3);
    apply_band(&c, pair % 3);
    if (pair % 3 == 2) {
      c.what = "causal, dtypes, unaligned, lengths";
      c.in_off = c.out_off = 3;
      c.in_ld = c.out_ld = cols + 1;
      c.lengths = len;
    }
    run_masked(env, &c, 0, 70 + (unsigned)pair);
    free(len);
  }
}

/* The band in every kernel, forced as test_softmax_options_every_kernel does: heads of about
   half the rows at offsets that cut rows inside and between slices and segments (coop and split
   slices past the band hold only padding), a layout and an option set per shape. */
static void test_softmax_options_every_kernel_causal(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t f = 0; f < OCF_ARRAY_LEN_T(forced); f++) {
    /* (Two option sets, each a program of every kernel: PoCL and rusticl compile each for
       seconds.) */
    for (size_t s = 0; s < (ocft_small() ? 1 : 2); s++) {
      const size_t rows = forced[f].shapes[s][0], cols = forced[f].shapes[s][1];
      uint32_t *len = ragged_lengths(rows, cols, 29 + (unsigned)f);
      sm_case c = dense(forced[f].name, rows, cols, 1.0f, 0);
      apply_layout(&c, s == 0 ? 1 : 3);
      c.causal = 1;
      c.period = (rows + 1) / 2;
      c.offset = s == 0 ? cols / 3 : cols / 4;
      if (s == 0) c.in_dtype = OCF_F16, c.lengths = len;
      if (s == 1) c.log = 1, c.in_dtype = c.out_dtype = OCF_BF16;
      float *values = masked_values(&c, 0, 80 + (unsigned)s);
      run_forced(env, &forced[f], &c, values);
      free(values);
      free(len);
    }
  }
}

/* The general and baseline variants with the band (and lengths, and 16-bit outputs). */
static void test_softmax_options_causal_reference_variants(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const int variants[] = {OCF_VARIANT_GENERAL, OCF_VARIANT_BASELINE};
  const size_t rows = 11, cols = ocft_small() ? 45 : 1001;
  uint32_t *len = ragged_lengths(rows, cols, 31);
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(variants); v++)
    for (int log = 0; log < 2; log++) {
      sm_case c = dense(v ? "causal, baseline" : "causal, general", rows, cols, 1.0f, log);
      apply_layout(&c, log ? 3 : 1);
      apply_band(&c, log ? 1 : 2);
      c.period = 4;
      c.lengths = log ? len : NULL;
      if (!log) c.out_dtype = v ? OCF_BF16 : OCF_F16;
      c.variant = variants[v];
      c.row_items = 64;
      run_masked(env, &c, 0, 90 + (unsigned)(2 * v) + (unsigned)log);
    }
  free(len);
}

/* A wait list that holds an unset user event: the call returns at once (it reads nothing on the
   host), its out event waits for the gate, and once the gate is set the result is right. Each
   case runs ungated first, so that the gated call builds nothing. Lengths (which the call once
   read on the host, waiting for the wait list), the band, both, a split plan, no rows. */
static void test_softmax_options_user_event(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < shape_count(); i++) {
    const size_t rows = kernel_shapes[i][0], cols = kernel_shapes[i][1];
    uint32_t *len = ragged_lengths(rows, cols, 13);
    for (int mask = 0; mask < 3; mask++) {
      sm_case c = dense("user event", rows, cols, 1.0f, mask == 2);
      if (mask != 1) c.lengths = len;
      if (mask != 0) apply_band(&c, 1);
      float *values = masked_values(&c, 0, 100 + (unsigned)mask);
      run_case(env, &c, values);
      c.gated = 1;
      run_case(env, &c, values);
      free(values);
    }
    free(len);
  }
  /* No rows: a marker after the gate is the call's event. */
  const uint32_t lengths[1] = {0};
  cl_mem lb = bytes_buffer(env, sizeof lengths, lengths), b = ocft_buffer(env, 4, NULL);
  ocf_softmax_options opt = OCF_SOFTMAX_OPTIONS_INIT;
  opt.lengths = lb;
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env->cl, &err), done = NULL;
  assert_int_equal(err, CL_SUCCESS);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.num_wait_events = 1, launch.wait_events = &gate, launch.event = &done;
  signal(SIGALRM, on_gate_alarm);
  alarm(GATE_SECONDS);
  ocft_assert_status(ocf_softmax_ex(env->ctx, 0, 4, b, 0, 4, b, 0, 4, &opt, &launch), OCF_SUCCESS);
  alarm(0);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done), clReleaseEvent(gate);
  clReleaseMemObject(lb), clReleaseMemObject(b);
}

/* ---- the planner's choices for the built-in tunings (no device needed) ---- */

/* Facts of an NVIDIA H200 (132 compute units, 48 KiB of local memory) or of PoCL on 2 cores. */
static ocf_device_facts fake_facts(int gpu) {
  ocf_device_facts f;
  memset(&f, 0, sizeof f);
  f.type = gpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
  f.vendor = gpu ? OCF_VENDOR_NVIDIA : OCF_VENDOR_OTHER;
  f.compute_units = gpu ? 132 : 2;
  f.max_workgroup_size = gpu ? 1024 : 4096;
  f.max_item_sizes[0] = f.max_item_sizes[1] = f.max_workgroup_size;
  f.max_item_sizes[2] = gpu ? 64 : 4096;
  f.local_mem_bytes = gpu ? 49152 : 4 << 20;
  return f;
}

typedef struct plan_expectation {
  int gpu;
  size_t rows, cols, in_off, out_off;
  ocf_dtype dtype;
  int in_place;
  ocf_kernel_id kernel;
  long long vw; /* VW, 0: any */
  size_t parts; /* 0: any */
} plan_expectation;

static void test_softmax_options_plans(void **state) {
  (void)state;
  static const plan_expectation table[] = {
      /* Rows that fit a segment of at most max_seg work-items: several a workgroup. */
      {1, 4096, 4096, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_ROWS, 4, 0},
      {1, 100000, 100, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_ROWS, 4, 0},
      /* An odd width keeps vector access: each row's head is masked. */
      {1, 1823, 781, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_ROWS, 4, 0},
      /* ... unless out's rows sit elsewhere within a vector than in's. */
      {1, 1823, 780, 1, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_ROWS, 1, 0},
      {1, 4096, 4096, 0, 0, OCF_F16, 0, OCF_KERNEL_SOFTMAX_ROWS, 8, 0},
      /* A row one workgroup holds in registers. */
      {1, 4096, 16384, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_RESIDENT, 4, 0},
      /* Longer rows, or too few to fill the device: cooperating slices. */
      {1, 1024, 65536, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_COOP, 4, 4},
      {1, 128, 262144, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_COOP, 4, 16},
      /* ... at most 2 slices of a row a compute unit (coop_unit_slices: they wait for each
         other), 264 on the H200; a row that needs more (8e6 floats: 489 of 4096 float4) takes
         the split. */
      {1, 1, 4000000, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_COOP, 4, 264},
      {1, 1, 8000000, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_SPLIT_STATS, 4, 0},
      {1, 128, 16384, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_COOP, 4, 5},
      /* In place, never cooperating slices: the row is held as far as it goes and streamed. */
      {1, 1024, 65536, 0, 0, OCF_F32, 1, OCF_KERNEL_SOFTMAX_RESIDENT, 4, 0},
      /* PoCL: the two-kernel split for few long rows, no cooperation. */
      {0, 1, 40009, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_SPLIT_STATS, 16, 0},
      {0, 64, 16384, 0, 0, OCF_F32, 0, OCF_KERNEL_SOFTMAX_RESIDENT, 16, 0},
  };
  size_t row_count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&row_count);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(table); i++) {
    const plan_expectation *e = &table[i];
    const ocf_device_facts facts = fake_facts(e->gpu);
    ocf_tuning_values t;
    ocft_assert_status(ocf_tuning_resolve(rows, row_count, OCF_OP_SOFTMAX, e->dtype, &facts,
                                          e->gpu ? "NVIDIA H200" : "pthread-cpu", &t),
                       OCF_SUCCESS);
    const ocf_softmax_call call = {e->rows,     e->cols,  e->in_off,   e->cols, e->out_off, e->cols,
                                   e->dtype,    e->dtype, 0,           0,       0,          0,
                                   e->in_place, 0,        e->in_place, {0, 0}};
    ocf_plan plan;
    ocft_assert_status(ocf_plan_softmax(&facts, &t, &call, &plan), OCF_SUCCESS);
    char described[512];
    ocf_plan_describe(&plan, described, sizeof described);
    if (plan.steps[0].kernel != e->kernel ||
        (e->vw && ocf_plan_define_value(&plan, "VW", 0) != e->vw) ||
        (e->parts && plan.parts != e->parts)) {
      print_error("%zu x %zu on %s: planned %s, parts %zu\n", e->rows, e->cols,
                  e->gpu ? "H200" : "PoCL", described, plan.parts);
      fail();
    }
  }
}

/* An output of wider elements than in's halves the tuned vector per doubling (stores no wider
   than the loads were tuned at), an output as wide or narrower keeps it; the kernel stays the
   same-type call's. Built-in rows: f16 vw=8, f32 vw=4 on the H200. */
static void test_softmax_options_mixed_vector(void **state) {
  (void)state;
  static const struct {
    ocf_dtype in, out;
    long long vw;
  } table[] = {
      {OCF_F16, OCF_F16, 8},  {OCF_F16, OCF_F32, 4}, {OCF_BF16, OCF_F32, 4},
      {OCF_F16, OCF_BF16, 8}, {OCF_F32, OCF_F16, 4}, {OCF_F32, OCF_F32, 4},
  };
  size_t row_count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&row_count);
  const ocf_device_facts facts = fake_facts(1);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(table); i++) {
    ocf_tuning_values t;
    ocft_assert_status(
        ocf_tuning_resolve(rows, row_count, OCF_OP_SOFTMAX, table[i].in, &facts, "NVIDIA H200", &t),
        OCF_SUCCESS);
    ocf_softmax_call call = {4096, 4096, 0, 4096, 0, 4096, table[i].in, table[i].in,
                             0,    0,    0, 0,    0, 0,    0,           {0, 0}};
    ocf_plan same, mixed;
    ocft_assert_status(ocf_plan_softmax(&facts, &t, &call, &same), OCF_SUCCESS);
    call.out_dtype = table[i].out;
    ocft_assert_status(ocf_plan_softmax(&facts, &t, &call, &mixed), OCF_SUCCESS);
    if (ocf_plan_define_value(&mixed, "VW", 0) != table[i].vw ||
        mixed.steps[0].kernel != same.steps[0].kernel) {
      char described[512];
      ocf_plan_describe(&mixed, described, sizeof described);
      print_error("%d -> %d: planned %s\n", (int)table[i].in, (int)table[i].out, described);
      fail();
    }
  }
}

/* ---- refusals ---- */

/* Each bad option is refused with its own status, before anything runs: out keeps its bytes. */
static void test_softmax_options_rejects_bad_values(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = 64 };
  float data[N], before[N], after[N];
  ocft_fill_uniform(data, N, -1.0f, 1.0f, 5);
  ocft_fill_uniform(before, N, -1.0f, 1.0f, 6);
  cl_mem ib = ocft_buffer(env, N, data), ob = ocft_buffer(env, N, before);
  const uint32_t good[8] = {8, 0, 3, 8, 1, 2, 5, 7}, too_long[8] = {8, 0, 3, 9, 1, 2, 5, 7};
  cl_mem lb = bytes_buffer(env, sizeof good, good),
         bad_lb = bytes_buffer(env, sizeof too_long, too_long);
  ocf_context *ctx = env->ctx;
  typedef struct bad_case {
    const char *what;
    ocf_softmax_options opt;
    cl_mem out;
    ocf_status expected;
  } bad_case;
  bad_case bad[24];
  size_t count = 0;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(bad); i++) {
    ocf_softmax_options init = OCF_SOFTMAX_OPTIONS_INIT;
    bad[i].opt = init;
    bad[i].out = ob;
    bad[i].expected = OCF_ERR_INVALID_VALUE;
  }
  bad[count].what = "scale 0", bad[count++].opt.scale = 0.0f;
  bad[count].what = "scale -1", bad[count++].opt.scale = -1.0f;
  bad[count].what = "scale +inf", bad[count++].opt.scale = INFINITY;
  bad[count].what = "scale NaN", bad[count++].opt.scale = NAN;
  bad[count].what = "in dtype 3", bad[count++].opt.in_dtype = (ocf_dtype)3;
  bad[count].what = "out dtype -1", bad[count++].opt.out_dtype = (ocf_dtype)-1;
  bad[count].what = "lengths too short", bad[count].opt.lengths = lb;
  bad[count].opt.lengths_offset = 1, bad[count++].expected = OCF_ERR_BUFFER_TOO_SMALL;
  bad[count].what = "offset without lengths", bad[count].opt.lengths_offset = 2;
  bad[count++].expected = OCF_ERR_NULL_ARGUMENT;
  bad[count].what = "out over the lengths", bad[count].opt.lengths = ob;
  bad[count].out = ob, bad[count++].expected = OCF_ERR_ALIASING;
  bad[count].what = "options size 0", bad[count].opt.size = 0;
  bad[count++].expected = OCF_ERR_INVALID_STRUCT;
  bad[count].what = "causal, period 0", bad[count++].opt.causal = 1;
  bad[count].what = "causal, period 0, offset 3", bad[count].opt.causal = 1;
  bad[count++].opt.causal_offset = 3;
  bad[count].what = "causal, period + offset overflows", bad[count].opt.causal = 1;
  bad[count].opt.causal_period = 2, bad[count++].opt.causal_offset = SIZE_MAX - 1;
  bad[count].what = "causal, period SIZE_MAX, offset 1", bad[count].opt.causal = 1;
  bad[count].opt.causal_period = SIZE_MAX, bad[count++].opt.causal_offset = 1;
  bad[count].what = "a period without causal", bad[count++].opt.causal_period = 8;
  bad[count].what = "an offset without causal", bad[count++].opt.causal_offset = 1;
  bad[count].what = "causal and a bad scale", bad[count].opt.causal = 1;
  bad[count].opt.causal_period = 8, bad[count++].opt.scale = -2.0f;
  for (size_t i = 0; i < count; i++) {
    ocf_status status = ocf_softmax_ex(ctx, 8, 8, ib, 0, 8, bad[i].out, 0, 8, &bad[i].opt, NULL);
    if (status != bad[i].expected) {
      print_error("%s: %s (%s), expected %s\n", bad[i].what, ocf_status_name(status),
                  ocf_last_error(), ocf_status_name(bad[i].expected));
      fail();
    }
    assert_true(ocf_last_error()[0] != '\0');
  }
  /* In place between types of different sizes is an overlap, not in place. */
  ocf_softmax_options widen = OCF_SOFTMAX_OPTIONS_INIT;
  widen.in_dtype = OCF_F16;
  ocft_assert_status(ocf_softmax_ex(ctx, 4, 8, ob, 0, 8, ob, 0, 8, &widen, NULL), OCF_ERR_ALIASING);
  /* A lengths buffer of another OpenCL context. */
  ocft_foreign foreign;
  ocft_foreign_create(env, N, &foreign);
  ocf_softmax_options other = OCF_SOFTMAX_OPTIONS_INIT;
  other.lengths = foreign.buffer;
  ocft_assert_status(ocf_softmax_ex(ctx, 8, 8, ib, 0, 8, ob, 0, 8, &other, NULL),
                     OCF_ERR_CONTEXT_MISMATCH);
  ocft_foreign_release(&foreign);
  ocft_read(env, ob, N, after);
  ocft_assert_unchanged("softmax_ex after refused calls", after, before, N);

  /* The same values are accepted once right: lengths in range (one above cols counts as cols,
     checked by the kernels: the call never reads them), a band that just fits a size_t. */
  ocf_softmax_options fine = OCF_SOFTMAX_OPTIONS_INIT;
  fine.lengths = lb;
  ocft_assert_status(ocf_softmax_ex(ctx, 8, 8, ib, 0, 8, ob, 0, 8, &fine, NULL), OCF_SUCCESS);
  fine.lengths = bad_lb;
  ocft_assert_status(ocf_softmax_ex(ctx, 8, 8, ib, 0, 8, ob, 0, 8, &fine, NULL), OCF_SUCCESS);
  fine.causal = 1, fine.causal_period = 3, fine.causal_offset = SIZE_MAX - 3;
  ocft_assert_status(ocf_softmax_ex(ctx, 8, 8, ib, 0, 8, ob, 0, 8, &fine, NULL), OCF_SUCCESS);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(lb);
  clReleaseMemObject(bad_lb);
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
}

/* NULL options are the defaults (bit for bit ocf_softmax); a struct from a newer caller (larger
   size) is read as far as this library knows it, one from an older caller (smaller) as far as it
   goes; no rows is no work, with lengths too. */
static void test_softmax_options_defaults_and_sizes(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { ROWS = 6, COLS = 77, N = ROWS * COLS };
  float *in = ocft_alloc_floats(N), *a = ocft_alloc_floats(N), *b = ocft_alloc_floats(N);
  ocft_fill_uniform(in, N, -3.0f, 3.0f, 8);
  cl_mem ib = ocft_buffer(env, N, in), oa = ocft_buffer(env, N, NULL),
         ob = ocft_buffer(env, N, NULL);
  ocft_assert_status(ocf_softmax(env->ctx, ROWS, COLS, ib, 0, COLS, oa, 0, COLS, NULL),
                     OCF_SUCCESS);
  struct {
    ocf_softmax_options opt;
    char future[32];
  } newer;
  memset(&newer, 0x5a, sizeof newer);
  ocf_softmax_options init = OCF_SOFTMAX_OPTIONS_INIT;
  newer.opt = init;
  newer.opt.size = sizeof newer;
  ocft_assert_status(
      ocf_softmax_ex(env->ctx, ROWS, COLS, ib, 0, COLS, ob, 0, COLS, &newer.opt, NULL),
      OCF_SUCCESS);
  ocft_read(env, oa, N, a);
  ocft_read(env, ob, N, b);
  ocft_assert_unchanged("softmax_ex with a newer options struct", b, a, N);
  ocft_assert_status(ocf_softmax_ex(env->ctx, ROWS, COLS, ib, 0, COLS, ob, 0, COLS, NULL, NULL),
                     OCF_SUCCESS);
  ocft_read(env, ob, N, b);
  ocft_assert_unchanged("softmax_ex with NULL options", b, a, N);
  /* A caller built against the first header (no causal band): what follows lengths_offset in
     its struct is not read, here a band that would keep one column a row. */
  ocf_softmax_options older = init;
  older.size = offsetof(ocf_softmax_options, lengths_offset) + sizeof(size_t);
  older.causal = 1, older.causal_period = 1, older.causal_offset = 0;
  ocft_assert_status(ocf_softmax_ex(env->ctx, ROWS, COLS, ib, 0, COLS, ob, 0, COLS, &older, NULL),
                     OCF_SUCCESS);
  ocft_read(env, ob, N, b);
  ocft_assert_unchanged("softmax_ex with the first options struct", b, a, N);

  const uint32_t lengths[1] = {0};
  cl_mem lb = bytes_buffer(env, sizeof lengths, lengths);
  ocf_softmax_options with = OCF_SOFTMAX_OPTIONS_INIT;
  with.lengths = lb;
  ocft_assert_status(ocf_softmax_ex(env->ctx, 0, COLS, ib, 0, COLS, ob, 0, COLS, &with, NULL),
                     OCF_SUCCESS);
  ocft_read(env, ob, N, b);
  ocft_assert_unchanged("softmax_ex with no rows", b, a, N);
  clReleaseMemObject(lb);
  clReleaseMemObject(ib);
  clReleaseMemObject(oa);
  clReleaseMemObject(ob);
  free(in), free(a), free(b);
}

/* The most waiting a valid tuning can ask of softmax_coop (coop_spin 2^24 polls a partner, a
   work-item's share of one vector, a device filled 64 times over): 2 x 30000 took over 300 s on
   PoCL before the planner bounded the polls of a workgroup (test_plan_softmax's
   test_plan_softmax_coop_work_bounded); it must give the right answer, as any tuning does. */
static void test_softmax_options_coop_longest_wait(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* KNOWN DEFECT, not this test's: on rusticl's llvmpipe (Mesa 22.3) softmax_coop gives NaN for
     2 x 30000 in 118 slices a row once SPIN reaches 16384 (coop_spin=16384 alone, before the
     bound too; 8192 is right), so the case found (SPIN 17772 there) is skipped on llvmpipe
     until softmax_coop is fixed or understood there. */
  if (strstr(env->info.device_name, "llvmpipe")) {
    printf("skipped on llvmpipe: softmax_coop with SPIN >= 16384 gives NaN there (known)\n");
    skip();
  }
  /* Under Oclgrind (small sizes) the first workgroup's 2^21 polls would be interpreted one by
     one: test_plan_softmax's bound is the guard there. */
  if (ocft_small()) skip();
  const size_t rows = 2, cols = 30000;
  tuning_apply(env, OCF_F32, "coop_spin=16777216 coop_items=1 groups_per_unit=64");
  float *in = ocft_alloc_floats(rows * cols), *out = ocft_alloc_floats(rows * cols);
  double *want = ocft_alloc_doubles(rows * cols);
  ocft_fill_uniform(in, rows * cols, -6.0f, 6.0f, 31);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, in, cols, out, cols), OCF_SUCCESS);
  tuning_restore(env, OCF_F32);
  ocf_ref_softmax(rows, cols, in, cols, want);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(rows, cols, in, cols, want, out, cols, 0, &env->info, &check);
  ocft_assert_check("softmax under the longest coop wait", &check);
  free(in), free(out), free(want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_softmax_options_scale),
      cmocka_unit_test(test_softmax_options_log),
      cmocka_unit_test(test_softmax_options_lengths),
      cmocka_unit_test(test_softmax_options_dtypes),
      cmocka_unit_test(test_softmax_options_non_finite),
      cmocka_unit_test(test_softmax_options_every_kernel),
      cmocka_unit_test(test_softmax_options_packed),
      cmocka_unit_test(test_softmax_options_f16_conversions),
      cmocka_unit_test(test_softmax_options_bf16_conversions),
      cmocka_unit_test(test_softmax_options_reference_variants),
      cmocka_unit_test(test_softmax_options_causal),
      cmocka_unit_test(test_softmax_options_causal_dtypes),
      cmocka_unit_test(test_softmax_options_every_kernel_causal),
      cmocka_unit_test(test_softmax_options_causal_reference_variants),
      cmocka_unit_test(test_softmax_options_user_event),
      cmocka_unit_test(test_softmax_options_plans),
      cmocka_unit_test(test_softmax_options_mixed_vector),
      cmocka_unit_test(test_softmax_options_rejects_bad_values),
      cmocka_unit_test(test_softmax_options_defaults_and_sizes),
      cmocka_unit_test(test_softmax_options_coop_longest_wait),
  };
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  return cmocka_run_group_tests_name("softmax_options", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
