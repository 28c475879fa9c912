/* norm: LayerNorm of each row of a rows x cols matrix (ocf_layernorm; plain: fp32, eps 1e-5, no
   weight, bias, residual or statistics), and the calls the tool may ask for beyond it: the
   storage type of every tensor, RMSNorm, weight, bias, the residual add (x' written), the
   statistics and eps (test_norm covers strides, offsets, in place and mixed types). Judged per
   element by the shifted two-pass model of tolerance.c, on y; x' and the statistics are written
   and not compared here (test_norm compares them). */
#include "op_cases.h"
#include "reference_norm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options of a call (the index of each in `options` below). */
enum { RMS, WEIGHT, BIAS, RESIDUAL, STATS, EPS };

static const ocft_option options[] = {
    [RMS] = {"rms", OCFT_SWITCH, 0, 0, "RMSNorm (ocf_rmsnorm): no mean, no bias"},
    [WEIGHT] = {"weight", OCFT_SWITCH, 0, 0, "a weight (gamma) of cols elements"},
    [BIAS] = {"bias", OCFT_SWITCH, 0, 0, "a bias (beta) of cols elements; LayerNorm's"},
    [RESIDUAL] = {"residual", OCFT_SWITCH, 0, 0, "x + residual normalized, and written out (x')"},
    [STATS] = {"stats", OCFT_SWITCH, 0, 0, "each row's rstd (and LayerNorm's mean) written"},
    [EPS] = {"eps", OCFT_NUMBER, 0.0, 1.0, "added to the variance, 0 .. 1 (default 1e-5)"},
};

/* layernorm:SIZE is norm:SIZE, rmsnorm:SIZE norm:SIZE:rms. */
static const ocft_alias aliases[] = {{"layernorm", ""}, {"rmsnorm", "rms"}};

static int on(const ocft_options *o, int option) {
  return (o->set >> option) & 1u;
}

/* OCF_NORM_OPTIONS_INIT's eps unless the call gives one, as the kernels hold it (a float). */
static double eps_of(const ocft_options *o) {
  return (double)(float)(on(o, EPS) ? o->value[EPS] : 1e-5);
}

static int validate(const size_t *d, const ocft_options *o, char *why, size_t capacity) {
  (void)d;
  if (on(o, RMS) && on(o, BIAS)) {
    snprintf(why, capacity, "bias is LayerNorm's: rms has none");
    return -1;
  }
  return 0;
}

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "%zux%zu", d[0], d[1]);
}

/* One read and one write of each element, in its storage type (the GB/s), and what the
   options add: the residual read and x' written, the weight and bias, the statistics. */
static double work(const size_t *d, const ocft_options *o) {
  const double size = o->dtype == OCF_F32 ? 4.0 : 2.0, elements = (double)d[0] * (double)d[1];
  return size * elements * (on(o, RESIDUAL) ? 4.0 : 2.0) +
         size * (double)d[1] * (on(o, WEIGHT) + on(o, BIAS)) +
         4.0 * (double)d[0] * (on(o, STATS) ? 2 - on(o, RMS) : 0);
}

/* x, weight, bias, residual; out; x', mean, rstd. */
static ocft_extent extent(const size_t *d, const ocft_options *o) {
  const size_t n = d[0] * d[1];
  ocft_extent e;
  memset(&e, 0, sizeof e);
  e.in[0] = n;
  e.in[1] = on(o, WEIGHT) ? d[1] : 0;
  e.in[2] = on(o, BIAS) ? d[1] : 0;
  e.in[3] = on(o, RESIDUAL) ? n : 0;
  e.out = n;
  e.extra[0] = on(o, RESIDUAL) ? n : 0;
  e.extra[1] = on(o, STATS) && !on(o, RMS) ? d[0] : 0;
  e.extra[2] = on(o, STATS) ? d[0] : 0;
  for (int i = 0; i < OCFT_MAX_OPERANDS; i++)
    e.in_dtype[i] = o->dtype;
  e.out_dtype = e.extra_dtype[0] = o->dtype;
  e.extra_dtype[1] = e.extra_dtype[2] = OCF_F32;
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, const ocft_options *o, cl_mem const *in,
                         cl_mem out, cl_mem const *extra, const ocf_launch *launch) {
  ocf_norm_options opt = OCF_NORM_OPTIONS_INIT;
  opt.in_dtype = opt.out_dtype = opt.weight_dtype = opt.residual_dtype = o->dtype;
  opt.eps = (float)eps_of(o);
  if (on(o, WEIGHT)) opt.weight = in[1];
  if (on(o, BIAS)) opt.bias = in[2];
  if (on(o, RESIDUAL)) {
    opt.residual = in[3];
    opt.residual_ld = d[1];
    opt.residual_out = extra ? extra[0] : NULL;
    opt.residual_out_ld = opt.residual_out ? d[1] : 0;
  }
  if (on(o, STATS) && extra) {
    opt.mean = on(o, RMS) ? NULL : extra[1];
    opt.rstd = extra[2];
  }
  return on(o, RMS) ? ocf_rmsnorm(ctx, d[0], d[1], in[0], 0, d[1], out, 0, d[1], &opt, launch)
                    : ocf_layernorm(ctx, d[0], d[1], in[0], 0, d[1], out, 0, d[1], &opt, launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_layernorm_host(ctx, d[0], d[1], in[0], d[1], out, d[1], NULL, NULL, NULL, NULL, NULL,
                            NULL, NULL);
}

/* The model with no device: its deepest sums (a work-item alone up to workgroups of 65536), so
   that it holds for every launch, a default one or a swept workgroup size; the output's storage
   rounding added for a 16-bit type, the inputs already as their type holds them, and the
   residual's sum rounded to its type as the kernels round it (test_norm's argument). */
static void reference(const size_t *d, const ocft_options *o, const float *const *in, double *want,
                      double *tol) {
  const size_t rows = d[0], cols = d[1];
  const int rms = on(o, RMS);
  float *sum = NULL;
  const float *x = in[0];
  if (on(o, RESIDUAL)) {
    sum = malloc(rows * cols * sizeof *sum + 1);
    if (!sum) {
      for (size_t i = 0; i < rows * cols; i++)
        want[i] = NAN, tol[i] = 0.0; /* out of memory: the check fails */
      return;
    }
    ocf_ref_norm_residual(rows, cols, in[0], cols, in[3], cols, (int)o->dtype, sum);
    x = sum;
  }
  ocf_ref_norm(rms, rows, cols, x, cols, in[1], in[2], eps_of(o), want, NULL, NULL);
  ocft_norm_tolerance(rms, rows, cols, x, cols, in[1], in[2], eps_of(o), want, (int)o->dtype, 0,
                      NULL, tol, NULL, NULL);
  free(sum);
}

static void check(const size_t *d, const ocft_options *o, const float *const *in,
                  const double *want, const double *tol, const float *got,
                  const ocf_device_info *info, ocft_check *c) {
  (void)o, (void)in, (void)info;
  ocft_check_elements(got, want, tol, d[0] * d[1], c);
}

/* The table (8192 x 4096, 32768 x 1024, 1024 x 16384), narrow rows, a ragged width and
   long rows split over workgroups. On a CPU, the shapes docs/NORM.md measured on PoCL. */
static const size_t bench_gpu[][OCFT_MAX_DIMS] = {{8192, 4096}, {32768, 1024}, {1024, 16384},
                                                  {65536, 128}, {4096, 4097},  {256, 262144}};
static const size_t bench_cpu[][OCFT_MAX_DIMS] = {
    {4096, 256}, {1024, 1024}, {256, 4096}, {16, 65536}, {1000, 781}};
/* ... and issue 20's bf16 rows, LayerNorm with its weight and bias and RMSNorm with its weight,
   and a long row. */
static const char bench_gpu_calls[] =
    "layernorm:8192x4096:bf16:weight:bias; rmsnorm:8192x4096:bf16:weight;"
    "layernorm:1024x16384:bf16:weight:bias; rmsnorm:1024x16384:bf16:weight;"
    "rmsnorm:256x65536:bf16:weight";
static const size_t small[][OCFT_MAX_DIMS] = {{4, 100}, {1, 1}, {7, 333}, {3, 3000}};

/* oclfuse tune: by row length as the classes (src/ops/norm_row.c); the table (8192 x
   4096, 32768 x 1024, 1024 x 16384) among them. */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  static const size_t gpu_shapes[6][2][2] = {
      {{65536, 128}, {32768, 200}},   {{32768, 1024}, {8192, 1823}},
      {{8192, 4096}, {4096, 8192}},   {{1024, 16384}, {2048, 12288}},
      {{1024, 65536}, {256, 200000}}, {{64, 1048576}, {8, 4000000}}};
  static const size_t cpu_shapes[6][2][2] = {
      {{4096, 256}, {2048, 200}}, {{1024, 1024}, {512, 1823}}, {{256, 4096}, {64, 8000}},
      {{64, 10000}, {16, 16384}}, {{16, 65536}, {4, 200000}},  {{2, 1048576}, {1, 3000000}}};
  return ocft_row_tune_shapes(gpu_shapes, cpu_shapes, 6, shape_class, gpu, d);
}

const ocft_op_case ocft_op_norm = {
    .name = "norm",
    .function = "ocf_layernorm",
    .host_function = "ocf_layernorm_host",
    .ndims = 2,
    .error_help = "per element: the row's mean and variance about a shift (LayerNorm: its\n"
                  "first element), each within the roundings of sums as deep as the\n"
                  "reduction, put rstd within e_rho; y_k within |w_k| rho (E_k + |d_k|\n"
                  "e_rho), E_k the error of x_k - mean, plus the products', the bias's\n"
                  "and the storage's roundings; the mean and rstd outputs likewise",
    .dims_help = "N or RxC",
    .shape_text = shape_text,
    .unit = "GB/s",
    .ceiling = OCFT_CEILING_COPY,
    .work = work,
    .dtypes = 1u << OCF_F16 | 1u << OCF_BF16,
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .aliases = aliases,
    .alias_count = sizeof aliases / sizeof aliases[0],
    .validate = validate,
    .tune_shapes = tune_shapes,
    .baseline = 1,
    .bench_gpu = {bench_gpu, sizeof bench_gpu / sizeof bench_gpu[0]},
    .bench_cpu = {bench_cpu, sizeof bench_cpu / sizeof bench_cpu[0]},
    .bench_gpu_calls = bench_gpu_calls,
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
