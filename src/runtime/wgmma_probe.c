/*
 * The probe of Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl) on a context: does its PTX,
 * retargeted to sm_90a (src/ptx_retarget.c), build with this driver, and does it compute right
 * with the static local memory of the tuning's tile and ring? The planner
 * (src/plan/plan_matmul_wgmma.c) plans the kernel only after this probe passed; until then the
 * call gets the next plan with `probe` set, and src/ops/matmul.c runs the probe here, once per
 * context, at the first call that would use the kernel.
 *
 * The probe is the kernel itself as the library builds it (the program cache with the
 * retarget, the disk cache, the launch), with bf16 inputs and B stored k x n (the transpose bit
 * of wgmma), on a 160 x 264 x 200 product: a whole 128-row tile and a ragged one, a whole
 * column tile and one of 8 columns, three full K slices and one of 8 elements (the ring wraps
 * with 3 stages, nearly with 4), from C's poisoned (all-NaN) start. Its inputs are small
 * integers, so every sum is exact in fp32 whatever the order, and every element must come out
 * exactly; the padding of C's rows must stay poison. A kernel that built but multiplied nothing
 * (the sm_90a lines left as comments) leaves zeros: wrong. Any failure (a refused retarget, a
 * build or launch error, a wrong element) marks the kernel unusable on the context: calls go to
 * the mma.sync kernel, then the SIMT kernels. A device fault would lose the CUDA context: the
 * kernel's addresses are those of the lab kernel that ran every check on the H200
 * (tools/lab/wgmma).
 */
#include "runtime/context.h"
#include "runtime/log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PROBE_M = 160, PROBE_N = 264, PROBE_K = 200, PROBE_LDC = PROBE_N + 4 };

/* Small integers, exact in bf16 (at most 4 in magnitude) and in every fp32 sum of 200
   products (at most 2400 in magnitude). */
static int probe_a(size_t i, size_t p) {
  return (int)((i * 5 + p * 3) % 9) - 4;
}
static int probe_b(size_t p, size_t j) {
  return (int)((p * 7 + j * 2) % 7) - 3;
}

static uint16_t bf16_of_int(int v) {
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (uint16_t)(u >> 16); /* exact: the low half of a small integer's float is 0 */
}

static cl_mem probe_buffer(ocf_context *ctx, size_t bytes, const void *data, cl_int *err) {
  if (*err != CL_SUCCESS) return NULL;
  return clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)data,
                        err);
}

/* Counts the elements of C that are not what they must be. */
static size_t wrong_elements(const float *c) {
  size_t wrong = 0;
  for (size_t i = 0; i < PROBE_M; i++)
    for (size_t j = 0; j < PROBE_LDC; j++) {
      const float got = c[i * PROBE_LDC + j];
      int want = 0;
      for (size_t p = 0; p < PROBE_K && j < PROBE_N; p++)
        want += probe_a(i, p) * probe_b(p, j);
      wrong += j < PROBE_N ? got != (float)want : got == got; /* padding: NaN */
    }
  return wrong;
}

/* Runs the probe plan; 1 when every element came out right. *why says what went wrong. */
static int probe_once(ocf_context *ctx, const ocf_plan *plan, char *why, size_t size) {
  uint16_t *a = malloc(PROBE_M * PROBE_K * sizeof *a), *b = malloc(PROBE_K * PROBE_N * sizeof *b);
  float *c = malloc(PROBE_M * PROBE_LDC * sizeof *c);
  int ok = 0;
  cl_int err = a && b && c ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  cl_mem ab = NULL, bb = NULL, cb = NULL;
  if (err == CL_SUCCESS) {
    for (size_t i = 0; i < PROBE_M; i++)
      for (size_t p = 0; p < PROBE_K; p++)
        a[i * PROBE_K + p] = bf16_of_int(probe_a(i, p));
    for (size_t p = 0; p < PROBE_K; p++)
      for (size_t j = 0; j < PROBE_N; j++)
        b[p * PROBE_N + j] = bf16_of_int(probe_b(p, j));
    memset(c, 0xff, PROBE_M * PROBE_LDC * sizeof *c); /* NaN everywhere */
  }
  ab = probe_buffer(ctx, PROBE_M * PROBE_K * sizeof *a, a, &err);
  bb = probe_buffer(ctx, PROBE_K * PROBE_N * sizeof *b, b, &err);
  cb = probe_buffer(ctx, PROBE_M * PROBE_LDC * sizeof *c, c, &err);
  if (err != CL_SUCCESS) {
    snprintf(why, size, "buffers: OpenCL error %d", (int)err);
  } else {
    ocf_matmul_frame frame = {.m = PROBE_M,
                              .n = PROBE_N,
                              .k = PROBE_K,
                              .k_split = PROBE_K,
                              .splits = 1,
                              .batch = 1,
                              .alpha = 1.0f,
                              .a = ab,
                              .lda = PROBE_K,
                              .b = bb,
                              .ldb = PROBE_N,
                              .beta = 0.0f,
                              .c = cb,
                              .ldc = PROBE_LDC,
                              .bias = ab};
    ocf_launch launch = OCF_LAUNCH_INIT;
    int replan = 0;
    ocf_status status =
        ocf_launch_plan(ctx, ctx->queue, plan, &frame, &frame.partial, &launch, &replan);
    if (status == OCF_SUCCESS)
      err = clEnqueueReadBuffer(ctx->queue, cb, CL_TRUE, 0, PROBE_M * PROBE_LDC * sizeof *c, c, 0,
                                NULL, NULL);
    if (status != OCF_SUCCESS) {
      snprintf(why, size, "%s", ocf_last_error());
    } else if (err != CL_SUCCESS) {
      snprintf(why, size, "reading C: OpenCL error %d", (int)err);
    } else {
      const size_t wrong = wrong_elements(c);
      ok = wrong == 0;
      if (!ok) snprintf(why, size, "%zu of %d elements of C wrong", wrong, PROBE_M * PROBE_LDC);
    }
  }
  if (ab) clReleaseMemObject(ab);
  if (bb) clReleaseMemObject(bb);
  if (cb) clReleaseMemObject(cb);
  free(a), free(b), free(c);
  return ok;
}

/* The local memory the probe's kernel reports (CL_KERNEL_LOCAL_MEM_SIZE), from the cache. */
static unsigned long long reported_local(ocf_context *ctx, const ocf_plan *plan) {
  char options[512];
  if (ocf_plan_options(plan, options, sizeof options) != 0) return 0;
  ocf_built_kernel *kernel = NULL;
  pthread_mutex_lock(&ctx->lock);
  ocf_status status = ocf_kernel_get(ctx, plan->program, options, OCF_KERNEL_MATMUL_WGMMA, &kernel);
  unsigned long long bytes = status == OCF_SUCCESS ? kernel->local_bytes : 0;
  pthread_mutex_unlock(&ctx->lock);
  return bytes;
}

void ocf_probe_wgmma(ocf_context *ctx) {
  pthread_mutex_lock(&ctx->probe_lock);
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  if (facts.wgmma != OCF_PROBE_UNKNOWN) { /* another call's probe answered meanwhile */
    pthread_mutex_unlock(&ctx->probe_lock);
    return;
  }
  const ocf_shape shape = {{PROBE_M, PROBE_N, PROBE_K}};
  ocf_tuning_values tuning;
  ocf_context_tuning_for(ctx, OCF_OP_MATMUL, OCF_BF16, &shape, &tuning);
  ocf_plan plan;
  char why[256] = "";
  int ok = 0;
  const double start = ocf_now_ms();
  if (ocf_plan_matmul_wgmma_probe(&facts, &tuning, PROBE_M, PROBE_N, &plan) != OCF_SUCCESS)
    snprintf(why, sizeof why, "%s", ocf_last_error());
  else
    ok = probe_once(ctx, &plan, why, sizeof why);
  const unsigned long long reported = ok ? reported_local(ctx, &plan) : 0;
  ocf_error_clear();

  pthread_mutex_lock(&ctx->lock);
  ocf_device_facts *f = &ctx->facts;
  f->wgmma = ok ? OCF_PROBE_PASSED : OCF_PROBE_FAILED;
  if (ok) {
    f->wgmma_local_ok = plan.local_mem_bytes;
    f->wgmma_local_ok_reported = reported;
  }
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_INFO,
          "wgmma probe (sm_90a, %zu bytes of local memory): %s%s%s (%.0f ms); the warpgroup "
          "kernel is %s",
          plan.local_mem_bytes, ok ? "right" : "failed", ok ? "" : ": ", why, ocf_now_ms() - start,
          ok ? "in use" : "not used on this context (mma.sync takes its calls)");
  pthread_mutex_unlock(&ctx->probe_lock);
}

void ocf_probe_wgmma_failed(ocf_context *ctx, const char *why) {
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.wgmma = OCF_PROBE_FAILED;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "wgmma kernel failed after its probe passed (%s): the mma.sync and SIMT kernels take "
          "over on this context",
          why);
}
