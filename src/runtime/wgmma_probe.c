/*
 * The probe of Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl) on a context: does its PTX,
 * retargeted to sm_90a (src/ptx_retarget.c), build with this driver, and does it compute right
 * with the static local memory of the larger of the tuning's rings (wgmma.bn's and wgmma.wave_bn's:
 * no plan gets more than the probe ran; the TMA-fed form's probe takes the large class's tuning
 * where its ring is larger, three consumers' there)? The planner
 * (src/plan/plan_matmul_wgmma.c) plans the kernel only after this probe passed; until then the
 * call gets the next plan with `probe` set, and src/ops/matmul.c runs the probe here, once per
 * context, at the first call that would use the kernel.
 *
 * The probe is the kernel itself as the library builds it (the program cache with the
 * retarget, the disk cache, the launch), with bf16 inputs and B stored k x n (the transpose bit
 * of wgmma), on a 160 x 264 x 200 product: a whole 128-row tile and a ragged one, a whole
 * column tile and a ragged one (8 columns of 256, 72 of 192), three full K slices and one of 8
 * elements (the ring wraps with 3 stages, nearly with 4), from C's poisoned (all-NaN) start. Its
 * inputs are small integers, so every sum is exact in fp32 whatever the order, and every element
 * must come out exactly; the padding of C's rows must stay poison. A kernel that built but
 * multiplied nothing (the sm_90a lines left as comments) leaves zeros: wrong. Any failure (a
 * refused retarget, a build or launch error, a wrong element) marks the kernel unusable on the
 * context: calls go to the mma.sync kernel, then the SIMT kernels. A device fault would lose the
 * CUDA context: the kernel's addresses are those of the lab kernel that ran every check on the H200
 * (tools/lab/wgmma).
 */
#include "runtime/context.h"
#include "runtime/log.h"
#include "runtime/probe_run.h"

#include <stdio.h>

enum { PROBE_M = 160, PROBE_N = 264, PROBE_K = 200, PROBE_LDC = PROBE_N + 4 };

/* Small integers, exact in bf16 (at most 4 in magnitude) and in every fp32 sum of 200
   products (at most 2400 in magnitude). */
static int probe_a(size_t i, size_t p) {
  return (int)((i * 5 + p * 3) % 9) - 4;
}
static int probe_b(size_t p, size_t j) {
  return (int)((p * 7 + j * 2) % 7) - 3;
}

static const ocf_probe_product probe_product = {PROBE_M,   PROBE_N, PROBE_K,
                                                PROBE_LDC, probe_a, probe_b};

/* The two forms the probes below run: the plain kernel and its TMA-fed form. */
typedef struct wgmma_form {
  int tma;
  const char *name, *fallback;
} wgmma_form;

/* Runs one form's probe once per context: its outcome, local memory and what the built kernel
   reported into the facts (wgmma, wgmma_local_ok, ...; wgmma_tma, wgmma_tma_local_ok, ...). */
static void probe_form(ocf_context *ctx, const wgmma_form *form) {
  pthread_mutex_lock(&ctx->probe_lock);
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  const ocf_probe_state known = form->tma ? facts.learnt.wgmma_tma : facts.learnt.wgmma;
  if (known != OCF_PROBE_UNKNOWN) { /* another call's probe answered meanwhile */
    pthread_mutex_unlock(&ctx->probe_lock);
    return;
  }
  ocf_tuning_values tuning;
  ocf_probe_outcome out;
  ocf_probe_begin(ctx, &probe_product, &tuning, &out);
  ocf_plan plan;
  ocf_status planned =
      form->tma ? ocf_plan_matmul_wgmma_tma_probe(&facts, &tuning, PROBE_M, PROBE_N, &plan)
                : ocf_plan_matmul_wgmma_probe(&facts, &tuning, PROBE_M, PROBE_N, &plan);
  if (form->tma) {
    /* The large class's ring where it is larger: a database may give that class three
       consumers (their 192-row tiles' ring, 230784 bytes in 4 stages, past the small class's),
       and no plan gets more local memory than the probe ran right with. */
    ocf_tuning_values large;
    const ocf_shape shape = {{4096, 4096, 4096}};
    ocf_context_tuning_for(ctx, OCF_OP_MATMUL, OCF_BF16, &shape, &large);
    ocf_plan other;
    if (ocf_plan_matmul_wgmma_tma_probe(&facts, &large, PROBE_M, PROBE_N, &other) == OCF_SUCCESS &&
        (planned != OCF_SUCCESS || other.local_mem_bytes > plan.local_mem_bytes)) {
      plan = other;
      planned = OCF_SUCCESS;
    } else if (planned == OCF_SUCCESS) {
      ocf_error_clear(); /* the other plan's refusal is not the probe's */
    }
  }
  ocf_probe_finish(ctx, planned, &plan, &probe_product,
                   form->tma ? OCF_KERNEL_MATMUL_WGMMA_TMA : OCF_KERNEL_MATMUL_WGMMA, &out);
  const int ok = out.ok;

  pthread_mutex_lock(&ctx->lock);
  ctx->plan_generation++;
  ocf_learnt_facts *l = &ctx->facts.learnt;
  *(form->tma ? &l->wgmma_tma : &l->wgmma) = ok ? OCF_PROBE_PASSED : OCF_PROBE_FAILED;
  if (ok) {
    *(form->tma ? &l->wgmma_tma_local_ok : &l->wgmma_local_ok) = plan.local_mem_bytes;
    *(form->tma ? &l->wgmma_tma_local_ok_reported : &l->wgmma_local_ok_reported) = out.reported;
  }
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_INFO,
          "%s probe (sm_90a, %zu bytes of local memory): %s%s%s (%.0f ms); the %s is %s",
          form->name, plan.local_mem_bytes, ok ? "right" : "failed", ok ? "" : ": ", out.why,
          ocf_now_ms() - out.start_ms, form->tma ? "TMA-fed kernel" : "warpgroup kernel",
          ok ? "in use" : form->fallback);
  pthread_mutex_unlock(&ctx->probe_lock);
}

void ocf_probe_wgmma(ocf_context *ctx) {
  static const wgmma_form plain = {0, "wgmma",
                                   "not used on this context (mma.sync takes its calls)"};
  probe_form(ctx, &plain);
}

/* The TMA-fed form: the same product through matmul_wgmma_tma. It needs what only a run shows
   on this driver: the tensor maps its producer warp makes with tensormap.replace from zeroed
   bytes (a format no document fixes: Triton's device-side descriptors are made the same way),
   the TMA's swizzle landing where the descriptors read it, the mbarrier ring, and a workgroup of
   288 work-items where the kernel reports 256 (the wide probe passed first). A map the TMA
   copies nothing with would leave the ring waiting forever: the probe's build bounds its waits
   (TMA_WAIT_LIMIT), so it ends wrong, not hung; one the TMA faults on cannot be contained (as
   for any kernel's fault), which is why the probe runs only after the wgmma and wide probes
   passed and only where the tuning asks for the form (wgmma.tma). Any failure keeps the
   cp.async form. */
void ocf_probe_wgmma_tma(ocf_context *ctx) {
  static const wgmma_form tma = {1, "wgmma TMA",
                                 "not used on this context (the cp.async form takes its calls)"};
  probe_form(ctx, &tma);
}

void ocf_probe_wgmma_failed(ocf_context *ctx, const char *why) {
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.learnt.wgmma = OCF_PROBE_FAILED;
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "wgmma kernel failed after its probe passed (%s): the mma.sync and SIMT kernels take "
          "over on this context",
          why);
}

void ocf_probe_lanes_bulk_failed(ocf_context *ctx, const char *why) {
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.learnt.lanes_bulk_failed = 1;
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "attention_lanes's bulk copies failed to build (%s): decoding streams through "
          "registers on this context",
          why);
}
