/*
 * The precision modes and 16-bit storage on the SIMT kernels (the fallback every device runs):
 *
 *   TF32    inputs truncated to TF32 (toward zero, 10 mantissa bits kept), as Hopper's wgmma
 *           reads fp32 bits. Checked exactly on values that rounding to nearest would carry up
 *           (1 + 2^-10 + 2^-11 becomes 1 + 2^-10, not 1 + 2^-9; the largest float stays finite),
 *           on every kernel; on random data against a reference that applies the same
 *           truncation (then only the fp32 accumulation differs: the suite's fp32 tolerance),
 *           and against the unrounded inputs within the documented bound 2^-9 |A||B| + the fp32
 *           tolerance (include/oclfuse.h; harness/reference_gemm.h argues it).
 *   3XTF32  big = tf32(x) rounded to nearest (ties away, as cvt.rna.tf32.f32),
 *           small = tf32(x - big), three products: against the split reference
 *           with the fp32 tolerance, and against the exact fp32 product within the plain fp32
 *           tolerance of test_matmul for k >= 11 (the dropped terms, at most 12.1 u |a b|, fit
 *           in its factor 2 (k + 2) u from there on).
 *   16-bit  A and B in fp16 or bf16 (any mix with fp32), C in fp32, fp16 or bf16 (rounded to
 *           nearest even), with transposes, batches and epilogues, on every kernel.
 * Tolerances: harness/reference_gemm.h.
 */
#include "matmul_check.h"

#include "reference_gemm.h"

#include <math.h>
#include <string.h>

static const ocf_variant all_variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL,
                                           OCF_VARIANT_BASELINE};

/* Shapes that reach every kernel on CPUs: whole tiles (fast), ragged (mixed), long K (split),
   a short n and a short m (skinny, both ways round), a long K over a short side (skinny split). */
static const size_t path_shapes[][3] = {{32, 32, 32}, {37, 29, 41}, {30, 26, 400},
                                        {45, 3, 40},  {2, 50, 33},  {4, 2, 600}};
static const size_t path_shapes_small[][3] = {{16, 16, 16}, {9, 11, 13}, {3, 10, 12}};

#define PATH_COUNT \
  (ocft_small() ? OCF_ARRAY_LEN_T(path_shapes_small) : OCF_ARRAY_LEN_T(path_shapes))
#define PATH_SHAPE(s) (ocft_small() ? path_shapes_small[s] : path_shapes[s])

/* C = A B for an m x 1 A of crafted values (each twice, so that m = 16 reaches the skinny
   kernels on CPUs when n = 1; the last one a NaN whose payload lies in the 13 bits TF32 drops,
   which a bare mask would turn into an infinity) and a 1 x n B of ones: C[i][j] must be
   exactly the mode's conversion of A[i] (products with 1 and alpha = 1 are exact). TF32
   truncates: each inexact value gives another answer than rounding to nearest (the 3XTF32
   split's big part) would. */
static void check_rounding_exactly(const ocft_env *env, size_t n, ocf_precision precision,
                                   ocf_variant variant) {
  const float tie = 1.0f + 0x1p-11f;                   /* trunc 1; RNA 1 + 2^-10 */
  const float odd_tie = 1.0f + 0x1p-10f + 0x1p-11f;    /* trunc 1 + 2^-10; RNA 1 + 2^-9 */
  const float below_next = 1.0f + 0x1p-10f - 0x1p-23f; /* trunc 1; RNA 1 + 2^-10 */
  const float largest = 0x1.fffffep127f;               /* trunc (2 - 2^-10) 2^127; RNA infinity */
  const float values[8] = {tie, -odd_tie, odd_tie, below_next, largest, 3.0f, INFINITY, NAN};
  const float tf32[8] = {
      1.0f, -1.0f - 0x1p-10f, 1.0f + 0x1p-10f, 1.0f, 0x1.ffcp127f, 3.0f, INFINITY, NAN};
  enum { M = 16 };
  float a[M];
  for (size_t i = 0; i < M; i++) {
    a[i] = values[i % 8];
    /* the table is the reference's truncation, and differs from rounding where it should */
    assert_true(isnan(a[i]) ? isnan(ocf_ref_tf32(a[i])) : ocf_ref_tf32(a[i]) == tf32[i % 8]);
    assert_true(i % 8 >= 5 || ocf_ref_tf32_rna(a[i]) != tf32[i % 8]);
  }
  const uint32_t low_payload_nan = 0x7f800001u;
  memcpy(&a[M - 1], &low_payload_nan, sizeof a[M - 1]);
  float *b = ocft_alloc_floats(n), *c = ocft_alloc_floats(M * n);
  for (size_t j = 0; j < n; j++)
    b[j] = 1.0f;
  cl_mem ab = ocft_buffer(env, M, a), bb = ocft_buffer(env, n, b);
  cl_mem cb = ocft_buffer(env, M * n, NULL);
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.precision = precision;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = variant;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, M, n, 1, 1.0f, ab, 0, 1,
                                   bb, 0, n, 0.0f, cb, 0, n, &o, &launch),
                     OCF_SUCCESS);
  ocft_read(env, cb, M * n, c);
  for (size_t i = 0; i < M; i++) {
    /* 3XTF32 gives big + small (x to within 2^-22 |x|); infinities give NaN (an infinity has no
       finite low part: ocf_tf32_small), and so does the largest float, whose big part rounds
       to an infinity, on the SIMT and the matrix-unit kernels alike; a NaN stays a NaN in
       every mode. */
    const float big = ocf_ref_tf32_rna(a[i]), split = big + ocf_ref_tf32_small(a[i], big);
    float want = isnan(a[i])                       ? NAN
                 : precision == OCF_PRECISION_FP32 ? a[i]
                 : precision == OCF_PRECISION_TF32 ? tf32[i % 8]
                 : isinf(big)                      ? NAN
                                                   : split;
    for (size_t j = 0; j < n; j++) {
      float got = c[i * n + j];
      int same = isnan(want) ? isnan(got) : got == want;
      if (!same) {
        print_error("precision %d variant %d n=%zu: A = %a gave %a, want %a\n", (int)precision,
                    (int)variant, n, (double)a[i], (double)got, (double)want);
        fail();
      }
    }
  }
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
  free(b), free(c);
}

/* The rounding itself, exactly, on the tiled kernels (n = 40: mixed, and the general and naive
   variants) and the skinny ones (n = 1). */
static void test_precision_rounding_exact(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int p = 0; p <= OCF_PRECISION_3XTF32; p++) {
    for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
      if (ocft_small() && v != (size_t)p) continue;
      check_rounding_exactly(env, 40, (ocf_precision)p, all_variants[v]);
    }
    check_rounding_exactly(env, 1, (ocf_precision)p, OCF_VARIANT_AUTO);
  }
}

/* Random data on every kernel, one transpose each: TF32 and 3XTF32 against the reference with
   the same rounding, then against the unrounded inputs with the documented bound; 3XTF32 also
   within the plain fp32 tolerance for k >= 11. */
static void test_precision_modes_on_every_kernel(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int p = OCF_PRECISION_TF32; p <= OCF_PRECISION_3XTF32; p++)
    for (size_t s = 0; s < PATH_COUNT; s++) {
      const size_t *shape = PATH_SHAPE(s);
      mmx_case t = mmx_plain(shape[0], shape[1], shape[2]);
      t.ta = (ocf_transpose)(s % 2);
      t.tb = (ocf_transpose)(s / 2 % 2);
      t.precision = (ocf_precision)p;
      t.beta = 0.5f;
      mmx_outcome outcome;
      for (int exact = 0; exact < 2; exact++) {
        t.exact_inputs = exact;
        mmx_check(env, &t, &outcome);
      }
      if (p == OCF_PRECISION_3XTF32 && t.k >= 11 && !(outcome.worst_vs_fp32 <= 1.0)) {
        print_error("3XTF32 %zux%zux%zu: %.3g of the fp32 tolerance\n", t.m, t.n, t.k,
                    outcome.worst_vs_fp32);
        fail();
      }
      if (s == 1) { /* the general and naive kernels, once per mode */
        t.exact_inputs = 0;
        t.variant = OCF_VARIANT_GENERAL;
        mmx_check(env, &t, NULL);
        t.variant = OCF_VARIANT_BASELINE;
        mmx_check(env, &t, NULL);
      }
    }
}

/* TF32 really rounds: on the same data the plain fp32 answer is far outside TF32's tight
   tolerance against the rounded reference (a kernel that forgot to round would pass the loose
   bound but not this). The mirror image guards 3XTF32 against computing in TF32 only. */
static void test_precision_modes_differ(void **state) {
  ocft_env *env = ocft_get_env(state);
  mmx_case t = mmx_plain(24, 20, 64);
  t.precision = OCF_PRECISION_TF32;
  mmx_outcome tf32;
  mmx_check(env, &t, &tf32);
  /* the same TF32 result, judged against the unrounded inputs with the fp32 tolerance */
  assert_true(tf32.worst_vs_fp32 > 8.0);
  t.precision = OCF_PRECISION_3XTF32;
  mmx_outcome three;
  mmx_check(env, &t, &three);
  assert_true(three.worst_vs_fp32 <= 1.0);
}

/* fp16 and bf16 inputs (with each other and with fp32), C in each type, each combination on
   one kernel in turn (tiled fast, mixed, split, skinny both ways); with transposes, unaligned
   offsets (16-bit vloads need no alignment), a batch and an epilogue on some, and the precision
   modes (a no-op on 16-bit values, which are exact in TF32). */
static void test_precision_16bit_storage(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const ocf_dtype combos[][3] = {
      {OCF_F16, OCF_F16, OCF_F32},   {OCF_BF16, OCF_BF16, OCF_F32}, {OCF_F16, OCF_BF16, OCF_F16},
      {OCF_BF16, OCF_F32, OCF_BF16}, {OCF_F32, OCF_F16, OCF_F32},   {OCF_F16, OCF_F16, OCF_F16},
      {OCF_BF16, OCF_BF16, OCF_BF16}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(combos); i++) {
    if (ocft_small() && i % 2) continue;
    const size_t s = i % PATH_COUNT;
    const size_t *shape = PATH_SHAPE(s);
    mmx_case t = mmx_plain(shape[0], shape[1], shape[2]);
    t.a_dtype = combos[i][0], t.b_dtype = combos[i][1], t.c_dtype = combos[i][2];
    t.ta = (ocf_transpose)(i % 2);
    t.tb = (ocf_transpose)(i / 2 % 2);
    t.a_off = 1, t.b_off = 2, t.c_off = 3;
    t.beta = 0.5f;
    t.precision = (ocf_precision)(i % 3);
    if (i % 3 == 1) {
      t.batch = 3;
      t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
      t.activation = OCF_ACTIVATION_GELU_ERF;
      t.bias_axis = OCF_BIAS_N;
      t.bias_dtype = combos[i][2];
    }
    mmx_check(env, &t, NULL);
    if (i == 0) {
      for (size_t v = 1; v < OCF_ARRAY_LEN_T(all_variants); v++) {
        t.variant = all_variants[v];
        mmx_check(env, &t, NULL);
      }
    }
  }
}

/* Every refusal changes nothing. */
static void test_precision_rejects(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_mem x = mmx_pattern_buffer(env, 1024), c = mmx_pattern_buffer(env, 1024);
  cl_mem h30 = mmx_pattern_buffer(env, 30), h32 = mmx_pattern_buffer(env, 32);
  ocf_context *ctx = env->ctx;
  const ocf_transpose NT = OCF_NO_TRANS;
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.precision = (ocf_precision)3;
  ocft_assert_status(ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &o, NULL),
                     OCF_ERR_INVALID_VALUE);
  o.precision = (ocf_precision)-1;
  ocft_assert_status(ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &o, NULL),
                     OCF_ERR_INVALID_VALUE);
  ocf_matmul_options d = OCF_MATMUL_OPTIONS_INIT;
  d.a_dtype = (ocf_dtype)3;
  ocft_assert_status(ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &d, NULL),
                     OCF_ERR_INVALID_VALUE);
  d = o;
  d.precision = OCF_PRECISION_FP32;
  d.c_dtype = (ocf_dtype)-2;
  ocft_assert_status(ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &d, NULL),
                     OCF_ERR_INVALID_VALUE);
  /* a 4 x 4 fp16 A needs 16 elements, 32 bytes: 30 is one element short, an offset of 1 too */
  ocf_matmul_options h = OCF_MATMUL_OPTIONS_INIT;
  h.a_dtype = OCF_F16;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, h30, 0, 4, x, 0, 4, 0, c, 0, 4, &h, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, h32, 1, 4, x, 0, 4, 0, c, 0, 4, &h, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  /* a 4 x 4 bf16 C in 30 bytes, and fp32 A in the 32 bytes that hold it in fp16 */
  h.a_dtype = OCF_F32, h.c_dtype = OCF_BF16;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, h30, 0, 4, &h, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, h32, 0, 4, x, 0, 4, 0, c, 0, 4, &h, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  /* overlap is judged in bytes: a bf16 C right after an fp32 A of the same buffer is fine, one
     element earlier it is not */
  ocf_matmul_options mixed = OCF_MATMUL_OPTIONS_INIT;
  mixed.c_dtype = OCF_BF16;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, c, 0, 4, x, 0, 4, 0, c, 31, 4, &mixed, NULL),
      OCF_ERR_ALIASING);
  mmx_assert_pattern(env, c, 1024, "C after refused calls");
  mmx_assert_pattern(env, h30, 30, "the 30-byte buffer after refused calls");
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, c, 0, 4, x, 0, 4, 0, c, 32, 4, &mixed, NULL),
      OCF_SUCCESS);
  clReleaseMemObject(x), clReleaseMemObject(c);
  clReleaseMemObject(h30), clReleaseMemObject(h32);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_precision_rounding_exact),
      cmocka_unit_test(test_precision_modes_on_every_kernel),
      cmocka_unit_test(test_precision_modes_differ),
      cmocka_unit_test(test_precision_16bit_storage),
      cmocka_unit_test(test_precision_rejects),
  };
  return cmocka_run_group_tests_name("matmul_precision", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
