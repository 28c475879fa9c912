/* What every planner shares: building a plan, its build options, its description and checks. */
#include "plan/plan.h"

#include "common.h"

#include <stdio.h>
#include <string.h>

void ocf_plan_define(ocf_plan *plan, const char *name, long long value) {
  if (plan->define_count < OCF_PLAN_MAX_DEFINES) {
    plan->defines[plan->define_count].name = name;
    plan->defines[plan->define_count].value = value;
  }
  plan->define_count++; /* past the capacity: ocf_plan_verify reports it */
}

long long ocf_plan_define_value(const ocf_plan *plan, const char *name, long long fallback) {
  for (unsigned i = 0; i < plan->define_count && i < OCF_PLAN_MAX_DEFINES; i++)
    if (strcmp(plan->defines[i].name, name) == 0) return plan->defines[i].value;
  return fallback;
}

void ocf_plan_step_add(ocf_plan *plan, ocf_kernel_id kernel, unsigned dims, const size_t *global,
                       const size_t *local) {
  if (plan->step_count < OCF_PLAN_MAX_STEPS) {
    ocf_plan_step *step = &plan->steps[plan->step_count];
    step->kernel = kernel;
    step->dims = dims;
    for (unsigned d = 0; d < 3; d++) {
      step->global[d] = d < dims ? global[d] : 1;
      step->local[d] = d < dims ? local[d] : 1;
    }
  }
  plan->step_count++;
}

/* Appends one space-separated option; -1 when it does not fit. */
static int append_option(char *out, size_t capacity, size_t *used, const char *name,
                         const char *value) {
  int n = snprintf(out + *used, capacity - *used, "%s%s%s", *used ? " " : "", name, value);
  if (n < 0 || (size_t)n >= capacity - *used) return -1;
  *used += (size_t)n;
  return 0;
}

/* Whether one of `program`'s steps reads the define `name` (its descriptor lists it). */
static int program_reads(const ocf_plan *plan, ocf_program_id program, const char *name) {
  for (unsigned s = 0; s < plan->step_count && s < OCF_PLAN_MAX_STEPS; s++) {
    const ocf_kernel_desc *desc = ocf_kernel_desc_get(plan->steps[s].kernel);
    if (!desc || desc->program != program) continue;
    for (const char *const *read = desc->defines; *read; read++)
      if (strcmp(*read, name) == 0) return 1;
  }
  return 0;
}

/* The options of `program` (every step's when `all`): the -D values, each step's kernel, the
   register cap. */
static int write_options(const ocf_plan *plan, ocf_program_id program, int all, char *out,
                         size_t capacity) {
  size_t used = 0;
  char text[96];
  if (capacity == 0) return -1;
  out[0] = '\0';
  const int own = program == plan->program; /* (ocf_plan_options: the plan's program) */
  for (unsigned i = 0; i < plan->define_count && i < OCF_PLAN_MAX_DEFINES; i++) {
    if (!own && !program_reads(plan, program, plan->defines[i].name)) continue;
    snprintf(text, sizeof text, "%s=%lld", plan->defines[i].name, plan->defines[i].value);
    if (append_option(out, capacity, &used, "-D", text) != 0) return -1;
  }
  /* Only the plan's kernels are compiled (cl/common.cl): a smaller program builds faster from
     source, and loads faster from a binary (PoCL unpacks every kernel's compiled code). */
  for (unsigned s = 0; s < plan->step_count && s < OCF_PLAN_MAX_STEPS; s++) {
    const ocf_kernel_desc *desc = ocf_kernel_desc_get(plan->steps[s].kernel);
    if (!desc) return -1;
    if (!all && desc->program != program) continue;
    if (append_option(out, capacity, &used, "-DOCF_KERNEL_", desc->name) != 0) return -1;
  }
  if (plan->max_registers && own) {
    snprintf(text, sizeof text, "%u", plan->max_registers);
    if (append_option(out, capacity, &used, "-cl-nv-maxrregcount=", text) != 0) return -1;
  }
  return 0;
}

int ocf_plan_options(const ocf_plan *plan, char *out, size_t capacity) {
  return write_options(plan, plan->program, 1, out, capacity);
}

int ocf_plan_program_options(const ocf_plan *plan, ocf_program_id program, char *out,
                             size_t capacity) {
  return write_options(plan, program, 0, out, capacity);
}

ocf_program_id ocf_plan_step_program(const ocf_plan *plan, unsigned step) {
  const ocf_kernel_desc *desc = step < plan->step_count && step < OCF_PLAN_MAX_STEPS
                                    ? ocf_kernel_desc_get(plan->steps[step].kernel)
                                    : NULL;
  return desc ? desc->program : plan->program;
}

void ocf_plan_describe(const ocf_plan *plan, char *out, size_t capacity) {
  size_t used = 0;
  if (capacity == 0) return;
  out[0] = '\0';
  for (unsigned s = 0; s < plan->step_count && s < OCF_PLAN_MAX_STEPS; s++) {
    const ocf_plan_step *step = &plan->steps[s];
    const ocf_kernel_desc *desc = ocf_kernel_desc_get(step->kernel);
    int n;
    if (step->dims == 2)
      n = snprintf(out + used, capacity - used, "%s%s wg=%zux%zu groups=%zux%zu", s ? " + " : "",
                   desc ? desc->name : "?", step->local[0], step->local[1],
                   step->global[0] / step->local[0], step->global[1] / step->local[1]);
    else
      n = snprintf(out + used, capacity - used, "%s%s wg=%zu groups=%zu", s ? " + " : "",
                   desc ? desc->name : "?", step->local[0], step->global[0] / step->local[0]);
    if (n < 0 || (size_t)n >= capacity - used) return;
    used += (size_t)n;
  }
  char options[512];
  if (ocf_plan_options(plan, options, sizeof options) == 0)
    snprintf(out + used, capacity - used, " (%s)%s", options, plan->wide_workgroup ? " wide" : "");
}

ocf_status ocf_plan_verify(const ocf_plan *plan, const ocf_device_facts *facts) {
  if (plan->define_count > OCF_PLAN_MAX_DEFINES || plan->step_count > OCF_PLAN_MAX_STEPS ||
      plan->step_count == 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: %u defines and %u steps (library bug)",
                    plan->define_count, plan->step_count);
  for (unsigned s = 0; s < plan->step_count; s++) {
    const ocf_plan_step *step = &plan->steps[s];
    const ocf_kernel_desc *desc = ocf_kernel_desc_get(step->kernel);
    /* The last step is of the plan's program; an earlier one may be of another (the staging
       step of matmul's staged wgmma plans), built with the same options. */
    if (!desc || (desc->program != plan->program && s + 1 == plan->step_count))
      return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: step %u's kernel is not of its program", s);
    /* The launch binds every step's arguments before the first enqueue: one kernel object
       cannot hold two steps' arguments. */
    for (unsigned t = 0; t < s; t++)
      if (plan->steps[t].kernel == step->kernel)
        return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: steps %u and %u run the same kernel %s", t, s,
                        desc->name);
    for (const char *const *name = desc->defines; *name; name++) {
      int found = 0;
      for (unsigned i = 0; i < plan->define_count; i++)
        found = found || strcmp(plan->defines[i].name, *name) == 0;
      if (!found)
        return ocf_fail(OCF_ERR_INVALID_VALUE, "plan: %s reads -D%s, which the plan lacks",
                        desc->name, *name);
    }
    size_t items = 1;
    for (unsigned d = 0; d < step->dims; d++) {
      if (step->local[d] == 0 || step->global[d] == 0 || step->global[d] % step->local[d] != 0)
        return ocf_fail(OCF_ERR_INVALID_VALUE,
                        "plan: %s's global size %zu is not a multiple of its local size %zu",
                        desc->name, step->global[d], step->local[d]);
      if (d < 3 && step->local[d] > facts->max_item_sizes[d])
        return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                        "workgroup dimension %u is %zu, above the device's limit of %zu", d,
                        step->local[d], facts->max_item_sizes[d]);
      items *= step->local[d];
    }
    if (items > facts->max_workgroup_size)
      return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                      "workgroup of %zu work-items exceeds the device's maximum of %zu", items,
                      facts->max_workgroup_size);
  }
  const unsigned long long local_limit = ocf_facts_local_limit(facts, plan->program);
  if (plan->local_mem_bytes > local_limit)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "the plan needs %zu bytes of local memory, the device has %llu",
                    plan->local_mem_bytes, local_limit);
  return OCF_SUCCESS;
}

size_t ocf_plan_grid_groups(const ocf_device_facts *facts, size_t work) {
  size_t cap = (size_t)facts->compute_units * 2048;
  if (work == 0) work = 1;
  return work < cap ? work : cap;
}

int ocf_plan_warp_shuffles(const ocf_device_facts *facts, size_t wg, size_t seg) {
  if (facts->vendor != OCF_VENDOR_NVIDIA || !(facts->type & CL_DEVICE_TYPE_GPU) ||
      facts->nv_compute_capability < 70 || seg == 0)
    return 0;
  return wg % 32 == 0 && (seg % 32 == 0 || 32 % seg == 0);
}

int ocf_plan_join_fences(const ocf_device_facts *facts, int want) {
  if (!want) return 0;
  if (facts->vendor == OCF_VENDOR_NVIDIA && (facts->type & CL_DEVICE_TYPE_GPU) &&
      facts->nv_compute_capability >= 70)
    return 2;
  return (facts->type & CL_DEVICE_TYPE_CPU) ? 1 : 0;
}

size_t ocf_plan_steps_limit(const ocf_device_facts *facts, const ocf_plan *plan, size_t cap) {
  size_t lowest = cap;
  for (unsigned s = 0; s < plan->step_count; s++) {
    size_t limit = ocf_facts_workgroup_limit(facts, plan->steps[s].kernel);
    if (limit < lowest) lowest = limit;
  }
  return lowest;
}

size_t ocf_scratch_ranges(const ocf_scratch_bound *bound, size_t per_range, size_t fixed) {
  if (!bound->set) return SIZE_MAX;
  if (bound->bytes < fixed) return 0;
  return per_range ? (bound->bytes - fixed) / per_range : SIZE_MAX;
}
