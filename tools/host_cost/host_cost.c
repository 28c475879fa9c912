/*
 * host_cost: the host time of one queued call, each op against a raw clEnqueueNDRangeKernel of
 * an empty kernel on the same queue (issue 17: every op within 1.5 us of raw).
 *
 *   host_cost [--calls N] [--device SPEC]
 *
 * For each case: one untimed round of the calls (builds, plans, caches), then N calls queued
 * back to back and timed on the host from the first enqueue to the return of the last (the
 * queue is drained once per 1000 calls, untimed, so that it never fills). Prints microseconds
 * per call on the wall clock and in the calling thread's CPU time, each with its difference to
 * raw. Uses only the public header and OpenCL.
 */
#include "oclfuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BATCH = 1000 };

static double clock_us(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

typedef struct bench {
  ocf_context *ctx;
  cl_command_queue queue;
  cl_kernel empty;
  cl_mem a, b, c;
} bench;

typedef int (*call_fn)(bench *b);

static int call_raw(bench *b) {
  const size_t global = 64, local = 64;
  return clEnqueueNDRangeKernel(b->queue, b->empty, 1, NULL, &global, &local, 0, NULL, NULL) ==
                 CL_SUCCESS
             ? 0
             : -1;
}

static int call_add(bench *b) {
  return ocf_add(b->ctx, 256, b->a, 0, b->b, 0, b->c, 0, NULL) == OCF_SUCCESS ? 0 : -1;
}

static int call_softmax(bench *b) {
  return ocf_softmax(b->ctx, 4, 64, b->a, 0, 64, b->c, 0, 64, NULL) == OCF_SUCCESS ? 0 : -1;
}

static int call_matmul(bench *b) {
  return ocf_matmul(b->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 64, 64, 64, 1.0f, b->a, 0, 64, b->b, 0, 64,
                    0.0f, b->c, 0, 64, NULL) == OCF_SUCCESS
             ? 0
             : -1;
}

/* Microseconds per call over `calls` calls, on the wall clock (*wall) and in the calling
   thread's CPU time (*cpu: the host work of the call itself, less sensitive to other load on
   the machine, and to a CPU device's kernels running beside it); -1 on a failed call. */
static int time_calls(bench *b, call_fn fn, long calls, double *wall, double *cpu) {
  for (int i = 0; i < BATCH; i++)
    if (fn(b) != 0) return -1;
  clFinish(b->queue);
  double wall_total = 0.0, cpu_total = 0.0;
  for (long done = 0; done < calls;) {
    long batch = calls - done < BATCH ? calls - done : BATCH;
    double wall_start = clock_us(CLOCK_MONOTONIC), cpu_start = clock_us(CLOCK_THREAD_CPUTIME_ID);
    for (long i = 0; i < batch; i++)
      if (fn(b) != 0) return -1;
    cpu_total += clock_us(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
    wall_total += clock_us(CLOCK_MONOTONIC) - wall_start;
    clFinish(b->queue);
    done += batch;
  }
  *wall = wall_total / (double)calls;
  *cpu = cpu_total / (double)calls;
  return 0;
}

int main(int argc, char **argv) {
  long calls = 20000;
  const char *spec = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
      calls = strtol(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
      spec = argv[++i];
    else {
      fprintf(stderr, "usage: host_cost [--calls N] [--device SPEC]\n");
      return 2;
    }
  }
  if (calls < 1) calls = 1;
  bench b;
  memset(&b, 0, sizeof b);
  if (ocf_context_create(spec, &b.ctx) != OCF_SUCCESS) {
    fprintf(stderr, "host_cost: %s\n", ocf_last_error());
    return 1;
  }
  b.queue = ocf_context_queue(b.ctx);
  cl_context cl = ocf_context_cl_context(b.ctx);
  cl_device_id device = ocf_context_device(b.ctx);
  cl_int err = CL_SUCCESS;
  const size_t bytes = 64 * 64 * sizeof(float);
  b.a = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err == CL_SUCCESS) b.b = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err == CL_SUCCESS) b.c = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  const char *source = "__kernel void empty(void) {}";
  cl_program program = NULL;
  if (err == CL_SUCCESS) program = clCreateProgramWithSource(cl, 1, &source, NULL, &err);
  if (err == CL_SUCCESS) err = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (err == CL_SUCCESS) b.empty = clCreateKernel(program, "empty", &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "host_cost: OpenCL setup failed (%d)\n", (int)err);
    return 1;
  }
  /* Inputs of zeros: the ops' results do not matter, their inputs must be finite. */
  static float zeros[64 * 64];
  clEnqueueWriteBuffer(b.queue, b.a, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL);
  clEnqueueWriteBuffer(b.queue, b.b, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL);

  ocf_device_info info;
  ocf_device_info_init(&info);
  ocf_context_device_info(b.ctx, &info);
  printf("device: %s (%s)\ncalls: %ld per case, on the context's queue\n", info.device_name,
         info.platform_name, calls);
  static const struct {
    const char *name;
    call_fn fn;
  } cases[] = {{"raw empty kernel", call_raw},
               {"ocf_add n=256", call_add},
               {"ocf_softmax 4x64", call_softmax},
               {"ocf_matmul 64^3", call_matmul}};
  double raw_wall = 0.0, raw_cpu = 0.0;
  int failed = 0;
  printf("%-20s %10s %10s %10s %10s\n", "case", "wall us", "vs raw", "cpu us", "vs raw");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double wall = 0.0, cpu = 0.0;
    if (time_calls(&b, cases[i].fn, calls, &wall, &cpu) != 0) {
      printf("%-20s failed: %s\n", cases[i].name, ocf_last_error());
      failed = 1;
      continue;
    }
    if (i == 0) raw_wall = wall, raw_cpu = cpu;
    printf("%-20s %10.2f %+10.2f %10.2f %+10.2f\n", cases[i].name, wall, wall - raw_wall, cpu,
           cpu - raw_cpu);
  }
  clReleaseKernel(b.empty);
  clReleaseProgram(program);
  clReleaseMemObject(b.c);
  clReleaseMemObject(b.b);
  clReleaseMemObject(b.a);
  ocf_context_release(b.ctx);
  return failed;
}
