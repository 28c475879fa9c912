/*
 * The plan of ocf_layernorm and ocf_rmsnorm: which of cl/norm.cl's kernels, and their shapes.
 *
 * The default variant, each number a named tunable (src/tuning/schema_norm.c):
 *
 *   vector width   vw, or the widest power of two below it that every row start (in, out, the
 *                  residual, x') and the weight's and bias's offsets are multiples of (1 for an
 *                  odd one); the budgets below then count as many elements in those vectors.
 *                  With rows.shifted (2: RMSNorm only), norm_rows takes instead the widest
 *                  vector, at most vw, for
 *                  which every operand's rows start as far inside their vectors as in's and the
 *                  weight and bias start on one (widest_shifted), where every start allows
 *                  only vectors of 1 and that is wider: SHIFTED (cl/norm_common.clh), the
 *                  buffer's vectors, each row one vector more; where such a row does not fit
 *                  norm_rows, the aligned width and the kernels below.
 *   vecs           the vectors a row holds: ceil(cols / vw) (SHIFTED: ceil((cols + vw - 1) / vw)).
 *   0. norm_stream, where stream.min_cols is set, a row has at least that many columns (off
 *      by default), the rows move in vectors (vw > 1; in vectors of 1 the split below won) and
 *      the rows are at least stream.unit_rows a compute unit: one row a workgroup
 * of stream.wg work-items (beyond what the kernel reports as a wide plan, once the wide probe
 * passed), stream.items vectors a work-item of the row's head held, the rest read twice in steps of
 * stream.unroll vectors a work-item, compute_units * stream.groups_per_unit workgroups looping over
 * the rows; segment sums through warp shuffles as rows.shuffle says.
 *   1. norm_rows, the row in registers, when it fits a segment of at most rows.max_seg
 *      work-items (and rows.wg) with at most rows.items vectors each: seg = ceil(vecs /
 *      rows.seg_items) rounded up the size ladder (1 2 3 4 6 8 12 16 24 32 48 ...) and, past
 *      rows.seg_align, to a multiple of it, capped at rows.max_seg and rows.wg; then
 *      ceil(vecs / seg) vectors a work-item (on the ladder), rows.wg / seg rows a group (halved
 *      while they exceed the rows, and within the device's work-item size along dimension 1,
 *      where they lie). A workgroup a batch of rows, or, with rows.groups_per_unit,
 *      compute_units * rows.groups_per_unit workgroups looping over the batches, each loading
 *      its next batch before reducing this one when rows.prefetch is set (and it has a next
 *      one). rows.shuffle sums segments through warp shuffles where ocf_plan_warp_shuffles allows,
 * and with rows.merge LayerNorm's two reductions become one of (count, mean, M2); rows.max_regs
 * caps its registers where the compiler takes a cap.
 *   2. Longer rows: the two-kernel split, workgroups of split.wg work-items, each a slice of at
 *      least four loop steps (split.wg * split.unroll vectors a step); rows too few to give
 *      compute_units * split.groups_per_unit workgroups are cut into that many slices, as far
 *      as the row allows. Reads x twice, writes once. With split.shifted (2: RMSNorm only),
 *      where every start allows only vectors of 1, SHIFTED in the widest such vector as
 *      norm_rows takes it (rows below 2^31 elements).
 * OCF_VARIANT_GENERAL: norm_general (split.wg work-items a row, scalar); OCF_VARIANT_BASELINE:
 * the unfused norm_base_mean, norm_base_var (LayerNorm only) and norm_base_apply.
 *
 * fp16 operands in vectors are converted as f16_cvt says (f16_conversion; cl/f16_words.clh).
 * bfloat16 vectors are stored as bf16_cvt says (bf16_conversion; cl/bf16_words.clh).
 *
 * Kernel sizes that vary by shape (ITEMS, SEG) are rounded up the size ladder so that a program
 * serves many widths: every distinct set of defines is one program build.
 */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

/* Bytes of local memory per work-item: norm_rows declares four WG-float arrays, the split's
   stats kernel three, the others one. */
enum { ROWS_LOCAL_BYTES_PER_ITEM = 16, SPLIT_LOCAL_BYTES_PER_ITEM = 12, ONE_LOCAL_BYTES = 4 };

/* The widest vector, at most vw (a power of two), that every row start and vector offset of
   the call is a multiple of: rows of an odd stride move element by element, those of a stride
   of 4 (mod 8) in vectors of 4 rather than of 1. */
static size_t widest_aligned(const ocf_norm_call *c, size_t vw) {
  const size_t values[] = {c->in_off, c->in_ld,       c->out_off,    c->out_ld,     c->res_off,
                           c->res_ld, c->res_out_off, c->res_out_ld, c->weight_off, c->bias_off};
  for (size_t i = 0; i < OCF_ARRAY_LEN(values); i++)
    while (values[i] % vw != 0)
      vw /= 2;
  return vw;
}

/* The widest vector, at most vw, in which norm_rows can move rows that start inside vectors
   (SHIFTED): every operand's row r starts as far inside a vector as in's (the same offset and
   stride modulo the width, for the operands the call has), and the weight and bias start on
   one (they are realigned to each row in registers); and a row spans at least four of them
   (a row's first and last vectors go lane by lane: in narrower rows they are most of it). */
static size_t widest_shifted(const ocf_norm_call *c, size_t vw) {
  while (vw > 1 && c->cols < 4 * vw)
    vw /= 2;
  const size_t pairs[][2] = {
      {c->out_off, c->out_ld},
      {c->has_res ? c->res_off : c->in_off, c->has_res ? c->res_ld : c->in_ld},
      {c->has_res_out ? c->res_out_off : c->in_off, c->has_res_out ? c->res_out_ld : c->in_ld}};
  const size_t starts[] = {c->has_weight ? c->weight_off : 0, c->has_bias ? c->bias_off : 0};
  for (; vw > 1; vw /= 2) {
    int fits = 1;
    for (size_t i = 0; i < OCF_ARRAY_LEN(pairs); i++)
      fits &= pairs[i][0] % vw == c->in_off % vw && pairs[i][1] % vw == c->in_ld % vw;
    for (size_t i = 0; i < OCF_ARRAY_LEN(starts); i++)
      fits &= starts[i] % vw == 0;
    if (fits) break;
  }
  return vw;
}

/* What one kernel choice fills in. */
typedef struct norm_shape {
  ocf_kernel_id kernels[3];
  size_t count, wg, groups, vw, items, seg, unroll, prefetch, shuffle, merge, shifted;
} norm_shape;

/* F16_CVT of a plan (cl/f16_words.clh): the tuning's choice where an fp16 operand moves in
   vectors (vw > 1), else 0, so that calls it does not change share one program; 2 (inline PTX,
   cvt.rn.f16x2.f32) only on NVIDIA GPUs of compute capability 8.0 on, 1 elsewhere. */
static int f16_conversion(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                          const ocf_norm_call *c, size_t vw) {
  const int f16 = c->in_dtype == OCF_F16 || c->out_dtype == OCF_F16 ||
                  ((c->has_res || c->has_res_out) && c->res_dtype == OCF_F16) ||
                  ((c->has_weight || c->has_bias) && c->weight_dtype == OCF_F16);
  if (vw < 2 || !f16) return 0;
  if (t->f16_cvt == 2 && (facts->vendor != OCF_VENDOR_NVIDIA ||
                          !(facts->type & CL_DEVICE_TYPE_GPU) || facts->nv_compute_capability < 80))
    return 1;
  return t->f16_cvt;
}

/* BF16_CVT of a plan (cl/bf16_words.clh): the tuning's choice where a bfloat16 operand is stored
   in vectors (vw > 1: out, or res_out), and only on NVIDIA GPUs of compute capability 8.0 on
   (inline PTX, cvt.rn.bf16x2.f32); else 0, so that calls it does not change share one program,
   and no other device ever builds the PTX (PoCL aborts the process on it). */
static int bf16_conversion(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                           const ocf_norm_call *c, size_t vw) {
  const int stored = c->out_dtype == OCF_BF16 || (c->has_res_out && c->res_dtype == OCF_BF16);
  if (vw < 2 || !stored || facts->vendor != OCF_VENDOR_NVIDIA ||
      !(facts->type & CL_DEVICE_TYPE_GPU) || facts->nv_compute_capability < 80)
    return 0;
  return t->bf16_cvt;
}

/* norm_rows for the call, or 0 when its rows are too long to hold. wide > 0: one row a
   workgroup of `wide` work-items (plan_wide), 0 when a row has fewer than two vectors a
   work-item there. */
static int choose_rows(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                       const ocf_norm_call *c, size_t vecs, size_t items_max, size_t seg_items,
                       size_t rows_wg, size_t wide, norm_shape *k) {
  const int fixed = c->workgroup != 0;
  if (wide && vecs < 2 * wide) return 0;
  size_t seg = wide ? wide : ocf_ladder_up(ocf_div_ceil(vecs, seg_items));
  const size_t align = (size_t)t->rows.seg_align;
  if (seg > align && !wide) seg = ocf_round_up(seg, align);
  /* The rows of a group lie along dimension 1, which some devices keep short. */
  const size_t max_rows = facts->max_item_sizes[1] ? facts->max_item_sizes[1] : 1;
  if (fixed) {
    /* The shortest segment at least this long that divides the caller's size. */
    seg = ocf_max_size(seg, ocf_div_ceil(c->workgroup, max_rows));
    while (seg < c->workgroup && c->workgroup % seg != 0)
      seg++;
    seg = ocf_min_size(seg, c->workgroup);
  } else if (!wide) {
    seg = ocf_min_size(seg, ocf_min_size((size_t)t->rows.max_seg, rows_wg));
  }
  const size_t items = ocf_ladder_up(ocf_div_ceil(vecs, seg));
  if (items > items_max) return 0;
  size_t rows_per_group = wide    ? 1
                          : fixed ? c->workgroup / seg
                                  : ocf_min_size(rows_wg / seg, max_rows);
  if (rows_per_group == 0) rows_per_group = 1;
  if (!fixed)
    while (rows_per_group % 2 == 0 && rows_per_group / 2 >= (c->rows ? c->rows : 1))
      rows_per_group /= 2;
  k->kernels[0] = OCF_KERNEL_NORM_ROWS;
  k->seg = seg;
  k->wg = seg * rows_per_group;
  k->items = items;
  k->shuffle = t->rows.shuffle && ocf_plan_warp_shuffles(facts, k->wg, seg);
  k->merge = k->shuffle && t->rows.merge && !c->rms;
  const size_t batches = ocf_div_ceil(c->rows ? c->rows : 1, rows_per_group);
  const size_t persistent = (size_t)facts->compute_units * (size_t)t->rows.groups_per_unit;
  k->groups = persistent ? ocf_min_size(batches, persistent) : ocf_plan_grid_groups(facts, batches);
  /* Prefetching needs a workgroup to loop over several batches. */
  k->prefetch = t->rows.prefetch && k->groups < batches;
  return 1;
}

/* Whether a call's rows are streamed (norm_stream): the default variant, stream.min_cols set,
   the row at least that long and stream.unit_rows rows for every compute unit (norm_stream
   never splits a row; fewer rows leave units idle that the split's slices fill). */
static int streams(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                   const ocf_norm_call *c) {
  return c->variant == OCF_VARIANT_AUTO && t->stream.min_cols > 0 &&
         c->cols >= (size_t)t->stream.min_cols &&
         c->rows >= (size_t)facts->compute_units * (size_t)t->stream.unit_rows;
}

/* norm_stream for the call: one row a workgroup of stream_wg (the caller's size where fixed),
   stream.items vectors of the tuning's width held a work-item (as many elements in vectors of
   k->vw), the rest in steps of stream.unroll vectors; compute_units * stream.groups_per_unit
   workgroups looping over the rows (0: a workgroup a row). */
static void choose_stream(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                          const ocf_norm_call *c, size_t stream_wg, norm_shape *k) {
  const size_t t_vw = (size_t)t->vw, rows = c->rows ? c->rows : 1;
  k->kernels[0] = OCF_KERNEL_NORM_STREAM;
  k->wg = k->seg = stream_wg;
  k->items = (size_t)t->stream.items * t_vw / k->vw;
  k->unroll = ocf_min_size((size_t)t->stream.unroll * t_vw / k->vw, 16);
  k->shuffle = t->rows.shuffle && ocf_plan_warp_shuffles(facts, k->wg, k->seg);
  const size_t persistent = (size_t)facts->compute_units * (size_t)t->stream.groups_per_unit;
  k->groups = persistent ? ocf_min_size(rows, persistent) : ocf_plan_grid_groups(facts, rows);
}

/* The split of long rows (norm_split_stats, then norm_split_apply) under workgroups of wg, in
   at most `fit` slices a row (what a caller's workspace holds); vecs: the row in vectors of
   k->vw. */
static void choose_split(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                         const ocf_norm_call *c, size_t wg, size_t vecs, size_t fit, norm_shape *k,
                         ocf_plan *plan) {
  const size_t t_vw = (size_t)t->vw, cols = c->cols ? c->cols : 1, rows = c->rows ? c->rows : 1;
  /* The split SHIFTED where split.shifted allows it and every start allows only vectors of 1
     (its weight realignment indexes vectors in 32 bits: rows below 2^31 elements). */
  const int split_shifts = t->split.shifted == 1 || (t->split.shifted == 2 && c->rms);
  const size_t split_shifted_vw =
      split_shifts && k->vw == 1 && cols < ((size_t)1 << 31) ? widest_shifted(c, t_vw) : 1;
  if (split_shifted_vw > 1) {
    k->vw = split_shifted_vw;
    k->shifted = 1;
    vecs = ocf_div_ceil(cols + k->vw - 1, k->vw);
    k->unroll = ocf_min_size((size_t)t->split.unroll * t_vw / k->vw, 16);
  }
  const size_t step = wg * k->unroll;
  const size_t target = (size_t)facts->compute_units * (size_t)t->split.groups_per_unit;
  const size_t parts_fill = rows < target ? ocf_div_ceil(target, rows) : 1;
  const size_t parts =
      ocf_max_size(1, ocf_min_size(ocf_min_size(parts_fill, vecs / (4 * step)), fit));
  plan->part_vecs = ocf_div_ceil(ocf_div_ceil(vecs, parts), step) * step;
  plan->parts = ocf_div_ceil(vecs, plan->part_vecs);
  k->kernels[0] = OCF_KERNEL_NORM_SPLIT_STATS;
  k->kernels[1] = OCF_KERNEL_NORM_SPLIT_APPLY;
  k->count = 2;
  k->wg = wg;
  k->groups = ocf_plan_grid_groups(facts, rows * plan->parts);
  /* (count, mean, M2) a slice, then a shift a row. */
  plan->scratch_bytes = (3 * rows * plan->parts + rows) * sizeof(float);
  plan->scratch_written = 1; /* norm_split_stats writes every slice's triple, slice 0 the shift */
}

/* Picks the kernels for a call under workgroup sizes wg (split, general, baseline), rows_wg
   (norm_rows) and stream_wg (norm_stream); wide > 0: only norm_rows, one row a workgroup of
   `wide` (plan_wide). */
static void choose(const ocf_device_facts *facts, const ocf_norm_tuning *t, const ocf_norm_call *c,
                   size_t wg, size_t rows_wg, size_t stream_wg, size_t wide, ocf_plan *plan) {
  norm_shape k;
  memset(&k, 0, sizeof k);
  k.kernels[0] = OCF_KERNEL_NORM_GENERAL;
  k.count = 1;
  k.wg = wg;
  k.groups = ocf_plan_grid_groups(facts, c->rows);
  k.vw = k.items = k.seg = k.unroll = 1;
  const size_t rows = c->rows ? c->rows : 1;

  if (c->variant == OCF_VARIANT_BASELINE) {
    k.kernels[0] = OCF_KERNEL_NORM_BASE_MEAN;
    if (c->rms) {
      k.kernels[1] = OCF_KERNEL_NORM_BASE_APPLY;
      k.count = 2;
    } else {
      k.kernels[1] = OCF_KERNEL_NORM_BASE_VAR;
      k.kernels[2] = OCF_KERNEL_NORM_BASE_APPLY;
      k.count = 3;
    }
    /* The shift and shifted mean of each row, then its variance (mean square). */
    plan->scratch_bytes = 3 * rows * sizeof(float);
    plan->scratch_written = 1; /* each kernel writes a row's values before the next reads them */
  } else if (c->variant == OCF_VARIANT_AUTO) {
    const size_t t_vw = (size_t)t->vw;
    const size_t cols = c->cols ? c->cols : 1;
    /* Rows that start inside vectors, where every start allows only vectors of 1: norm_rows
       SHIFTED, whose rows may touch one vector more. (Where they allow vectors of 2 or 4,
       those won: H200, fp32 RMSNorm 8192 x 4098 3852 GB/s in vectors of 2, 3523 SHIFTED in 4.) */
    const int shifts = t->rows.shifted == 1 || (t->rows.shifted == 2 && c->rms);
    const size_t shifted_vw = shifts ? widest_shifted(c, t_vw) : 1;
    k.vw = widest_aligned(c, t_vw);
    if (k.vw == 1 && shifted_vw > 1 && !wide &&
        choose_rows(facts, t, c, ocf_div_ceil(cols + shifted_vw - 1, shifted_vw),
                    (size_t)t->rows.items * t_vw / shifted_vw,
                    (size_t)t->rows.seg_items * t_vw / shifted_vw, rows_wg, 0, &k)) {
      k.vw = shifted_vw;
      k.shifted = 1;
    }
    const size_t vecs = ocf_div_ceil(cols, k.vw);
    const size_t items_max = (size_t)t->rows.items * t_vw / k.vw;
    const size_t seg_items = (size_t)t->rows.seg_items * t_vw / k.vw;
    k.unroll = ocf_min_size((size_t)t->split.unroll * t_vw / k.vw, 16);
    /* The split's slices a row within a caller's workspace: (count, mean, M2) a slice and a
       shift a row. */
    const size_t split_fit =
        ocf_scratch_ranges(&c->scratch_bound, 3 * rows * sizeof(float), rows * sizeof(float));
    if (k.shifted) {
      /* norm_rows SHIFTED, planned above */
    } else if (!wide && k.vw > 1 && streams(facts, t, c)) {
      /* (Rows in vectors of 1 take the split: streamed element by element they ran at half its
         speed. H200, 512 x 50257 fp32 LayerNorm 617 -> 1222 GB/s split, bf16 360 -> 683.) */
      choose_stream(facts, t, c, stream_wg, &k);
    } else if (!choose_rows(facts, t, c, vecs, items_max, seg_items, rows_wg, wide, &k) && !wide) {
      if (split_fit > 0)
        choose_split(facts, t, c, wg, vecs, split_fit, &k, plan);
      else /* no split within a caller's workspace (not even one slice a row) */
        choose_stream(facts, t, c, stream_wg, &k);
    }
  }
  if (plan->parts == 0) plan->parts = 1;

  ocf_plan_define(plan, "WG", (long long)k.wg);
  ocf_plan_define(plan, "VW", (long long)k.vw);
  ocf_plan_define(plan, "ITEMS", (long long)k.items);
  ocf_plan_define(plan, "SEG", (long long)k.seg);
  ocf_plan_define(plan, "UNROLL", (long long)k.unroll);
  ocf_plan_define(plan, "EVEN", !k.shifted && (c->cols ? c->cols : 1) % k.vw == 0);
  ocf_plan_define(plan, "SHIFTED", (long long)k.shifted);
  ocf_plan_define(plan, "PREFETCH", (long long)k.prefetch);
  ocf_plan_define(plan, "SHUFFLE", (long long)k.shuffle);
  ocf_plan_define(plan, "MERGE", (long long)k.merge);
  ocf_plan_define(plan, "F16_CVT", f16_conversion(facts, t, c, k.vw));
  ocf_plan_define(plan, "BF16_CVT", bf16_conversion(facts, t, c, k.vw));
  ocf_plan_define(plan, "IN_DTYPE", c->in_dtype);
  ocf_plan_define(plan, "OUT_DTYPE", c->out_dtype);
  ocf_plan_define(plan, "RES_DTYPE", c->res_dtype);
  ocf_plan_define(plan, "W_DTYPE", c->weight_dtype);
  ocf_plan_define(plan, "RMS", c->rms ? 1 : 0);
  ocf_plan_define(plan, "HAS_WEIGHT", c->has_weight ? 1 : 0);
  ocf_plan_define(plan, "HAS_BIAS", c->has_bias ? 1 : 0);
  ocf_plan_define(plan, "HAS_RES", c->has_res ? 1 : 0);
  ocf_plan_define(plan, "HAS_RES_OUT", c->has_res_out ? 1 : 0);
  ocf_plan_define(plan, "HAS_MEAN", c->has_mean ? 1 : 0);
  ocf_plan_define(plan, "HAS_RSTD", c->has_rstd ? 1 : 0);
  if (k.kernels[0] == OCF_KERNEL_NORM_ROWS) {
    /* A 2-D workgroup: lanes of a row along dimension 0, its rows along dimension 1. */
    const size_t global[2] = {k.seg, k.groups * (k.wg / k.seg)}, local[2] = {k.seg, k.wg / k.seg};
    ocf_plan_step_add(plan, k.kernels[0], 2, global, local);
    plan->local_mem_bytes = ROWS_LOCAL_BYTES_PER_ITEM * k.wg;
    if (facts->nv_compiler_options) plan->max_registers = (unsigned)t->rows.max_regs;
  } else {
    size_t global = k.groups * k.wg;
    for (size_t s = 0; s < k.count; s++)
      ocf_plan_step_add(plan, k.kernels[s], 1, &global, &k.wg);
    plan->local_mem_bytes =
        (k.kernels[0] == OCF_KERNEL_NORM_STREAM        ? ROWS_LOCAL_BYTES_PER_ITEM
         : k.kernels[0] == OCF_KERNEL_NORM_SPLIT_STATS ? SPLIT_LOCAL_BYTES_PER_ITEM
                                                       : ONE_LOCAL_BYTES) *
        k.wg;
  }
}

/* The wide plan (rows.wide_wg, as softmax's: docs/SOFTMAX.md, "Wide workgroups"): a norm_rows
   plan of one row a workgroup gets that many work-items a row instead, beyond what the kernel
   reports (NVIDIA: 256 for every kernel), up to the device's maximum `cap`, once the wide probe
   passed on the context (src/runtime/wide_probe.c). Registers are capped so that the workgroup
   fits a compute unit (ocf_wide_register_cap: 128 at 512, 64 at 1024; rows.max_regs where
   lower) and a work-item holds at most half of them as row values (twice its share when
   prefetching), so `items` shrinks to fit. A row of fewer than two vectors a work-item keeps
   its plan, and so do rows beyond what the wide workgroup holds (the split): on the H200
   (2026-12-02, round_widewg.sh, 512 work-items) one vector a work-item lost to the narrow plan
   (bf16 8192 x 4096: RMSNorm 3396 -> 2802 GB/s, LayerNorm 3175 -> 2302; the narrow plan there
   keeps several rows in flight a compute unit, the wide one a reduction over 512 lanes a row of
   512 vectors), two about even (fp32 8192 x 4096 +1 / -2 %, bf16 4096 x 8192 +5 / +2 %), four
   or more won (fp32 1024 x 16384 RMSNorm 2660 -> 3192, bf16 1977 -> 2372, LayerNorm bf16 1811 ->
   2142; LayerNorm fp32 2897 -> 2813 the one loss).
   1: *plan is replaced. */
static int plan_wide(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                     const ocf_norm_call *c, size_t cap, ocf_plan *plan) {
  const ocf_plan_step *first = &plan->steps[0];
  if (plan->step_count != 1 || first->kernel != OCF_KERNEL_NORM_ROWS || first->local[1] != 1)
    return 0;
  /* SHIFTED rows keep their plan, and a wide plan is never SHIFTED (choose): a vector or two a
     work-item of 512 is mostly the per-row and per-vector work SHIFTED adds (H200, fp32
     RMSNorm, GB/s wide -> not: 8192 x 4097 2908 -> 3433, 4096 x 8191 2624 -> 3692; LayerNorm
     2232 -> 3172, 1986 -> 2559). */
  if (ocf_plan_define_value(plan, "SHIFTED", 0)) return 0;
  const size_t wide = ocf_min_size((size_t)t->rows.wide_wg, cap);
  if (wide <= first->local[0]) return 0;
  unsigned regs = facts->nv_compiler_options ? ocf_wide_register_cap(wide) : 0;
  if (regs && t->rows.max_regs > 0 && (unsigned)t->rows.max_regs < regs)
    regs = (unsigned)t->rows.max_regs;
  if (!ocf_facts_wide_allows(facts, OCF_KERNEL_NORM_ROWS, wide, regs)) return 0;
  ocf_norm_tuning w = *t;
  if (regs) {
    /* norm_rows holds floats: vw a vector of the tuning's width. */
    const unsigned copies = t->rows.prefetch ? 2 : 1;
    const unsigned held = regs / 2 / (unsigned)t->vw / copies;
    if (held < (unsigned)w.rows.items) w.rows.items = held ? (int)held : 1;
  }
  ocf_plan wide_plan;
  memset(&wide_plan, 0, sizeof wide_plan);
  wide_plan.program = OCF_PROGRAM_NORM;
  choose(facts, &w, c, ocf_min_size((size_t)t->split.wg, cap), wide, wide, wide, &wide_plan);
  const ocf_plan_step *step = &wide_plan.steps[0];
  if (wide_plan.step_count != 1 || step->kernel != OCF_KERNEL_NORM_ROWS || step->local[0] != wide ||
      step->local[1] != 1)
    return 0;
  wide_plan.wide_workgroup = 1;
  wide_plan.max_registers = regs;
  *plan = wide_plan;
  return 1;
}

/* norm_stream's wide plan: stream.wg work-items (at most the device's `cap`) where the kernel
   reports fewer, registers capped so that the workgroup fits a compute unit
   (ocf_wide_register_cap); a work-item holds stream.items + stream.unroll vectors, far below
   the cap (the schema keeps vw * stream.items at 128 floats at most). 1: *plan is replaced. */
static int plan_wide_stream(const ocf_device_facts *facts, const ocf_norm_tuning *t,
                            const ocf_norm_call *c, size_t cap, ocf_plan *plan) {
  const size_t wide = ocf_min_size((size_t)t->stream.wg, cap);
  const unsigned regs = facts->nv_compiler_options ? ocf_wide_register_cap(wide) : 0;
  if (!ocf_facts_wide_allows(facts, OCF_KERNEL_NORM_STREAM, wide, regs)) return 0;
  ocf_plan wide_plan;
  memset(&wide_plan, 0, sizeof wide_plan);
  wide_plan.program = OCF_PROGRAM_NORM;
  choose(facts, t, c, ocf_min_size((size_t)t->split.wg, cap), wide, wide, 0, &wide_plan);
  if (wide_plan.steps[0].kernel != OCF_KERNEL_NORM_STREAM || wide_plan.steps[0].local[0] != wide)
    return 0;
  wide_plan.wide_workgroup = 1;
  wide_plan.max_registers = regs;
  *plan = wide_plan;
  return 1;
}

ocf_status ocf_plan_norm(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                         const ocf_norm_call *call, ocf_plan *plan) {
  const ocf_norm_tuning *t = &tuning->norm;
  /* A fixed size above the device's maximum is refused before anything is planned (it also
     bounds the segment search of choose_rows). */
  if (call->workgroup > facts->max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "workgroup of %zu work-items exceeds the device's maximum of %zu",
                    call->workgroup, facts->max_workgroup_size);
  /* A default size fits the device (workgroup, work-item and local memory limits) and the
     limits learnt from built kernels: plan, and while a chosen kernel is known to accept fewer
     work-items than planned, plan again under that limit (each round lowers the cap). */
  size_t cap = facts->max_workgroup_size;
  if (cap > facts->max_item_sizes[0]) cap = facts->max_item_sizes[0];
  size_t local_cap =
      (size_t)(ocf_facts_local_limit(facts, OCF_PROGRAM_NORM) / ROWS_LOCAL_BYTES_PER_ITEM);
  if (local_cap >= 1 && cap > local_cap) cap = local_cap;
  const size_t device_cap = cap; /* before the kernels' learnt limits: the wide plans' bound */
  for (int round = 0; round < 8; round++) {
    memset(plan, 0, sizeof *plan);
    plan->program = OCF_PROGRAM_NORM;
    plan->fixed_workgroup = call->workgroup != 0;
    size_t wg = call->workgroup, rows_wg = call->workgroup, stream_wg = call->workgroup;
    if (!plan->fixed_workgroup) {
      wg = ocf_min_size((size_t)t->split.wg, cap);
      rows_wg = ocf_min_size((size_t)t->rows.wg, cap);
      stream_wg = ocf_min_size((size_t)t->stream.wg, cap);
    }
    choose(facts, t, call, wg, rows_wg, stream_wg, 0, plan);
    if (plan->fixed_workgroup) break;
    const size_t lowest = ocf_plan_steps_limit(facts, plan, cap);
    const ocf_plan_step *first = &plan->steps[0];
    if (first->local[0] * first->local[1] * first->local[2] <= lowest) break;
    cap = lowest;
  }
  const ocf_plan_step *first = &plan->steps[0];
  /* norm_stream of more work-items than its kernel reports (stream.wg): as wide as the tuning
     asks where the wide probe passed and registers can be capped to fit; the probe first. */
  if (first->kernel == OCF_KERNEL_NORM_STREAM && !plan->fixed_workgroup &&
      (facts->nv_compiler_options || facts->wide_without_register_cap) &&
      ocf_min_size((size_t)t->stream.wg, device_cap) > first->local[0]) {
    if (facts->learnt.wide == OCF_PROBE_UNKNOWN)
      plan->probe = OCF_PLAN_PROBE_WIDE;
    else
      plan_wide_stream(facts, t, call, device_cap, plan);
    return ocf_plan_verify(plan, facts);
  }
  /* The wide plan where the tuning asks for one and the compiler can cap registers (else no
     workgroup is known to fit beyond the reported limit); the probe first. */
  if (t->rows.wide_wg > 0 && !plan->fixed_workgroup && call->variant == OCF_VARIANT_AUTO &&
      (facts->nv_compiler_options || facts->wide_without_register_cap) && plan->step_count == 1 &&
      first->kernel == OCF_KERNEL_NORM_ROWS && first->local[1] == 1 &&
      ocf_min_size((size_t)t->rows.wide_wg, device_cap) > first->local[0]) {
    if (facts->learnt.wide == OCF_PROBE_UNKNOWN)
      plan->probe = OCF_PLAN_PROBE_WIDE;
    else
      plan_wide(facts, t, call, device_cap, plan);
  }
  return ocf_plan_verify(plan, facts);
}
