/* The machinery the matrix-unit probes share (probe_run.h). */
#include "runtime/probe_run.h"

#include "runtime/log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static size_t wrong_elements(const ocf_probe_product *pr, const float *c) {
  size_t wrong = 0;
  for (size_t i = 0; i < pr->m; i++)
    for (size_t j = 0; j < pr->ldc; j++) {
      const float got = c[i * pr->ldc + j];
      int want = 0;
      for (size_t p = 0; p < pr->k && j < pr->n; p++)
        want += pr->a(i, p) * pr->b(p, j);
      wrong += j < pr->n ? got != (float)want : got == got; /* padding: NaN */
    }
  return wrong;
}

/* Runs the probe plan; 1 when every element came out right. *why says what went wrong. */
static int probe_once(ocf_context *ctx, const ocf_plan *plan, const ocf_probe_product *pr,
                      char *why, size_t size) {
  const size_t a_count = pr->m * pr->k, b_count = pr->k * pr->n, c_count = pr->m * pr->ldc;
  uint16_t *a = malloc(a_count * sizeof *a), *b = malloc(b_count * sizeof *b);
  float *c = malloc(c_count * sizeof *c);
  int ok = 0;
  cl_int err = a && b && c ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  cl_mem ab = NULL, bb = NULL, cb = NULL;
  if (err == CL_SUCCESS) {
    for (size_t i = 0; i < pr->m; i++)
      for (size_t p = 0; p < pr->k; p++)
        a[i * pr->k + p] = bf16_of_int(pr->a(i, p));
    for (size_t p = 0; p < pr->k; p++)
      for (size_t j = 0; j < pr->n; j++)
        b[p * pr->n + j] = bf16_of_int(pr->b(p, j));
    memset(c, 0xff, c_count * sizeof *c); /* NaN everywhere */
  }
  ab = probe_buffer(ctx, a_count * sizeof *a, a, &err);
  bb = probe_buffer(ctx, b_count * sizeof *b, b, &err);
  cb = probe_buffer(ctx, c_count * sizeof *c, c, &err);
  if (err != CL_SUCCESS) {
    snprintf(why, size, "buffers: OpenCL error %d", (int)err);
  } else {
    ocf_matmul_frame frame = {.m = pr->m,
                              .n = pr->n,
                              .k = pr->k,
                              .k_split = pr->k,
                              .splits = 1,
                              .batch = 1,
                              .alpha = 1.0f,
                              .a = ab,
                              .lda = pr->k,
                              .b = bb,
                              .ldb = pr->n,
                              .beta = 0.0f,
                              .c = cb,
                              .ldc = pr->ldc,
                              .bias = ab};
    /* The read-back waits for the kernel: the queue may be out of order. */
    ocf_launch launch = OCF_LAUNCH_INIT;
    cl_event done = NULL;
    launch.event = &done;
    int replan = 0;
    const ocf_frame_slots slots = {&frame.partial, NULL};
    ocf_status status = ocf_launch_plan(ctx, ctx->queue, plan, &frame, &slots, &launch, &replan);
    if (status == OCF_SUCCESS)
      err = clEnqueueReadBuffer(ctx->queue, cb, CL_TRUE, 0, c_count * sizeof *c, c, done ? 1 : 0,
                                done ? &done : NULL, NULL);
    if (done) clReleaseEvent(done);
    if (status != OCF_SUCCESS) {
      snprintf(why, size, "%s", ocf_last_error());
    } else if (err != CL_SUCCESS) {
      snprintf(why, size, "reading C: OpenCL error %d", (int)err);
    } else {
      const size_t wrong = wrong_elements(pr, c);
      ok = wrong == 0;
      if (!ok) snprintf(why, size, "%zu of %zu elements of C wrong", wrong, c_count);
    }
  }
  if (ab) clReleaseMemObject(ab);
  if (bb) clReleaseMemObject(bb);
  if (cb) clReleaseMemObject(cb);
  free(a), free(b), free(c);
  return ok;
}

/* The local memory the probe's kernel reports (CL_KERNEL_LOCAL_MEM_SIZE), from the cache. */
static unsigned long long reported_local(ocf_context *ctx, const ocf_plan *plan, ocf_kernel_id id) {
  char options[512];
  if (ocf_plan_program_options(plan, plan->program, options, sizeof options) != 0) return 0;
  ocf_built_kernel *kernel = NULL;
  pthread_mutex_lock(&ctx->lock);
  ocf_status status = ocf_kernel_get(ctx, plan->program, options, id, &kernel);
  unsigned long long bytes = status == OCF_SUCCESS ? kernel->local_bytes : 0;
  pthread_mutex_unlock(&ctx->lock);
  return bytes;
}

void ocf_probe_begin(ocf_context *ctx, const ocf_probe_product *product, ocf_tuning_values *tuning,
                     ocf_probe_outcome *outcome) {
  const ocf_shape shape = {{product->m, product->n, product->k}};
  ocf_context_tuning_for(ctx, OCF_OP_MATMUL, OCF_BF16, &shape, tuning);
  outcome->ok = 0;
  outcome->reported = 0;
  outcome->why[0] = '\0';
  outcome->start_ms = ocf_now_ms();
}

void ocf_probe_finish(ocf_context *ctx, ocf_status planned, const ocf_plan *plan,
                      const ocf_probe_product *product, ocf_kernel_id kernel,
                      ocf_probe_outcome *outcome) {
  if (planned != OCF_SUCCESS)
    snprintf(outcome->why, sizeof outcome->why, "%s", ocf_last_error());
  else
    outcome->ok = probe_once(ctx, plan, product, outcome->why, sizeof outcome->why);
  outcome->reported = outcome->ok ? reported_local(ctx, plan, kernel) : 0;
  ocf_error_clear();
}
