/* softmax: each row of a rows x cols matrix (ocf_softmax), judged by the row-factor model of
   tolerance.c. */
#include "op_cases.h"
#include "reference.h"

#include <stdio.h>

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "%zux%zu", d[0], d[1]);
}

/* One read and one write of each fp32 element. */
static double work(const size_t *d, const ocft_options *o) {
  (void)o;
  return 8.0 * (double)d[0] * (double)d[1];
}

static ocft_extent extent(const size_t *d, const ocft_options *o) {
  (void)o;
  ocft_extent e = {.in = {d[0] * d[1]}, .out = d[0] * d[1]};
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, const ocft_options *o, cl_mem const *in,
                         cl_mem out, cl_mem const *extra, const ocf_launch *launch) {
  (void)o, (void)extra;
  return ocf_softmax(ctx, d[0], d[1], in[0], 0, d[1], out, 0, d[1], launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_softmax_host(ctx, d[0], d[1], in[0], d[1], out, d[1]);
}

static void reference(const size_t *d, const ocft_options *o, const float *const *in, double *want,
                      double *tol) {
  (void)o;
  (void)tol;
  ocf_ref_softmax(d[0], d[1], in[0], d[1], want);
}

/* A default launch (workgroup size 0: the model's floor, OCFT_SOFTMAX_DEFAULT_WORKGROUP). */
static void check(const size_t *d, const ocft_options *o, const float *const *in,
                  const double *want, const double *tol, const float *got,
                  const ocf_device_info *info, ocft_check *c) {
  (void)o;
  (void)tol;
  ocft_check_softmax(d[0], d[1], in[0], d[1], want, got, d[1], 0, info, c);
}

/* Powers of two, and widths that are not (781: rows that start off a vector boundary; 50257: a
   vocabulary; 262144 with few rows: rows split across workgroups). */
static const size_t bench_gpu[][OCFT_MAX_DIMS] = {{65536, 128},  {16384, 1024}, {4096, 4096},
                                                  {2048, 16384}, {1024, 65536}, {1823, 781},
                                                  {512, 50257},  {128, 262144}};
static const size_t bench_cpu[][OCFT_MAX_DIMS] = {
    {16384, 128}, {1024, 1024}, {64, 16384}, {16, 65536}, {1000, 781}};
static const size_t small[][OCFT_MAX_DIMS] = {{4, 100}, {1, 1}, {7, 333}, {3, 3000}};

/* oclfuse tune: two shapes a class (narrow, medium, wide, long, huge rows). */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  static const size_t gpu_shapes[5][2][2] = {{{65536, 128}, {32768, 200}},
                                             {{16384, 1024}, {8192, 1823}},
                                             {{4096, 4096}, {2048, 10000}},
                                             {{1024, 65536}, {256, 200000}},
                                             {{64, 1048576}, {8, 4000000}}};
  static const size_t cpu_shapes[5][2][2] = {{{4096, 64}, {2048, 200}},
                                             {{1024, 1024}, {512, 1823}},
                                             {{128, 4096}, {64, 10000}},
                                             {{16, 65536}, {4, 200000}},
                                             {{2, 1048576}, {1, 3000000}}};
  return ocft_row_tune_shapes(gpu_shapes, cpu_shapes, 5, shape_class, gpu, d);
}

const ocft_op_case ocft_op_softmax = {
    .name = "softmax",
    .function = "ocf_softmax",
    .host_function = "ocf_softmax_host",
    .ndims = 2,
    .error_help = "per row: each element against its reference times the row's common\n"
                  "factor rho (the sum of the outputs over the sum of the references),\n"
                  "relatively within u (14 + |x - max|) plus the row's mean of that; then\n"
                  "rho against 1, within a bound that grows with the additions one\n"
                  "work-item makes in sequence (the depth of the reduction)",
    .dims_help = "N or RxC",
    .shape_text = shape_text,
    .unit = "GB/s",
    .ceiling = OCFT_CEILING_COPY,
    .work = work,
    .tune_shapes = tune_shapes,
    .bench_gpu = {bench_gpu, sizeof bench_gpu / sizeof bench_gpu[0]},
    .bench_cpu = {bench_cpu, sizeof bench_cpu / sizeof bench_cpu[0]},
    .sweep_gpu = {8192, 4096},
    .sweep_cpu = {1024, 512},
    .sweep_non_powers = 1,
    .small = {small, sizeof small / sizeof small[0]},
    .extent = extent,
    .device = device,
    .host = host,
    .reference = reference,
    .check = check,
};
