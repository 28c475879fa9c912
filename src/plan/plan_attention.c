/*
 * The plan of ocf_attention: cl/attention.cl's kernels and their shapes.
 *
 *   D     the padded head dimension: d rounded up to a multiple of 16 (16 .. 256), so that one
 *         program serves the head dims of a 16-wide band and every TPR up to 16 divides it.
 *   TPR   work-items per query row: the tunable `tiled.tpr`; with a fixed workgroup size w, the
 *         largest power of two up to `tpr` that divides w.
 *   BQ    query rows a workgroup: `tiled.bq`, no more than the rows need (halved while half of it
 *         still covers lq, so that few sizes, and so few programs, serve every lq); with a fixed
 *         size, w / TPR.
 *   BK    keys a tile: `tiled.bk`, at least TPR.
 *   Local memory, 4 (BQ D + BK (D + 1) + BK D + BQ BK) bytes, must fit the device (and what
 *   built kernels reported): BK is halved (not below TPR), then BQ, then TPR (with BK; default
 *   sizes only), until it does; a fixed size whose smallest tile does not fit is
 *   OCF_ERR_INVALID_WORKGROUP.
 *   BQ * TPR work-items must fit the device's workgroup and work-item limits and the kernel's
 *   learnt limit: BQ is halved (then TPR) until they do.
 *   The grid: one workgroup per (batch, head, block of BQ rows), at most compute_units * 2048
 *   (the kernel loops over the rest).
 *   The decode split: when those workgroups are fewer than compute_units * split.fill (default
 *   size and variant only) and lk holds two splits of split.min keys, each row's keys are cut
 *   into `splits` ranges of split_keys (a multiple of BK; enough ranges to reach the target, at
 *   most lk / split.min and 1024), one workgroup each (attention_split, which writes each
 *   range's (m, s, acc) to scratch), then attention_merge joins them and writes out: two
 *   kernels, the first writing only the scratch.
 * OCF_VARIANT_GENERAL takes BQ = BK = TPR = 1: one work-item a row, one key a tile, the
 * obviously right shape of the same kernel.
 * A device whose driver ends a work-item's loops after facts->loop_limit iterations in all
 * (llvmpipe): a work-item iterates at most about 2.5 D + 8 times a key (the K and V tile loads,
 * its scores and sums, in a workgroup of one work-item; fewer in larger ones), so a row of more
 * keys than (loop_limit - LOOP_SLACK) / (2.5 D + 8) is split into ranges of at most that many
 * (BK halved to fit one), whatever the variant or workgroup size, and every workgroup and merge
 * work-item takes one unit (no grid cap). A row that would need more than 1024 ranges is
 * refused (OCF_ERR_UNSUPPORTED): a wrong answer is worse than none.
 * attention_mma's split form: where its workgroups are fewer than compute_units * mma.split_fill
 * (0: never) and lk holds two ranges of split.min keys, attention_mma_split takes each row's keys
 * in ranges (as attention_decode's, a multiple of mma's BK), then attention_mma_join.
 * attention_mma's packed units (mma.pack): grouped-query heads whose query rows are fewer than a
 * workgroup's take a key head's query heads a unit (PACK), split for mma.pack_fill workgroups a
 * compute unit; key warps (mma.key_warps, KW) share a block's rows where one block holds them.
 * The kernels are tried in order: attention_wgmma (Hopper: plan_attention_wgmma.c says when),
 * attention_lanes where decode.lanes asks (plan_attention_lanes.c; one query row a head wider
 * than 64 unless packed attention_mma comes first, else after the next), attention_mma where
 * mma.decode_fill, mma.split_fill or (packed) mma.pack_fill asks,
 * attention_decode (few query rows), attention_mma (the matrix units: plan_mma says when),
 * attention_block (GPUs), attention_tiled / attention_split.
 */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

/* attention_mma: the largest padded head dim, the emulation's local words a warp
   (cl/attention_mma_prims.clh's MMA_EMU_WORDS), and the local memory its probe is asked to show
   (the matmul probe's smallest: two stages of 16 KiB). */
enum { MMA_MAX_D = 128, MMA_EMU_WORDS = 192, MMA_PROBE_BYTES = 32 << 10 };

size_t ocf_attention_local_bytes(size_t bq, size_t bk, size_t d_padded) {
  return 4 * (bq * d_padded + bk * (d_padded + 1) + bk * d_padded + bq * bk);
}

/* The most splits of a row's keys, and the work-items of a workgroup of attention_merge. */
enum { MAX_SPLITS = 1024, MERGE_WG = 64 };

/* The most floats of K and V a work-item of attention_decode holds with decode.prefetch. */
enum { PREFETCH_FLOATS = 64 };

/* Iterations of a work-item that are not per key (the query loads, the loops' own steps, the
   merge's loops over up to MAX_SPLITS ranges), kept free under a loop limit. */
enum { LOOP_SLACK = 3 * MAX_SPLITS + 2048 };

size_t ocf_attention_decode_local_bytes(size_t rows, size_t bk, size_t d_padded, size_t spk) {
  return 4 * (rows * d_padded + bk * (2 * d_padded + 4) + rows * bk * spk) + 8 * rows;
}

/* attention_decode's work-items a score: as many as leave none idle, dividing D / 4. */
static size_t decode_spk(size_t wg, size_t rows, size_t bk, size_t d_padded) {
  size_t spk = 1;
  while (2 * spk * rows * bk <= wg && (d_padded / 4) % (2 * spk) == 0)
    spk *= 2;
  return spk;
}

/* The work-items of attention_merge's workgroup, and its grid (one work-item an element of out,
   at most cap_groups workgroups). */
void ocf_attention_add_merge(const ocf_device_facts *facts, const ocf_attention_call *call,
                             size_t cap_groups, ocf_kernel_id kernel, ocf_plan *plan) {
  size_t merge_wg =
      ocf_min_size(MERGE_WG, ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]));
  merge_wg = ocf_min_size(merge_wg, ocf_facts_workgroup_limit(facts, kernel));
  const size_t rows = (call->b ? call->b : 1) * (call->h ? call->h : 1) * call->lq;
  const size_t merge_global =
      ocf_min_size(ocf_div_ceil(rows * (call->d ? call->d : 1), merge_wg), cap_groups) * merge_wg;
  ocf_plan_step_add(plan, kernel, 1, &merge_global, &merge_wg);
}

void ocf_attention_add_ranges(const ocf_device_facts *facts, const ocf_attention_call *call,
                              ocf_kernel_id kernel, ocf_kernel_id join, size_t units, size_t wg,
                              size_t splits, size_t split_keys, size_t arrivals, ocf_plan *plan) {
  const size_t global = units * wg;
  ocf_plan_step_add(plan, kernel, 1, &global, &wg);
  if (arrivals)
    plan->arrivals = arrivals; /* `kernel` joins the ranges itself (JOIN) */
  else
    ocf_attention_add_merge(facts, call, (size_t)facts->compute_units * 2048, join, plan);
  plan->kv_splits = splits;
  plan->split_keys = split_keys;
  plan->scratch_bytes = ocf_attention_ranges_bytes(call, splits);
  plan->scratch_written = 1; /* `kernel` writes every (m, s, acc) of every range `join` reads */
}

size_t ocf_attention_ranges_bytes(const ocf_attention_call *call, size_t splits) {
  const size_t rows = (call->b ? call->b : 1) * (call->h ? call->h : 1) * (call->lq ? call->lq : 1);
  return rows * splits * (call->d + 2) * sizeof(float);
}

size_t ocf_attention_ranges_fit(const ocf_attention_call *call) {
  return ocf_min_size(
      MAX_SPLITS, ocf_scratch_ranges(&call->scratch_bound, ocf_attention_ranges_bytes(call, 1), 0));
}

size_t ocf_attention_key_ranges(const ocf_attention_call *call, size_t base_units, size_t target,
                                size_t split_min, size_t bk, size_t *split_keys) {
  const size_t lk = call->lk, most = ocf_attention_ranges_fit(call);
  *split_keys = lk;
  if (most == 0) return 0;
  size_t splits = ocf_div_ceil(target, base_units);
  splits = ocf_min_size(splits, ocf_max_size(lk / ocf_max_size(split_min, bk), 1));
  splits = ocf_min_size(splits, most);
  /* Rounded down to the tile: at least `splits` ranges. */
  size_t keys = ocf_max_size(lk / splits / bk * bk, bk);
  while (ocf_div_ceil(lk, keys) > most)
    keys += bk;
  *split_keys = keys;
  return ocf_div_ceil(lk, keys);
}

/* The storage types, masks and lse: the defines every plan sets. */
void ocf_attention_define_call(const ocf_attention_call *call, size_t d_padded, ocf_plan *plan) {
  ocf_plan_define(plan, "D", (long long)d_padded);
  ocf_plan_define(plan, "Q_DTYPE", call->q_dtype);
  ocf_plan_define(plan, "K_DTYPE", call->k_dtype);
  ocf_plan_define(plan, "V_DTYPE", call->v_dtype);
  ocf_plan_define(plan, "OUT_DTYPE", call->out_dtype);
  ocf_plan_define(plan, "HAS_LENGTHS", call->has_lengths ? 1 : 0);
  ocf_plan_define(plan, "CAUSAL", call->causal ? 1 : 0);
  ocf_plan_define(plan, "HAS_LSE", call->has_lse ? 1 : 0);
}

int ocf_attention_decodes(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                          const ocf_attention_call *call) {
  const size_t h = call->h ? call->h : 1, h_kv = call->h_kv ? call->h_kv : h;
  const size_t group = h / h_kv, lq = call->lq ? call->lq : 1;
  return call->variant == OCF_VARIANT_AUTO && !call->workgroup && !facts->loop_limit &&
         t->decode.wg != 0 && group * lq <= (size_t)t->decode.rows && call->lk >= 2;
}

/* The decode plan (attention_decode + attention_merge), or 0 when the call is not one it takes
   (ocf_attention_decodes) or local memory holds no tile. */
static int plan_decode(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                       const ocf_attention_call *call, size_t d_padded, ocf_plan *plan) {
  if (!ocf_attention_decodes(facts, t, call)) return 0;
  const size_t h = call->h ? call->h : 1, h_kv = call->h_kv ? call->h_kv : h;
  const size_t group = h / h_kv, lq = call->lq ? call->lq : 1;
  size_t rows = 1;
  while (rows < group * lq)
    rows *= 2;
  size_t wg = (size_t)t->decode.wg, bk = (size_t)t->decode.bk, cpt = (size_t)t->decode.cpt;
  size_t cap = ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]);
  cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_DECODE));
  while (wg > cap)
    wg /= 2;
  /* One key group: rows * D / cpt work-items (cpt a multiple of 4, up to 16, which divides D). */
  if (cpt < 4) cpt = 4;
  while (rows * (d_padded / cpt) > wg && cpt < 16)
    cpt *= 2;
  if (rows * (d_padded / cpt) > wg) return 0;
  const unsigned long long local = ocf_facts_local_limit(facts, OCF_PROGRAM_ATTENTION_DECODE);
  if (bk < rows) bk = rows;
  /* A prefetching work-item holds its share of a tile's K and V rows, 2 bk d / wg floats, in
     registers: at most PREFETCH_FLOATS. */
  if (t->decode.prefetch)
    while (2 * bk * d_padded > PREFETCH_FLOATS * wg && bk > rows && bk > 1)
      bk /= 2;
  while (ocf_attention_decode_local_bytes(rows, bk, d_padded, decode_spk(wg, rows, bk, d_padded)) >
             local &&
         bk > rows && bk > 1)
    bk /= 2;
  if (ocf_attention_decode_local_bytes(rows, bk, d_padded, decode_spk(wg, rows, bk, d_padded)) >
      local)
    return 0;
  /* The key groups' partials are joined in the tiles' local memory: fewer work-items (not below
     one key group) until they fit. */
  while ((wg / (rows * (d_padded / cpt))) * rows * (d_padded + 2) > bk * (2 * d_padded + 4) &&
         wg / 2 >= rows * (d_padded / cpt))
    wg /= 2;
  if ((wg / (rows * (d_padded / cpt))) * rows * (d_padded + 2) > bk * (2 * d_padded + 4)) return 0;
  const size_t spk = decode_spk(wg, rows, bk, d_padded);
  const int prefetch = t->decode.prefetch && 2 * bk * d_padded <= PREFETCH_FLOATS * wg;
  size_t vec = call->kv_vector ? call->kv_vector : 1;
  if (call->k_dtype == OCF_F32 || call->v_dtype == OCF_F32) vec = ocf_min_size(vec, 4);
  while ((call->d ? call->d : 1) % vec)
    vec /= 2;

  const size_t rblocks = ocf_div_ceil(group * lq, rows);
  const size_t base_units = (call->b ? call->b : 1) * h_kv * rblocks;
  size_t split_keys;
  const size_t splits = ocf_attention_key_ranges(
      call, base_units, (size_t)facts->compute_units * (size_t)t->decode.fill, (size_t)t->split.min,
      bk, &split_keys);
  if (splits == 0) return 0; /* not one range's partials within a caller's workspace */
  const size_t units = ocf_min_size(base_units * splits, (size_t)facts->compute_units * 2048);

  ocf_plan_define(plan, "BK", (long long)bk);
  ocf_plan_define(plan, "DWG", (long long)wg);
  ocf_plan_define(plan, "CPT", (long long)cpt);
  ocf_plan_define(plan, "RB", (long long)rows);
  ocf_plan_define(plan, "VEC", (long long)vec);
  ocf_plan_define(plan, "SPK", (long long)spk);
  ocf_plan_define(plan, "PREFETCH", prefetch);
  ocf_attention_define_call(call, d_padded, plan);
  plan->local_mem_bytes = ocf_attention_decode_local_bytes(rows, bk, d_padded, spk);
  ocf_attention_add_ranges(facts, call, OCF_KERNEL_ATTENTION_DECODE, OCF_KERNEL_ATTENTION_JOIN,
                           units, wg, splits, split_keys, 0, plan);
  return 1;
}

/* An NVIDIA GPU: where the matrix-unit probe runs, and so where attention_mma's and
   attention_block's plans may take the local memory it showed. */
static int nvidia_gpu(const ocf_device_facts *facts) {
  return facts->vendor == OCF_VENDOR_NVIDIA && (facts->type & CL_DEVICE_TYPE_GPU);
}

/* The bytes the matrix-unit probe is to run for a plan that needs `need` bytes of local memory,
   more than `local` allows (attention_mma's with mma.local, attention_block's with block.local):
   whole 16 KiB stages of the probe's geometry, two at least (src/plan/plan_matmul_mma.c's), where
   that is within what the probe can show (8 stages), more than it showed and below any size that
   failed; else 0 (nothing to ask). */
static size_t mma_probe_ask(const ocf_device_facts *facts, size_t need, unsigned long long local) {
  if (need <= local) return 0;
  const size_t stage = (size_t)16 << 10;
  const size_t want = ocf_max_size(ocf_round_up(need, stage), 2 * stage);
  const unsigned long long failed = facts->learnt.mma_local_failed;
  if (want > 8 * stage || want <= facts->learnt.mma_local_ok || (failed && want >= failed))
    return 0;
  return want;
}

/* The local memory a plan of `program` may take for tiles of `need` bytes: with `beyond`
   (mma.local or block.local on an NVIDIA GPU) what the matrix-unit probe ran right with on the
   context, *ask the probe to run for `need` (mma_probe_ask; 0: none); else the reported size,
   *ask 0. */
static unsigned long long probed_local(const ocf_device_facts *facts, ocf_program_id program,
                                       int beyond, size_t need, size_t *ask) {
  *ask = 0;
  if (!beyond) return ocf_facts_reported_local_limit(facts, program);
  const unsigned long long local = ocf_facts_local_limit(facts, program);
  *ask = mma_probe_ask(facts, need, local);
  return local;
}

size_t ocf_attention_block_local_bytes(size_t bq, size_t bk, size_t d_padded) {
  return 4 * (bq * d_padded + bk * (d_padded + 4) + ocf_round_up(bq * (bk + 1), 4));
}

/* The register-blocked plan (attention_block), or 0 when the call is not one it takes: a
   default variant and size, no loop limit, block.bq > 0 (CPUs: 0, builtin.tuning), at most 32
   columns of out a work-item, local memory for a tile: the device's reported size, or with
   block.local on an NVIDIA GPU what the matrix-unit probe ran right with on the context. Where
   the tuning's tiles need more than that and a probe of them may still pass (compute capability
   8.0 on, the probe not failed, at most its 128 KiB, below any size that failed), *probe_bytes
   asks for it (the larger of that and what it asked already); the plan is made within what ran
   so far, bk halved first, then bq. */
static int plan_block(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                      const ocf_attention_call *call, size_t d_padded, ocf_plan *plan,
                      size_t *probe_bytes) {
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup || facts->loop_limit || t->block.bq == 0)
    return 0;
  const size_t lq = call->lq ? call->lq : 1;
  size_t bq = (size_t)t->block.bq, bk = (size_t)t->block.bk, rm = (size_t)t->block.rm;
  size_t tc = (size_t)t->block.tc;
  while (tc > 1 && (d_padded % (4 * tc) || bk % tc))
    tc /= 2;
  if (d_padded % (4 * tc) || d_padded / tc > 32 || bk % tc || bk % 4) return 0;
  while (bq > rm && bq / 2 >= lq)
    bq /= 2;
  if (rm > bq) rm = bq;
  size_t cap = ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]);
  cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_BLOCK));
  while (bq / rm * tc > cap && bq > rm)
    bq /= 2;
  const int beyond = t->block.local && nvidia_gpu(facts) && facts->nv_compute_capability >= 80 &&
                     facts->learnt.mma != OCF_PROBE_FAILED;
  size_t want = 0;
  const unsigned long long local =
      probed_local(facts, OCF_PROGRAM_ATTENTION_BLOCK, beyond,
                   ocf_attention_block_local_bytes(bq, bk, d_padded), &want);
  if (want > *probe_bytes) *probe_bytes = want;
  while (ocf_attention_block_local_bytes(bq, bk, d_padded) > local) {
    if (bk / 2 >= tc && bk / 2 >= 4 && (bk / 2) % tc == 0)
      bk /= 2;
    else if (bq > rm)
      bq /= 2;
    else
      return 0;
  }
  if (bq / rm * tc > cap) return 0;
  const size_t wg = bq / rm * tc;
  const size_t blocks = ocf_div_ceil(lq, bq);
  const size_t units = ocf_min_size((call->b ? call->b : 1) * (call->h ? call->h : 1) * blocks,
                                    (size_t)facts->compute_units * 2048);
  ocf_plan_define(plan, "BQ", (long long)bq);
  ocf_plan_define(plan, "BK", (long long)bk);
  ocf_plan_define(plan, "RM", (long long)rm);
  ocf_plan_define(plan, "TC", (long long)tc);
  ocf_attention_define_call(call, d_padded, plan);
  const size_t global = units * wg;
  plan->local_mem_bytes = ocf_attention_block_local_bytes(bq, bk, d_padded);
  ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_BLOCK, 1, &global, &wg);
  plan->kv_splits = 1;
  plan->split_keys = call->lk;
  return 1;
}

/* attention_mma's tile row: 16-bit elements in swizzled 16-byte chunks, or fp32 in d + 4 words. */
static size_t mma_row_bytes(const ocf_attention_mma_shape *s, size_t d_padded) {
  const size_t dch = d_padded / 8;
  return s->precision ? (d_padded + 4) * 4
         : dch <= 2   ? 32
         : dch <= 4   ? 64
                      : ocf_round_up(dch, 8) * 16;
}

static size_t mma_key_warps(const ocf_attention_mma_shape *s) {
  return s->key_warps ? s->key_warps : 1;
}

size_t ocf_attention_mma_local_bytes(const ocf_attention_mma_shape *s, size_t d_padded,
                                     int emulate) {
  /* The Q tile: 3XTF32 holds Q's big and small parts, a tile each. */
  const size_t q_rows = s->q_local ? s->warps * s->rows * (s->precision == 2 ? 2 : 1) : 0;
  return (2 * s->stages * s->bk + q_rows) * mma_row_bytes(s, d_padded) +
         (emulate ? s->warps * mma_key_warps(s) * MMA_EMU_WORDS * 4 : 0);
}

/* Whether attention_mma's key warps fit the tiles: each takes a multiple of 16 of a tile's keys,
   and the states of all but the first (a lane's m and l of its rows and its part of O: 4 RG +
   4 RG D / 8 floats, RG = rows / 16) fit the stages' local memory they are joined in
   (cl/attention_mma_nv.cl's combine_key_warps). */
static int mma_key_warps_fit(const ocf_attention_mma_shape *s, size_t d_padded) {
  const size_t kw = mma_key_warps(s), rg = s->rows / 16;
  const size_t states = (kw - 1) * s->warps * 32 * (4 * rg + 4 * rg * (d_padded / 8)) * 4;
  return s->bk % (16 * kw) == 0 && states <= 2 * s->stages * s->bk * mma_row_bytes(s, d_padded);
}

/* attention_mma's outcome: planned, not taken, or not taken until the matrix units' probe has
   run on the context (src/runtime/mma_probe.c: the matmul kernel's, which shows that this
   device's compiler takes the inline PTX and its mma.sync computes right). */
enum { MMA_NOT_TAKEN = 0, MMA_PLANNED = 1, MMA_WANTS_PROBE = 2 };

/* attention_mma's warps a workgroup and rows a warp for `rows` rows a unit: mma.warps, halved
   while half of them hold the rows; mma.rows, 16 where one warp of 16 holds them. */
static void mma_rows_of(const ocf_attention_tuning *t, size_t rows, size_t *warps,
                        size_t *warp_rows) {
  *warp_rows = t->mma.rows == 32 ? 32 : 16;
  *warps = (size_t)t->mma.warps;
  while (*warps > 1 && *warp_rows * (*warps / 2) >= rows)
    *warps /= 2;
  if (*warps == 1 && rows <= 16) *warp_rows = 16;
}

/* The query heads that share a key head. */
static size_t query_group(const ocf_attention_call *call) {
  const size_t h = call->h ? call->h : 1;
  return h / (call->h_kv ? call->h_kv : h);
}

/* attention_mma's query heads a unit (PACK): with mma.pack, every query head of a key head where
   one head's rows are fewer than the tuning's workgroup holds (grouped-query decoding: a block of
   16 rows held one of them, and K and V were read once a query head); else 1. */
static size_t mma_unit_heads(const ocf_attention_tuning *t, const ocf_attention_call *call) {
  const size_t group = query_group(call), lq = call->lq ? call->lq : 1;
  const size_t block = (t->mma.rows == 32 ? 32 : 16) * (size_t)t->mma.warps;
  return t->mma.pack > 0 && group > 1 && lq < block ? group : 1;
}

/* The workgroups a compute unit attention_mma's key ranges aim at: mma.pack_fill for packed
   calls, else mma.split_fill (0: no ranges). */
static size_t mma_split_fill(const ocf_attention_tuning *t, size_t unit_heads) {
  return (size_t)(unit_heads > 1 ? t->mma.pack_fill : t->mma.split_fill);
}

/* attention_mma's workgroups: one per (batch, unit of unit_heads query heads, block of
   block_rows of the unit's rows). */
static size_t mma_units(const ocf_attention_call *call, size_t unit_heads, size_t block_rows) {
  const size_t lq = call->lq ? call->lq : 1;
  return (call->b ? call->b : 1) * (call->h ? call->h : 1) / unit_heads *
         ocf_div_ceil(unit_heads * lq, block_rows);
}

/* The matrix-unit plan (attention_mma): a default variant and size, mma.on, q, k and v of one
   16-bit type, or fp32 with a precision of TF32 or 3XTF32 (the caller's leave to round them),
   d <= 128, no loop limit; on NVIDIA compute capability >= 8.0 after the probe
   passed (MMA_EMULATE 0), elsewhere with mma.on 2 (MMA_EMULATE 1); local memory for mma.stages
   stages of a K and a V tile (and the Q tile with mma.q_local): fewer stages, then bk halved
   (not below 16), then Q in registers (with the tuning's stages and bk again), until they fit
   the device's reported size, or with mma.local on NVIDIA the
   most the matrix-unit probe ran right with on the context. Where the tuning's own tiles need
   more than that, and a probe of them may still pass (not above 8 of its 16 KiB stages, below
   any size that failed), *probe_bytes asks for it (the plan is made within what ran so far). */
static int plan_mma(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                    const ocf_attention_call *call, size_t d_padded, ocf_plan *plan,
                    size_t *probe_bytes) {
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup || facts->loop_limit || t->mma.on == 0)
    return MMA_NOT_TAKEN;
  if ((call->q_dtype == OCF_F32 && call->precision == OCF_PRECISION_FP32) ||
      call->k_dtype != call->q_dtype || call->v_dtype != call->q_dtype || d_padded > MMA_MAX_D)
    return MMA_NOT_TAKEN;
  const int nvidia = nvidia_gpu(facts);
  if (nvidia) {
    if (facts->nv_compute_capability < 80 || facts->learnt.mma == OCF_PROBE_FAILED)
      return MMA_NOT_TAKEN;
    if (facts->learnt.mma != OCF_PROBE_PASSED) return MMA_WANTS_PROBE;
  } else if (t->mma.on != 2) {
    return MMA_NOT_TAKEN;
  }
  const int emulate = !nvidia;
  const size_t unit_heads = mma_unit_heads(t, call);
  const size_t unit_rows = unit_heads * (call->lq ? call->lq : 1);
  ocf_attention_mma_shape shape;
  mma_rows_of(t, unit_rows, &shape.warps, &shape.rows);
  shape.bk = (size_t)t->mma.bk;
  shape.stages = t->mma.stages == 3 ? 3 : 2;
  shape.q_local = t->mma.q_local ? 1 : 0;
  shape.precision = call->q_dtype == OCF_F32 ? (int)call->precision : 0;
  size_t cap = ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]);
  cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_MMA));
  const size_t fill = mma_split_fill(t, unit_heads);
  if (fill > 0)
    cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_MMA_SPLIT));
  while (shape.warps > 1 && 32 * shape.warps > cap)
    shape.warps /= 2;
  if (32 * shape.warps > cap) return MMA_NOT_TAKEN;
  /* Key warps where one block holds the unit's rows (decoding: its row warps are few), all the
     warps within 8 and the device's workgroup. */
  shape.key_warps = 1;
  if (unit_rows <= shape.rows * shape.warps) {
    shape.key_warps = (size_t)t->mma.key_warps;
    while (shape.key_warps > 1 &&
           (shape.warps * shape.key_warps > 8 || 32 * shape.warps * shape.key_warps > cap))
      shape.key_warps /= 2;
  }
  /* The local memory: the reported size, or with mma.local (NVIDIA) what the probe ran. */
  const int beyond = nvidia && t->mma.local;
  size_t ask = 0;
  const unsigned long long local =
      probed_local(facts, OCF_PROGRAM_ATTENTION_MMA_NV, beyond,
                   ocf_attention_mma_local_bytes(&shape, d_padded, 0), &ask);
  /* Q's tile(s) do not shrink with the K and V tiles: where even 16-key tiles leave no room for
     them (fp32 Q in two parts: 2 BQ (D + 4) 4 bytes), Q's fragments go to the registers and the
     tuning's tiles are fitted again. */
  const ocf_attention_mma_shape tuned = shape;
  while (ocf_attention_mma_local_bytes(&shape, d_padded, emulate) > local) {
    if (shape.stages > 2) {
      shape.stages--;
    } else if (shape.bk > 16) {
      shape.bk /= 2;
    } else if (shape.q_local) {
      shape = tuned;
      shape.q_local = 0;
    } else {
      return MMA_NOT_TAKEN;
    }
  }
  while (shape.key_warps > 1 && !mma_key_warps_fit(&shape, d_padded))
    shape.key_warps /= 2;
  const size_t warps = shape.warps, bk = shape.bk;
  const size_t wg = 32 * warps * shape.key_warps;
  const size_t base_units = mma_units(call, unit_heads, shape.rows * warps);
  /* The split form: fewer workgroups than `fill` a compute unit (mma.split_fill, or packed
     mma.pack_fill), and keys for two ranges of split.min: each row's keys in ranges (as
     attention_decode's, aiming at `fill` workgroups a compute unit), one workgroup each, then
     attention_mma_join. */
  const size_t target = (size_t)facts->compute_units * fill;
  size_t splits = 1, split_keys = call->lk;
  if (fill > 0 && base_units < target && t->split.min > 0 && call->lk / (size_t)t->split.min >= 2)
    splits =
        ocf_attention_key_ranges(call, base_units, target, (size_t)t->split.min, bk, &split_keys);
  if (splits < 2) splits = 1, split_keys = call->lk;
  const size_t units = ocf_min_size(base_units * splits, (size_t)facts->compute_units * 2048);
  ocf_plan_define(plan, "WARPS", (long long)(warps * shape.key_warps));
  ocf_plan_define(plan, "KW", (long long)shape.key_warps);
  ocf_plan_define(plan, "ROWS", (long long)shape.rows);
  ocf_plan_define(plan, "Q_LOCAL", (long long)shape.q_local);
  ocf_plan_define(plan, "STAGES", (long long)shape.stages);
  ocf_plan_define(plan, "REMAT", t->mma.remat ? 1 : 0);
  ocf_plan_define(plan, "BK", (long long)bk);
  /* cp.async of 16 bytes: every K and V row start 16-byte aligned (kv_vector: d, the offsets and
     the strides multiples of 16 bytes' elements: 8 at 16 bits, 4 in fp32). */
  const size_t chunk_elements = call->q_dtype == OCF_F32 ? 4 : 8;
  ocf_plan_define(plan, "KV_LOAD", call->kv_vector >= chunk_elements ? 16 : 0);
  ocf_plan_define(plan, "MMA_EMULATE", emulate);
  ocf_plan_define(plan, "MMA_DTYPE", call->q_dtype);
  ocf_plan_define(plan, "PRECISION", shape.precision);
  ocf_plan_define(plan, "PACK", unit_heads > 1);
  /* mma.join: the split's last range of a block joins it, the ranges' statistics (3 splits + 1
     floats a row of the block) in the tiles' local memory; 1 only for blocks of one query row
     (on the H200 blocks of 4 and 16 rows lost 17 and 90 % joined: docs/ATTENTION.md). */
  const size_t block_rows = ocf_min_size(shape.rows * warps, unit_rows);
  const int join = ocf_plan_join_fences(
      facts,
      splits >= 2 && t->mma.join && (block_rows == 1 || t->mma.join >= 2) &&
          4 * block_rows * (3 * splits + 1) <= ocf_attention_mma_local_bytes(&shape, d_padded, 0));
  ocf_plan_define(plan, "JOIN", join);
  ocf_attention_define_call(call, d_padded, plan);
  const size_t global = units * wg;
  plan->local_mem_bytes = ocf_attention_mma_local_bytes(&shape, d_padded, emulate);
  *probe_bytes = ask;
  if (splits < 2) {
    ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_MMA, 1, &global, &wg);
    plan->kv_splits = 1;
    plan->split_keys = call->lk;
    return MMA_PLANNED;
  }
  /* Joined: a counter a (batch, head, block of rows). */
  ocf_attention_add_ranges(facts, call, OCF_KERNEL_ATTENTION_MMA_SPLIT,
                           OCF_KERNEL_ATTENTION_MMA_JOIN, units, wg, splits, split_keys,
                           join ? base_units : 0, plan);
  return MMA_PLANNED;
}

/* attention_heads's local memory: HG query rows and their scores of a tile. */
static size_t heads_local_bytes(size_t hg, size_t bk, size_t d_padded) {
  return 4 * hg * (d_padded + bk);
}

/* The query heads attention_tiled decodes together (HG, cl/attention.cl's attention_heads): up
   to tiled.heads of one key head where one work-item takes a query row whole from K and V as
   they lie (tpr 1, tiles of whole vectors, the one query row of a decoding step) and d is whole
   vectors, as many as divide the group, fit local memory and leave a workgroup for every compute
   unit; 1 under a loop limit (a key's steps grow with the heads), a fixed workgroup size or
   another variant. On PoCL (2 cores), 1 x 32 heads x 1 x 4096 x 128 fp32 with 8 key heads read
   K and V once instead of four times (docs/ATTENTION.md, "Grouped heads on CPUs"). */
static size_t heads_together(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                             const ocf_attention_call *call, size_t bq, size_t bk, size_t tpr,
                             size_t d_padded, unsigned long long local) {
  const size_t b = call->b ? call->b : 1, h = call->h ? call->h : 1;
  const size_t group = h / (call->h_kv ? call->h_kv : h);
  if (t->tiled.heads < 2 || group < 2 || tpr != 1 || bk % 16 || bq != 1 || call->lq != 1 ||
      call->d != d_padded || facts->loop_limit || call->workgroup ||
      call->variant != OCF_VARIANT_AUTO)
    return 1;
  size_t hg = ocf_min_size((size_t)t->tiled.heads, group);
  while (hg > 1 && (group % hg || b * h / hg < (size_t)facts->compute_units ||
                    heads_local_bytes(hg, bk, d_padded) > local))
    hg--;
  return hg;
}

/* The plan; *probe_bytes (0: none): the local memory the matrix units' probe is to run, where
   attention_mma waits for it (the plan is another's) or asks for more (mma.local). */
static ocf_status plan_kernels(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                               const ocf_attention_call *call, ocf_plan *plan, size_t *probe_bytes,
                               int *wgmma_probe) {
  const ocf_attention_tuning *t = &tuning->attention;
  const size_t d_padded = ocf_round_up(call->d ? call->d : 1, 16);
  /* Hopper's warpgroup units first (calls of wgmma.min_lq query rows or more, never a decoding
     step); until the wgmma probe has run, the next plan asks for it. */
  const ocf_mma_outcome wgmma = ocf_plan_attention_wgmma(facts, t, call, plan);
  if (wgmma == OCF_MMA_PLANNED) return ocf_plan_verify(plan, facts);
  *wgmma_probe = wgmma == OCF_MMA_PROBE;
  /* attention_lanes, where decode.lanes asks for it, takes the calls attention_decode would:
     before the matrix units' routes below for one query row a head with heads wider than 64
     (there attention_mma's 16-row tiles hold one row; H200, bf16, GB/s of K and V, attention_mma
     or its split -> attention_lanes: 1 x 32 x 1 x 8192 x 128 1995 -> 2075, 16 x 32 x 1 x 4096 x
     128 3568 -> 3785, 1 x 32 x 1 x 32768 x 128 2486 -> 2997, 1 x 32 (8 key heads) x 1 x 8192 x
     128 483 -> 756), after them otherwise (at d 64 1591 -> 1454; with 4 query rows a head the
     matrix units take the rows' products: 1991 -> 1033). */
  /* Grouped heads packed into attention_mma's blocks (mma.pack) come first from mma.pack query
     rows a key head (H100, bf16, GB/s of K and V, attention_lanes -> packed attention_mma: 1 x 40
     (8 key heads) x 1 x 8192 x 128, 5 rows, 714 -> 906; 1 x 64 (8), 8 rows, 667 -> 903; 1 x 32
     (8) x 4 x 8192 x 128, 16 rows, 288 -> 834; with 4 rows a key head attention_lanes's row
     groups led: 1 x 32 (8) x 1 x 8192 985 against 914, 4 x 32 (8) 1774 against 1700), and where
     attention_lanes would hold a key head's rows in one work-item (no row groups past a wave:
     64 x 32 (8) x 1 x 2048 1739 -> 2279). */
  const size_t lq = call->lq ? call->lq : 1;
  const size_t mma_heads = mma_unit_heads(t, call);
  const int packed_first = mma_heads > 1 && query_group(call) * lq >= (size_t)t->mma.pack;
  const int lanes_first = lq == 1 && d_padded > 64 && !packed_first;
  if (lanes_first) {
    memset(plan, 0, sizeof *plan);
    plan->program = OCF_PROGRAM_ATTENTION_LANES;
    if (ocf_plan_attention_lanes(facts, t, call, d_padded, plan)) {
      if (mma_heads == 1 || ocf_plan_define_value(plan, "ROWG", 1) > 1 ||
          ocf_plan_define_value(plan, "RB", 1) < 2)
        return ocf_plan_verify(plan, facts);
      const ocf_plan lanes = *plan;
      memset(plan, 0, sizeof *plan);
      plan->program = OCF_PROGRAM_ATTENTION_MMA_NV;
      const int packed = plan_mma(facts, t, call, d_padded, plan, probe_bytes);
      if (packed == MMA_PLANNED) return ocf_plan_verify(plan, facts);
      *plan = lanes;
      *probe_bytes = packed == MMA_WANTS_PROBE ? MMA_PROBE_BYTES : 0;
      return ocf_plan_verify(plan, facts);
    }
  }
  /* attention_mma before attention_decode where its workgroups fill the device (H200, 16 x 32
     heads x 1 x 4096 x 128 bf16: 512 workgroups of one warp read K and V at 3602 GB/s, against
     attention_decode's 1202; 1 x 32 heads: 32 workgroups, 263 against 856). */
  size_t mma_warps, mma_rows;
  mma_rows_of(t, mma_heads * lq, &mma_warps, &mma_rows);
  const size_t mma_groups = mma_units(call, mma_heads, mma_rows * mma_warps);
  const size_t cus = (size_t)facts->compute_units, fill = mma_split_fill(t, mma_heads);
  /* ... and where its split form runs (fewer workgroups than mma.split_fill a compute unit):
     1 x 32 heads x 1 x 8192 x 128 bf16 split into key ranges 1854 GB/s, attention_decode's 832
     (H200, 2026-12-02). */
  const int mma_fills = t->mma.decode_fill > 0 && mma_groups >= (size_t)t->mma.decode_fill * cus;
  const int mma_splits = fill > 0 && mma_groups < fill * cus && t->split.min > 0 &&
                         call->lk / (size_t)t->split.min >= 2;
  if (mma_fills || mma_splits) {
    memset(plan, 0, sizeof *plan);
    plan->program = OCF_PROGRAM_ATTENTION_MMA_NV;
    const int first = plan_mma(facts, t, call, d_padded, plan, probe_bytes);
    if (first == MMA_PLANNED) return ocf_plan_verify(plan, facts);
    /* Until the probe has run, the call takes the next plan and asks for it. */
    if (first == MMA_WANTS_PROBE) *probe_bytes = MMA_PROBE_BYTES;
  }
  if (!lanes_first) {
    memset(plan, 0, sizeof *plan);
    plan->program = OCF_PROGRAM_ATTENTION_LANES;
    if (ocf_plan_attention_lanes(facts, t, call, d_padded, plan))
      return ocf_plan_verify(plan, facts);
  }
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_ATTENTION_DECODE;
  if (plan_decode(facts, t, call, d_padded, plan)) return ocf_plan_verify(plan, facts);
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_ATTENTION_MMA_NV;
  const int mma = plan_mma(facts, t, call, d_padded, plan, probe_bytes);
  if (mma == MMA_PLANNED) return ocf_plan_verify(plan, facts);
  *probe_bytes = mma == MMA_WANTS_PROBE ? MMA_PROBE_BYTES : 0;
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_ATTENTION_BLOCK;
  if (plan_block(facts, t, call, d_padded, plan, probe_bytes)) return ocf_plan_verify(plan, facts);
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_ATTENTION;
  plan->fixed_workgroup = call->workgroup != 0;
  if (call->workgroup > facts->max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "workgroup of %zu work-items exceeds the device's maximum of %zu",
                    call->workgroup, facts->max_workgroup_size);
  size_t tpr = (size_t)t->tiled.tpr, bq = (size_t)t->tiled.bq, bk = (size_t)t->tiled.bk;
  if (call->variant == OCF_VARIANT_GENERAL) tpr = bq = bk = 1;
  if (call->workgroup) {
    while (call->workgroup % tpr != 0)
      tpr /= 2;
    bq = call->workgroup / tpr;
  } else {
    while (bq > 1 && bq / 2 >= lq)
      bq /= 2;
    /* The device's and the kernel's limits on work-items. */
    size_t cap = ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]);
    cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_TILED));
    while (bq * tpr > cap && bq > 1)
      bq /= 2;
    while (bq * tpr > cap && tpr > 1)
      tpr /= 2;
  }
  if (bk < tpr) bk = tpr;
  const unsigned long long local = ocf_facts_local_limit(facts, OCF_PROGRAM_ATTENTION);
  /* Smaller tiles until local memory fits: BK down to TPR, then (default sizes only) BQ, then
     TPR with BK. */
  while (ocf_attention_local_bytes(bq, bk, d_padded) > local) {
    if (bk > tpr)
      bk /= 2;
    else if (!call->workgroup && bq > 1)
      bq /= 2;
    else if (!call->workgroup && tpr > 1)
      tpr /= 2, bk = tpr;
    else
      break;
  }
  if (ocf_attention_local_bytes(bq, bk, d_padded) > local)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "attention: %zu query rows of head dim %zu a workgroup need %zu bytes of local "
                    "memory, the device has %llu",
                    bq, call->d, ocf_attention_local_bytes(bq, bk, d_padded), local);
  /* The keys one work-item may take under the device's loop limit (0: no limit). */
  size_t loop_keys = 0;
  if (facts->loop_limit) {
    const size_t per_key = (5 * d_padded) / 2 + 8;
    loop_keys = facts->loop_limit > LOOP_SLACK ? (facts->loop_limit - LOOP_SLACK) / per_key : 0;
    while (bk > loop_keys && bk > tpr)
      bk /= 2;
    if (loop_keys < bk || ocf_div_ceil(call->lk, loop_keys / bk * bk) > MAX_SPLITS)
      return ocf_fail(OCF_ERR_UNSUPPORTED,
                      "attention: rows of %zu keys of head dim %zu pass this device's loop limit "
                      "(%lu iterations a work-item; it would end the loops early and give wrong "
                      "results) even in %d ranges",
                      call->lk, call->d, facts->loop_limit, MAX_SPLITS);
    loop_keys = loop_keys / bk * bk;
  }

  const size_t wg = bq * tpr;
  const size_t blocks = ocf_div_ceil(lq, bq);
  const size_t hg = heads_together(facts, t, call, bq, bk, tpr, d_padded, local);
  const size_t base_units = (call->b ? call->b : 1) * (call->h ? call->h : 1) / hg * blocks;
  size_t cap_groups = (size_t)facts->compute_units * 2048;

  /* The decode split: too few units to fill the device, and keys enough for two splits. */
  size_t splits = 1, split_keys = 0;
  const size_t target = (size_t)facts->compute_units * (size_t)t->split.fill;
  const size_t split_min = (size_t)t->split.min;
  if (call->variant == OCF_VARIANT_AUTO && !call->workgroup && base_units < target &&
      call->lk / split_min >= 2) {
    splits = ocf_min_size(ocf_min_size(ocf_div_ceil(target, base_units), call->lk / split_min),
                          ocf_max_size(ocf_attention_ranges_fit(call), 1));
    split_keys = ocf_round_up(ocf_div_ceil(call->lk, splits), bk);
    splits = ocf_div_ceil(call->lk, split_keys);
  }
  if (loop_keys && (splits > 1 ? split_keys : call->lk) > loop_keys) {
    split_keys = loop_keys;
    splits = ocf_div_ceil(call->lk, split_keys);
  }
  if (loop_keys) cap_groups = SIZE_MAX; /* a workgroup (and a merge work-item) one unit */
  const size_t units = ocf_min_size(base_units * splits, cap_groups);

  ocf_plan_define(plan, "BQ", (long long)bq);
  ocf_plan_define(plan, "BK", (long long)bk);
  ocf_plan_define(plan, "TPR", (long long)tpr);
  ocf_plan_define(plan, "HG", (long long)hg);
  ocf_attention_define_call(call, d_padded, plan);
  const size_t global = units * wg;
  plan->local_mem_bytes =
      hg > 1 ? heads_local_bytes(hg, bk, d_padded) : ocf_attention_local_bytes(bq, bk, d_padded);
  if (splits < 2) {
    ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_TILED, 1, &global, &wg);
    plan->kv_splits = 1;
    plan->split_keys = call->lk;
    return ocf_plan_verify(plan, facts);
  }
  ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_SPLIT, 1, &global, &wg);
  ocf_attention_add_merge(facts, call, cap_groups, OCF_KERNEL_ATTENTION_MERGE, plan);
  plan->kv_splits = splits;
  plan->split_keys = split_keys;
  plan->scratch_bytes = ocf_attention_ranges_bytes(call, splits);
  plan->scratch_written = 1; /* attention_split writes every (m, s, acc) attention_merge reads */
  return ocf_plan_verify(plan, facts);
}

ocf_status ocf_plan_attention(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                              const ocf_attention_call *call, ocf_plan *plan) {
  size_t probe_bytes = 0;
  int wgmma_probe = 0;
  const ocf_status status = plan_kernels(facts, tuning, call, plan, &probe_bytes, &wgmma_probe);
  if (status == OCF_SUCCESS && wgmma_probe) {
    plan->probe = OCF_PLAN_PROBE_WGMMA; /* first: its plans come before attention_mma's */
  } else if (status == OCF_SUCCESS && probe_bytes) {
    plan->probe = OCF_PLAN_PROBE_MMA;
    plan->probe_bytes = probe_bytes;
  }
  return status;
}
