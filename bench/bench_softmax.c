/*
 * softmax: the fused kernel (AUTO) against the unfused three-kernel baseline (max, exp-and-sum,
 * divide), in effective GB/s of the ideal traffic rows x cols x (input + output element size)
 * bytes (read once, write once) and as a speed-up. The call is the spec's (tool_spec: storage
 * types, log-softmax, scale, row lengths, the causal band, padded rows, offsets), through
 * ocf_softmax_ex; the plain call is judged by the harness's row-factor model (harness/tolerance.h),
 * any other by the options model (harness/reference_softmax.h), over each row's kept length (the
 * lengths and the band, as ocf_ref_kept_lengths gives it). The ideal traffic counts every column,
 * kept or not.
 *
 * Matrices up to 2^22 elements are checked in full; larger ones on 8 rows (the first, the last
 * and 6 random ones), because the double-precision CPU reference of a 4096 x 4096 or
 * 1024 x 65536 matrix, per variant, would take longer than timing it.
 */
#include "tool.h"

#include "reference.h"
#include "reference_softmax.h"

#include <stdlib.h>
#include <string.h>

#define SOFTMAX_FULL_CHECK ((size_t)1 << 22)
#define SOFTMAX_SAMPLE_ROWS 8

typedef struct softmax_problem {
  ocf_context *ctx;
  const ocf_device_info *info; /* for the error model: the device's workgroup limits */
  tool_spec spec;
  size_t rows, cols, ld, in_elements, out_elements;
  float *hin; /* the input as stored (rounded to its type), from element 0 of the buffer */
  float *got; /* the rows compared, dense */
  double *want, *tol, *lse;
  uint32_t *lengths;  /* NULL: full rows */
  uint32_t *kept;     /* the reference's lengths: the band and the lengths; NULL: full rows */
  unsigned char *raw; /* a row (or the whole output) as read back */
  int want_ready;     /* full check: the reference is computed once per shape */
  cl_mem in, out, lengths_mem;
  ocf_launch launch;
  uint64_t rng; /* ocft_rng_next state: sampled places */
} softmax_problem;

/* The band's rows per head: plain `causal` is one head of every row. */
static size_t causal_period(const tool_spec *s) {
  return s->causal_period ? s->causal_period : s->d[0];
}

static int softmax_full(const softmax_problem *p) {
  return p->rows * p->cols <= SOFTMAX_FULL_CHECK;
}

static void softmax_teardown(softmax_problem *p) {
  if (p->lengths_mem) clReleaseMemObject(p->lengths_mem);
  if (p->out) clReleaseMemObject(p->out);
  if (p->in) clReleaseMemObject(p->in);
  free(p->hin);
  free(p->got);
  free(p->want);
  free(p->tol);
  free(p->lse);
  free(p->lengths);
  free(p->kept);
  free(p->raw);
  memset(p, 0, sizeof *p);
}

static int softmax_setup(tool_bench_env *env, const tool_spec *s, softmax_problem *p) {
  memset(p, 0, sizeof *p);
  p->ctx = env->ctx;
  p->info = &env->info;
  p->spec = *s;
  p->rows = s->d[0];
  p->cols = s->d[1];
  p->ld = p->cols + s->pad;
  p->in_elements = s->offset + (p->rows - 1) * p->ld + p->cols;
  p->out_elements = p->in_elements;
  p->rng = 0x50F7 + p->rows * 31 + p->cols;
  size_t scratch = softmax_full(p) ? p->rows * p->cols : p->cols;
  size_t raw_bytes = (softmax_full(p) ? p->out_elements : p->cols) * ocf_dtype_size(s->out_dtype);
  p->hin = tool_alloc_floats(p->in_elements);
  p->got = tool_alloc_floats(scratch);
  p->want = tool_alloc_doubles(scratch);
  p->tol = tool_alloc_doubles(scratch);
  p->lse = tool_alloc_doubles(softmax_full(p) ? p->rows : 1);
  p->raw = tool_alloc_bytes(raw_bytes);
  if (!p->hin || !p->got || !p->want || !p->tol || !p->lse || !p->raw) {
    softmax_teardown(p);
    return -1;
  }
  /* Inputs in [-4, 4): exp spans e^-8..1 after the max is subtracted, as real logits do. */
  ocft_fill_uniform(p->hin, p->in_elements, -4.0f, 4.0f, 3 + p->rows);
  tool_round_to(s->in_dtype, p->hin, p->in_elements);
  if (s->lengths) {
    p->lengths = malloc(p->rows * sizeof *p->lengths);
    if (!p->lengths) {
      tool_error("out of host memory");
      softmax_teardown(p);
      return -1;
    }
    uint64_t rng = 0x1E7 + p->rows;
    for (size_t r = 0; r < p->rows; r++)
      p->lengths[r] =
          s->lengths == 2 ? (uint32_t)s->length : (uint32_t)(ocft_rng_next(&rng) % (p->cols + 1));
    p->lengths_mem = tool_buffer_bytes(env->ctx, p->rows * sizeof(cl_uint), p->lengths);
    if (!p->lengths_mem) {
      softmax_teardown(p);
      return -1;
    }
  }
  if (s->lengths || s->causal) {
    p->kept = malloc(p->rows * sizeof *p->kept);
    if (!p->kept) {
      tool_error("out of host memory");
      softmax_teardown(p);
      return -1;
    }
    ocf_ref_kept_lengths(p->rows, p->cols, p->lengths, s->causal, causal_period(s),
                         s->causal_offset, p->kept);
  }
  size_t in_bytes = p->in_elements * ocf_dtype_size(s->in_dtype);
  void *raw = tool_alloc_bytes(in_bytes);
  if (!raw) {
    softmax_teardown(p);
    return -1;
  }
  tool_encode(s->in_dtype, p->hin, p->in_elements, raw);
  p->in = tool_buffer_bytes(env->ctx, in_bytes, raw);
  free(raw);
  p->out = p->in ? tool_buffer_bytes(env->ctx, p->out_elements * ocf_dtype_size(s->out_dtype), NULL)
                 : NULL;
  if (!p->out) {
    softmax_teardown(p);
    return -1;
  }
  return 0;
}

static int softmax_enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  softmax_problem *p = state;
  const tool_spec *s = &p->spec;
  ocf_launch launch = p->launch;
  launch.event = event;
  ocf_softmax_options options = OCF_SOFTMAX_OPTIONS_INIT;
  options.in_dtype = s->in_dtype;
  options.out_dtype = s->out_dtype;
  options.scale = s->scale;
  options.log = s->log;
  options.lengths = p->lengths_mem;
  if (s->causal) {
    options.causal = 1;
    options.causal_period = causal_period(s);
    options.causal_offset = s->causal_offset;
  }
  ocf_status status = ocf_softmax_ex(p->ctx, p->rows, p->cols, p->in, s->offset, p->ld, p->out,
                                     s->offset, p->ld, &options, &launch);
  return status == OCF_SUCCESS ? 0 : tool_library_failure(status, "ocf_softmax_ex", err, errlen);
}

/* Reads rows [first, first + count) of out into got (dense floats). */
static int read_rows(softmax_problem *p, size_t first, size_t count, char *err, size_t errlen) {
  const tool_spec *s = &p->spec;
  size_t size = ocf_dtype_size(s->out_dtype);
  size_t start = s->offset + first * p->ld, elements = (count - 1) * p->ld + p->cols;
  cl_int e = clEnqueueReadBuffer(ocf_context_queue(p->ctx), p->out, CL_TRUE, start * size,
                                 elements * size, p->raw, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clEnqueueReadBuffer: %s", ocf_status_name((ocf_status)e));
    return -1;
  }
  for (size_t r = 0; r < count; r++)
    for (size_t c = 0; c < p->cols; c++)
      p->got[r * p->cols + c] = tool_decode(s->out_dtype, p->raw, r * p->ld + c);
  return 0;
}

/* The model's fewest work-items on a row: the launch's, else the default's floor. */
static size_t row_items(const softmax_problem *p) {
  size_t w = p->launch.workgroup_size ? p->launch.workgroup_size : OCFT_SOFTMAX_DEFAULT_WORKGROUP;
  return w < p->info->max_workgroup_size ? w : p->info->max_workgroup_size;
}

/* Rows [first, first + count) against the reference, into *check (indices of the whole). */
static void softmax_compare(softmax_problem *p, size_t first, size_t count, ocft_check *check) {
  const tool_spec *s = &p->spec;
  const float *x = p->hin + s->offset + first * p->ld;
  const size_t wg = p->launch.workgroup_size;
  ocft_check part;
  ocft_check_start(&part);
  if (tool_spec_plain(s)) {
    if (!p->want_ready || count != p->rows) ocf_ref_softmax(count, p->cols, x, p->ld, p->want);
    ocft_check_softmax(count, p->cols, x, p->ld, p->want, p->got, p->cols, wg, p->info, &part);
  } else {
    const uint32_t *lengths = p->kept ? p->kept + first : NULL;
    if (!p->want_ready || count != p->rows) {
      ocf_ref_softmax_ex(count, p->cols, x, p->ld, s->scale, s->log, lengths, p->want, p->lse);
      ocf_ref_softmax_ex_tolerance(
          count, p->cols, x, p->ld, s->scale, s->log, lengths, p->want, p->lse, (int)s->out_dtype,
          p->launch.variant == OCF_VARIANT_BASELINE && !s->log, row_items(p), p->tol);
    }
    ocft_check_elements(p->got, p->want, p->tol, count * p->cols, &part);
  }
  ocft_check_merge(check, &part, first * p->cols);
}

/* The whole output, or its first, last and random rows, against the harness's model. */
static int softmax_check(softmax_problem *p, ocft_check *check, char *err, size_t errlen) {
  if (softmax_full(p)) {
    if (read_rows(p, 0, p->rows, err, errlen)) return -1;
    softmax_compare(p, 0, p->rows, check);
    /* The tolerances depend on the variant (the baseline's stored exp): recomputed per row set. */
    p->want_ready = tool_spec_plain(&p->spec);
    return 0;
  }
  for (int i = 0; i < SOFTMAX_SAMPLE_ROWS; i++) {
    size_t r = i == 0 ? 0 : i == 1 ? p->rows - 1 : (size_t)(ocft_rng_next(&p->rng) % p->rows);
    if (read_rows(p, r, 1, err, errlen)) return -1;
    softmax_compare(p, r, 1, check);
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

static tool_row *softmax_row(tool_bench_env *env, const tool_spec *s, const char *variant,
                             size_t wg) {
  char shape[96];
  tool_spec_text(s, shape, sizeof shape);
  tool_row *row = tool_results_add(env->results, "softmax", shape, variant);
  if (!row) return NULL;
  row->dims[0] = s->d[0];
  row->dims[1] = s->d[1];
  row->ndims = 2;
  row->unit = "GB/s";
  /* Read once, write once, in the storage types (the lengths, 4 bytes a row, not counted). */
  row->work = (double)(ocf_dtype_size(s->in_dtype) + ocf_dtype_size(s->out_dtype)) *
              (double)s->d[0] * (double)s->d[1];
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
  if (tool_poison_dtype(env->ctx, p->out, p->out_elements, p->spec.out_dtype)) {
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

static int softmax_fits(const tool_bench_env *env, const tool_spec *s, char *why, size_t whylen) {
  double bytes = 4.0 * ((double)s->offset + (double)s->d[0] * (double)(s->d[1] + s->pad));
  if ((env->max_alloc && bytes > (double)env->max_alloc) ||
      2.0 * bytes > 0.8 * (double)env->info.global_mem_bytes) {
    snprintf(why, whylen, "%.0f MiB per matrix does not fit the device's allocation limits",
             bytes / 1048576.0);
    return 0;
  }
  return 1;
}

/* Runs the rows of one call: either the variants, or one variant over workgroup sizes. */
static int softmax_shape(tool_bench_env *env, const tool_spec *s, const size_t *wgs,
                         size_t wg_count) {
  static const tool_variant variants[] = {{"oclfuse", OCF_VARIANT_AUTO},
                                          {"baseline", OCF_VARIANT_BASELINE}};
  char why[160] = "";
  softmax_problem p;
  int fits = softmax_fits(env, s, why, sizeof why);
  int ready = fits && softmax_setup(env, s, &p) == 0;
  size_t count = wgs ? wg_count : env->library_only ? 1 : sizeof variants / sizeof variants[0];
  for (size_t i = 0; i < count; i++) {
    tool_row *row =
        wgs ? softmax_row(env, s, "oclfuse", wgs[i]) : softmax_row(env, s, variants[i].name, 0);
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

int tool_bench_softmax(tool_bench_env *env, const tool_spec *specs, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (tool_stop_requested() || softmax_shape(env, &specs[i], NULL, 0)) return -1;
  return 0;
}

int tool_sweep_softmax(tool_bench_env *env, size_t rows, size_t cols, const size_t *wgs,
                       size_t count) {
  tool_spec s;
  tool_spec_init(&s, TOOL_OP_SOFTMAX);
  s.d[0] = rows;
  s.d[1] = cols;
  s.ndims = 2;
  return softmax_shape(env, &s, wgs, count);
}

int tool_softmax_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch,
                              char *err, size_t errlen) {
  if (s->lengths) {
    /* The call reads the lengths (after the launch's wait list) to check them. */
    snprintf(err, errlen, "a call with row lengths is not prepared ahead");
    return TOOL_FAILED;
  }
  softmax_problem p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.spec = *s;
  p.rows = s->d[0];
  p.cols = s->d[1];
  p.ld = p.cols + s->pad;
  p.in_elements = p.out_elements = s->offset + (p.rows - 1) * p.ld + p.cols;
  cl_int e = CL_SUCCESS;
  p.in = clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE,
                        p.in_elements * ocf_dtype_size(s->in_dtype), NULL, &e);
  if (e == CL_SUCCESS)
    p.out = clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE,
                           p.out_elements * ocf_dtype_size(s->out_dtype), NULL, &e);
  int rc = TOOL_FAILED;
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clCreateBuffer: %s", ocf_status_name((ocf_status)e));
  } else {
    p.launch = *launch;
    rc = softmax_enqueue(&p, launch->event, err, errlen);
  }
  if (p.out) clReleaseMemObject(p.out);
  if (p.in) clReleaseMemObject(p.in);
  return rc;
}
