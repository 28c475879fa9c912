/*
 * The matmul plans that join their K ranges in the launch that computes them (cl/join.clh: each
 * range counts in at its block's counter, and the block's last range to arrive joins the
 * block), forced on through the context's tuning, on a device whose joins have fences (CPUs,
 * NVIDIA; on any other the planner keeps the split plan with its reduce, and the cases still
 * run):
 *
 * Stream-K (src/plan/plan_matmul.c, rule 4's tiled.stream: matmul_tiled_stream in place of
 * matmul_tiled_split + matmul_reduce), with small tiles (16 x 32, K slices of 8) and K splits
 * asked of every call (tiled.fill and tiled.split_fill 64). tiled.stream, the workgroups a
 * compute unit, takes several values over the same shapes, so that the workgroups' equal ranges
 * of K slices cut the tiles at many places: ranges of several whole tiles (no join), a tile over
 * two ranges and over many, ranges within one tile, one or two slices a range. Ragged m, n, k
 * around the tiles, every transpose pair, offsets and leading dimensions off 4, alpha and beta
 * (C NaN for beta 0), and the scratch NaN (every part a join reads must have been written); a
 * batch whose tiles run on across products, the epilogue (bias either way, an activation, a
 * 16-bit C and 16-bit operands), the precision modes; the workspace: the size query reports the
 * parts' slots, a workspace of exactly that size is used, one too small for two slots runs the
 * split plan.
 *
 * The skinny split in one launch (rule 2's skinny.join: matmul_skinny_join in place of
 * matmul_skinny_split + matmul_skinny_reduce), K split wherever two ranges of 32 fit
 * (skinny.fill 64, skinny.split_min 32, skinny.long_min 16): matrix-vector products and short sides
 * up to 16 (the wide path), every transpose pair, both orientations, batches, 16-bit operands, the
 * epilogue; skinny.join's edge (the widest short side joined: 4 joins, 5 does not).
 *
 * Every output element and every untouched element of C is checked against
 * harness/reference_gemm.h (tests/matmul_check.c). The calls run one after another on the
 * context's queue: each finds the counters at zero only if the one before left them so (a block
 * never joined would leave its C untouched).
 *
 * Under Oclgrind the suite runs with its memory checks but not its race check (the ctest entry
 * says so): a join reads what other workgroups wrote, which OpenCL 1.2 cannot order, and the
 * planner takes these plans only where the device orders it (docs/GEMM.md, "Mid sizes:
 * stream-K").
 */
#include "matmul_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The suite's tiles: 16 x 32 (4 x 8 work-items of 4 x 4), K slices of 8; K split wherever two
   ranges of 16 fit, ranges of a slice allowed. */
#define STREAM_SET                                                                            \
  "tiled.set0.mdimc=4 tiled.set0.ndimc=8 tiled.set0.mwi=4 tiled.set0.nwi=4 tiled.set0.kwg=8 " \
  "tiled.set0.vwm=2 tiled.set0.vwn=4 tiled.set0.pada=4 tiled.set0.padb=4 tiled.set1.mdimc=0 " \
  "tiled.set2.mdimc=0 tiled.set3.mdimc=0 tiled.min_eff=1 tiled.fill=64 tiled.split_fill=64 "  \
  "tiled.split_k_min=16 tiled.split_max=16 tiled.wave_k_min=8 tiled.pad_min=0 mma.on=0 "      \
  "wgmma.on=0 few.on=0 skinny.max=0"
#define STREAM_MWG 16
#define STREAM_NWG 32

/* Sets the suite's tuning with tiled.stream = `per_unit` for every input type (-1: back to the
   resolved values). */
static void tune_stream(const ocft_env *env, int per_unit) {
  char values[640];
  snprintf(values, sizeof values, "%s tiled.stream=%d", STREAM_SET, per_unit);
  mmx_tune(env, per_unit < 0 ? NULL : values);
}

/* Whether the device orders a join (ocf_plan_join_fences): a CPU, or NVIDIA from 7.0. */
static int joins_ordered(const ocft_env *env) {
  return (env->info.type & CL_DEVICE_TYPE_CPU) || env->info.nv_compute_capability_major >= 7;
}

/* Runs and checks a case, which must have run the kernel `joined` (its name and a space, as
   plans print it) where the device orders joins, and `unjoined` elsewhere. */
static void check_joined(const ocft_env *env, const mmx_case *c, const char *joined,
                         const char *unjoined) {
  mmx_check(env, c, NULL);
  const char *want = joins_ordered(env) ? joined : unjoined;
  if (!strstr(ocf_last_plan(), want)) {
    char what[400];
    mmx_describe(c, what, sizeof what);
    print_error("%s\n  ran %s, not %s\n", what, ocf_last_plan(), want);
    fail();
  }
}

/* The stream plan where the device orders joins, the split plan elsewhere. */
static void check_stream(const ocft_env *env, const mmx_case *c) {
  check_joined(env, c, "matmul_tiled_stream ", "matmul_tiled_split ");
}

static mmx_case stream_case(int ta, int tb, size_t m, size_t n, size_t k) {
  mmx_case c = mmx_plain(m, n, k);
  c.ta = ta ? OCF_TRANS : OCF_NO_TRANS;
  c.tb = tb ? OCF_TRANS : OCF_NO_TRANS;
  c.nan_workspace = 1;
  return c;
}

/* Case `at` of a sweep over shapes (m, n, k): the transpose pair at's; on odd cases operands at
   offsets and leading dimensions off 4 with alpha and beta, on even ones beta 0 over a NaN C. */
static mmx_case sweep_case(size_t at, const size_t shape[3]) {
  mmx_case c = stream_case(at % 2, at / 2 % 2, shape[0], shape[1], shape[2]);
  if (at % 2) {
    c.a_off = 1, c.b_off = 3, c.lda_pad = 1, c.ldb_pad = 2, c.ldc_pad = 3;
    c.alpha = 0.5f, c.beta = -1.25f;
  } else {
    c.nan_c = 1;
  }
  return c;
}

/* Ragged shapes over the tiles (m and n at tiles -1, 0, +1; k off the slices, k whole, k of
   two ranges) for tiled.stream 2, 3, 5 and 16, as sweep_case lays them out. */
static void test_stream_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][3] = {{2 * STREAM_MWG + 1, 2 * STREAM_NWG - 1, 75},
                                     {3 * STREAM_MWG, 2 * STREAM_NWG, 64},
                                     {STREAM_MWG - 3, 3 * STREAM_NWG + 5, 121},
                                     {5, 7, 33},
                                     {4 * STREAM_MWG - 1, STREAM_NWG + 1, 250}};
  /* 2 and more: at least two workgroups on a device of one compute unit (Oclgrind) */
  static const int per_unit[] = {2, 3, 5, 16};
  const size_t shape_count = ocft_small() ? 3 : OCF_ARRAY_LEN_T(shapes);
  size_t at = 0;
  for (size_t u = 0; u < OCF_ARRAY_LEN_T(per_unit); u++) {
    tune_stream(env, per_unit[u]);
    for (size_t s = 0; s < shape_count; s++, at++) {
      const mmx_case c = sweep_case(at, shapes[s]);
      check_stream(env, &c);
    }
  }
  tune_stream(env, -1);
}

/* A batch of three (its tiles run on from one product into the next within a range), A shared
   between products; the epilogue (bias along n in bf16 or along m in fp32, GELU or SiLU, fp16
   or bf16 C, beta), 16-bit operands, and the precision modes. */
static void test_stream_batch_epilogue(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune_stream(env, 5);
  for (int shared = 0; shared < 2; shared++) {
    mmx_case c = stream_case(shared, !shared, 2 * STREAM_MWG + 3, STREAM_NWG + 9, 70);
    c.batch = 3;
    c.stride_a = shared ? 0 : MMX_PACKED;
    c.stride_b = c.stride_c = MMX_PACKED;
    c.activation = shared ? OCF_ACTIVATION_SILU : OCF_ACTIVATION_GELU_TANH;
    c.bias_axis = shared ? OCF_BIAS_M : OCF_BIAS_N;
    c.bias_dtype = shared ? OCF_F32 : OCF_BF16;
    c.bias_off = 3;
    c.c_dtype = shared ? OCF_BF16 : OCF_F16;
    c.beta = shared ? 0.5f : 0.0f;
    check_stream(env, &c);
  }
  mmx_case c = stream_case(0, 1, 3 * STREAM_MWG - 5, 2 * STREAM_NWG + 3, 90);
  c.a_dtype = OCF_F16, c.b_dtype = OCF_BF16;
  check_stream(env, &c);
  for (int p = OCF_PRECISION_TF32; p <= OCF_PRECISION_3XTF32; p++) {
    c = stream_case(p == OCF_PRECISION_TF32, 0, 2 * STREAM_MWG + 5, 2 * STREAM_NWG - 3, 77);
    c.precision = (ocf_precision)p;
    check_stream(env, &c);
  }
  tune_stream(env, -1);
}

/* The workspace: the size query reports the parts' slots; a workspace of exactly that size,
   NaN in every float, is used (the stream plan, right); one too small for two workgroups' slots
   runs the split plan's (too small for its partial sums too: K whole, unsplit). */
static void test_stream_workspace(void **state) {
  ocft_env *env = ocft_get_env(state);
  if (!joins_ordered(env)) skip();
  tune_stream(env, 3);
  mmx_case c = stream_case(0, 0, 2 * STREAM_MWG + 1, 2 * STREAM_NWG + 1, 99);
  c.nan_workspace = 0;
  const size_t bytes = mmx_workspace_size(env, &c);
  const size_t slots = 2 * STREAM_MWG * STREAM_NWG * sizeof(float);
  if (bytes < 2 * slots || bytes % slots != 0) {
    print_error("the workspace query reports %zu bytes for slots of %zu\n", bytes, slots);
    fail();
  }
  cl_mem ws = ocft_nan_buffer(env, bytes);
  c.workspace = ws, c.workspace_size = bytes;
  check_stream(env, &c);
  c.workspace_size = 2 * slots - 1;
  mmx_check(env, &c, NULL);
  if (strstr(ocf_last_plan(), "matmul_tiled_stream")) {
    print_error("a workspace short of two workgroups' slots ran %s\n", ocf_last_plan());
    fail();
  }
  clReleaseMemObject(ws);
  tune_stream(env, -1);
}

/* ---- the skinny split in one launch ---- */

/* skinny.join for short sides up to `widest` (0: back to the resolved values), K split wherever
   two ranges of 32 fit, long sides from 16 on (NVIDIA's row takes the skinny kernels from 256). */
static void tune_skinny_join(const ocft_env *env, int widest) {
  char values[160];
  snprintf(values, sizeof values,
           "skinny.join=%d skinny.fill=64 skinny.split_min=32 skinny.long_min=16 few.on=0 "
           "wgmma.on=0",
           widest);
  mmx_tune(env, widest ? values : NULL);
}

/* matmul_skinny_join where the device orders joins, the split with its reduce elsewhere. */
static void check_skinny_join(const ocft_env *env, const mmx_case *c) {
  check_joined(env, c, "matmul_skinny_join ", "matmul_skinny_reduce ");
}

/* Matrix-vector products both ways and short sides of 3 to 16 (the wide path from 8), rows past
   a row block and short of one, ragged K, as sweep_case lays them out, a NaN scratch. */
static void test_skinny_join_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune_skinny_join(env, 16);
  static const size_t shapes[][3] = {{1, 300, 1000}, {257, 1, 999},  {5, 130, 777},
                                     {70, 3, 2048},  {16, 200, 301}, {11, 37, 1500}};
  const size_t count = ocft_small() ? 4 : OCF_ARRAY_LEN_T(shapes);
  for (size_t s = 0; s < count; s++) {
    const mmx_case c = sweep_case(s, shapes[s]);
    check_skinny_join(env, &c);
  }
  tune_skinny_join(env, 0);
}

/* A batch over a shared vector with a bias and an activation, 16-bit operands with a 16-bit C,
   and column-major (BLAS gemv). */
static void test_skinny_join_batch_epilogue(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune_skinny_join(env, 16);
  mmx_case c = stream_case(0, 0, 3, 150, 600);
  c.batch = 3;
  c.stride_a = 0, c.stride_b = c.stride_c = MMX_PACKED;
  c.bias_axis = OCF_BIAS_N, c.bias_dtype = OCF_F16, c.bias_off = 2;
  c.activation = OCF_ACTIVATION_RELU;
  c.beta = 0.5f;
  check_skinny_join(env, &c);
  c = stream_case(1, 1, 9, 100, 500);
  c.a_dtype = OCF_BF16, c.b_dtype = OCF_BF16, c.c_dtype = OCF_BF16;
  c.bias_axis = OCF_BIAS_M, c.bias_dtype = OCF_F32;
  c.activation = OCF_ACTIVATION_SILU;
  check_skinny_join(env, &c);
  c = stream_case(0, 0, 200, 1, 700);
  c.layout = OCF_COL_MAJOR;
  c.lda_pad = 3;
  check_skinny_join(env, &c);
  tune_skinny_join(env, 0);
}

/* skinny.join's edge: with 4, a short side of 4 joins and one of 5 keeps the split and its
   reduce, either way m or n; both right. */
static void test_skinny_join_widest(void **state) {
  ocft_env *env = ocft_get_env(state);
  tune_skinny_join(env, 4);
  static const size_t shapes[][3] = {{4, 300, 1000}, {300, 5, 1000}, {5, 130, 777}, {131, 4, 777}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
    const mmx_case c = sweep_case(s, shapes[s]);
    const size_t short_side = shapes[s][0] < shapes[s][1] ? shapes[s][0] : shapes[s][1];
    if (short_side <= 4)
      check_skinny_join(env, &c);
    else
      check_joined(env, &c, "matmul_skinny_reduce ", "matmul_skinny_reduce ");
  }
  tune_skinny_join(env, 0);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stream_shapes),
      cmocka_unit_test(test_stream_batch_epilogue),
      cmocka_unit_test(test_stream_workspace),
      cmocka_unit_test(test_skinny_join_shapes),
      cmocka_unit_test(test_skinny_join_batch_epilogue),
      cmocka_unit_test(test_skinny_join_widest),
  };
  return cmocka_run_group_tests_name("matmul_joins", tests, ocft_group_setup, ocft_group_teardown);
}
