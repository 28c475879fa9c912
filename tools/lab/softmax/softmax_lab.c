/*
 * softmax_lab: times liboclfuse's softmax kernels under many tuning values on the shapes of
 * tools/lab/softmax/shapes.txt, for the lead to run on a GPU (run.sh, beside it, does it all).
 *
 *   softmax_lab --shapes FILE [--budget SECONDS] [--device SPEC] > lab.tsv
 *
 * For each case (in file order, until the time budget is spent) it runs the built-in tuning
 * ("auto") and then tuning values that the planner would take from a tuning database: the
 * context's values for the case's input type are replaced by the built-in ones with a few
 * "name=value" overrides applied (and checked by the tuner's validator), exactly what the tuner
 * will do. Overrides that give the same plan as one already timed are skipped. Every config is
 * checked against the CPU reference on three rows before it is timed; a wrong one is reported,
 * not timed.
 *
 * Timing, as `oclfuse bench` does it: after a warm call, a batch of calls sits behind a gate
 * kernel (a single work-item spinning a few ms) so that the host enqueues them all before the
 * device reaches them; a call's time is the end of its last kernel minus the end of the previous
 * call's (span), median over the batch. The last kernel's own start-to-end time (kernel) is
 * reported too (calls with lengths queue ahead like the others: the kernels read the lengths).
 * GB/s count one read of the input and one write of the output in their storage types; % is of
 * the same run's copy ceiling (the better of a float4 copy kernel and clEnqueueCopyBuffer on
 * 256 MiB).
 *
 * Output: tab-separated lines, a "#" header, one "#ceiling" line, one line per config.
 */
#include "plan/plan.h"
#include "reference_softmax.h"
#include "runtime/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the lab's own small kernels: input fill, timing gate, copy ceiling ---- */

static const char lab_source[] =
    "uint lab_hash(uint h) {\n"
    "  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;\n"
    "  return h;\n"
    "}\n"
    "__kernel void lab_fill(__global uchar *p, const ulong n, const uint dtype, const uint seed) "
    "{\n"
    "  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "    const uint h = lab_hash((uint)i * 0x9e3779b1u ^ seed ^ (uint)(i >> 32));\n"
    "    const float x = (float)(h >> 8) * (8.0f / 16777216.0f) - 4.0f;\n"
    "    if (dtype == 0) ((__global float *)p)[i] = x;\n"
    "    else if (dtype == 1) vstore_half_rte(x, i, (__global half *)p);\n"
    "    else ((__global ushort *)p)[i] = (ushort)(as_uint(x) >> 16);\n"
    "  }\n"
    "}\n"
    "__kernel void lab_spin(const uint iterations, __global float *out) {\n"
    "  float a = 1.0f;\n"
    "  for (uint i = 0; i < iterations; i++) a = mad(a, 0.9999999f, 1e-7f);\n"
    "  out[0] = a;\n"
    "}\n"
    "__kernel void lab_copy(__global const float4 *a, __global float4 *b, const ulong n) {\n"
    "  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) b[i] = a[i];\n"
    "}\n";

typedef struct lab {
  ocf_context *ctx;
  cl_context cl;
  cl_device_id device;
  cl_command_queue queue;
  cl_program program;
  cl_kernel fill, spin, copy;
  cl_mem spin_out;
  double spin_per_ms; /* gate iterations a millisecond */
  double ceiling;     /* GB/s */
  struct timespec start;
  double budget_s;
} lab;

static double elapsed_s(const lab *l) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - l->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - l->start.tv_nsec);
}

static int cl_ok(cl_int err, const char *what) {
  if (err == CL_SUCCESS) return 1;
  fprintf(stderr, "softmax_lab: %s: %s (%d)\n", what, ocf_status_name((ocf_status)err), err);
  return 0;
}

/* Milliseconds from one profiling point of event `from` to one of event `to` (0 if not after). */
static double event_gap_ms(cl_event from, cl_profiling_info from_info, cl_event to,
                           cl_profiling_info to_info) {
  cl_ulong a = 0, b = 0;
  clGetEventProfilingInfo(from, from_info, sizeof a, &a, NULL);
  clGetEventProfilingInfo(to, to_info, sizeof b, &b, NULL);
  return b > a ? (double)(b - a) * 1e-6 : 0.0;
}

static double event_ms(cl_event e, cl_profiling_info from, cl_profiling_info to) {
  return event_gap_ms(e, from, e, to);
}

static int compare_doubles(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : a > b;
}

static double median(double *v, size_t n) {
  if (n == 0) return NAN;
  qsort(v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int run_spin(lab *l, double ms) {
  double it = ms * l->spin_per_ms;
  cl_uint iterations = it < 1024 ? 1024 : it > 1e9 ? 1000000000u : (cl_uint)it;
  size_t one = 1;
  clSetKernelArg(l->spin, 0, sizeof iterations, &iterations);
  clSetKernelArg(l->spin, 1, sizeof l->spin_out, &l->spin_out);
  return cl_ok(clEnqueueNDRangeKernel(l->queue, l->spin, 1, NULL, &one, &one, 0, NULL, NULL),
               "gate");
}

static int lab_init(lab *l, const char *device) {
  ocf_status status = ocf_context_create(device, &l->ctx);
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "softmax_lab: no context: %s\n", ocf_last_error());
    return -1;
  }
  l->cl = ocf_context_cl_context(l->ctx);
  l->device = ocf_context_device(l->ctx);
  l->queue = ocf_context_queue(l->ctx);
  cl_int err = CL_SUCCESS;
  const char *src = lab_source;
  l->program = clCreateProgramWithSource(l->cl, 1, &src, NULL, &err);
  if (!cl_ok(err, "lab program")) return -1;
  if (!cl_ok(clBuildProgram(l->program, 1, &l->device, "", NULL, NULL), "lab build")) return -1;
  l->fill = clCreateKernel(l->program, "lab_fill", &err);
  l->spin = clCreateKernel(l->program, "lab_spin", &err);
  l->copy = clCreateKernel(l->program, "lab_copy", &err);
  l->spin_out = clCreateBuffer(l->cl, CL_MEM_READ_WRITE, 4, NULL, &err);
  if (!cl_ok(err, "lab kernels")) return -1;
  /* Calibrate the gate: a 2^18-iteration spin, twice (the first warms up). */
  l->spin_per_ms = 1.0;
  for (int i = 0; i < 2; i++) {
    cl_uint iterations = 1u << 18;
    size_t one = 1;
    cl_event e = NULL;
    clSetKernelArg(l->spin, 0, sizeof iterations, &iterations);
    clSetKernelArg(l->spin, 1, sizeof l->spin_out, &l->spin_out);
    if (!cl_ok(clEnqueueNDRangeKernel(l->queue, l->spin, 1, NULL, &one, &one, 0, NULL, &e),
               "gate calibration"))
      return -1;
    clWaitForEvents(1, &e);
    double ms = event_ms(e, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
    clReleaseEvent(e);
    l->spin_per_ms = ms > 0 ? iterations / ms : 1e6;
  }
  return 0;
}

/* The copy ceiling: 256 MiB copied by a float4 kernel and by clEnqueueCopyBuffer, best median. */
static void measure_ceiling(lab *l) {
  const size_t bytes = (size_t)256 << 20;
  cl_int err = CL_SUCCESS;
  cl_mem a = clCreateBuffer(l->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem b = clCreateBuffer(l->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (!cl_ok(err, "ceiling buffers")) return;
  cl_ulong n4 = bytes / 16;
  size_t local = 256, global = local * 132 * 16;
  clSetKernelArg(l->copy, 0, sizeof a, &a);
  clSetKernelArg(l->copy, 1, sizeof b, &b);
  clSetKernelArg(l->copy, 2, sizeof n4, &n4);
  for (int way = 0; way < 2; way++) {
    double t[12];
    int n = 0;
    for (int i = 0; i < 12; i++) {
      cl_event e = NULL;
      err = way == 0
                ? clEnqueueNDRangeKernel(l->queue, l->copy, 1, NULL, &global, &local, 0, NULL, &e)
                : clEnqueueCopyBuffer(l->queue, a, b, 0, 0, bytes, 0, NULL, &e);
      if (err != CL_SUCCESS) break;
      clWaitForEvents(1, &e);
      if (i >= 2) t[n++] = event_ms(e, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
      clReleaseEvent(e);
    }
    double ms = median(t, (size_t)n);
    double gbps = ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : 0.0;
    if (gbps > l->ceiling) l->ceiling = gbps;
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

/* ---- cases ---- */

typedef struct lab_case {
  size_t rows, cols;
  ocf_dtype in, out;
  int log, lengths;
} lab_case;

static int parse_dtype(const char *s, ocf_dtype *d) {
  if (!strcmp(s, "f32"))
    *d = OCF_F32;
  else if (!strcmp(s, "f16"))
    *d = OCF_F16;
  else if (!strcmp(s, "bf16"))
    *d = OCF_BF16;
  else
    return -1;
  return 0;
}

static size_t read_cases(const char *path, lab_case *cases, size_t capacity) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "softmax_lab: cannot open %s\n", path);
    return 0;
  }
  char line[256];
  size_t count = 0;
  while (fgets(line, sizeof line, f) && count < capacity) {
    char in[8], out[8], mode[16], extra[16] = "";
    unsigned long long rows, cols;
    if (line[0] == '#' || line[0] == '\n') continue;
    int fields = sscanf(line, "%llu %llu %7s %7s %15s %15s", &rows, &cols, in, out, mode, extra);
    lab_case c = {(size_t)rows, (size_t)cols, OCF_F32, OCF_F32, 0, 0};
    if (fields < 5 || parse_dtype(in, &c.in) || parse_dtype(out, &c.out)) {
      fprintf(stderr, "softmax_lab: bad line: %s", line);
      continue;
    }
    c.log = !strcmp(mode, "log");
    c.lengths = !strcmp(extra, "lengths");
    cases[count++] = c;
  }
  fclose(f);
  return count;
}

static uint32_t case_length(const lab_case *c, size_t r) {
  return c->lengths ? (uint32_t)(c->cols - (r * 7919) % (c->cols / 2 + 1)) : (uint32_t)c->cols;
}

/* ---- the tuning values a config runs with ---- */

/* Overrides tried for each kind of plan (the first is the built-in tuning itself). */
static const char *const rows_configs[] = {"",
                                           "seg_items=2",
                                           "seg_items=8",
                                           "rows_wg=256",
                                           "rows_wg=64",
                                           "max_seg=256",
                                           "seg_align=1",
                                           "prefetch=1 rows_groups_per_unit=8",
                                           "prefetch=1 rows_groups_per_unit=16",
                                           "rows_groups_per_unit=16",
                                           "vw=4 items=16 seg_items=4",
                                           "vw=8 items=8 seg_items=2",
                                           "vw=16 items=4 seg_items=1",
                                           NULL};
static const char *const resident_configs[] = {"",
                                               "items=8",
                                               "items=32",
                                               "items=48",
                                               "local_items=6",
                                               "items=32 local_items=6",
                                               "wg=128",
                                               "min_wg=128",
                                               "min_wg=256",
                                               "coop_spin=0",
                                               "groups_per_unit=8",
                                               "vw=8 items=8",
                                               NULL};
static const char *const long_configs[] = {"",
                                           "items=8",
                                           "items=32",
                                           "items=48",
                                           "items=32 local_items=10",
                                           "items=48 local_items=10",
                                           "wg=128 items=32",
                                           "groups_per_unit=8",
                                           "groups_per_unit=2",
                                           "coop_spin=0",
                                           "coop_spin=0 groups_per_unit=1 items=48 local_items=10",
                                           "coop_spin=0 groups_per_unit=2 items=32 local_items=10",
                                           "coop_spin=0 unroll=8",
                                           "vw=8 items=8",
                                           NULL};

/* 16-bit storage: the same floats a work-item as the fp32 values in vectors of 8 (16 bytes), and
   the fp32 H200 database's entries restated for 8-element vectors. */
static const char *const rows16_configs[] = {
    "",
    "wg=64 min_wg=64 vw=8 items=16 rows_wg=128 seg_items=2 max_seg=128 seg_align=32",
    "wg=64 min_wg=64 vw=8 items=16 rows_wg=128 seg_items=4 max_seg=128 seg_align=32",
    "vw=8 items=16 rows_wg=256 seg_items=1 max_seg=256 seg_align=32",
    "vw=16 items=8 rows_wg=128 seg_items=1 max_seg=128 seg_align=32",
    "vw=8 items=8 rows_wg=256 seg_items=2 max_seg=256 seg_align=32",
    "vw=4 items=32 rows_wg=128 seg_items=4 max_seg=128 seg_align=32",
    "vw=8 items=16 rows_wg=128 seg_items=2 max_seg=128 seg_align=32 prefetch=1 "
    "rows_groups_per_unit=8",
    "vw=8 items=16 rows_wg=128 seg_items=2 max_seg=64 seg_align=32",
    NULL};
static const char *const long16_configs[] = {"",
                                             "vw=8 items=24 local_items=5",
                                             "vw=8 items=16 local_items=8",
                                             "vw=8 items=32",
                                             "vw=8 items=32 local_items=4",
                                             "vw=4 items=48 local_items=10",
                                             "vw=8 items=16 coop_items=16",
                                             "vw=8 items=8 coop_items=16 coop_spin=4096",
                                             "vw=8 coop_spin=0 unroll=4",
                                             "vw=8 items=24 local_items=5 groups_per_unit=2",
                                             "vw=16 items=12 local_items=2",
                                             NULL};

/* Sets the context's softmax values for dtype to the built-in ones with `text` applied, and
   forgets workgroup limits learnt from earlier configs' builds. 0, or -1 when refused. */
static int apply_config(lab *l, ocf_dtype dtype, const char *text) {
  /* Back to the resolved values of every shape class, then the config's tunables over them. */
  if (ocf_context_set_tuning(l->ctx, "softmax", dtype, NULL, NULL) != OCF_SUCCESS ||
      ocf_context_set_tuning(l->ctx, "softmax", dtype, NULL, text) != OCF_SUCCESS)
    return -1;
  pthread_mutex_lock(&l->ctx->lock);
  memset(l->ctx->facts.learnt.kernel_max_workgroup, 0,
         sizeof l->ctx->facts.learnt.kernel_max_workgroup);
  pthread_mutex_unlock(&l->ctx->lock);
  return 0;
}

/* The plan the library makes now for a case, described. */
static ocf_kernel_id describe_plan(lab *l, const lab_case *c, char *out, size_t capacity) {
  ocf_device_facts facts;
  ocf_context_facts(l->ctx, &facts);
  ocf_softmax_call call = {c->rows, c->cols, 0,      c->cols,    0, c->cols, c->in, c->out,
                           0,       0,       c->log, c->lengths, 0, 0,       0,     {0, 0}};
  const ocf_shape shape = {{c->rows, c->cols, 0}};
  ocf_tuning_values values;
  ocf_context_tuning_for(l->ctx, OCF_OP_SOFTMAX, c->in, &shape, &values);
  ocf_plan plan;
  if (ocf_plan_softmax(&facts, &values, &call, &plan) != OCF_SUCCESS) {
    snprintf(out, capacity, "no plan: %s", ocf_last_error());
    return OCF_KERNEL_COUNT;
  }
  if (plan.probe != OCF_PLAN_PROBE_NONE) {
    /* A probe the plan waits for (rows.wide_wg's): run now, as the call would, so that the
       plan described (and compared with those already timed) is the one the call runs. */
    ocf_probe_run(l->ctx, &plan);
    ocf_context_facts(l->ctx, &facts);
    if (ocf_plan_softmax(&facts, &values, &call, &plan) != OCF_SUCCESS) {
      snprintf(out, capacity, "no plan: %s", ocf_last_error());
      return OCF_KERNEL_COUNT;
    }
  }
  ocf_plan_describe(&plan, out, capacity);
  return plan.steps[0].kernel;
}

/* ---- one case ---- */

typedef struct case_buffers {
  cl_mem in, out, lengths;
  ocf_softmax_options opt;
} case_buffers;

static int fill_device(lab *l, cl_mem buffer, size_t n, ocf_dtype dtype, cl_uint seed) {
  cl_ulong count = n;
  cl_uint type = (cl_uint)dtype;
  size_t local = 256, global = local * 1024;
  clSetKernelArg(l->fill, 0, sizeof buffer, &buffer);
  clSetKernelArg(l->fill, 1, sizeof count, &count);
  clSetKernelArg(l->fill, 2, sizeof type, &type);
  clSetKernelArg(l->fill, 3, sizeof seed, &seed);
  return cl_ok(clEnqueueNDRangeKernel(l->queue, l->fill, 1, NULL, &global, &local, 0, NULL, NULL),
               "fill") &&
                 cl_ok(clFinish(l->queue), "fill finish")
             ? 0
             : -1;
}

static void buffers_release(case_buffers *b) {
  if (b->in) clReleaseMemObject(b->in);
  if (b->out) clReleaseMemObject(b->out);
  if (b->lengths) clReleaseMemObject(b->lengths);
  memset(b, 0, sizeof *b);
}

static int buffers_make(lab *l, const lab_case *c, case_buffers *b) {
  memset(b, 0, sizeof *b);
  const size_t n = c->rows * c->cols;
  cl_int err = CL_SUCCESS;
  b->in = clCreateBuffer(l->cl, CL_MEM_READ_WRITE, n * ocf_dtype_size(c->in), NULL, &err);
  if (err == CL_SUCCESS)
    b->out = clCreateBuffer(l->cl, CL_MEM_READ_WRITE, n * ocf_dtype_size(c->out), NULL, &err);
  if (!cl_ok(err, "case buffers") || fill_device(l, b->in, n, c->in, 1234)) {
    buffers_release(b);
    return -1;
  }
  ocf_softmax_options init = OCF_SOFTMAX_OPTIONS_INIT;
  b->opt = init;
  b->opt.in_dtype = c->in;
  b->opt.out_dtype = c->out;
  b->opt.log = c->log;
  if (c->lengths) {
    uint32_t *len = malloc(c->rows * sizeof *len);
    if (!len) {
      buffers_release(b);
      return -1;
    }
    for (size_t r = 0; r < c->rows; r++)
      len[r] = case_length(c, r);
    b->lengths = clCreateBuffer(l->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                c->rows * sizeof *len, len, &err);
    free(len);
    if (!cl_ok(err, "lengths")) {
      buffers_release(b);
      return -1;
    }
    b->opt.lengths = b->lengths;
  }
  return 0;
}

/* One call; its last kernel's event in *event and, where `first` is not NULL, its first's. */
static ocf_status call(lab *l, const lab_case *c, case_buffers *b, cl_event *event,
                       cl_event *first) {
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.event = event;
  launch.first_event = first;
  return ocf_softmax_ex(l->ctx, c->rows, c->cols, b->in, 0, c->cols, b->out, 0, c->cols, &b->opt,
                        &launch);
}

/* Reads `count` elements of type t from element `first` of a buffer, as floats. */
static int read_row(lab *l, cl_mem buffer, ocf_dtype t, size_t first, size_t count, float *dst) {
  const size_t size = ocf_dtype_size(t);
  unsigned char *raw = malloc(count * size);
  if (!raw) return -1;
  cl_int err = clEnqueueReadBuffer(l->queue, buffer, CL_TRUE, first * size, count * size, raw, 0,
                                   NULL, NULL);
  for (size_t i = 0; err == CL_SUCCESS && i < count; i++) {
    if (t == OCF_F32) {
      memcpy(&dst[i], raw + 4 * i, 4);
    } else {
      uint16_t h;
      memcpy(&h, raw + 2 * i, 2);
      dst[i] = t == OCF_F16 ? ocf_ref_f16_to_float(h) : ocf_ref_bf16_to_float(h);
    }
  }
  free(raw);
  return cl_ok(err, "read row") ? 0 : -1;
}

/* The largest error of three rows (first, middle, last) over its allowance: a generous one (the
   tests hold the argued bounds), 1e-4 relative (absolute for log) plus two half-ulps of a 16-bit
   output. Returns the worst error/allowance ratio (> 1: wrong), or -1 if it could not check. */
static double verify(lab *l, const lab_case *c, case_buffers *b) {
  float *x = malloc(c->cols * sizeof *x), *got = malloc(c->cols * sizeof *got);
  double *want = malloc(c->cols * sizeof *want);
  double worst = 0.0;
  const size_t rows[3] = {0, c->rows / 2, c->rows - 1};
  for (int i = 0; i < 3 && x && got && want && worst >= 0.0; i++) {
    const size_t r = rows[i];
    if (read_row(l, b->in, c->in, r * c->cols, c->cols, x) ||
        read_row(l, b->out, c->out, r * c->cols, c->cols, got)) {
      worst = -1.0;
      break;
    }
    const uint32_t len = case_length(c, r);
    ocf_ref_softmax_ex(1, c->cols, x, c->cols, 1.0, c->log, c->lengths ? &len : NULL, want, NULL);
    for (size_t k = 0; k < c->cols; k++) {
      if (isnan(want[k]) || isinf(want[k])) {
        if (!(isnan(want[k]) ? isnan(got[k]) : got[k] == want[k])) worst = INFINITY;
        continue;
      }
      double allowed =
          (c->log ? 1e-4 * (1.0 + fabs(want[k])) : 1e-4 * fabs(want[k]) + 1e-30) +
          (c->out == OCF_F32 ? 0.0 : 2.0 * ocf_ref_half_ulp((int)c->out, fabs(want[k])));
      double ratio = fabs(got[k] - want[k]) / allowed;
      if (!(ratio <= worst)) worst = isnan(ratio) ? INFINITY : ratio;
    }
  }
  free(x), free(got), free(want);
  return worst;
}

/* A call's span (its last kernel's end after the previous call's), its last kernel's time, and
   the parts of a call of several kernels: the first kernel's time, the gap from the first's end
   to the last's start (other kernels in between, and the launches), the lead from the previous
   call's end to this call's first start. One kernel: first = kernel, gap 0. */
typedef struct timing {
  double span_ms, kernel_ms, first_ms, gap_ms, lead_ms;
} timing;

/* Median span and kernel time of a batch of calls behind the gate. */
static int time_config(lab *l, const lab_case *c, case_buffers *b, double estimate_ms, timing *t) {
  int count = estimate_ms > 0 ? (int)(25.0 / estimate_ms) : 20;
  if (count < 5) count = 5;
  if (count > 30) count = 30;
  cl_event ev[31] = {NULL}, firsts[31] = {NULL};
  double spans[31], kernels[31], first_ms[31], gaps[31], leads[31];
  if (!run_spin(l, 2.0 + 0.05 * count)) return -1;
  int n = 0;
  for (int i = 0; i <= count; i++, n++)
    if (call(l, c, b, &ev[i], &firsts[i]) != OCF_SUCCESS) break;
  clFinish(l->queue);
  int spans_n = 0;
  for (int i = 1; i < n; i++, spans_n++) {
    kernels[spans_n] = event_ms(ev[i], CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
    const double span =
        event_gap_ms(ev[i - 1], CL_PROFILING_COMMAND_END, ev[i], CL_PROFILING_COMMAND_END);
    spans[spans_n] = span > 0 ? span : kernels[spans_n];
    /* A call with no work has no first event: its marker stands for both. */
    const cl_event first = firsts[i] ? firsts[i] : ev[i];
    first_ms[spans_n] = event_ms(first, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
    gaps[spans_n] =
        event_gap_ms(first, CL_PROFILING_COMMAND_END, ev[i], CL_PROFILING_COMMAND_START);
    leads[spans_n] =
        event_gap_ms(ev[i - 1], CL_PROFILING_COMMAND_END, first, CL_PROFILING_COMMAND_START);
  }
  for (int i = 0; i < n; i++) {
    clReleaseEvent(ev[i]);
    if (firsts[i]) clReleaseEvent(firsts[i]);
  }
  if (n != count + 1) return -1;
  t->span_ms = median(spans, (size_t)spans_n);
  t->kernel_ms = median(kernels, (size_t)spans_n);
  t->first_ms = median(first_ms, (size_t)spans_n);
  t->gap_ms = median(gaps, (size_t)spans_n);
  t->lead_ms = median(leads, (size_t)spans_n);
  return 0;
}

static const char *mode_name(const lab_case *c) {
  return c->log ? "log" : "softmax";
}

static void run_case(lab *l, size_t index, const lab_case *c) {
  case_buffers b;
  const double bytes =
      (double)c->rows * (double)c->cols * (double)(ocf_dtype_size(c->in) + ocf_dtype_size(c->out));
  if (buffers_make(l, c, &b)) {
    printf("%zu\t%zu\t%zu\t%s\t%s\t%s\t%d\t-\tfailed (buffers)\n", index, c->rows, c->cols,
           ocf_dtype_name(c->in), ocf_dtype_name(c->out), mode_name(c), c->lengths);
    return;
  }
  apply_config(l, c->in, "");
  char auto_plan[512];
  const ocf_kernel_id kind = describe_plan(l, c, auto_plan, sizeof auto_plan);
  const int sixteen = ocf_dtype_size(c->in) == 2;
  const int wide =
      kind == OCF_KERNEL_SOFTMAX_ROWS || (kind == OCF_KERNEL_SOFTMAX_RESIDENT && c->cols <= 16384);
  const char *const *configs = sixteen ? (wide ? rows16_configs : long16_configs)
                               : kind == OCF_KERNEL_SOFTMAX_ROWS     ? rows_configs
                               : kind == OCF_KERNEL_SOFTMAX_RESIDENT ? resident_configs
                                                                     : long_configs;
  /* LAB_CONFIGS="a;b;c" (a config "auto" is the built-in tuning) replaces the lists above. */
  const char *chosen[24] = {NULL};
  static char chosen_text[2048];
  const char *env = getenv("LAB_CONFIGS");
  if (env && *env) {
    snprintf(chosen_text, sizeof chosen_text, "%s", env);
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(chosen_text, ";", &save); t && n < 23;
         t = strtok_r(NULL, ";", &save))
      chosen[n++] = strcmp(t, "auto") ? t : "";
    configs = chosen;
  }
  char seen[16][512];
  size_t seen_count = 0;
  for (size_t k = 0; configs[k]; k++) {
    const char *name = configs[k][0] ? configs[k] : "auto";
    if (elapsed_s(l) > l->budget_s) {
      printf("%zu\t%zu\t%zu\t%s\t%s\t%s\t%d\t%s\tskipped (time budget)\n", index, c->rows, c->cols,
             ocf_dtype_name(c->in), ocf_dtype_name(c->out), mode_name(c), c->lengths, name);
      continue;
    }
    if (apply_config(l, c->in, configs[k])) continue; /* outside the schema's rules */
    char plan[512];
    describe_plan(l, c, plan, sizeof plan);
    int duplicate = 0;
    for (size_t s = 0; s < seen_count; s++)
      duplicate = duplicate || !strcmp(seen[s], plan);
    if (duplicate) continue;
    if (seen_count < 16) snprintf(seen[seen_count++], sizeof seen[0], "%s", plan);

    fprintf(stderr, "softmax_lab: [%.0f s] %zux%zu %s->%s %s%s: %s\n", elapsed_s(l), c->rows,
            c->cols, ocf_dtype_name(c->in), ocf_dtype_name(c->out), mode_name(c),
            c->lengths ? " lengths" : "", name);
    clEnqueueFillBuffer(l->queue, b.out, (cl_uchar[]){0xff}, 1, 0,
                        c->rows * c->cols * ocf_dtype_size(c->out), 0, NULL, NULL);
    cl_event first = NULL;
    ocf_status status = call(l, c, &b, &first, NULL);
    double estimate = 0.0;
    if (status == OCF_SUCCESS) {
      clWaitForEvents(1, &first);
      estimate = event_ms(first, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
      clReleaseEvent(first);
    }
    clFinish(l->queue);
    describe_plan(l, c, plan, sizeof plan); /* after any re-plan under a learnt limit */
    printf("%zu\t%zu\t%zu\t%s\t%s\t%s\t%d\t%s\t", index, c->rows, c->cols, ocf_dtype_name(c->in),
           ocf_dtype_name(c->out), mode_name(c), c->lengths, name);
    if (status != OCF_SUCCESS) {
      printf("failed (%s: %s)\t\t\t\t\t\t\t\t%s\n", ocf_status_name(status), ocf_last_error(),
             plan);
      continue;
    }
    const double error = verify(l, c, &b);
    timing t = {0, 0, 0, 0, 0};
    if (error < 0 || error > 1.0) {
      printf("wrong (error %.3g of allowed)\t\t\t\t\t\t\t\t%s\n", error, plan);
      continue;
    }
    if (time_config(l, c, &b, estimate, &t)) {
      printf("failed (timing)\t\t\t\t\t\t\t\t%s\n", plan);
      continue;
    }
    const double ms = t.span_ms;
    const double gbps = bytes / (ms * 1e6);
    printf("ok\t%.2f\t%.2f\t%.1f\t%.1f\t%.1f\t%.3g\t%.3g\t%s\t%.2f\t%.2f\t%.2f\n", t.span_ms * 1e3,
           t.kernel_ms * 1e3, gbps, bytes / (t.kernel_ms * 1e6),
           l->ceiling > 0 ? 100.0 * gbps / l->ceiling : 0.0, (double)c->rows / (ms * 1e-3), error,
           plan, t.first_ms * 1e3, t.gap_ms * 1e3, t.lead_ms * 1e3);
    fflush(stdout);
  }
  apply_config(l, c->in, "");
  buffers_release(&b);
}

int main(int argc, char **argv) {
  const char *shapes = "tools/lab/softmax/shapes.txt", *device = NULL;
  lab l;
  memset(&l, 0, sizeof l);
  l.budget_s = 75.0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--shapes") && i + 1 < argc)
      shapes = argv[++i];
    else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
      l.budget_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--device") && i + 1 < argc)
      device = argv[++i];
    else {
      fprintf(stderr, "usage: softmax_lab [--shapes FILE] [--budget SECONDS] [--device SPEC]\n");
      return 2;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &l.start);
  static lab_case cases[256];
  const size_t count = read_cases(shapes, cases, 256);
  if (count == 0 || lab_init(&l, device)) return 1;
  measure_ceiling(&l);
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocf_context_device_info(l.ctx, &info);
  printf("#device\t%s\t%s\n", info.device_name, info.driver_version);
  printf("#ceiling\t%.1f\n", l.ceiling);
  printf("#case\trows\tcols\tin\tout\tmode\tlengths\tconfig\tstatus\tspan_us\tkernel_us\tGB/s"
         "\tkernel_GB/s\tpct_copy\trows_per_s\tmax_err/allowed\tplan\tfirst_us\tgap_us\tlead_us\n");
  fflush(stdout);
  for (size_t i = 0; i < count; i++)
    run_case(&l, i, &cases[i]);
  clReleaseMemObject(l.spin_out);
  clReleaseKernel(l.fill);
  clReleaseKernel(l.spin);
  clReleaseKernel(l.copy);
  clReleaseProgram(l.program);
  ocf_context_release(l.ctx);
  return 0;
}
