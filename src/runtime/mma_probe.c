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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PROBE_M = 200, PROBE_N = 136, PROBE_K = 80, PROBE_LDC = PROBE_N + 3 };

/* Small integers, exact in bf16 (at most 4 in magnitude) and in every fp32 sum of 80 products. */
static int probe_a(size_t i, size_t p) {
  return (int)((i * 7 + p * 3) % 9) - 4;
}
static int probe_b(size_t p, size_t j) {
  return (int)((p * 5 + j * 11) % 7) - 3;
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
    /* The read-back waits for the kernel: the queue may be out of order. */
    ocf_launch launch = OCF_LAUNCH_INIT;
    cl_event done = NULL;
    launch.event = &done;
    int replan = 0;
    ocf_status status =
        ocf_launch_plan(ctx, ctx->queue, plan, &frame, &frame.partial, &launch, &replan);
    if (status == OCF_SUCCESS)
      err = clEnqueueReadBuffer(ctx->queue, cb, CL_TRUE, 0, PROBE_M * PROBE_LDC * sizeof *c, c,
                                done ? 1 : 0, done ? &done : NULL, NULL);
    if (done) clReleaseEvent(done);
    if (status != OCF_SUCCESS) {
      snprintf(why, size, "%s", ocf_last_error());
    } else if (err != CL_SUCCESS) {
      snprintf(why, size, "reading C: OpenCL error %d", (int)err);
    } else {
      size_t wrong = 0;
      for (size_t i = 0; i < PROBE_M; i++)
        for (size_t j = 0; j < PROBE_LDC; j++) {
          const float got = c[i * PROBE_LDC + j];
          int want = 0;
          for (size_t p = 0; p < PROBE_K && j < PROBE_N; p++)
            want += probe_a(i, p) * probe_b(p, j);
          const int right = j < PROBE_N ? got == (float)want : got != got; /* padding: NaN */
          wrong += !right;
        }
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
  ocf_status status = ocf_kernel_get(ctx, plan->program, options, OCF_KERNEL_MATMUL_MMA, &kernel);
  unsigned long long bytes = status == OCF_SUCCESS ? kernel->local_bytes : 0;
  pthread_mutex_unlock(&ctx->lock);
  return bytes;
}

/* Whether a probe of `bytes` can still tell anything. */
static int probe_due(const ocf_device_facts *facts, size_t bytes) {
  if (facts->mma == OCF_PROBE_FAILED) return 0;
  if (facts->mma_local_failed && bytes >= facts->mma_local_failed) return 0;
  return facts->mma == OCF_PROBE_UNKNOWN || bytes > facts->mma_local_ok;
}

static void probe_mma(ocf_context *ctx, size_t bytes) {
  pthread_mutex_lock(&ctx->probe_lock);
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  if (!probe_due(&facts, bytes)) { /* another call's probe answered meanwhile */
    pthread_mutex_unlock(&ctx->probe_lock);
    return;
  }
  const ocf_shape shape = {{PROBE_M, PROBE_N, PROBE_K}};
  ocf_tuning_values tuning;
  ocf_context_tuning_for(ctx, OCF_OP_MATMUL, OCF_BF16, &shape, &tuning);
  ocf_plan plan;
  char why[256] = "";
  int ok = 0;
  double start = ocf_now_ms();
  if (ocf_plan_matmul_mma_probe(&facts, &tuning, bytes, PROBE_M, PROBE_N, &plan) != OCF_SUCCESS)
    snprintf(why, sizeof why, "%s", ocf_last_error());
  else
    ok = probe_once(ctx, &plan, why, sizeof why);
  const unsigned long long reported = ok ? reported_local(ctx, &plan) : 0;
  ocf_error_clear();

  pthread_mutex_lock(&ctx->lock);
  ocf_device_facts *f = &ctx->facts;
  if (ok) {
    f->mma = OCF_PROBE_PASSED;
    if (bytes > f->mma_local_ok) {
      f->mma_local_ok = bytes;
      f->mma_local_ok_reported = reported;
    }
  } else if (bytes > f->local_mem_bytes) {
    /* Perhaps only too much local memory: the planner asks again below this size. */
    if (!f->mma_local_failed || bytes < f->mma_local_failed) f->mma_local_failed = bytes;
  } else {
    f->mma = OCF_PROBE_FAILED;
  }
  const ocf_probe_state state = f->mma;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_INFO,
          "matrix-unit probe with %zu bytes of local memory: %s%s%s (%.0f ms); the matrix units "
          "are %s",
          bytes, ok ? "right" : "failed", ok ? "" : ": ", why, ocf_now_ms() - start,
          state == OCF_PROBE_PASSED   ? "in use"
          : state == OCF_PROBE_FAILED ? "not used on this context"
                                      : "still to be probed at a smaller size");
  pthread_mutex_unlock(&ctx->probe_lock);
}

void ocf_probe_run(ocf_context *ctx, const ocf_plan *plan) {
  if (plan->probe == OCF_PLAN_PROBE_MMA) probe_mma(ctx, plan->probe_bytes);
  if (plan->probe == OCF_PLAN_PROBE_WGMMA) ocf_probe_wgmma(ctx);
}

void ocf_probe_mma_failed(ocf_context *ctx, const char *why) {
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.mma = OCF_PROBE_FAILED;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "matrix-unit kernel failed after its probe passed (%s): the SIMT kernels take over on "
          "this context",
          why);
}
