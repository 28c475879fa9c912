/*
 * host_cost: the host time of one queued call, each op against a raw clEnqueueNDRangeKernel of
 * an empty kernel on the same queue (issue 17: every op within 1.5 us of raw).
 *
 *   host_cost [--calls N] [--device SPEC] [--op NAME]
 *
 * For each case: one untimed round of the calls (builds, plans, caches), then N calls queued
 * back to back and timed on the host from the first enqueue to the return of the last (the
 * queue is drained once per 1000 calls, untimed, so that it never fills). Prints microseconds
 * per call on the wall clock and in the calling thread's CPU time, each with its difference to
 * raw (and on the wall clock to its op's held floor, below), then the OpenCL calls a call makes
 * (counted over one more, untimed round: the figure that carries over from one platform to
 * another). Uses only the public header and OpenCL.
 *
 * The count: this program defines the OpenCL functions a queued call may use, each counting
 * and then calling the loader's (dlsym RTLD_NEXT); exported from the executable
 * (ENABLE_EXPORTS, default visibility), they come before the loader's for liboclfuse too. The
 * functions of setup (platforms, contexts, programs) are not counted: a queued call that used one
 * would show as a slow call.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "oclfuse.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BATCH = 1000 };

/* ---- the counted OpenCL functions: (return type, name, parameters, arguments) ---- */
#define COUNTED_CL_FUNCTIONS(X)                                                                   \
  X(cl_int, clGetMemObjectInfo, (cl_mem m, cl_mem_info i, size_t s, void *v, size_t *r),          \
    (m, i, s, v, r))                                                                              \
  X(cl_int, clGetCommandQueueInfo,                                                                \
    (cl_command_queue q, cl_command_queue_info i, size_t s, void *v, size_t *r), (q, i, s, v, r)) \
  X(cl_int, clGetEventInfo, (cl_event e, cl_event_info i, size_t s, void *v, size_t *r),          \
    (e, i, s, v, r))                                                                              \
  X(cl_int, clGetDeviceInfo, (cl_device_id d, cl_device_info i, size_t s, void *v, size_t *r),    \
    (d, i, s, v, r))                                                                              \
  X(cl_int, clGetKernelInfo, (cl_kernel k, cl_kernel_info i, size_t s, void *v, size_t *r),       \
    (k, i, s, v, r))                                                                              \
  X(cl_int, clGetKernelArgInfo,                                                                   \
    (cl_kernel k, cl_uint a, cl_kernel_arg_info i, size_t s, void *v, size_t *r),                 \
    (k, a, i, s, v, r))                                                                           \
  X(cl_int, clGetKernelWorkGroupInfo,                                                             \
    (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t s, void *v, size_t *r),     \
    (k, d, i, s, v, r))                                                                           \
  X(cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))      \
  X(cl_int, clEnqueueNDRangeKernel,                                                               \
    (cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g,                \
     const size_t *l, cl_uint n, const cl_event *w, cl_event *e),                                 \
    (q, k, d, o, g, l, n, w, e))                                                                  \
  X(cl_int, clEnqueueWriteBuffer,                                                                 \
    (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, const void *p, cl_uint n,       \
     const cl_event *w, cl_event *e),                                                             \
    (q, m, b, o, s, p, n, w, e))                                                                  \
  X(cl_int, clEnqueueFillBuffer,                                                                  \
    (cl_command_queue q, cl_mem m, const void *p, size_t ps, size_t o, size_t s, cl_uint n,       \
     const cl_event *w, cl_event *e),                                                             \
    (q, m, p, ps, o, s, n, w, e))                                                                 \
  X(cl_int, clEnqueueMarkerWithWaitList,                                                          \
    (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))                \
  X(cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void *p, cl_int *r),         \
    (c, f, s, p, r))                                                                              \
  X(cl_mem, clCreateSubBuffer,                                                                    \
    (cl_mem m, cl_mem_flags f, cl_buffer_create_type t, const void *i, cl_int *r),                \
    (m, f, t, i, r))                                                                              \
  X(cl_int, clReleaseMemObject, (cl_mem m), (m))                                                  \
  X(cl_int, clSetMemObjectDestructorCallback,                                                     \
    (cl_mem m, void(CL_CALLBACK * f)(cl_mem, void *), void *u), (m, f, u))                        \
  X(cl_int, clRetainEvent, (cl_event e), (e))                                                     \
  X(cl_int, clReleaseEvent, (cl_event e), (e))                                                    \
  X(cl_int, clSetEventCallback,                                                                   \
    (cl_event e, cl_int t, void(CL_CALLBACK * f)(cl_event, cl_int, void *), void *u),             \
    (e, t, f, u))

#define COUNTED_ID(ret, name, params, args) COUNTED_##name,
enum { COUNTED_CL_FUNCTIONS(COUNTED_ID) COUNTED_COUNT };

static const char *const counted_names[COUNTED_COUNT] = {
#define COUNTED_NAME(ret, name, params, args) #name,
    COUNTED_CL_FUNCTIONS(COUNTED_NAME)};

/* Calls of each function since the program started (an event callback may call from a
   runtime's thread). */
static atomic_ulong counted_calls[COUNTED_COUNT];

#define COUNTED_DEFINE(ret, name, params, args)                                         \
  static ret(CL_API_CALL *real_##name) params;                                          \
  __attribute__((visibility("default"))) CL_API_ENTRY ret CL_API_CALL name params {     \
    atomic_fetch_add_explicit(&counted_calls[COUNTED_##name], 1, memory_order_relaxed); \
    return real_##name args;                                                            \
  }
COUNTED_CL_FUNCTIONS(COUNTED_DEFINE)

/* Finds the loader's functions behind the counted ones; -1 when one is missing. */
static int counted_init(void) {
#define COUNTED_FIND(ret, name, params, args)                           \
  *(void **)&real_##name = dlsym(RTLD_NEXT, #name);                     \
  if (!real_##name) {                                                   \
    fprintf(stderr, "host_cost: the OpenCL loader has no %s\n", #name); \
    return -1;                                                          \
  }
  COUNTED_CL_FUNCTIONS(COUNTED_FIND)
  return 0;
}

static void counted_snapshot(unsigned long *calls) {
  for (int i = 0; i < COUNTED_COUNT; i++)
    calls[i] = atomic_load(&counted_calls[i]);
}

static double clock_us(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* The floors of each op: an empty kernel with the argument list of the kernel the op runs for
   the timed shape (src/kernels/<op>.c), one letter an argument: U a ulong, F a float, B a
   buffer, N a NULL buffer, S a struct of 16 ulongs by value. Two more floors ask what a kernel
   of fewer arguments would cost (issue 17: the held floors themselves sit 1.2-2.9 us above raw
   on NVIDIA): matmul's four buffers alone, and with its 15 scalars packed in one struct. Every
   argument is set once; the "set" floor sets the B buffers again before each enqueue (what the
   library does where it cannot keep its buffers' facts: a released buffer's handle may come back as
   another buffer), the "held" floor only enqueues (what the library does for registered buffers,
   src/runtime/buffer_registry.h). An op's cost over its held floor is what the library adds to the
   launch it cannot avoid; the set floor over the held one is what the driver charges for setting
   the buffers. */
enum { FLOORS = 5, FLOOR_ARGS_MAX = 32 };
static const struct {
  const char *op, *args;
} floors[FLOORS] = {
    {"add", "UBUBUBU"},                /* add_vector: n, x, x_off, y, y_off, out, out_off */
    {"softmax", "UUBUUBUUFNUUU"},      /* softmax_rows: rows, cols, in (3), out (3), scale,
                                          lengths (NULL: none), lengths_off, causal (2) */
    {"matmul", "UUUFBUUUBUUUFBUUUNU"}, /* matmul_tiled: m, n, k, alpha, A (4), B (4), beta,
                                          C (4), bias (NULL: none), bias_off */
    {"buffers", "BBBN"},               /* matmul's buffers alone */
    {"packed", "BBBNS"}};              /* and its scalars in one struct */

/* The struct of an S argument. */
typedef struct packed_args {
  cl_ulong v[16];
} packed_args;

typedef struct bench {
  ocf_context *ctx;
  cl_command_queue queue;
  cl_kernel empty;
  cl_kernel floor[FLOORS];
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

/* The B arguments of floor `f` set again, then the kernel enqueued. */
static int call_floor(bench *b, int f) {
  const cl_mem buffers[3] = {b->a, b->b, b->c};
  int next = 0;
  for (cl_uint i = 0; floors[f].args[i]; i++)
    if (floors[f].args[i] == 'B' &&
        clSetKernelArg(b->floor[f], i, sizeof(cl_mem), &buffers[next++ % 3]) != CL_SUCCESS)
      return -1;
  const size_t global = 64, local = 64;
  return clEnqueueNDRangeKernel(b->queue, b->floor[f], 1, NULL, &global, &local, 0, NULL, NULL) ==
                 CL_SUCCESS
             ? 0
             : -1;
}

/* Floor `f` enqueued with the arguments it holds. */
static int call_held(bench *b, int f) {
  const size_t global = 64, local = 64;
  return clEnqueueNDRangeKernel(b->queue, b->floor[f], 1, NULL, &global, &local, 0, NULL, NULL) ==
                 CL_SUCCESS
             ? 0
             : -1;
}

static int call_floor_add(bench *b) {
  return call_floor(b, 0);
}

static int call_floor_softmax(bench *b) {
  return call_floor(b, 1);
}

static int call_floor_matmul(bench *b) {
  return call_floor(b, 2);
}

static int call_held_add(bench *b) {
  return call_held(b, 0);
}

static int call_held_softmax(bench *b) {
  return call_held(b, 1);
}

static int call_held_matmul(bench *b) {
  return call_held(b, 2);
}

static int call_held_buffers(bench *b) {
  return call_held(b, 3);
}

static int call_held_packed(bench *b) {
  return call_held(b, 4);
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

/* The program of the empty kernel and of each floor ("floor_<op>"), its source into src. */
static void floor_source(char *src, size_t size) {
  int used = snprintf(src, size,
                      "__kernel void empty(void) {}\n"
                      "typedef struct packed_args { ulong v[16]; } packed_args;\n");
  for (int f = 0; f < FLOORS; f++) {
    used += snprintf(src + used, size - (size_t)used, "__kernel void floor_%s(", floors[f].op);
    for (int i = 0; floors[f].args[i]; i++) {
      const char c = floors[f].args[i];
      used += snprintf(src + used, size - (size_t)used, "%s%s a%d", i ? ", " : "",
                       c == 'U'   ? "ulong"
                       : c == 'F' ? "float"
                       : c == 'S' ? "packed_args"
                                  : "__global float *",
                       i);
    }
    used += snprintf(src + used, size - (size_t)used, ") {}\n");
  }
}

/* Creates the floors' kernels with every argument set (zeros, the bench's buffers, NULL). */
static cl_int floor_kernels(bench *b, cl_program program) {
  const cl_mem buffers[3] = {b->a, b->b, b->c}, none = NULL;
  const cl_ulong zero = 0;
  const float one = 1.0f;
  packed_args packed;
  memset(&packed, 0, sizeof packed);
  cl_int err = CL_SUCCESS;
  for (int f = 0; f < FLOORS && err == CL_SUCCESS; f++) {
    char name[32];
    snprintf(name, sizeof name, "floor_%s", floors[f].op);
    b->floor[f] = clCreateKernel(program, name, &err);
    int next = 0;
    for (cl_uint i = 0; err == CL_SUCCESS && floors[f].args[i]; i++) {
      const char c = floors[f].args[i];
      err = c == 'U'   ? clSetKernelArg(b->floor[f], i, sizeof zero, &zero)
            : c == 'F' ? clSetKernelArg(b->floor[f], i, sizeof one, &one)
            : c == 'N' ? clSetKernelArg(b->floor[f], i, sizeof none, &none)
            : c == 'S' ? clSetKernelArg(b->floor[f], i, sizeof packed, &packed)
                       : clSetKernelArg(b->floor[f], i, sizeof(cl_mem), &buffers[next++ % 3]);
    }
  }
  return err;
}

/* The OpenCL calls of `rounds` more calls, per call, into line (total first, then each function
   called); -1 on a failed call. */
static int count_calls(bench *b, call_fn fn, long rounds, char *line, size_t size) {
  unsigned long before[COUNTED_COUNT], after[COUNTED_COUNT];
  clFinish(b->queue);
  counted_snapshot(before);
  for (long i = 0; i < rounds; i++)
    if (fn(b) != 0) return -1;
  clFinish(b->queue);
  counted_snapshot(after);
  unsigned long total = 0;
  for (int i = 0; i < COUNTED_COUNT; i++)
    total += after[i] - before[i];
  int used = snprintf(line, size, "%6.2f ", (double)total / (double)rounds);
  for (int i = 0; i < COUNTED_COUNT && used > 0 && (size_t)used < size; i++)
    if (after[i] != before[i])
      used += snprintf(line + used, size - (size_t)used, " %s %g", counted_names[i],
                       (double)(after[i] - before[i]) / (double)rounds);
  return 0;
}

int main(int argc, char **argv) {
  long calls = 20000;
  const char *spec = NULL, *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
      calls = strtol(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
      spec = argv[++i];
    else if (strcmp(argv[i], "--op") == 0 && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf(stderr,
              "usage: host_cost [--calls N] [--device SPEC] [--op add|softmax|matmul|args]\n");
      return 2;
    }
  }
  if (calls < 1) calls = 1;
  if (counted_init() != 0) return 1;
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
  static char text[4096];
  floor_source(text, sizeof text);
  const char *source = text;
  cl_program program = NULL;
  if (err == CL_SUCCESS) program = clCreateProgramWithSource(cl, 1, &source, NULL, &err);
  if (err == CL_SUCCESS) err = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (err == CL_SUCCESS) b.empty = clCreateKernel(program, "empty", &err);
  if (err == CL_SUCCESS) err = floor_kernels(&b, program);
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
  enum { CASES = 12, LINE = 512 };
  /* floor: the case's held floor (a case index, timed before it), -1 for none */
  static const struct {
    const char *name, *op; /* op: what --op names, NULL for raw (always run) */
    call_fn fn;
    int floor;
  } cases[CASES] = {{"raw empty kernel", NULL, call_raw, -1},
                    {"floor add held", "add", call_held_add, -1},
                    {"floor add set", "add", call_floor_add, 1},
                    {"ocf_add n=256", "add", call_add, 1},
                    {"floor softmax held", "softmax", call_held_softmax, -1},
                    {"floor softmax set", "softmax", call_floor_softmax, 4},
                    {"ocf_softmax 4x64", "softmax", call_softmax, 4},
                    {"floor matmul held", "matmul", call_held_matmul, -1},
                    {"floor matmul set", "matmul", call_floor_matmul, 7},
                    {"ocf_matmul 64^3", "matmul", call_matmul, 7},
                    {"floor 4 buffers", "args", call_held_buffers, -1},
                    {"floor 4 buf+struct", "args", call_held_packed, -1}};
  static char counts[CASES][LINE];
  double walls[CASES] = {0.0}, raw_cpu = 0.0;
  int failed = 0;
  const long rounds = calls < BATCH ? calls : BATCH;
  printf("%-20s %9s %9s %9s %9s %9s\n", "case", "wall us", "vs raw", "vs floor", "cpu us",
         "vs raw");
  for (size_t i = 0; i < CASES; i++) {
    if (only && cases[i].op && strcmp(only, cases[i].op) != 0) continue;
    double cpu = 0.0;
    if (time_calls(&b, cases[i].fn, calls, &walls[i], &cpu) != 0 ||
        count_calls(&b, cases[i].fn, rounds, counts[i], LINE) != 0) {
      printf("%-20s failed: %s\n", cases[i].name, ocf_last_error());
      counts[i][0] = '\0';
      failed = 1;
      continue;
    }
    if (i == 0) raw_cpu = cpu;
    char over_floor[16] = "";
    if (cases[i].floor >= 0)
      snprintf(over_floor, sizeof over_floor, "%+9.2f", walls[i] - walls[cases[i].floor]);
    printf("%-20s %9.2f %+9.2f %9s %9.2f %+9.2f\n", cases[i].name, walls[i], walls[i] - walls[0],
           over_floor, cpu, cpu - raw_cpu);
  }
  printf("\nOpenCL calls per call (%ld calls counted, untimed):\n", rounds);
  for (size_t i = 0; i < CASES; i++)
    if (counts[i][0]) printf("%-20s %s\n", cases[i].name, counts[i]);
  for (int f = 0; f < FLOORS; f++)
    if (b.floor[f]) clReleaseKernel(b.floor[f]);
  clReleaseKernel(b.empty);
  clReleaseProgram(program);
  clReleaseMemObject(b.c);
  clReleaseMemObject(b.b);
  clReleaseMemObject(b.a);
  ocf_context_release(b.ctx);
  return failed;
}
