/* The plan of ocf_softmax: which of cl/softmax.cl's kernels, and their shapes. */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

/* Bytes of local memory per work-item: softmax_rows declares four WG-float arrays, the others
   at most two. */
enum { SOFTMAX_LOCAL_BYTES_PER_ITEM = 16 };

/* The tuning values a call works with: the resolved ones, with the caller's workgroup size in
   every size field when it fixed one, else each size capped at `cap`. */
static void call_tuning(const int *t, size_t fixed_wg, size_t cap, size_t *wg, size_t *min_wg,
                        size_t *rows_wg) {
  if (fixed_wg) {
    *wg = *min_wg = *rows_wg = fixed_wg;
    return;
  }
  *wg = (size_t)t[SM_WG] < cap ? (size_t)t[SM_WG] : cap;
  *min_wg = (size_t)t[SM_MIN_WG] < *wg ? (size_t)t[SM_MIN_WG] : *wg;
  *rows_wg = (size_t)t[SM_ROWS_WG] < cap ? (size_t)t[SM_ROWS_WG] : ocf_pow2_floor(cap);
}

/* Workgroups to launch for `work` row units: the kernels loop grid-stride past this cap, which
   keeps the grid far below every device's limit on workgroup counts. */
static size_t group_count(const ocf_device_facts *facts, size_t work) {
  size_t cap = (size_t)facts->compute_units * 2048;
  if (work == 0) work = 1;
  return work < cap ? work : cap;
}

/* Picks the kernels for a call under sizes wg / min_wg / rows_wg. */
static void choose(const ocf_device_facts *facts, const int *t, const ocf_softmax_call *c,
                   size_t wg_max, size_t min_wg, size_t rows_wg, ocf_plan *plan) {
  const int fixed = c->workgroup != 0;
  size_t wg = wg_max, vw = 1, items = 1, unroll = 1, seg = 1;
  size_t groups = group_count(facts, c->rows);
  ocf_kernel_id kernels[3] = {OCF_KERNEL_SOFTMAX_GENERAL, 0, 0};
  size_t count = 1;

  if (c->variant == OCF_VARIANT_BASELINE) {
    kernels[0] = OCF_KERNEL_SOFTMAX_BASE_MAX;
    kernels[1] = OCF_KERNEL_SOFTMAX_BASE_EXP_SUM;
    kernels[2] = OCF_KERNEL_SOFTMAX_BASE_DIVIDE;
    count = 3;
    /* The row max and sum, then exp(x - max) of every element (dense rows): out is written
       only by the last kernel. rows * cols fits (in's checked extent is at least that), and
       so do two floats more a row. */
    plan->scratch_bytes = (2 * c->rows + c->rows * c->cols) * sizeof(float);
    if (plan->scratch_bytes == 0) plan->scratch_bytes = sizeof(float);
  } else if (c->variant == OCF_VARIANT_AUTO) {
    /* Vector access needs every row start aligned to the vector; otherwise the same kernels
       run with scalar access, holding as many floats per work-item. */
    vw = (size_t)t[SM_VW];
    if (c->in_off % vw || c->in_ld % vw || c->out_off % vw || c->out_ld % vw) vw = 1;
    size_t t_vw = (size_t)t[SM_VW];
    size_t t_items = (size_t)t[SM_ITEMS] * t_vw / vw;
    unroll = (size_t)t[SM_UNROLL] * t_vw / vw;
    if (unroll > 16) unroll = 16;
    size_t vecs = ocf_div_ceil(c->cols ? c->cols : 1, vw);

    /* Rows in registers, several a workgroup: a segment of the fewest work-items (a power of
       two) that hold a row in seg_items vectors each, capped by max_seg and by the largest power
       of two dividing the group, with more vectors each up to `items`; rows_wg / seg rows a
       group, the group no larger than the rows need (unless the caller fixed it). */
    seg = ocf_pow2_ceil(ocf_div_ceil(vecs, (size_t)t[SM_SEG_ITEMS] * t_vw / vw));
    size_t seg_cap = rows_wg & (~rows_wg + 1); /* the lowest set bit */
    if (seg_cap > (size_t)t[SM_MAX_SEG]) seg_cap = (size_t)t[SM_MAX_SEG];
    if (seg > seg_cap) seg = seg_cap;
    if (!fixed)
      while (rows_wg % 2 == 0 && rows_wg / 2 >= seg && rows_wg / 2 / seg >= c->rows)
        rows_wg /= 2;
    if (vecs <= seg * t_items) {
      kernels[0] = OCF_KERNEL_SOFTMAX_ROWS;
      wg = rows_wg;
      items = ocf_pow2_ceil(ocf_div_ceil(vecs, seg));
      groups = group_count(facts, ocf_div_ceil(c->rows, rows_wg / seg));
    } else {
      seg = 1;
      /* Rows that fit in registers: the smallest power-of-two group (from the minimum) that
         holds the row in at most `items` vectors a work-item, then the fewest items. */
      if (!fixed) {
        size_t floor = ocf_pow2_ceil(vecs) < min_wg ? ocf_pow2_ceil(vecs) : min_wg;
        wg = ocf_pow2_ceil(ocf_div_ceil(vecs, t_items));
        if (wg < floor) wg = floor;
        if (wg > wg_max) wg = wg_max;
      }
      if (vecs <= wg * t_items) {
        kernels[0] = OCF_KERNEL_SOFTMAX_RESIDENT;
        items = ocf_pow2_ceil(ocf_div_ceil(vecs, wg));
      } else {
        /* Long rows: one workgroup a row while there are rows enough to fill the device, else
           split each row into parts of at least a few steps of the loop. */
        wg = wg_max;
        size_t target = (size_t)facts->compute_units * (size_t)t[SM_GROUPS_PER_UNIT];
        size_t step = wg * unroll;
        size_t parts = c->rows < target ? ocf_div_ceil(target, c->rows ? c->rows : 1) : 1;
        size_t max_parts = vecs / (4 * step);
        if (parts > max_parts) parts = max_parts;
        if (parts <= 1) {
          kernels[0] = OCF_KERNEL_SOFTMAX_ONLINE;
        } else {
          kernels[0] = OCF_KERNEL_SOFTMAX_SPLIT_STATS;
          kernels[1] = OCF_KERNEL_SOFTMAX_SPLIT_WRITE;
          count = 2;
          plan->part_vecs = ocf_div_ceil(ocf_div_ceil(vecs, parts), step) * step;
          plan->parts = ocf_div_ceil(vecs, plan->part_vecs);
          groups = group_count(facts, c->rows * plan->parts);
          plan->scratch_bytes = 2 * c->rows * plan->parts * sizeof(float);
        }
      }
    }
  }
  if (plan->parts == 0) plan->parts = 1;

  ocf_plan_define(plan, "WG", (long long)wg);
  ocf_plan_define(plan, "VW", (long long)vw);
  ocf_plan_define(plan, "ITEMS", (long long)items);
  ocf_plan_define(plan, "UNROLL", (long long)unroll);
  ocf_plan_define(plan, "SEG", (long long)seg);
  ocf_plan_define(plan, "IN_DTYPE", c->in_dtype);
  ocf_plan_define(plan, "OUT_DTYPE", c->out_dtype);
  size_t global = groups * wg;
  for (size_t k = 0; k < count; k++)
    ocf_plan_step_add(plan, kernels[k], 1, &global, &wg);
  plan->local_mem_bytes = SOFTMAX_LOCAL_BYTES_PER_ITEM * wg;
}

ocf_status ocf_plan_softmax(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_softmax_call *call, ocf_plan *plan) {
  const int *t = tuning->v;
  /* A default size fits the device (workgroup, work-item and local memory limits) and the
     limits learnt from built kernels: plan, and while a chosen kernel is known to accept fewer
     work-items than planned, plan again under that limit (each round lowers the cap). */
  size_t cap = facts->max_workgroup_size;
  if (cap > facts->max_item_sizes[0]) cap = facts->max_item_sizes[0];
  size_t local_cap = (size_t)(facts->local_mem_bytes / SOFTMAX_LOCAL_BYTES_PER_ITEM);
  if (local_cap >= 1 && cap > local_cap) cap = local_cap;
  for (int round = 0; round < 8; round++) {
    memset(plan, 0, sizeof *plan);
    plan->program = OCF_PROGRAM_SOFTMAX;
    plan->fixed_workgroup = call->workgroup != 0;
    size_t wg, min_wg, rows_wg;
    call_tuning(t, call->workgroup, cap, &wg, &min_wg, &rows_wg);
    choose(facts, t, call, wg, min_wg, rows_wg, plan);
    if (plan->fixed_workgroup) break;
    size_t lowest = cap;
    for (unsigned s = 0; s < plan->step_count; s++) {
      size_t limit = ocf_facts_workgroup_limit(facts, plan->steps[s].kernel);
      if (limit < lowest) lowest = limit;
    }
    if (plan->steps[0].local[0] <= lowest) break;
    cap = lowest;
  }
  return ocf_plan_verify(plan, facts);
}
