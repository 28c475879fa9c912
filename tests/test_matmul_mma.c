/*
 * ocf_matmul_ex on NVIDIA's matrix units (cl/matmul_mma_nv.cl, inline PTX): only where they
 * exist. On a device that is not an NVIDIA GPU of compute capability 8.0 or more the suite exits
 * with 77, which ctest reports as skipped (label "nvidia"; never "unit": the kernel cannot run
 * under PoCL, Oclgrind or rusticl). Every call must have run the matrix-unit kernel
 * (ocf_last_plan names it), so a silent fallback to the SIMT kernels fails here.
 *
 * Every output element and every untouched element of C is checked against
 * harness/reference_gemm.h with the input conversion of the mode (TF32: ocf_tf32_trunc; 3XTF32:
 * the split into two TF32 parts), the tolerance doubled for the matrix units' truncating
 * accumulation (truncating_sum), then again against the unrounded inputs with the mode's
 * documented bound. Coverage: each mode (TF32, 3XTF32, fp16 and bf16 inputs) with C in fp32,
 * fp16 and bf16; ragged shapes from 1 x 1 x 1 to past several tiles; all four transposes;
 * offsets and leading dimensions that select each copy path (16-byte, 4-byte and element
 * copies); strided batches with a shared operand; every activation with a bias along n and
 * along m; column-major callers; the TF32 truncation exactly, NaN inputs included; the loop
 * options of the kernel and a local-memory probe above 48 KiB (ocf_context_set_tuning).
 */
#include "matmul_check.h"

#include "reference_gemm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exit status ctest reads as "skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt). */
#define SKIP_STATUS 77

static const ocf_dtype inputs[] = {OCF_F32, OCF_F32, OCF_BF16, OCF_F16};
static const ocf_precision modes[] = {OCF_PRECISION_TF32, OCF_PRECISION_3XTF32, OCF_PRECISION_FP32,
                                      OCF_PRECISION_FP32};

/* Runs a case, which must take the matrix units, and checks it both ways (rounded inputs with
   the tight tolerance, unrounded with the documented bound). */
static void check_mma(const ocft_env *env, mmx_case t) {
  t.truncating_sum = 1;
  for (int exact = 0; exact < 2; exact++) {
    t.exact_inputs = exact;
    mmx_check(env, &t, NULL);
    const char *plan = ocf_last_plan();
    if (!strstr(plan, "matmul_mma")) {
      char what[400];
      mmx_describe(&t, what, sizeof what);
      print_error("%s\n  ran %s, not the matrix units\n", what, plan);
      fail();
    }
  }
}

static mmx_case mode_case(size_t mode, size_t m, size_t n, size_t k) {
  mmx_case t = mmx_plain(m, n, k);
  t.a_dtype = t.b_dtype = inputs[mode];
  t.precision = modes[mode];
  return t;
}

/* Every mode and C type on ragged shapes: one mma tile, a tile plus one, several tiles with a
   ragged K, and 1 x 1 x 1. */
static void test_mma_modes_and_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][3] = {{1, 1, 1}, {16, 8, 16}, {129, 257, 100}, {300, 260, 1000}};
  for (size_t mode = 0; mode < OCF_ARRAY_LEN_T(inputs); mode++)
    for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
      for (int c = 0; c < 3; c++) {
        mmx_case t = mode_case(mode, shapes[s][0], shapes[s][1], shapes[s][2]);
        t.c_dtype = (ocf_dtype)c;
        t.beta = s % 2 ? 0.5f : 0.0f;
        check_mma(env, t);
      }
}

/* All four transposes, alpha and beta, in every mode. */
static void test_mma_transposes(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t mode = 0; mode < OCF_ARRAY_LEN_T(inputs); mode++)
    for (int tr = 0; tr < 4; tr++) {
      mmx_case t = mode_case(mode, 200, 136, 72);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.alpha = 1.5f, t.beta = -0.5f;
      check_mma(env, t);
    }
}

/* Offsets and leading dimensions for each copy path: multiples of 16 bytes (16-byte copies),
   of 4 bytes (4-byte copies), and odd 16-bit ones (element by element); strided batches, one
   with A shared (stride 0). */
static void test_mma_offsets_strides_batches(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t pads[][2] = {{0, 0}, {4, 8}, {2, 6}, {1, 3}};
  for (size_t mode = 0; mode < OCF_ARRAY_LEN_T(inputs); mode++)
    for (size_t p = 0; p < OCF_ARRAY_LEN_T(pads); p++) {
      mmx_case t = mode_case(mode, 201, 135, 73);
      t.ta = (ocf_transpose)(p & 1);
      t.lda_pad = pads[p][0], t.ldb_pad = pads[p][1], t.ldc_pad = pads[p][0] + 1;
      t.a_off = pads[p][1], t.b_off = pads[p][0], t.c_off = 3;
      t.beta = 0.25f;
      check_mma(env, t);
      t.batch = 3;
      t.stride_a = p == 2 ? 0 : MMX_PACKED;
      t.stride_b = t.stride_c = MMX_PACKED;
      check_mma(env, t);
    }
}

/* Every activation, a bias along n and along m in each type, 16-bit C. */
static void test_mma_epilogue(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t mode = 0; mode < OCF_ARRAY_LEN_T(inputs); mode++)
    for (int act = OCF_ACTIVATION_NONE; act <= OCF_ACTIVATION_SILU; act++) {
      mmx_case t = mode_case(mode, 130, 140, 90);
      t.activation = (ocf_activation)act;
      t.bias_axis = act % 2 ? OCF_BIAS_N : OCF_BIAS_M;
      t.bias_dtype = (ocf_dtype)(act % 3);
      t.bias_off = 5;
      t.c_dtype = (ocf_dtype)((act + mode) % 3);
      t.beta = act % 2 ? 0.75f : 0.0f;
      t.batch = act == OCF_ACTIVATION_SILU ? 2 : 1;
      t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
      check_mma(env, t);
    }
}

/* Column-major callers: the operand swap of the SIMT path. */
static void test_mma_column_major(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t mode = 0; mode < OCF_ARRAY_LEN_T(inputs); mode++) {
    mmx_case t = mode_case(mode, 150, 131, 77);
    t.layout = OCF_COL_MAJOR;
    t.ta = (ocf_transpose)(mode % 2);
    t.tb = (ocf_transpose)(mode / 2 % 2);
    t.lda_pad = 3, t.ldc_pad = 2;
    t.beta = 0.5f;
    check_mma(env, t);
  }
}

/* The TF32 truncation exactly (C = A times ones): toward zero (1 + 2^-10 + 2^-11 gives
   1 + 2^-10 where rounding to nearest gives 1 + 2^-9; the largest float stays finite), and NaNs,
   the one whose payload lies in the dropped bits included (a bare mask, or cvt.rna.tf32.f32,
   would make it an infinity), stay NaN; 3XTF32 gives big + small (big rounded to nearest), and
   NaN where big is an infinity; as on the SIMT kernels (test_matmul_precision). */
static void test_mma_tf32_truncation_exact(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { M = 16, N = 40 };
  const float values[8] = {1.0f + 0x1p-11f,
                           -1.0f - 0x1p-10f - 0x1p-11f,
                           1.0f + 0x1p-10f + 0x1p-11f,
                           1.0f + 0x1p-10f - 0x1p-23f,
                           0x1.fffffep127f,
                           3.0f,
                           INFINITY,
                           NAN};
  float a[M], b[N], c[M * N];
  for (size_t i = 0; i < M; i++)
    a[i] = values[i % 8];
  const uint32_t low_payload_nan = 0x7f800001u;
  memcpy(&a[M - 1], &low_payload_nan, sizeof a[M - 1]);
  for (size_t j = 0; j < N; j++)
    b[j] = 1.0f;
  for (int p = OCF_PRECISION_TF32; p <= OCF_PRECISION_3XTF32; p++) {
    cl_mem ab = ocft_buffer(env, M, a), bb = ocft_buffer(env, N, b),
           cb = ocft_buffer(env, M * N, NULL);
    ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
    o.precision = (ocf_precision)p;
    ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, M, N, 1, 1.0f, ab, 0, 1,
                                     bb, 0, N, 0.0f, cb, 0, N, &o, NULL),
                       OCF_SUCCESS);
    assert_non_null(strstr(ocf_last_plan(), "matmul_mma"));
    ocft_read(env, cb, M * N, c);
    for (size_t i = 0; i < M; i++) {
      const float big = ocf_ref_tf32_rna(a[i]);
      const float want = isnan(a[i]) || (p == OCF_PRECISION_3XTF32 && isinf(big)) ? NAN
                         : p == OCF_PRECISION_TF32 ? ocf_ref_tf32(a[i])
                                                   : big + ocf_ref_tf32_small(a[i], big);
      for (size_t j = 0; j < N; j++) {
        const float got = c[i * N + j];
        if (isnan(want) ? !isnan(got) : got != want) {
          print_error("precision %d: A = %a gave %a, want %a\n", p, (double)a[i], (double)got,
                      (double)want);
          fail();
        }
      }
    }
    clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
  }
}

/* The kernel's loop options and deeper pipelines (probed above 48 KiB) through the tuning of the
   context: the same answers. */
static void test_mma_loop_options_and_local_memory(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const settings[] = {
      "wg=0 mma.copy_at=1 mma.interior=1",
      "wg=0 mma.copy_at=2 mma.interior=1 mma0.stages=4",         /* 64 KiB */
      "wg=0 mma.copy_at=1 mma.interior=1 mma0.bk=64 mma1.bk=64", /* 16-bit: 96 KiB */
  };
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(settings); s++) {
    for (int d = 0; d < 3; d++)
      ocft_assert_status(
          ocf_context_set_tuning(env->ctx, "matmul", (ocf_dtype)d, NULL, settings[s]), OCF_SUCCESS);
    for (size_t mode = 0; mode < OCF_ARRAY_LEN_T(inputs); mode++) {
      mmx_case t = mode_case(mode, 300, 260, 1000);
      t.ta = (ocf_transpose)(mode % 2);
      check_mma(env, t);
      t = mode_case(mode, 1024, 1024, 256); /* whole interior tiles */
      check_mma(env, t);
    }
  }
  for (int d = 0; d < 3; d++)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", (ocf_dtype)d, NULL, "wg=0"),
                       OCF_SUCCESS);
}

/* The group's context with the wgmma kernel off (wg=0): on compute capability 9.0 this suite's
   calls would take it first (its suite is test_matmul_wgmma). */
static int group_setup(void **state) {
  const int status = ocft_group_setup(state);
  if (status != 0) return status;
  ocft_env *env = *state; /* NULL without a device: the tests skip */
  for (int d = 0; d < 3 && env; d++)
    if (ocf_context_set_tuning(env->ctx, "matmul", (ocf_dtype)d, NULL, "wg=0") != OCF_SUCCESS)
      return -1;
  return 0;
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  if (mmx_nvidia_compute_capability() < 80) {
    printf("no NVIDIA GPU of compute capability 8.0 or more: test_matmul_mma skipped\n");
    return SKIP_STATUS;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mma_modes_and_shapes),
      cmocka_unit_test(test_mma_transposes),
      cmocka_unit_test(test_mma_offsets_strides_batches),
      cmocka_unit_test(test_mma_epilogue),
      cmocka_unit_test(test_mma_column_major),
      cmocka_unit_test(test_mma_tf32_truncation_exact),
      cmocka_unit_test(test_mma_loop_options_and_local_memory),
  };
  return cmocka_run_group_tests_name("matmul_mma", tests, group_setup, ocft_group_teardown);
}
