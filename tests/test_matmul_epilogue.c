/*
 * The fused epilogue of ocf_matmul_ex, C = act(alpha op(A) op(B) + beta C + bias): every
 * activation with a bias along n, along m and without, on the tiled kernels (whole and edge
 * tiles) and the skinny ones both ways round; the epilogue on every other kernel (general,
 * naive, split-K), in both layouts, over a batch, with alpha 0 and k 0; 16-bit biases and C's;
 * and the refusals (an activation or axis out of range, a missing, misplaced, too small or
 * overlapping bias) before anything is enqueued. Shapes are shared so that programs are built
 * once per (activation, axis) pair and kernel family.
 *
 * Tolerances (harness/reference_gemm.h): the GEMM's 2 (k + 2 + 1) u S with the bias's rounding,
 * times the activation's Lipschitz constant (gelu 1.13, silu 1.10), plus the activation's own
 * fp32 rounding from OpenCL's ulp limits (gelu erf 10 u |z|, gelu tanh 6 u |z|, silu 12 u |z|).
 */
#include "matmul_check.h"

#include <string.h>

static const ocf_variant all_variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL,
                                           OCF_VARIANT_BASELINE};

static void check_all_variants(const ocft_env *env, mmx_case t) {
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    t.variant = all_variants[v];
    mmx_check(env, &t, NULL);
  }
}

/* The activations and bias axes, each activation with a bias along n and along m and one
   without (every pair costs a program build, so not all fifteen). */
static const struct pair {
  ocf_activation act;
  ocf_bias_axis axis;
} pairs[] = {{OCF_ACTIVATION_NONE, OCF_BIAS_N},        {OCF_ACTIVATION_RELU, OCF_BIAS_M},
             {OCF_ACTIVATION_GELU_ERF, OCF_BIAS_N},    {OCF_ACTIVATION_GELU_TANH, OCF_BIAS_M},
             {OCF_ACTIVATION_SILU, OCF_BIAS_N},        {OCF_ACTIVATION_GELU_ERF, OCF_BIAS_M},
             {OCF_ACTIVATION_SILU, OCF_BIAS_NONE},     {OCF_ACTIVATION_RELU, OCF_BIAS_N},
             {OCF_ACTIVATION_GELU_TANH, OCF_BIAS_NONE}};

/* The tiled shape of these tests: with CPU tiles of 32, one whole tile (unguarded loads and
   vector stores) and three edge tiles; leading dimensions multiples of 4 (fp32 vector
   accesses). Reused shapes reuse built programs. */
static mmx_case tiled_case(const struct pair *p) {
  mmx_case t = ocft_small() ? mmx_plain(37, 36, 13) : mmx_plain(45, 40, 33);
  t.lda_pad = 3; /* lda 16 (small) or 36 */
  t.activation = p->act;
  t.bias_axis = p->axis;
  t.bias_off = 3;
  t.alpha = 3.0f; /* z over [-10, 10] or so, where gelu and silu bend */
  return t;
}

/* Every pair on the tiled kernels (mixed: whole and edge tiles) and on the skinny ones, both
   ways round; beta 0 and not. */
static void test_epilogue_every_activation(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(pairs); i++) {
    if (ocft_small() && i % 3 != 0) continue;
    mmx_case t = tiled_case(&pairs[i]);
    t.beta = i % 2 ? 0.5f : 0.0f;
    mmx_check(env, &t, NULL);
    t.m = i % 2 ? 3 : t.m; /* short m (operands swapped) or short n */
    t.n = i % 2 ? t.n : 3;
    mmx_check(env, &t, NULL);
  }
}

/* The epilogue on the other kernels: general, naive, split-K (applied once, by
   matmul_reduce), over a batch, in column-major (the bias axis follows the swap), with alpha 0
   (act(beta C + bias), A and B full of NaN never read) and k 0. */
static void test_epilogue_on_every_kernel(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < 2; i++) {
    const struct pair *p = &pairs[ocft_small() ? 3 * i : 1 + i];
    mmx_case t = tiled_case(p);
    t.beta = 0.5f;
    check_all_variants(env, t);
    mmx_case split = t; /* one tile of C and a long K: split on CPUs */
    split.m = 29, split.n = ocft_small() ? 20 : 32, split.k = ocft_small() ? 260 : 600;
    mmx_check(env, &split, NULL);
    mmx_case batch = t;
    batch.batch = 3;
    batch.stride_a = batch.stride_b = batch.stride_c = MMX_PACKED;
    mmx_check(env, &batch, NULL);
    mmx_case col = t;
    col.layout = OCF_COL_MAJOR;
    col.lda_pad = col.ldb_pad = col.ldc_pad = 3; /* column-major: m + 3, k + 3, m + 3 */
    mmx_check(env, &col, NULL);
    col.m = 4; /* skinny, swapped, in column-major */
    mmx_check(env, &col, NULL);
    mmx_case zero = t;
    zero.alpha = 0.0f;
    zero.beta = -1.5f;
    zero.nan_inputs = 1;
    mmx_check(env, &zero, NULL);
    zero.alpha = 1.0f;
    zero.nan_inputs = 0;
    zero.k = 0;
    mmx_check(env, &zero, NULL);
  }
}

/* A fp16 and a bf16 bias, and C stored in fp16 and bf16 (rounded to nearest even after the
   activation). */
static void test_epilogue_16bit_bias_and_c(void **state) {
  ocft_env *env = ocft_get_env(state);
  const ocf_dtype combos[][2] = {{OCF_F16, OCF_F16}, {OCF_BF16, OCF_BF16}, {OCF_BF16, OCF_F32}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(combos); i++) {
    if (ocft_small() && i == 2) continue;
    mmx_case t = tiled_case(&pairs[3]);
    t.bias_dtype = combos[i][0];
    t.c_dtype = combos[i][1];
    t.beta = 0.5f;
    mmx_check(env, &t, NULL);
    t.n = 2; /* skinny */
    mmx_check(env, &t, NULL);
  }
}

/* Large |z|: gelu and silu saturate (to z and to 0), and exp(-z) overflows to inf in silu for
   z below -88 without turning the result into NaN. */
static void test_epilogue_saturation(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 2; i < 5; i++) {
    if (ocft_small() && i != 3) continue;
    mmx_case t = tiled_case(&pairs[i]);
    t.alpha = 60.0f; /* z up to about +-100 */
    mmx_check(env, &t, NULL);
  }
}

/* Every refusal changes nothing: checked before anything is enqueued. */
static void test_epilogue_rejects(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = 256 };
  cl_mem x = mmx_pattern_buffer(env, N * 4), c = mmx_pattern_buffer(env, N * 4);
  cl_mem bias = mmx_pattern_buffer(env, 10 * 4), bias16 = mmx_pattern_buffer(env, 10 * 2);
  ocf_context *ctx = env->ctx;
  const ocf_transpose NT = OCF_NO_TRANS;
  typedef struct bad {
    ocf_matmul_options o;
    size_t m, n;
    ocf_status expected;
    const char *why;
  } bad;
  bad rows[16];
  size_t count = 0;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(rows); i++) {
    ocf_matmul_options init = OCF_MATMUL_OPTIONS_INIT;
    rows[i].o = init;
    rows[i].m = rows[i].n = 8;
  }
  rows[count].o.activation = (ocf_activation)5;
  rows[count].expected = OCF_ERR_INVALID_VALUE, rows[count++].why = "activation 5";
  rows[count].o.activation = (ocf_activation)-1;
  rows[count].expected = OCF_ERR_INVALID_VALUE, rows[count++].why = "activation -1";
  rows[count].o.bias_axis = (ocf_bias_axis)3, rows[count].o.bias = bias;
  rows[count].expected = OCF_ERR_INVALID_VALUE, rows[count++].why = "bias axis 3";
  rows[count].o.bias_axis = OCF_BIAS_N;
  rows[count].expected = OCF_ERR_NULL_ARGUMENT, rows[count++].why = "bias axis without a bias";
  rows[count].o.bias = bias;
  rows[count].expected = OCF_ERR_INVALID_VALUE, rows[count++].why = "a bias without an axis";
  rows[count].o.bias_axis = OCF_BIAS_N, rows[count].o.bias = bias, rows[count].n = 11;
  rows[count].expected = OCF_ERR_BUFFER_TOO_SMALL, rows[count++].why = "11 along n, room for 10";
  rows[count].o.bias_axis = OCF_BIAS_M, rows[count].o.bias = bias, rows[count].m = 11;
  rows[count].expected = OCF_ERR_BUFFER_TOO_SMALL, rows[count++].why = "11 along m, room for 10";
  rows[count].o.bias_axis = OCF_BIAS_N, rows[count].o.bias = bias, rows[count].o.bias_offset = 3;
  rows[count].expected = OCF_ERR_BUFFER_TOO_SMALL, rows[count++].why = "offset 3 + 8 > 10";
  rows[count].o.bias_axis = OCF_BIAS_N, rows[count].o.bias = bias16, rows[count].n = 6;
  rows[count].expected = OCF_ERR_BUFFER_TOO_SMALL, rows[count++].why = "f32 bias in 20 bytes";
  rows[count].o.bias_axis = OCF_BIAS_N, rows[count].o.bias = bias, rows[count].n = 6;
  rows[count].o.bias_dtype = (ocf_dtype)3;
  rows[count].expected = OCF_ERR_INVALID_VALUE, rows[count++].why = "bias dtype 3";
  rows[count].o.bias_axis = OCF_BIAS_N, rows[count].o.bias = c, rows[count].o.bias_offset = 60;
  rows[count].expected = OCF_ERR_ALIASING, rows[count++].why = "the bias inside C";
  /* column-major: a bias along m runs along the row-major n, which is 11 here */
  rows[count].o.layout = OCF_COL_MAJOR, rows[count].o.bias_axis = OCF_BIAS_M;
  rows[count].o.bias = bias, rows[count].m = 11;
  rows[count].expected = OCF_ERR_BUFFER_TOO_SMALL, rows[count++].why = "column-major, m = 11";
  for (size_t i = 0; i < count; i++) {
    ocf_status status = ocf_matmul_ex(ctx, NT, NT, rows[i].m, rows[i].n, 8, 1, x, 0, 16, x, 64, 16,
                                      0.5f, c, 0, 16, &rows[i].o, NULL);
    if (status != rows[i].expected)
      print_error("epilogue refusal \"%s\": got %s, want %s (%s)\n", rows[i].why,
                  ocf_status_name(status), ocf_status_name(rows[i].expected), ocf_last_error());
    assert_int_equal(status, rows[i].expected);
  }
  mmx_assert_pattern(env, c, N * 4, "C after refused epilogues");
  /* the bias fits exactly: 10 along n from offset 2 of 12 would not, from 0 of 10 does */
  ocf_matmul_options fits = OCF_MATMUL_OPTIONS_INIT;
  fits.bias_axis = OCF_BIAS_N, fits.bias = bias;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 10, 8, 1, x, 0, 8, x, 64, 16, 0, c, 0, 16, &fits, NULL),
      OCF_SUCCESS);
  clReleaseMemObject(x), clReleaseMemObject(c);
  clReleaseMemObject(bias), clReleaseMemObject(bias16);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_epilogue_every_activation),
      cmocka_unit_test(test_epilogue_on_every_kernel),
      cmocka_unit_test(test_epilogue_16bit_bias_and_c),
      cmocka_unit_test(test_epilogue_saturation),
      cmocka_unit_test(test_epilogue_rejects),
  };
  return cmocka_run_group_tests_name("matmul_epilogue", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
