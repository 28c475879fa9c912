/* Times ocf_matmul_ex through the public API on the first GPU: first kernel start to last kernel
   end (profiling events), median of REPS after warm-up, a 512 MiB fill before each repetition;
   prints the rate, the first step's own time where the plan has more than one (a copy, a split's
   partial sums: median of the same repetitions) and the plan the library ran (ocf_last_plan). The
   operands hold random values (the timing, not the result, is the point: the suites check
   results); C is in the inputs' type unless C32 is set. usage: library_gemm_time
   dtype(f32|f16|bf16|tf32|3x) transB(0|1) m n k [tuning] tuning: matmul values for the context
   (ocf_context_set_tuning), "wg=0" say. PAD_A, PAD_B (environment,
   elements, default 0): added to A's and B's leading dimension (tight otherwise), so that rows
   start off the 128-byte lines without a ragged side. */
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
  if (argc < 6) return 2;
  const char *dt = argv[1];
  int tb = atoi(argv[2]);
  size_t m = strtoull(argv[3], 0, 10), n = strtoull(argv[4], 0, 10), k = strtoull(argv[5], 0, 10);
  cl_platform_id p[8];
  cl_uint np;
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
  if (argc > 6)
    for (int d = 0; d < 3; d++)
      if (ocf_context_set_tuning(ctx, "matmul", (ocf_dtype)d, NULL, argv[6])) {
        fprintf(stderr, "%s\n", ocf_last_error());
        return 1;
      }
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  ocf_dtype in = OCF_F32;
  if (!strcmp(dt, "f16")) in = OCF_F16;
  if (!strcmp(dt, "bf16")) in = OCF_BF16;
  if (!strcmp(dt, "tf32")) o.precision = OCF_PRECISION_TF32;
  if (!strcmp(dt, "3x")) o.precision = OCF_PRECISION_3XTF32;
  o.a_dtype = o.b_dtype = in;
  size_t es = ocf_dtype_size(in);
  const size_t pad_a = getenv("PAD_A") ? strtoull(getenv("PAD_A"), 0, 10) : 0;
  const size_t pad_b = getenv("PAD_B") ? strtoull(getenv("PAD_B"), 0, 10) : 0;
  const size_t lda = k + pad_a, ldb = (tb ? k : n) + pad_b;
  const size_t a_size = m * lda, b_size = (tb ? n : k) * ldb;
  cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE, a_size * es, NULL, &err);
  cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, b_size * es, NULL, &err);
  /* C in the inputs' type (as torch.matmul writes it), fp32 with C32=1 or fp32 inputs */
  if (in != OCF_F32 && !getenv("C32")) o.c_dtype = in;
  cl_mem c = clCreateBuffer(cl, CL_MEM_READ_WRITE, m * n * 4, NULL, &err);
  cl_mem flush = clCreateBuffer(cl, CL_MEM_READ_WRITE, 512u << 20, NULL, &err);
  /* Random values in [-1, 1) (uniform bits of each type's mantissa): the matrix units draw
     more power on random data than on one repeated value, and the clock follows (bf16 4096^3
     ran 704 TFLOP/s on ones and 565 on random data, 2026-12-05), so peers' random inputs are
     matched. */
  unsigned long long rng = 0x9E3779B97F4A7C15ull;
  for (int which = 0; which < 2; which++) {
    const size_t count = which ? b_size : a_size;
    unsigned char *host = malloc(count * es);
    for (size_t i = 0; i < count; i++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      const float v = (float)((double)(rng >> 11) * 0x1.0p-52 - 1.0);
      unsigned int u;
      memcpy(&u, &v, 4);
      if (in == OCF_F32) {
        memcpy(host + 4 * i, &v, 4);
      } else {
        cl_ushort h = (cl_ushort)(u >> 16); /* bf16: truncated */
        if (in == OCF_F16) {                /* |v| < 1: a normal half or a signed zero, truncated */
          const int e = (int)((u >> 23) & 0xFF) - 127 + 15;
          h = (cl_ushort)(((u >> 16) & 0x8000u) |
                          (e > 0 ? ((unsigned)e << 10) | ((u >> 13) & 0x3FFu) : 0u));
        }
        memcpy(host + 2 * i, &h, 2);
      }
    }
    clEnqueueWriteBuffer(q, which ? b : a, CL_TRUE, 0, count * es, host, 0, NULL, NULL);
    free(host);
  }
  enum { REPS = 15 };
  double t[REPS], first_step[REPS];
  for (int r = -3; r < REPS; r++) {
    cl_uchar z = (cl_uchar)r;
    clEnqueueFillBuffer(q, flush, &z, 1, 0, 512u << 20, 0, NULL, NULL);
    cl_event ev = NULL, first = NULL;
    ocf_launch l = OCF_LAUNCH_INIT;
    l.event = &ev;
    l.first_event = &first;
    if (ocf_matmul_ex(ctx, OCF_NO_TRANS, tb ? OCF_TRANS : OCF_NO_TRANS, m, n, k, 1.0f, a, 0, lda, b,
                      0, ldb, 0.0f, c, 0, n, &o, &l)) {
      fprintf(stderr, "%s\n", ocf_last_error());
      return 1;
    }
    clWaitForEvents(1, &ev);
    cl_ulong s, e, first_end;
    clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, 8, &s, NULL);
    clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_END, 8, &first_end, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &e, NULL);
    if (r >= 0) t[r] = (e - s) * 1e-9;
    if (r >= 0) first_step[r] = first == ev ? 0.0 : (first_end - s) * 1e-9;
    clReleaseEvent(ev);
    clReleaseEvent(first);
  }
  qsort(t, REPS, sizeof *t, cmp);
  qsort(first_step, REPS, sizeof *first_step, cmp);
  printf("%-5s B%s %6zux%6zux%6zu pad %zu,%zu %s %8.3f ms  %7.1f TFLOP/s  first step %.3f ms  "
         "plan: %s\n",
         dt, tb ? "^T" : "  ", m, n, k, pad_a, pad_b, argc > 6 ? argv[6] : "", t[REPS / 2] * 1e3,
         2.0 * m * n * k / t[REPS / 2] * 1e-12, first_step[REPS / 2] * 1e3, ocf_last_plan());
  return 0;
}
