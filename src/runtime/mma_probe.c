/*
 * The probe of the matrix-unit kernel (cl/matmul_mma_nv.cl) on a context: does its inline PTX
 * build with this driver, does it compute right, and how much static local memory does it run
 * with? The planner (src/plan/plan_matmul_mma.c) plans the kernel only where a probe of at least
 * the local memory it needs ran right on the context; until then it plans the SIMT kernels and
 * says which probe is due (plan->probe), and src/ops/matmul.c runs it here, once, at the first
 * call that would use the kernel.
 *
 * The probe is the kernel itself, as the library builds it (the program cache, the disk cache,
 * the launch), with bf16 inputs in 128 x 128 tiles of K slices of 32 and as many 16 KiB stages
 * as the local memory to show, run on the context's queue on a 200 x 136 x 80 product: a whole
 * interior tile and ragged edge tiles, two full K slices and a half one, from C's poisoned
 * (all-NaN) start. Its inputs are small integers, so every sum is exact in fp32 whatever the
 * order, and every element must come out exactly; the padding of C's rows must stay poison.
 *
 * What a failure means: above the local memory the device reports, the size may be at fault, so
 * the planner shrinks its stages below it and asks again (a smaller size, at the device's own
 * at the least); at or below it, the kernel itself fails here, and the context takes the SIMT
 * kernels from then on. A device fault during the probe would lose the CUDA context (NVIDIA's
 * driver cannot recover a faulting process's state): the kernel's every address is checked
 * offline by tools/lab/mma's emulation, and the lab ran this geometry right on the H200.
 */
#include "runtime/context.h"
#include "runtime/log.h"
#include "runtime/probe_run.h"

#include <stdio.h>

enum { PROBE_M = 200, PROBE_N = 136, PROBE_K = 80, PROBE_LDC = PROBE_N + 3 };

/* Small integers, exact in bf16 (at most 4 in magnitude) and in every fp32 sum of 80 products. */
static int probe_a(size_t i, size_t p) {
  return (int)((i * 7 + p * 3) % 9) - 4;
}
static int probe_b(size_t p, size_t j) {
  return (int)((p * 5 + j * 11) % 7) - 3;
}

static const ocf_probe_product probe_product = {PROBE_M,   PROBE_N, PROBE_K,
                                                PROBE_LDC, probe_a, probe_b};

/* Whether a probe of `bytes` can still tell anything. */
static int probe_due(const ocf_device_facts *facts, size_t bytes) {
  if (facts->learnt.mma == OCF_PROBE_FAILED) return 0;
  if (facts->learnt.mma_local_failed && bytes >= facts->learnt.mma_local_failed) return 0;
  return facts->learnt.mma == OCF_PROBE_UNKNOWN || bytes > facts->learnt.mma_local_ok;
}

static void probe_mma(ocf_context *ctx, size_t bytes) {
  pthread_mutex_lock(&ctx->probe_lock);
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  if (!probe_due(&facts, bytes)) { /* another call's probe answered meanwhile */
    pthread_mutex_unlock(&ctx->probe_lock);
    return;
  }
  ocf_tuning_values tuning;
  ocf_probe_outcome out;
  ocf_probe_begin(ctx, &probe_product, &tuning, &out);
  ocf_plan plan;
  const ocf_status planned =
      ocf_plan_matmul_mma_probe(&facts, &tuning, bytes, PROBE_M, PROBE_N, &plan);
  ocf_probe_finish(ctx, planned, &plan, &probe_product, OCF_KERNEL_MATMUL_MMA, &out);
  const int ok = out.ok;

  pthread_mutex_lock(&ctx->lock);
  ctx->plan_generation++;
  ocf_device_facts *f = &ctx->facts;
  if (ok) {
    f->learnt.mma = OCF_PROBE_PASSED;
    if (bytes > f->learnt.mma_local_ok) {
      f->learnt.mma_local_ok = bytes;
      f->learnt.mma_local_ok_reported = out.reported;
      /* A budget attention_mma or attention_block learnt (a build that took more than its plan
         counted, near the old limit: launch.c) scaled that limit down; the new one is learnt
         afresh, else the plans stay below the old limit for good (H200: after a 49152-byte
         probe, a budget under 48 KiB kept 64-key tiles out after the 114688-byte probe
         passed). */
      f->learnt.program_local_budget[OCF_PROGRAM_ATTENTION_MMA_NV] = 0;
      f->learnt.program_local_budget[OCF_PROGRAM_ATTENTION_BLOCK] = 0;
    }
  } else if (bytes > f->local_mem_bytes) {
    /* Perhaps only too much local memory: the planner asks again below this size. */
    if (!f->learnt.mma_local_failed || bytes < f->learnt.mma_local_failed)
      f->learnt.mma_local_failed = bytes;
  } else {
    f->learnt.mma = OCF_PROBE_FAILED;
  }
  const ocf_probe_state state = f->learnt.mma;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_INFO,
          "matrix-unit probe with %zu bytes of local memory: %s%s%s (%.0f ms); the matrix units "
          "are %s",
          bytes, ok ? "right" : "failed", ok ? "" : ": ", out.why, ocf_now_ms() - out.start_ms,
          state == OCF_PROBE_PASSED   ? "in use"
          : state == OCF_PROBE_FAILED ? "not used on this context"
                                      : "still to be probed at a smaller size");
  pthread_mutex_unlock(&ctx->probe_lock);
}

void ocf_probe_run(ocf_context *ctx, const ocf_plan *plan) {
  if (plan->probe == OCF_PLAN_PROBE_MMA) probe_mma(ctx, plan->probe_bytes);
  if (plan->probe == OCF_PLAN_PROBE_WGMMA) ocf_probe_wgmma(ctx);
  if (plan->probe == OCF_PLAN_PROBE_WIDE) ocf_probe_wide(ctx);
  if (plan->probe == OCF_PLAN_PROBE_WGMMA_TMA) ocf_probe_wgmma_tma(ctx);
}

void ocf_probe_mma_failed(ocf_context *ctx, const char *why) {
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.learnt.mma = OCF_PROBE_FAILED;
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "matrix-unit kernel failed after its probe passed (%s): the SIMT kernels take over on "
          "this context",
          why);
}

void ocf_probe_block_local_failed(ocf_context *ctx, const char *why) {
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.learnt.program_local_budget[OCF_PROGRAM_ATTENTION_BLOCK] = ctx->facts.local_mem_bytes;
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "attention_block's tiles beyond the reported local memory failed to build (%s): its "
          "tiles fit the reported size on this context",
          why);
}
