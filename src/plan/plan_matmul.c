/*
 * The plan of ocf_matmul. The rules, in order:
 *
 *   1. OCF_VARIANT_BASELINE: matmul_naive. OCF_VARIANT_GENERAL: matmul_tiled (guarded) with the
 *      tile set of rule 4, never split.
 *   2a. 16-bit A and B with C's short side at most few.max (64), few.on set: the few-row
 *      matrix-unit kernels of cl/matmul_few_mma.cl where plan_matmul_few.c takes the call
 *      (NVIDIA after the mma probe; emulated elsewhere with few.on 2); while the probe is due,
 *      the plan of the rules below with `probe` set.
 *   2. C with at most skinny_max columns or rows (the short side at most 16) and at least
 *      skinny_long_min on its long side, unless 16-bit inputs go to the wgmma kernel (it applies
 *      and its probe has not failed: rule 3, which beats these on Hopper; likewise rule 2a's
 *      few-row kernels): the skinny kernels of cl/matmul_skinny.cl, which
 *      stream the large operand once (smaller C's, batches of tiny matrices say, keep the
 *      small tile sets). The short side
 *      becomes Y's columns (operands swapped when it is m). Their K is split into ranges of at
 *      least sk_split_min when the row blocks of the whole batch give fewer than sk_fill
 *      workgroups per compute unit: matmul_skinny_split, then matmul_skinny_reduce, or, for a
 *      short side of at most skinny.join where the device orders a join (ocf_plan_join_fences),
 *      the two in one launch, matmul_skinny_join (arrival counters, one a row block of each
 *      product). A short side of at least sk_wide_min takes the wide path (WIDE, sk_rl_w row
 *      lanes) when its staging fits in local memory.
 *   3. TF32 and fp16/bf16 inputs on Hopper's warpgroup matrix units where their probe passed
 *      (cl/matmul_wgmma_nv.cl, planned by plan_matmul_wgmma.c), or 3XTF32 and the other TF32
 *      calls there through a staging step (its rule 4), then
 *      TF32, 3XTF32 and fp16/bf16 inputs on NVIDIA's matrix units where a probe found them:
 *      cl/matmul_mma_nv.cl, planned by plan_matmul_mma.c (its own rules there); while the probe
 *      is due, the plan of rule 4 with `probe` set.
 *   4. Otherwise the tiled kernels of cl/matmul.cl. The tile sets are tried largest first; a set
 *      is taken when its tiles over the whole batch give at least `fill` workgroups per compute
 *      unit and at least min_eff % of its padded tiles are C. A set that falls short of the fill
 *      is still taken, with K split, when K holds two ranges of split_k_min and at least two
 *      splits fit in split_fill workgroups per compute unit: as many splits as fit (at most
 *      split_max of them, each at least split_k_min long), or, where their workgroups fill less
 *      than tiled.wave_min % of one wave, the fewest more that fill it, each at least
 *      tiled.wave_k_min long; a split that no count fills so passes the set over for a later
 *      one, and stands only where no later set is taken (256 x 256 x 4096: 4 tiles of 128 x
 *      128 in 16 ranges fill 48 %, 16 of 64 x 64 in 7 ranges 84 %); else the next set is
 *      tried. The fallback is the last set in use that passed min_eff or, where none did, the
 *      one with the most of C in its padded tiles (the larger of equals). A set taken unsplit whose
 *      workgroups fill less than tiled.wave_min % of their whole waves (0 in the schema: never;
 *      tiled.few_wave_min where they make at most tiled.few_waves waves) has K split into the
 *      fewest ranges, each at least tiled.wave_k_min and at most split_max of them, whose
 *      workgroups fill that much (none: unsplit). matmul_tiled_fast when every
 *      tile is whole (m, n, k multiples of the tile and K slice), matmul_tiled_mixed otherwise;
 *      with tiled.rim (0 in the schema, NVIDIA 1: docs/GEMM.md), matmul_tiled_mixed
 *      and rule 5's matmul_tiled_pad run whole tiles and rim tiles in two bodies (RIM=1), and
 *      with tiled.rim 2 (unmeasured: off everywhere) matmul_tiled_split too;
 *      matmul_tiled_split + matmul_reduce when split, or with tiled.stream (workgroups a compute
 *      unit; 0 in the schema: never), where the device orders a join, matmul_tiled_stream
 *      alone: stream-K, every tile's K slices shared equally by units x stream workgroups
 *      (stream_groups).
 *   5. The padded plans (the ragged path, docs/GEMM.md): a plan of rule 4 that is not split, of
 *      the automatic variant with no fixed workgroup and not `no_staging`, with m, n, k not 0
 *      and m n k batch at least tiled.pad_min^3 (the tunable; 0 in the schema: never), with
 *      sides as tiled.pad_sides asks (0, the schema's: any; 1: m, n and k multiples of 4, so
 *      that only the caller's offset, leading dimension or stride denies the loads; 2: whole
 *      tiles of the chosen set, where rule 4 took matmul_tiled_fast; other sides keep rule 4's
 *      matmul_tiled_mixed, whose rim path wins there: docs/GEMM.md, "Ragged shapes: which
 *      plan"), whose fp32 A or B the rule below denies aligned vector loads, or whose tiles
 *      make at most tiled.pad_waves workgroups a compute unit (0 in the schema: never) with an
 *      fp32 A or B spanning a rim (its rows, columns or K off whole tiles: in so few waves the
 *      rim tiles' guarded loads would set the call's length), first runs matmul_pad
 *      (cl/matmul_pad.cl, a program of its own): each such operand is copied as it is stored
 *      into the scratch, its rows made whole tiles (MWG, NWG or KWG, by the dimension they run
 *      along) and their length lds too (a multiple of 4), zeros past the matrix; then
 *      matmul_tiled_pad (A_PAD, B_PAD) reads the copies with unguarded aligned vector loads, the
 *      other operand and C as matmul_tiled_mixed does. The scratch, batch rows x lds floats of
 *      each copy, must fit an eighth of the device's memory, one allocation and the caller's
 *      workspace where one is given; else the plan of rule 4 stands. matmul_pad writes every
 *      float of the copies, so the scratch is not zeroed (scratch_written).
 * Vector accesses: an fp32 operand whose offset, leading dimension and (batched) stride are
 * multiples of 4 gets aligned vector loads (A_VEC = 1); otherwise element-aligned ones. 16-bit
 * operands of the tiled kernels always take their vloads, which need no alignment; the skinny
 * kernels' 16-bit operands take aligned 8-byte words under the fp32 rule (X_VEC, V_VEC), their
 * element-aligned vloads otherwise.
 * Registers: where the compiler takes a cap (facts.nv_compiler_options), the tiled program is
 * built with max_regs registers per work-item (0: none), so that a tile set stays on the side of
 * the register file's cliff that lets two workgroups share a compute unit.
 */
#include "common.h"
#include "plan/plan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The most scratch a split plan may ask for; past it, K is not split. */
#define SPLIT_SCRATCH_MAX ((size_t)256 << 20)

/* One tile set (ocf_matmul_tile_set, unsigned): the kernel's -D parameters. */
typedef struct tile_set {
  unsigned mdimc, ndimc, mwi, nwi, kwg, vwm, vwn, pada, padb;
} tile_set;

static tile_set tile_set_of(const ocf_matmul_tile_set *t) {
  tile_set s = {(unsigned)t->mdimc, (unsigned)t->ndimc, (unsigned)t->mwi,
                (unsigned)t->nwi,   (unsigned)t->kwg,   (unsigned)t->vwm,
                (unsigned)t->vwn,   (unsigned)t->pada,  (unsigned)t->padb};
  return s;
}

static size_t set_mwg(const tile_set *s) {
  return (size_t)s->mdimc * s->mwi;
}
static size_t set_nwg(const tile_set *s) {
  return (size_t)s->ndimc * s->nwi;
}

/* Bytes of local memory the tiled kernels declare: two buffers each of A and B slices (of one
   part; 3XTF32 doubles them, see local_parts). */
static size_t set_local_bytes(const tile_set *s) {
  size_t per_slice = (size_t)s->kwg * (set_mwg(s) + s->pada + set_nwg(s) + s->padb);
  return 2 * per_slice * sizeof(float);
}

/* Workgroups that the set's tiles make of one m x n C. */
static size_t set_groups(const tile_set *s, size_t m, size_t n) {
  return ocf_div_ceil(m ? m : 1, set_mwg(s)) * ocf_div_ceil(n ? n : 1, set_nwg(s));
}

/* Percent of the set's padded tiles over C that are C. */
static double set_efficiency(const tile_set *s, size_t m, size_t n) {
  double padded_m = (double)ocf_round_up(m ? m : 1, set_mwg(s));
  double padded_n = (double)ocf_round_up(n ? n : 1, set_nwg(s));
  return 100.0 * (double)(m ? m : 1) * (double)(n ? n : 1) / (padded_m * padded_n);
}

/* Whether a set's work-item grid and local memory fit. */
static int set_fits(const tile_set *s, size_t limit, const size_t *item_sizes,
                    unsigned long long local_bytes) {
  return (size_t)s->mdimc * s->ndimc <= limit && s->ndimc <= item_sizes[0] &&
         s->mdimc <= item_sizes[1] && set_local_bytes(s) <= local_bytes;
}

/* Shrinks a set until it fits: fewer work-items, each taking over the outputs of the ones
   removed while its rows / columns stay at most 16 and its accumulators at most 256 (the tile
   keeps its size); past that the tile shrinks. The work-items halve along the larger of the two
   dimensions, N on a tie, unless the device's work-item sizes force the other one. Then
   shallower K slices, then smaller tiles for local memory. Every step keeps the tiling rules (whole
   vectors, tiles multiples of 4). Returns 0 when nothing fits (a device of less than 4 floats of
   local memory a work-item). */
static int set_fit(tile_set *s, size_t limit, const size_t *item_sizes,
                   unsigned long long local_bytes) {
  while ((size_t)s->mdimc * s->ndimc > limit || s->ndimc > item_sizes[0] ||
         s->mdimc > item_sizes[1]) {
    int along_n = s->ndimc > item_sizes[0] || (s->ndimc >= s->mdimc && s->mdimc <= item_sizes[1]);
    if (along_n && s->ndimc == 1) along_n = 0;
    if (!along_n && s->mdimc == 1) return 0;
    unsigned *dim = along_n ? &s->ndimc : &s->mdimc;
    unsigned *per_item = along_n ? &s->nwi : &s->mwi;
    *dim /= 2;
    if (*per_item * 2 <= 16 && s->mwi * s->nwi * 2 <= 256) *per_item *= 2;
    /* A tile must stay a multiple of 4 along each side (its global loads come in fours). */
    if ((along_n ? set_nwg(s) : set_mwg(s)) % 4 != 0) return 0;
  }
  while (set_local_bytes(s) > local_bytes) {
    if (s->kwg > 4) {
      s->kwg /= 2;
      s->kwg -= s->kwg % 4;
    } else if (s->pada || s->padb) {
      s->pada = s->padb = 0;
    } else if (s->mwi >= 2 * s->vwm && set_mwg(s) / 2 % 4 == 0) {
      s->mwi /= 2;
    } else if (s->nwi >= 2 * s->vwn && set_nwg(s) / 2 % 4 == 0) {
      s->nwi /= 2;
    } else {
      return 0;
    }
  }
  return 1;
}

/* The workgroup the caller asked for, a power of two laid out near-square (64 -> 8 x 8,
   128 -> 16 x 8 along N x M, 32 -> 8 x 4), keeping the set's outputs per work-item. */
static ocf_status apply_fixed_workgroup(size_t wg, tile_set *s) {
  if (!ocf_is_pow2(wg) || wg > ((size_t)1 << 20))
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: workgroup size %zu is not a power of two (at most 2^20)", wg);
  unsigned log2 = 0;
  while (((size_t)1 << log2) < wg)
    log2++;
  s->ndimc = 1u << ((log2 + 1) / 2);
  s->mdimc = 1u << (log2 / 2);
  /* Few work-items along a side hold more outputs each, so that the tile's side stays a multiple
     of 4 (its global loads come in fours): a workgroup of 1 runs a set of 2 x 2 outputs as 4 x 4.
   */
  while (s->mdimc * s->mwi % 4 != 0 && s->mwi < 16)
    s->mwi *= 2;
  while (s->ndimc * s->nwi % 4 != 0 && s->nwi < 16)
    s->nwi *= 2;
  /* The same rules the tuning validator applies to a set. */
  ocf_tuning_values check;
  ocf_tuning_fallbacks(OCF_OP_MATMUL, &check);
  ocf_matmul_tile_set *sets = check.matmul.tiled.set;
  const ocf_matmul_tile_set set = {(int)s->mdimc, (int)s->ndimc, (int)s->mwi,
                                   (int)s->nwi,   (int)s->kwg,   (int)s->vwm,
                                   (int)s->vwn,   (int)s->pada,  (int)s->padb};
  sets[0] = set;
  memset(sets + 1, 0, (OCF_MATMUL_TILE_SETS - 1) * sizeof sets[0]);
  char origin[96];
  snprintf(origin, sizeof origin, "ocf_matmul: workgroup size %zu (%u x %u)", wg, s->ndimc,
           s->mdimc);
  ocf_status status = ocf_tuning_check(OCF_OP_MATMUL, &check, origin);
  return status == OCF_SUCCESS ? status : OCF_ERR_INVALID_WORKGROUP;
}

/* ---- shared by both programs ---- */

/* Whether an operand of this type, offset, leading dimension and batch stride may take aligned
   4-wide vector accesses (always, for the 16-bit types, whose vloads need no alignment). */
static int vector_ok(ocf_dtype dtype, size_t off, size_t ld, size_t stride, size_t batch) {
  if (dtype != OCF_F32) return 1;
  return off % 4 == 0 && ld % 4 == 0 && (batch <= 1 || stride % 4 == 0);
}

/* Whether a skinny operand's four-element groups are aligned vector accesses (cl/matmul_skinny.cl's
   X_VEC, V_VEC): offset, leading dimension and (batched) stride multiples of 4 elements, fp32
   and the 16-bit types alike (these then load 8-byte words). */
static int skinny_vector_ok(size_t off, size_t ld, size_t stride, size_t batch) {
  return off % 4 == 0 && ld % 4 == 0 && (batch <= 1 || stride % 4 == 0);
}

static size_t call_batch(const ocf_matmul_call *call) {
  return call->batch ? call->batch : 1;
}

/* Whether rule 5 would copy A (B): fp32, and no aligned vector loads as it lies. */
static int pad_wants_a(const ocf_matmul_call *call) {
  return call->a_dtype == OCF_F32 &&
         !vector_ok(call->a_dtype, call->a_off, call->lda, call->stride_a, call_batch(call));
}
static int pad_wants_b(const ocf_matmul_call *call) {
  return call->b_dtype == OCF_F32 &&
         !vector_ok(call->b_dtype, call->b_off, call->ldb, call->stride_b, call_batch(call));
}

int ocf_matmul_pad_may_apply(const ocf_matmul_call *call) {
  /* Misaligned operands, or (tiled.pad_waves) any fp32 operand off whole tiles. */
  return call->a_dtype == OCF_F32 || call->b_dtype == OCF_F32;
}

/* The defines of the types, the precision mode and the epilogue, which both programs read. */
static void define_types_and_epilogue(ocf_plan *plan, const ocf_matmul_call *call, int bias) {
  ocf_plan_define(plan, "C_DTYPE", call->c_dtype);
  ocf_plan_define(plan, "BIAS_DTYPE", call->bias_dtype);
  ocf_plan_define(plan, "PRECISION", call->precision);
  ocf_plan_define(plan, "ACTIVATION", call->activation);
  ocf_plan_define(plan, "BIAS", bias);
}

/* The largest power of two <= want that is at most limit (at least 1). */
static size_t pow2_within(size_t want, size_t limit) {
  size_t wg = ocf_pow2_floor(want ? want : 1);
  while (wg > 1 && wg > limit)
    wg /= 2;
  return wg;
}

/* ---- the skinny kernels ---- */

/* K of one staged chunk of the wide path (cl/matmul_skinny.cl's KC). */
#define SKINNY_KC 32

/* Bytes of local memory the skinny kernels declare (cl/matmul_skinny.cl's LOCAL_FLOATS): the k
   lanes' sums, 16 floats a work-item; on the wide path at least two staging buffers, each an X
   chunk of 4 rl rows by SKINNY_KC (rows padded by one float when X is k-contiguous, else the
   chunk's k-rows by four) and a V chunk of SKINNY_KC rows of `small` rounded up to 4. */
static size_t skinny_local_bytes(int wide, size_t wg, size_t rl, int x_kcont, size_t small) {
  size_t floats = wg * 16;
  if (wide) {
    size_t x = x_kcont ? 4 * rl * (SKINNY_KC + 1) : SKINNY_KC * (4 * rl + 4);
    size_t stage = x + SKINNY_KC * ocf_round_up(small, 4);
    if (2 * stage > floats) floats = 2 * stage;
  }
  return floats * sizeof(float);
}

void ocf_skinny_layout_of(const ocf_matmul_call *call, int swapped, ocf_skinny_layout *l) {
  memset(l, 0, sizeof *l);
  l->x_is_b = swapped;
  if (!swapped) {
    /* X = op(A): A(i, p) at i * lda + p, or p * lda + i transposed; V = op(B). */
    l->rows = call->m;
    l->small = call->n;
    l->x_kcont = !call->trans_a;
    l->ldx = call->lda;
    l->v_ps = call->trans_b ? 1 : call->ldb;
    l->v_ss = call->trans_b ? call->ldb : 1;
    l->c_rs = call->ldc;
    l->c_ss = 1;
    l->bias = call->bias_axis == OCF_BIAS_N ? 1 : call->bias_axis == OCF_BIAS_M ? 2 : 0;
  } else {
    /* X(j, p) = B(p, j): p * ldb + j, or j * ldb + p transposed; V(p, i) = A(i, p). */
    l->rows = call->n;
    l->small = call->m;
    l->x_kcont = call->trans_b;
    l->ldx = call->ldb;
    l->v_ps = call->trans_a ? call->lda : 1;
    l->v_ss = call->trans_a ? 1 : call->lda;
    l->c_rs = 1;
    l->c_ss = call->ldc;
    l->bias = call->bias_axis == OCF_BIAS_N ? 2 : call->bias_axis == OCF_BIAS_M ? 1 : 0;
  }
}

static ocf_status plan_skinny(const ocf_device_facts *facts, const ocf_matmul_skinny_tuning *t,
                              int max_regs, const ocf_matmul_call *call, ocf_plan *plan) {
  plan->program = OCF_PROGRAM_MATMUL_SKINNY;
  plan->swapped = call->m < call->n;
  ocf_skinny_layout l;
  ocf_skinny_layout_of(call, plan->swapped, &l);
  const size_t batch = call_batch(call);

  /* The four kernels share the workgroup size (reqd_work_group_size(WG)). */
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_SKINNY);
  const ocf_kernel_id others[3] = {OCF_KERNEL_MATMUL_SKINNY_SPLIT, OCF_KERNEL_MATMUL_SKINNY_REDUCE,
                                   OCF_KERNEL_MATMUL_SKINNY_JOIN};
  for (int i = 0; i < 3; i++)
    if (ocf_facts_workgroup_limit(facts, others[i]) < limit)
      limit = ocf_facts_workgroup_limit(facts, others[i]);
  if (limit > facts->max_item_sizes[0]) limit = facts->max_item_sizes[0];
  size_t wg;
  if (plan->fixed_workgroup) {
    wg = call->workgroup;
    if (!ocf_is_pow2(wg) || wg > ((size_t)1 << 20))
      return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                      "ocf_matmul: workgroup size %zu is not a power of two (at most 2^20)", wg);
  } else {
    wg = pow2_within((size_t)t->wg, limit);
    /* Local memory holds 16 floats a work-item. */
    while (wg > 1 &&
           wg * 16 * sizeof(float) > ocf_facts_local_limit(facts, OCF_PROGRAM_MATMUL_SKINNY))
      wg /= 2;
  }
  size_t rl = (size_t)(l.x_kcont ? t->rl_k : t->rl_r);
  int wide = t->wide_min > 0 && l.small >= (size_t)t->wide_min;
  if (wide) {
    rl = (size_t)t->rl_w;
    if (rl < wg / SKINNY_KC) rl = wg / SKINNY_KC; /* the k lanes divide a chunk */
    wide = skinny_local_bytes(1, wg, rl > wg ? wg : rl, l.x_kcont, l.small) <=
           ocf_facts_local_limit(facts, OCF_PROGRAM_MATMUL_SKINNY);
    if (!wide) rl = (size_t)(l.x_kcont ? t->rl_k : t->rl_r);
  }
  if (rl > wg) rl = wg;
  const size_t rb = 4 * rl;

  /* Split K when the row blocks leave compute units idle and K is long enough. */
  size_t groups = ocf_div_ceil(l.rows ? l.rows : 1, rb) * batch;
  size_t want = (size_t)t->fill * facts->compute_units;
  size_t min_k = (size_t)t->split_min;
  plan->splits = 1;
  plan->k_split = call->k;
  if (groups < want && call->k >= 2 * min_k) {
    const size_t per_split = l.rows * l.small * batch;
    size_t splits = ocf_div_ceil(want, groups);
    if (splits > call->k / min_k) splits = call->k / min_k;
    if (splits > 64) splits = 64;
    splits = ocf_min_size(splits, ocf_scratch_ranges(&call->scratch_bound, per_split * 4, 0));
    size_t k_split = ocf_round_up(ocf_div_ceil(call->k, ocf_max_size(splits, 1)), 4);
    splits = ocf_div_ceil(call->k, k_split);
    if (splits >= 2 && per_split <= SPLIT_SCRATCH_MAX / sizeof(float) / splits) {
      plan->splits = splits;
      plan->k_split = k_split;
      plan->scratch_bytes = splits * per_split * sizeof(float);
      plan->scratch_written = 1; /* matmul_skinny_split writes every sum the reduce reads */
    }
  }

  const ocf_dtype x_dtype = l.x_is_b ? call->b_dtype : call->a_dtype;
  const ocf_dtype v_dtype = l.x_is_b ? call->a_dtype : call->b_dtype;
  const size_t x_off = l.x_is_b ? call->b_off : call->a_off;
  const size_t x_stride = l.x_is_b ? call->stride_b : call->stride_a;
  const size_t v_off = l.x_is_b ? call->a_off : call->b_off;
  const size_t v_stride = l.x_is_b ? call->stride_a : call->stride_b;
  ocf_plan_define(plan, "N_SMALL", (long long)l.small);
  ocf_plan_define(plan, "WG", (long long)wg);
  ocf_plan_define(plan, "RL", (long long)rl);
  ocf_plan_define(plan, "UNROLL", t->unroll);
  ocf_plan_define(plan, "X_KCONT", l.x_kcont);
  ocf_plan_define(plan, "V_SCONT", l.v_ss == 1 || l.small == 1);
  ocf_plan_define(plan, "X_VEC", skinny_vector_ok(x_off, l.ldx, x_stride, batch));
  ocf_plan_define(plan, "V_VEC", skinny_vector_ok(v_off, l.v_ps, v_stride, batch));
  ocf_plan_define(plan, "X_DTYPE", x_dtype);
  ocf_plan_define(plan, "V_DTYPE", v_dtype);
  ocf_plan_define(plan, "WIDE", wide);
  ocf_plan_define(plan, "KC", SKINNY_KC);
  ocf_plan_define(plan, "SPLIT", plan->splits > 1);
  /* skinny.join: the split of a short side up to it in one launch, where the device orders a
     join */
  const int join = ocf_plan_join_fences(facts, plan->splits > 1 && l.small <= (size_t)t->join);
  ocf_plan_define(plan, "JOIN", join);
  define_types_and_epilogue(plan, call, l.bias);

  size_t local[1] = {wg};
  const size_t row_blocks = ocf_div_ceil(l.rows ? l.rows : 1, rb);
  size_t global[1] = {row_blocks * plan->splits * batch * wg};
  if (plan->splits == 1) {
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_SKINNY, 1, global, local);
  } else if (join) {
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_SKINNY_JOIN, 1, global, local);
    plan->arrivals = row_blocks * batch;
  } else {
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_SKINNY_SPLIT, 1, global, local);
    size_t reduce[1] = {ocf_round_up(batch * l.rows * l.small, wg)};
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_SKINNY_REDUCE, 1, reduce, local);
  }
  plan->local_mem_bytes = skinny_local_bytes(wide, wg, rl, l.x_kcont, l.small);
  if (facts->nv_compiler_options) plan->max_registers = (unsigned)max_regs;
  return ocf_plan_verify(plan, facts);
}

/* ---- the tiled kernels ---- */

/* The parts of each local buffer: 3XTF32 stages the big and the small TF32 parts of its inputs
   side by side (cl/matmul.cl's PARTS). */
static unsigned local_parts(const ocf_matmul_call *call) {
  return call->precision == OCF_PRECISION_3XTF32 ? 2 : 1;
}

/* % of its whole waves that `groups` workgroups fill, a wave one workgroup a compute unit: the
   busiest unit runs ceil(groups / units) of them while the average one runs groups / units. */
static size_t wave_fill(size_t groups, size_t units) {
  return 100 * groups / (ocf_div_ceil(groups, units) * units);
}

/* Whether `groups` workgroups fill wave_min % of their waves; every count does where the rule is
   off (wave_min 0) or the device reports no units. */
static int fills_waves(size_t groups, size_t units, int wave_min) {
  return wave_min <= 0 || units == 0 || wave_fill(groups, units) >= (size_t)wave_min;
}

/* Rule 4's wave splits: where `groups` workgroups in `from` ranges of K fill less than
   `wave_min` % of their waves, the fewest more ranges, each at least wave_k_min long and at most
   split_max of them, that fill wave_min %; `from` where none does or the rule is off. From 1 for
   a set taken unsplit (1500^3 in 128 x 128 tiles: 144 workgroups on 132 units fill 54 %, two
   tiles' time for 1.09 tiles of work); from the split rule's ranges of split_k_min where they
   leave one wave short (1024 x 1024 x 2048 in 256 x 128 tiles: 32 tiles in 2 ranges of 1024 are
   64 workgroups on 132 units, 48 %; 4 ranges of 512 fill 97 %). */
static size_t wave_splits(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t, size_t k,
                          size_t groups, size_t from, int wave_min) {
  const size_t units = facts->compute_units;
  if (fills_waves(groups * from, units, wave_min)) return from;
  const size_t most = k / (size_t)t->wave_k_min;
  for (size_t n = from + 1; n <= most && n <= (size_t)t->split_max; n++)
    if (groups <= SIZE_MAX / n && fills_waves(groups * n, units, wave_min)) return n;
  return from;
}

/* The wave_min of a set taken unsplit: tiled.few_wave_min (where above tiled.wave_min, and the
   rule on) where its workgroups make at most tiled.few_waves waves (a wave one workgroup a
   unit), tiled.wave_min otherwise. In one or two waves the split paid to 90 % on the H200
   (1800^3: 225 tiles, 85 %, in 4 ranges 27.4 TFLOP/s against 24.5) where in five it lost
   (3000^3's 576 tiles, 87 %: 37.9 unsplit, 31.8 in 2). */
static int unsplit_wave_min(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t,
                            size_t groups) {
  const size_t units = facts->compute_units;
  if (t->wave_min > 0 && t->few_waves > 0 && units > 0 &&
      ocf_div_ceil(groups, units) <= (size_t)t->few_waves)
    return t->few_wave_min > t->wave_min ? t->few_wave_min : t->wave_min;
  return t->wave_min;
}

/* The tile set for the call, and its K splits (1: none), by rule 4. Returns 0 when no set
   fits the device. */
static int choose_set(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t,
                      const ocf_matmul_call *call, size_t limit, int may_split, tile_set *chosen,
                      size_t *splits) {
  const size_t batch = call_batch(call);
  const size_t want = (size_t)t->fill * facts->compute_units;
  const size_t split_min = (size_t)t->split_k_min;
  const unsigned long long local_bytes =
      ocf_facts_local_limit(facts, OCF_PROGRAM_MATMUL) / local_parts(call);
  /* The fallback: the last set in use that passed min_eff; where none did, the one with the
     most of C in its padded tiles (the largest of equals: 8192 x 17 fills 53 % of 32- and of
     16-column tiles, and the larger tiles run faster). */
  int have = 0, passed = 0;
  double best = -1.0;
  tile_set short_set = {0};
  size_t short_splits = 0;
  *splits = 1;
  for (int s = 0; s < OCF_MATMUL_TILE_SETS && t->set[s].mdimc != 0; s++) {
    tile_set set = tile_set_of(&t->set[s]);
    if (call->workgroup == 0 && !set_fits(&set, limit, facts->max_item_sizes, local_bytes) &&
        !set_fit(&set, limit, facts->max_item_sizes, local_bytes))
      continue;
    const double eff = set_efficiency(&set, call->m, call->n);
    if (eff >= (double)t->min_eff || (!passed && eff > best)) *chosen = set;
    if (eff > best) best = eff;
    have = 1;
    if (eff < (double)t->min_eff) continue;
    passed = 1;
    size_t groups = set_groups(&set, call->m, call->n) * batch;
    if (groups >= want) {
      if (may_split)
        *splits = wave_splits(facts, t, call->k, groups, 1, unsplit_wave_min(facts, t, groups));
      return 1;
    }
    if (may_split && split_min > 0 && call->k >= 2 * split_min) {
      /* Rounded down: the splits' workgroups fill split_fill per compute unit at most, one
         wave, rather than spill a few into a second (64 tiles of 1024^2 on 132 compute units:
         4 splits make 256 workgroups, 5 made 320). */
      size_t target = (size_t)t->split_fill * facts->compute_units;
      size_t n = target / groups;
      if (n > call->k / split_min) n = call->k / split_min;
      if (n > (size_t)t->split_max) n = (size_t)t->split_max;
      if (n >= 2) {
        n = wave_splits(facts, t, call->k, groups, n, t->wave_min);
        if (fills_waves(groups * n, facts->compute_units, t->wave_min)) {
          *splits = n;
          return 1;
        }
        /* Short of a wave even split: a later set may fill it; else the first such split. */
        if (!short_splits) short_set = set, short_splits = n;
      }
    }
  }
  if (short_splits) *chosen = short_set, *splits = short_splits;
  return have;
}

/* ---- rule 4's stream-K ---- */

/* Workgroups of matmul_tiled_stream for a call that rule 4 split over K with tiles of `s`
   (tiled.stream, 0 in the schema: never), or 0 where the split plan stands: units x
   tiled.stream of them, so that one wave holds them all, fewer where a range would hold less
   than tiled.wave_k_min of K (so none is empty: the kernel needs that), on a device whose joins
   have fences (ocf_plan_join_fences), with its scratch (two partial tiles a workgroup) within
   the split's cap and the caller's bound, and (groups + 1) x steps below 2^32 (the kernel's
   step arithmetic is 32-bit). The default variant and workgroup only. */
static size_t stream_groups(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t,
                            const ocf_matmul_call *call, const tile_set *s) {
  if (t->stream <= 0 || call->variant != OCF_VARIANT_AUTO || call->workgroup != 0 || call->k == 0 ||
      !ocf_plan_join_fences(facts, 1))
    return 0;
  const size_t slices = ocf_div_ceil(call->k, s->kwg);
  const size_t tiles = set_groups(s, call->m, call->n) * call_batch(call);
  if (tiles > ((size_t)1 << 40) / slices) return 0; /* tiles x slices cannot overflow */
  const size_t steps = tiles * slices;
  size_t groups = (size_t)facts->compute_units * (size_t)t->stream;
  const size_t range_min = ocf_div_ceil((size_t)t->wave_k_min, s->kwg);
  if (groups > steps / range_min) groups = steps / range_min;
  const size_t slot_bytes = 2 * set_mwg(s) * set_nwg(s) * sizeof(float);
  const size_t cap = ocf_min_size(SPLIT_SCRATCH_MAX, ocf_matmul_scratch_cap(facts, call));
  if (groups > cap / slot_bytes) groups = cap / slot_bytes;
  /* The kernel's step arithmetic is 32-bit: (steps + 1) x groups, its largest product, must
     stay below 2^32. */
  if (groups < 2 || steps >= (size_t)UINT32_MAX / (groups + 1)) return 0;
  return groups;
}

/* ---- rule 5: the padded copies ---- */

size_t ocf_matmul_scratch_cap(const ocf_device_facts *facts, const ocf_matmul_call *call) {
  unsigned long long cap = facts->global_mem_bytes / 8;
  if (facts->max_alloc_bytes && (cap == 0 || facts->max_alloc_bytes < cap))
    cap = facts->max_alloc_bytes;
  if (cap > SIZE_MAX) cap = SIZE_MAX;
  if (call->scratch_bound.set && call->scratch_bound.bytes < cap) cap = call->scratch_bound.bytes;
  return (size_t)cap;
}

/* Floats of `batch` copies of rows x ld; 0 on overflow. */
static size_t pad_floats(size_t rows, size_t ld, size_t batch) {
  if (rows == 0 || ld == 0) return 0;
  if (rows > SIZE_MAX / ld || rows * ld > SIZE_MAX / sizeof(float) / batch) return 0;
  return rows * ld * batch;
}

/* Work-items of matmul_pad: 256, or the most its kernel and the device take. */
#define PAD_WG_WANT 256

size_t ocf_matmul_pad_workgroup(const ocf_device_facts *facts) {
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_PAD);
  if (limit > facts->max_item_sizes[0]) limit = facts->max_item_sizes[0];
  return pow2_within(PAD_WG_WANT, limit);
}

/* Whether the call's sides are those tiled.pad_sides asks of a padded plan with tiles of `s`:
   0 any; 1 m, n and k multiples of the 4-wide load groups (tight rows would be aligned: only an
   offset, a leading dimension or a stride denies the loads); 2 whole tiles and K slices, the
   shapes of matmul_tiled_fast, so that the copy is the only difference from an aligned call
   (neither kernel then has a rim). */
static int pad_sides_ok(int pad_sides, const ocf_matmul_call *call, const tile_set *s) {
  if (pad_sides == 1) return call->m % 4 == 0 && call->n % 4 == 0 && call->k % 4 == 0;
  if (pad_sides == 2)
    return call->m % set_mwg(s) == 0 && call->n % set_nwg(s) == 0 && call->k % s->kwg == 0;
  return 1;
}

/* Whether the tiles of `s` over the call make at most tiled.pad_waves waves of one workgroup a
   compute unit: then the rim tiles run beside the whole ones, and the call lasts as long as a
   rim tile, whose guarded loads are the slowest (H200: 2000^3 ran at 30.9 TFLOP/s where 2048^3,
   the same 256 tiles, ran at 45.0). */
static int few_waves(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t,
                     const ocf_matmul_call *call, const tile_set *s) {
  if (t->pad_waves <= 0 || facts->compute_units == 0) return 0;
  const double tiles = (double)ocf_div_ceil(call->m, set_mwg(s)) *
                       (double)ocf_div_ceil(call->n, set_nwg(s)) * (double)call_batch(call);
  return tiles <= (double)t->pad_waves * (double)facts->compute_units;
}

/* Whether an fp32 operand spans a rim: rows x cols of its two dimensions (m or n, and k) that
   are not whole tiles (mn_tile) and K slices. */
static int ragged_operand(ocf_dtype dtype, size_t mn, size_t mn_tile, size_t k, size_t kwg) {
  return dtype == OCF_F32 && (mn % mn_tile != 0 || k % kwg != 0);
}

/* Rule 5 for the tiled plan of `kernel` with tiles of `s`: fills the copies' layout into *plan
   (pad_lda, pad_rows_a, pad_ldb, pad_rows_b, scratch_bytes) and *pad_wg, and returns 1, or
   returns 0 (the plan of rule 4 stands) with *plan unchanged. */
static int plan_pad(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t,
                    const ocf_matmul_call *call, const tile_set *s, ocf_kernel_id kernel,
                    ocf_plan *plan, size_t *pad_wg) {
  if (kernel != OCF_KERNEL_MATMUL_TILED_FAST && kernel != OCF_KERNEL_MATMUL_TILED_MIXED) return 0;
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup != 0 || call->no_staging) return 0;
  if (t->pad_min <= 0 || call->m == 0 || call->n == 0 || call->k == 0) return 0;
  const size_t mwg = set_mwg(s), nwg = set_nwg(s), kwg = s->kwg;
  /* In few waves, every operand across a rim too. */
  const int few = few_waves(facts, t, call, s);
  const int pad_a =
      pad_wants_a(call) || (few && ragged_operand(call->a_dtype, call->m, mwg, call->k, kwg));
  const int pad_b =
      pad_wants_b(call) || (few && ragged_operand(call->b_dtype, call->n, nwg, call->k, kwg));
  if (!pad_a && !pad_b) return 0;
  const size_t batch = call_batch(call);
  /* Few products: the copy costs more than the vector loads save. */
  const double work = (double)call->m * (double)call->n * (double)call->k * (double)batch;
  const double least = (double)t->pad_min;
  if (work < least * least * least) return 0;
  if (!pad_sides_ok(t->pad_sides, call, s)) return 0;
  /* Each copy as stored: rows of whole tiles along their dimension, rows' length too. */
  const size_t rows_a = call->trans_a ? ocf_round_up(call->k, kwg) : ocf_round_up(call->m, mwg);
  const size_t ld_a =
      ocf_round_up(call->trans_a ? ocf_round_up(call->m, mwg) : ocf_round_up(call->k, kwg), 4);
  const size_t rows_b = call->trans_b ? ocf_round_up(call->n, nwg) : ocf_round_up(call->k, kwg);
  const size_t ld_b =
      ocf_round_up(call->trans_b ? ocf_round_up(call->k, kwg) : ocf_round_up(call->n, nwg), 4);
  const size_t floats_a = pad_a ? pad_floats(rows_a, ld_a, batch) : 0;
  const size_t floats_b = pad_b ? pad_floats(rows_b, ld_b, batch) : 0;
  if ((pad_a && floats_a == 0) || (pad_b && floats_b == 0) ||
      floats_a > SIZE_MAX / sizeof(float) - floats_b)
    return 0;
  const size_t bytes = (floats_a + floats_b) * sizeof(float);
  if (bytes > ocf_matmul_scratch_cap(facts, call)) return 0;
  *pad_wg = ocf_matmul_pad_workgroup(facts);
  plan->pad_lda = pad_a ? ld_a : 0;
  plan->pad_rows_a = pad_a ? rows_a : 0;
  plan->pad_ldb = pad_b ? ld_b : 0;
  plan->pad_rows_b = pad_b ? rows_b : 0;
  plan->scratch_bytes = bytes;
  plan->scratch_written = 1; /* matmul_pad writes every float matmul_tiled_pad reads */
  return 1;
}

static ocf_status plan_tiled(const ocf_device_facts *facts, const ocf_matmul_tiled_tuning *t,
                             int max_regs, const ocf_matmul_call *call, ocf_plan *plan) {
  plan->program = OCF_PROGRAM_MATMUL;
  const size_t batch = call_batch(call);

  /* The tiled kernels share one body, so the lowest limit learnt for any of them applies. */
  const ocf_kernel_id tiled[6] = {OCF_KERNEL_MATMUL_TILED,       OCF_KERNEL_MATMUL_TILED_FAST,
                                  OCF_KERNEL_MATMUL_TILED_MIXED, OCF_KERNEL_MATMUL_TILED_SPLIT,
                                  OCF_KERNEL_MATMUL_TILED_PAD,   OCF_KERNEL_MATMUL_TILED_STREAM};
  size_t limit = ocf_facts_workgroup_limit(facts, tiled[0]);
  for (int i = 1; i < 6; i++)
    if (ocf_facts_workgroup_limit(facts, tiled[i]) < limit)
      limit = ocf_facts_workgroup_limit(facts, tiled[i]);
  if (call->variant == OCF_VARIANT_BASELINE)
    limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_NAIVE);

  tile_set chosen = {0}; /* set by choose_set; zeroed for compilers that cannot see it */
  size_t splits = 1;
  if (!choose_set(facts, t, call, limit, call->variant == OCF_VARIANT_AUTO, &chosen, &splits))
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: no tile set fits a workgroup of %zu work-items and %llu bytes "
                    "of local memory",
                    limit, ocf_facts_local_limit(facts, OCF_PROGRAM_MATMUL));
  if (plan->fixed_workgroup) {
    ocf_status status = apply_fixed_workgroup(call->workgroup, &chosen);
    if (status != OCF_SUCCESS) return status;
  }
  const size_t mwg = set_mwg(&chosen), nwg = set_nwg(&chosen);

  /* Where rule 4 splits K: stream-K in its place (tiled.stream), else K ranges of whole K
     slices, scratch for every split's C. */
  plan->splits = 1;
  plan->k_split = call->k;
  const size_t streams = splits > 1 ? stream_groups(facts, t, call, &chosen) : 0;
  const size_t per_split = call->m * ocf_round_up(call->n, 4) * batch;
  splits = ocf_min_size(splits, ocf_scratch_ranges(&call->scratch_bound, per_split * 4, 0));
  if (streams) {
    plan->scratch_bytes = streams * 2 * mwg * nwg * sizeof(float);
    plan->scratch_written = 1; /* a join reads only the parts its tile's ranges wrote */
    plan->arrivals = set_groups(&chosen, call->m, call->n) * batch;
  } else if (splits > 1) {
    size_t k_split = ocf_round_up(ocf_div_ceil(call->k, splits), chosen.kwg);
    size_t n = ocf_div_ceil(call->k, k_split);
    if (n >= 2 && per_split <= SPLIT_SCRATCH_MAX / sizeof(float) / n) {
      plan->splits = n;
      plan->k_split = k_split;
      plan->scratch_bytes = n * per_split * sizeof(float);
      plan->scratch_written = 1; /* matmul_tiled_split writes every C element of each range */
    }
  }

  ocf_kernel_id kernel = OCF_KERNEL_MATMUL_TILED;
  if (call->variant == OCF_VARIANT_BASELINE)
    kernel = OCF_KERNEL_MATMUL_NAIVE;
  else if (streams)
    kernel = OCF_KERNEL_MATMUL_TILED_STREAM;
  else if (call->variant == OCF_VARIANT_AUTO && plan->splits > 1)
    kernel = OCF_KERNEL_MATMUL_TILED_SPLIT;
  else if (call->variant == OCF_VARIANT_AUTO)
    kernel = call->m % mwg == 0 && call->n % nwg == 0 && call->k % chosen.kwg == 0
                 ? OCF_KERNEL_MATMUL_TILED_FAST
                 : OCF_KERNEL_MATMUL_TILED_MIXED;
  size_t pad_wg = 0;
  const int padded = plan_pad(facts, t, call, &chosen, kernel, plan, &pad_wg);
  if (padded) kernel = OCF_KERNEL_MATMUL_TILED_PAD;
  size_t local[2] = {chosen.ndimc, chosen.mdimc}, global[2];
  size_t m = call->m ? call->m : 1, n = call->n ? call->n : 1;
  if (kernel == OCF_KERNEL_MATMUL_NAIVE) {
    plan->program = OCF_PROGRAM_MATMUL_BASELINE; /* cl/baselines/matmul_naive.cl */
    global[0] = ocf_round_up(n, local[0]) * batch;
    global[1] = ocf_round_up(m, local[1]);
  } else {
    /* the tiles' grid (the header of cl/matmul.cl), or stream-K's row of ranges */
    global[0] =
        streams ? streams * local[0] : ocf_div_ceil(n, nwg) * plan->splits * batch * local[0];
    global[1] = streams ? local[1] : ocf_div_ceil(m, mwg) * local[1];
    plan->local_mem_bytes = set_local_bytes(&chosen) * local_parts(call);
    if (facts->nv_compiler_options) plan->max_registers = (unsigned)max_regs;
  }

  ocf_plan_define(plan, "MDIMC", chosen.mdimc);
  ocf_plan_define(plan, "NDIMC", chosen.ndimc);
  ocf_plan_define(plan, "MWI", chosen.mwi);
  ocf_plan_define(plan, "NWI", chosen.nwi);
  ocf_plan_define(plan, "KWG", chosen.kwg);
  ocf_plan_define(plan, "VWM", chosen.vwm);
  ocf_plan_define(plan, "VWN", chosen.vwn);
  ocf_plan_define(plan, "PADA", chosen.pada);
  ocf_plan_define(plan, "PADB", chosen.padb);
  ocf_plan_define(plan, "TRANS_A", call->trans_a == OCF_TRANS);
  ocf_plan_define(plan, "TRANS_B", call->trans_b == OCF_TRANS);
  ocf_plan_define(plan, "A_DTYPE", call->a_dtype);
  ocf_plan_define(plan, "B_DTYPE", call->b_dtype);
  /* A copy (rule 5) is aligned whatever the operand was. */
  ocf_plan_define(plan, "A_VEC",
                  plan->pad_lda ||
                      vector_ok(call->a_dtype, call->a_off, call->lda, call->stride_a, batch));
  ocf_plan_define(plan, "B_VEC",
                  plan->pad_ldb ||
                      vector_ok(call->b_dtype, call->b_off, call->ldb, call->stride_b, batch));
  /* tiled.rim: the two kernels with rim tiles run them in a body of their own; 2, the split
     kernel too */
  const int rim = (t->rim != 0 && (kernel == OCF_KERNEL_MATMUL_TILED_MIXED ||
                                   kernel == OCF_KERNEL_MATMUL_TILED_PAD)) ||
                  (t->rim >= 2 && kernel == OCF_KERNEL_MATMUL_TILED_SPLIT);
  /* tiled.mixed_c_check: the run-time check of C's alignment (C_VEC_AT in cl/matmul.cl) in
     place of the known-aligned stores; the H200's mixed kernel ran 1.25-1.4x faster so
     (docs/GEMM.md, "Mid sizes: C's stores"), its padded one slower. */
  const int c_check = t->mixed_c_check != 0 && rim && kernel == OCF_KERNEL_MATMUL_TILED_MIXED &&
                      call->c_dtype == OCF_F32;
  ocf_plan_define(plan, "C_VEC",
                  !c_check &&
                      vector_ok(call->c_dtype, call->c_off, call->ldc, call->stride_c, batch));
  ocf_plan_define(plan, "A_PAD", plan->pad_lda != 0);
  ocf_plan_define(plan, "B_PAD", plan->pad_ldb != 0);
  ocf_plan_define(plan, "RIM", rim);
  define_types_and_epilogue(plan, call, (int)call->bias_axis);
  if (padded) { /* rule 5: the copies first, a row of them a workgroup at a time */
    ocf_plan_define(plan, "PAD_WG", (long long)pad_wg);
    ocf_plan_define(plan, "PAD_DTYPE", OCF_F32);
    const size_t rows = batch * (plan->pad_rows_a + plan->pad_rows_b);
    const size_t pad_local[1] = {pad_wg};
    const size_t pad_global[1] = {ocf_plan_grid_groups(facts, rows) * pad_wg};
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_PAD, 1, pad_global, pad_local);
  }
  ocf_plan_step_add(plan, kernel, 2, global, local);
  ocf_plan_define(plan, "SPLIT_K", streams ? 2 : kernel == OCF_KERNEL_MATMUL_TILED_SPLIT ? 1 : 0);
  ocf_plan_define(plan, "JOIN", streams ? ocf_plan_join_fences(facts, 1) : 0);
  if (kernel == OCF_KERNEL_MATMUL_TILED_SPLIT) {
    size_t reduce_limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_REDUCE);
    if (reduce_limit > facts->max_item_sizes[0]) reduce_limit = facts->max_item_sizes[0];
    size_t wg = pow2_within((size_t)t->reduce_wg, reduce_limit);
    size_t reduce_local[1] = {wg};
    size_t reduce_global[1] = {ocf_round_up(batch * call->m * call->n, wg)};
    ocf_plan_define(plan, "REDUCE_WG", (long long)wg);
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_REDUCE, 1, reduce_global, reduce_local);
  } else {
    ocf_plan_define(plan, "REDUCE_WG", 1); /* read by the program, unused */
  }
  return ocf_plan_verify(plan, facts);
}

static ocf_status plan_rest(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_matmul_call *call, ocf_plan *plan);

/* Whether a 16-bit call with a short side of C goes to Hopper's wgmma kernel before the few-row
   and skinny kernels (rules 2a and 2): where that kernel applies and its probe has not failed
   (before the probe, rule 3 asks for it). On the H200 (2026-12-02) its split plans beat both on
   every few-row product measured: bf16 m x 8192 x 8192, B stored n x k, m 1 / 4 / 16: wgmma
   2.6 / 10.2 / 40.5 TFLOP/s, few-row kernel 2.4 / 8.8 / 34.8, skinny 1.3 / 3.3 / 4.9 (cuBLAS
   3.0 / 12.2 / 47.8). */
static int wgmma_first(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                       const ocf_matmul_call *call) {
  return call->a_dtype == call->b_dtype && call->a_dtype != OCF_F32 &&
         ocf_matmul_wgmma_applies(facts, tuning, call);
}

ocf_status ocf_plan_matmul(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                           const ocf_matmul_call *call, ocf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->fixed_workgroup = call->workgroup != 0;
  plan->splits = 1;
  /* Rule 2a: the few-row matrix-unit kernels (plan_matmul_few.c); while the mma probe is due,
     the plan of the rules below, with the probe asked for. A 16-bit call that Hopper's wgmma
     kernel takes goes there instead (rule 3, split over K where its tiles are few). */
  const ocf_mma_outcome few = wgmma_first(facts, tuning, call)
                                  ? OCF_MMA_NOT_APPLICABLE
                                  : ocf_plan_matmul_few(facts, tuning, call, plan);
  if (few == OCF_MMA_PLANNED) return OCF_SUCCESS;
  memset(plan, 0, sizeof *plan);
  plan->fixed_workgroup = call->workgroup != 0;
  plan->splits = 1;
  const ocf_status status = plan_rest(facts, tuning, call, plan);
  if (status == OCF_SUCCESS && few == OCF_MMA_PROBE && plan->probe == OCF_PLAN_PROBE_NONE) {
    plan->probe = OCF_PLAN_PROBE_MMA;
    plan->probe_bytes = OCF_MATMUL_FEW_PROBE_BYTES;
  }
  return status;
}

/* Rules 1 to 5 (rule 2a aside). */
static ocf_status plan_rest(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_matmul_call *call, ocf_plan *plan) {
  const ocf_matmul_tuning *t = &tuning->matmul;
  size_t short_side = call->m < call->n ? call->m : call->n;
  size_t long_side = call->m < call->n ? call->n : call->m;
  if (call->variant == OCF_VARIANT_AUTO && t->skinny.max > 0 && short_side > 0 &&
      short_side <= (size_t)t->skinny.max && long_side >= (size_t)t->skinny.long_min &&
      !wgmma_first(facts, tuning, call))
    return plan_skinny(facts, &t->skinny, t->max_regs, call, plan);
  /* Rule 3: Hopper's wgmma (plan_matmul_wgmma.c), the matrix units (plan_matmul_mma.c), or
     rule 4 while a probe is due (the wgmma probe first: when it passes, the calls it covers
     need no other). */
  /* 16-bit operands staged onto 128-byte lines come before the direct plan (their gate
     asks for it: rule 4 of plan_matmul_wgmma.c); fp32 ones only where it cannot run. */
  const int staged = ocf_matmul_wgmma_staged_applies(facts, tuning, call);
  const ocf_mma_outcome wg = staged && call->a_dtype != OCF_F32
                                 ? ocf_plan_matmul_wgmma_staged(facts, tuning, call, plan)
                             : ocf_matmul_wgmma_applies(facts, tuning, call)
                                 ? ocf_plan_matmul_wgmma(facts, tuning, call, plan)
                             : staged ? ocf_plan_matmul_wgmma_staged(facts, tuning, call, plan)
                                      : OCF_MMA_NOT_APPLICABLE;
  if (wg == OCF_MMA_PLANNED) return OCF_SUCCESS;
  size_t probe_bytes = 0;
  const ocf_mma_outcome mma = ocf_matmul_mma_applies(facts, tuning, call)
                                  ? ocf_plan_matmul_mma(facts, tuning, call, plan, &probe_bytes)
                                  : OCF_MMA_NOT_APPLICABLE;
  if (mma == OCF_MMA_PLANNED) {
    if (wg == OCF_MMA_PROBE) plan->probe = OCF_PLAN_PROBE_WGMMA;
    return OCF_SUCCESS;
  }
  memset(plan, 0, sizeof *plan);
  plan->fixed_workgroup = call->workgroup != 0;
  plan->splits = 1;
  ocf_status status = plan_tiled(facts, &t->tiled, t->max_regs, call, plan);
  if (status == OCF_SUCCESS && wg == OCF_MMA_PROBE) {
    plan->probe = OCF_PLAN_PROBE_WGMMA;
  } else if (status == OCF_SUCCESS && mma == OCF_MMA_PROBE) {
    plan->probe = OCF_PLAN_PROBE_MMA;
    plan->probe_bytes = probe_bytes;
  }
  return status;
}
