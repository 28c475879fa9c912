/* attention: out = softmax(Q K^T / sqrt(d)) V for b x h heads, lq queries and lk keys of head
   dim d (plain: fp32, dense, no mask, h_kv = h, default options), and the calls the tool may ask
   for beyond it: the storage type of every tensor, the causal mask, grouped key and value heads,
   the scale and fp32 inputs' precision (test_attention covers lengths, strides, offsets, lse and
   mixed types). Judged per element by the model of tolerance.c (ocft_attention_tolerance). */
#include "op_cases.h"
#include "reference_attention.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The options of a call (the index of each in `options` below). */
enum { CAUSAL, KV, SCALE, PRECISION };

static const ocft_option options[] = {
    [CAUSAL] = {"causal", OCFT_SWITCH, 0, 0,
                "the causal mask, bottom-right: query i keeps keys <= i + lk - lq"},
    [KV] = {"kv", OCFT_COUNT, 1, 65536, "key and value heads h_kv (grouped-query; divides h)"},
    [SCALE] = {"scale", OCFT_NUMBER, -1e30, 1e30, "softmax(X Q K^T); 0: 1 / sqrt(d), the default"},
    [PRECISION] = {"precision", OCFT_COUNT, 0, 2,
                   "fp32 inputs' products (ocf_precision): 0 FP32, the default; 1 TF32; 2 3XTF32"},
};

static int on(const ocft_options *o, int option) {
  return (o->set >> option) & 1u;
}

/* The key and value heads. */
static size_t kv_heads(const size_t *d, const ocft_options *o) {
  return on(o, KV) ? (size_t)o->value[KV] : d[1];
}

static ocf_precision precision_of(const ocft_options *o) {
  return on(o, PRECISION) ? (ocf_precision)o->value[PRECISION] : OCF_PRECISION_FP32;
}

static int validate(const size_t *d, const ocft_options *o, char *why, size_t capacity) {
  if (d[1] % kv_heads(d, o)) {
    snprintf(why, capacity, "kv=%zu does not divide the %zu heads", kv_heads(d, o), d[1]);
    return -1;
  }
  return 0;
}

static void shape_text(const size_t *d, char *out, size_t capacity) {
  snprintf(out, capacity, "%zux%zux%zux%zux%zu", d[0], d[1], d[2], d[3], d[4]);
}

/* The keys query row i keeps (causal: bottom-right, as the library's default offset). */
static size_t kept(const size_t *d, const ocft_options *o, size_t i) {
  if (!on(o, CAUSAL)) return d[3];
  const long long last = (long long)i + (long long)d[3] - (long long)d[2];
  return last < 0 ? 0 : (size_t)last + 1 < d[3] ? (size_t)last + 1 : d[3];
}

/* Two matrix products of d multiply-adds per (query, kept key) pair, b h of them (the softmax not
   counted; a causal call does the work of its band). */
static double work(const size_t *d, const ocft_options *o) {
  double pairs = 0.0;
  for (size_t i = 0; i < d[2]; i++)
    pairs += (double)kept(d, o, i);
  return 4.0 * (double)d[0] * (double)d[1] * pairs * (double)d[4];
}

/* Decoding is bound by reading K and V, not by its flops: a key costs 4 d flops for each query
   row of its key head (lq times the query heads a key head serves) against 2 d elements of K
   and V, 2 lq g / element size flops a byte, below the H200's 15 (fp32 FMA over copy) for up to
   16 such rows in fp32, and far below its matrix units' ridge in 16 bits. Those calls are
   rated in GB/s of K and V read, as issue 21's goal for them is (0.8 of the copy ceiling). */
enum { DECODE_ROWS = 16 };

static double traffic(const size_t *d, const ocft_options *o) {
  const size_t kv = kv_heads(d, o);
  if (kv == 0 || d[2] * (d[1] / kv) > DECODE_ROWS) return 0.0;
  return 2.0 * (double)d[0] * (double)kv * (double)d[3] * (double)d[4] *
         (double)ocf_dtype_size(o->dtype);
}

static ocft_extent extent(const size_t *d, const ocft_options *o) {
  const size_t heads = d[0] * d[1], kv = d[0] * kv_heads(d, o);
  ocft_extent e;
  memset(&e, 0, sizeof e);
  e.in[0] = heads * d[2] * d[4];
  e.in[1] = e.in[2] = kv * d[3] * d[4];
  e.out = heads * d[2] * d[4];
  e.in_dtype[0] = e.in_dtype[1] = e.in_dtype[2] = e.out_dtype = o->dtype;
  return e;
}

static ocf_status device(ocf_context *ctx, const size_t *d, const ocft_options *o, cl_mem const *in,
                         cl_mem out, cl_mem const *extra, const ocf_launch *launch) {
  (void)extra;
  ocf_attention_options opt = OCF_ATTENTION_OPTIONS_INIT;
  opt.q_dtype = opt.k_dtype = opt.v_dtype = opt.out_dtype = o->dtype;
  opt.causal = on(o, CAUSAL);
  opt.scale = on(o, SCALE) ? (float)o->value[SCALE] : 0.0f;
  opt.precision = precision_of(o);
  return ocf_attention(ctx, d[0], d[1], kv_heads(d, o), d[2], d[3], d[4], in[0], 0, NULL, in[1], 0,
                       NULL, in[2], 0, NULL, out, 0, NULL, &opt, launch);
}

static ocf_status host(ocf_context *ctx, const size_t *d, const float *const *in, float *out) {
  return ocf_attention_host(ctx, d[0], d[1], d[1], d[2], d[3], d[4], in[0], NULL, in[1], NULL,
                            in[2], NULL, out, NULL, NULL, NULL, NULL);
}

static ocf_ref_attention_args args_of(const size_t *d, const ocft_options *o,
                                      const float *const *in) {
  const size_t b = d[0], h = d[1], lq = d[2], lk = d[3], dim = d[4], hkv = kv_heads(d, o);
  const double scale = on(o, SCALE) && o->value[SCALE] != 0.0
                           ? (double)(float)o->value[SCALE]
                           : (double)(float)(1.0 / sqrt((double)dim));
  ocf_ref_attention_args a = {b,
                              h,
                              hkv,
                              lq,
                              lk,
                              dim,
                              in[0],
                              in[1],
                              in[2],
                              {h * lq * dim, lq * dim, dim},
                              {hkv * lk * dim, lk * dim, dim},
                              {hkv * lk * dim, lk * dim, dim},
                              scale,
                              NULL,
                              on(o, CAUSAL),
                              (long long)lk - (long long)lq};
  return a;
}

/* The rescales of any plan (one a tile of at least one key, and a split's merge) are at most
   lk + 2: the bound the model takes when it does not know the plan. The inputs are as their
   storage type holds them and the model adds a 16-bit out's rounding (test_attention's); 16-bit
   inputs, and fp32 ones with a precision other than FP32, may run on attention_mma (NVIDIA), so
   theirs adds its terms too (a looser bound for the other kernels, which the suites check with
   their own). */
static void reference_of(const ocf_ref_attention_args *a, const ocft_options *o, double *want,
                         double *tol) {
  ocf_ref_attention(a, want, NULL);
  ocft_attention_tolerance(a, want, NULL, (int)o->dtype, a->lk + 2, tol, NULL);
  if (o->dtype != OCF_F32 || precision_of(o) != OCF_PRECISION_FP32)
    ocft_attention_mma_tolerance(a, want, (int)o->dtype, (int)precision_of(o), (int)o->dtype, tol,
                                 NULL);
}

static void reference(const size_t *d, const ocft_options *o, const float *const *in, double *want,
                      double *tol) {
  const ocf_ref_attention_args a = args_of(d, o, in);
  reference_of(&a, o, want, tol);
}

/* out's rows: one a (batch, head, query) of d values. */
static size_t out_rows(const size_t *d, const ocft_options *o) {
  (void)o;
  return d[0] * d[1] * d[2];
}

/* The reference of the given rows: each as a call of its own (one batch, head and query row,
   the causal band moved by the row's index), which the model judges as it would in the whole. */
static void reference_rows(const size_t *d, const ocft_options *o, const float *const *in,
                           const size_t *rows, size_t count, double *want, double *tol) {
  const ocf_ref_attention_args a = args_of(d, o, in);
  for (size_t r = 0; r < count; r++) {
    const size_t i = rows[r] % a.lq, head = rows[r] / a.lq % a.h, batch = rows[r] / a.lq / a.h;
    const size_t kv_head = head / (a.h / a.h_kv);
    ocf_ref_attention_args row = a;
    row.b = row.h = row.h_kv = row.lq = 1;
    row.q = a.q + batch * a.q_s[0] + head * a.q_s[1] + i * a.q_s[2];
    row.k = a.k + batch * a.k_s[0] + kv_head * a.k_s[1];
    row.v = a.v + batch * a.v_s[0] + kv_head * a.v_s[1];
    row.causal_offset = a.causal_offset + (long long)i;
    reference_of(&row, o, want + r * a.d, tol + r * a.d);
  }
}

static void check(const size_t *d, const ocft_options *o, const float *const *in,
                  const double *want, const double *tol, const float *got,
                  const ocf_device_info *info, ocft_check *c) {
  (void)o, (void)in, (void)info;
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
/* ... and the calls models run: issue 21's 16-bit table (prefill, causal, heads of 64, decode),
   a chunk of a prompt against a long context (grouped key heads) and fp32 prefill in 3XTF32
   (SDPA's fp32 arithmetic on the matrix units); on a CPU, the client's
   call of issue 21 (4 heads, 300 x 64, causal) in bf16. */
static const char bench_gpu_calls[] =
    "attention:4x32x4096x4096x128:bf16; attention:4x32x4096x4096x128:bf16:causal;"
    "attention:4x32x4096x4096x128:f16; attention:8x16x1024x1024x64:bf16:causal;"
    "attention:1x32x1x8192x128:bf16; attention:16x32x1x4096x128:bf16;"
    "attention:1x32x256x16384x128:bf16:kv=8; attention:4x32x4096x4096x128:precision=2;"
    "attention:1x32x1024x1024x128:precision=2";
static const char bench_cpu_calls[] = "attention:1x4x300x300x64:bf16:causal";
static const size_t small[][OCFT_MAX_DIMS] = {
    {1, 1, 3, 5, 8}, {2, 3, 17, 33, 64}, {1, 2, 1, 300, 40}, {1, 1, 65, 7, 128}};

/* N: one head of N queries and N keys, head dim 64. */
static void from_n(size_t n, size_t *d) {
  d[0] = d[1] = 1, d[2] = d[3] = n, d[4] = 64;
}

/* oclfuse tune: class 0 decode (one query row against long keys: the decode split), 1
   prefill of heads wider than 64, 2 prefill of heads of 64 (b x h x lq x lk x d). */
static size_t tune_shapes(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]) {
  const size_t decode[2][5] = {{1, 32, 1, gpu ? 8192 : 2048, 128},
                               {4, 8, 1, gpu ? 4000 : 1000, 64}};
  const size_t prefill[2][5] = {{1, gpu ? 32 : 4, gpu ? 2048 : 256, gpu ? 2048 : 256, 128},
                                {2, gpu ? 16 : 2, gpu ? 1000 : 300, gpu ? 1000 : 300, 96}};
  const size_t prefill_d64[2][5] = {{1, gpu ? 32 : 4, gpu ? 2048 : 256, gpu ? 2048 : 256, 64},
                                    {2, gpu ? 16 : 2, gpu ? 1000 : 300, gpu ? 1000 : 300, 64}};
  const size_t(*s)[5] = shape_class == 0 ? decode : shape_class == 1 ? prefill : prefill_d64;
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
    .error_help = "per element: each weight's relative error E (the score's dot product,\n"
                  "exp, the online softmax's rescales) moves the output by at most\n"
                  "2 expm1(E) sum_j |w_j v_j| / (1 - expm1(E)); the sums of the kept\n"
                  "keys add gamma_(3 kept + 2), then the storage rounding; lse likewise",
    .dims_help = "N (1x1xNxNx64) or BxHxLQxLKxD",
    .from_n = from_n,
    .shape_text = shape_text,
    .unit = "GFLOP/s",
    .ceiling = OCFT_CEILING_FMA,
    .work = work,
    .traffic = traffic,
    .dtypes = 1u << OCF_F16 | 1u << OCF_BF16,
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .validate = validate,
    .baseline = 1,
    .tune_shapes = tune_shapes,
    .bench_gpu = {bench_gpu, sizeof bench_gpu / sizeof bench_gpu[0]},
    .bench_cpu = {bench_cpu, sizeof bench_cpu / sizeof bench_cpu[0]},
    .bench_gpu_calls = bench_gpu_calls,
    .bench_cpu_calls = bench_cpu_calls,
    .sweep_gpu = {1, 32, 1024, 1024, 128},
    .sweep_cpu = {1, 4, 256, 256, 64},
    .sweep_non_powers = 0,
    .small = {small, sizeof small / sizeof small[0]},
    .extent = extent,
    .device = device,
    .host = host,
    .reference = reference,
    .check = check,
    .out_rows = out_rows,
    .reference_rows = reference_rows,
};
