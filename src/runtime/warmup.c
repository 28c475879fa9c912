/*
 * ocf_warmup: builds (or loads from the disk cache) every program an op will need on this
 * device, and runs each kernel once on no work, so that a service pays the compile cost at
 * start-up instead of in its first calls. The programs an op needs are found by asking the
 * planner (a pure function) for the plans of the op's warm-up grid (its row in the op registry,
 * src/ops/<op>_row.c): calls that cover every shape class and every edge between plans: sizes from
 * 1 to millions, aligned and unaligned offsets, every transpose. The kernels run with a frame of
 * zero sizes and a single workgroup: runtimes that compile work-group functions at first launch
 * (PoCL) do so now, and the binaries stored on disk afterwards carry them.
 */
#include "ops/registry.h"
#include "runtime/context.h"
#include "runtime/launch.h"
#include "runtime/log.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_PLANS = 1024 };

typedef struct plan_set {
  ocf_plan plans[MAX_PLANS];
  char options[MAX_PLANS][512];
  const ocf_op_desc *ops[MAX_PLANS]; /* the op whose frame each plan's kernels take */
  size_t count;
  size_t dropped; /* plans past MAX_PLANS: built at their first call instead */
} plan_set;

/* Keeps a plan when no kept plan has the same program, options, kernels and local sizes. */
static void keep(plan_set *set, const ocf_plan *plan) {
  char options[512];
  if (ocf_plan_options(plan, options, sizeof options) != 0) return;
  for (size_t i = 0; i < set->count; i++) {
    const ocf_plan *p = &set->plans[i];
    int same = p->program == plan->program && p->step_count == plan->step_count &&
               strcmp(set->options[i], options) == 0;
    for (unsigned s = 0; same && s < plan->step_count; s++)
      same = p->steps[s].kernel == plan->steps[s].kernel &&
             memcmp(p->steps[s].local, plan->steps[s].local, sizeof p->steps[s].local) == 0;
    if (same) return;
  }
  if (set->count == MAX_PLANS) {
    set->dropped++;
    return;
  }
  set->plans[set->count] = *plan;
  memcpy(set->options[set->count], options, sizeof options);
  set->count++;
}

/* What a grid's visit needs: the context (for its tuning), the facts and the plan set. */
typedef struct grid_walk {
  ocf_context *ctx;
  const ocf_device_facts *facts;
  const ocf_op_desc *desc;
  plan_set *set;
} grid_walk;

/* Plans one call of an op's warm-up grid (src/ops/<op>_row.c) and keeps its plan. */
static void plan_call(void *user, const void *call) {
  grid_walk *walk = user;
  ocf_shape shape;
  ocf_dtype dtype;
  walk->desc->tuning_key(call, &shape, &dtype);
  ocf_tuning_values tuning;
  ocf_context_tuning_for(walk->ctx, walk->desc->op, dtype, &shape, &tuning);
  ocf_plan plan;
  if (walk->desc->plan(walk->facts, &tuning, call, &plan) == OCF_SUCCESS) keep(walk->set, &plan);
}

/* The floats a dry run may touch: one matmul tile at most. */
static size_t dummy_floats(const ocf_plan *plan) {
  long long rows = ocf_plan_define_value(plan, "MDIMC", 1) * ocf_plan_define_value(plan, "MWI", 1);
  long long cols = ocf_plan_define_value(plan, "NDIMC", 1) * ocf_plan_define_value(plan, "NWI", 1);
  return (size_t)(rows * cols) + 16;
}

/* Builds a plan's programs and runs each of its kernels once on no work. */
static ocf_status warm_plan(ocf_context *ctx, const ocf_op_desc *desc, const ocf_plan *plan) {
  cl_int err = CL_SUCCESS;
  cl_mem dummy = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, dummy_floats(plan) * sizeof(float),
                                NULL, &err);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clCreateBuffer(warm-up)");
  ocf_frame_storage frame;
  ocf_frame_slots slots = {NULL, NULL};
  desc->frame(plan, NULL, NULL, dummy, &frame, &slots);
  ocf_status status = OCF_SUCCESS;
  pthread_mutex_lock(&ctx->lock);
  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++) {
    const ocf_plan_step *step = &plan->steps[s];
    ocf_built_kernel *kernel = NULL;
    status = ocf_plan_step_kernel(ctx, plan, s, &kernel);
    size_t items = step->local[0] * step->local[1] * step->local[2];
    if (status != OCF_SUCCESS || items > kernel->max_workgroup) continue; /* a call re-plans */
    status = ocf_bind_arguments(kernel, frame.bytes);
    if (status == OCF_SUCCESS) {
      err = clEnqueueNDRangeKernel(ctx->queue, kernel->kernel, step->dims, NULL, step->local,
                                   step->local, 0, NULL, NULL);
      if (err != CL_SUCCESS) status = ocf_fail_cl(err, "clEnqueueNDRangeKernel(warm-up)");
    }
  }
  pthread_mutex_unlock(&ctx->lock);
  if (status == OCF_SUCCESS && (err = clFinish(ctx->queue)) != CL_SUCCESS)
    status = ocf_fail_cl(err, "clFinish(warm-up)");
  clReleaseMemObject(dummy);
  return status;
}

ocf_status ocf_warmup(ocf_context *ctx, const char *op, size_t *plans) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_warmup: ctx is NULL");
  ocf_op only = op ? ocf_op_from_name(op) : OCF_OP_COUNT;
  if (op && only == OCF_OP_COUNT) {
    char names[256];
    ocf_op_names(names, sizeof names);
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_warmup: op \"%s\" is not %s", op, names);
  }
  plan_set *set = calloc(1, sizeof *set);
  if (!set) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "ocf_warmup: plan set");
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  for (int i = 0; i < OCF_OP_COUNT; i++) {
    if (op && i != (int)only) continue;
    grid_walk walk = {ctx, &facts, ocf_op_desc_get((ocf_op)i), set};
    size_t first = set->count;
    walk.desc->warmup_grid(plan_call, &walk);
    for (size_t p = first; p < set->count; p++)
      set->ops[p] = walk.desc;
  }
  if (set->dropped)
    ocf_log(&ctx->log, OCF_LOG_INFO,
            "warm-up: %zu plans past the first %d are left to their first call", set->dropped,
            MAX_PLANS);
  double start = ocf_now_ms();
  ocf_status status = OCF_SUCCESS;
  for (size_t i = 0; i < set->count && status == OCF_SUCCESS; i++)
    status = warm_plan(ctx, set->ops[i], &set->plans[i]);
  if (status == OCF_SUCCESS) {
    pthread_mutex_lock(&ctx->lock);
    ocf_program_cache_persist(ctx);
    pthread_mutex_unlock(&ctx->lock);
    ocf_log(&ctx->log, OCF_LOG_INFO, "warm-up of %s: %zu plans in %.0f ms", op ? op : "every op",
            set->count, ocf_now_ms() - start);
  }
  if (plans) *plans = set->count;
  free(set);
  return status;
}
