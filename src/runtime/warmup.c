/*
 * ocf_warmup: builds (or loads from the disk cache) every program an op will need on this
 * device, and runs each kernel once on no work, so that a service pays the compile cost at
 * start-up instead of in its first calls. The programs an op needs are found by asking the
 * planner (a pure function) for the plans of a grid of calls that covers every shape class and
 * every edge between plans: sizes from 1 to millions, aligned and unaligned offsets, every
 * transpose. The kernels run with a frame of zero sizes and a single workgroup: runtimes that
 * compile work-group functions at first launch (PoCL) do so now, and the binaries stored on disk
 * afterwards carry them.
 */
#include "runtime/context.h"
#include "runtime/log.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_PLANS = 1024 };

typedef struct plan_set {
  ocf_plan plans[MAX_PLANS];
  char options[MAX_PLANS][512];
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

static const size_t grid_sizes[] = {1, 3, 16, 64, 100, 256, 1000, 1024, 4096, 16384, 65536};

static void plans_add(ocf_context *ctx, const ocf_device_facts *facts, plan_set *set) {
  for (size_t i = 0; i < OCF_ARRAY_LEN(grid_sizes); i++)
    for (size_t offset = 0; offset < 2; offset++) {
      size_t n = grid_sizes[i] * grid_sizes[i] / 4 + 1;
      ocf_add_call call = {n, offset, offset, offset, OCF_F32, OCF_VARIANT_AUTO, 0};
      ocf_shape shape = {{n, 0, 0}};
      ocf_tuning_values tuning;
      ocf_context_tuning_for(ctx, OCF_OP_ADD, OCF_F32, &shape, &tuning);
      ocf_plan plan;
      if (ocf_plan_add(facts, &tuning, &call, &plan) == OCF_SUCCESS) keep(set, &plan);
    }
}

static void plans_softmax(ocf_context *ctx, const ocf_device_facts *facts, plan_set *set) {
  static const size_t rows_grid[] = {1, 8, 256, 4096, 65536};
  for (size_t r = 0; r < OCF_ARRAY_LEN(rows_grid); r++)
    for (size_t c = 1; c <= ((size_t)1 << 22); c *= 2)
      for (size_t odd = 0; odd < 2; odd++) {
        size_t cols = c + odd * (c / 3 + 1); /* powers of two and widths between them */
        if (rows_grid[r] * cols > ((size_t)1 << 28)) continue;
        ocf_softmax_call call = {.rows = rows_grid[r],
                                 .cols = cols,
                                 .in_ld = cols + odd,
                                 .out_ld = cols + odd,
                                 .in_dtype = OCF_F32,
                                 .out_dtype = OCF_F32,
                                 .variant = OCF_VARIANT_AUTO};
        ocf_shape shape = {{rows_grid[r], cols, 0}};
        ocf_tuning_values tuning;
        ocf_context_tuning_for(ctx, OCF_OP_SOFTMAX, OCF_F32, &shape, &tuning);
        ocf_plan plan;
        if (ocf_plan_softmax(facts, &tuning, &call, &plan) == OCF_SUCCESS) keep(set, &plan);
      }
}

static void plans_matmul(ocf_context *ctx, const ocf_device_facts *facts, plan_set *set) {
  /* Every tile set a class may choose, whole (matmul_tiled_fast) and ragged (mixed), split or
     not: a program holds only its plan's kernels, so each of these is a program of its own. */
  static const size_t sizes[] = {1, 16, 32, 64, 100, 128, 256, 512, 1000, 2048, 8192};
  for (int trans = 0; trans < 4; trans++)
    for (size_t i = 0; i < OCF_ARRAY_LEN(sizes); i++)
      for (size_t j = 0; j < OCF_ARRAY_LEN(sizes); j++)
        for (size_t l = 0; l < OCF_ARRAY_LEN(sizes); l++)
          for (size_t aligned = 0; aligned < 2; aligned++) {
            size_t m = sizes[i], n = sizes[j], k = sizes[l];
            size_t ld = aligned ? 8192 : 8193;
            ocf_matmul_call call = {.trans_a = trans & 1,
                                    .trans_b = trans >> 1,
                                    .m = m,
                                    .n = n,
                                    .k = k,
                                    .lda = ld,
                                    .ldb = ld,
                                    .ldc = ld,
                                    .a_dtype = OCF_F32,
                                    .b_dtype = OCF_F32,
                                    .c_dtype = OCF_F32,
                                    .variant = OCF_VARIANT_AUTO,
                                    .batch = 1};
            ocf_shape shape = {{m, n, k}};
            ocf_tuning_values tuning;
            ocf_context_tuning_for(ctx, OCF_OP_MATMUL, OCF_F32, &shape, &tuning);
            ocf_plan plan;
            if (ocf_plan_matmul(facts, &tuning, &call, &plan) == OCF_SUCCESS) keep(set, &plan);
          }
}

/* norm (issue 20): LayerNorm with weight and bias and RMSNorm with weight, fp32, over rows of
   every class, aligned and not. */
static void plans_norm(ocf_context *ctx, const ocf_device_facts *facts, plan_set *set) {
  static const size_t rows_grid[] = {1, 256, 65536};
  for (int rms = 0; rms < 2; rms++)
    for (size_t r = 0; r < OCF_ARRAY_LEN(rows_grid); r++)
      for (size_t c = 1; c <= ((size_t)1 << 22); c *= 4)
        for (size_t odd = 0; odd < 2; odd++) {
          size_t cols = c + odd * (c / 3 + 1);
          if (rows_grid[r] * cols > ((size_t)1 << 28)) continue;
          ocf_norm_call call = {.rows = rows_grid[r],
                                .cols = cols,
                                .in_ld = cols + odd,
                                .out_ld = cols + odd,
                                .in_dtype = OCF_F32,
                                .out_dtype = OCF_F32,
                                .res_dtype = OCF_F32,
                                .weight_dtype = OCF_F32,
                                .variant = OCF_VARIANT_AUTO,
                                .rms = rms,
                                .has_weight = 1,
                                .has_bias = !rms};
          ocf_shape shape = {{rows_grid[r], cols, 0}};
          ocf_tuning_values tuning;
          ocf_context_tuning_for(ctx, OCF_OP_NORM, OCF_F32, &shape, &tuning);
          ocf_plan plan;
          if (ocf_plan_norm(facts, &tuning, &call, &plan) == OCF_SUCCESS) keep(set, &plan);
        }
}

/* A frame of zero sizes for a plan's program: every kernel does nothing with it, except the
   unguarded matmul kernels, which store one tile of zeros (beta = 0) into `dummy`. */
static const void *dry_frame(const ocf_plan *plan, cl_mem dummy, void *storage) {
  switch (plan->program) {
  case OCF_PROGRAM_ADD: {
    ocf_add_frame *f = storage;
    memset(f, 0, sizeof *f);
    f->x = f->y = f->out = dummy;
    return f;
  }
  case OCF_PROGRAM_SOFTMAX: {
    ocf_softmax_frame *f = storage;
    memset(f, 0, sizeof *f);
    f->in = f->out = f->scratch = f->lengths = dummy;
    f->in_ld = f->out_ld = f->parts = f->causal_period = 1;
    return f;
  }
  case OCF_PROGRAM_MATMUL: {
    ocf_matmul_frame *f = storage;
    memset(f, 0, sizeof *f);
    f->a = f->b = f->c = f->bias = f->partial = dummy;
    f->ldc = (cl_ulong)ocf_plan_define_value(plan, "NDIMC", 1) *
             (cl_ulong)ocf_plan_define_value(plan, "NWI", 1);
    f->lda = f->ldb = 4;
    f->k_split = f->splits = f->batch = 1;
    return f;
  }
  case OCF_PROGRAM_MATMUL_MMA_NV:
  case OCF_PROGRAM_MATMUL_WGMMA_NV: {
    /* m = n = 0: the kernel's workgroups leave at once. (The warm-up grid is fp32 strict, which
       never plans the matrix units; this is for completeness.) */
    ocf_matmul_frame *f = storage;
    memset(f, 0, sizeof *f);
    f->a = f->b = f->c = f->bias = f->partial = dummy;
    f->lda = f->ldb = f->ldc = 1;
    f->k_split = f->splits = f->batch = 1;
    return f;
  }
  case OCF_PROGRAM_MATMUL_SKINNY: {
    /* Every stride 0: whatever a kernel touches is element 0 of the dummy. */
    ocf_matmul_skinny_frame *f = storage;
    memset(f, 0, sizeof *f);
    f->x = f->v = f->c = f->bias = f->partial = dummy;
    f->k_split = f->splits = f->batch = 1;
    return f;
  }
  case OCF_PROGRAM_NORM: { /* issue 20: rows 0, every kernel loops over nothing */
    ocf_norm_frame *f = storage;
    memset(f, 0, sizeof *f);
    f->in = f->out = f->weight = f->bias = f->res = f->res_out = f->mean = f->rstd = f->scratch =
        dummy;
    f->in_ld = f->out_ld = f->res_ld = f->res_out_ld = f->parts = f->part_vecs = 1;
    f->cols = 1;
    return f;
  }
  case OCF_PROGRAM_COUNT:
    break;
  }
  return NULL;
}

/* The floats a dry run may touch: one matmul tile at most. */
static size_t dummy_floats(const ocf_plan *plan) {
  long long rows = ocf_plan_define_value(plan, "MDIMC", 1) * ocf_plan_define_value(plan, "MWI", 1);
  long long cols = ocf_plan_define_value(plan, "NDIMC", 1) * ocf_plan_define_value(plan, "NWI", 1);
  return (size_t)(rows * cols) + 16;
}

/* Builds a plan's program and runs each of its kernels once on no work. */
static ocf_status warm_plan(ocf_context *ctx, const ocf_plan *plan, const char *options) {
  cl_int err = CL_SUCCESS;
  cl_mem dummy = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, dummy_floats(plan) * sizeof(float),
                                NULL, &err);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clCreateBuffer(warm-up)");
  _Alignas(16) unsigned char storage[512];
  const void *frame = dry_frame(plan, dummy, storage);
  ocf_status status = OCF_SUCCESS;
  pthread_mutex_lock(&ctx->lock);
  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++) {
    const ocf_plan_step *step = &plan->steps[s];
    ocf_built_kernel *kernel = NULL;
    status = ocf_kernel_get(ctx, plan->program, options, step->kernel, &kernel);
    size_t items = step->local[0] * step->local[1] * step->local[2];
    if (status != OCF_SUCCESS || items > kernel->max_workgroup) continue; /* a call re-plans */
    status = ocf_bind_arguments(kernel, frame);
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
  if (op && only == OCF_OP_COUNT)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_warmup: op \"%s\" is not add, softmax, matmul or norm", op);
  plan_set *set = calloc(1, sizeof *set);
  if (!set) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "ocf_warmup: plan set");
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  if (!op || only == OCF_OP_ADD) plans_add(ctx, &facts, set);
  if (!op || only == OCF_OP_SOFTMAX) plans_softmax(ctx, &facts, set);
  if (!op || only == OCF_OP_MATMUL) plans_matmul(ctx, &facts, set);
  if (!op || only == OCF_OP_NORM) plans_norm(ctx, &facts, set);
  if (set->dropped)
    ocf_log(&ctx->log, OCF_LOG_INFO,
            "warm-up: %zu plans past the first %d are left to their first call", set->dropped,
            MAX_PLANS);
  double start = ocf_now_ms();
  ocf_status status = OCF_SUCCESS;
  for (size_t i = 0; i < set->count && status == OCF_SUCCESS; i++)
    status = warm_plan(ctx, &set->plans[i], set->options[i]);
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
