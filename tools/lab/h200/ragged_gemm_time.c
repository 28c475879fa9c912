/* Times one fp32 ocf_matmul_ex (FP32 precision) with any transposes, leading dimensions and
   offsets on the first GPU, as library_gemm_time.c does: first kernel start to last kernel end
   (profiling events, the padded plans' copy step included), median of REPS after 3 warm-ups, a
   512 MiB fill before each repetition. A and B hold 1/16 everywhere (their gaps too), so every
   element of C is k / 256 exactly; the corners and the middle of C are checked ("ok" or
   "WRONG"), a guard against a plan that is fast because it is wrong (the suites check results).
   usage: ragged_gemm_time tag ta tb m n k lda ldb a_off b_off [tuning [ldc]]
     lda, ldb: 0 for the tight value (k or m for A, n or k for B); tuning: matmul values for the
     context (ocf_context_set_tuning, every dtype), "tiled.pad_min=1" say.
   prints: RESULT tag ta tb m n k lda ldb a_off b_off ms TFLOP/s ok|WRONG plan */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <oclfuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 11) {
    fprintf(stderr, "usage: %s tag ta tb m n k lda ldb a_off b_off [tuning]\n", argv[0]);
    return 2;
  }
  const char *tag = argv[1];
  const int ta = atoi(argv[2]), tb = atoi(argv[3]);
  const size_t m = strtoull(argv[4], 0, 10), n = strtoull(argv[5], 0, 10),
               k = strtoull(argv[6], 0, 10);
  size_t lda = strtoull(argv[7], 0, 10), ldb = strtoull(argv[8], 0, 10);
  const size_t a_off = strtoull(argv[9], 0, 10), b_off = strtoull(argv[10], 0, 10);
  if (!lda) lda = ta ? m : k;
  if (!ldb) ldb = tb ? k : n;
  const size_t a_len = a_off + (ta ? k : m) * lda, b_len = b_off + (tb ? n : k) * ldb;
  cl_platform_id p[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, p, &np);
  cl_device_id dev = 0;
  for (cl_uint i = 0; i < np && !dev; i++)
    clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
  cl_int err;
  cl_context cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(cl, dev, props, &err);
  ocf_context *ctx;
  if (ocf_context_wrap(cl, dev, q, &ctx)) {
    fprintf(stderr, "%s\n", ocf_last_error());
    return 1;
  }
  const size_t ldc = argc > 12 ? strtoull(argv[12], 0, 10) : n;
  if (argc > 11 && argv[11][0])
    for (int d = 0; d < 3; d++)
      if (ocf_context_set_tuning(ctx, "matmul", (ocf_dtype)d, NULL, argv[11])) {
        fprintf(stderr, "%s\n", ocf_last_error());
        return 1;
      }
  cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE, a_len * 4, NULL, &err);
  cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, b_len * 4, NULL, &err);
  cl_mem c = clCreateBuffer(cl, CL_MEM_READ_WRITE, m * ldc * 4, NULL, &err);
  cl_mem flush = clCreateBuffer(cl, CL_MEM_READ_WRITE, 512u << 20, NULL, &err);
  const float sixteenth = 0.0625f;
  clEnqueueFillBuffer(q, a, &sixteenth, 4, 0, a_len * 4, 0, NULL, NULL);
  clEnqueueFillBuffer(q, b, &sixteenth, 4, 0, b_len * 4, 0, NULL, NULL);
  enum { REPS = 15 };
  double t[REPS];
  for (int r = -3; r < REPS; r++) {
    cl_uchar z = (cl_uchar)r;
    clEnqueueFillBuffer(q, flush, &z, 1, 0, 512u << 20, 0, NULL, NULL);
    cl_event ev = NULL, first = NULL;
    ocf_launch l = OCF_LAUNCH_INIT;
    l.event = &ev;
    l.first_event = &first;
    if (ocf_matmul_ex(ctx, ta ? OCF_TRANS : OCF_NO_TRANS, tb ? OCF_TRANS : OCF_NO_TRANS, m, n, k,
                      1.0f, a, a_off, lda, b, b_off, ldb, 0.0f, c, 0, ldc, NULL, &l)) {
      fprintf(stderr, "%s\n", ocf_last_error());
      return 1;
    }
    clWaitForEvents(1, &ev);
    cl_ulong s, e;
    clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, 8, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &e, NULL);
    if (r >= 0) t[r] = (e - s) * 1e-9;
    clReleaseEvent(ev);
    clReleaseEvent(first);
  }
  /* The corners and the middle of C: k / 256, exact in fp32 for these k. */
  const size_t at[5] = {0, n - 1, (m - 1) * ldc, (m - 1) * ldc + n - 1, (m / 2) * ldc + n / 2};
  int ok = 1;
  for (int i = 0; i < 5; i++) {
    float v = 0.0f;
    clEnqueueReadBuffer(q, c, CL_TRUE, at[i] * 4, 4, &v, 0, NULL, NULL);
    ok = ok && v == (float)k / 256.0f;
  }
  qsort(t, REPS, sizeof *t, cmp);
  printf("RESULT %s %d %d %zu %zu %zu %zu %zu %zu %zu %.3f %.1f %s %s\n", tag, ta, tb, m, n, k, lda,
         ldb, a_off, b_off, t[REPS / 2] * 1e3, 2.0 * m * n * k / t[REPS / 2] * 1e-12,
         ok ? "ok" : "WRONG", ocf_last_plan());
  /* The release stores the built programs (their PTX on NVIDIA) in the disk cache, with
     OCLFUSE_CACHE=always and OCLFUSE_TUNING_DIR set: the way to read them with ptxas -v. */
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseMemObject(flush);
  ocf_context_release(ctx);
  clReleaseCommandQueue(q);
  clReleaseContext(cl);
  return 0;
}
