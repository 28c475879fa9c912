/*
 * The series of an op the tool has no series of its own for (bench_ops.c): the harness's call
 * of the op (harness/op_cases.h) on each shape, with the options its case declares (storage
 * type, the op's own: "norm:8192x4096:bf16:residual"), variant oclfuse and, where the op's case
 * says its device form has one, the unfused baseline (OCF_VARIANT_BASELINE) beside it (not in
 * a sweep, nor with --library-only), each checked against the op's reference (on the values
 * its storage type holds, with the op's error model for that type) before it is timed: in full,
 * or on sampled rows where the reference would cost the host minutes (ocft_call_make_with).
 * A call with the tool's own options (offset=, pad=: its own series') is skipped with a note.
 * So an op added to the harness's table is measured, swept and checked by `oclfuse bench` and
 * `check` before it has a series of its own.
 */
#include "tool.h"

#include <string.h>

typedef struct generic_problem {
  ocf_context *ctx;
  const ocf_device_info *info;
  ocft_call call;
  ocf_launch launch;
} generic_problem;

static int generic_enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  generic_problem *p = state;
  ocf_launch launch = p->launch;
  launch.event = event;
  ocf_status status = ocft_call_device(&p->call, p->ctx, &launch);
  if (status == OCF_SUCCESS) return 0;
  const int rc = tool_library_failure(status, p->call.op->function, err, errlen);
  return launch.variant == OCF_VARIANT_BASELINE && tool_out_of_device_memory(status) ? TOOL_SKIPPED
                                                                                     : rc;
}

static int generic_verify(void *state, tool_verdict *v, char *err, size_t errlen) {
  generic_problem *p = state;
  cl_int e = ocft_call_read(&p->call, ocf_context_queue(p->ctx), NULL);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clEnqueueReadBuffer: %s", ocf_status_name((ocf_status)e));
    return -1;
  }
  ocft_check check;
  ocft_call_check(&p->call, p->info, &check);
  tool_verdict_set(v, &check);
  return 0;
}

/* One row of the call s at workgroup size wg (0: the library's choice) in variant (AUTO: the
   row "oclfuse", BASELINE: "baseline"); -1 when out of memory. */
static int generic_row(tool_bench_env *env, const tool_spec *s, size_t wg, int sweep,
                       ocf_variant variant) {
  const ocft_op_case *op = tool_op_case(s->op);
  char shape[128];
  tool_spec_text(s, shape, sizeof shape);
  tool_row *row = tool_results_add(env->results, op->name, shape,
                                   variant == OCF_VARIANT_BASELINE ? "baseline" : "oclfuse");
  if (!row) return -1;
  memcpy(row->dims, s->d, sizeof row->dims);
  row->ndims = op->ndims;
  const double traffic = op->traffic ? op->traffic(s->d, &s->opts) : 0.0;
  row->unit = traffic > 0.0 ? "GB/s" : op->unit;
  row->work = traffic > 0.0 ? traffic : op->work(s->d, &s->opts);
  row->workgroup_size = wg;
  row->sweep = sweep;
  if (!tool_spec_case_call(s)) {
    row->status = ROW_SKIPPED;
    tool_row_note(row, "offset= and pad= are the tool's own series' options, not %s's", op->name);
    return 0;
  }
  generic_problem p;
  memset(&p, 0, sizeof p);
  p.ctx = env->ctx;
  p.info = &env->info;
  ocf_launch_init(&p.launch);
  p.launch.workgroup_size = wg;
  p.launch.variant = variant;
  if (ocft_call_make_with(&p.call, op, s->d, &s->opts, 1)) {
    ocft_call_free(&p.call);
    tool_error("out of host memory for %s %s", op->name, shape);
    return -1;
  }
  cl_int e = ocft_call_buffers(&p.call, ocf_context_cl_context(env->ctx));
  if (e != CL_SUCCESS) {
    row->status = ROW_FAILED;
    tool_row_note(row, "clCreateBuffer: %s", ocf_status_name((ocf_status)e));
  } else {
    ocft_call_checked_text(&p.call, row->checked, sizeof row->checked);
    if (wg)
      tool_progress(env->timer, "%s %s %s wg=%zu", op->name, row->shape, row->variant, wg);
    else
      tool_progress(env->timer, "%s %s %s", op->name, row->shape, row->variant);
    tool_measure(env->timer, generic_enqueue, generic_verify, &p, env->repeats, row);
  }
  ocft_call_free(&p.call);
  return 0;
}

size_t tool_generic_rows(const tool_bench_env *env, tool_op op) {
  const ocft_op_case *c = tool_op_case(op);
  return c && c->baseline && !env->library_only ? 2 : 1;
}

int tool_bench_generic(tool_bench_env *env, const tool_spec *specs, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (tool_stop_requested() || generic_row(env, &specs[i], 0, 0, OCF_VARIANT_AUTO)) return -1;
    if (tool_generic_rows(env, specs[i].op) == 2 &&
        generic_row(env, &specs[i], 0, 0, OCF_VARIANT_BASELINE))
      return -1;
  }
  return 0;
}

int tool_sweep_generic(tool_bench_env *env, tool_op op, const size_t *d, const size_t *wgs,
                       size_t count) {
  tool_spec s;
  tool_spec_init(&s, op);
  memcpy(s.d, d, sizeof s.d);
  s.ndims = tool_op_case(op)->ndims;
  for (size_t i = 0; i < count; i++)
    if (generic_row(env, &s, wgs[i], 1, OCF_VARIANT_AUTO)) return -1;
  return 0;
}

int tool_generic_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch,
                              char *err, size_t errlen) {
  const ocft_op_case *op = tool_op_case(s->op);
  ocft_call call;
  int rc = TOOL_FAILED;
  if (ocft_call_make_unchecked(&call, op, s->d, &s->opts, 1)) { /* never read back */
    snprintf(err, errlen, "out of host memory");
  } else {
    cl_int e = ocft_call_buffers(&call, ocf_context_cl_context(ctx));
    if (e != CL_SUCCESS) {
      snprintf(err, errlen, "clCreateBuffer: %s", ocf_status_name((ocf_status)e));
    } else {
      ocf_status status = ocft_call_device(&call, ctx, launch);
      rc = status == OCF_SUCCESS ? 0 : tool_library_failure(status, op->function, err, errlen);
    }
  }
  ocft_call_free(&call);
  return rc;
}
