/*
 * The plan of attention_lanes (cl/attention_lanes.cl): decoding with K and V streamed from
 * global memory into registers, for the calls attention_decode would take (few query rows a key
 * head, a default variant and size, no loop limit) where decode.lanes is set.
 *
 *   VEC     elements a load: the widest of 8, 4, 2, 1 that divides d and K's and V's offsets and
 *           strides (kv_vector), at most 4 (16 bytes) where K or V is fp32.
 *   SEG     decode.lanes work-items a key, halved while a lane would hold fewer than two of a
 *           key's D / VEC chunks and while SEG exceeds WG: a key's reductions, weight and
 *           rescale cost the same however few columns a lane holds (H200, bf16 1 x 32 x 1 x
 *           8192 x 128, GB/s: 16 lanes, one chunk, 1294; 8 lanes, two, 2075; 4, four, 1993).
 *   ROWG    decode.row_groups, rounded down to a power of two and to the group's query rows
 *           (group * lq, rounded up to a power of two): the workgroup's row groups, each
 *           decode.wg work-items holding RB / ROWG of the block's rows and taking every key for
 *           them (fewer registers a work-item, and ROWG times the warps at the same keys);
 *           only where the row blocks make one wave or less (b x key heads x row blocks at most
 *           decode.bulk_fill a compute unit, as the ring), else 1.
 *   RB      the group's query rows (group * lq, up to decode.rows) rounded up to a power of two,
 *           at least ROWG, halved while a work-item's queries and running sums (2 RB / ROWG D /
 *           SEG floats) pass LANES_FLOATS; rows past RB take more row blocks (K and V read once
 *           a block).
 *   UNROLL  decode.unroll, halved while its K and V chunks (2 UNROLL D / SEG floats, twice that
 *           with AHEAD) pass LANES_FLOATS / 2.
 *   AHEAD   decode.ahead: the next step's chunks loaded while this one is scored.
 *   WG      decode.wg x ROWG, within the device's and the kernel's limits (beyond what the
 *           kernel reports where the wide probe passed, registers capped to fit: the probe is
 *           asked for first), halved (ROWG halved with it below SEG a group) until the slots'
 *           join, WG / ROWG / SEG x RB x (D + 2) floats, and without shuffles the lanes' sums,
 *           RB / ROWG x UNROLL x WG floats, fit local memory.
 *   SHUFFLE NVIDIA (compute capability 7.0 on) with whole warps: a key's lanes sum by shuffles.
 *   JOIN    decode.join: the last range of a row block to arrive joins the block's ranges, in
 *           one kernel (plan->arrivals: a counter a row block), its ranges' (m, s), weights and
 *           maxima held in the slots' join memory (3 splits + 1 <= WG / ROWG / SEG x (D + 2));
 *           decode.join 1 for blocks of one query row, 2 for every block (blocks of several
 *           rows gain less joined: docs/ATTENTION.md). JOIN 2 where PTX fences order the
 *           workgroups (NVIDIA GPUs, compute capability 7.0 on), 1 on CPUs (mem_fence: their
 *           memory is coherent); elsewhere 0, as OpenCL 1.2 orders nothing between workgroups:
 *           then attention_lanes_join after it.
 *   BULK    decode.bulk, on an NVIDIA GPU of compute capability 9.0 or more whose wgmma probe
 *           passed (it ran sm_90 code with this much static local memory and mbarriers on this
 *           context; until it has run, the plan streams through registers and asks for it), with
 *           warp shuffles, whole warps, no AHEAD, and K's and V's chunks 16 bytes (VEC elements
 *           of each: their offsets and strides whole 16 bytes): K and V go through a ring of
 *           STAGES (decode.stages, fewer down to 2 while the ring and the join pass the probe's
 *           local memory, else no BULK) stages of BULK_KEYS keys (decode.bulk_keys rounded down
 *           to whole steps), which Hopper's bulk copies fill; its key ranges aim at
 *           decode.bulk_fill workgroups a compute unit (each holds a ring of up to some 200 KiB),
 *           and take the ring where they hold decode.bulk_min key-rows or more (keys x RB).
 *           REFILL_BEFORE: decode.bulk_refill (which stage warp 0 refills after a tile).
 *           A build of it that fails sets learnt.lanes_bulk_failed (src/runtime/run.c).
 * Key ranges as attention_decode's (ocf_attention_key_ranges: decode.fill workgroups a compute
 * unit, split.min keys or more), each a multiple of a step, WG / ROWG / SEG x UNROLL keys (with
 * BULK, of a stage).
 */
#include "common.h"
#include "plan/plan.h"

/* The most floats a work-item of attention_lanes holds of its rows' queries and sums. */
enum { LANES_FLOATS = 128 };

size_t ocf_attention_lanes_local_bytes(size_t wg, size_t seg, size_t row_groups, size_t rows,
                                       size_t unroll, size_t d_padded, int shuffle) {
  return 4 * ((wg / row_groups / seg) * rows * (d_padded + 2) +
              (shuffle ? 0 : rows / row_groups * unroll * wg));
}

size_t ocf_attention_lanes_ring_bytes(size_t stages, size_t keys, size_t d_padded,
                                      size_t kv_bytes) {
  return stages * (keys * d_padded * kv_bytes + 16); /* the K and V tiles, two mbarriers */
}

/* The ring of a BULK plan: *stages and *keys, 1; or 0 where the call or the context does not
   take one (*probe set where the wgmma probe it stands on has not run). */
static int bulk_ring(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                     const ocf_attention_call *call, size_t vec, size_t step, size_t join_bytes,
                     int shuffle, size_t d_padded, size_t *stages, size_t *keys, int *probe) {
  const size_t k_bytes = ocf_dtype_size(call->k_dtype), v_bytes = ocf_dtype_size(call->v_dtype);
  if (!t->decode.bulk || facts->vendor != OCF_VENDOR_NVIDIA ||
      !(facts->type & CL_DEVICE_TYPE_GPU) || facts->nv_compute_capability < 90 ||
      !facts->nv_compiler_options || facts->learnt.lanes_bulk_failed ||
      facts->learnt.wgmma == OCF_PROBE_FAILED || !shuffle || t->decode.ahead ||
      vec * k_bytes != 16 || vec * v_bytes != 16)
    return 0;
  if (facts->learnt.wgmma != OCF_PROBE_PASSED) {
    *probe = 1;
    return 0;
  }
  *keys = ocf_max_size((size_t)t->decode.bulk_keys / step, 1) * step;
  *stages = (size_t)t->decode.stages;
  const size_t kv_bytes = k_bytes + v_bytes;
  while (*stages > 2 &&
         join_bytes + ocf_attention_lanes_ring_bytes(*stages, *keys, d_padded, kv_bytes) >
             facts->learnt.wgmma_local_ok)
    (*stages)--;
  return join_bytes + ocf_attention_lanes_ring_bytes(*stages, *keys, d_padded, kv_bytes) <=
         facts->learnt.wgmma_local_ok;
}

/* The key ranges of a BULK plan, *split_keys their keys (whole stages): as
   ocf_attention_key_ranges's, but at most target / base_units a unit, so that the workgroups
   fill at most `target` slots (decode.bulk_fill a compute unit: a ring holds most of a unit's
   local memory, and a second wave of a few workgroups would cost as much as the first). */
static size_t bulk_ranges(const ocf_attention_call *call, size_t base_units, size_t target,
                          size_t split_min, size_t stage_keys, size_t *split_keys) {
  const size_t want = ocf_max_size(target / base_units, 1);
  const size_t ranges = ocf_attention_key_ranges(call, base_units, want * base_units, split_min,
                                                 stage_keys, split_keys);
  if (ranges <= want) return ranges;
  /* ocf_attention_key_ranges rounds a range's keys down to whole stages, which can leave one
     range more; rounded up instead, the ranges are at most `want` (fewer partials: they fit
     wherever those did). */
  *split_keys = ocf_round_up(ocf_div_ceil(call->lk, want), stage_keys);
  return ocf_div_ceil(call->lk, *split_keys);
}

/* attention_lanes's workgroup before local memory has its say: ROWG row groups (decode.row_groups
   rounded down to a power of two and to the block's rows) of decode.wg work-items, within what
   the device and the kernel allow, fewer groups where a group would hold less than a key's `seg`
   lanes. Past the kernel's reported limit only where the wide probe passed and registers can be
   capped to fit (ocf_facts_wide_allows): `wide`, `wide_regs`; `wide_probe` where it has not run
   (the plan stays within the report meanwhile). */
typedef struct {
  size_t wg, rowg;
  int wide, wide_probe;
  unsigned wide_regs;
} lanes_width;

static lanes_width lanes_workgroup(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                                   size_t seg, size_t block_rows, size_t row_groups) {
  lanes_width w = {0, 1, 0, 0, 0};
  while (2 * w.rowg <= row_groups && 2 * w.rowg <= block_rows)
    w.rowg *= 2;
  w.wg = (size_t)t->decode.wg * w.rowg;
  const size_t device_cap = ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]);
  size_t cap =
      ocf_min_size(device_cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_LANES));
  if (w.wg > cap && w.rowg > 1 &&
      (facts->nv_compiler_options || facts->wide_without_register_cap)) {
    const size_t wide = ocf_min_size(w.wg, device_cap);
    const unsigned regs = facts->nv_compiler_options ? ocf_wide_register_cap(wide) : 0;
    if (facts->learnt.wide == OCF_PROBE_UNKNOWN)
      w.wide_probe = 1;
    else if (wide > cap && ocf_facts_wide_allows(facts, OCF_KERNEL_ATTENTION_LANES, wide, regs))
      cap = wide, w.wide = 1, w.wide_regs = regs;
  }
  while (w.wg > cap)
    w.wg /= 2;
  while (w.rowg > 1 && w.wg / w.rowg < seg)
    w.rowg /= 2;
  return w;
}

/* The plan in at most `row_groups` row groups: 1, 0 where the call is not the kernel's, or
   LANES_NO_GROUPS where its row groups would stream through registers beyond one wave. */
enum { LANES_NO_GROUPS = -1 };
static int plan_lanes(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                      const ocf_attention_call *call, size_t d_padded, size_t row_groups,
                      ocf_plan *plan) {
  const size_t h = call->h ? call->h : 1, h_kv = call->h_kv ? call->h_kv : h;
  const size_t group = h / h_kv, lq = call->lq ? call->lq : 1;
  size_t vec = call->kv_vector ? call->kv_vector : 1;
  if (call->k_dtype == OCF_F32 || call->v_dtype == OCF_F32) vec = ocf_min_size(vec, 4);
  while ((call->d ? call->d : 1) % vec)
    vec /= 2;
  size_t seg = (size_t)t->decode.lanes;
  while (seg > 1 && 2 * seg * vec > d_padded)
    seg /= 2;
  size_t block_rows = 1; /* the group's query rows, rounded up to a power of two */
  while (block_rows < group * lq)
    block_rows *= 2;
  const lanes_width width = lanes_workgroup(facts, t, seg, block_rows, row_groups);
  size_t wg = width.wg, rowg = width.rowg;
  while (seg > wg)
    seg /= 2;
  const size_t per_row = 2 * ocf_div_ceil(d_padded, vec * seg) * vec; /* queries and sums */
  size_t rows = rowg;
  while (rows < group * lq && 2 * (rows / rowg) * per_row <= LANES_FLOATS)
    rows *= 2;
  size_t unroll = (size_t)t->decode.unroll;
  const size_t copies = t->decode.ahead ? 2 : 1;
  while (unroll > 1 && copies * unroll * per_row > LANES_FLOATS / 2)
    unroll /= 2;
  /* The join's (and the lanes' sums') local memory within what the device reports, as before
     the ring: ocf_facts_local_limit grows to the wgmma probe's for the ring alone (bulk_ring). */
  const unsigned long long local =
      ocf_facts_reported_local_limit(facts, OCF_PROGRAM_ATTENTION_LANES);
  int shuffle = ocf_plan_warp_shuffles(facts, wg, seg);
  while (ocf_attention_lanes_local_bytes(wg, seg, rowg, rows, unroll, d_padded, shuffle) > local &&
         wg / 2 >= seg) {
    wg /= 2;
    while (rowg > 1 && wg / rowg < seg) /* a work-item's rows as before: smaller blocks */
      rowg /= 2, rows /= 2;
    shuffle = ocf_plan_warp_shuffles(facts, wg, seg);
  }
  const size_t join_bytes =
      ocf_attention_lanes_local_bytes(wg, seg, rowg, rows, unroll, d_padded, shuffle);
  if (join_bytes > local) return 0;
  const int wide = width.wide && wg > ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_LANES);
  const size_t slots = wg / rowg / seg;

  size_t stages = 0, bulk_keys = 0;
  int probe = 0;
  int bulk = bulk_ring(facts, t, call, vec, slots * unroll, join_bytes, shuffle, d_padded, &stages,
                       &bulk_keys, &probe);
  const size_t rblocks = ocf_div_ceil(group * lq, rows);
  const size_t base_units = (call->b ? call->b : 1) * h_kv * rblocks;
  /* The ring only where its workgroups make one wave or less before any split: one a row
     block runs a ring a compute unit at a time (H100, bf16 16 x 32 x 1 x 4096 x 128: 512
     units, 2925 GB/s through registers, 2653 in rings); and the probe asked for only then. */
  const int one_wave = base_units <= (size_t)facts->compute_units * (size_t)t->decode.bulk_fill;
  if (!one_wave) bulk = 0;
  /* Through registers each group loads the keys itself: where the row blocks pass a wave, those
     loads compete with the other workgroups' (H100, bf16 64 x 32 (8 key heads) x 1 x 2048 x 128,
     GB/s: one work-item all of a block's rows 1745, 4 groups 1460; within a wave, 1 x 32 (8) x 1
     x 8192: 783 and 787) */
  if (!one_wave && rowg > 1) return LANES_NO_GROUPS;
  if (probe && one_wave)
    plan->probe = OCF_PLAN_PROBE_WGMMA;
  else if (width.wide_probe)
    plan->probe = OCF_PLAN_PROBE_WIDE;
  size_t split_keys = 0, splits = 0;
  const size_t cus = (size_t)facts->compute_units;
  if (bulk) {
    splits = bulk_ranges(call, base_units, cus * (size_t)t->decode.bulk_fill, (size_t)t->split.min,
                         bulk_keys, &split_keys);
    if (splits == 0) return 0; /* not one range's partials within a caller's workspace */
    /* Ranges of too little work for the ring (keys times the block's rows: its first stages
       fill unhidden) stream through registers (H100, bf16 1 x 8 x 1 x 8192 x 128: 16 ranges of
       512 keys, 1279 GB/s through registers, 1148 in rings; but 1 x 32 (8 key heads) x 1 x 8192
       x 128, ranges of 512 keys of 4 rows: 783 through registers, 977 in rings of 4 groups) */
    if (splits > 1 && split_keys * rows < (size_t)t->decode.bulk_min) bulk = 0;
  }
  if (!bulk)
    splits = ocf_attention_key_ranges(call, base_units, cus * (size_t)t->decode.fill,
                                      (size_t)t->split.min, slots * unroll, &split_keys);
  if (splits == 0) return 0; /* not one range's partials within a caller's workspace */
  const size_t units = ocf_min_size(base_units * splits, (size_t)facts->compute_units * 2048);

  ocf_plan_define(plan, "WG", (long long)wg);
  ocf_plan_define(plan, "SEG", (long long)seg);
  ocf_plan_define(plan, "ROWG", (long long)rowg);
  ocf_plan_define(plan, "RB", (long long)rows);
  ocf_plan_define(plan, "VEC", (long long)vec);
  ocf_plan_define(plan, "UNROLL", (long long)unroll);
  ocf_plan_define(plan, "AHEAD", t->decode.ahead ? 1 : 0);
  ocf_plan_define(plan, "SHUFFLE", shuffle);
  const int join =
      ocf_plan_join_fences(facts, t->decode.join && (rows == 1 || t->decode.join >= 2) &&
                                      3 * splits + 1 <= slots * (d_padded + 2));
  ocf_plan_define(plan, "JOIN", join);
  ocf_plan_define(plan, "BULK", bulk);
  ocf_plan_define(plan, "STAGES", bulk ? (long long)stages : 0);
  ocf_plan_define(plan, "BULK_KEYS", bulk ? (long long)bulk_keys : 0);
  ocf_plan_define(plan, "REFILL_BEFORE", bulk ? t->decode.bulk_refill : 0);
  ocf_attention_define_call(call, d_padded, plan);
  plan->local_mem_bytes =
      join_bytes + (bulk ? ocf_attention_lanes_ring_bytes(stages, bulk_keys, d_padded,
                                                          ocf_dtype_size(call->k_dtype) +
                                                              ocf_dtype_size(call->v_dtype))
                         : 0);
  ocf_attention_add_ranges(facts, call, OCF_KERNEL_ATTENTION_LANES, OCF_KERNEL_ATTENTION_LANES_JOIN,
                           units, wg, splits, split_keys, join ? base_units : 0, plan);
  if (wide) plan->wide_workgroup = 1, plan->max_registers = width.wide_regs;
  return 1;
}

int ocf_plan_attention_lanes(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                             const ocf_attention_call *call, size_t d_padded, ocf_plan *plan) {
  if (t->decode.lanes == 0 || !ocf_attention_decodes(facts, t, call)) return 0;
  const ocf_plan blank = *plan;
  const int planned = plan_lanes(facts, t, call, d_padded, (size_t)t->decode.row_groups, plan);
  if (planned != LANES_NO_GROUPS) return planned;
  *plan = blank;
  return plan_lanes(facts, t, call, d_padded, 1, plan);
}
