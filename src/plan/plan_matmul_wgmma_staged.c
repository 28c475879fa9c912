/*
 * The staged and copied plans of ocf_matmul's Hopper variant: rule 4 of the rule list at the top
 * of plan_matmul_wgmma.c (matmul_stage or matmul_pad, then the wgmma kernel on their rows). The
 * parts they share with the direct plans are in plan_matmul_wgmma_parts.h.
 */
#include "common.h"
#include "plan/plan.h"
#include "plan/plan_matmul_wgmma_parts.h"

#include <stdint.h>
#include <string.h>

/* The staging kernel's tile and workgroup (cl/matmul_stage.cl: ST_TILE x ST_ROWS). */
#define STAGE_TILE 32u
#define STAGE_ROWS 8u

/* Whether A is staged too: always for 3XTF32; else where the wgmma kernel cannot read A as it
   lies (transposed, or off 16-byte chunks). */
static int stage_a(const ocf_matmul_call *call) {
  const size_t batch = call->batch ? call->batch : 1;
  return call->precision == OCF_PRECISION_3XTF32 || call->trans_a ||
         !ocf_wgmma_chunk_aligned(call->a_dtype, call->a_off, call->lda, call->stride_a, batch);
}

/* The staged row length in elements: K' rounded up to 4 floats (16 bytes); 16-bit rows to 64
   values, so that every row starts on a 128-byte line (the reason they are staged). */
static size_t staged_ld(const ocf_matmul_call *call, size_t staged_k) {
  return ocf_round_up(staged_k, call->a_dtype == OCF_F32 ? 4 : 64);
}

/* The scratch of a staged plan in bytes (0 when it overflows): K' rows of staged_ld elements
   for B (n a product) and, when staged, A (m a product). */
static size_t staged_bytes(const ocf_matmul_call *call, size_t ld, int with_a) {
  const size_t batch = call->batch ? call->batch : 1;
  const size_t rows = with_a ? call->m + call->n : call->n;
  const size_t size = ocf_dtype_size(call->a_dtype);
  if (rows < call->n || rows > SIZE_MAX / batch) return 0;
  const size_t all = rows * batch;
  if (ld > SIZE_MAX / size / all) return 0;
  return all * ld * size;
}

/* A 16-bit operand's rows on 64-byte steps of 128-byte lines (offset, leading dimension, batch
   stride multiples of 32 values): a row at 64 bytes past a line costs the kernel little (bf16
   4096 x 4096 x 4000, B n x k: 666 TFLOP/s), one at 16 bytes a quarter (ldb 4104: 544). */
static int on_lines(size_t off, size_t ld, size_t stride, size_t batch) {
  return ocf_wgmma_rows_on_steps(32, off, ld, stride, batch);
}

/* A 16-bit operand's rows on 32-byte steps (16 values): on the L2's sectors. */
static int on_sectors(size_t off, size_t ld, size_t stride, size_t batch) {
  return ocf_wgmma_rows_on_steps(16, off, ld, stride, batch);
}

/* The 16-bit aligned copies of a call whose A is stored m x k (matmul_pad, PAD_DTYPE): B as
   stored, in rows of its own length rounded up to 64 values, and A likewise where the kernel
   cannot read it (off 16-byte chunks); their layout into *plan, 0 on overflow. */
static int aligned16_layout(const ocf_matmul_call *call, ocf_plan *plan) {
  const size_t batch = call->batch ? call->batch : 1;
  const int copy_a = stage_a(call);
  const size_t rows_b = call->trans_b ? call->n : call->k;
  const size_t cols_b = call->trans_b ? call->k : call->n;
  if (cols_b > SIZE_MAX - 64 || call->k > SIZE_MAX - 64) return 0;
  const size_t ld_b = ocf_round_up(cols_b, 64), ld_a = ocf_round_up(call->k, 64);
  if (rows_b > SIZE_MAX / ld_b / batch || call->m > SIZE_MAX / ld_a / batch) return 0;
  const size_t values_b = rows_b * ld_b * batch, values_a = copy_a ? call->m * ld_a * batch : 0;
  if (values_a > SIZE_MAX / 2 - values_b) return 0;
  plan->pad_lda = copy_a ? ld_a : 0;
  plan->pad_rows_a = copy_a ? call->m : 0;
  plan->pad_ldb = ld_b;
  plan->pad_rows_b = rows_b;
  plan->scratch_bytes = (values_a + values_b) * 2;
  return 1;
}

/* Whether the direct wgmma plan reads A and B as they lie (A stored m x k on 16-byte chunks, B
   on 16-byte chunks). */
static int directly_readable(const ocf_matmul_call *call) {
  const size_t batch = call->batch ? call->batch : 1;
  return !stage_a(call) &&
         ocf_wgmma_chunk_aligned(call->b_dtype, call->b_off, call->ldb, call->stride_b, batch);
}

/* Whether the TMA form, once its probes passed, reads a readable call's B rows where they lie
   (rule 4): every row off the lines under wgmma.tma 2; under wgmma.sector_rows (and the form
   on) rows on 32-byte steps, which it reads nearly as fast as rows on the lines where the copy
   costs a pass over B (bf16 3072^3, B k x n with ldb 3088, H100: copied 488.5 TFLOP/s, in place
   533.4; rows 16 bytes off, ldb 3080: copied 489.7, in place 464.5). */
static int tma_reads_in_place(const ocf_matmul_tuning *t, const ocf_matmul_call *call) {
  const size_t batch = call->batch ? call->batch : 1;
  return t->wgmma.tma == 2 || (t->wgmma.tma == 1 && t->wgmma.sector_rows &&
                               on_sectors(call->b_off, call->ldb, call->stride_b, batch));
}

/* Rule 4's 16-bit gate: a call the direct plan reads off 128-byte lines (B), of at least
   wgmma.align_rows rows sharing each staged value of B and align_rows^3 products (fewer: the
   pass costs more than it saves) unless the TMA form reads it in place (tma_reads_in_place,
   once its probes passed), or one it cannot read at all (A or B off 16-byte chunks, A
   transposed), which would run on mma.sync instead, from wgmma.unread_rows (where set) on. */
static int b16_stage_wanted(const ocf_device_facts *facts, const ocf_matmul_tuning *t,
                            const ocf_matmul_call *call) {
  if (call->a_dtype != call->b_dtype || call->a_dtype == OCF_F32) return 0;
  const size_t batch = call->batch ? call->batch : 1;
  const int unreadable = !directly_readable(call);
  if (!unreadable && on_lines(call->b_off, call->ldb, call->stride_b, batch)) return 0;
  /* The TMA reads such rows itself, so a readable call goes direct once its probes passed (rule
     7 then takes it, or matmul_wgmma where it cannot). */
  if (!unreadable && tma_reads_in_place(t, call) && facts->learnt.wgmma_tma == OCF_PROBE_PASSED &&
      facts->learnt.wide == OCF_PROBE_PASSED)
    return 0;
  const size_t least =
      (size_t)(unreadable && t->wgmma.unread_rows ? t->wgmma.unread_rows : t->wgmma.align_rows);
  const double work = (double)call->m * (double)call->n * (double)call->k * (double)batch;
  return least > 0 && call->m >= least && work >= (double)least * (double)least * (double)least;
}

int ocf_matmul_wgmma_staged_applies(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    const ocf_matmul_call *call) {
  const ocf_matmul_tuning *t = &tuning->matmul;
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup != 0 || t->mma.on == 0 ||
      t->wgmma.on == 0 || call->no_staging)
    return 0;
  if (facts->vendor != OCF_VENDOR_NVIDIA || !(facts->type & CL_DEVICE_TYPE_GPU) ||
      facts->nv_compute_capability != 90 || facts->learnt.wgmma == OCF_PROBE_FAILED)
    return 0;
  if (call->m == 0 || call->n == 0 || call->k == 0) return 0;
  if (call->a_dtype != OCF_F32) {
    if (!b16_stage_wanted(facts, t, call)) return 0;
  } else {
    if (call->b_dtype != OCF_F32) return 0;
    if (call->precision != OCF_PRECISION_TF32 && call->precision != OCF_PRECISION_3XTF32) return 0;
    /* Few products: the staging pass costs more than the faster multiply saves. */
    const double work = (double)call->m * (double)call->n * (double)call->k *
                        (double)(call->batch ? call->batch : 1);
    const int gate =
        call->precision == OCF_PRECISION_3XTF32 ? t->wgmma.stage_min : t->wgmma.tf32_stage_min;
    const double least = (double)gate;
    if (gate <= 0 || work < least * least * least) return 0;
  }
  if (call->a_dtype != OCF_F32 && !call->trans_a) { /* the aligned copies (matmul_pad) */
    ocf_plan layout;
    memset(&layout, 0, sizeof layout);
    return aligned16_layout(call, &layout) &&
           layout.scratch_bytes <= ocf_matmul_scratch_cap(facts, call) &&
           ocf_matmul_pad_workgroup(facts) >= 32;
  }
  const size_t parts = call->precision == OCF_PRECISION_3XTF32 && call->a_dtype == OCF_F32 ? 3 : 1;
  if (call->k > SIZE_MAX / 4 / parts - 64) return 0;
  const size_t bytes = staged_bytes(call, staged_ld(call, parts * call->k), stage_a(call));
  if (bytes == 0 || bytes > ocf_matmul_scratch_cap(facts, call)) return 0;
  /* The staging kernel's workgroup, and its grid's rows within what a launch takes. */
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_STAGE);
  return STAGE_TILE * STAGE_ROWS <= limit && STAGE_TILE <= facts->max_item_sizes[0] &&
         STAGE_ROWS <= facts->max_item_sizes[1];
}

/* Rule 4's 16-bit plan for A stored m x k: matmul_pad's aligned copies, then the wgmma kernel
   on them in the call's own layout (matmul_wgmma_pb, or _pab with A copied too). */
static ocf_mma_outcome plan_aligned16(const ocf_device_facts *facts,
                                      const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                                      ocf_plan *plan) {
  wg_geometry g;
  size_t groups = 0;
  const ocf_mma_outcome outcome = ocf_wgmma_plan_geometry(facts, tuning, call, 1, &g, &groups);
  if (outcome != OCF_MMA_PLANNED) return outcome;
  memset(plan, 0, sizeof *plan);
  if (!aligned16_layout(call, plan)) return OCF_MMA_NOT_APPLICABLE;
  plan->program = OCF_PROGRAM_MATMUL_WGMMA_NV;
  plan->splits = 1;
  plan->k_split = call->k;
  plan->scratch_written = 1; /* matmul_pad writes every value the wgmma step reads */
  ocf_wgmma_take_persistent(facts, tuning, call,
                            plan->pad_lda ? OCF_KERNEL_MATMUL_WGMMA_TMA_PAB
                                          : OCF_KERNEL_MATMUL_WGMMA_TMA_PB,
                            ocf_round_up(plan->scratch_bytes, 256), &g, &groups); /* rule 7 */
  ocf_wgmma_define_all(plan, call->a_dtype, call->trans_b == OCF_TRANS, &g, call);
  const size_t pad_wg = ocf_matmul_pad_workgroup(facts); /* at least 32: the gate */
  ocf_plan_define(plan, "TRANS_A", 0);
  ocf_plan_define(plan, "A_PAD", plan->pad_lda != 0);
  ocf_plan_define(plan, "B_PAD", 1);
  ocf_plan_define(plan, "PAD_WG", (long long)pad_wg);
  ocf_plan_define(plan, "PAD_DTYPE", call->a_dtype);
  const size_t batch = call->batch ? call->batch : 1;
  const size_t rows = batch * (plan->pad_rows_a + plan->pad_rows_b);
  const size_t pad_local[1] = {pad_wg};
  const size_t pad_global[1] = {ocf_plan_grid_groups(facts, rows) * pad_wg};
  ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_PAD, 1, pad_global, pad_local);
  if (plan->pad_lda)
    ocf_wgmma_add_copied_step(facts, tuning, call, OCF_KERNEL_MATMUL_WGMMA_PAB,
                              OCF_KERNEL_MATMUL_WGMMA_TMA_PAB, &g, groups, plan);
  else
    ocf_wgmma_add_copied_step(facts, tuning, call, OCF_KERNEL_MATMUL_WGMMA_PB,
                              OCF_KERNEL_MATMUL_WGMMA_TMA_PB, &g, groups, plan);
  /* this call would go direct once the TMA probes passed (b16_stage_wanted) */
  if (tma_reads_in_place(&tuning->matmul, call) && directly_readable(call) &&
      facts->learnt.wide != OCF_PROBE_FAILED && facts->learnt.wgmma_tma == OCF_PROBE_UNKNOWN)
    plan->probe = ocf_wgmma_tma_probe_due(facts);
  return ocf_plan_verify(plan, facts) == OCF_SUCCESS ? OCF_MMA_PLANNED : OCF_MMA_NOT_APPLICABLE;
}

static ocf_mma_outcome plan_staged(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                   const ocf_matmul_call *call, ocf_plan *plan) {
  if (call->a_dtype != OCF_F32 && !call->trans_a) return plan_aligned16(facts, tuning, call, plan);
  const size_t parts = call->precision == OCF_PRECISION_3XTF32 && call->a_dtype == OCF_F32 ? 3 : 1;
  const int with_a = stage_a(call);
  /* The wgmma step multiplies A' (or A) by B'^T over K'. */
  ocf_matmul_call staged = *call;
  staged.k = parts * call->k;
  staged.trans_a = OCF_NO_TRANS;
  staged.trans_b = OCF_TRANS;
  wg_geometry g;
  size_t groups = 0;
  const ocf_mma_outcome outcome = ocf_wgmma_plan_geometry(facts, tuning, &staged, 1, &g, &groups);
  if (outcome != OCF_MMA_PLANNED) return outcome;

  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_MATMUL_WGMMA_NV;
  plan->splits = 1;
  plan->k_split = call->k;
  plan->staged_k = staged.k;
  plan->staged_ld = staged_ld(call, staged.k);
  plan->staged_a = with_a;
  plan->scratch_bytes = staged_bytes(call, plan->staged_ld, with_a);
  plan->scratch_written = 1; /* matmul_stage writes every element the wgmma step reads */
  ocf_wgmma_take_persistent(facts, tuning, &staged,
                            with_a ? OCF_KERNEL_MATMUL_WGMMA_TMA_SAB
                                   : OCF_KERNEL_MATMUL_WGMMA_TMA_SB,
                            ocf_round_up(plan->scratch_bytes, 256), &g, &groups); /* rule 7 */
  ocf_wgmma_define_all(plan, call->a_dtype, 1, &g, call);
  ocf_plan_define(plan, "STAGE_TRANS_A", call->trans_a == OCF_TRANS);
  ocf_plan_define(plan, "STAGE_TRANS_B", call->trans_b == OCF_TRANS);
  ocf_plan_define(plan, "STAGE_A", with_a);
  ocf_plan_define(plan, "PARTS", (long long)parts);
  ocf_plan_define(plan, "STAGE_DTYPE", call->a_dtype);
  const size_t batch = call->batch ? call->batch : 1;
  const size_t rows = (with_a ? call->m + call->n : call->n) * batch;
  const size_t local[2] = {STAGE_TILE, STAGE_ROWS};
  const size_t global[2] = {ocf_div_ceil(call->k, STAGE_TILE) * STAGE_TILE,
                            ocf_div_ceil(rows, STAGE_TILE) * STAGE_ROWS};
  ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_STAGE, 2, global, local);
  if (with_a)
    ocf_wgmma_add_copied_step(facts, tuning, &staged, OCF_KERNEL_MATMUL_WGMMA_SAB,
                              OCF_KERNEL_MATMUL_WGMMA_TMA_SAB, &g, groups, plan);
  else
    ocf_wgmma_add_copied_step(facts, tuning, &staged, OCF_KERNEL_MATMUL_WGMMA_SB,
                              OCF_KERNEL_MATMUL_WGMMA_TMA_SB, &g, groups, plan);
  return ocf_plan_verify(plan, facts) == OCF_SUCCESS ? OCF_MMA_PLANNED : OCF_MMA_NOT_APPLICABLE;
}

ocf_mma_outcome ocf_plan_matmul_wgmma_staged(const ocf_device_facts *facts,
                                             const ocf_tuning_values *tuning,
                                             const ocf_matmul_call *call, ocf_plan *plan) {
  return ocf_wgmma_plan_consumers(plan_staged, facts, tuning, call, plan);
}
