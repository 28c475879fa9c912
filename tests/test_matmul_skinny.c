/*
 * Matrix-vector and skinny products (C with at most 16 columns or rows), which the planner sends
 * to cl/matmul_skinny.cl: the short side from 1 to 16 as n and as m (the operands swapped), the
 * large operand k-contiguous and row-contiguous (every transpose), aligned and unaligned
 * offsets and leading dimensions, k from 0 to a few thousand (split into ranges with a reduce
 * when the rows alone leave compute units idle), batches with a shared operand, column-major
 * callers (BLAS gemv), caller-fixed workgroup sizes, the wide path (from 8 columns or rows: the
 * operands staged in local memory), fp16 and bf16 operands (aligned 8-byte words and element
 * loads); each against the CPU reference (harness/reference_gemm.h)
 * and CLBlast.
 */
#include "matmul_check.h"

#include <stdlib.h>
#include <string.h>

/* The short side in every position, both orientations, with beta and padded strides. */
static void test_skinny_short_sides(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t big_short[] = {1, 2, 3, 4, 5, 8, 13, 16};
  static const size_t small_short[] = {1, 3, 4};
  const size_t *shorts = ocft_small() ? small_short : big_short;
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small_short) : OCF_ARRAY_LEN_T(big_short);
  /* lda and ldb multiples of 4 where the short side allows: the vector loads */
  const size_t long_side = ocft_small() ? 36 : 300, k = ocft_small() ? 20 : 152;
  for (size_t s = 0; s < count; s++)
    for (int swapped = 0; swapped < 2; swapped++) {
      /* one transpose per short side and orientation, rotating (each is a program build) */
      const int tr = (int)(s + 2 * (size_t)swapped) % 4;
      mmx_case t = mmx_plain(swapped ? shorts[s] : long_side, swapped ? long_side : shorts[s], k);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.alpha = -1.25f;
      t.beta = 0.5f;
      t.lda_pad = 4, t.ldb_pad = 8, t.ldc_pad = 4;
      t.a_off = 4, t.b_off = 8, t.c_off = 12;
      mmx_check(env, &t, NULL);
    }
}

/* Unaligned offsets and leading dimensions (no fp32 vector loads), rows not a multiple of 4 or
   of the row block, k not a multiple of the k lanes' step. */
static void test_skinny_unaligned(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t shapes[][3] = {{333, 1, 77}, {2, 259, 45}, {7, 45, 31}, {90, 16, 3}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
    for (int tr = 0; tr < 4; tr++) {
      if (tr != (int)s % 4 && (ocft_small() || tr != 3 - (int)s % 4)) continue;
      mmx_case t = mmx_plain(ocft_small() ? shapes[s][0] % 40 + 1 : shapes[s][0],
                             ocft_small() ? shapes[s][1] % 40 + 1 : shapes[s][1], shapes[s][2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.lda_pad = 1, t.ldb_pad = 3, t.ldc_pad = 2;
      t.a_off = 1, t.b_off = 3, t.c_off = 5;
      t.beta = 1.0f;
      mmx_check(env, &t, NULL);
    }
}

/* The degenerate ends: a dot product (m = n = 1), k = 1 (an outer product), k = 0 (beta C),
   alpha = 0 over NaN inputs, beta = 0 over a NaN C. */
static void test_skinny_degenerate(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int tr = 0; tr < 4; tr += 3) { /* NN and TT */
    mmx_case t = mmx_plain(1, 1, ocft_small() ? 99 : 1000);
    t.ta = (ocf_transpose)(tr & 1);
    t.tb = (ocf_transpose)(tr >> 1);
    mmx_check(env, &t, NULL);
    t = mmx_plain(tr < 2 ? 40 : 3, tr < 2 ? 3 : 40, 1);
    t.ta = (ocf_transpose)(tr & 1);
    t.beta = 2.0f;
    mmx_check(env, &t, NULL);
    t.k = 0;
    mmx_check(env, &t, NULL);
    t.k = 9;
    t.alpha = 0.0f;
    t.nan_inputs = 1;
    mmx_check(env, &t, NULL);
    t.alpha = 1.0f;
    t.nan_inputs = 0;
    t.beta = 0.0f;
    t.nan_c = 1;
    mmx_check(env, &t, NULL);
  }
}

/* Few rows and a long K: the K ranges of matmul_skinny_split added up by matmul_skinny_reduce
   (on CPUs, from two ranges of sk_split_min = 128 on), with beta and a bias. */
static void test_skinny_split_k(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t shapes[][3] = {{8, 1, 3000}, {1, 20, 1111}, {16, 5, 515}, {3, 3, 4096}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
    for (int tr = 0; tr < 4; tr++) {
      if (tr != (int)s % 4 && (ocft_small() || tr != 3 - (int)s % 4)) continue;
      mmx_case t = mmx_plain(shapes[s][0], shapes[s][1], ocft_small() ? 300 : shapes[s][2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.beta = -0.5f;
      t.bias_axis = s % 2 ? OCF_BIAS_N : OCF_BIAS_M;
      t.nan_workspace = tr % 2;
      mmx_check(env, &t, NULL);
    }
}

/* Batches of matrix-vector products: a shared matrix (stride 0) times a batch of vectors, a batch
   of matrices times one vector, and column-major (BLAS gemv with lda > m). */
static void test_skinny_batched_and_column_major(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int shared = 0; shared < 3; shared++) {
    mmx_case t = mmx_plain(ocft_small() ? 33 : 130, 2, 19);
    t.batch = 5;
    t.stride_a = shared == 1 ? 0 : MMX_PACKED;
    t.stride_b = shared == 2 ? 0 : MMX_PACKED;
    t.stride_c = MMX_PACKED;
    t.beta = 0.5f;
    mmx_check(env, &t, NULL);
    t.layout = OCF_COL_MAJOR;
    t.lda_pad = 3;
    t.ta = (ocf_transpose)(shared % 2);
    mmx_check(env, &t, NULL);
    t.m = 1; /* a row vector times a matrix: the swapped side */
    t.n = ocft_small() ? 30 : 200;
    mmx_check(env, &t, NULL);
  }
}

/* Workgroup sizes the caller fixes (powers of two the device takes) give the same result;
   every variant on skinny shapes too. */
static void test_skinny_workgroups_and_variants(void **state) {
  ocft_env *env = ocft_get_env(state);
  size_t cap = ocft_small() ? 16 : 256;
  for (size_t wg = 1; wg <= cap && wg <= env->info.max_workgroup_size; wg *= 16) {
    mmx_case t = mmx_plain(ocft_small() ? 21 : 101, 3, 50);
    t.workgroup = wg;
    t.tb = OCF_TRANS;
    mmx_check(env, &t, NULL);
    t.ta = OCF_TRANS;
    t.m = 1, t.n = ocft_small() ? 21 : 101;
    mmx_check(env, &t, NULL);
  }
  mmx_case t = mmx_plain(ocft_small() ? 15 : 65, 4, 33);
  t.variant = OCF_VARIANT_GENERAL;
  mmx_check(env, &t, NULL);
  t.variant = OCF_VARIANT_BASELINE;
  mmx_check(env, &t, NULL);
}

/* The wide path (a short side of at least sk_wide_min = 8: X and V staged in local memory in
   chunks of 32 k): short sides 8, 11 (a V row of whole and partial float4s) and 16 both ways
   round with every transpose (both stagings of X, V rows contiguous or strided); rows past a
   whole row block (4 x 32 on every built-in row) and less than one; k short of a chunk and
   ragged past several; unaligned offsets and leading dimensions; a split K with a bias, a batch
   over a shared V with an activation, alpha 0 over NaN inputs, k = 0, and a fixed workgroup. */
static void test_skinny_wide_path(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shorts[] = {8, 11, 16};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shorts); s++)
    for (int swapped = 0; swapped < 2; swapped++) {
      const int tr = (int)(s + 2 * (size_t)swapped) % 4;
      const size_t rows = s == 1 ? 37 : 130, k = s == 2 ? 20 : 77;
      mmx_case t = mmx_plain(swapped ? shorts[s] : rows, swapped ? rows : shorts[s], k);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.alpha = 0.75f;
      t.beta = swapped ? 0.0f : -1.5f;
      if (s == 1) t.lda_pad = 1, t.ldb_pad = 3, t.a_off = 1, t.b_off = 2, t.c_off = 3;
      mmx_check(env, &t, NULL);
    }
  /* split K (few rows, K of many chunks) with a bias along the long side */
  mmx_case t = mmx_plain(40, 12, ocft_small() ? 700 : 3000);
  t.bias_axis = OCF_BIAS_M;
  t.beta = 0.5f;
  mmx_check(env, &t, NULL);
  /* a batch of matrices times one shared V, an activation, a bias along the short side */
  t = mmx_plain(ocft_small() ? 33 : 200, 9, 45);
  t.batch = 3;
  t.stride_a = MMX_PACKED, t.stride_b = 0, t.stride_c = MMX_PACKED;
  t.activation = OCF_ACTIVATION_GELU_TANH;
  t.bias_axis = OCF_BIAS_N;
  mmx_check(env, &t, NULL);
  /* alpha 0 never reads the NaNs of A and B; k = 0 is beta C */
  t = mmx_plain(50, 16, 40);
  t.alpha = 0.0f;
  t.beta = 2.0f;
  t.nan_inputs = 1;
  mmx_check(env, &t, NULL);
  t = mmx_plain(16, 50, 0);
  t.beta = -1.0f;
  mmx_check(env, &t, NULL);
  /* a workgroup the caller fixes (the row lanes shrink to it) */
  if (env->info.max_workgroup_size >= 16) {
    t = mmx_plain(70, 10, 90);
    t.workgroup = 16;
    t.tb = OCF_TRANS;
    mmx_check(env, &t, NULL);
  }
}

/* fp16 and bf16 operands (C fp32 or the input type): every transpose, both orientations, the
   short side 1 to 16 (narrow and wide paths), k ragged (not a multiple of 4), offsets, leading
   dimensions and batch strides multiples of 4 elements (X_VEC, V_VEC: aligned 8-byte words)
   and odd ones (element-aligned vloads), a batch over a shared V with a bias and an activation,
   and a split K; the harness's 16-bit tolerance (harness/reference_gemm.h). */
static void test_skinny_16bit(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shorts[] = {1, 5, 11, 16};
  static const ocf_dtype types[] = {OCF_BF16, OCF_F16};
  for (size_t d = 0; d < 2; d++)
    for (int tr = 0; tr < 4; tr++)
      for (int aligned = 0; aligned < 2; aligned++) {
        const int i = 8 * (int)d + 2 * tr + aligned;
        if (ocft_small() && i % 3 != 0) continue;
        const size_t small = shorts[(size_t)i % 4], rows = ocft_small() ? 37 : 141;
        const size_t k = ocft_small() ? 43 : 203;
        const int swapped = (tr + aligned + (int)d) % 2;
        mmx_case t = mmx_plain(swapped ? small : rows, swapped ? rows : small, k);
        t.ta = (ocf_transpose)(tr & 1);
        t.tb = (ocf_transpose)(tr >> 1);
        t.a_dtype = t.b_dtype = types[d];
        t.c_dtype = i % 3 == 1 ? types[d] : OCF_F32;
        t.alpha = 0.75f;
        t.beta = 0.5f;
        if (aligned) { /* leading dimensions rounded up to a multiple of 4, then 4 more */
          const size_t lda = t.ta ? t.m : t.k, ldb = t.tb ? t.k : t.n;
          t.lda_pad = (4 - lda % 4) % 4 + 4, t.ldb_pad = (4 - ldb % 4) % 4, t.ldc_pad = 1;
          t.a_off = 4, t.b_off = 12, t.c_off = 3;
        } else {
          t.lda_pad = 1, t.ldb_pad = 3, t.ldc_pad = 2;
          t.a_off = 1, t.b_off = 3, t.c_off = 5;
        }
        if (i % 4 == 2) {
          t.batch = 3;
          t.stride_a = MMX_PACKED, t.stride_b = swapped ? 0 : MMX_PACKED, t.stride_c = MMX_PACKED;
          t.bias_axis = i % 8 == 2 ? OCF_BIAS_N : OCF_BIAS_M;
          t.bias_dtype = types[d];
          t.activation = OCF_ACTIVATION_SILU;
        }
        mmx_check(env, &t, NULL);
      }
  /* a split K, 16-bit, aligned and not */
  for (int aligned = 0; aligned < 2; aligned++) {
    mmx_case t = mmx_plain(aligned ? 1 : 9, aligned ? 300 : 2, ocft_small() ? 301 : 2999);
    t.a_dtype = t.b_dtype = aligned ? OCF_BF16 : OCF_F16;
    t.tb = OCF_TRANS;
    t.a_off = aligned ? 8 : 1, t.b_off = aligned ? 4 : 7;
    t.lda_pad = aligned ? (4 - t.k % 4) % 4 : 0, t.ldb_pad = aligned ? (4 - t.k % 4) % 4 : 0;
    t.beta = -0.5f;
    mmx_check(env, &t, NULL);
  }
}

static void test_skinny_against_clblast(void **state) {
  ocft_env *env = ocft_get_env(state);
  if (!mmx_have_clblast()) skip();
  const size_t shapes[][3] = {{1000, 1, 500}, {1, 700, 300}, {513, 16, 64}, {8, 300, 2000}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
    for (int tr = 0; tr < 4; tr++) {
      mmx_case t = mmx_plain(shapes[s][0], shapes[s][1], shapes[s][2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.layout = tr == 1 ? OCF_COL_MAJOR : OCF_ROW_MAJOR;
      t.alpha = 0.5f;
      t.beta = tr == 2 ? 0.0f : 1.5f;
      t.ldc_pad = 3;
      mmx_check_clblast(env, &t);
    }
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_skinny_short_sides),
      cmocka_unit_test(test_skinny_unaligned),
      cmocka_unit_test(test_skinny_degenerate),
      cmocka_unit_test(test_skinny_split_k),
      cmocka_unit_test(test_skinny_batched_and_column_major),
      cmocka_unit_test(test_skinny_workgroups_and_variants),
      cmocka_unit_test(test_skinny_wide_path),
      cmocka_unit_test(test_skinny_16bit),
      cmocka_unit_test(test_skinny_against_clblast),
  };
  return cmocka_run_group_tests_name("matmul_skinny", tests, ocft_group_setup, ocft_group_teardown);
}
