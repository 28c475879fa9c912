/* The plan of ocf_add: which of cl/add.cl's kernels (or the benchmark's baseline,
   cl/baselines/add_baseline.cl), how many work-items. */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

ocf_status ocf_plan_add(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                        const ocf_add_call *call, ocf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_ADD;
  const ocf_add_tuning *t = &tuning->add;
  size_t vw = (size_t)t->vw;

  ocf_kernel_id kernel = OCF_KERNEL_ADD_GENERAL;
  size_t work = call->n;
  if (call->variant == OCF_VARIANT_BASELINE) {
    kernel = OCF_KERNEL_ADD_BASELINE;
    plan->program = OCF_PROGRAM_ADD_BASELINE;
  } else if (call->variant == OCF_VARIANT_AUTO && call->x_off % vw == 0 && call->y_off % vw == 0 &&
             call->out_off % vw == 0) {
    kernel = OCF_KERNEL_ADD_VECTOR;
    work = call->n / vw;
  }

  /* Any size runs these kernels; a default one shrinks to what the device and the kernel allow,
     a size the caller fixed is checked as given (ocf_plan_verify). */
  size_t wg = call->workgroup;
  plan->fixed_workgroup = wg != 0;
  if (!wg) {
    size_t limit = ocf_facts_workgroup_limit(facts, kernel);
    if (limit > facts->max_item_sizes[0]) limit = facts->max_item_sizes[0];
    wg = (size_t)t->wg < limit ? (size_t)t->wg : limit;
  }

  size_t global = ocf_round_up(call->n ? call->n : 1, wg);
  if (kernel != OCF_KERNEL_ADD_BASELINE) {
    /* A grid-stride loop over at most groups_per_unit workgroups a compute unit (none on CPUs),
       and at least the work-items add_vector's tail needs (n % vw of them). */
    size_t cap = SIZE_MAX;
    if (t->groups_per_unit) cap = wg * facts->compute_units * (size_t)t->groups_per_unit;
    global = ocf_round_up(work < cap ? work : cap, wg);
    size_t tail_items = ocf_round_up(vw, wg);
    if (global < tail_items) global = tail_items;
  }
  ocf_plan_define(plan, "WG", (long long)wg);
  ocf_plan_define(plan, "VW", (long long)vw);
  ocf_plan_define(plan, "DTYPE", call->dtype);
  ocf_plan_step_add(plan, kernel, 1, &global, &wg);
  return ocf_plan_verify(plan, facts);
}
