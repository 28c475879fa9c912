/* Times ocf_attention through the public API on the first GPU (a context of ocf_context_create,
   so that OCLFUSE_CACHE=always keeps the PTX): first kernel start to last kernel end (profiling
   events on a queue of its own), median of REPS after warm-up, a 512 MiB fill before each
   repetition (the L2 flushed). Prints TFLOP/s of 4 b h lq lk d (halved for causal lq = lk), GB/s
   of K and V read once in their storage type, the plan, and a check of sampled rows against a
   double reference on the host (max |error| / (tolerance), "ok" under 1).
   usage: library_attention_time f32|f16|bf16 b h h_kv lq lk d [causal] [prec=0|1|2]
          ["tune=name=v name=v"]
   (prec=: ocf_attention_options.precision, FP32 / TF32 / 3XTF32; tune=: ocf_context_set_tuning
   of attention's tunables for every shape class)
   CLOCKS=1 (environment; a library built with tools/lab/h200/mma_clock.patch): every call runs
   in a workspace of 96 MiB (the call zero-fills what it uses of it: the timed figures then
   include that fill), and after the timed calls one more writes attention_mma_split's
   per-workgroup clocks 64 MiB past its scratch; prints where a workgroup's time went. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <oclfuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The patched attention_mma_split's records (8 ulongs a workgroup, a magic word first) found in
   the workspace's last 32 MiB: the spread of the workgroups' entries and ends on the global
   timer, and the medians and maxima of each phase in cycles of the SM clock. */
static int cmp_ulong(const void *a, const void *b) {
  cl_ulong x = *(const cl_ulong *)a, y = *(const cl_ulong *)b;
  return (x > y) - (x < y);
}
static void print_clocks(const cl_ulong *w, size_t words, double call_us) {
  size_t first = 0, count = 0;
  while (first < words && (w[first] >> 48) != 0xC10Cu)
    first++;
  while (first + 8 * (count + 1) <= words && (w[first + 8 * count] >> 48) == 0xC10Cu)
    count++;
  if (count == 0) {
    printf("clocks: no records\n");
    return;
  }
  cl_ulong *phase = malloc(5 * count * sizeof *phase);
  cl_ulong g0 = ~0ull, g_last_entry = 0, g_end = 0, sms = 0;
  for (size_t i = 0; i < count; i++) {
    const cl_ulong *r = w + first + 8 * i;
    if (r[1] < g0) g0 = r[1];
    if (r[1] > g_last_entry) g_last_entry = r[1];
    if (r[2] > g_end) g_end = r[2];
    if ((r[0] & 0xffff) + 1 > sms) sms = (r[0] & 0xffff) + 1;
    phase[0 * count + i] = r[4] > r[3] ? r[4] - r[3] : 0; /* entry to the first tile landed */
    phase[1 * count + i] = r[5] > r[4] ? r[5] - r[4] : 0; /* the rest of the tiles */
    phase[2 * count + i] = r[6] > r[5] ? r[6] - r[5] : 0; /* the partials written */
    phase[3 * count + i] = r[7] > r[6] ? r[7] - r[6] : 0; /* the join, if any, to the end */
    phase[4 * count + i] = r[7] - r[3];                   /* the whole workgroup */
  }
  printf("clocks: %zu workgroups on %llu SM ids; the call %.1f us by its events (the workspace's "
         "fill too), %.1f us from the first entry to the last end, entries spread over %.1f us\n",
         count, (unsigned long long)sms, call_us, (double)(g_end - g0) * 1e-3,
         (double)(g_last_entry - g0) * 1e-3);
  const char *names[5] = {"first tile", "other tiles", "partials", "join/end", "whole"};
  for (int p = 0; p < 5; p++) {
    qsort(phase + p * count, count, sizeof *phase, cmp_ulong);
    printf("  %-12s cycles median %8llu  p90 %8llu  max %8llu\n", names[p],
           (unsigned long long)phase[p * count + count / 2],
           (unsigned long long)phase[p * count + count * 9 / 10],
           (unsigned long long)phase[p * count + count - 1]);
  }
  free(phase);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static float half_to_float(unsigned short h) {
  const unsigned e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 1024), (int)e - 25);
  return h & 0x8000 ? -v : v;
}

static float load(const unsigned char *p, size_t i, ocf_dtype dt) {
  if (dt == OCF_F32) {
    float f;
    memcpy(&f, p + 4 * i, 4);
    return f;
  }
  unsigned short h;
  memcpy(&h, p + 2 * i, 2);
  if (dt == OCF_F16) return half_to_float(h);
  const unsigned u = (unsigned)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Random values in [-2, 2) stored as dt (f16: a value of [0.5, 1) times a sign, exact). */
static unsigned char *fill(size_t n, ocf_dtype dt, unsigned seed) {
  const size_t es = ocf_dtype_size(dt);
  unsigned char *p = malloc(n * es);
  unsigned state = seed;
  for (size_t i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    const float v = (float)(state >> 8) * (4.0f / 16777216.0f) - 2.0f;
    unsigned u;
    memcpy(&u, &v, 4);
    if (es == 4) {
      memcpy(p + 4 * i, &v, 4);
    } else {
      unsigned short h =
          dt == OCF_BF16
              ? (unsigned short)(u >> 16)
              : (unsigned short)(0x3800 | ((state >> 14) & 0x3ff) | ((state >> 31) << 15));
      memcpy(p + 2 * i, &h, 2);
    }
  }
  return p;
}

int main(int argc, char **argv) {
  if (argc < 8) return 2;
  const ocf_dtype dt = !strcmp(argv[1], "f16")    ? OCF_F16
                       : !strcmp(argv[1], "bf16") ? OCF_BF16
                                                  : OCF_F32;
  size_t n[6];
  for (int i = 0; i < 6; i++)
    n[i] = strtoull(argv[2 + i], 0, 10);
  const size_t b = n[0], h = n[1], hkv = n[2], lq = n[3], lk = n[4], d = n[5];
  int causal = 0, precision = 0;
  const char *tune = NULL;
  for (int i = 8; i < argc; i++) {
    if (!strcmp(argv[i], "causal")) causal = 1;
    if (!strncmp(argv[i], "prec=", 5)) precision = atoi(argv[i] + 5);
    if (!strncmp(argv[i], "tune=", 5)) tune = argv[i] + 5;
  }
  ocf_context *ctx;
  if (ocf_context_create(NULL, &ctx)) {
    fprintf(stderr, "%s\n", ocf_last_error());
    return 1;
  }
  if (tune && tune[0] && ocf_context_set_tuning(ctx, "attention", dt, "*", tune)) {
    fprintf(stderr, "%s\n", ocf_last_error());
    return 1;
  }
  cl_context cl = ocf_context_cl_context(ctx);
  cl_device_id dev = ocf_context_device(ctx);
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(cl, dev, props, &err);
  const size_t es = ocf_dtype_size(dt);
  const size_t nq = b * h * lq * d, nk = b * hkv * lk * d;
  unsigned char *hq = fill(nq, dt, 1), *hk = fill(nk, dt, 2), *hv = fill(nk, dt, 3);
  unsigned char *ho = malloc(nq * es);
  cl_mem Q = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nq * es, hq, &err);
  cl_mem K = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nk * es, hk, &err);
  cl_mem V = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nk * es, hv, &err);
  cl_mem O = clCreateBuffer(cl, CL_MEM_READ_WRITE, nq * es, NULL, &err);
  cl_mem flush = clCreateBuffer(cl, CL_MEM_READ_WRITE, 512u << 20, NULL, &err);
  ocf_attention_options o = OCF_ATTENTION_OPTIONS_INIT;
  o.q_dtype = o.k_dtype = o.v_dtype = o.out_dtype = dt;
  o.causal = causal;
  o.precision = (ocf_precision)precision;
  const int clocks = getenv("CLOCKS") && atoi(getenv("CLOCKS"));
  const size_t ws_bytes = (size_t)96 << 20;
  cl_mem ws = clocks ? clCreateBuffer(cl, CL_MEM_READ_WRITE, ws_bytes, NULL, &err) : NULL;
  enum { REPS = 11 };
  double t[REPS], t_first[REPS], t_last[REPS];
  for (int r = -2; r < REPS + (clocks ? 1 : 0); r++) {
    if (clocks && r == REPS) { /* the clocks' call: its records only */
      const cl_uchar zero = 0;
      clEnqueueFillBuffer(q, ws, &zero, 1, (size_t)64 << 20, (size_t)32 << 20, 0, NULL, NULL);
    }
    cl_uchar z = (cl_uchar)r;
    clEnqueueFillBuffer(q, flush, &z, 1, 0, 512u << 20, 0, NULL, NULL);
    cl_event ev = NULL, first = NULL;
    ocf_launch l = OCF_LAUNCH_INIT;
    l.queue = q;
    l.event = &ev;
    l.first_event = &first;
    if (clocks) l.workspace = ws, l.workspace_size = ws_bytes;
    ocf_status s = ocf_attention(ctx, b, h, hkv, lq, lk, d, Q, 0, NULL, K, 0, NULL, V, 0, NULL, O,
                                 0, NULL, &o, &l);
    if (s) {
      fprintf(stderr, "attention %s %s: %s\n", argv[1], argv[2], ocf_last_error());
      return 1;
    }
    clWaitForEvents(1, &ev);
    cl_ulong start, end, first_end, last_start;
    clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, 8, &start, NULL);
    clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_END, 8, &first_end, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &end, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &last_start, NULL);
    if (r == REPS) { /* the clocks' call */
      const size_t words = ((size_t)32 << 20) / sizeof(cl_ulong);
      cl_ulong *w = malloc(words * sizeof *w);
      clEnqueueReadBuffer(q, ws, CL_TRUE, (size_t)64 << 20, words * sizeof *w, w, 0, NULL, NULL);
      print_clocks(w, words, (double)(end - start) * 1e-3);
      free(w);
      clReleaseEvent(ev);
      clReleaseEvent(first);
      continue;
    }
    if (r >= 0) t_last[r] = (double)(end - last_start) * 1e-9;
    if (r >= 0) t[r] = (double)(end - start) * 1e-9;
    if (r >= 0) t_first[r] = (double)(first_end - start) * 1e-9;
    clReleaseEvent(ev);
    clReleaseEvent(first);
  }
  char plan[1024];
  snprintf(plan, sizeof plan, "%s", ocf_last_plan());
  clEnqueueReadBuffer(q, O, CL_TRUE, 0, nq * es, ho, 0, NULL, NULL);
  /* Sampled rows against a double reference: error over (1e-3 for f32, 1e-2 for 16-bit storage)
     times the row's largest |v|. */
  double worst = 0.0;
  const double tol = dt == OCF_F32 ? 1e-3 : 2e-2;
  const double scale = 1.0 / sqrt((double)d);
  double *p = malloc(lk * sizeof *p);
  for (size_t sample = 0; sample < 48; sample++) {
    const size_t bh = (sample * 7919) % (b * h), i = lq == 1 ? 0 : (sample * 104729) % lq;
    const size_t batch = bh / h, head = bh % h, kvh = head / (h / hkv);
    const size_t qrow = (bh * lq + i) * d, kbase = (batch * hkv + kvh) * lk * d;
    const long long limit = (long long)i + (long long)lk - (long long)lq + 1;
    const size_t kept = !causal ? lk : limit <= 0 ? 0 : (size_t)limit < lk ? (size_t)limit : lk;
    double mx = -INFINITY, sum = 0.0;
    for (size_t j = 0; j < kept; j++) {
      double s = 0.0;
      for (size_t c = 0; c < d; c++)
        s += (double)load(hq, qrow + c, dt) * load(hk, kbase + j * d + c, dt);
      p[j] = s * scale;
      if (p[j] > mx) mx = p[j];
    }
    for (size_t j = 0; j < kept; j++)
      sum += p[j] = exp(p[j] - mx);
    for (size_t c = 0; c < d; c++) {
      double want = 0.0;
      for (size_t j = 0; j < kept; j++)
        want += p[j] * load(hv, kbase + j * d + c, dt);
      want = kept ? want / sum : 0.0;
      const double e = fabs(want - load(ho, qrow + c, dt)) / (tol * 2.0);
      if (!(e <= worst)) worst = e;
    }
  }
  qsort(t, REPS, sizeof *t, cmp);
  qsort(t_first, REPS, sizeof *t_first, cmp);
  qsort(t_last, REPS, sizeof *t_last, cmp);
  const double sec = t[REPS / 2];
  const double flop = 4.0 * b * h * lq * lk * d * (causal && lq == lk ? 0.5 : 1.0);
  printf("attention %-4s %zux%zux%zux%zux%zux%zu%s %9.4f ms %7.2f TFLOP/s %7.0f GB/s(KV) check "
         "%s %.3g %s first step %.4f ms last step %.4f ms plan: %s\n",
         argv[1], b, h, hkv, lq, lk, d, causal ? " causal" : "", sec * 1e3, flop / sec * 1e-12,
         2.0 * nk * es / sec * 1e-9, worst < 1.0 ? "ok" : "FAIL", worst, tune ? tune : "",
         t_first[REPS / 2] * 1e3, t_last[REPS / 2] * 1e3, plan);
  ocf_context_release(ctx); /* (the disk cache stores the context's programs here) */
  return 0;
}
