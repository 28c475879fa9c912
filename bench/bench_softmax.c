/*
 * softmax: the fused kernel (AUTO) against the unfused three-kernel baseline (max, exp-and-sum,
 * divide), in effective GB/s of the ideal traffic 2 x 4 x rows x cols bytes (read once, write
 * once) and as a speed-up.
 *
 * Matrices up to 2^22 elements are checked in full; larger ones on 8 rows (the first, the last
 * and 6 random ones), because the double-precision CPU reference of a 4096 x 4096 or
 * 1024 x 65536 matrix, per variant, would take longer than timing it.
 */
#include "tool.h"

#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define SOFTMAX_FULL_CHECK ((size_t)1 << 22)
#define SOFTMAX_SAMPLE_ROWS 8

typedef struct softmax_problem {
  ocf_context *ctx;
  const ocf_device_info *info; /* for the error model: the device's workgroup limits */
  size_t rows, cols;
  float *hin, *got;
  double *want;
  int want_ready; /* full check: the reference is computed once per shape */
  cl_mem in, out;
  ocf_launch launch;
  uint64_t rng; /* ocft_rng_next state: sampled places */
} softmax_problem;

static int softmax_full(const softmax_problem *p) {
  return p->rows * p->cols <= SOFTMAX_FULL_CHECK;
}

static void softmax_teardown(softmax_problem *p) {
  if (p->out) clReleaseMemObject(p->out);
  if (p->in) clReleaseMemObject(p->in);
  free(p->hin);
  free(p->got);
  free(p->want);
  memset(p, 0, sizeof *p);
}

static int softmax_setup(tool_bench_env *env, size_t rows, size_t cols, softmax_problem *p) {
  memset(p, 0, sizeof *p);
  p->ctx = env->ctx;
  p->info = &env->info;
  p->rows = rows;
  p->cols = cols;
  p->rng = 0x50F7 + rows * 31 + cols;
  size_t scratch = softmax_full(p) ? rows * cols : cols;
  p->hin = tool_alloc_floats(rows * cols);
  p->got = tool_alloc_floats(scratch);
  p->want = tool_alloc_doubles(scratch);
  if (!p->hin || !p->got || !p->want) {
    softmax_teardown(p);
    return -1;
  }
  /* Inputs in [-4, 4): exp spans e^-8..1 after the max is subtracted, as real logits do. */
  ocft_fill_uniform(p->hin, rows * cols, -4.0f, 4.0f, 3 + rows);
  p->in = tool_buffer(env->ctx, rows * cols, p->hin);
  p->out = p->in ? tool_buffer(env->ctx, rows * cols, NULL) : NULL;
  if (!p->out) {
    softmax_teardown(p);
    return -1;
  }
  return 0;
}

static int softmax_enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  softmax_problem *p = state;
  ocf_launch launch = p->launch;
  launch.event = event;
  ocf_status status =
      ocf_softmax(p->ctx, p->rows, p->cols, p->in, 0, p->cols, p->out, 0, p->cols, &launch);
  return status == OCF_SUCCESS ? 0 : tool_library_failure(status, "ocf_softmax", err, errlen);
}

static int read_floats(softmax_problem *p, size_t first, size_t count, char *err, size_t errlen) {
  cl_int e = clEnqueueReadBuffer(ocf_context_queue(p->ctx), p->out, CL_TRUE, first * sizeof(float),
                                 count * sizeof(float), p->got, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clEnqueueReadBuffer: %s", ocf_status_name((ocf_status)e));
    return -1;
  }
  return 0;
}

/* The whole output, or its first, last and random rows, against the harness's model. */
static int softmax_check(softmax_problem *p, ocft_check *check, char *err, size_t errlen) {
  const size_t wg = p->launch.workgroup_size;
  if (softmax_full(p)) {
    if (read_floats(p, 0, p->rows * p->cols, err, errlen)) return -1;
    if (!p->want_ready) ocf_ref_softmax(p->rows, p->cols, p->hin, p->cols, p->want);
    p->want_ready = 1;
    ocft_check_softmax(p->rows, p->cols, p->hin, p->cols, p->want, p->got, p->cols, wg, p->info,
                       check);
    return 0;
  }
  for (int i = 0; i < SOFTMAX_SAMPLE_ROWS; i++) {
    size_t r = i == 0 ? 0 : i == 1 ? p->rows - 1 : (size_t)(ocft_rng_next(&p->rng) % p->rows);
    if (read_floats(p, r * p->cols, p->cols, err, errlen)) return -1;
    const float *row = p->hin + r * p->cols;
    ocf_ref_softmax(1, p->cols, row, p->cols, p->want);
    ocft_check part;
    ocft_check_start(&part);
    ocft_check_softmax(1, p->cols, row, p->cols, p->want, p->got, p->cols, wg, p->info, &part);
    ocft_check_merge(check, &part, r * p->cols);
  }
  return 0;
}

static int softmax_verify(void *state, tool_verdict *v, char *err, size_t errlen) {
  ocft_check check;
  ocft_check_start(&check);
  int rc = softmax_check(state, &check, err, errlen);
  tool_verdict_set(v, &check);
  return rc;
}

static tool_row *softmax_row(tool_bench_env *env, size_t rows, size_t cols, const char *variant,
                             size_t wg) {
  char shape[48];
  snprintf(shape, sizeof shape, "%zux%zu", rows, cols);
  tool_row *row = tool_results_add(env->results, "softmax", shape, variant);
  if (!row) return NULL;
  row->dims[0] = rows;
  row->dims[1] = cols;
  row->ndims = 2;
  row->unit = "GB/s";
  row->work = 2.0 * 4.0 * (double)rows * (double)cols;
  row->workgroup_size = wg;
  return row;
}

static void softmax_measure(tool_bench_env *env, softmax_problem *p, ocf_variant variant, size_t wg,
                            tool_row *row) {
  ocf_launch_init(&p->launch);
  p->launch.variant = variant;
  p->launch.workgroup_size = wg;
  if (softmax_full(p))
    snprintf(row->checked, sizeof row->checked, "all %zu rows", p->rows);
  else
    snprintf(row->checked, sizeof row->checked, "%d sampled rows of %zu", SOFTMAX_SAMPLE_ROWS,
             p->rows);
  if (tool_poison(env->ctx, p->out, p->rows * p->cols)) {
    row->status = ROW_FAILED;
    tool_row_note(row, "could not reset the output buffer");
    return;
  }
  if (wg)
    tool_progress(env->timer, "softmax %s %s wg=%zu", row->shape, row->variant, wg);
  else
    tool_progress(env->timer, "softmax %s %s", row->shape, row->variant);
  tool_measure(env->timer, softmax_enqueue, softmax_verify, p, env->repeats, row);
}

static int softmax_fits(const tool_bench_env *env, size_t rows, size_t cols, char *why,
                        size_t whylen) {
  double bytes = 4.0 * (double)rows * (double)cols;
  if ((env->max_alloc && bytes > (double)env->max_alloc) ||
      2.0 * bytes > 0.8 * (double)env->info.global_mem_bytes) {
    snprintf(why, whylen, "%.0f MiB per matrix does not fit the device's allocation limits",
             bytes / 1048576.0);
    return 0;
  }
  return 1;
}

/* Runs the rows of one shape: either the variants, or one variant over workgroup sizes. */
static int softmax_shape(tool_bench_env *env, size_t rows, size_t cols, const size_t *wgs,
                         size_t wg_count) {
  static const tool_variant variants[] = {{"oclfuse", OCF_VARIANT_AUTO},
                                          {"baseline", OCF_VARIANT_BASELINE}};
  char why[160] = "";
  softmax_problem p;
  int fits = softmax_fits(env, rows, cols, why, sizeof why);
  int ready = fits && softmax_setup(env, rows, cols, &p) == 0;
  size_t count = wgs ? wg_count : env->library_only ? 1 : sizeof variants / sizeof variants[0];
  for (size_t i = 0; i < count; i++) {
    tool_row *row = wgs ? softmax_row(env, rows, cols, "oclfuse", wgs[i])
                        : softmax_row(env, rows, cols, variants[i].name, 0);
    if (!row) {
      if (ready) softmax_teardown(&p);
      return -1;
    }
    row->sweep = wgs != NULL;
    if (!fits) {
      row->status = ROW_SKIPPED;
      tool_row_note(row, "%s", why);
    } else if (!ready) {
      row->status = ROW_FAILED;
      tool_row_note(row, "could not allocate the buffers (see stderr)");
    } else {
      softmax_measure(env, &p, wgs ? OCF_VARIANT_AUTO : variants[i].variant, wgs ? wgs[i] : 0, row);
    }
  }
  if (ready) softmax_teardown(&p);
  return 0;
}

int tool_bench_softmax(tool_bench_env *env, const tool_shape *shapes, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (softmax_shape(env, shapes[i].d[0], shapes[i].d[1], NULL, 0)) return -1;
  return 0;
}

int tool_sweep_softmax(tool_bench_env *env, size_t rows, size_t cols, const size_t *wgs,
                       size_t count) {
  return softmax_shape(env, rows, cols, wgs, count);
}
