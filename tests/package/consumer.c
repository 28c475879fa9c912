/*
 * A program that uses liboclfuse the way another project does: through the installed header and
 * library only. tests/package/consume.sh builds it as C11 and as C++11 (the same file), with
 * -Wall -Wextra -Werror, through find_package, pkg-config and add_subdirectory, and runs it.
 * It exercises what a first program writes: a context on the default device (and one made
 * with OCF_CONTEXT_CONFIG_INIT), host-array calls of every op, and device-buffer calls with the
 * growable structs' INIT macros and an out event.
 * Exits 0 and prints one line when every result is right.
 */
/* The header leaves the OpenCL API version to the includer; without it the Khronos headers
   default to 3.0 and say so in a note at every compile. */
#define CL_TARGET_OPENCL_VERSION 120
#include <math.h>
#include <oclfuse.h>
#include <stdio.h>

static int fail(const char *what, ocf_status status) {
  fprintf(stderr, "consumer: %s: %s: %s\n", what, ocf_status_name(status), ocf_last_error());
  return 1;
}

/* x + y and a 2 x 2 product on the device, waited for through the launch's out event. */
static int device_calls(ocf_context *ctx) {
  float x[4] = {1.0f, 2.0f, 3.0f, 4.0f}, y[4] = {0.5f, 0.25f, -3.0f, 8.0f}, got[4];
  cl_int err = CL_SUCCESS;
  cl_context cl_ctx = ocf_context_cl_context(ctx);
  cl_mem xb = clCreateBuffer(cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
  cl_mem yb = clCreateBuffer(cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof y, y, &err);
  cl_mem ob = clCreateBuffer(cl_ctx, CL_MEM_READ_WRITE, sizeof got, NULL, &err);
  if (!xb || !yb || !ob) {
    fprintf(stderr, "consumer: clCreateBuffer failed (%d)\n", (int)err);
    return 1;
  }
  int rc = 0;
  cl_event done = NULL;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.event = &done;
  ocf_status status = ocf_add(ctx, 4, xb, 0, yb, 0, ob, 0, &launch);
  if (status != OCF_SUCCESS) rc = fail("ocf_add", status);
  if (rc == 0 && (clWaitForEvents(1, &done) != CL_SUCCESS ||
                  clEnqueueReadBuffer(ocf_context_queue(ctx), ob, CL_TRUE, 0, sizeof got, got, 0,
                                      NULL, NULL) != CL_SUCCESS))
    rc = fail("reading ocf_add's output", OCF_SUCCESS);
  for (int i = 0; rc == 0 && i < 4; i++)
    if (got[i] != x[i] + y[i]) rc = fail("ocf_add gave a wrong sum", OCF_SUCCESS);
  if (done) clReleaseEvent(done);

  /* [1 2; 3 4] [0.5 0.25; -3 8] with the default options, into ob. */
  ocf_matmul_options options = OCF_MATMUL_OPTIONS_INIT;
  if (rc == 0) {
    status = ocf_matmul_ex(ctx, OCF_NO_TRANS, OCF_NO_TRANS, 2, 2, 2, 1.0f, xb, 0, 2, yb, 0, 2, 0.0f,
                           ob, 0, 2, &options, NULL);
    if (status != OCF_SUCCESS) rc = fail("ocf_matmul_ex", status);
  }
  if (rc == 0 && clEnqueueReadBuffer(ocf_context_queue(ctx), ob, CL_TRUE, 0, sizeof got, got, 0,
                                     NULL, NULL) != CL_SUCCESS)
    rc = fail("reading ocf_matmul_ex's output", OCF_SUCCESS);
  const float product[4] = {-5.5f, 16.25f, -10.5f, 32.75f}; /* exact in fp32 */
  for (int i = 0; rc == 0 && i < 4; i++)
    if (got[i] != product[i]) rc = fail("ocf_matmul_ex gave a wrong product", OCF_SUCCESS);
  clReleaseMemObject(ob);
  clReleaseMemObject(yb);
  clReleaseMemObject(xb);
  return rc;
}

/* The other ops on host arrays, each with its options' INIT macro: a causal log-softmax (row 0
   keeps one column: log 1 = 0, and -inf past it; row 1 both: log(1 / (1 + e^-12)) near 0 first),
   an RMSNorm of the row (3, 4) (mean square 12.5, eps 0:
   3 / sqrt(12.5) and 4 / sqrt(12.5)), and attention with zero queries (every kept key weighs
   the same: causal query i averages the value rows 0 .. i, value row j holding j: i / 2). */
static int other_ops(ocf_context *ctx) {
  float in[2][2] = {{1.0f, 2.0f}, {5.0f, -7.0f}}, out[2][2];
  ocf_softmax_options softmax = OCF_SOFTMAX_OPTIONS_INIT;
  softmax.log = 1, softmax.causal = 1, softmax.causal_period = 2;
  ocf_status status = ocf_softmax_host_ex(ctx, 2, 2, &in[0][0], 2, &out[0][0], 2, NULL, &softmax);
  if (status != OCF_SUCCESS) return fail("ocf_softmax_host_ex", status);
  if (out[0][0] != 0.0f || out[0][1] != -INFINITY || out[1][0] > 0.0f || out[1][0] < -1e-5f)
    return fail("ocf_softmax_host_ex gave a wrong causal log-softmax", OCF_SUCCESS);

  const float row[2] = {3.0f, 4.0f};
  float normed[2];
  ocf_norm_options norm = OCF_NORM_OPTIONS_INIT;
  norm.eps = 0.0f;
  status = ocf_rmsnorm_host(ctx, 1, 2, row, 2, normed, 2, NULL, NULL, NULL, NULL, &norm);
  if (status != OCF_SUCCESS) return fail("ocf_rmsnorm_host", status);
  const double rms = 3.5355339059327378; /* sqrt(12.5) */
  for (int i = 0; i < 2; i++) {
    const double want = row[i] / rms, error = normed[i] - want;
    if (error > 1e-6 || error < -1e-6)
      return fail("ocf_rmsnorm_host gave a wrong row", OCF_SUCCESS);
  }

  enum { L = 4, D = 8 };
  float q[L * D] = {0}, kv[L * D], att[L * D];
  for (int j = 0; j < L; j++)
    for (int c = 0; c < D; c++)
      kv[j * D + c] = (float)j;
  ocf_attention_options attention = OCF_ATTENTION_OPTIONS_INIT;
  attention.causal = 1;
  status = ocf_attention_host(ctx, 1, 1, 1, L, L, D, q, NULL, kv, NULL, kv, NULL, att, NULL, NULL,
                              NULL, &attention);
  if (status != OCF_SUCCESS) return fail("ocf_attention_host", status);
  for (int i = 0; i < L; i++) {
    const double error = att[i * D] - i / 2.0;
    if (error > 1e-6 || error < -1e-6)
      return fail("ocf_attention_host gave a wrong average", OCF_SUCCESS);
  }
  return 0;
}

/* A context made from a configuration (every field its default but the log level). */
static int configured_context(void) {
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.verbosity = OCF_VERBOSITY_QUIET;
  ocf_context *ctx = NULL;
  ocf_status status = ocf_context_create_ex(NULL, &config, &ctx);
  if (status != OCF_SUCCESS) return fail("ocf_context_create_ex", status);
  ocf_context_release(ctx);
  return 0;
}

int main(void) {
  if (ocf_version_number() != OCF_VERSION_NUMBER) {
    fprintf(stderr, "consumer: header %d but library %u (%s)\n", OCF_VERSION_NUMBER,
            ocf_version_number(), ocf_version_string());
    return 1;
  }
  ocf_context *ctx = NULL;
  ocf_status status = ocf_context_create(NULL, &ctx); /* OCLFUSE_DEVICE, else first GPU */
  if (status != OCF_SUCCESS) return fail("ocf_context_create", status);
  float logits[2][3] = {{1, 2, 3}, {-1e4f, 0, 1e4f}}, probs[2][3];
  int rc = 0;
  status = ocf_softmax_host(ctx, 2, 3, &logits[0][0], 3, &probs[0][0], 3);
  if (status != OCF_SUCCESS) rc = fail("ocf_softmax_host", status);
  if (rc == 0) rc = device_calls(ctx);
  if (rc == 0) rc = other_ops(ctx);
  if (rc == 0) rc = configured_context();
  if (rc == 0)
    printf("consumer: liboclfuse %s: softmax %.4f %.4f %.4f, add and matmul exact, "
           "log-softmax, RMSNorm and attention right\n",
           ocf_version_string(), probs[0][0], probs[0][1], probs[0][2]);
  ocf_context_release(ctx);
  return rc;
}
