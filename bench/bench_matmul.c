/*
 * matmul: liboclfuse (AUTO) against the naive one-output-per-work-item kernel (BASELINE),
 * CLBlastSgemm (row-major) and, on NVIDIA, CLBlast with H200-tuned Xgemm parameters; in GFLOP/s
 * of 2mnk and in % of the measured FMA peak. C = A B with alpha 1, beta 0, dense row-major.
 *
 * The naive kernel is skipped above N = 4096 on a GPU: at 8192 it would take ~8 s a call, longer
 * than the whole default run may.
 *
 * Outputs are checked in full while m n k <= 2^24; above that, on 256 random outputs plus the
 * four corners, since the double-precision reference costs m n k multiply-adds on the host
 * (8192^3 would take minutes). The sampled outputs are fixed per shape and their references
 * computed once.
 */
#include "tool.h"

#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define MATMUL_FULL_CHECK ((size_t)1 << 24)
#define MATMUL_SAMPLES 260 /* 4 corners + 256 random */
#define NAIVE_MAX_GPU 4096

typedef struct matmul_problem {
  ocf_context *ctx;
  size_t m, n, k;
  float *ha, *hb, *got;
  double *want, *tol;
  size_t *samples; /* sampled output indices (i * n + j); NULL for a full check */
  size_t checked;  /* outputs compared */
  int want_ready;
  cl_mem a, b, c;
  ocf_launch launch;
  int use_clblast;
} matmul_problem;

static int matmul_full(size_t m, size_t n, size_t k) {
  return (double)m * (double)n * (double)k <= (double)MATMUL_FULL_CHECK;
}

static void matmul_teardown(matmul_problem *p) {
  if (p->c) clReleaseMemObject(p->c);
  if (p->b) clReleaseMemObject(p->b);
  if (p->a) clReleaseMemObject(p->a);
  free(p->ha);
  free(p->hb);
  free(p->got);
  free(p->want);
  free(p->tol);
  free(p->samples);
  memset(p, 0, sizeof *p);
}

static int matmul_setup(tool_bench_env *env, size_t m, size_t n, size_t k, matmul_problem *p) {
  memset(p, 0, sizeof *p);
  p->ctx = env->ctx;
  p->m = m;
  p->n = n;
  p->k = k;
  int full = matmul_full(m, n, k);
  p->checked = full ? m * n : MATMUL_SAMPLES;
  p->ha = tool_alloc_floats(m * k);
  p->hb = tool_alloc_floats(k * n);
  p->got = tool_alloc_floats(p->checked);
  p->want = tool_alloc_doubles(p->checked);
  p->tol = tool_alloc_doubles(p->checked);
  if (!full) p->samples = malloc(MATMUL_SAMPLES * sizeof *p->samples);
  if (!p->ha || !p->hb || !p->got || !p->want || !p->tol || (!full && !p->samples)) {
    if (!full && !p->samples) tool_error("out of host memory");
    matmul_teardown(p);
    return -1;
  }
  ocft_fill_uniform(p->ha, m * k, -1.0f, 1.0f, 5 + m);
  ocft_fill_uniform(p->hb, k * n, -1.0f, 1.0f, 7 + n);
  if (!full) {
    uint64_t rng = 0x3A7 + m * 131 + n * 17 + k;
    size_t corners[4] = {0, n - 1, (m - 1) * n, m * n - 1};
    for (size_t s = 0; s < MATMUL_SAMPLES; s++)
      p->samples[s] = s < 4 ? corners[s] : (size_t)(ocft_rng_next(&rng) % (m * n));
  }
  p->a = tool_buffer(env->ctx, m * k, p->ha);
  p->b = p->a ? tool_buffer(env->ctx, k * n, p->hb) : NULL;
  p->c = p->b ? tool_buffer(env->ctx, m * n, NULL) : NULL;
  if (!p->c) {
    matmul_teardown(p);
    return -1;
  }
  return 0;
}

static int matmul_enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  matmul_problem *p = state;
  if (p->use_clblast)
    return tool_clblast_sgemm(ocf_context_queue(p->ctx), p->m, p->n, p->k, p->a, p->b, p->c, event,
                              err, errlen);
  ocf_launch launch = p->launch;
  launch.event = event;
  ocf_status status = ocf_matmul(p->ctx, OCF_NO_TRANS, OCF_NO_TRANS, p->m, p->n, p->k, 1.0f, p->a,
                                 0, p->k, p->b, 0, p->n, 0.0f, p->c, 0, p->n, &launch);
  return status == OCF_SUCCESS ? 0 : tool_library_failure(status, "ocf_matmul", err, errlen);
}

static void matmul_reference(matmul_problem *p) {
  if (p->want_ready) return;
  if (!p->samples) {
    ocf_ref_matmul(0, 0, p->m, p->n, p->k, 1.0f, p->ha, p->k, p->hb, p->n, 0.0f, NULL, 0, p->want);
    ocft_matmul_tolerance(0, 0, p->m, p->n, p->k, 1.0f, p->ha, p->k, p->hb, p->n, 0.0f, NULL, 0,
                          p->tol);
  } else {
    /* One output is a 1 x 1 x k product of row i of A and column j of B (stride n). */
    for (size_t s = 0; s < MATMUL_SAMPLES; s++) {
      size_t i = p->samples[s] / p->n, j = p->samples[s] % p->n;
      const float *a_row = p->ha + i * p->k, *b_column = p->hb + j;
      ocf_ref_matmul(0, 0, 1, 1, p->k, 1.0f, a_row, p->k, b_column, p->n, 0.0f, NULL, 0,
                     &p->want[s]);
      ocft_matmul_tolerance(0, 0, 1, 1, p->k, 1.0f, a_row, p->k, b_column, p->n, 0.0f, NULL, 0,
                            &p->tol[s]);
    }
  }
  p->want_ready = 1;
}

static int matmul_verify(void *state, tool_verdict *v, char *err, size_t errlen) {
  matmul_problem *p = state;
  cl_command_queue queue = ocf_context_queue(p->ctx);
  cl_int e = CL_SUCCESS;
  if (!p->samples) {
    e = clEnqueueReadBuffer(queue, p->c, CL_TRUE, 0, p->m * p->n * sizeof(float), p->got, 0, NULL,
                            NULL);
  } else {
    for (size_t s = 0; e == CL_SUCCESS && s < MATMUL_SAMPLES; s++)
      e = clEnqueueReadBuffer(queue, p->c, CL_FALSE, p->samples[s] * sizeof(float), sizeof(float),
                              &p->got[s], 0, NULL, NULL);
    cl_int f = clFinish(queue);
    if (e == CL_SUCCESS) e = f;
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

static tool_row *matmul_row(tool_bench_env *env, size_t m, size_t n, size_t k, const char *variant,
                            size_t wg) {
  char shape[48];
  snprintf(shape, sizeof shape, "%zux%zux%zu", m, n, k);
  tool_row *row = tool_results_add(env->results, "matmul", shape, variant);
  if (!row) return NULL;
  row->dims[0] = m;
  row->dims[1] = n;
  row->dims[2] = k;
  row->ndims = 3;
  row->unit = "GFLOP/s";
  row->work = 2.0 * (double)m * (double)n * (double)k;
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
    snprintf(row->checked, sizeof row->checked, "all %zu outputs", p->m * p->n);
  if (tool_poison(env->ctx, p->c, p->m * p->n)) {
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

static int matmul_fits(const tool_bench_env *env, size_t m, size_t n, size_t k, char *why,
                       size_t whylen) {
  double a = 4.0 * (double)m * (double)k, b = 4.0 * (double)k * (double)n;
  double c = 4.0 * (double)m * (double)n;
  double biggest = a > b ? (a > c ? a : c) : (b > c ? b : c);
  if ((env->max_alloc && biggest > (double)env->max_alloc) ||
      a + b + c > 0.8 * (double)env->info.global_mem_bytes) {
    snprintf(why, whylen, "the matrices do not fit the device's allocation limits");
    return 0;
  }
  return 1;
}

/* Why a variant is not run on this shape, or NULL to run it. */
static const char *matmul_skip(const tool_bench_env *env, const tool_shape *s,
                               const char *variant) {
  if (!strcmp(variant, "baseline") && env->gpu &&
      (s->d[0] > NAIVE_MAX_GPU || s->d[1] > NAIVE_MAX_GPU || s->d[2] > NAIVE_MAX_GPU))
    return "the naive kernel is skipped above N=4096 on a GPU (seconds per call)";
  if (!strncmp(variant, "clblast", 7) && !tool_clblast_available()) return "built without CLBlast";
  return NULL;
}

/* Runs `variants` (names) on one shape, or the oclfuse variant over workgroup sizes. */
static int matmul_shape(tool_bench_env *env, const tool_shape *s, const char *const *variants,
                        size_t variant_count, const size_t *wgs, size_t wg_count,
                        const char *failure) {
  char why[160] = "";
  matmul_problem p;
  int fits = matmul_fits(env, s->d[0], s->d[1], s->d[2], why, sizeof why);
  int ready = fits && !failure && matmul_setup(env, s->d[0], s->d[1], s->d[2], &p) == 0;
  size_t count = wgs ? wg_count : env->library_only ? 1 : variant_count;
  for (size_t i = 0; i < count; i++) {
    const char *variant = wgs ? "oclfuse" : variants[i];
    tool_row *row = matmul_row(env, s->d[0], s->d[1], s->d[2], variant, wgs ? wgs[i] : 0);
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

int tool_bench_matmul(tool_bench_env *env, const tool_shape *shapes, size_t count) {
  static const char *const untuned[] = {"oclfuse", "baseline", "clblast"};
  static const char *const tuned[] = {"clblast-tuned"};
  for (size_t i = 0; i < count; i++)
    if (matmul_shape(env, &shapes[i], untuned, 3, NULL, 0, NULL)) return -1;
  if (env->library_only || !tool_clblast_available() || !tool_clblast_tuned_applies(&env->info))
    return 0;
  /* The override is per device and lasts for the process: only now, after every untuned run. */
  char err[256] = "";
  int failed = tool_clblast_apply_tuned(env->info.device, err, sizeof err) != 0;
  for (size_t i = 0; i < count; i++)
    if (matmul_shape(env, &shapes[i], tuned, 1, NULL, 0, failed ? err : NULL)) return -1;
  return 0;
}

int tool_sweep_matmul(tool_bench_env *env, size_t n, const size_t *wgs, size_t count) {
  tool_shape s = {{n, n, n}, 3};
  return matmul_shape(env, &s, NULL, 0, wgs, count, NULL);
}
