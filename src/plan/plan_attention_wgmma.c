/*
 * The plan of ocf_attention's Hopper variant, cl/attention_wgmma_nv.cl (issue 21: wgmma for
 * Q K^T and P V, sm_90a). Tried before attention_mma (src/plan/plan_attention.c). The rules:
 *
 *   1. The automatic variant with no fixed workgroup, no loop limit, wgmma.on 1, q, k and v of
 *      one 16-bit type, d <= 128 (D 64 or 128), lq at least wgmma.min_lq, and Q's, K's and V's
 *      offsets, strides and d multiples of 8 elements (q_vector, kv_vector): every row on
 *      16-byte chunks, as cp.async copies them.
 *   2. An NVIDIA GPU of compute capability 9.0 where the wgmma probe (src/runtime/wgmma_probe.c,
 *      the GEMM's: the retarget to sm_90a builds and computes right on the context) passed;
 *      while it has not run, OCF_MMA_PROBE (the caller plans attention_mma and asks for it);
 *      after it failed, never.
 *   3. 256 work-items (two warpgroups) within the device's and the kernels' limits; local
 *      memory for Q and two stages of K and V tiles of wgmma.bk keys, three with wgmma.pipe
 *      (128 keys halved to 64 until it fits), within what the probe ran right with.
 *   4. One workgroup per (batch, head, block of 128 query rows), at most compute_units * 2048
 *      (the kernel loops over the rest); registers capped at wgmma.max_regs where set.
 *   5. Few blocks against long keys. Where those workgroups are fewer than half of
 *      compute_units * wgmma.split_fill and the keys make two ranges of split.min (and of a
 *      tile): each row's keys in ranges for compute_units * wgmma.split_fill workgroups
 *      (ocf_attention_key_ranges, as attention_mma's split), attention_wgmma_split into scratch,
 *      then attention_wgmma_join. Without wgmma.split_fill, not where the workgroups are fewer
 *      than half of compute_units * mma.split_fill with such keys: attention_mma's split form
 *      then runs (plan_attention.c). H200, bf16, TFLOP/s, 2026-12-03: attention_wgmma unsplit /
 *      attention_mma's split (mma.split_fill 1) / attention_wgmma_split for 132, 264 and 528
 *      workgroups (FA2 beside, which splits too): 1 x 32 x 128 x 8192 x 128 (32 blocks) 68.1 /
 *      120.7 / 159.1, 152.8, 130.8 (241.9); 1 x 8 x 512 x 32768 (32) 68.1 / 156.5 / 214.4,
 *      232.4, 242.2 (304.7); 1 x 32 (8) x 256 x 16384 (64) 147.7 / 180.3 / 244.0, 246.2, 241.7
 *      (296.7). Half the units, not all: 2 x 16 x 512 x 4096 x 64 (128 blocks of 132 units)
 *      unsplit 191.1, split for 132 178.5; 1 x 32 x 1024^2 x 128 (256) unsplit 271.4, split for
 *      264 113.5.
 *   6. The TMA-fed form, where wgmma.tma is set: attention_wgmma_tma (cl/attention_wgmma_tma.clh;
 *      with rule 5's key ranges where wgmma.tma_split is set, TMA_SPLIT: its ranges into
 *      scratch, then attention_wgmma_join, the maps after them), 288 work-items (a producer
 *      warp more), a ring of wgmma.tma_stages (fewer down to 2 until it fits the local memory
 *      the TMA probe ran right with), registers capped for 288, the three maps in 512 bytes of
 *      scratch a workgroup;
 *      wgmma.pipe as for attention_wgmma, and wgmma.tma 2 its warpgroups' turns (PINGPONG);
 *      with wgmma.tma_persist a workgroup a compute unit (at most), each taking block after
 *      block.
 *      Needs what tensor maps can describe (tma_strides; lq, lk, h and b below 2^31: the box
 *      coordinates are signed 32-bit), the maps within a caller's workspace where one bounds
 *      the scratch, NVIDIA's compiler options (the register cap), a wide
 *      launch the wide probe allows, and the GEMM's TMA probe passed. Until the wide and TMA
 *      probes have run the call runs attention_wgmma and asks for them; where either failed, or
 *      a gate fails, it runs attention_wgmma.
 * The planner is pure: the probe's outcome reaches it through the facts.
 */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

enum { WGMMA_THREADS = 256, WGMMA_ROWS = 128, TMA_THREADS = 288, TMA_MAP_BYTES = 512 };

size_t ocf_attention_wgmma_local_bytes(size_t bk, size_t d_wgmma, int pipe) {
  /* Q (128 rows) and two stages (three with pipe) of a K and a V tile, 2-byte elements; 1 KiB
     for the alignment of the swizzled layout. */
  return 2 * (WGMMA_ROWS * d_wgmma + (pipe ? 3 : 2) * 2 * bk * d_wgmma) + 1024;
}

int ocf_attention_tma_strides(const size_t dims[3][3], const size_t strides[3][3]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (strides[i][j] >= ((size_t)1 << 36) || (strides[i][j] == 0 && dims[i][j] > 1)) return 0;
  return 1;
}

size_t ocf_attention_wgmma_tma_local_bytes(size_t bk, size_t d_wgmma, size_t stages) {
  /* Q and the ring; 2 stages + 2 mbarriers of 8 bytes, rounded to 128; the maps' 512 bytes
     (384 used, 512 zeroed); 1 KiB for the alignment. */
  const size_t ring = 2 * (WGMMA_ROWS * d_wgmma + stages * 2 * bk * d_wgmma);
  return ring + ocf_round_up(16 * stages + 16, 128) + 512 + 1024;
}

/* Rule 6: the ring's stages where attention_wgmma_tma runs the call in `workgroups` (2 to
   wgmma.tma_stages), 0 where it does not; ranges_bytes: the scratch its key ranges take before
   the maps (0 unsplit); *probe: the probe it waits for (OCF_PLAN_PROBE_NONE: none). */
static size_t tma_stages(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                         const ocf_attention_call *call, size_t bk, size_t d_wgmma,
                         size_t workgroups, size_t ranges_bytes, int *probe) {
  *probe = OCF_PLAN_PROBE_NONE;
  const size_t below = (size_t)1 << 31;
  if (!t->wgmma.tma || (ranges_bytes && !t->wgmma.tma_split) || !call->tma_strides ||
      !facts->nv_compiler_options || call->lq >= below || call->lk >= below || call->h >= below ||
      call->b >= below)
    return 0;
  /* the maps within a caller's workspace, after the ranges (the cp.async form needs less) */
  if (ocf_scratch_ranges(&call->scratch_bound, TMA_MAP_BYTES, ranges_bytes) < workgroups) return 0;
  const ocf_kernel_id kernel = OCF_KERNEL_ATTENTION_WGMMA_TMA;
  if (TMA_THREADS > facts->max_workgroup_size || TMA_THREADS > facts->max_item_sizes[0] ||
      facts->learnt.wide_refused[kernel] || facts->learnt.wide == OCF_PROBE_FAILED ||
      facts->learnt.wgmma_tma == OCF_PROBE_FAILED)
    return 0;
  if (facts->learnt.wide != OCF_PROBE_PASSED || facts->learnt.wgmma_tma != OCF_PROBE_PASSED) {
    *probe = ocf_wgmma_tma_probe_due(facts);
    return 0;
  }
  if (!ocf_facts_wide_allows(facts, kernel, TMA_THREADS, ocf_wide_register_cap(TMA_THREADS)))
    return 0;
  size_t stages = (size_t)t->wgmma.tma_stages;
  while (stages > 2 && ocf_attention_wgmma_tma_local_bytes(bk, d_wgmma, stages) >
                           facts->learnt.wgmma_tma_local_ok)
    stages--;
  return ocf_attention_wgmma_tma_local_bytes(bk, d_wgmma, stages) <=
                 facts->learnt.wgmma_tma_local_ok
             ? stages
             : 0;
}

ocf_mma_outcome ocf_plan_attention_wgmma(const ocf_device_facts *facts,
                                         const ocf_attention_tuning *t,
                                         const ocf_attention_call *call, ocf_plan *plan) {
  /* Rule 1. */
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup || facts->loop_limit || !t->wgmma.on)
    return OCF_MMA_NOT_APPLICABLE;
  if (call->q_dtype == OCF_F32 || call->k_dtype != call->q_dtype ||
      call->v_dtype != call->q_dtype || call->d == 0 || call->d > 128 ||
      call->lq < (size_t)t->wgmma.min_lq || call->q_vector < 8 || call->kv_vector < 8)
    return OCF_MMA_NOT_APPLICABLE;
  /* Rule 2. */
  if (facts->vendor != OCF_VENDOR_NVIDIA || !(facts->type & CL_DEVICE_TYPE_GPU) ||
      facts->nv_compute_capability != 90 || facts->learnt.wgmma == OCF_PROBE_FAILED)
    return OCF_MMA_NOT_APPLICABLE;
  if (facts->learnt.wgmma != OCF_PROBE_PASSED) return OCF_MMA_PROBE;
  /* Rule 3. */
  size_t cap = ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]);
  cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_WGMMA));
  /* (the split kernel's too where it may run: a limit learnt from it must end its plans) */
  if (t->wgmma.split_fill > 0)
    cap = ocf_min_size(cap, ocf_facts_workgroup_limit(facts, OCF_KERNEL_ATTENTION_WGMMA_SPLIT));
  if (cap < WGMMA_THREADS) return OCF_MMA_NOT_APPLICABLE;
  const size_t d_wgmma = call->d <= 64 ? 64 : 128;
  const unsigned long long local = ocf_facts_local_limit(facts, OCF_PROGRAM_ATTENTION_WGMMA_NV);
  const int pipe = t->wgmma.pipe != 0;
  size_t bk = t->wgmma.bk >= 128 ? 128 : 64;
  while (bk > 64 && ocf_attention_wgmma_local_bytes(bk, d_wgmma, pipe) > local)
    bk /= 2;
  if (ocf_attention_wgmma_local_bytes(bk, d_wgmma, pipe) > local) return OCF_MMA_NOT_APPLICABLE;
  /* Rules 4 and 5. */
  const size_t blocks = ocf_div_ceil(call->lq, WGMMA_ROWS);
  const size_t groups = (call->b ? call->b : 1) * (call->h ? call->h : 1) * blocks;
  const size_t cus = (size_t)facts->compute_units;
  const size_t split_min = t->split.min > 0 ? (size_t)t->split.min : 0;
  const int long_keys = split_min > 0 && call->lk / split_min >= 2;
  const size_t target = cus * (size_t)t->wgmma.split_fill;
  size_t splits = 1, split_keys = call->lk;
  if (t->wgmma.split_fill > 0 && 2 * groups < target && long_keys)
    splits = ocf_attention_key_ranges(call, groups, target, split_min, bk, &split_keys);
  else if (t->wgmma.split_fill == 0 && t->mma.split_fill > 0 &&
           2 * groups < cus * (size_t)t->mma.split_fill && long_keys)
    return OCF_MMA_NOT_APPLICABLE;
  if (splits < 2) splits = 1, split_keys = call->lk;
  const size_t units = ocf_min_size(groups * splits, cus * 2048);
  /* each range's (m, l, O) of every row, where the keys are split; the TMA form's maps after
     them from the next multiple of 128 bytes */
  const size_t ranges_bytes = splits < 2 ? 0 : ocf_attention_ranges_bytes(call, splits);
  const size_t maps_at = ocf_round_up(ranges_bytes, 128);
  int probe = OCF_PLAN_PROBE_NONE;
  const size_t workgroups = t->wgmma.tma_persist ? ocf_min_size(units, cus) : units;
  const size_t stages = tma_stages(facts, t, call, bk, d_wgmma, workgroups, maps_at, &probe);
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_ATTENTION_WGMMA_NV;
  plan->probe = probe;
  ocf_plan_define(plan, "BK", (long long)bk);
  ocf_plan_define(plan, "PIPE", pipe);
  ocf_plan_define(plan, "TMA", stages > 0);
  ocf_plan_define(plan, "PINGPONG", stages > 0 && t->wgmma.tma == 2);
  ocf_plan_define(plan, "TMA_STAGES", stages > 0 ? (long long)stages : 2);
  ocf_plan_define(plan, "TMA_SPLIT", stages > 0 && splits > 1);
  ocf_plan_define(plan, "TMA_WAIT_LIMIT", 0);
  ocf_plan_define(plan, "MMA_EMULATE", 0);
  ocf_plan_define(plan, "MMA_DTYPE", call->q_dtype);
  ocf_attention_define_call(call, d_wgmma, plan);
  plan->local_mem_bytes = ocf_attention_wgmma_local_bytes(bk, d_wgmma, pipe);
  if (facts->nv_compiler_options) plan->max_registers = (unsigned)t->wgmma.max_regs;
  if (stages > 0) {
    const size_t global = workgroups * TMA_THREADS, wg = TMA_THREADS;
    ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_WGMMA_TMA, 1, &global, &wg);
    plan->wide_workgroup = 1;
    plan->max_registers = ocf_wide_register_cap(TMA_THREADS);
    plan->local_mem_bytes = ocf_attention_wgmma_tma_local_bytes(bk, d_wgmma, stages);
    if (splits > 1)
      ocf_attention_add_merge(facts, call, cus * 2048, OCF_KERNEL_ATTENTION_WGMMA_JOIN, plan);
    plan->kv_splits = splits;
    plan->split_keys = split_keys;
    plan->scratch_bytes = maps_at + workgroups * TMA_MAP_BYTES;
    /* each workgroup writes its maps before the TMA reads them, and its ranges' (m, l, O) */
    plan->scratch_written = 1;
    return OCF_MMA_PLANNED;
  }
  const size_t global = units * WGMMA_THREADS, wg = WGMMA_THREADS;
  if (splits < 2) {
    ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_WGMMA, 1, &global, &wg);
    plan->kv_splits = 1;
    plan->split_keys = call->lk;
    return OCF_MMA_PLANNED;
  }
  ocf_plan_step_add(plan, OCF_KERNEL_ATTENTION_WGMMA_SPLIT, 1, &global, &wg);
  ocf_attention_add_merge(facts, call, cus * 2048, OCF_KERNEL_ATTENTION_WGMMA_JOIN, plan);
  plan->kv_splits = splits;
  plan->split_keys = split_keys;
  plan->scratch_bytes = ranges_bytes;
  plan->scratch_written = 1; /* attention_wgmma_split writes every row's (m, l, O) of each range */
  return OCF_MMA_PLANNED;
}
