/* norm: LayerNorm of each row of a rows x cols matrix (ocf_layernorm, no options: eps 1e-5, no
   weight, bias, residual or statistics; RMSNorm and the options are test_norm's), judged per
   element by the shifted two-pass model of tolerance.c. */
#include "op_cases.h"
#include "reference_norm.h"

#include <stdio.h>

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "%zux%zu", d[0], d[1]);
}

/* One read and one write of each fp32 element (the GB/s). */
static double work(const size_t *d) {
  return 8.0 * (double)d[0] * (double)d[1];
}

static ocft_extent extent(const size_t *d) {
  ocft_extent e = {{d[0] * d[1], 0}, d[0] * d[1]};
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, cl_mem const *in, cl_mem out,
                         const ocf_launch *launch) {
  return ocf_layernorm(ctx, d[0], d[1], in[0], 0, d[1], out, 0, d[1], NULL, launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_layernorm_host(ctx, d[0], d[1], in[0], d[1], out, d[1], NULL, NULL, NULL, NULL, NULL,
                            NULL, NULL);
}

/* OCF_NORM_OPTIONS_INIT's eps. */
#define EPS 1e-5

/* The model with no device: its deepest sums (a work-item alone up to workgroups of 65536), so
   that it holds for every launch, a default one or a swept workgroup size. */
static void reference(const size_t *d, const float *const *in, double *want, double *tol) {
  ocf_ref_norm(0, d[0], d[1], in[0], d[1], NULL, NULL, EPS, want, NULL, NULL);
  ocft_norm_tolerance(0, d[0], d[1], in[0], d[1], NULL, NULL, EPS, want, 0, 0, NULL, tol, NULL,
                      NULL);
}

static void check(const size_t *d, const float *const *in, const double *want, const double *tol,
                  const float *got, const ocf_device_info *info, ocft_check *c) {
  (void)in;
  (void)info;
  ocft_check_elements(got, want, tol, d[0] * d[1], c);
}

/* The table (8192 x 4096, 32768 x 1024, 1024 x 16384), narrow rows, a ragged width and
   long rows split over workgroups. On a CPU, the shapes docs/NORM.md measured on PoCL. */
static const size_t bench_gpu[][OCFT_MAX_DIMS] = {{8192, 4096}, {32768, 1024}, {1024, 16384},
                                                  {65536, 128}, {4096, 4097},  {256, 262144}};
static const size_t bench_cpu[][OCFT_MAX_DIMS] = {
    {4096, 256}, {1024, 1024}, {256, 4096}, {16, 65536}, {1000, 781}};
static const size_t small[][OCFT_MAX_DIMS] = {{4, 100}, {1, 1}, {7, 333}, {3, 3000}};

/* oclfuse tune: by row length as softmax's classes; the table (8192 x 4096,
   32768 x 1024, 1024 x 16384) among them. */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  static const size_t gpu_shapes[5][2][2] = {{{65536, 128}, {32768, 200}},
                                             {{32768, 1024}, {8192, 1823}},
                                             {{8192, 4096}, {1024, 16384}},
                                             {{1024, 65536}, {256, 200000}},
                                             {{64, 1048576}, {8, 4000000}}};
  static const size_t cpu_shapes[5][2][2] = {{{4096, 256}, {2048, 200}},
                                             {{1024, 1024}, {512, 1823}},
                                             {{256, 4096}, {64, 10000}},
                                             {{16, 65536}, {4, 200000}},
                                             {{2, 1048576}, {1, 3000000}}};
  if (shape_class >= 5) return 0;
  const size_t(*s)[2] = gpu ? gpu_shapes[shape_class] : cpu_shapes[shape_class];
  for (int i = 0; i < 2; i++)
    d[i][0] = s[i][0], d[i][1] = s[i][1];
  return 2;
}

const ocft_op_case ocft_op_norm = {
    .name = "norm",
    .function = "ocf_layernorm",
    .host_function = "ocf_layernorm_host",
    .ndims = 2,
    .dims_help = "N or RxC",
    .shape_text = shape_text,
    .unit = "GB/s",
    .ceiling = OCFT_CEILING_COPY,
    .work = work,
    .tune_shapes = tune_shapes,
    .baseline = 1,
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
