/* Times ocf_layernorm / ocf_rmsnorm through the public API on the first GPU: first kernel start
   to last kernel end (profiling events), median of REPS after warm-up, a 512 MiB fill before each
   repetition (the L2 flushed); prints GB/s counting one read and one write of x in its storage
   type (the issue 20 table's measure; the weight and bias rows are noise beside it) and the plan.
   Inputs hold random values (a hash), weight and bias small ones.
   usage: library_norm_time layer|rms f32|f16|bf16 rows cols */
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
  if (argc < 5) return 2;
  const int rms = !strcmp(argv[1], "rms");
  const ocf_dtype dt = !strcmp(argv[2], "f16")    ? OCF_F16
                       : !strcmp(argv[2], "bf16") ? OCF_BF16
                                                  : OCF_F32;
  const size_t rows = strtoull(argv[3], 0, 10), cols = strtoull(argv[4], 0, 10);
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
  const size_t es = ocf_dtype_size(dt), bytes = rows * cols * es;
  unsigned char *host = malloc(bytes);
  unsigned state = 12345u;
  for (size_t i = 0; i < bytes; i += es) {
    state = state * 1664525u + 1013904223u;
    const float v = (float)(state >> 8) * (8.0f / 16777216.0f) - 4.0f;
    unsigned u;
    memcpy(&u, &v, 4);
    if (es == 4)
      memcpy(host + i, &v, 4);
    else {
      /* bf16: the top half; f16: a small value's bits are fine for timing (0x3c00 = 1 +-). */
      unsigned short h =
          dt == OCF_BF16 ? (unsigned short)(u >> 16) : (unsigned short)(0x3800 | (state >> 22));
      memcpy(host + i, &h, 2);
    }
  }
  cl_mem x = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
  cl_mem y = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem w = clCreateBuffer(cl, CL_MEM_READ_WRITE, cols * es, NULL, &err);
  cl_mem bias = clCreateBuffer(cl, CL_MEM_READ_WRITE, cols * es, NULL, &err);
  cl_mem flush = clCreateBuffer(cl, CL_MEM_READ_WRITE, 512u << 20, NULL, &err);
  cl_uchar small = 0x30;
  clEnqueueFillBuffer(q, w, &small, 1, 0, cols * es, 0, NULL, NULL);
  clEnqueueFillBuffer(q, bias, &small, 1, 0, cols * es, 0, NULL, NULL);
  ocf_norm_options o = OCF_NORM_OPTIONS_INIT;
  o.in_dtype = o.out_dtype = o.weight_dtype = dt;
  o.weight = w;
  if (!rms) o.bias = bias;
  enum { REPS = 21 };
  double t[REPS];
  for (int r = -3; r < REPS; r++) {
    cl_uchar z = (cl_uchar)r;
    clEnqueueFillBuffer(q, flush, &z, 1, 0, 512u << 20, 0, NULL, NULL);
    cl_event ev = NULL, first = NULL;
    ocf_launch l = OCF_LAUNCH_INIT;
    l.event = &ev;
    l.first_event = &first;
    ocf_status s = rms ? ocf_rmsnorm(ctx, rows, cols, x, 0, cols, y, 0, cols, &o, &l)
                       : ocf_layernorm(ctx, rows, cols, x, 0, cols, y, 0, cols, &o, &l);
    if (s) {
      fprintf(stderr, "%s\n", ocf_last_error());
      return 1;
    }
    clWaitForEvents(1, &ev);
    cl_ulong start, end;
    clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, 8, &start, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &end, NULL);
    if (r >= 0) t[r] = (double)(end - start) * 1e-9;
    clReleaseEvent(ev);
    clReleaseEvent(first);
  }
  qsort(t, REPS, sizeof *t, cmp);
  printf("norm %-5s %-4s %6zux%-6zu %8.4f ms %7.0f GB/s  plan: %s\n", rms ? "rms" : "layer",
         argv[2], rows, cols, t[REPS / 2] * 1e3, 2.0 * (double)bytes / t[REPS / 2] * 1e-9,
         ocf_last_plan());
  return 0;
}
