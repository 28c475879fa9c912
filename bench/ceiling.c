/*
 * The device's ceiling, measured in the same run as the ops: copy bandwidth (a float4 copy kernel
 * and clEnqueueCopyBuffer: one read, one write, softmax's mix), stream bandwidth with add's mix
 * (a float4 kernel out = x + y: two reads, one write), and peak fp32 flops (independent FMA
 * chains). Each is the best of its repeats (the fastest call), and the bandwidths the best of
 * several measurements: a ceiling is what the device can do, not what it did on average while
 * something else ran. These kernels belong to the tool, not the library.
 */
#include "tool.h"

#include <math.h>
#include <string.h>

/* 4 independent float16 chains per work-item (64 FMAs an iteration) hide the FMA latency; the
   vector type lets a CPU compiler (PoCL) use its SIMD FMAs, where a scalar loop would not be
   vectorised across work-items, and a GPU simply scalarises it. The multiplier comes in as an
   argument so that nothing folds at compile time, and the sum is stored so nothing is dead. */
static const char ceiling_source[] =
    "#ifdef FP_FAST_FMAF\n"
    "#define FMA(a, b, c) fma(a, b, c)\n"
    "#else\n"
    "#define FMA(a, b, c) mad(a, b, c)\n"
    "#endif\n"
    "__kernel void ocf_tool_copy4(__global const float4 *in, __global float4 *out) {\n"
    "  const size_t i = get_global_id(0);\n"
    "  out[i] = in[i];\n"
    "}\n"
    "__kernel void ocf_tool_stream4(__global const float4 *x, __global const float4 *y,\n"
    "                               __global float4 *out) {\n"
    "  const size_t i = get_global_id(0);\n"
    "  out[i] = x[i] + y[i];\n"
    "}\n"
    "#define CHAINS 4\n"
    "__kernel void ocf_tool_fma(const uint iterations, const float b, __global float *out) {\n"
    "  const float seed = (float)get_global_id(0) * 1e-9f;\n"
    "  float16 x0 = (float16)(seed), x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;\n"
    "  const float16 m = (float16)(b), c = (float16)(1e-3f);\n"
    "  for (uint i = 0; i < iterations; i++) {\n"
    "    x0 = FMA(x0, m, c);\n"
    "    x1 = FMA(x1, m, c);\n"
    "    x2 = FMA(x2, m, c);\n"
    "    x3 = FMA(x3, m, c);\n"
    "  }\n"
    "  const float16 s = (x0 + x1) + (x2 + x3);\n"
    "  out[get_global_id(0)] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7 + s.s8 +\n"
    "                          s.s9 + s.sa + s.sb + s.sc + s.sd + s.se + s.sf;\n"
    "}\n";

#define FMA_PER_ITERATION 64 /* 4 chains x 16 lanes */

/* Measurements of each bandwidth ceiling; the best counts. */
#define BANDWIDTH_RUNS 3

typedef struct ceiling_state {
  cl_command_queue queue;
  cl_kernel kernel;
  cl_mem in, out, in2;
  size_t bytes;
  size_t global, local;
  int use_copy_buffer;
} ceiling_state;

static int enqueue_ceiling(void *p, cl_event *event, char *err, size_t errlen) {
  ceiling_state *s = p;
  cl_int e = s->use_copy_buffer
                 ? clEnqueueCopyBuffer(s->queue, s->in, s->out, 0, 0, s->bytes, 0, NULL, event)
                 : clEnqueueNDRangeKernel(s->queue, s->kernel, 1, NULL, &s->global, &s->local, 0,
                                          NULL, event);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "%s: %s", s->use_copy_buffer ? "clEnqueueCopyBuffer" : "ceiling kernel",
             ocf_status_name((ocf_status)e));
    return TOOL_FAILED;
  }
  return 0;
}

static size_t pick_local(size_t max_wg) {
  return max_wg >= 256 ? 256 : max_wg;
}

/* The rate of the fastest call: a ceiling is the best the device does. */
static double row_rate(const tool_row *row) {
  return row->status == ROW_OK ? row->work / (row->min_ms * 1e-3) * 1e-9 : NAN;
}

/* Measures `runs` times into one row, keeping the run whose fastest call was fastest. */
static void measure_best(tool_timer *timer, ceiling_state *s, int repeats, int runs,
                         tool_row *row) {
  tool_row best = *row;
  int have = 0;
  for (int run = 0; run < runs; run++) {
    tool_row attempt = *row;
    tool_measure(timer, enqueue_ceiling, NULL, s, repeats, &attempt);
    if (attempt.status != ROW_OK) {
      if (!have) best = attempt;
      break;
    }
    if (!have || attempt.min_ms < best.min_ms) best = attempt;
    have = 1;
  }
  *row = best;
  if (have && runs > 1)
    tool_row_note(row, "best of %d runs of %d calls (rate from the fastest call)", runs,
                  row->repeats);
  else if (have)
    tool_row_note(row, "rate from the fastest of %d calls", row->repeats);
}

static int measure_copies(tool_timer *timer, cl_program program, const ocf_device_info *info,
                          int gpu, int repeats, tool_results *results, tool_ceiling *ceiling) {
  ocf_context *ctx = timer->ctx;
  /* Big enough to stream through any cache: 256 MiB per buffer on a GPU (an H200 has 50 MB of
     L2), 64 MiB on a CPU; never beyond the device's allocation limit. */
  size_t floats = gpu ? (size_t)1 << 26 : (size_t)1 << 24;
  cl_ulong max_alloc = tool_max_alloc(info->device);
  while (max_alloc && floats * sizeof(float) > max_alloc && floats > 1024)
    floats /= 2;
  size_t local = pick_local(info->max_workgroup_size);
  ceiling_state s = {ocf_context_queue(ctx), NULL,       NULL,  NULL, NULL,
                     floats * sizeof(float), floats / 4, local, 0};
  cl_int err = CL_SUCCESS;
  cl_kernel copy = clCreateKernel(program, "ocf_tool_copy4", &err);
  cl_kernel stream = err == CL_SUCCESS ? clCreateKernel(program, "ocf_tool_stream4", &err) : NULL;
  s.in = err == CL_SUCCESS ? tool_buffer(ctx, floats, NULL) : NULL;
  s.in2 = s.in ? tool_buffer(ctx, floats, NULL) : NULL;
  s.out = s.in2 ? tool_buffer(ctx, floats, NULL) : NULL;
  if (s.out) {
    const float one = 1.0f;
    err = clEnqueueFillBuffer(s.queue, s.in, &one, sizeof one, 0, s.bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clEnqueueFillBuffer(s.queue, s.in2, &one, sizeof one, 0, s.bytes, 0, NULL, NULL);
  }
  if (err == CL_SUCCESS && s.out) err = clSetKernelArg(copy, 0, sizeof s.in, &s.in);
  if (err == CL_SUCCESS && s.out) err = clSetKernelArg(copy, 1, sizeof s.out, &s.out);
  if (err == CL_SUCCESS && s.out) err = clSetKernelArg(stream, 0, sizeof s.in, &s.in);
  if (err == CL_SUCCESS && s.out) err = clSetKernelArg(stream, 1, sizeof s.in2, &s.in2);
  if (err == CL_SUCCESS && s.out) err = clSetKernelArg(stream, 2, sizeof s.out, &s.out);
  char shape[48];
  snprintf(shape, sizeof shape, "n=%zu", floats);
  int rc = 0;
  static const char *const variants[] = {"copy-kernel", "copy-buffer", "stream-kernel"};
  for (int v = 0; v < 3; v++) {
    tool_row *row = tool_results_add(results, "ceiling", shape, variants[v]);
    if (!row) {
      rc = -1;
      break;
    }
    row->dims[0] = floats;
    row->ndims = 1;
    row->unit = "GB/s";
    /* copy: read once, write once; stream: two reads, one write */
    row->work = (v == 2 ? 3.0 : 2.0) * (double)s.bytes;
    if (err != CL_SUCCESS || !s.out) {
      row->status = ROW_FAILED;
      tool_row_note(row, "setup failed: %s", ocf_status_name((ocf_status)err));
      continue;
    }
    s.use_copy_buffer = v == 1;
    s.kernel = v == 2 ? stream : copy;
    tool_progress(timer, "ceiling %s %s", row->variant, shape);
    measure_best(timer, &s, repeats, BANDWIDTH_RUNS, row);
    double rate = row_rate(row);
    if (v == 0) ceiling->copy_kernel_gbps = rate;
    if (v == 1) ceiling->copy_buffer_gbps = rate;
    if (v == 2) ceiling->stream_gbps = rate;
  }
  if (s.out) clReleaseMemObject(s.out);
  if (s.in2) clReleaseMemObject(s.in2);
  if (s.in) clReleaseMemObject(s.in);
  if (stream) clReleaseKernel(stream);
  if (copy) clReleaseKernel(copy);
  return rc;
}

static int measure_fma(tool_timer *timer, cl_program program, const ocf_device_info *info, int gpu,
                       int repeats, tool_results *results, tool_ceiling *ceiling) {
  ocf_context *ctx = timer->ctx;
  /* Enough work-items to fill every lane of every compute unit several times over, and enough
     iterations that the launch cost vanishes: ~70 GFLOP on an H200 (about a millisecond), ~0.13
     GFLOP on 2 CPU cores. */
  size_t local = pick_local(info->max_workgroup_size);
  size_t global = (size_t)info->compute_units * (gpu ? 2048 : 1024);
  global = (global + local - 1) / local * local;
  cl_uint iterations = gpu ? 2048 : 512;
  char shape[48];
  snprintf(shape, sizeof shape, "items=%zu", global);
  tool_row *row = tool_results_add(results, "ceiling", shape, "fma-peak");
  if (!row) return -1;
  row->dims[0] = global;
  row->ndims = 1;
  row->unit = "GFLOP/s";
  row->work = 2.0 * FMA_PER_ITERATION * (double)iterations * (double)global;
  ceiling_state s = {ocf_context_queue(ctx), NULL, NULL, NULL, NULL, 0, global, local, 0};
  cl_int err = CL_SUCCESS;
  const float b = 0.999f;
  s.kernel = clCreateKernel(program, "ocf_tool_fma", &err);
  s.out = err == CL_SUCCESS ? tool_buffer(ctx, global, NULL) : NULL;
  if (s.out) err = clSetKernelArg(s.kernel, 0, sizeof iterations, &iterations);
  if (s.out && err == CL_SUCCESS) err = clSetKernelArg(s.kernel, 1, sizeof b, &b);
  if (s.out && err == CL_SUCCESS) err = clSetKernelArg(s.kernel, 2, sizeof s.out, &s.out);
  if (err != CL_SUCCESS || !s.out) {
    row->status = ROW_FAILED;
    tool_row_note(row, "setup failed: %s", ocf_status_name((ocf_status)err));
  } else {
    tool_progress(timer, "ceiling fma-peak %s", shape);
    measure_best(timer, &s, repeats, 1, row);
    ceiling->fma_gflops = row_rate(row);
  }
  if (s.out) clReleaseMemObject(s.out);
  if (s.kernel) clReleaseKernel(s.kernel);
  return 0;
}

int tool_ceiling_measure(tool_timer *timer, int gpu, int repeats, tool_results *results,
                         tool_ceiling *ceiling) {
  ceiling->copy_kernel_gbps = ceiling->copy_buffer_gbps = ceiling->copy_gbps = NAN;
  ceiling->stream_gbps = ceiling->fma_gflops = NAN;
  ceiling->cache_bytes = 0.0;
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocf_status status = ocf_context_device_info(timer->ctx, &info);
  if (status != OCF_SUCCESS) {
    tool_error("%s", ocf_last_error());
    return -1;
  }
  cl_ulong cache = 0;
  if (clGetDeviceInfo(info.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL) ==
      CL_SUCCESS)
    ceiling->cache_bytes = (double)cache;
  cl_program program =
      tool_build_program(ocf_context_cl_context(timer->ctx), info.device, ceiling_source, "-w");
  if (!program) {
    /* Not fatal: the ops still run; their rows just have no percentage. */
    tool_row *row = tool_results_add(results, "ceiling", "-", "copy-kernel");
    if (!row) return -1;
    row->status = ROW_FAILED;
    tool_row_note(row, "the ceiling kernels failed to build (log on stderr)");
    return 0;
  }
  int rc = measure_copies(timer, program, &info, gpu, repeats, results, ceiling);
  if (rc == 0) rc = measure_fma(timer, program, &info, gpu, repeats, results, ceiling);
  clReleaseProgram(program);
  double best = 0.0;
  if (ceiling->copy_kernel_gbps > best) best = ceiling->copy_kernel_gbps;
  if (ceiling->copy_buffer_gbps > best) best = ceiling->copy_buffer_gbps;
  ceiling->copy_gbps = best > 0.0 ? best : NAN;
  return rc;
}
