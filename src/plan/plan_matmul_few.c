/*
 * The plan of ocf_matmul's few-row matrix-unit variant, cl/matmul_few_mma.cl (issues 18 and 22:
 * 16-bit GEMMs with 1 to 64 rows or columns, mma.sync m16n8k16). Tried before the skinny rule
 * of plan_matmul.c. The rules, in order:
 *
 *   1. It applies to the automatic variant with no fixed workgroup, few.on not 0, A and B both
 *      fp16 or both bf16, C's short side (m, or n: the operands then swapped as for the skinny
 *      kernels, ocf_skinny_layout) from 1 to few.max (at most 64), its long side at least
 *      skinny.long_min, k not 0, and the large operand X k-contiguous unless few.x_rows is 1.
 *   2. On an NVIDIA GPU: compute capability 8.0 or more and the mma probe of plan_matmul_mma.c
 *      passed (MMA_EMULATE 0); while that probe has not run, the next rules plan the call with
 *      `probe` set (the op runs it and plans again); after it failed, never. Elsewhere only with
 *      few.on 2, emulated (MMA_EMULATE 1: what the tests force on PoCL and Oclgrind).
 *   3. few.warps warps a workgroup (halved while the kernels' learnt limit, the device's or its
 *      local memory rule them out), few.kw of them along K (kept dividing the warps); each warp
 *      few.nt tiles of 8 rows of X, few.unroll steps of 32 k of loads in flight.
 *   4. K is split (matmul_few_mma_split, then matmul_few_mma_reduce) when the row blocks of the
 *      whole batch give fewer than few.fill workgroups per compute unit: as many ranges as fill
 *      that (at most 64), each a multiple of 32 kw unroll and at least skinny.split_min long,
 *      their sums within the split scratch cap.
 *   5. X (V) is loaded in 16-byte words (X_VEC, V_VEC) when k-contiguous with offset, leading
 *      dimension and (batched) stride multiples of 8 elements; element by element otherwise.
 * The planner is pure: the probe's outcome reaches it through the facts.
 */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

/* The most scratch a split plan may ask for (as plan_matmul.c's). */
#define FEW_SCRATCH_MAX ((size_t)256 << 20)
/* The emulation's words a warp (cl/attention_mma_prims.clh's MMA_EMU_WORDS). */
#define FEW_EMU_WORDS 192

size_t ocf_matmul_few_local_bytes(size_t warps, size_t nt, int emulate) {
  return (warps * 32 * nt * 4 + (emulate ? warps * FEW_EMU_WORDS : 1)) * 4;
}

/* Whether an operand's k-contiguous rows take 16-byte loads (rule 5). */
static int few_vec(int kcont, size_t off, size_t ld, size_t stride, size_t batch) {
  return kcont && off % 8 == 0 && ld % 8 == 0 && (batch <= 1 || stride % 8 == 0);
}

ocf_mma_outcome ocf_plan_matmul_few(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    const ocf_matmul_call *call, ocf_plan *plan) {
  const ocf_matmul_few_tuning *t = &tuning->matmul.few;
  /* Rule 1. */
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup != 0 || t->on == 0)
    return OCF_MMA_NOT_APPLICABLE;
  if (call->a_dtype != call->b_dtype || call->a_dtype == OCF_F32) return OCF_MMA_NOT_APPLICABLE;
  const size_t short_side = call->m < call->n ? call->m : call->n;
  const size_t long_side = call->m < call->n ? call->n : call->m;
  if (short_side == 0 || short_side > (size_t)t->max || short_side > 64 || call->k == 0 ||
      long_side < (size_t)tuning->matmul.skinny.long_min)
    return OCF_MMA_NOT_APPLICABLE;
  const int swapped = call->m < call->n;
  ocf_skinny_layout l;
  ocf_skinny_layout_of(call, swapped, &l);
  if (!l.x_kcont && t->x_rows == 0) return OCF_MMA_NOT_APPLICABLE;
  /* Rule 2. */
  const int nvidia = facts->vendor == OCF_VENDOR_NVIDIA && (facts->type & CL_DEVICE_TYPE_GPU);
  if (nvidia) {
    if (facts->nv_compute_capability < 80 || facts->learnt.mma == OCF_PROBE_FAILED)
      return OCF_MMA_NOT_APPLICABLE;
    if (facts->learnt.mma != OCF_PROBE_PASSED) return OCF_MMA_PROBE;
  } else if (t->on != 2) {
    return OCF_MMA_NOT_APPLICABLE;
  }
  const int emulate = !nvidia;

  /* Rule 3: the three kernels share the workgroup size. */
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_FEW_MMA);
  const ocf_kernel_id others[2] = {OCF_KERNEL_MATMUL_FEW_MMA_SPLIT,
                                   OCF_KERNEL_MATMUL_FEW_MMA_REDUCE};
  for (int i = 0; i < 2; i++)
    limit = ocf_min_size(limit, ocf_facts_workgroup_limit(facts, others[i]));
  limit = ocf_min_size(limit, ocf_min_size(facts->max_workgroup_size, facts->max_item_sizes[0]));
  const unsigned long long local = ocf_facts_local_limit(facts, OCF_PROGRAM_MATMUL_FEW_MMA);
  size_t warps = (size_t)t->warps, kw = (size_t)t->kw;
  const size_t nt = (size_t)t->nt, unroll = (size_t)t->unroll;
  while (warps > 1 &&
         (32 * warps > limit || ocf_matmul_few_local_bytes(warps, nt, emulate) > local))
    warps /= 2;
  if (32 * warps > limit || ocf_matmul_few_local_bytes(warps, nt, emulate) > local)
    return OCF_MMA_NOT_APPLICABLE;
  if (kw > warps) kw = warps;
  const size_t wg = 32 * warps, rb = 8 * nt * (warps / kw);

  /* Rule 4. */
  const size_t batch = call->batch ? call->batch : 1;
  const size_t groups = ocf_div_ceil(l.rows, rb) * batch;
  const size_t want = (size_t)t->fill * facts->compute_units;
  const size_t quantum = 32 * kw * unroll;
  size_t min_k = ocf_round_up((size_t)tuning->matmul.skinny.split_min, quantum);
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_MATMUL_FEW_MMA;
  plan->swapped = swapped;
  plan->splits = 1;
  plan->k_split = call->k;
  if (groups < want && call->k >= 2 * min_k) {
    const size_t per_split = l.rows * l.small * batch;
    size_t splits = ocf_div_ceil(want, groups);
    if (splits > call->k / min_k) splits = call->k / min_k;
    if (splits > 64) splits = 64;
    splits = ocf_min_size(splits, ocf_scratch_ranges(&call->scratch_bound, per_split * 4, 0));
    const size_t k_split = ocf_round_up(ocf_div_ceil(call->k, ocf_max_size(splits, 1)), quantum);
    splits = ocf_div_ceil(call->k, k_split);
    if (splits >= 2 && per_split <= FEW_SCRATCH_MAX / sizeof(float) / splits) {
      plan->splits = splits;
      plan->k_split = k_split;
      plan->scratch_bytes = splits * per_split * sizeof(float);
      plan->scratch_written = 1; /* matmul_few_mma_split writes every sum the reduce reads */
    }
  }
  if (groups * plan->splits > 0x7fffffffu) return OCF_MMA_NOT_APPLICABLE;

  /* Rule 5, and the defines. */
  const size_t x_off = l.x_is_b ? call->b_off : call->a_off;
  const size_t x_stride = l.x_is_b ? call->stride_b : call->stride_a;
  const size_t v_off = l.x_is_b ? call->a_off : call->b_off;
  const size_t v_stride = l.x_is_b ? call->stride_a : call->stride_b;
  const int v_kcont = l.v_ps == 1 && l.small > 0;
  ocf_plan_define(plan, "N_SMALL", (long long)l.small);
  ocf_plan_define(plan, "WARPS", (long long)warps);
  ocf_plan_define(plan, "KW", (long long)kw);
  ocf_plan_define(plan, "NT", (long long)nt);
  ocf_plan_define(plan, "UNROLL", (long long)unroll);
  ocf_plan_define(plan, "X_KCONT", l.x_kcont);
  ocf_plan_define(plan, "V_KCONT", v_kcont);
  ocf_plan_define(plan, "X_VEC", few_vec(l.x_kcont, x_off, l.ldx, x_stride, batch));
  /* V's rows (Y's columns) lie v_ss apart: that stride must keep them aligned too. */
  ocf_plan_define(plan, "V_VEC",
                  few_vec(v_kcont, v_off, l.small > 1 ? l.v_ss : 8, v_stride, batch));
  ocf_plan_define(plan, "C_DTYPE", call->c_dtype);
  ocf_plan_define(plan, "BIAS_DTYPE", call->bias_dtype);
  ocf_plan_define(plan, "ACTIVATION", call->activation);
  ocf_plan_define(plan, "BIAS", l.bias);
  ocf_plan_define(plan, "SPLIT", plan->splits > 1);
  ocf_plan_define(plan, "MMA_EMULATE", emulate);
  ocf_plan_define(plan, "MMA_DTYPE", call->a_dtype);

  const size_t local_size[1] = {wg};
  const size_t global[1] = {groups * plan->splits * wg};
  if (plan->splits == 1) {
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_FEW_MMA, 1, global, local_size);
  } else {
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_FEW_MMA_SPLIT, 1, global, local_size);
    const size_t reduce[1] = {ocf_round_up(batch * l.rows * l.small, wg)};
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_FEW_MMA_REDUCE, 1, reduce, local_size);
  }
  plan->local_mem_bytes = ocf_matmul_few_local_bytes(warps, nt, emulate);
  return ocf_plan_verify(plan, facts) == OCF_SUCCESS ? OCF_MMA_PLANNED : OCF_MMA_NOT_APPLICABLE;
}
