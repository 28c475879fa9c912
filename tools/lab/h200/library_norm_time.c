/* Times ocf_layernorm / ocf_rmsnorm through the public API on the first GPU: first kernel start
   to last kernel end (profiling events), median of REPS after warm-up, a 512 MiB fill before each
   repetition (the L2 flushed); prints GB/s counting one read and one write of x in its storage
   type (the issue 20 table's measure; the weight and bias rows are noise beside it), the plan,
   and the largest error of y against a double reference over every eighth row and the
   last 64 (relative to the row's largest |y|). Inputs hold random values (a hash), weight and bias
   small ones. The context comes from ocf_context_create, so OCLFUSE_CACHE=always keeps the built
   programs (their PTX on NVIDIA) under OCLFUSE_TUNING_DIR. Each further argument is norm tuning
   text ("rows.prefetch=1 rows.groups_per_unit=8"; "" the resolved values) timed in turn, each
   on the resolved values (before 2026-12-02's round_normstream.sh, each on the previous ones).
   usage: library_norm_time layer|rms f32|f16|bf16 rows cols [tuning ...] */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <oclfuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Seconds from event first's start to event last's end. */
static double span_s(cl_event first, cl_event last) {
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  return (double)(end - start) * 1e-9;
}

/* Element i of a buffer of dtype dt as a double. */
static double value_at(const unsigned char *p, ocf_dtype dt, size_t i) {
  if (dt == OCF_F32) {
    float v;
    memcpy(&v, p + 4 * i, 4);
    return v;
  }
  unsigned short h;
  memcpy(&h, p + 2 * i, 2);
  if (dt == OCF_BF16) {
    unsigned u = (unsigned)h << 16;
    float v;
    memcpy(&v, &u, 4);
    return v;
  }
  const int e = (h >> 10) & 31, m = h & 1023;
  const double mag = e == 0    ? ldexp(m, -24)
                     : e == 31 ? (m ? NAN : INFINITY)
                               : ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -mag : mag;
}

/* The largest |y - reference| of a row over the row's largest |reference|, over every row. */
static double check(const unsigned char *x, const unsigned char *y, const unsigned char *w,
                    const unsigned char *b, ocf_dtype dt, int rms, size_t rows, size_t cols) {
  double worst = 0;
  for (size_t r = 0; r < rows; r++) {
    if (r % 8 != 0 && r + 64 < rows) continue; /* every eighth row, and the last 64 */
    double s = 0, q = 0;
    for (size_t c = 0; c < cols; c++)
      s += value_at(x, dt, r * cols + c);
    const double m = rms ? 0 : s / (double)cols;
    for (size_t c = 0; c < cols; c++) {
      const double d = value_at(x, dt, r * cols + c) - m;
      q += d * d;
    }
    const double rs = 1 / sqrt(q / (double)cols + 1e-5);
    double err = 0, big = 1e-30;
    for (size_t c = 0; c < cols; c++) {
      const double ref = (value_at(x, dt, r * cols + c) - m) * rs * value_at(w, dt, c) +
                         (rms ? 0 : value_at(b, dt, c));
      const double e = fabs(value_at(y, dt, r * cols + c) - ref);
      err = e > err || e != e ? e : err;
      big = fabs(ref) > big ? fabs(ref) : big;
    }
    if (err / big > worst || err != err) worst = err / big;
  }
  return worst;
}

int main(int argc, char **argv) {
  if (argc < 5) return 2;
  const int rms = !strcmp(argv[1], "rms");
  const ocf_dtype dt = !strcmp(argv[2], "f16")    ? OCF_F16
                       : !strcmp(argv[2], "bf16") ? OCF_BF16
                                                  : OCF_F32;
  const size_t rows = strtoull(argv[3], 0, 10), cols = strtoull(argv[4], 0, 10);
  ocf_context *ctx;
  if (ocf_context_create(NULL, &ctx)) {
    fprintf(stderr, "%s\n", ocf_last_error());
    return 1;
  }
  cl_context cl = ocf_context_cl_context(ctx);
  cl_command_queue q = ocf_context_queue(ctx);
  cl_int err;
  const size_t es = ocf_dtype_size(dt), bytes = rows * cols * es;
  unsigned char *host = malloc(bytes), *back = malloc(bytes);
  unsigned char *wh = malloc(cols * es), *bh = malloc(cols * es);
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
  memset(wh, 0x30, cols * es);
  memset(bh, 0x30, cols * es);
  cl_mem x = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
  cl_mem y = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem w = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cols * es, wh, &err);
  cl_mem bias = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cols * es, bh, &err);
  /* NORM_TIME_FLUSH_MB (512 unless set) sizes the fill: 1 under Oclgrind; NORM_TIME_VARIANT
     (an ocf_variant number) picks another variant than the default. */
  const char *variant = getenv("NORM_TIME_VARIANT");
  const char *flush_mb = getenv("NORM_TIME_FLUSH_MB");
  const size_t flush_bytes = (flush_mb ? strtoull(flush_mb, 0, 10) : 512) << 20;
  cl_mem flush = clCreateBuffer(cl, CL_MEM_READ_WRITE, flush_bytes, NULL, &err);
  /* The copy ceiling at this size: clEnqueueCopyBuffer of x's bytes, after the same fill (issue
     20's "0.9x the copy ceiling", read as a copy of the same bytes on the same terms). */
  {
    enum { REPS = 21 };
    double t[REPS];
    for (int r = -3; r < REPS; r++) {
      cl_uchar z = (cl_uchar)r;
      clEnqueueFillBuffer(q, flush, &z, 1, 0, flush_bytes, 0, NULL, NULL);
      cl_event ev = NULL;
      clEnqueueCopyBuffer(q, x, y, 0, 0, bytes, 0, NULL, &ev);
      clWaitForEvents(1, &ev);
      if (r >= 0) t[r] = span_s(ev, ev);
      clReleaseEvent(ev);
    }
    qsort(t, REPS, sizeof *t, cmp);
    printf("copy %-4s %6zux%-6zu %8.4f ms %7.0f GB/s\n", argv[2], rows, cols, t[REPS / 2] * 1e3,
           2.0 * (double)bytes / t[REPS / 2] * 1e-9);
  }
  ocf_norm_options o = OCF_NORM_OPTIONS_INIT;
  o.in_dtype = o.out_dtype = o.weight_dtype = dt;
  o.weight = w;
  if (!rms) o.bias = bias;
  const int variants = argc > 5 ? argc - 5 : 1;
  for (int v = 0; v < variants; v++) {
    const char *tuning = argc > 5 ? argv[5 + v] : "";
    /* Each text on the resolved values, not on the previous text's (set_tuning keeps the
       tunables a text does not name). */
    ocf_context_set_tuning(ctx, "norm", dt, "*", NULL);
    if (ocf_context_set_tuning(ctx, "norm", dt, "*", tuning)) {
      fprintf(stderr, "tuning '%s': %s\n", tuning, ocf_last_error());
      continue;
    }
    enum { REPS = 21 };
    double t[REPS];
    int failed = 0;
    for (int r = -3; r < REPS && !failed; r++) {
      cl_uchar z = (cl_uchar)r;
      clEnqueueFillBuffer(q, flush, &z, 1, 0, flush_bytes, 0, NULL, NULL);
      cl_event ev = NULL, first = NULL;
      ocf_launch l = OCF_LAUNCH_INIT;
      l.event = &ev;
      l.first_event = &first;
      l.variant = variant ? atoi(variant) : OCF_VARIANT_AUTO;
      ocf_status s = rms ? ocf_rmsnorm(ctx, rows, cols, x, 0, cols, y, 0, cols, &o, &l)
                         : ocf_layernorm(ctx, rows, cols, x, 0, cols, y, 0, cols, &o, &l);
      if (s) {
        fprintf(stderr, "%s\n", ocf_last_error());
        failed = 1;
        break;
      }
      clWaitForEvents(1, &ev);
      if (r >= 0) t[r] = span_s(first, ev);
      clReleaseEvent(ev);
      clReleaseEvent(first);
    }
    if (failed) continue;
    clEnqueueReadBuffer(q, y, CL_TRUE, 0, bytes, back, 0, NULL, NULL);
    const double e = check(host, back, wh, bh, dt, rms, rows, cols);
    qsort(t, REPS, sizeof *t, cmp);
    printf("norm %-5s %-4s %6zux%-6zu %8.4f ms %7.0f GB/s err %.1e [%s] plan: %s\n",
           rms ? "rms" : "layer", argv[2], rows, cols, t[REPS / 2] * 1e3,
           2.0 * (double)bytes / t[REPS / 2] * 1e-9, e, tuning, ocf_last_plan());
    fflush(stdout);
  }
  ocf_context_release(ctx);
  return 0;
}
