/* The error of ocf_matmul_ex's fp32 modes against an fp64 reference on the same inputs (issue 18:
   3XTF32 beside TF32 and FP32), on the first GPU through ocf_context_create (so that
   OCLFUSE_CACHE=always keeps the PTX), with the plan each mode ran. A and B uniform in [-1, 1)
   (a fixed seed); the reference is computed for `rows` sampled rows of C in full. Errors per
   element: rel = |c - ref| / |ref| and scaled = |c - ref| / sum_p |a_ip b_pj|; max and mean.
   usage: stage3x_error m n k ta tb [batch] */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <oclfuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 0x9e3779b97f4a7c15ull;
static float uniform(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((double)(seed >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
}

int main(int argc, char **argv) {
  if (argc < 6) return 2;
  size_t m = strtoull(argv[1], 0, 10), n = strtoull(argv[2], 0, 10), k = strtoull(argv[3], 0, 10);
  int ta = atoi(argv[4]), tb = atoi(argv[5]);
  size_t batch = argc > 6 ? strtoull(argv[6], 0, 10) : 1;
  ocf_context *ctx;
  if (ocf_context_create(NULL, &ctx)) {
    fprintf(stderr, "%s\n", ocf_last_error());
    return 1;
  }
  size_t lda = ta ? m : k, ldb = tb ? k : n;
  size_t sa = m * k, sb = k * n, sc = m * n;
  float *a = malloc(sa * batch * 4), *b = malloc(sb * batch * 4), *c = malloc(sc * batch * 4);
  for (size_t i = 0; i < sa * batch; i++)
    a[i] = uniform();
  for (size_t i = 0; i < sb * batch; i++)
    b[i] = uniform();
  cl_context cl = ocf_context_cl_context(ctx);
  cl_command_queue q = ocf_context_queue(ctx);
  cl_int err;
  cl_mem ab = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sa * batch * 4, a, &err);
  cl_mem bb = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sb * batch * 4, b, &err);
  cl_mem cb = clCreateBuffer(cl, CL_MEM_READ_WRITE, sc * batch * 4, NULL, &err);
  enum { ROWS = 48 };
  size_t rows = m < ROWS ? m : ROWS;
  double *ref = malloc(rows * n * batch * sizeof(double)),
         *mag = malloc(rows * n * batch * sizeof(double));
  for (size_t q0 = 0; q0 < batch; q0++)
    for (size_t r = 0; r < rows; r++) {
      size_t i = r * (m / rows);
      for (size_t j = 0; j < n; j++) {
        double s = 0, s_abs = 0;
        for (size_t p = 0; p < k; p++) {
          double x = a[q0 * sa + (ta ? p * lda + i : i * lda + p)];
          double y = b[q0 * sb + (tb ? j * ldb + p : p * ldb + j)];
          s += x * y;
          s_abs += fabs(x * y);
        }
        ref[(q0 * rows + r) * n + j] = s;
        mag[(q0 * rows + r) * n + j] = s_abs;
      }
    }
  static const char *const names[] = {"fp32", "tf32", "3xtf32"};
  for (int mode = 0; mode < 3; mode++) {
    ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
    o.precision = (ocf_precision)mode;
    o.batch = batch;
    o.stride_a = sa, o.stride_b = sb, o.stride_c = sc;
    if (ocf_matmul_ex(ctx, ta ? OCF_TRANS : OCF_NO_TRANS, tb ? OCF_TRANS : OCF_NO_TRANS, m, n, k,
                      1.0f, ab, 0, lda, bb, 0, ldb, 0.0f, cb, 0, n, &o, NULL)) {
      printf("%s: %s\n", names[mode], ocf_last_error());
      continue;
    }
    char plan[600];
    snprintf(plan, sizeof plan, "%s", ocf_last_plan());
    clEnqueueReadBuffer(q, cb, CL_TRUE, 0, sc * batch * 4, c, 0, NULL, NULL);
    double max_rel = 0, sum_rel = 0, max_sc = 0, sum_sc = 0;
    size_t count = 0, bad = 0;
    for (size_t q0 = 0; q0 < batch; q0++)
      for (size_t r = 0; r < rows; r++) {
        size_t i = r * (m / rows);
        for (size_t j = 0; j < n; j++) {
          double want = ref[(q0 * rows + r) * n + j], got = c[q0 * sc + i * n + j];
          double e = fabs(got - want);
          if (!(e == e)) bad++;
          double rel = e / (fabs(want) > 1e-30 ? fabs(want) : 1e-30);
          double scl = e / (mag[(q0 * rows + r) * n + j] + 1e-30);
          if (rel > max_rel) max_rel = rel;
          if (scl > max_sc) max_sc = scl;
          sum_rel += rel, sum_sc += scl, count++;
        }
      }
    printf("%zux%zux%zu ta=%d tb=%d batch=%zu %-6s rel max %.3e mean %.3e  scaled max %.3e mean "
           "%.3e%s  plan %s\n",
           m, n, k, ta, tb, batch, names[mode], max_rel, sum_rel / count, max_sc, sum_sc / count,
           bad ? "  NaN!" : "", plan);
  }
  return 0;
}
