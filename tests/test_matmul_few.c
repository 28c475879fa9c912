/*
 * The few-row matrix-unit kernels (cl/matmul_few_mma.cl, src/plan/plan_matmul_few.c): 16-bit A
 * and B, C with 1 to 64 rows or columns, mma.sync m16n8k16; forced on through the context's
 * tuning (few.on=2: on NVIDIA after the mma probe, elsewhere the emulation of
 * cl/attention_mma_prims.clh, MMA_EMULATE 1; few.x_rows=1: every layout). The default is few.on=0,
 * off on every device until the H200 measures it. Runs on PoCL, under Oclgrind (small sizes) and,
 * with the same calls, on an NVIDIA GPU (the PTX primitives).
 *
 * Every call below must have run the few-row plan (ocf_last_plan), split or not as the case
 * says, and every output element and every untouched element of C is checked against
 * harness/reference_gemm.h with the 16-bit inputs exact in fp32 and the tolerance doubled for a
 * matrix unit's truncating sum (truncating_sum, as test_matmul_mma argues): ragged short sides
 * (1, 7, 16, 33, 64) both ways round (m few: the operands swapped), ragged long sides (not whole
 * tiles of 8 or row blocks) and k (not whole steps of 32 or elements groups of 8), every
 * transpose, offsets and leading dimensions multiples of 8 (16-byte loads: X_VEC, V_VEC) and odd
 * (element loads), a split K, batches over a shared operand, the epilogue (alpha, beta over a
 * NaN C at 0, a bias along either side in each type, activations, C in each type; alpha 0 is
 * k 0 to the planner, which leaves it to the skinny kernels); then the workgroup shapes (k warps,
 * tiles a warp, unroll) of the tunables.
 */
#include "matmul_check.h"

#include <stdio.h>
#include <string.h>

/* Sets the matmul tuning of both 16-bit types on the group's context (NULL: back to the
   defaults). */
static void tune(const ocft_env *env, const char *settings) {
  for (int dtype = OCF_F16; dtype <= OCF_BF16; dtype++)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", (ocf_dtype)dtype, NULL, settings),
                       OCF_SUCCESS);
}

/* few.max=64 and wgmma.on=0: the H200's built-in values keep the few-row kernels to 16 rows,
   and on Hopper the wgmma kernel takes aligned 16-bit calls first (plan_matmul.c, wgmma_first);
   these cases are for the few-row kernels at every short side up to 64. */
#define FEW_ON "few.on=2 few.max=64 few.x_rows=1 skinny.long_min=8 wgmma.on=0"

/* Runs a case, which must take the few-row kernels (split when `split` is 1, not when 0, either
   when -1), and checks it. */
static void check_few(const ocft_env *env, mmx_case t, int split) {
  t.truncating_sum = 1;
  t.nan_workspace = split == 1; /* the split's scratch is not zeroed */
  mmx_check(env, &t, NULL);
  const char *plan = ocf_last_plan();
  const int is_split = strstr(plan, "matmul_few_mma_split ") != NULL;
  const int is_few = strncmp(plan, "matmul_few_mma", 14) == 0;
  if (!is_few || (split >= 0 && is_split != split)) {
    char what[400];
    mmx_describe(&t, what, sizeof what);
    print_error("%s\n  ran %s, not the few-row plan%s\n", what, plan,
                split < 0 ? ""
                : split   ? " split"
                          : " unsplit");
    fail();
  }
}

static mmx_case few_case(int swapped, size_t few, size_t long_side, size_t k, ocf_dtype dtype) {
  mmx_case t = mmx_plain(swapped ? few : long_side, swapped ? long_side : few, k);
  t.a_dtype = t.b_dtype = dtype;
  return t;
}

/* Leading dimension pads that make both A's and B's multiples of 8 (aligned: 16-byte loads). */
static void align_8(mmx_case *t) {
  const size_t lda = t->ta ? t->m : t->k, ldb = t->tb ? t->k : t->n;
  t->lda_pad = (8 - lda % 8) % 8, t->ldb_pad = (8 - ldb % 8) % 8 + 8;
  t->a_off = 16, t->b_off = 8;
}

/* The short sides (1, 7, 16, 33, 64) both ways round, each with another transpose pair (the
   large operand X k-contiguous or not, V's too), aligned (16-byte loads where k-contiguous) or
   odd, bf16 and fp16, ragged long sides and k, beta 0 over a NaN C on some. */
static void test_few_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune(env, FEW_ON);
  /* short side, swapped (m few), ta, tb, aligned */
  static const int cases[][5] = {
      {1, 1, 0, 1, 1},  {1, 0, 1, 0, 0},  {7, 1, 1, 0, 1},  {7, 0, 0, 1, 0},  {16, 1, 0, 1, 0},
      {16, 0, 0, 0, 1}, {33, 1, 1, 1, 1}, {33, 0, 1, 1, 0}, {64, 1, 0, 0, 0}, {64, 0, 0, 1, 1}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
    if (ocft_small() && i % 3 != 0) continue;
    const int *c = cases[i];
    const size_t long_side = ocft_small() ? 27 : 77, k = ocft_small() ? 45 : 99;
    mmx_case t = few_case(c[1], (size_t)c[0], long_side, k, i % 2 ? OCF_F16 : OCF_BF16);
    t.ta = (ocf_transpose)c[2];
    t.tb = (ocf_transpose)c[3];
    if (c[4]) {
      align_8(&t);
    } else {
      t.lda_pad = 1, t.ldb_pad = 3, t.ldc_pad = 2;
      t.a_off = 1, t.b_off = 3, t.c_off = 5;
    }
    t.alpha = 0.75f;
    t.beta = i % 3 ? 0.5f : 0.0f;
    t.nan_c = t.beta == 0.0f;
    check_few(env, t, -1);
  }
  /* The inference layouts exactly: A m x k and B n x k (trans_b), aligned, m 1, 16, 64 (16: B
     k x n). */
  static const size_t shorts[] = {1, 16, 64};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shorts); s++) {
    mmx_case t = few_case(1, shorts[s], ocft_small() ? 40 : 136, ocft_small() ? 64 : 128,
                          s == 1 ? OCF_F16 : OCF_BF16);
    t.tb = s == 1 ? OCF_NO_TRANS : OCF_TRANS;
    align_8(&t);
    check_few(env, t, -1);
  }
  tune(env, NULL);
}

/* A long K split into ranges (matmul_few_mma_split, then _reduce), aligned and not, with beta
   and a bias; the splits' quantum (32 kw unroll) against a ragged k. */
static void test_few_split(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune(env, FEW_ON " few.fill=64 skinny.split_min=64");
  static const size_t shapes[][3] = {{1, 40, 1001}, {16, 24, 600}, {40, 33, 333}, {64, 9, 700}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
    if (ocft_small() && s % 2) continue;
    const int swapped = s != 3;
    mmx_case t = few_case(swapped, swapped ? shapes[s][0] : shapes[s][1],
                          swapped ? shapes[s][1] : shapes[s][0],
                          ocft_small() ? 259 + s : shapes[s][2], s % 2 ? OCF_F16 : OCF_BF16);
    t.tb = (ocf_transpose)(s % 2 == 0);
    t.ta = (ocf_transpose)(s == 2);
    if (s < 2) align_8(&t);
    t.beta = -0.5f;
    t.bias_axis = s % 2 ? OCF_BIAS_N : OCF_BIAS_M;
    t.bias_dtype = OCF_F32;
    check_few(env, t, 1);
  }
  tune(env, NULL);
}

/* Batches over a shared operand, the epilogue in each type, k = 1, a column-major caller. */
static void test_few_batch_epilogue(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune(env, FEW_ON);
  static const ocf_dtype ctypes[] = {OCF_F32, OCF_F16, OCF_BF16};
  for (int shared = 0; shared < 3; shared++) {
    if (ocft_small() && shared == 1) continue;
    mmx_case t = few_case(shared != 2, 7 + 9 * (size_t)shared, ocft_small() ? 20 : 50, 70,
                          shared == 1 ? OCF_F16 : OCF_BF16);
    t.tb = OCF_TRANS;
    t.batch = 3;
    t.stride_a = shared == 1 ? 0 : MMX_PACKED;
    t.stride_b = shared == 2 ? 0 : MMX_PACKED;
    t.stride_c = MMX_PACKED;
    t.c_dtype = ctypes[shared];
    t.bias_dtype = ctypes[(shared + 1) % 3];
    t.bias_axis = shared % 2 ? OCF_BIAS_M : OCF_BIAS_N;
    t.bias_off = 3;
    t.activation = (ocf_activation)(1 + shared);
    t.alpha = -1.25f;
    t.beta = 0.25f;
    check_few(env, t, 0);
  }
  mmx_case t = few_case(0, 3, 50, 1, OCF_F16);
  t.activation = OCF_ACTIVATION_SILU;
  check_few(env, t, -1);
  /* column-major callers: the short side swaps role */
  t = few_case(1, 9, 44, 50, OCF_BF16);
  t.layout = OCF_COL_MAJOR;
  t.tb = OCF_TRANS;
  check_few(env, t, -1);
  tune(env, NULL);
}

/* The workgroup shapes of the tunables: k warps summing in local memory, several tiles a warp,
   deeper unrolling, one warp. */
static void test_few_tunables(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const shapes[] = {
      "few.warps=4 few.kw=4 few.nt=1 few.unroll=1", "few.warps=2 few.kw=2 few.nt=4 few.unroll=2",
      "few.warps=8 few.kw=2 few.nt=2 few.unroll=4", "few.warps=1 few.kw=1 few.nt=3 few.unroll=1"};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++) {
    if (ocft_small() && i == 2) continue;
    char settings[200];
    snprintf(settings, sizeof settings, "%s %s", FEW_ON, shapes[i]);
    tune(env, settings);
    mmx_case t = few_case(i % 2 == 0, i % 2 ? 20 : 33, ocft_small() ? 30 : 70,
                          ocft_small() ? 100 : 200, i % 2 ? OCF_F16 : OCF_BF16);
    t.tb = OCF_TRANS;
    if (i < 2) align_8(&t);
    t.beta = 1.0f;
    check_few(env, t, -1);
  }
  tune(env, NULL);
}

/* Off by default: the same 16-bit call runs the skinny or tiled kernels. */
static void test_few_off_by_default(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune(env, NULL);
  mmx_case t = few_case(1, 16, 64, 64, OCF_BF16);
  mmx_check(env, &t, NULL);
  assert_null(strstr(ocf_last_plan(), "matmul_few_mma"));
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_few_shapes),         cmocka_unit_test(test_few_split),
      cmocka_unit_test(test_few_batch_epilogue), cmocka_unit_test(test_few_tunables),
      cmocka_unit_test(test_few_off_by_default),
  };
  return cmocka_run_group_tests_name("matmul_few", tests, ocft_group_setup, ocft_group_teardown);
}
