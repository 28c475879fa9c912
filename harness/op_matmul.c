/* matmul: C = A B, m x k times k x n, row-major and dense (ocf_matmul with alpha 1, beta 0),
   judged per element by the model of tolerance.c. */
#include "op_cases.h"
#include "reference.h"

#include <stdio.h>

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "%zux%zux%zu", d[0], d[1], d[2]);
}

/* A multiply and an add per (i, j, p). */
static double work(const size_t *d, const ocft_options *o) {
  (void)o;
  return 2.0 * (double)d[0] * (double)d[1] * (double)d[2];
}

static ocft_extent extent(const size_t *d, const ocft_options *o) {
  (void)o;
  ocft_extent e = {.in = {d[0] * d[2], d[2] * d[1]}, .out = d[0] * d[1]};
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, const ocft_options *o, cl_mem const *in,
                         cl_mem out, cl_mem const *extra, const ocf_launch *launch) {
  (void)o, (void)extra;
  return ocf_matmul(ctx, OCF_NO_TRANS, OCF_NO_TRANS, d[0], d[1], d[2], 1.0f, in[0], 0, d[2], in[1],
                    0, d[1], 0.0f, out, 0, d[1], launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_matmul_host(ctx, OCF_NO_TRANS, OCF_NO_TRANS, d[0], d[1], d[2], 1.0f, in[0], d[2],
                         in[1], d[1], 0.0f, out, d[1]);
}

static void reference(const size_t *d, const ocft_options *o, const float *const *in, double *want,
                      double *tol) {
  (void)o;
  ocf_ref_matmul(0, 0, d[0], d[1], d[2], 1.0f, in[0], d[2], in[1], d[1], 0.0f, NULL, d[1], want);
  ocft_matmul_tolerance(0, 0, d[0], d[1], d[2], 1.0f, in[0], d[2], in[1], d[1], 0.0f, NULL, d[1],
                        tol);
}

static void check(const size_t *d, const ocft_options *o, const float *const *in,
                  const double *want, const double *tol, const float *got,
                  const ocf_device_info *info, ocft_check *c) {
  (void)o;
  (void)in, (void)info;
  ocft_check_elements(got, want, tol, d[0] * d[1], c);
}

static const size_t bench_gpu[][OCFT_MAX_DIMS] = {
    {256, 256, 256},    {512, 512, 512},    {1024, 1024, 1024}, {2048, 2048, 2048},
    {4096, 4096, 4096}, {8192, 8192, 8192}, {1000, 1000, 1000}, {4097, 4095, 1023}};
/* PoCL on 2 cores: ~50 GFLOP/s at best, and every program build costs a second or so. */
static const size_t bench_cpu[][OCFT_MAX_DIMS] = {
    {128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {255, 257, 129}, {500, 300, 200}};
static const size_t small[][OCFT_MAX_DIMS] = {{16, 16, 16}, {1, 1, 1}, {5, 7, 3}, {33, 17, 65}};

/* oclfuse tune: the classes skinny, small_k, large_k, few_rows, small and large (m x n x k). */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  const size_t big = gpu ? 4096 : 512, mid = gpu ? 1024 : 128;
  const size_t skinny[2][3] = {{1, big, big}, {big, 16, big}};
  const size_t small_k[2][3] = {{big, big, 64}, {big + 1, big - 1, 33}};
  const size_t large_k[2][3] = {{mid / 2, mid / 2, 8 * big},
                                {mid / 2 + 3, mid / 2 - 1, 8 * big + 5}};
  /* Few rows over a long K (k >= 4096 on every device): a prompt's or a batch's tokens through
     a layer's weights, a ragged side too. */
  const size_t few_rows[2][3] = {{gpu ? 128 : 32, gpu ? big : 640, 4096},
                                 {gpu ? 64 : 24, 2 * big + 3, 4096}};
  /* Fewer than 128 tiles of 128 x 128 (m n <= 2^21), a K of a layer's among them. */
  const size_t few_tiles_gpu[3][3] = {{512, 512, 512}, {1000, 1000, 1000}, {768, 2048, 2048}};
  const size_t few_tiles_cpu[3][3] = {{72, 72, 72}, {104, 104, 104}, {96, 256, 256}};
  /* Ragged on every side and a few waves of tiles: on the H200, 4-wide A reads won 3-12 % on
     the first two and lost 6-16 % on 3000^3 and 2000 x 3000 x 1500. A CPU's of the class too
     (m n > 2^21), over a short K. */
  const size_t large_gpu[3][3] = {
      {big, big, big}, {big + 1, big - 1, big / 4 - 1}, {3000, 3000, 3000}};
  const size_t large_cpu[3][3] = {{1536, 1536, 128}, {1537, 1535, 127}, {2048, 1100, 96}};
  const size_t(*s)[3] = shape_class == 0   ? skinny
                        : shape_class == 1 ? small_k
                        : shape_class == 2 ? large_k
                        : shape_class == 3 ? few_rows
                        : shape_class == 4 ? (gpu ? few_tiles_gpu : few_tiles_cpu)
                                           : (gpu ? large_gpu : large_cpu);
  const size_t count = shape_class >= 4 ? 3 : 2;
  for (size_t i = 0; i < count; i++)
    d[i][0] = s[i][0], d[i][1] = s[i][1], d[i][2] = s[i][2];
  return count;
}

const ocft_op_case ocft_op_matmul = {
    .name = "matmul",
    .function = "ocf_matmul",
    .host_function = "ocf_matmul_host",
    .ndims = 3,
    .error_help = "per element: u (|alpha| sum_p (|a_p b_p| + |s_p|) + |alpha s_k|), s_p\n"
                  "the partial sums of its dot product, plus u (|beta c| + |result|) when\n"
                  "beta != 0, plus second-order terms",
    .dims_help = "N or MxNxK",
    .shape_text = shape_text,
    .unit = "GFLOP/s",
    .ceiling = OCFT_CEILING_FMA,
    .work = work,
    .tune_shapes = tune_shapes,
    .bench_gpu = {bench_gpu, sizeof bench_gpu / sizeof bench_gpu[0]},
    .bench_cpu = {bench_cpu, sizeof bench_cpu / sizeof bench_cpu[0]},
    .sweep_gpu = {2048, 2048, 2048},
    .sweep_cpu = {256, 256, 256},
    .sweep_non_powers = 0,
    .small = {small, sizeof small / sizeof small[0]},
    .extent = extent,
    .device = device,
    .host = host,
    .reference = reference,
    .check = check,
};
