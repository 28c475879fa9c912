/*
 * matmul: liboclfuse (AUTO) against the naive one-output-per-work-item kernel (BASELINE),
 * CLBlastSgemm (row-major) and, on NVIDIA, CLBlast with H200-tuned Xgemm parameters; in GFLOP/s
 * of 2mnk (times the batch) and in % of the measured FMA peak. The call is the spec's
 * (tool_spec: transposes, storage types, precision, layout, batch, epilogue, alpha, beta,
 * padding and offsets), through ocf_matmul_ex; CLBlast runs only the plain call (C = A B, fp32,
 * dense row-major). The plain call is judged by the harness's partial-sum model
 * (harness/tolerance.h), any other by the model of harness/reference_gemm.h.
 *
 * The naive kernel is skipped above N = 4096 on a GPU: at 8192 it would take ~8 s a call, longer
 * than the whole default run may.
 *
 * Outputs are checked in full while m n k batch <= 2^24; above that, on 256 random outputs plus the
 * four corners, since the double-precision reference costs m n k multiply-adds on the host
 * (8192^3 would take minutes). The sampled outputs are fixed per shape and their references
 * computed once.
 */
#include "tool.h"

#include "reference.h"
#include "reference_gemm.h"

#include <stdlib.h>
#include <string.h>

#define MATMUL_FULL_CHECK ((size_t)1 << 24)
#define MATMUL_SAMPLES 260 /* 4 corners + 256 random */
#define NAIVE_MAX_GPU 4096

/* One operand as stored: rows x cols (before any transpose), its leading dimension, the extent
   of one matrix and the distance from one matrix of a batch to the next (0: shared). */
typedef struct operand {
  ocf_dtype dtype;
  size_t rows, cols, ld, extent, stride, elements; /* elements: the whole buffer */
  float *values;                                   /* every element, as the buffer holds it */
  cl_mem mem;
} operand;

typedef struct matmul_problem {
  ocf_context *ctx;
  tool_spec spec;
  size_t m, n, k, batch;
  operand a, b, c, bias;
  float *got;
  double *want, *tol;
  size_t *samples; /* sampled outputs (bi * m * n + i * n + j); NULL for a full check */
  size_t checked;  /* outputs compared */
  int want_ready;
  int truncating_sum;     /* matrix units may sum (reference_gemm.h) */
  unsigned char *c_bytes; /* C's buffer as read back */
  ocf_launch launch;
  int use_clblast;
} matmul_problem;

static int matmul_full(const tool_spec *s) {
  return (double)s->d[0] * (double)s->d[1] * (double)s->d[2] * (double)s->batch <=
         (double)MATMUL_FULL_CHECK;
}

static void operand_free(operand *o) {
  if (o->mem) clReleaseMemObject(o->mem);
  free(o->values);
  memset(o, 0, sizeof *o);
}

static void matmul_teardown(matmul_problem *p) {
  operand_free(&p->a);
  operand_free(&p->b);
  operand_free(&p->c);
  operand_free(&p->bias);
  free(p->got);
  free(p->want);
  free(p->tol);
  free(p->samples);
  free(p->c_bytes);
  memset(p, 0, sizeof *p);
}

/* The geometry of an operand stored rows x cols in the spec's layout, padding and batch. */
static void operand_shape(const tool_spec *s, operand *o, ocf_dtype dtype, size_t rows, size_t cols,
                          int shared) {
  int col_major = s->layout == OCF_COL_MAJOR;
  o->dtype = dtype;
  o->rows = rows;
  o->cols = cols;
  o->ld = (col_major ? rows : cols) + s->pad;
  o->extent = col_major ? (cols - 1) * o->ld + rows : (rows - 1) * o->ld + cols;
  o->stride = shared || s->batch < 2 ? 0 : (o->extent + 3) / 4 * 4;
  o->elements = s->offset + (s->batch - 1) * o->stride + o->extent;
}

/* Fresh random values rounded to the operand's type, and its device buffer; 0 or -1. */
static int operand_make(ocf_context *ctx, operand *o, uint64_t seed, int poison) {
  o->values = tool_alloc_floats(o->elements);
  if (!o->values) return -1;
  ocft_fill_uniform(o->values, o->elements, -1.0f, 1.0f, seed);
  tool_round_to(o->dtype, o->values, o->elements);
  size_t bytes = o->elements * ocf_dtype_size(o->dtype);
  void *raw = poison ? NULL : tool_alloc_bytes(bytes);
  if (!poison && !raw) return -1;
  if (raw) tool_encode(o->dtype, o->values, o->elements, raw);
  o->mem = tool_buffer_bytes(ctx, bytes, raw);
  free(raw);
  return o->mem ? 0 : -1;
}

/* The index in an operand's buffer of element (r, c) of matrix bi (as stored). */
static size_t operand_at(const tool_spec *s, const operand *o, size_t bi, size_t r, size_t c) {
  size_t within = s->layout == OCF_COL_MAJOR ? r + c * o->ld : r * o->ld + c;
  return s->offset + bi * o->stride + within;
}

static int matmul_setup(tool_bench_env *env, const tool_spec *s, matmul_problem *p) {
  memset(p, 0, sizeof *p);
  p->ctx = env->ctx;
  p->spec = *s;
  p->m = s->d[0];
  p->n = s->d[1];
  p->k = s->d[2];
  p->batch = s->batch;
  p->truncating_sum =
      strstr(env->info.vendor, "NVIDIA") != NULL &&
      (s->precision != OCF_PRECISION_FP32 || s->a_dtype != OCF_F32 || s->b_dtype != OCF_F32);
  size_t m = p->m, n = p->n, k = p->k;
  operand_shape(s, &p->a, s->a_dtype, s->ta ? k : m, s->ta ? m : k, s->share_a);
  operand_shape(s, &p->b, s->b_dtype, s->tb ? n : k, s->tb ? k : n, s->share_b);
  operand_shape(s, &p->c, s->c_dtype, m, n, 0);
  int full = matmul_full(s);
  p->checked = full ? p->batch * m * n : MATMUL_SAMPLES;
  p->got = tool_alloc_floats(p->checked);
  p->want = tool_alloc_doubles(p->checked);
  p->tol = tool_alloc_doubles(p->checked);
  p->c_bytes = full ? tool_alloc_bytes(p->c.elements * ocf_dtype_size(s->c_dtype)) : NULL;
  if (!full) p->samples = malloc(MATMUL_SAMPLES * sizeof *p->samples);
  if (!p->got || !p->want || !p->tol || (full && !p->c_bytes) || (!full && !p->samples)) {
    if (!full && !p->samples) tool_error("out of host memory");
    matmul_teardown(p);
    return -1;
  }
  if (!full) {
    uint64_t rng = 0x3A7 + m * 131 + n * 17 + k;
    size_t total = p->batch * m * n;
    size_t corners[4] = {0, n - 1, (m - 1) * n, total - 1};
    for (size_t i = 0; i < MATMUL_SAMPLES; i++)
      p->samples[i] = i < 4 ? corners[i] : (size_t)(ocft_rng_next(&rng) % total);
  }
  if (operand_make(env->ctx, &p->a, 5 + m, 0) || operand_make(env->ctx, &p->b, 7 + n, 0) ||
      operand_make(env->ctx, &p->c, 11 + k, s->beta == 0.0f)) {
    matmul_teardown(p);
    return -1;
  }
  if (s->bias_axis != OCF_BIAS_NONE) {
    tool_spec one = *s;
    one.batch = 1;
    one.pad = 0;
    one.layout = OCF_ROW_MAJOR;
    operand_shape(&one, &p->bias, s->c_dtype, 1, s->bias_axis == OCF_BIAS_N ? n : m, 1);
    if (operand_make(env->ctx, &p->bias, 13 + m + n, 0)) {
      matmul_teardown(p);
      return -1;
    }
  }
  return 0;
}

static int matmul_enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  matmul_problem *p = state;
  const tool_spec *s = &p->spec;
  if (p->use_clblast)
    return tool_clblast_sgemm(ocf_context_queue(p->ctx), p->m, p->n, p->k, p->a.mem, p->b.mem,
                              p->c.mem, event, err, errlen);
  ocf_launch launch = p->launch;
  launch.event = event;
  ocf_matmul_options options = OCF_MATMUL_OPTIONS_INIT;
  options.a_dtype = s->a_dtype;
  options.b_dtype = s->b_dtype;
  options.c_dtype = s->c_dtype;
  options.precision = s->precision;
  options.layout = s->layout;
  options.batch = s->batch;
  options.stride_a = p->a.stride;
  options.stride_b = p->b.stride;
  options.stride_c = p->c.stride;
  options.activation = s->activation;
  options.bias_axis = s->bias_axis;
  options.bias = p->bias.mem;
  options.bias_offset = s->offset;
  options.bias_dtype = s->c_dtype;
  ocf_status status = ocf_matmul_ex(p->ctx, s->ta, s->tb, p->m, p->n, p->k, s->alpha, p->a.mem,
                                    s->offset, p->a.ld, p->b.mem, s->offset, p->b.ld, s->beta,
                                    p->c.mem, s->offset, p->c.ld, &options, &launch);
  return status == OCF_SUCCESS ? 0 : tool_library_failure(status, "ocf_matmul_ex", err, errlen);
}

/* want and tol of the outputs (i, j) of product bi with i in [i0, i0 + rows), j in
   [j0, j0 + cols): a sub-product on the operands' own memory. */
static void matmul_reference_block(const matmul_problem *p, size_t bi, size_t i0, size_t j0,
                                   size_t rows, size_t cols, double *want, double *tol) {
  const tool_spec *s = &p->spec;
  /* Row i of op(A) and column j of op(B), as stored. */
  const float *a =
      p->a.values + (s->ta ? operand_at(s, &p->a, bi, 0, i0) : operand_at(s, &p->a, bi, i0, 0));
  const float *b =
      p->b.values + (s->tb ? operand_at(s, &p->b, bi, j0, 0) : operand_at(s, &p->b, bi, 0, j0));
  const float *c = p->c.values + operand_at(s, &p->c, bi, i0, j0);
  if (tool_spec_plain(s)) {
    /* The plain call: the harness's tighter model, from the partial sums of each product. */
    ocf_ref_matmul(0, 0, rows, cols, p->k, 1.0f, a, p->a.ld, b, p->b.ld, 0.0f, NULL, 0, want);
    ocft_matmul_tolerance(0, 0, rows, cols, p->k, 1.0f, a, p->a.ld, b, p->b.ld, 0.0f, NULL, 0, tol);
    return;
  }
  ocf_ref_gemm g;
  memset(&g, 0, sizeof g);
  g.col_major = s->layout == OCF_COL_MAJOR;
  g.trans_a = s->ta;
  g.trans_b = s->tb;
  g.m = rows;
  g.n = cols;
  g.k = p->k;
  g.alpha = s->alpha;
  g.beta = s->beta;
  g.a = a;
  g.b = b;
  g.c = c;
  g.lda = p->a.ld;
  g.ldb = p->b.ld;
  g.ldc = p->c.ld;
  g.precision = (int)s->precision;
  g.activation = (int)s->activation;
  g.bias_axis = (int)s->bias_axis;
  g.bias = s->bias_axis == OCF_BIAS_NONE
               ? NULL
               : p->bias.values + s->offset + (s->bias_axis == OCF_BIAS_N ? j0 : i0);
  g.c_dtype = (int)s->c_dtype;
  g.truncating_sum = p->truncating_sum;
  ocf_ref_gemm_run(&g, 0, want, tol);
}

static void matmul_reference(matmul_problem *p) {
  if (p->want_ready) return;
  size_t mn = p->m * p->n;
  if (!p->samples) {
    for (size_t bi = 0; bi < p->batch; bi++)
      matmul_reference_block(p, bi, 0, 0, p->m, p->n, p->want + bi * mn, p->tol + bi * mn);
  } else {
    for (size_t i = 0; i < MATMUL_SAMPLES; i++) {
      size_t at = p->samples[i], bi = at / mn, r = at % mn / p->n, c = at % p->n;
      matmul_reference_block(p, bi, r, c, 1, 1, &p->want[i], &p->tol[i]);
    }
  }
  p->want_ready = 1;
}

static int matmul_verify(void *state, tool_verdict *v, char *err, size_t errlen) {
  matmul_problem *p = state;
  const tool_spec *s = &p->spec;
  cl_command_queue queue = ocf_context_queue(p->ctx);
  size_t size = ocf_dtype_size(s->c_dtype), mn = p->m * p->n;
  cl_int e = CL_SUCCESS;
  if (!p->samples) {
    e = clEnqueueReadBuffer(queue, p->c.mem, CL_TRUE, 0, p->c.elements * size, p->c_bytes, 0, NULL,
                            NULL);
    for (size_t bi = 0; e == CL_SUCCESS && bi < p->batch; bi++)
      for (size_t i = 0; i < p->m; i++)
        for (size_t j = 0; j < p->n; j++)
          p->got[bi * mn + i * p->n + j] =
              tool_decode(s->c_dtype, p->c_bytes, operand_at(s, &p->c, bi, i, j));
  } else {
    unsigned char raw[MATMUL_SAMPLES][4];
    for (size_t i = 0; e == CL_SUCCESS && i < MATMUL_SAMPLES; i++) {
      size_t at = p->samples[i], bi = at / mn, r = at % mn / p->n, c = at % p->n;
      e = clEnqueueReadBuffer(queue, p->c.mem, CL_FALSE, operand_at(s, &p->c, bi, r, c) * size,
                              size, raw[i], 0, NULL, NULL);
    }
    cl_int f = clFinish(queue);
    if (e == CL_SUCCESS) e = f;
    for (size_t i = 0; e == CL_SUCCESS && i < MATMUL_SAMPLES; i++)
      p->got[i] = tool_decode(s->c_dtype, raw[i], 0);
  }
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "reading C back: %s", ocf_status_name((ocf_status)e));
    return -1;
  }
  matmul_reference(p);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(p->got, p->want, p->tol, p->checked, &check);
  tool_verdict_set(v, &check);
  if (p->samples) v->worst = p->samples[v->worst];
  return 0;
}

/* Puts C back as it was before the call: NaN when beta is 0 (an output never written fails),
   its first values otherwise (the call reads them). */
static int matmul_reset_c(matmul_problem *p) {
  const tool_spec *s = &p->spec;
  if (s->beta == 0.0f) return tool_poison_dtype(p->ctx, p->c.mem, p->c.elements, s->c_dtype);
  size_t bytes = p->c.elements * ocf_dtype_size(s->c_dtype);
  void *raw = tool_alloc_bytes(bytes);
  if (!raw) return -1;
  tool_encode(s->c_dtype, p->c.values, p->c.elements, raw);
  cl_int e = clEnqueueWriteBuffer(ocf_context_queue(p->ctx), p->c.mem, CL_TRUE, 0, bytes, raw, 0,
                                  NULL, NULL);
  free(raw);
  return e == CL_SUCCESS ? 0 : -1;
}

static tool_row *matmul_row(tool_bench_env *env, const tool_spec *s, const char *variant,
                            size_t wg) {
  char shape[96];
  tool_spec_text(s, shape, sizeof shape);
  tool_row *row = tool_results_add(env->results, "matmul", shape, variant);
  if (!row) return NULL;
  row->dims[0] = s->d[0];
  row->dims[1] = s->d[1];
  row->dims[2] = s->d[2];
  row->ndims = 3;
  row->unit = "GFLOP/s";
  row->work = 2.0 * (double)s->d[0] * (double)s->d[1] * (double)s->d[2] * (double)s->batch;
  row->workgroup_size = wg;
  return row;
}

static void matmul_measure(tool_bench_env *env, matmul_problem *p, const char *variant, size_t wg,
                           tool_row *row) {
  ocf_launch_init(&p->launch);
  p->use_clblast = !strncmp(variant, "clblast", 7);
  p->launch.variant = !strcmp(variant, "baseline") ? OCF_VARIANT_BASELINE : OCF_VARIANT_AUTO;
  p->launch.workgroup_size = wg;
  if (p->samples)
    snprintf(row->checked, sizeof row->checked, "%d sampled outputs", MATMUL_SAMPLES);
  else
    snprintf(row->checked, sizeof row->checked, "all %zu outputs", p->checked);
  if (matmul_reset_c(p)) {
    row->status = ROW_FAILED;
    tool_row_note(row, "could not reset the output buffer");
    return;
  }
  if (wg)
    tool_progress(env->timer, "matmul %s %s wg=%zu", row->shape, row->variant, wg);
  else
    tool_progress(env->timer, "matmul %s %s", row->shape, row->variant);
  tool_measure(env->timer, matmul_enqueue, matmul_verify, p, env->repeats, row);
}

static int matmul_fits(const tool_bench_env *env, const tool_spec *s, char *why, size_t whylen) {
  matmul_problem p;
  memset(&p, 0, sizeof p);
  size_t m = s->d[0], n = s->d[1], k = s->d[2];
  operand_shape(s, &p.a, s->a_dtype, s->ta ? k : m, s->ta ? m : k, s->share_a);
  operand_shape(s, &p.b, s->b_dtype, s->tb ? n : k, s->tb ? k : n, s->share_b);
  operand_shape(s, &p.c, s->c_dtype, m, n, 0);
  double a = (double)p.a.elements * (double)ocf_dtype_size(s->a_dtype);
  double b = (double)p.b.elements * (double)ocf_dtype_size(s->b_dtype);
  double c = (double)p.c.elements * (double)ocf_dtype_size(s->c_dtype);
  double biggest = a > b ? (a > c ? a : c) : (b > c ? b : c);
  if ((env->max_alloc && biggest > (double)env->max_alloc) ||
      a + b + c > 0.8 * (double)env->info.global_mem_bytes) {
    snprintf(why, whylen, "the matrices do not fit the device's allocation limits");
    return 0;
  }
  return 1;
}

/* Why a variant is not run on this call, or NULL to run it. */
static const char *matmul_skip(const tool_bench_env *env, const tool_spec *s, const char *variant) {
  if (!strcmp(variant, "baseline") && env->gpu &&
      (s->d[0] > NAIVE_MAX_GPU || s->d[1] > NAIVE_MAX_GPU || s->d[2] > NAIVE_MAX_GPU))
    return "the naive kernel is skipped above N=4096 on a GPU (seconds per call)";
  if (!strncmp(variant, "clblast", 7) && !tool_clblast_available()) return "built without CLBlast";
  if (!strncmp(variant, "clblast", 7) && !tool_spec_plain(s))
    return "CLBlast runs the plain fp32 call only (no options)";
  return NULL;
}

/* Runs `variants` (names) on one call, or the oclfuse variant over workgroup sizes. */
static int matmul_shape(tool_bench_env *env, const tool_spec *s, const char *const *variants,
                        size_t variant_count, const size_t *wgs, size_t wg_count,
                        const char *failure) {
  char why[160] = "";
  matmul_problem p;
  int fits = matmul_fits(env, s, why, sizeof why);
  int ready = fits && !failure && matmul_setup(env, s, &p) == 0;
  size_t count = wgs ? wg_count : env->library_only ? 1 : variant_count;
  for (size_t i = 0; i < count; i++) {
    const char *variant = wgs ? "oclfuse" : variants[i];
    if (env->timer->check_only && !strncmp(variant, "clblast", 7)) continue; /* not the library */
    tool_row *row = matmul_row(env, s, variant, wgs ? wgs[i] : 0);
    if (!row) {
      if (ready) matmul_teardown(&p);
      return -1;
    }
    row->sweep = wgs != NULL;
    const char *skip = matmul_skip(env, s, variant);
    if (failure) {
      row->status = ROW_FAILED;
      tool_row_note(row, "%s", failure);
    } else if (!fits || skip) {
      row->status = ROW_SKIPPED;
      tool_row_note(row, "%s", skip ? skip : why);
    } else if (!ready) {
      row->status = ROW_FAILED;
      tool_row_note(row, "could not allocate the buffers (see stderr)");
    } else {
      matmul_measure(env, &p, variant, wgs ? wgs[i] : 0, row);
    }
  }
  if (ready) matmul_teardown(&p);
  return 0;
}

int tool_bench_matmul(tool_bench_env *env, const tool_spec *specs, size_t count) {
  static const char *const untuned[] = {"oclfuse", "baseline", "clblast"};
  static const char *const tuned[] = {"clblast-tuned"};
  for (size_t i = 0; i < count; i++)
    if (tool_stop_requested() || matmul_shape(env, &specs[i], untuned, 3, NULL, 0, NULL)) return -1;
  if (env->library_only || env->timer->check_only || !tool_clblast_available() ||
      !tool_clblast_tuned_applies(&env->info))
    return 0;
  /* The override is per device and lasts for the process: only now, after every untuned run. */
  char err[256] = "";
  int failed = tool_clblast_apply_tuned(env->info.device, err, sizeof err) != 0;
  for (size_t i = 0; i < count; i++)
    if (tool_stop_requested() ||
        matmul_shape(env, &specs[i], tuned, 1, NULL, 0, failed ? err : NULL))
      return -1;
  return 0;
}

int tool_sweep_matmul(tool_bench_env *env, size_t n, const size_t *wgs, size_t count) {
  tool_spec s;
  tool_spec_init(&s, TOOL_OP_MATMUL);
  s.d[0] = s.d[1] = s.d[2] = n;
  s.ndims = 3;
  return matmul_shape(env, &s, NULL, 0, wgs, count, NULL);
}

int tool_matmul_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch,
                             char *err, size_t errlen) {
  matmul_problem p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.spec = *s;
  p.m = s->d[0];
  p.n = s->d[1];
  p.k = s->d[2];
  p.batch = s->batch;
  operand_shape(s, &p.a, s->a_dtype, s->ta ? p.k : p.m, s->ta ? p.m : p.k, s->share_a);
  operand_shape(s, &p.b, s->b_dtype, s->tb ? p.n : p.k, s->tb ? p.k : p.n, s->share_b);
  operand_shape(s, &p.c, s->c_dtype, p.m, p.n, 0);
  if (s->bias_axis != OCF_BIAS_NONE) {
    p.bias.dtype = s->c_dtype;
    p.bias.elements = s->offset + (s->bias_axis == OCF_BIAS_N ? p.n : p.m);
  }
  operand *ops[] = {&p.a, &p.b, &p.c, &p.bias};
  int rc = 0;
  for (int i = 0; i < 4 && rc == 0; i++) {
    if (!ops[i]->elements) continue;
    cl_int e = CL_SUCCESS;
    ops[i]->mem = clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE,
                                 ops[i]->elements * ocf_dtype_size(ops[i]->dtype), NULL, &e);
    if (e != CL_SUCCESS) {
      snprintf(err, errlen, "clCreateBuffer: %s", ocf_status_name((ocf_status)e));
      rc = TOOL_FAILED;
    }
  }
  if (rc == 0) {
    p.launch = *launch;
    rc = matmul_enqueue(&p, launch->event, err, errlen);
  }
  for (int i = 0; i < 4; i++) /* released now, freed by OpenCL when the call is done with them */
    if (ops[i]->mem) clReleaseMemObject(ops[i]->mem);
  return rc;
}
