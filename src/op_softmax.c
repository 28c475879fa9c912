/* ocf_softmax: argument checks, kernel choice and launch for cl/softmax.cl. */
#include "internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- tuning: per-device values as data, legal combinations as data ---- */

typedef struct softmax_tuning {
  ocf_tuning_key key;
  /* Work-items per workgroup of the long-row kernels, and the most the row-in-registers kernel
     grows to. */
  size_t workgroup_size;
  /* The fewest work-items the row-in-registers kernel shrinks to for short rows (a warp or
     wavefront on a GPU), so that a row of 128 floats does not leave most of a group idle. */
  size_t min_workgroup_size;
  size_t vector_width; /* floats per aligned vector access */
  size_t items;        /* most vectors a work-item holds in registers (softmax_resident) */
  size_t unroll;       /* vectors a work-item loads per step of the long-row loops */
  /* Rows in registers, several a workgroup (softmax_rows): its workgroup size, the vectors a
     work-item should hold (fewer work-items a row below that), and the most work-items a row
     gets (a power of two); up to max_segment * items vectors a row, beyond: softmax_resident. */
  size_t rows_workgroup_size;
  size_t segment_items;
  size_t max_segment;
  /* Workgroups per compute unit that keep the device busy: a call with fewer rows than that
     splits each long row over several workgroups (softmax_split_*). */
  size_t groups_per_unit;
} softmax_tuning;

static const softmax_tuning softmax_table[] = {
    /* H200 (driver 580, measured with profiling events, GB/s = 8 rows cols / time): 4096 x 4096
       in registers, 64 x 16 float4 a row: 3.49 TB/s (copy 3.7); 16384 x 1024: 3.56; 1024 x
       65536 two-pass with 256 x 2: 2.66 (split rows: 2.0, so 1024 rows do not split); 64 x
       262144 split into 4..16 parts: 1.1-1.25 (one group a row: 0.66). Its compiler caps
       these kernels at 256 work-items. Rows in registers, several a group (softmax_rows, 128
       work-items, 4 float4 each; oclfuse bench, copy 4.12): 65536 x 128 in 8-wide segments: 3.21
       (one 32-item group a row: 1.44; 256-item groups: 3.08); 32768 x 256: 3.17; 16384 x 512: 3.16;
       16384 x 1024: 3.56; 4096 x 4096 in one 128 x 8 segment: 3.57 (64 x 16 resident: 3.30). */
    {{"NVIDIA", NULL, CL_DEVICE_TYPE_GPU}, 256, 64, 4, 16, 2, 128, 4, 128, 4},
    {{"Advanced Micro Devices", NULL, CL_DEVICE_TYPE_GPU}, 256, 64, 4, 8, 4, 256, 4, 64, 8},
    {{"Intel", NULL, CL_DEVICE_TYPE_GPU}, 256, 32, 4, 4, 4, 256, 4, 32, 8},
    {{NULL, NULL, CL_DEVICE_TYPE_CPU}, 64, 16, 8, 4, 2, 64, 4, 8, 2},
    {{NULL, NULL, 0}, 128, 32, 4, 4, 4, 128, 4, 32, 4},
};

/* One rule per tunable: inclusive range, and whether it must be a power of two. */
typedef struct softmax_rule {
  const char *name;
  size_t offset; /* of the size_t field in softmax_tuning */
  size_t min, max;
  int power_of_two;
} softmax_rule;

static const softmax_rule softmax_rules[] = {
    {"workgroup_size", offsetof(softmax_tuning, workgroup_size), 1, 16384, 0},
    {"min_workgroup_size", offsetof(softmax_tuning, min_workgroup_size), 1, 16384, 0},
    {"vector_width", offsetof(softmax_tuning, vector_width), 1, 16, 1},
    {"items", offsetof(softmax_tuning, items), 1, 32, 1},
    {"unroll", offsetof(softmax_tuning, unroll), 1, 16, 0},
    {"rows_workgroup_size", offsetof(softmax_tuning, rows_workgroup_size), 1, 16384, 0},
    {"segment_items", offsetof(softmax_tuning, segment_items), 1, 32, 1},
    {"max_segment", offsetof(softmax_tuning, max_segment), 1, 16384, 1},
    {"groups_per_unit", offsetof(softmax_tuning, groups_per_unit), 1, 64, 0},
};

/* Floats one work-item may hold in registers in softmax_resident (vector_width * items) and
   softmax_rows (vector_width * segment_items). */
enum { SOFTMAX_MAX_REGISTER_FLOATS = 64 };

/* The one validator of a tuning row, for the built-in table and for explicit overrides alike. */
static ocf_status softmax_tuning_check(const softmax_tuning *t) {
  for (size_t i = 0; i < OCF_ARRAY_LEN(softmax_rules); i++) {
    const softmax_rule *rule = &softmax_rules[i];
    size_t value = *(const size_t *)((const char *)t + rule->offset);
    if (value < rule->min || value > rule->max || (rule->power_of_two && (value & (value - 1))))
      return ocf_fail(rule->offset == offsetof(softmax_tuning, workgroup_size)
                          ? OCF_ERR_INVALID_WORKGROUP
                          : OCF_ERR_INVALID_VALUE,
                      "ocf_softmax: %s = %zu is outside [%zu, %zu]%s", rule->name, value, rule->min,
                      rule->max, rule->power_of_two ? " or not a power of two" : "");
  }
  if (t->min_workgroup_size > t->workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_softmax: min_workgroup_size %zu exceeds workgroup_size %zu",
                    t->min_workgroup_size, t->workgroup_size);
  if (t->vector_width * t->items > SOFTMAX_MAX_REGISTER_FLOATS ||
      t->vector_width * t->segment_items > SOFTMAX_MAX_REGISTER_FLOATS)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_softmax: vector_width %zu * items %zu (or segment_items %zu) exceeds %d "
                    "floats a work-item",
                    t->vector_width, t->items, t->segment_items, (int)SOFTMAX_MAX_REGISTER_FLOATS);
  return OCF_SUCCESS;
}

/* ---- the plan: which kernels, compiled how, launched how ---- */

typedef enum softmax_kind {
  SOFTMAX_ROWS,     /* short rows in registers, several a workgroup */
  SOFTMAX_RESIDENT, /* row in registers */
  SOFTMAX_ONLINE,   /* one workgroup a row, two passes */
  SOFTMAX_SPLIT,    /* several workgroups a row: stats, then write */
  SOFTMAX_GENERAL,  /* scalar reference */
  SOFTMAX_BASELINE  /* three unfused kernels */
} softmax_kind;

typedef struct softmax_plan {
  softmax_kind kind;
  size_t wg, vw, items, unroll;
  size_t seg;              /* SOFTMAX_ROWS: work-items a row (1 for the other kernels) */
  size_t parts, part_vecs; /* SOFTMAX_SPLIT only */
  size_t groups;           /* workgroups launched (rows, or rows * parts, capped) */
} softmax_plan;

/* The arguments of one call, already checked. */
typedef struct softmax_call {
  size_t rows, cols;
  cl_mem in, out;
  size_t in_offset, in_ld, out_offset, out_ld;
} softmax_call;

static size_t pow2_ceil(size_t x) {
  size_t p = 1;
  while (p < x && p <= SIZE_MAX / 2)
    p *= 2;
  return p;
}

static size_t div_ceil(size_t a, size_t b) {
  return a / b + (a % b != 0);
}

/* Workgroups to launch for `work` row units: the kernels loop grid-stride past this cap, which
   keeps the grid far below every device's limit on workgroup counts. */
static size_t group_count(const ocf_context *ctx, size_t work) {
  size_t units = ctx->info.compute_units ? ctx->info.compute_units : 1;
  size_t cap = units * 2048;
  return work < cap ? work : cap;
}

/* Picks the kernels for a call. `t` is valid; `fixed_wg` says the caller chose t->workgroup_size.
 */
static void softmax_choose(const ocf_context *ctx, const softmax_call *c, const softmax_tuning *t,
                           int fixed_wg, ocf_variant variant, softmax_plan *plan) {
  plan->wg = t->workgroup_size;
  plan->vw = 1;
  plan->items = 1;
  plan->unroll = 1;
  plan->seg = 1;
  plan->parts = 1;
  plan->part_vecs = 0;
  plan->groups = group_count(ctx, c->rows);
  if (variant == OCF_VARIANT_BASELINE || variant == OCF_VARIANT_GENERAL) {
    plan->kind = variant == OCF_VARIANT_BASELINE ? SOFTMAX_BASELINE : SOFTMAX_GENERAL;
    return;
  }
  /* Vector access needs every row start aligned to the vector; otherwise the same kernels run
     with scalar access, holding as many floats per work-item. */
  size_t vw = t->vector_width;
  if (c->in_offset % vw || c->in_ld % vw || c->out_offset % vw || c->out_ld % vw) vw = 1;
  size_t items = t->items * t->vector_width / vw, unroll = t->unroll * t->vector_width / vw;
  if (unroll > 16) unroll = 16;
  size_t vecs = div_ceil(c->cols, vw);
  plan->vw = vw;
  plan->unroll = unroll;

  /* Rows in registers, several a workgroup: a segment of the fewest work-items (a power of two)
     that hold a row in segment_items vectors each, capped by max_segment and by the largest power
     of two dividing the group, with more vectors each up to `items`; WG / seg rows a group, the
     group no larger than the rows need (unless the caller fixed it). */
  size_t seg = pow2_ceil(div_ceil(vecs, t->segment_items * t->vector_width / vw));
  size_t rows_wg = t->rows_workgroup_size;
  size_t seg_cap = rows_wg & (~rows_wg + 1); /* the lowest set bit */
  if (seg_cap > t->max_segment) seg_cap = t->max_segment;
  if (seg > seg_cap) seg = seg_cap;
  if (!fixed_wg)
    while (rows_wg % 2 == 0 && rows_wg / 2 >= seg && rows_wg / 2 / seg >= c->rows)
      rows_wg /= 2;
  if (vecs <= seg * items) {
    plan->kind = SOFTMAX_ROWS;
    plan->wg = rows_wg;
    plan->seg = seg;
    plan->items = pow2_ceil(div_ceil(vecs, seg));
    plan->groups = group_count(ctx, div_ceil(c->rows, rows_wg / seg));
    return;
  }

  /* Rows that fit in registers: the smallest power-of-two group (from the minimum) that holds
     the row in at most `items` vectors a work-item, then the fewest items (a power of two). */
  size_t wg = t->workgroup_size;
  if (!fixed_wg) {
    size_t floor =
        pow2_ceil(vecs) < t->min_workgroup_size ? pow2_ceil(vecs) : t->min_workgroup_size;
    wg = pow2_ceil(div_ceil(vecs, items));
    if (wg < floor) wg = floor;
    if (wg > t->workgroup_size) wg = t->workgroup_size;
  }
  if (vecs <= wg * items) {
    plan->kind = SOFTMAX_RESIDENT;
    plan->wg = wg;
    plan->items = pow2_ceil(div_ceil(vecs, wg));
    return;
  }

  /* Long rows: one workgroup a row while there are rows enough to fill the device, else split
     each row into parts of at least a few steps of the loop. */
  plan->wg = t->workgroup_size;
  size_t target = (ctx->info.compute_units ? ctx->info.compute_units : 1) * t->groups_per_unit;
  size_t step = plan->wg * unroll;
  size_t parts = c->rows < target ? div_ceil(target, c->rows) : 1;
  size_t max_parts = vecs / (4 * step);
  if (parts > max_parts) parts = max_parts;
  if (parts <= 1) {
    plan->kind = SOFTMAX_ONLINE;
    return;
  }
  plan->kind = SOFTMAX_SPLIT;
  plan->part_vecs = div_ceil(div_ceil(vecs, parts), step) * step;
  plan->parts = div_ceil(vecs, plan->part_vecs);
  plan->groups = group_count(ctx, c->rows * plan->parts);
}

/* The kernels of a plan in launch order. */
static size_t softmax_kernel_names(softmax_kind kind, const char *names[3]) {
  switch (kind) {
  case SOFTMAX_ROWS:
    names[0] = "softmax_rows";
    return 1;
  case SOFTMAX_RESIDENT:
    names[0] = "softmax_resident";
    return 1;
  case SOFTMAX_ONLINE:
    names[0] = "softmax_online";
    return 1;
  case SOFTMAX_SPLIT:
    names[0] = "softmax_split_stats";
    names[1] = "softmax_split_write";
    return 2;
  case SOFTMAX_GENERAL:
    names[0] = "softmax_general";
    return 1;
  case SOFTMAX_BASELINE:
    names[0] = "softmax_base_max";
    names[1] = "softmax_base_exp_sum";
    names[2] = "softmax_base_divide";
    return 3;
  }
  return 0;
}

static void CL_CALLBACK release_scratch(cl_event event, cl_int event_status, void *scratch) {
  (void)event, (void)event_status;
  clReleaseMemObject((cl_mem)scratch);
}

/* Releases a call's scratch buffer once its last kernel (`done`, NULL if it was never enqueued)
   completes, and hands `done` to the caller when it asked for an event. OpenCL would keep a
   buffer released right after enqueue alive anyway; releasing it from the completion callback
   also keeps implementations that free early (Oclgrind) from reading freed scratch. */
static void release_after(cl_mem scratch, cl_event done, cl_event *caller_event) {
  if (!done || clSetEventCallback(done, CL_COMPLETE, release_scratch, scratch) != CL_SUCCESS)
    clReleaseMemObject(scratch);
  if (!done) return;
  if (caller_event)
    *caller_event = done;
  else
    clReleaseEvent(done);
}

/* Enqueues a plan for a checked call: builds (once) and checks every kernel against the device
   before the first is enqueued. Scratch buffers live for the call: released when its last
   kernel completes. */
static ocf_status softmax_enqueue(ocf_context *ctx, cl_command_queue queue, const softmax_call *c,
                                  const softmax_plan *plan, const ocf_launch *launch) {
  ocf_status status = OCF_SUCCESS;
  size_t scratch_floats = 0;
  if (plan->kind == SOFTMAX_SPLIT) scratch_floats = 2 * c->rows * plan->parts;
  if (plan->kind == SOFTMAX_BASELINE) scratch_floats = 2 * c->rows;
  cl_mem scratch = NULL;
  if (scratch_floats) {
    if (scratch_floats > SIZE_MAX / sizeof(float) / 2)
      return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_softmax: %zu rows of scratch overflow", c->rows);
    /* Zero-initialised from the host: the kernels write every float before reading it, but
       Oclgrind 21.10 misreports writes to a fresh uninitialised buffer that reuses a freed one's
       memory, and the copy costs 8 bytes a row. */
    float *zeros = calloc(scratch_floats, sizeof *zeros);
    if (!zeros) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "ocf_softmax: scratch");
    status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, scratch_floats, zeros, &scratch);
    free(zeros);
    if (status != OCF_SUCCESS) return status;
  }

  char options[128];
  snprintf(options, sizeof options, "-DWG=%zu -DVW=%zu -DITEMS=%zu -DUNROLL=%zu -DSEG=%zu",
           plan->wg, plan->vw, plan->items, plan->unroll, plan->seg);
  cl_ulong rows = c->rows, cols = c->cols, in_off = c->in_offset, in_ld = c->in_ld;
  cl_ulong out_off = c->out_offset, out_ld = c->out_ld;
  cl_ulong parts = plan->parts, part_vecs = plan->part_vecs;
  const ocf_arg fused[] = {OCF_ARG(rows),  OCF_ARG(cols),      OCF_ARG(c->in),   OCF_ARG(in_off),
                           OCF_ARG(in_ld), OCF_ARG(c->out),    OCF_ARG(out_off), OCF_ARG(out_ld),
                           OCF_ARG(parts), OCF_ARG(part_vecs), OCF_ARG(scratch)};
  const ocf_arg stats[] = {OCF_ARG(rows),  OCF_ARG(cols),  OCF_ARG(c->in),     OCF_ARG(in_off),
                           OCF_ARG(in_ld), OCF_ARG(parts), OCF_ARG(part_vecs), OCF_ARG(scratch)};
  const ocf_arg base_max[] = {OCF_ARG(rows),   OCF_ARG(cols),  OCF_ARG(c->in),
                              OCF_ARG(in_off), OCF_ARG(in_ld), OCF_ARG(scratch)};
  const ocf_arg base_exp[] = {OCF_ARG(rows),    OCF_ARG(cols),   OCF_ARG(c->in),
                              OCF_ARG(in_off),  OCF_ARG(in_ld),  OCF_ARG(c->out),
                              OCF_ARG(out_off), OCF_ARG(out_ld), OCF_ARG(scratch)};
  const ocf_arg base_div[] = {OCF_ARG(rows),    OCF_ARG(cols),   OCF_ARG(c->out),
                              OCF_ARG(out_off), OCF_ARG(out_ld), OCF_ARG(scratch)};
  const ocf_arg *args[3] = {fused, NULL, NULL};
  cl_uint arg_counts[3] = {8, 0, 0};
  if (plan->kind == SOFTMAX_SPLIT) {
    args[0] = stats, arg_counts[0] = OCF_ARRAY_LEN(stats);
    args[1] = fused, arg_counts[1] = OCF_ARRAY_LEN(fused);
  } else if (plan->kind == SOFTMAX_BASELINE) {
    args[0] = base_max, arg_counts[0] = OCF_ARRAY_LEN(base_max);
    args[1] = base_exp, arg_counts[1] = OCF_ARRAY_LEN(base_exp);
    args[2] = base_div, arg_counts[2] = OCF_ARRAY_LEN(base_div);
  }

  const char *names[3] = {NULL, NULL, NULL};
  size_t count = softmax_kernel_names(plan->kind, names);
  size_t global = plan->groups * plan->wg, local = plan->wg;
  cl_kernel kernels[3] = {NULL, NULL, NULL};
  pthread_mutex_lock(&ctx->lock);
  for (size_t k = 0; k < count && status == OCF_SUCCESS; k++) {
    status = ocf_kernel_get(ctx, OCF_PROGRAM_SOFTMAX, options, names[k], &kernels[k]);
    if (status == OCF_SUCCESS) status = ocf_check_workgroup(ctx, kernels[k], 1, &local);
  }
  /* With scratch, the last kernel's event is needed to release it: ask for one ourselves. */
  ocf_launch own = {0};
  if (launch) own = *launch;
  cl_event last_event = NULL;
  if (scratch) own.event = &last_event;
  cl_event chain = NULL;
  for (size_t k = 0; k < count && status == OCF_SUCCESS; k++) {
    status = ocf_set_args(kernels[k], args[k], arg_counts[k]);
    if (status == OCF_SUCCESS)
      status =
          ocf_dispatch(queue, kernels[k], 1, &global, &local, &own, k == 0, k + 1 == count, &chain);
  }
  if (chain) clReleaseEvent(chain); /* only left over when a later kernel failed to enqueue */
  pthread_mutex_unlock(&ctx->lock);
  if (scratch) release_after(scratch, last_event, launch ? launch->event : NULL);
  return status;
}

/* ---- public entry points ---- */

ocf_status ocf_softmax(ocf_context *ctx, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                       size_t in_ld, cl_mem out, size_t out_offset, size_t out_ld,
                       const ocf_launch *launch) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax: ctx is NULL");
  cl_command_queue queue = NULL;
  ocf_status status = ocf_check_launch(ctx, launch, &queue);
  if (status != OCF_SUCCESS) return status;
  size_t in_extent = 0, out_extent = 0;
  if ((status = ocf_matrix_extent("in", rows, cols, in_ld, &in_extent)) != OCF_SUCCESS ||
      (status = ocf_matrix_extent("out", rows, cols, out_ld, &out_extent)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "in", in, in_offset, in_extent)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "out", out, out_offset, out_extent)) != OCF_SUCCESS)
    return status;
  int same_start = 0;
  if (ocf_ranges_overlap(out, out_offset, out_extent, in, in_offset, in_extent, &same_start) &&
      !(same_start && out_ld == in_ld))
    return ocf_fail(OCF_ERR_ALIASING, "ocf_softmax: out overlaps in other than exactly in place "
                                      "(same buffer, offset and stride)");

  const softmax_tuning *row = &softmax_table[ocf_tuning_match(
      &ctx->info, softmax_table, OCF_ARRAY_LEN(softmax_table), sizeof softmax_table[0])];
  softmax_tuning tuning = *row;
  int fixed_wg = launch && launch->workgroup_size;
  if (fixed_wg) {
    tuning.workgroup_size = launch->workgroup_size;
    tuning.min_workgroup_size = launch->workgroup_size;
    tuning.rows_workgroup_size = launch->workgroup_size;
  }
  if (tuning.rows_workgroup_size > ctx->info.max_workgroup_size)
    tuning.rows_workgroup_size = ctx->info.max_workgroup_size;
  if ((status = softmax_tuning_check(&tuning)) != OCF_SUCCESS) return status;
  if (tuning.workgroup_size > ctx->info.max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_softmax: workgroup size %zu exceeds the device's maximum of %zu",
                    tuning.workgroup_size, ctx->info.max_workgroup_size);
  if (rows == 0 || cols == 0) return ocf_dispatch_nothing(queue, launch);

  softmax_call call = {rows, cols, in, out, in_offset, in_ld, out_offset, out_ld};
  softmax_plan plan;
  for (;;) {
    softmax_choose(ctx, &call, &tuning, fixed_wg, launch ? launch->variant : OCF_VARIANT_AUTO,
                   &plan);
    status = softmax_enqueue(ctx, queue, &call, &plan, launch);
    /* A default size the built kernel cannot run (its registers allow fewer work-items than
       the table says): halve it and try again. Nothing was enqueued: every kernel is checked
       first. An explicit size is the caller's, and its refusal is the answer. */
    if (status != OCF_ERR_INVALID_WORKGROUP || fixed_wg || tuning.workgroup_size == 1)
      return status;
    tuning.workgroup_size /= 2;
    if (tuning.min_workgroup_size > tuning.workgroup_size)
      tuning.min_workgroup_size = tuning.workgroup_size;
    if (tuning.rows_workgroup_size > tuning.workgroup_size)
      tuning.rows_workgroup_size = tuning.workgroup_size;
    ocf_error_clear();
  }
}

ocf_status ocf_softmax_host(ocf_context *ctx, size_t rows, size_t cols, const float *in,
                            size_t in_ld, float *out, size_t out_ld) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_host: ctx is NULL");
  size_t in_extent = 0, out_extent = 0;
  ocf_status status = ocf_matrix_extent("in", rows, cols, in_ld, &in_extent);
  if (status == OCF_SUCCESS) status = ocf_matrix_extent("out", rows, cols, out_ld, &out_extent);
  if (status != OCF_SUCCESS) return status;
  if (in_extent && (!in || !out))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_softmax_host: %s is NULL", !in ? "in" : "out");
  if (in_extent == 0) return OCF_SUCCESS;
  uintptr_t in_start = (uintptr_t)in, out_start = (uintptr_t)out;
  int in_place = in_start == out_start;
  if ((in_place && in_ld != out_ld) ||
      (!in_place && in_start < out_start + out_extent * sizeof(float) &&
       out_start < in_start + in_extent * sizeof(float)))
    return ocf_fail(OCF_ERR_ALIASING, "ocf_softmax_host: out overlaps in other than exactly in "
                                      "place (same array and stride)");

  cl_mem in_buffer = NULL, out_buffer = NULL;
  if (in_place) {
    status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, in_extent, in, &in_buffer);
    out_buffer = in_buffer;
  } else {
    status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, in_extent, in, &in_buffer);
    /* The gaps between out's rows must come back as they were: start from out's contents. */
    if (status == OCF_SUCCESS)
      status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, out_extent, out_ld == cols ? NULL : out,
                               &out_buffer);
  }
  if (status == OCF_SUCCESS)
    status = ocf_softmax(ctx, rows, cols, in_buffer, 0, in_ld, out_buffer, 0, out_ld, NULL);
  if (status == OCF_SUCCESS) status = ocf_host_read(ctx, out_buffer, out_extent, out);
  if (out_buffer && out_buffer != in_buffer) clReleaseMemObject(out_buffer);
  if (in_buffer) clReleaseMemObject(in_buffer);
  return status;
}
