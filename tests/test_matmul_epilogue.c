/*
 * The fused epilogue of ocf_matmul_ex, C = act(alpha op(A) op(B) + beta C + bias): every
 * activation with and without a bias along n or m, on every kernel (tiled fast and mixed,
 * general, split-K, skinny both ways round, naive), in both layouts, over a batch, with 16-bit
 * biases and C's; and the refusals (an activation or axis out of range, a missing, misplaced,
 * too small or overlapping bias) before anything is enqueued.
 *
 * Tolerances (tests/reference_gemm.h): the GEMM's 2 (k + 2 + 1) u S with the bias's rounding,
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

/* Every activation times every bias axis, beta 0 and not, on a ragged tiled shape, a whole-tile
   one and a skinny one (short side as C's columns and as its rows). alpha = 3 spreads z over
   [-10, 10] or so, where gelu and silu bend. */
static void test_epilogue_every_activation(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t big[][3] = {{37, 29, 41}, {64, 64, 32}, {45, 3, 40}, {5, 38, 33}};
  static const size_t small[][3] = {{9, 11, 7}, {3, 13, 9}};
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small) : OCF_ARRAY_LEN_T(big);
  for (size_t s = 0; s < count; s++)
    for (int act = 0; act <= OCF_ACTIVATION_SILU; act++)
      for (int axis = 0; axis <= OCF_BIAS_M; axis++) {
        if (ocft_small() && (act + axis + (int)s) % 3 != 0) continue;
        const size_t *shape = ocft_small() ? small[s] : big[s];
        mmx_case t = mmx_plain(shape[0], shape[1], shape[2]);
        t.activation = (ocf_activation)act;
        t.bias_axis = (ocf_bias_axis)axis;
        t.bias_off = 3;
        t.alpha = 3.0f;
        t.beta = (act + axis) % 2 ? 0.5f : 0.0f;
        t.tb = (ocf_transpose)(s % 2);
        check_all_variants(env, t);
      }
}

/* A fp16 and a bf16 bias, and C stored in fp16 and bf16 (rounded to nearest even after the
   activation). */
static void test_epilogue_16bit_bias_and_c(void **state) {
  ocft_env *env = ocft_get_env(state);
  const ocf_dtype types[] = {OCF_F16, OCF_BF16};
  for (size_t bt = 0; bt < 2; bt++)
    for (size_t ct = 0; ct < 3; ct++) {
      if (ocft_small() && ct != bt + 1) continue;
      mmx_case t = mmx_plain(ocft_small() ? 11 : 33, ocft_small() ? 9 : 40, 17);
      t.bias_axis = bt ? OCF_BIAS_M : OCF_BIAS_N;
      t.bias_dtype = types[bt];
      t.c_dtype = ct == 0 ? OCF_F32 : types[ct - 1];
      t.activation = OCF_ACTIVATION_GELU_TANH;
      t.beta = 0.5f;
      t.alpha = 2.0f;
      check_all_variants(env, t);
      t.m = 2; /* skinny */
      mmx_check(env, &t, NULL);
    }
}

/* The epilogue where the sum comes from elsewhere: after split-K (applied once, by
   matmul_reduce), over a batch, in column-major (the bias axis follows the swap), with alpha 0
   (act(beta C + bias), A and B full of NaN never read) and with k 0. */
static void test_epilogue_split_batch_layout(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int axis = 1; axis <= 2; axis++) {
    mmx_case t = mmx_plain(29, 31, ocft_small() ? 260 : 600);
    t.bias_axis = (ocf_bias_axis)axis;
    t.activation = OCF_ACTIVATION_SILU;
    t.beta = 1.0f;
    mmx_check(env, &t, NULL); /* split-K on CPUs */
    t.k = 40;
    t.batch = 3;
    t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
    t.activation = OCF_ACTIVATION_GELU_ERF;
    mmx_check(env, &t, NULL);
    t.layout = OCF_COL_MAJOR;
    t.activation = OCF_ACTIVATION_RELU;
    check_all_variants(env, t);
    t.m = 4; /* skinny, swapped, in column-major */
    mmx_check(env, &t, NULL);
    t = mmx_plain(21, 19, 13);
    t.bias_axis = (ocf_bias_axis)axis;
    t.activation = OCF_ACTIVATION_GELU_ERF;
    t.alpha = 0.0f;
    t.beta = -1.5f;
    t.nan_inputs = 1;
    check_all_variants(env, t);
    t.alpha = 1.0f;
    t.nan_inputs = 0;
    t.k = 0;
    check_all_variants(env, t);
  }
}

/* Large |z|: gelu and silu saturate (to z and to 0), and exp(-z) overflows to inf in silu for
   z below -88 without turning the result into NaN. */
static void test_epilogue_saturation(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int act = OCF_ACTIVATION_GELU_ERF; act <= OCF_ACTIVATION_SILU; act++) {
    mmx_case t = mmx_plain(17, 23, 16);
    t.activation = (ocf_activation)act;
    t.alpha = 60.0f; /* z up to about +-100 */
    t.bias_axis = OCF_BIAS_N;
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
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_epilogue_every_activation),
      cmocka_unit_test(test_epilogue_16bit_bias_and_c),
      cmocka_unit_test(test_epilogue_split_batch_layout),
      cmocka_unit_test(test_epilogue_saturation),
      cmocka_unit_test(test_epilogue_rejects),
  };
  return cmocka_run_group_tests_name("matmul_epilogue", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
