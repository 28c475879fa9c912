/*
 * add: liboclfuse (AUTO) against the one-element-per-work-item baseline, in GB/s of the ideal
 * traffic 3 x 4n bytes and in % of the measured copy bandwidth.
 *
 * One set of buffers, sized for the largest n, serves every n (each call uses the prefix).
 * Outputs up to 2^22 elements are checked in full; above that, against sampled blocks (the
 * first and last 4096 elements, where the vector tail lives, and 64 random blocks of 1024),
 * since reading back and checking a gigabyte per variant would cost more than the timing.
 */
#include "tool.h"

#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define ADD_FULL_CHECK ((size_t)1 << 22)
#define ADD_EDGE 4096
#define ADD_BLOCKS 64
#define ADD_BLOCK 1024

typedef struct add_problem {
  ocf_context *ctx;
  size_t capacity, n, offset; /* offset: elements before each operand (the spec's) */
  float *hx, *hy, *got;
  double *want;
  cl_mem x, y, out;
  ocf_launch launch;
  uint64_t rng; /* ocft_rng_next state: sampled places */
} add_problem;

static void add_teardown(add_problem *p) {
  if (p->out) clReleaseMemObject(p->out);
  if (p->y) clReleaseMemObject(p->y);
  if (p->x) clReleaseMemObject(p->x);
  free(p->hx);
  free(p->hy);
  free(p->got);
  free(p->want);
  memset(p, 0, sizeof *p);
}

/* 0, or -1 when the host or device memory is not there (printed). */
static int add_setup(tool_bench_env *env, size_t capacity, add_problem *p) {
  memset(p, 0, sizeof *p);
  p->ctx = env->ctx;
  p->capacity = capacity;
  p->rng = 0xADD;
  size_t scratch = capacity < ADD_FULL_CHECK ? capacity : ADD_FULL_CHECK;
  p->hx = tool_alloc_floats(capacity);
  p->hy = tool_alloc_floats(capacity);
  p->got = tool_alloc_floats(scratch);
  p->want = tool_alloc_doubles(scratch);
  if (!p->hx || !p->hy || !p->got || !p->want) {
    add_teardown(p);
    return -1;
  }
  ocft_fill_uniform(p->hx, capacity, -1.0f, 1.0f, 1);
  ocft_fill_uniform(p->hy, capacity, -1.0f, 1.0f, 2);
  p->x = tool_buffer(env->ctx, capacity, p->hx);
  p->y = p->x ? tool_buffer(env->ctx, capacity, p->hy) : NULL;
  p->out = p->y ? tool_buffer(env->ctx, capacity, NULL) : NULL;
  if (!p->out) {
    add_teardown(p);
    return -1;
  }
  return 0;
}

static int add_enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  add_problem *p = state;
  ocf_launch launch = p->launch;
  launch.event = event;
  ocf_status status =
      ocf_add(p->ctx, p->n, p->x, p->offset, p->y, p->offset, p->out, p->offset, &launch);
  return status == OCF_SUCCESS ? 0 : tool_library_failure(status, "ocf_add", err, errlen);
}

/* Checks out[first, first + count) against the reference (exact); adds to *total. */
static int add_check_range(add_problem *p, size_t first, size_t count, ocft_check *total, char *err,
                           size_t errlen) {
  const size_t at = p->offset + first;
  cl_int e = clEnqueueReadBuffer(ocf_context_queue(p->ctx), p->out, CL_TRUE, at * sizeof(float),
                                 count * sizeof(float), p->got, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clEnqueueReadBuffer: %s", ocf_status_name((ocf_status)e));
    return -1;
  }
  ocf_ref_add(count, p->hx + at, p->hy + at, p->want);
  ocft_check part;
  ocft_check_start(&part);
  ocft_check_elements(p->got, p->want, NULL, count, &part);
  ocft_check_merge(total, &part, first);
  return 0;
}

/* The whole output, or its two ends and random blocks. */
static int add_check(add_problem *p, ocft_check *check, char *err, size_t errlen) {
  if (p->n <= ADD_FULL_CHECK) return add_check_range(p, 0, p->n, check, err, errlen);
  if (add_check_range(p, 0, ADD_EDGE, check, err, errlen) ||
      add_check_range(p, p->n - ADD_EDGE, ADD_EDGE, check, err, errlen))
    return -1;
  for (int b = 0; b < ADD_BLOCKS; b++) {
    size_t first = (size_t)(ocft_rng_next(&p->rng) % (p->n - ADD_BLOCK));
    if (add_check_range(p, first, ADD_BLOCK, check, err, errlen)) return -1;
  }
  return 0;
}

static int add_verify(void *state, tool_verdict *v, char *err, size_t errlen) {
  ocft_check check;
  ocft_check_start(&check);
  int rc = add_check(state, &check, err, errlen);
  tool_verdict_set(v, &check);
  return rc;
}

static void add_checked_text(const add_problem *p, tool_row *row) {
  if (p->n <= ADD_FULL_CHECK)
    snprintf(row->checked, sizeof row->checked, "all %zu outputs", p->n);
  else
    snprintf(row->checked, sizeof row->checked, "sampled %d of %zu outputs",
             2 * ADD_EDGE + ADD_BLOCKS * ADD_BLOCK, p->n);
}

static tool_row *add_row(tool_bench_env *env, const tool_spec *s, const char *variant, size_t wg) {
  char shape[96];
  tool_spec_text(s, shape, sizeof shape);
  size_t n = s->d[0];
  tool_row *row = tool_results_add(env->results, "add", shape, variant);
  if (!row) return NULL;
  row->dims[0] = n;
  row->ndims = 1;
  row->unit = "GB/s";
  row->work = 3.0 * 4.0 * (double)n;
  row->workgroup_size = wg;
  return row;
}

static void add_measure(tool_bench_env *env, add_problem *p, const tool_spec *s,
                        ocf_variant variant, size_t wg, tool_row *row) {
  size_t n = s->d[0];
  p->n = n;
  p->offset = s->offset;
  ocf_launch_init(&p->launch);
  p->launch.variant = variant;
  p->launch.workgroup_size = wg;
  add_checked_text(p, row);
  if (tool_poison(env->ctx, p->out, p->offset + n)) {
    row->status = ROW_FAILED;
    tool_row_note(row, "could not reset the output buffer");
    return;
  }
  if (wg)
    tool_progress(env->timer, "add %s %s wg=%zu", row->shape, row->variant, wg);
  else
    tool_progress(env->timer, "add %s %s", row->shape, row->variant);
  tool_measure(env->timer, add_enqueue, add_verify, p, env->repeats, row);
}

/* Whether n floats x 3 buffers fit the device; writes the reason when not. */
static int add_fits(const tool_bench_env *env, size_t n, char *why, size_t whylen) {
  double bytes = 4.0 * (double)n;
  if (env->max_alloc && bytes > (double)env->max_alloc) {
    snprintf(why, whylen, "%.0f MiB per buffer exceeds the device's max allocation (%.0f MiB)",
             bytes / 1048576.0, (double)env->max_alloc / 1048576.0);
    return 0;
  }
  if (3.0 * bytes > 0.8 * (double)env->info.global_mem_bytes) {
    snprintf(why, whylen, "3 buffers of %.0f MiB exceed 80%% of the device memory",
             bytes / 1048576.0);
    return 0;
  }
  return 1;
}

int tool_bench_add(tool_bench_env *env, const tool_spec *specs, size_t count) {
  static const tool_variant variants[] = {{"oclfuse", OCF_VARIANT_AUTO},
                                          {"baseline", OCF_VARIANT_BASELINE}};
  size_t capacity = 0;
  char why[160];
  for (size_t i = 0; i < count; i++) {
    size_t need = specs[i].d[0] + specs[i].offset;
    if (add_fits(env, need, why, sizeof why) && need > capacity) capacity = need;
  }
  add_problem p;
  int ready = capacity > 0 && add_setup(env, capacity, &p) == 0;
  for (size_t i = 0; i < count; i++) {
    for (size_t v = 0; v < (env->library_only ? 1 : sizeof variants / sizeof variants[0]); v++) {
      tool_row *row = tool_stop_requested() ? NULL : add_row(env, &specs[i], variants[v].name, 0);
      if (!row) {
        if (ready) add_teardown(&p);
        return -1;
      }
      if (!add_fits(env, specs[i].d[0] + specs[i].offset, why, sizeof why)) {
        row->status = ROW_SKIPPED;
        tool_row_note(row, "%s", why);
      } else if (!ready) {
        row->status = ROW_FAILED;
        tool_row_note(row, "could not allocate the buffers (see stderr)");
      } else {
        add_measure(env, &p, &specs[i], variants[v].variant, 0, row);
      }
    }
  }
  if (ready) add_teardown(&p);
  return 0;
}

int tool_sweep_add(tool_bench_env *env, size_t n, const size_t *wgs, size_t count) {
  add_problem p;
  tool_spec s;
  tool_spec_init(&s, TOOL_OP_ADD);
  s.d[0] = n;
  s.ndims = 1;
  int ready = add_setup(env, n, &p) == 0;
  for (size_t i = 0; i < count; i++) {
    tool_row *row = add_row(env, &s, "oclfuse", wgs[i]);
    if (!row) {
      if (ready) add_teardown(&p);
      return -1;
    }
    row->sweep = 1;
    if (!ready) {
      row->status = ROW_FAILED;
      tool_row_note(row, "could not allocate the buffers (see stderr)");
    } else {
      add_measure(env, &p, &s, OCF_VARIANT_AUTO, wgs[i], row);
    }
  }
  if (ready) add_teardown(&p);
  return 0;
}

int tool_add_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch, char *err,
                          size_t errlen) {
  add_problem p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.n = s->d[0];
  p.offset = s->offset;
  cl_mem *mems[] = {&p.x, &p.y, &p.out};
  cl_int e = CL_SUCCESS;
  for (int i = 0; i < 3 && e == CL_SUCCESS; i++)
    *mems[i] = clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE,
                              (p.offset + p.n) * sizeof(float), NULL, &e);
  int rc = TOOL_FAILED;
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clCreateBuffer: %s", ocf_status_name((ocf_status)e));
  } else {
    p.launch = *launch;
    rc = add_enqueue(&p, launch->event, err, errlen);
  }
  for (int i = 0; i < 3; i++)
    if (*mems[i]) clReleaseMemObject(*mems[i]);
  return rc;
}
