/* attention: out = softmax(Q K^T / sqrt(d)) V for b x h heads, lq queries and lk keys of head
   dim d, fp32, dense, no mask (ocf_attention with h_kv = h and default options), judged per
   element by the model of tolerance.c (ocft_attention_tolerance). */
#include "op_cases.h"
#include "reference_attention.h"

#include <math.h>
#include <stdio.h>

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "%zux%zux%zux%zux%zu", d[0], d[1], d[2], d[3], d[4]);
}

/* Two matrix products of b h lq lk d multiply-adds each (the softmax not counted). */
static double work(const size_t *d) {
  return 4.0 * (double)d[0] * (double)d[1] * (double)d[2] * (double)d[3] * (double)d[4];
}

static ocft_extent extent(const size_t *d) {
  const size_t heads = d[0] * d[1];
  ocft_extent e = {{heads * d[2] * d[4], heads * d[3] * d[4], heads * d[3] * d[4]},
                   heads * d[2] * d[4]};
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, cl_mem const *in, cl_mem out,
                         const ocf_launch *launch) {
  return ocf_attention(ctx, d[0], d[1], d[1], d[2], d[3], d[4], in[0], 0, NULL, in[1], 0, NULL,
                       in[2], 0, NULL, out, 0, NULL, NULL, launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_attention_host(ctx, d[0], d[1], d[1], d[2], d[3], d[4], in[0], NULL, in[1], NULL,
                            in[2], NULL, out, NULL, NULL, NULL, NULL);
}

static ocf_ref_attention_args args_of(const size_t *d, const float *const *in) {
  const size_t b = d[0], h = d[1], lq = d[2], lk = d[3], dim = d[4];
  ocf_ref_attention_args a = {b,
                              h,
                              h,
                              lq,
                              lk,
                              dim,
                              in[0],
                              in[1],
                              in[2],
                              {h * lq * dim, lq * dim, dim},
                              {h * lk * dim, lk * dim, dim},
                              {h * lk * dim, lk * dim, dim},
                              (double)(float)(1.0 / sqrt((double)dim)),
                              NULL,
                              0,
                              0};
  return a;
}

/* The rescales of any plan (one a tile of at least one key, and a split's merge) are at most
   lk + 2: the bound the model takes when it does not know the plan. */
static void reference(const size_t *d, const float *const *in, double *want, double *tol) {
  const ocf_ref_attention_args a = args_of(d, in);
  ocf_ref_attention(&a, want, NULL);
  ocft_attention_tolerance(&a, want, NULL, 0, d[3] + 2, tol, NULL);
}

static void check(const size_t *d, const float *const *in, const double *want, const double *tol,
                  const float *got, const ocf_device_info *info, ocft_check *c) {
  (void)in, (void)info;
  ocft_check_elements(got, want, tol, d[0] * d[1] * d[2] * d[4], c);
}

/* GPU: issue 21's shapes as plain calls (prefill, and decode: one query row against long keys,
   where the decode split runs); CPU: docs/ATTENTION.md's PoCL table. */
static const size_t bench_gpu[][OCFT_MAX_DIMS] = {{4, 32, 4096, 4096, 128},
                                                  {1, 32, 1024, 1024, 128},
                                                  {1, 32, 1, 8192, 128},
                                                  {4, 32, 1, 8192, 128}};
static const size_t bench_cpu[][OCFT_MAX_DIMS] = {
    {1, 4, 300, 300, 64}, {1, 8, 1024, 1024, 64}, {1, 32, 1, 4096, 128}};
static const size_t small[][OCFT_MAX_DIMS] = {
    {1, 1, 3, 5, 8}, {2, 3, 17, 33, 64}, {1, 2, 1, 300, 40}, {1, 1, 65, 7, 128}};

/* N: one head of N queries and N keys, head dim 64. */
static void from_n(size_t n, size_t *d) {
  d[0] = d[1] = 1, d[2] = d[3] = n, d[4] = 64;
}

/* oclfuse tune: class 0 decode (one query row against long keys: the decode split), 1
   prefill (b x h x lq x lk x d). */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  const size_t decode[2][5] = {{1, 32, 1, gpu ? 8192 : 2048, 128},
                               {4, 8, 1, gpu ? 4000 : 1000, 64}};
  const size_t prefill[2][5] = {{1, gpu ? 32 : 4, gpu ? 2048 : 256, gpu ? 2048 : 256, 128},
                                {2, gpu ? 16 : 2, gpu ? 1000 : 300, gpu ? 1000 : 300, 64}};
  const size_t(*s)[5] = shape_class == 0 ? decode : prefill;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 5; j++)
      d[i][j] = s[i][j];
  return 2;
}

const ocft_op_case ocft_op_attention = {
    .name = "attention",
    .function = "ocf_attention",
    .host_function = "ocf_attention_host",
    .ndims = 5,
    .dims_help = "N (1x1xNxNx64) or BxHxLQxLKxD",
    .from_n = from_n,
    .shape_text = shape_text,
    .unit = "GFLOP/s",
    .ceiling = OCFT_CEILING_FMA,
    .work = work,
    .tune_shapes = tune_shapes,
    .bench_gpu = {bench_gpu, sizeof bench_gpu / sizeof bench_gpu[0]},
    .bench_cpu = {bench_cpu, sizeof bench_cpu / sizeof bench_cpu[0]},
    .sweep_gpu = {1, 32, 1024, 1024, 128},
    .sweep_cpu = {1, 4, 256, 256, 64},
    .sweep_non_powers = 0,
    .small = {small, sizeof small / sizeof small[0]},
    .extent = extent,
    .device = device,
    .host = host,
    .reference = reference,
    .check = check,
};
