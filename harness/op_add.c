/* add: out = x + y over n floats (ocf_add), exact against the reference. */
#include "op_cases.h"
#include "reference.h"

#include <stdio.h>

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "n=%zu", d[0]);
}

/* Two reads and a write of n floats. */
static double work(const size_t *d, const ocft_options *o) {
  (void)o;
  return 3.0 * 4.0 * (double)d[0];
}

static ocft_extent extent(const size_t *d, const ocft_options *o) {
  (void)o;
  ocft_extent e = {.in = {d[0], d[0]}, .out = d[0]};
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, const ocft_options *o, cl_mem const *in,
                         cl_mem out, cl_mem const *extra, const ocf_launch *launch) {
  (void)o, (void)extra;
  return ocf_add(ctx, d[0], in[0], 0, in[1], 0, out, 0, launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_add_host(ctx, d[0], in[0], in[1], out);
}

static void reference(const size_t *d, const ocft_options *o, const float *const *in, double *want,
                      double *tol) {
  (void)o;
  (void)tol;
  ocf_ref_add(d[0], in[0], in[1], want);
}

/* fp32 addition is correctly rounded: the reference is the one right answer (tolerance 0). */
static void check(const size_t *d, const ocft_options *o, const float *const *in,
                  const double *want, const double *tol, const float *got,
                  const ocf_device_info *info, ocft_check *c) {
  (void)o;
  (void)in, (void)tol, (void)info;
  ocft_check_elements(got, want, NULL, d[0], c);
}

/* 2^16 .. 2^28 on a GPU, 2^16 .. 2^24 on PoCL's 2 cores. */
static const size_t bench_gpu[][OCFT_MAX_DIMS] = {{1u << 16}, {1u << 18}, {1u << 20}, {1u << 22},
                                                  {1u << 24}, {1u << 26}, {1u << 28}};
static const size_t bench_cpu[][OCFT_MAX_DIMS] = {
    {1u << 16}, {1u << 18}, {1u << 20}, {1u << 22}, {1u << 24}};
static const size_t small[][OCFT_MAX_DIMS] = {{1000}, {1}, {4099}};

/* oclfuse tune: class 0 (fits a few waves) and 1 (many), a power of two and a ragged n. */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  static const size_t gpu_n[2][2] = {{(size_t)1 << 20, 3000017}, {(size_t)1 << 26, 50000017}};
  static const size_t cpu_n[2][2] = {{(size_t)1 << 16, 100003}, {(size_t)1 << 22, 5000011}};
  const size_t *n = (gpu ? gpu_n : cpu_n)[shape_class == 0 ? 0 : 1];
  d[0][0] = n[0], d[1][0] = n[1];
  return 2;
}

const ocft_op_case ocft_op_add = {
    .name = "add",
    .function = "ocf_add",
    .host_function = "ocf_add_host",
    .ndims = 1,
    .error_help = "exact: fp32 addition is correctly rounded, so the tolerance is 0",
    .dims_help = "N",
    .shape_text = shape_text,
    .unit = "GB/s",
    .ceiling = OCFT_CEILING_STREAM,
    .work = work,
    .tune_shapes = tune_shapes,
    .bench_gpu = {bench_gpu, sizeof bench_gpu / sizeof bench_gpu[0]},
    .bench_cpu = {bench_cpu, sizeof bench_cpu / sizeof bench_cpu[0]},
    .sweep_gpu = {1u << 24},
    .sweep_cpu = {1u << 20},
    .sweep_non_powers = 1,
    .small = {small, sizeof small / sizeof small[0]},
    .extent = extent,
    .device = device,
    .host = host,
    .reference = reference,
    .check = check,
};
