/*
 * ocf_matmul_ex's staged wgmma plans (src/plan/plan_matmul_wgmma.c, rule 4: cl/matmul_stage.cl,
 * then matmul_wgmma_sb / _sab) on an NVIDIA GPU of compute capability 9.0; elsewhere the suite
 * exits with 77, which ctest reports as skipped (label "nvidia", never "unit").
 *
 * Every call below is one the planner stages (each at least 256^3 products): it must have run
 * matmul_stage (ocf_last_plan), and every output element and every untouched element of C is
 * checked against harness/reference_gemm.h with the mode's input rounding and the matrix units'
 * truncating-sum tolerance, then against the unrounded inputs with the mode's documented bound
 * (as test_matmul_wgmma). 16-bit operands staged onto 128-byte lines; 3XTF32 in every transpose
 * pair, TF32 with B stored k x n, A transposed or off 16-byte chunks; ragged m, n, k; offsets and
 * padded leading dimensions; strided batches, A shared; column-major callers; the epilogue (bias
 * either way in each type, every activation, every C type, alpha and beta, C poisoned for beta 0).
 * Then the error against the exact inputs beside TF32 and strict FP32 on the same inputs: 3XTF32
 * must be within FP32's own tolerance (fp32-class), which TF32 is not.
 */
#include "matmul_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exit status ctest reads as "skipped" (SKIP_STATUS in tests/CMakeLists.txt). */
#define SKIP_STATUS 77

/* The form of the plans' wgmma step in the tests below: the cp.async kernel (named, since
   NVIDIA's row takes the TMA-fed one), or in test_staged_tma's pass its TMA-fed twin
   (form_values "wgmma.tma_copies=1"), whose name each plan must then show (form_kernel). */
static const char *form_values = "wgmma.tma_copies=0";
static const char *form_kernel = NULL;

/* Sets the matmul tuning of `dtype` to `values` and the pass's form. */
static void tune(const ocft_env *env, ocf_dtype dtype, const char *values) {
  char all[200];
  snprintf(all, sizeof all, "%s %s", values, form_values);
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", dtype, NULL, all), OCF_SUCCESS);
}

/* Turns the staged plans on for the group's context, both modes from 256^3 products (whatever
   the device's gates are). */
static void staging_on(const ocft_env *env) {
  tune(env, OCF_F32, "wgmma.stage_min=256 wgmma.tf32_stage_min=256");
}

/* Runs a case both ways (rounded inputs, tight tolerance; unrounded, the mode's bound) and checks
   that the staged plan ran. */
static void check_staged(const ocft_env *env, mmx_case t) {
  t.truncating_sum = 1;
  for (int exact = 0; exact < 2; exact++) {
    t.exact_inputs = exact;
    mmx_check(env, &t, NULL);
    const char *plan = ocf_last_plan();
    /* 16-bit: the aligned copies (matmul_pad) where A is stored m x k as the op sees it (a
       column-major call arrives with its operands swapped), else matmul_stage */
    const int copied = t.a_dtype != OCF_F32 && strncmp(plan, "matmul_pad ", 11) == 0;
    if ((!copied && strncmp(plan, "matmul_stage ", 13) != 0) ||
        (form_kernel && !strstr(plan, form_kernel))) {
      char what[400];
      mmx_describe(&t, what, sizeof what);
      print_error("%s\n  ran %s, not the staged plan%s%s\n", what, plan, form_kernel ? " on " : "",
                  form_kernel ? form_kernel : "");
      fail();
    }
  }
}

static mmx_case staged_case(ocf_precision precision, int ta, int tb, size_t m, size_t n, size_t k) {
  mmx_case t = mmx_plain(m, n, k);
  t.precision = precision;
  t.ta = ta ? OCF_TRANS : OCF_NO_TRANS;
  t.tb = tb ? OCF_TRANS : OCF_NO_TRANS;
  return t;
}

/* 3XTF32 in every transpose pair, ragged and whole; TF32 where rule 1 leaves it. */
static void test_staged_layouts(void **state) {
  ocft_env *env = ocft_get_env(state);
  staging_on(env);
  static const size_t shapes[][3] = {{256, 256, 256}, {257, 300, 251}, {130, 520, 333}};
  for (int t = 0; t < 4; t++)
    for (size_t s = 0; s < 3; s++) {
      mmx_case c = staged_case(OCF_PRECISION_3XTF32, t & 1, t >> 1, shapes[s][0], shapes[s][1],
                               shapes[s][2]);
      c.lda_pad = s, c.ldb_pad = 2 * s;
      if (s == 1) {
        c.alpha = 1.5f, c.beta = -0.5f;
      } else {
        c.nan_c = 1;
      }
      check_staged(env, c);
    }
  /* TF32: B stored k x n (B' only), A stored k x m (A' too), A's rows off chunks. */
  check_staged(env, staged_case(OCF_PRECISION_TF32, 0, 0, 300, 264, 270));
  check_staged(env, staged_case(OCF_PRECISION_TF32, 1, 1, 257, 300, 251));
  mmx_case c = staged_case(OCF_PRECISION_TF32, 0, 1, 300, 264, 270);
  c.lda_pad = 1;
  check_staged(env, c);
}

/* Case c as a strided batch of 3 packed products, A shared (stride 0, and beta 0.5) or not. */
static mmx_case batch_of_three(mmx_case c, int shared) {
  c.batch = 3;
  c.stride_a = shared ? 0 : MMX_PACKED;
  c.stride_b = c.stride_c = MMX_PACKED;
  c.beta = shared ? 0.5f : 0.0f;
  return c;
}

/* Offsets (any), C's odd ldc and offset, strided batches with A shared, column-major. */
static void test_staged_offsets_batches(void **state) {
  ocft_env *env = ocft_get_env(state);
  staging_on(env);
  mmx_case c = staged_case(OCF_PRECISION_3XTF32, 0, 0, 301, 260, 250);
  c.a_off = 3, c.b_off = 5, c.c_off = 1, c.ldc_pad = 1;
  c.alpha = 0.75f, c.beta = 0.25f;
  check_staged(env, c);
  for (int shared = 0; shared < 2; shared++)
    check_staged(env, batch_of_three(staged_case(shared ? OCF_PRECISION_TF32 : OCF_PRECISION_3XTF32,
                                                 shared, 0, 150, 260, 300),
                                     shared));
  c = staged_case(OCF_PRECISION_3XTF32, 0, 1, 270, 290, 260);
  c.layout = OCF_COL_MAJOR;
  c.beta = 0.5f;
  check_staged(env, c);
}

/* Every activation, a bias along n and m in each type, every C type. */
static void test_staged_epilogue(void **state) {
  ocft_env *env = ocft_get_env(state);
  staging_on(env);
  for (int act = OCF_ACTIVATION_NONE; act <= OCF_ACTIVATION_SILU; act++) {
    mmx_case c =
        staged_case(act % 2 ? OCF_PRECISION_TF32 : OCF_PRECISION_3XTF32, act % 2, 0, 260, 270, 256);
    c.activation = (ocf_activation)act;
    c.bias_axis = act % 2 ? OCF_BIAS_N : OCF_BIAS_M;
    c.bias_dtype = (ocf_dtype)(act % 3);
    c.bias_off = 5;
    c.c_dtype = (ocf_dtype)((act + 1) % 3);
    c.beta = act % 2 ? 0.75f : 0.0f;
    check_staged(env, c);
  }
}

/* 16-bit operands copied onto 128-byte lines (wgmma.align_rows=64: every call below): B k x n
   and n x k off lines or off 16-byte chunks, copied as stored into rows of their length
   rounded up to 64 values (A too where it is off chunks: matmul_pad, then matmul_wgmma_pb or
   _pab), A transposed (matmul_stage's K-major A' and B', then matmul_wgmma_sab), offsets on
   chunks and off lines, a strided batch with A shared, a column-major caller, the epilogue;
   f16 and bf16. */
static void test_staged_16bit(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* sector_rows 0: rows on 32-byte steps (ldb 528 below) are copied whatever the device's
     database says (the H100's reads them in place: test_plan_matmul_wgmma holds that route) */
  for (int dt = OCF_F16; dt <= OCF_BF16; dt++)
    tune(env, (ocf_dtype)dt, "wgmma.align_rows=64 wgmma.sector_rows=0");
  for (int dt = OCF_F16; dt <= OCF_BF16; dt++) {
    const ocf_dtype type = (ocf_dtype)dt;
    mmx_case c = staged_case(OCF_PRECISION_FP32, 0, 0, 300, 520, 333);
    c.a_dtype = c.b_dtype = type;
    c.lda_pad = 3, c.ldb_pad = 8; /* lda 336 on chunks, ldb 528 off lines */
    c.nan_c = 1;
    check_staged(env, c);
    c = staged_case(OCF_PRECISION_FP32, 0, 1, 257, 300, 251); /* lda, ldb off chunks: A' too */
    c.a_dtype = c.b_dtype = type;
    c.alpha = 1.5f, c.beta = -0.5f;
    check_staged(env, c);
    c = staged_case(OCF_PRECISION_FP32, 1, 0, 260, 270, 256); /* A transposed */
    c.a_dtype = c.b_dtype = type;
    check_staged(env, c);
    c = staged_case(OCF_PRECISION_FP32, 0, 1, 201, 135, 136); /* offsets on chunks */
    c.a_dtype = c.b_dtype = type;
    c.a_off = 8, c.b_off = 16, c.c_off = 3, c.ldc_pad = 1;
    check_staged(env, c);
    for (int shared = 0; shared < 2; shared++) {
      c = staged_case(OCF_PRECISION_FP32, 0, shared, 150, 260, 300);
      c.a_dtype = c.b_dtype = type;
      check_staged(env, batch_of_three(c, shared));
    }
    c = staged_case(OCF_PRECISION_FP32, 0, 1, 270, 290, 260);
    c.a_dtype = c.b_dtype = type;
    c.layout = OCF_COL_MAJOR;
    c.beta = 0.5f;
    check_staged(env, c);
    c = staged_case(OCF_PRECISION_FP32, dt == OCF_BF16, 0, 260, 270, 200);
    c.a_dtype = c.b_dtype = type;
    c.activation = dt == OCF_BF16 ? OCF_ACTIVATION_GELU_TANH : OCF_ACTIVATION_SILU;
    c.bias_axis = dt == OCF_BF16 ? OCF_BIAS_N : OCF_BIAS_M;
    c.bias_dtype = type;
    c.c_dtype = type;
    c.alpha = 0.5f, c.beta = 0.25f;
    check_staged(env, c);
  }
  for (int dt = OCF_F16; dt <= OCF_BF16; dt++)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", (ocf_dtype)dt, NULL, ""),
                       OCF_SUCCESS);
}

/* The error against the unrounded inputs, in units of strict FP32's own tolerance
   (harness/reference_gemm.h), beside TF32 and FP32 on the same inputs: 3XTF32 within it. */
static void test_staged_error_vs_fp32(void **state) {
  ocft_env *env = ocft_get_env(state);
  staging_on(env);
  static const ocf_precision modes[] = {OCF_PRECISION_FP32, OCF_PRECISION_TF32,
                                        OCF_PRECISION_3XTF32};
  for (int t = 0; t < 4; t++) {
    double worst[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
      mmx_case c = staged_case(modes[i], t & 1, t >> 1, 384, 320, 1000);
      c.truncating_sum = i > 0;
      c.exact_inputs = 1;
      mmx_outcome out;
      mmx_check(env, &c, &out);
      worst[i] = out.worst_vs_fp32;
    }
    printf("ta %d tb %d 384 x 320 x 1000: worst |error| / FP32 tolerance: FP32 %.3g, TF32 %.3g, "
           "3XTF32 %.3g (%s)\n",
           t & 1, t >> 1, worst[0], worst[1], worst[2], ocf_last_plan());
    if (worst[2] > 1.0) {
      print_error("3XTF32 is not fp32-class: %.3g of FP32's tolerance\n", worst[2]);
      fail();
    }
  }
}

/* The layouts, offsets, batches, epilogues and 16-bit copies again with the wgmma step on its
   TMA-fed twin (wgmma.tma_copies=1: matmul_wgmma_tma_sb, _sab, _pb or _pab, the maps after the
   staged or copied operands in the scratch). */
static void test_staged_tma(void **state) {
  form_values = "wgmma.tma_copies=1";
  form_kernel = "matmul_wgmma_tma_";
  test_staged_layouts(state);
  test_staged_offsets_batches(state);
  test_staged_epilogue(state);
  test_staged_16bit(state);
  form_values = "wgmma.tma_copies=0";
  form_kernel = NULL;
  staging_on(ocft_get_env(state));
}

/* Few rows staged in one consumer's tiles (the H100's few_rows values: wgmma.one_consumer=1,
   128 columns in 6 stages; src/plan/plan_matmul_wgmma.c, rule 2): TF32 with B stored k x n and
   3XTF32, m <= 64 (one consumer at any fill) and 100 rows in 100 tiles of 64 x 128 (one wave of
   two thirds of the units or more on a card of 100 to 150 units: checked there), each at least
   256^3 products (the staging gate set below); the plan's wgmma step (the cp.async form, as
   tune() sets) must run 128 work-items, one consumer (test_plan_matmul_wgmma's
   test_few_rows_tiles plans the same calls). */
static void test_staged_one_consumer(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune(env, OCF_F32,
       "wgmma.stage_min=256 wgmma.tf32_stage_min=256 wgmma.bn=128 wgmma.stages=6 "
       "wgmma.one_consumer=1 wgmma.split_ranges=3");
  const mmx_case cases[] = {staged_case(OCF_PRECISION_TF32, 0, 0, 37, 2000, 333),
                            staged_case(OCF_PRECISION_TF32, 0, 0, 100, 6400, 300),
                            staged_case(OCF_PRECISION_3XTF32, 0, 1, 64, 1000, 300)};
  /* 100 tiles take one consumer where they are one wave of two thirds of the units at least */
  const cl_uint units = env->info.compute_units;
  const int hundred_fits = units >= 100 && 3 * 100 >= 2 * units;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
    check_staged(env, cases[i]);
    const char *plan = ocf_last_plan(); /* one consumer: the wgmma step's 128 work-items */
    const int one =
        strstr(plan, "matmul_wgmma_sb wg=128 ") || strstr(plan, "matmul_wgmma_sab wg=128 ");
    if ((cases[i].m <= 64 || hundred_fits) && !one) {
      print_error("%zu x %zu x %zu: ran %s, not one consumer\n", cases[i].m, cases[i].n, cases[i].k,
                  plan);
      fail();
    }
  }
  /* the context's resolved values again (""), then the suite's staging gates */
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, ""), OCF_SUCCESS);
  staging_on(env);
}

int main(void) {
  if (mmx_nvidia_compute_capability() != 90) {
    printf("no NVIDIA GPU of compute capability 9.0: test_matmul_staged skipped\n");
    return SKIP_STATUS;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_staged_layouts),      cmocka_unit_test(test_staged_offsets_batches),
      cmocka_unit_test(test_staged_epilogue),     cmocka_unit_test(test_staged_error_vs_fp32),
      cmocka_unit_test(test_staged_16bit),        cmocka_unit_test(test_staged_tma),
      cmocka_unit_test(test_staged_one_consumer),
  };
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  return cmocka_run_group_tests_name("matmul_staged", tests, ocft_group_setup, ocft_group_teardown);
}
