/*
 * Device-side timing of one call, as the device sees it.
 *
 * A call may enqueue several kernels (the three-kernel softmax baseline, CLBlast's padding and
 * transposition kernels), while its out event covers only the last one. On a GPU each call is
 * preceded by a fill of a buffer larger than the last-level cache (512 MiB by default:
 * --flush-mib), so that no call finds its operands in L2 because the call before left them
 * there, and each call is timed from the end of its fill to the end of its own last kernel, on
 * the in-order queue:
 *
 *   gate | fill 0 | call 0 (warm) | fill 1 | call 1 | ... | fill N | call N |
 *                                        ^f1      ^e1               ^fN      ^eN   t_i = e_i - f_i
 *
 * That counts every kernel of the call and the gaps between them, from the launch of its first
 * kernel (the gap after the fill, a few microseconds at most, is the one thing counted beyond the
 * kernels) to its last kernel's end, and nothing of the host. Without a flush (CPU devices by
 * default, or --flush-mib 0) the calls run back to back and t_i = e_i - e_(i-1): what a pipeline
 * of calls pays, with whatever the cache keeps. To keep the host's enqueue time out of it, the
 * batch sits behind a gate: one work-item spinning a dependent FMA chain for 2 ms plus 0.2 ms
 * per call, long enough for the host to enqueue every call before the device reaches them. (A
 * user event would do the same but could deadlock if a callee ever waited on the queue; a kernel
 * always finishes.)
 *
 * A measurement first runs the call once and checks its output (so a wrong kernel is reported,
 * never timed; the run also builds the programs), then times a batch of `repeats` calls after one
 * more warm call. Slow calls get fewer repeats (at least 3) so that one measurement stays near
 * the timer's budget.
 */
#include "tool.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char delay_source[] =
    "__kernel void ocf_tool_delay(const uint iterations, __global float *out) {\n"
    "  float a = (float)get_global_id(0) + 1.0f;\n"
    "  for (uint i = 0; i < iterations; i++)\n"
    "    a = mad(a, 0.9999999f, 1e-7f);\n"
    "  out[get_global_id(0)] = a;\n"
    "}\n";

static int run_delay(tool_timer *timer, cl_uint iterations, cl_event *event) {
  size_t one = 1;
  cl_int err = clSetKernelArg(timer->delay, 0, sizeof iterations, &iterations);
  if (err == CL_SUCCESS)
    err = clSetKernelArg(timer->delay, 1, sizeof timer->delay_out, &timer->delay_out);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(timer->queue, timer->delay, 1, NULL, &one, &one, 0, NULL, event);
  if (err != CL_SUCCESS) {
    tool_error("gate kernel: %s", ocf_status_name((ocf_status)err));
    return -1;
  }
  return 0;
}

int tool_timer_init(tool_timer *timer, ocf_context *ctx, double budget_ms, int quiet) {
  memset(timer, 0, sizeof *timer);
  timer->ctx = ctx;
  timer->queue = ocf_context_queue(ctx);
  timer->budget_ms = budget_ms;
  timer->quiet = quiet;
  timer->gate_ms = 2.0;
  cl_int err = CL_SUCCESS;
  timer->program =
      tool_build_program(ocf_context_cl_context(ctx), ocf_context_device(ctx), delay_source, "-w");
  if (!timer->program) return -1;
  timer->delay = clCreateKernel(timer->program, "ocf_tool_delay", &err);
  if (err == CL_SUCCESS)
    timer->delay_out =
        clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE, sizeof(float), NULL, &err);
  if (err != CL_SUCCESS) {
    tool_error("timer setup: %s", ocf_status_name((ocf_status)err));
    tool_timer_release(timer);
    return -1;
  }
  /* Calibrate: time a short spin (after one to warm up), scale it to gate_ms. */
  const cl_uint probe = 1u << 16;
  double ns_per_iteration = 0.0;
  for (int attempt = 0; attempt < 2; attempt++) {
    cl_event event = NULL;
    cl_ulong start = 0, end = 0;
    if (run_delay(timer, probe, &event) || clWaitForEvents(1, &event) != CL_SUCCESS ||
        tool_event_ns(event, CL_PROFILING_COMMAND_START, &start) ||
        tool_event_ns(event, CL_PROFILING_COMMAND_END, &end)) {
      if (event) clReleaseEvent(event);
      tool_error("cannot time the gate kernel (is profiling enabled?)");
      tool_timer_release(timer);
      return -1;
    }
    clReleaseEvent(event);
    ns_per_iteration = end > start ? (double)(end - start) / probe : 1.0;
  }
  timer->iterations_per_ms = 1e6 / ns_per_iteration;
  return 0;
}

int tool_timer_set_flush(tool_timer *timer, size_t bytes) {
  if (timer->flush) clReleaseMemObject(timer->flush);
  timer->flush = NULL;
  timer->flush_bytes = 0;
  bytes = bytes / 16 * 16; /* whole float4 patterns */
  if (bytes == 0) return 0;
  cl_int err = CL_SUCCESS;
  cl_mem flush =
      clCreateBuffer(ocf_context_cl_context(timer->ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err == CL_SUCCESS) {
    /* Touch it once: a lazily allocated buffer would pay its allocation in the first flush. */
    const cl_float pattern[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    err =
        clEnqueueFillBuffer(timer->queue, flush, pattern, sizeof pattern, 0, bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(timer->queue);
  }
  if (err != CL_SUCCESS) {
    if (flush) clReleaseMemObject(flush);
    tool_error("the cache flush buffer of %zu MiB: %s", bytes >> 20,
               ocf_status_name((ocf_status)err));
    return -1;
  }
  timer->flush = flush;
  timer->flush_bytes = bytes;
  return 0;
}

void tool_timer_release(tool_timer *timer) {
  if (timer->flush) clReleaseMemObject(timer->flush);
  timer->flush = NULL;
  timer->flush_bytes = 0;
  if (timer->delay_out) clReleaseMemObject(timer->delay_out);
  if (timer->delay) clReleaseKernel(timer->delay);
  if (timer->program) clReleaseProgram(timer->program);
  timer->delay_out = NULL;
  timer->delay = NULL;
  timer->program = NULL;
}

void tool_progress(const tool_timer *timer, const char *fmt, ...) {
  if (timer->quiet) return;
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  tool_progress_step(timer->rows ? timer->rows->count : 0, "%s", what);
}

static int compare_doubles(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : a > b ? 1 : 0;
}

double tool_median(double *v, size_t n) {
  if (n == 0) return NAN;
  qsort(v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double tool_quantile(const double *sorted, size_t n, double q) {
  if (n == 0) return NAN;
  double at = q * (double)(n - 1);
  size_t below = (size_t)at;
  if (below + 1 >= n) return sorted[n - 1];
  return sorted[below] + (at - (double)below) * (sorted[below + 1] - sorted[below]);
}

/* Waits for the event and checks that its command completed; 0 or -1 (err says why). */
static int wait_event(cl_event event, char *err, size_t errlen) {
  cl_int status = CL_SUCCESS;
  cl_int e = clWaitForEvents(1, &event);
  if (e == CL_SUCCESS)
    e = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  if (e == CL_SUCCESS && status < 0) e = status;
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "the call's kernel failed on the device: %s",
             ocf_status_name((ocf_status)e));
    return -1;
  }
  return 0;
}

/* Fills the flush buffer (the cache flush before a call); its event in *event. */
static int run_flush(tool_timer *timer, cl_event *event, char *err, size_t errlen) {
  const cl_float pattern[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  cl_int e = clEnqueueFillBuffer(timer->queue, timer->flush, pattern, sizeof pattern, 0,
                                 timer->flush_bytes, 0, NULL, event);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "the cache flush (clEnqueueFillBuffer): %s",
             ocf_status_name((ocf_status)e));
    return -1;
  }
  return 0;
}

/* Times `repeats` calls behind the gate, each after a cache flush when the timer has one, else
   back to back; fills times[0..repeats). 0 or -1. */
static int time_batch(tool_timer *timer, tool_enqueue_fn enqueue, void *state, int repeats,
                      double *times, char *err, size_t errlen) {
  size_t count = (size_t)repeats + 1;
  cl_event *events = calloc(2 * count, sizeof *events);
  if (!events) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  cl_event *flushed = events + count; /* each call's flush, with a flush buffer */
  /* 2 ms, plus 0.2 ms a call for the host to enqueue it (CLBlast's calls cost most). */
  double iterations = (timer->gate_ms + 0.2 * (double)count) * timer->iterations_per_ms;
  if (iterations < 1024.0) iterations = 1024.0;
  if (iterations > 1073741824.0) iterations = 1073741824.0;
  int rc = run_delay(timer, (cl_uint)iterations, NULL);
  if (rc) snprintf(err, errlen, "the timing gate kernel failed");
  for (size_t i = 0; rc == 0 && i < count; i++) {
    if (timer->flush) rc = run_flush(timer, &flushed[i], err, errlen);
    if (rc == 0) rc = enqueue(state, &events[i], err, errlen);
    if (rc == 0 && !events[i]) {
      snprintf(err, errlen, "the call returned no event");
      rc = -1;
    }
  }
  cl_int finished = clFinish(timer->queue);
  if (rc == 0 && finished != CL_SUCCESS) {
    snprintf(err, errlen, "clFinish: %s", ocf_status_name((ocf_status)finished));
    rc = -1;
  }
  for (size_t i = 0; rc == 0 && i < count; i++)
    rc = wait_event(events[i], err, errlen);
  cl_ulong previous_end = 0;
  for (size_t i = 0; rc == 0 && i < count; i++) {
    cl_ulong start = 0, end = 0, flush_end = 0;
    if (tool_event_ns(events[i], CL_PROFILING_COMMAND_START, &start) ||
        tool_event_ns(events[i], CL_PROFILING_COMMAND_END, &end) ||
        (timer->flush && tool_event_ns(flushed[i], CL_PROFILING_COMMAND_END, &flush_end))) {
      snprintf(err, errlen, "no profiling information (is the queue's profiling enabled?)");
      rc = -1;
      break;
    }
    /* From the call's start: its flush's end, else (back to back) the previous call's end.
       Should the device clock disagree (an end before that), fall back to this event alone. */
    const cl_ulong from = timer->flush ? flush_end : previous_end;
    if (i > 0) times[i - 1] = (double)(end > from ? end - from : end - start) * 1e-6;
    previous_end = end;
  }
  for (size_t i = 0; i < 2 * count; i++)
    if (events[i]) clReleaseEvent(events[i]);
  free(events);
  return rc ? -1 : 0;
}

/* Device time of one more call's last kernel in ms, or 0 if it cannot be had. */
static double call_ms(tool_timer *timer, tool_enqueue_fn enqueue, void *state) {
  char err[64];
  cl_event event = NULL;
  cl_ulong start = 0, end = 0;
  double ms = 0.0;
  if (enqueue(state, &event, err, sizeof err) == 0 && event &&
      wait_event(event, err, sizeof err) == 0 &&
      !tool_event_ns(event, CL_PROFILING_COMMAND_START, &start) &&
      !tool_event_ns(event, CL_PROFILING_COMMAND_END, &end) && end > start)
    ms = (double)(end - start) * 1e-6;
  if (event) clReleaseEvent(event);
  clFinish(timer->queue);
  return ms;
}

void tool_measure(tool_timer *timer, tool_enqueue_fn enqueue, tool_verify_fn verify, void *state,
                  int repeats, tool_row *row) {
  char err[sizeof row->note] = "";
  cl_event event = NULL;
  int rc = enqueue(state, &event, err, sizeof err);
  if (rc == TOOL_SKIPPED) {
    row->status = ROW_SKIPPED;
    tool_row_note(row, "the device cannot hold this baseline's memory: %s", err);
    return;
  }
  if (rc != 0) {
    row->status = rc == TOOL_REFUSED ? ROW_REFUSED : ROW_FAILED;
    tool_row_note(row, "%s", err);
    return;
  }
  /* The library's rows say which kernels it chose; CLBlast and the ceiling kernels are not its. */
  if (strncmp(row->variant, "clblast", 7) != 0 && strcmp(row->op, "ceiling") != 0)
    snprintf(row->plan, sizeof row->plan, "%s", ocf_last_plan());
  double estimate_ms = 0.0;
  rc = event ? wait_event(event, err, sizeof err) : 0;
  if (event) {
    cl_ulong start = 0, end = 0;
    if (rc == 0 && !tool_event_ns(event, CL_PROFILING_COMMAND_START, &start) &&
        !tool_event_ns(event, CL_PROFILING_COMMAND_END, &end) && end > start)
      estimate_ms = (double)(end - start) * 1e-6;
    clReleaseEvent(event);
  }
  if (rc == 0) rc = clFinish(timer->queue) == CL_SUCCESS ? 0 : -1;
  if (rc) {
    row->status = ROW_FAILED;
    tool_row_note(row, "%s", err[0] ? err : "clFinish failed");
    return;
  }
  if (verify) {
    if (verify(state, &row->verdict, err, sizeof err)) {
      row->status = ROW_FAILED;
      tool_row_note(row, "check failed to run: %s", err);
      return;
    }
    if (!row->verdict.pass) {
      row->status = ROW_WRONG;
      tool_row_note(row, "max %s error %.3g > tolerance %.3g (element %zu): not timed",
                    row->verdict.measure, row->verdict.max_error, row->verdict.tolerance,
                    row->verdict.worst);
      return;
    }
  }
  if (timer->check_only) {
    row->status = ROW_OK;
    return;
  }
  int count = repeats;
  if (estimate_ms > 0.0 && estimate_ms * count > timer->budget_ms) {
    /* The first call may have paid for first-touch page faults or lazy allocation: before
       cutting repeats, look at a second one. */
    double again = call_ms(timer, enqueue, state);
    if (again > 0.0 && again < estimate_ms) estimate_ms = again;
  }
  if (estimate_ms > 0.0 && estimate_ms * count > timer->budget_ms) {
    count = (int)(timer->budget_ms / estimate_ms);
    if (count < 3) count = 3;
    if (count > repeats) count = repeats;
  }
  double *times = malloc((size_t)count * sizeof *times);
  if (!times) {
    row->status = ROW_FAILED;
    tool_row_note(row, "out of host memory");
    return;
  }
  if (time_batch(timer, enqueue, state, count, times, err, sizeof err)) {
    row->status = ROW_FAILED;
    tool_row_note(row, "%s", err);
    free(times);
    return;
  }
  row->min_ms = INFINITY;
  row->max_ms = 0.0;
  for (int i = 0; i < count; i++) {
    if (times[i] < row->min_ms) row->min_ms = times[i];
    if (times[i] > row->max_ms) row->max_ms = times[i];
  }
  row->median_ms = tool_median(times, (size_t)count); /* sorts times */
  row->p10_ms = tool_quantile(times, (size_t)count, 0.1);
  row->p90_ms = tool_quantile(times, (size_t)count, 0.9);
  row->repeats = count;
  row->status = ROW_OK;
  if (count < repeats && !row->note[0])
    tool_row_note(row, "%d repeats (slow call, %.0f ms each)", count, estimate_ms);
  free(times);
}

size_t tool_flush_bytes(int flush_mib, int gpu, cl_ulong max_alloc) {
  unsigned long long bytes = flush_mib >= 0 ? (unsigned long long)flush_mib << 20
                             : gpu          ? 512ull << 20
                                            : 0;
  if (max_alloc && bytes > max_alloc) bytes = max_alloc;
  return bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}
