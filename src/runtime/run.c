/* The run loop of every op (runtime/run.h). */
#include "runtime/run.h"

#include "runtime/log.h"
#include "runtime/plan_cache.h"

#include <string.h>

/* A matrix-unit program that failed to build after its probe passed: marked failed for the
   context (later plans take the next kernels), 1; any other plan, 0. */
static int matrix_unit_failed(ocf_context *ctx, const ocf_plan *plan) {
  /* attention_mma rests on the same probe as matmul's mma.sync kernel: a build of either that
     fails after it passed takes the matrix units off the context (the SIMT kernels stay). */
  if (plan->program == OCF_PROGRAM_MATMUL_MMA_NV || plan->program == OCF_PROGRAM_ATTENTION_MMA_NV ||
      plan->program == OCF_PROGRAM_MATMUL_FEW_MMA) {
    ocf_probe_mma_failed(ctx, ocf_last_error());
    return 1;
  }
  /* attention_wgmma rests on the GEMM's wgmma probe (the retarget and sm_90a build on the
     context) the same way. */
  if (plan->program == OCF_PROGRAM_MATMUL_WGMMA_NV ||
      plan->program == OCF_PROGRAM_ATTENTION_WGMMA_NV) {
    ocf_probe_wgmma_failed(ctx, ocf_last_error());
    return 1;
  }
  /* attention_block's tiles past the reported local memory (block.local) stand on the same
     probe's showing: a build of them that fails holds its plans to the reported size. */
  if (plan->program == OCF_PROGRAM_ATTENTION_BLOCK &&
      plan->local_mem_bytes > ctx->facts.local_mem_bytes) {
    ocf_probe_block_local_failed(ctx, ocf_last_error());
    return 1;
  }
  /* attention_lanes's BULK form stands on the same probe, but only it is taken away: the
     lanes stream through registers again. */
  if (plan->program == OCF_PROGRAM_ATTENTION_LANES && ocf_plan_define_value(plan, "BULK", 0)) {
    ocf_probe_lanes_bulk_failed(ctx, ocf_last_error());
    return 1;
  }
  return 0;
}

/* Plans the call and builds and checks its kernels into *out, planning again when a build
   taught a limit, a probe was due or a matrix-unit program failed to build; each settles a
   fact (a cap only ever lowered, a probe's outcome for good), so the bound is a guard, not a
   path any device takes. *empty: the call has no work (out holds its plan, nothing is built).
   *generation: the generation the plan was made in. */
static ocf_status plan_and_build(ocf_context *ctx, const ocf_op_desc *desc, const void *call,
                                 ocf_cached_plan *out, int *empty, unsigned long long *generation) {
  ocf_shape shape;
  ocf_dtype dtype;
  desc->tuning_key(call, &shape, &dtype);
  *empty = 0;
  for (int attempt = 0;; attempt++) {
    /* The generation first, then the facts and tuning it covers: a change after this read
       raises it, and the entry made from older values is never found. */
    ocf_device_facts facts;
    pthread_mutex_lock(&ctx->lock);
    *generation = ctx->plan_generation;
    facts = ctx->facts;
    pthread_mutex_unlock(&ctx->lock);
    ocf_tuning_values tuning;
    ocf_context_tuning_for(ctx, desc->op, dtype, &shape, &tuning);
    ocf_plan *plan = &out->plan;
    ocf_status status = desc->plan(&facts, &tuning, call, plan);
    if (status != OCF_SUCCESS) return status;
    if (desc->empty(call)) {
      *empty = 1;
      return OCF_SUCCESS;
    }
    if (plan->probe != OCF_PLAN_PROBE_NONE && attempt < 8) {
      ocf_probe_run(ctx, plan);
      continue;
    }
    int replan = 0;
    memset(out->kernels, 0, sizeof out->kernels);
    status = ocf_plan_build(ctx, plan, out->kernels, &replan);
    if (status == OCF_ERR_BUILD_FAILED && attempt < 8 && matrix_unit_failed(ctx, plan)) replan = 1;
    if (status == OCF_SUCCESS) {
      ocf_plan_describe(plan, out->description, sizeof out->description);
      return OCF_SUCCESS;
    }
    /* A default size the built kernel cannot run: nothing was enqueued, and the plan is made
       again under the kernel's limit. An explicit size is the caller's, and its refusal is
       the answer. */
    if (!replan || attempt == 8) return status;
    ocf_error_clear();
  }
}

/* The cached plan of the call, or a new one (cached once built). */
static ocf_status find_or_plan(ocf_context *ctx, const ocf_op_desc *desc, const void *call,
                               ocf_cached_plan *out, int *empty) {
  *empty = 0;
  pthread_mutex_lock(&ctx->lock);
  const ocf_cached_plan *found =
      ocf_plan_cache_find(ctx->plan_cache, desc->op, call, desc->call_size, ctx->plan_generation);
  if (found) {
    out->plan = found->plan;
    memcpy(out->kernels, found->kernels, sizeof out->kernels);
    strcpy(out->description, found->description);
  }
  pthread_mutex_unlock(&ctx->lock);
  if (found) return OCF_SUCCESS;
  unsigned long long generation = 0;
  ocf_status status = plan_and_build(ctx, desc, call, out, empty, &generation);
  if (status != OCF_SUCCESS || *empty) return status;
  pthread_mutex_lock(&ctx->lock);
  ocf_plan_cache_insert(&ctx->plan_cache, desc->op, call, desc->call_size, generation, out);
  pthread_mutex_unlock(&ctx->lock);
  return OCF_SUCCESS;
}

/* The plan of run->call within the launch's workspace into *p, *call the call it is of: where
   the caller lends one smaller than the plan's scratch, the call is planned again (a copy in
   *bounded) with the workspace's size as its scratch bound, for fewer ranges of a split or none.
   A plan that cannot shrink (a baseline's, a split a loop limit forces) keeps its size, and the
   launch refuses it (OCF_ERR_BUFFER_TOO_SMALL). Any other call keeps its one cached plan. */
static ocf_status plan_within_workspace(ocf_context *ctx, const ocf_op_desc *desc,
                                        const ocf_run_call *run, ocf_call_storage *bounded,
                                        const void **call, ocf_cached_plan *p, int *empty) {
  *call = run->call;
  ocf_status status = find_or_plan(ctx, desc, run->call, p, empty);
  const ocf_launch *launch = run->launch;
  if (status != OCF_SUCCESS || *empty || !launch->workspace || desc->scratch_bound_at == 0 ||
      p->plan.scratch_bytes <= launch->workspace_size)
    return status;
  ocf_scratch_bound bound;
  memset(&bound, 0, sizeof bound); /* its padding too: the call's bytes key the plan cache */
  bound.set = 1;
  bound.bytes = launch->workspace_size;
  memcpy(bounded->bytes, run->call, desc->call_size);
  memcpy(bounded->bytes + desc->scratch_bound_at, &bound, sizeof bound);
  *call = bounded->bytes;
  ocf_log(&ctx->log, OCF_LOG_DEBUG,
          "%s: the plan's %zu bytes of scratch exceed the launch workspace's %zu: planned within "
          "it",
          desc->name, p->plan.scratch_bytes, launch->workspace_size);
  return find_or_plan(ctx, desc, *call, p, empty);
}

/* An enqueue of a wide plan (plan->wide_workgroup) that the runtime refused for its size: each
   step above its kernel's reported limit is learnt as refused (its plans stay within that
   limit from now on), 1; any other failure, 0. */
static int wide_launch_refused(ocf_context *ctx, const ocf_cached_plan *p, ocf_status status) {
  if (!p->plan.wide_workgroup || (status != (ocf_status)CL_OUT_OF_RESOURCES &&
                                  status != (ocf_status)CL_INVALID_WORK_GROUP_SIZE))
    return 0;
  int refused = 0;
  for (unsigned s = 0; s < p->plan.step_count; s++) {
    const ocf_plan_step *step = &p->plan.steps[s];
    const size_t items = step->local[0] * step->local[1] * step->local[2];
    if (p->kernels[s] && items > p->kernels[s]->max_workgroup) {
      ocf_wide_refused(ctx, step->kernel, p->kernels[s]->max_workgroup);
      refused = 1;
    }
  }
  return refused;
}

ocf_status ocf_run(ocf_context *ctx, const ocf_run_call *run) {
  const ocf_op_desc *desc = ocf_op_desc_get(run->op);
  if (!desc) return ocf_fail(OCF_ERR_INVALID_VALUE, "run: op %d is not an op", (int)run->op);
  for (int attempt = 0;; attempt++) {
    ocf_cached_plan p;
    ocf_call_storage bounded;
    const void *call = NULL;
    int empty = 0;
    ocf_status status = plan_within_workspace(ctx, desc, run, &bounded, &call, &p, &empty);
    if (status != OCF_SUCCESS) return status;
    if (empty) return ocf_dispatch_nothing(run->queue, run->launch);
    ocf_frame_storage frame;
    ocf_frame_slots slots = {NULL, NULL};
    desc->frame(&p.plan, call, run->source, NULL, &frame, &slots);
    status =
        ocf_plan_enqueue(ctx, run->queue, &p.plan, p.kernels, frame.bytes, &slots, run->launch);
    if (status != OCF_SUCCESS) {
      /* Nothing of the plan was at fault, most likely (a buffer, the queue): the entry goes all
         the same, and the next call plans and checks afresh. */
      pthread_mutex_lock(&ctx->lock);
      ocf_plan_cache_remove(ctx->plan_cache, desc->op, call, desc->call_size);
      pthread_mutex_unlock(&ctx->lock);
      /* A wide workgroup the runtime refused: learnt, and the call runs on the plan within the
         kernels' reported limits (only the last step writes an output, so nothing of the
         refused launch is seen). */
      if (attempt == 0 && wide_launch_refused(ctx, &p, status)) {
        ocf_error_clear();
        continue;
      }
      return status;
    }
    ocf_plan_note(p.description);
    ocf_log(&ctx->log, OCF_LOG_DEBUG, "%s", p.description);
    return OCF_SUCCESS;
  }
}

ocf_status ocf_run_prepare(ocf_context *ctx, const ocf_run_call *run, size_t *workspace) {
  *workspace = 0;
  const ocf_op_desc *desc = ocf_op_desc_get(run->op);
  if (!desc) return ocf_fail(OCF_ERR_INVALID_VALUE, "run: op %d is not an op", (int)run->op);
  ocf_cached_plan p;
  int empty = 0;
  ocf_status status = find_or_plan(ctx, desc, run->call, &p, &empty);
  if (status == OCF_SUCCESS && !empty) *workspace = p.plan.scratch_bytes;
  return status;
}
