/*
 * A program that uses liboclfuse the way another project does: through the installed header and
 * library only. tests/package/consume.sh builds it as C11 and as C++11 (the same file), with
 * -Wall -Wextra -Werror, through find_package, pkg-config and add_subdirectory, and runs it.
 * It exercises what a first program writes: a context on the default device, a host-array
 * call, and device-buffer calls with the growable structs' INIT macros and an out event.
 * Exits 0 and prints one line when every result is right.
 */
/* The header leaves the OpenCL API version to the includer; without it the Khronos headers
   default to 3.0 and say so in a note at every compile. */
#define CL_TARGET_OPENCL_VERSION 120
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
  if (rc == 0)
    printf("consumer: liboclfuse %s: softmax %.4f %.4f %.4f, add and matmul exact\n",
           ocf_version_string(), probs[0][0], probs[0][1], probs[0][2]);
  ocf_context_release(ctx);
  return rc;
}
