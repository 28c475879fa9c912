/*
 * ocf_matmul_ex's padded tiled plans, the ragged path (src/plan/plan_matmul.c, rule 5:
 * cl/matmul_pad.cl, then matmul_tiled_pad of cl/matmul.cl), forced on through the context's
 * tuning (tiled.pad_min=1 tiled.pad_sides=0: every call with an fp32 A or B off aligned vector
 * loads; the schema's pad_min is 0, off; NVIDIA's built-in values copy only for whole tiles). Runs
 * everywhere, Oclgrind included.
 *
 * Every call below must have run the padded plan, with the copies the case implies (A_PAD,
 * B_PAD in ocf_last_plan), and every output element and every untouched element of C is checked
 * against harness/reference_gemm.h with the suites' tolerances (tests/matmul_check.c): ragged m,
 * n, k around the tile sizes, every transpose pair, leading dimensions and offsets that deny
 * vector loads to A, to B or to both (C's too), batch strides off 4 and A shared, column-major
 * callers, the epilogue (bias either way in each type, every activation, every C type, alpha
 * and beta, C poisoned for beta 0), the precision modes (SIMT here), a 16-bit operand beside a
 * copied fp32 one. Then the workspace: ocf_matmul_workspace_size reports the copies, a caller's
 * workspace of exactly that size is used, one byte short sends the call to the unpadded plan,
 * right all the same. Then the copy kernel alone, bit for bit against the host's copy, the zeros
 * included, nothing outside the copies touched.
 *
 * The suite runs twice: as "matmul_pad" with tiled.rim=0 (one kernel body, run-time guards) and
 * as "matmul_pad_rim" with tiled.rim=1 (whole tiles and rim tiles in two bodies, K's partial
 * slice peeled, C's vector stores where its rows allow); the second adds the shapes a tile's
 * edges make (tile - 1, tile, tile + 1 along m, n and k, k odd) on the padded kernel and on the
 * mixed one, whose plans must carry RIM=1, and on the split kernel with tiled.rim=2.
 */
#include "matmul_check.h"

#include "kernels/kernels.h"
#include "plan/plan.h"
#include "runtime/launch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Turns the padded plans on for every call of the group's context (tiled.pad_min=1, whatever
   the sides: tiled.pad_sides=0, where NVIDIA's built-in 1 would copy for sides of multiples of 4
   only), for misaligned operands only (tiled.pad_waves=0: NVIDIA's built-in 2 would copy aligned
   operands across a rim too, test_pad_few_waves's subject), and
   the matrix units off (mma.on=0 wgmma.on=0), which would otherwise take TF32, 3XTF32 and 16-bit
   calls on NVIDIA (the H200 ran this suite's TF32 case on matmul_mma, 2026-12-02). */
/* tiled.rim of this run of the group (main runs it with 0, then 1). */
static int rim_on;

static void padding_on(const ocft_env *env) {
  char values[128];
  snprintf(values, sizeof values,
           "tiled.pad_min=1 tiled.pad_sides=0 tiled.pad_waves=0 tiled.rim=%d mma.on=0 wgmma.on=0",
           rim_on);
  mmx_tune(env, values);
}

/* Whether the last plan is the padded one with these copies (-1: either). */
static int ran_padded(int pad_a, int pad_b) {
  const char *plan = ocf_last_plan();
  if (strncmp(plan, "matmul_pad ", 11) != 0 || !strstr(plan, "matmul_tiled_pad ")) return 0;
  char want[16];
  snprintf(want, sizeof want, "-DA_PAD=%d ", pad_a);
  if (pad_a >= 0 && !strstr(plan, want)) return 0;
  snprintf(want, sizeof want, "-DB_PAD=%d ", pad_b);
  if (pad_b >= 0 && !strstr(plan, want)) return 0;
  snprintf(want, sizeof want, "-DRIM=%d ", rim_on);
  return strstr(plan, want) != NULL;
}

/* Runs and checks a case, which must have run the padded plan with these copies. */
static void check_padded(const ocft_env *env, const mmx_case *t, int pad_a, int pad_b) {
  mmx_check(env, t, NULL);
  if (!ran_padded(pad_a, pad_b)) {
    char what[400];
    mmx_describe(t, what, sizeof what);
    print_error("%s\n  ran %s, not the padded plan with A_PAD=%d B_PAD=%d\n", what, ocf_last_plan(),
                pad_a, pad_b);
    fail();
  }
}

static mmx_case pad_case(int ta, int tb, size_t m, size_t n, size_t k) {
  mmx_case t = mmx_plain(m, n, k);
  t.ta = ta ? OCF_TRANS : OCF_NO_TRANS;
  t.tb = tb ? OCF_TRANS : OCF_NO_TRANS;
  return t;
}

/* Every transpose pair on ragged shapes (below, across and at the tile sizes; k below the
   split-K threshold), both operands copied (offsets off 4), C's leading dimension off 4 too. */
static void test_pad_layouts(void **state) {
  ocft_env *env = ocft_get_env(state);
  padding_on(env);
  static const size_t shapes[][3] = {
      {67, 45, 70}, {130, 97, 33}, {64, 64, 64}, {5, 3, 1}, {33, 129, 127}};
  const size_t count = ocft_small() ? 3 : sizeof shapes / sizeof shapes[0];
  for (int t = 0; t < 4; t++)
    for (size_t s = 0; s < count; s++) {
      /* Under Oclgrind (small sizes) half of them: each transpose pair on one or two shapes,
         each shape in two (the simulation took a minute for the twelve). */
      if (ocft_small() && (t + s) % 2) continue;
      mmx_case c = pad_case(t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2]);
      /* offsets off 4 whatever the leading dimensions (which vary) */
      c.a_off = 1, c.b_off = 2;
      c.lda_pad = 1 + 2 * (s % 2), c.ldb_pad = 3, c.ldc_pad = s % 2;
      if (s % 2) {
        c.alpha = 1.5f, c.beta = -0.5f;
      } else {
        c.nan_c = 1;
      }
      check_padded(env, &c, 1, 1);
    }
}

/* One operand copied, the other read as it lies (aligned, or 16-bit), through its leading
   dimension or its offset; C's offset and leading dimension odd. */
static void test_pad_one_operand(void **state) {
  ocft_env *env = ocft_get_env(state);
  padding_on(env);
  for (int t = 0; t < 4; t++) {
    /* A's rows off 4; B's aligned (n and k multiples of 4), so left as it lies. */
    mmx_case c = pad_case(t & 1, t >> 1, 70, 68, 52);
    c.lda_pad = 1;
    c.c_off = 1, c.ldc_pad = 3;
    check_padded(env, &c, 1, 0);
    /* B off by its offset only. */
    c = pad_case(t & 1, t >> 1, 72, 70, 60);
    c.b_off = 5;
    c.beta = 0.25f;
    check_padded(env, &c, 0, 1);
  }
  /* A in fp16 (never copied) beside a copied fp32 B, and the other way round. */
  mmx_case c = pad_case(0, 1, 65, 66, 67);
  c.a_dtype = OCF_F16;
  c.ldb_pad = 2;
  check_padded(env, &c, 0, 1);
  c = pad_case(1, 0, 65, 66, 67);
  c.b_dtype = OCF_BF16;
  c.a_off = 3;
  check_padded(env, &c, 1, 0);
}

/* Strided batches: strides off 4, A shared (stride 0), packed C; column-major callers. (Every
   call of this suite keeps its copies within 64 KiB, which the library's own scratch zeroes from
   the host: Oclgrind 21.10 misreports a fresh buffer that reuses freed memory; see
   src/runtime/workspace.c.) */
static void test_pad_batches_col_major(void **state) {
  ocft_env *env = ocft_get_env(state);
  padding_on(env);
  for (int shared = 0; shared < 2; shared++) {
    mmx_case c = pad_case(shared, !shared, 30, 37, 21);
    c.batch = 3;
    c.lda_pad = 1;
    /* A's rows: (k x m) transposed or (m x k); one float more than the matrix apart */
    c.stride_a =
        shared ? 0 : (c.ta ? (c.k - 1) * (c.m + 1) + c.m : (c.m - 1) * (c.k + 1) + c.k) + 1;
    c.stride_b = c.stride_c = MMX_PACKED; /* multiples of 4: B copied only for its ldb */
    c.ldb_pad = shared ? 2 : 0;
    c.beta = shared ? 0.5f : 0.0f;
    check_padded(env, &c, 1, shared ? 1 : -1);
  }
  /* A batch whose only misalignment is B's stride. */
  mmx_case c = pad_case(0, 0, 40, 44, 48);
  c.batch = 2;
  c.stride_b = 48 * 44 + 1;
  c.stride_a = c.stride_c = MMX_PACKED;
  check_padded(env, &c, 0, 1);
  /* Column-major: the row-major problem the kernels run has A and B swapped. */
  for (int t = 0; t < 4; t++) {
    c = pad_case(t & 1, t >> 1, 66, 71, 53);
    c.layout = OCF_COL_MAJOR;
    c.a_off = 1, c.b_off = 2;
    c.lda_pad = 1, c.ldb_pad = 2;
    c.beta = 0.5f;
    check_padded(env, &c, 1, 1);
  }
}

/* Every activation, a bias along n and m in each type, every C type, the precision modes. */
static void test_pad_epilogue_precision(void **state) {
  ocft_env *env = ocft_get_env(state);
  padding_on(env);
  for (int act = OCF_ACTIVATION_NONE; act <= OCF_ACTIVATION_SILU; act++) {
    mmx_case c = pad_case(act % 2, act / 2 % 2, 70, 66, 47);
    c.a_off = 1, c.b_off = 3;
    c.activation = (ocf_activation)act;
    c.bias_axis = act % 2 ? OCF_BIAS_N : OCF_BIAS_M;
    c.bias_dtype = (ocf_dtype)(act % 3);
    c.bias_off = 5;
    c.c_dtype = (ocf_dtype)((act + 1) % 3);
    c.beta = act % 2 ? 0.75f : 0.0f;
    check_padded(env, &c, 1, 1);
  }
  for (int p = OCF_PRECISION_TF32; p <= OCF_PRECISION_3XTF32; p++) {
    mmx_case c = pad_case(p == OCF_PRECISION_TF32, 0, 69, 70, 71);
    c.precision = (ocf_precision)p;
    c.a_off = 1, c.ldb_pad = 3;
    check_padded(env, &c, 1, 1);
  }
}

/* The workspace: the size query reports the copies; a workspace of exactly that size is used,
   one byte short runs the unpadded plan; both right. Then the gate: pad_min above the call's
   products leaves it unpadded. */
static void test_pad_workspace(void **state) {
  ocft_env *env = ocft_get_env(state);
  padding_on(env);
  mmx_case c = pad_case(0, 1, 70, 90, 61);
  c.lda_pad = 1, c.ldb_pad = 1;
  const size_t bytes = mmx_workspace_size(env, &c);
  /* A' 70 rows (whole tiles) x 64 floats (k whole K slices) and B' likewise, at least */
  if (bytes < (70 + 90) * 64 * sizeof(float)) {
    print_error("the workspace query reports %zu bytes for the copies\n", bytes);
    fail();
  }
  /* NaN in every float: a float of the copies that matmul_pad did not write would show in C */
  cl_mem ws = ocft_nan_buffer(env, bytes);
  c.workspace = ws, c.workspace_size = bytes;
  check_padded(env, &c, 1, 1);
  c.workspace_size = bytes - 1;
  mmx_check(env, &c, NULL);
  if (strstr(ocf_last_plan(), "matmul_pad")) {
    print_error("a workspace one byte short ran %s\n", ocf_last_plan());
    fail();
  }
  c.workspace = NULL, c.workspace_size = 0;
  clReleaseMemObject(ws);
  /* 70 * 90 * 61 products: below 100^3 */
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, "tiled.pad_min=100"),
                     OCF_SUCCESS);
  mmx_check(env, &c, NULL);
  if (strstr(ocf_last_plan(), "matmul_pad")) {
    print_error("pad_min 100 padded 70 x 90 x 61: %s\n", ocf_last_plan());
    fail();
  }
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, NULL), OCF_SUCCESS);
}

/* tiled.pad_waves: a call of at most pad_waves tiles a compute unit copies every fp32 operand
   that spans a rim though it is aligned, on the sides pad_sides allows (1 here: multiples of 4):
   m, n and k multiples of 4 (every leading dimension aligned, either transpose) but off the tiles
   copy both, a 16-bit B stays as it lies, a batch counts its tiles; a side off 4 keeps the mixed
   kernel, and so does a call of more tiles than the device has compute units with pad_waves
   1. */
static void test_pad_few_waves(void **state) {
  ocft_env *env = ocft_get_env(state);
  char values[160];
  snprintf(values, sizeof values,
           "tiled.pad_min=1 tiled.pad_sides=1 tiled.pad_waves=64 tiled.rim=%d mma.on=0 wgmma.on=0",
           rim_on);
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, values),
                     OCF_SUCCESS);
  /* (Oclgrind, OCLFUSE_TEST_SMALL: smaller sides, still off every tile) */
  const size_t m = ocft_small() ? 36 : 68, n = ocft_small() ? 40 : 72, k = ocft_small() ? 28 : 52;
  for (int t = 0; t < 4; t++) {
    mmx_case c = pad_case(t & 1, t >> 1, m, n, k);
    c.beta = t % 2 ? 0.5f : 0.0f;
    c.nan_c = t % 2 == 0;
    check_padded(env, &c, 1, 1);
  }
  mmx_case c = pad_case(0, 1, 68, 36, 44);
  c.b_dtype = OCF_BF16;
  check_padded(env, &c, 1, 0);
  c = pad_case(1, 0, 36, 40, 28);
  c.batch = 3;
  c.stride_a = c.stride_b = c.stride_c = MMX_PACKED;
  check_padded(env, &c, 1, 1);
  /* m 37: off 4 */
  c = pad_case(0, 0, 37, 40, 28);
  mmx_check(env, &c, NULL);
  if (strstr(ocf_last_plan(), "matmul_pad") || !strstr(ocf_last_plan(), "matmul_tiled_mixed ")) {
    print_error("37 x 40 x 28 with pad_sides 1 ran %s\n", ocf_last_plan());
    fail();
  }
  /* a product of one tile more than the device has compute units (200 on the H200's 132) */
  cl_uint units = 0;
  ocft_assert_status(
      clGetDeviceInfo(env->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
      CL_SUCCESS);
  snprintf(values, sizeof values,
           "tiled.pad_min=1 tiled.pad_sides=1 tiled.pad_waves=1 tiled.rim=%d mma.on=0 wgmma.on=0",
           rim_on);
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, values),
                     OCF_SUCCESS);
  c = pad_case(0, 0, 36, 20, 4);
  c.batch = (size_t)units + 1;
  c.stride_a = c.stride_b = c.stride_c = MMX_PACKED;
  mmx_check(env, &c, NULL);
  if (strstr(ocf_last_plan(), "matmul_pad") || !strstr(ocf_last_plan(), "matmul_tiled_mixed ")) {
    print_error("%zu tiles with pad_waves 1 ran %s\n", c.batch, ocf_last_plan());
    fail();
  }
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, NULL), OCF_SUCCESS);
}

/* ---- tile edges (tiled.rim=1) ---- */

/* The value of -DNAME=value in the last plan (-1: none). */
static long plan_value(const char *name) {
  char key[32];
  snprintf(key, sizeof key, "-D%s=", name);
  const char *at = strstr(ocf_last_plan(), key);
  return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

/* One tile set for this test, the others off, so that the shapes below sit at its edges on
   every device: 16 x 32 tiles (4 x 8 work-items of 4 x 4), K slices of 8, C stored 4 wide. */
#define EDGE_MWG 16
#define EDGE_NWG 32
#define EDGE_KWG 8
#define EDGE_SET                                                                              \
  "tiled.set0.mdimc=4 tiled.set0.ndimc=8 tiled.set0.mwi=4 tiled.set0.nwi=4 tiled.set0.kwg=8 " \
  "tiled.set0.vwm=2 tiled.set0.vwn=4 tiled.set0.pada=4 tiled.set0.padb=4 tiled.set1.mdimc=0 " \
  "tiled.set2.mdimc=0 tiled.set3.mdimc=0 tiled.split_k_min=0 tiled.min_eff=1 "                \
  "tiled.mixed_c_check=1"

/* Case `at` of an edge sweep: m and n at two of the test's tiles + dm, + dn, K k, the transpose
   pair at's, alpha 0.5 and beta -1.25 on odd cases, beta 0 over a NaN C on even ones. */
static mmx_case edge_case(size_t at, int dm, int dn, size_t k) {
  const int ta = at % 4 & 1, tb = at % 4 >> 1;
  mmx_case c = pad_case(ta, tb, (size_t)(2 * EDGE_MWG + dm), (size_t)(2 * EDGE_NWG + dn), k);
  if (at % 2) {
    c.alpha = 0.5f, c.beta = -1.25f;
  } else {
    c.nan_c = 1;
  }
  return c;
}

/* The last plan ran the test's tiles and K slices (so that the sweep's shapes are its edges). */
static void expect_edge_tiles(const char *what) {
  if (plan_value("MDIMC") * plan_value("MWI") != EDGE_MWG ||
      plan_value("NDIMC") * plan_value("NWI") != EDGE_NWG || plan_value("KWG") != EDGE_KWG) {
    print_error("%s\n  ran %s, not the test's tiles\n", what, ocf_last_plan());
    fail();
  }
}

/* m, n at two tiles -1, 0, +1 (a whole interior tile beside rim tiles, or every tile whole), k
   at two K slices -1, 0, +1 and below one slice (odd), every transpose pair in turn; once on the
   padded kernel (A and B copied: offsets off 4) and once on the mixed one (A and B aligned as
   they lie: leading dimensions rounded up to 4, offsets 0), C tight (its rows off 16 bytes when
   n is odd: the whole tiles' 4-wide stores only where a row allows them) or at an odd offset,
   beta 0 (C NaN first) or not. Each plan must be the one meant (RIM=1 on the padded and mixed
   kernels, 0 on the fast one) with the test's tile, so that the shapes are the tile's edges;
   tiled.mixed_c_check=1 (NVIDIA's) builds the mixed kernel's rim body with C_VEC 0, so that its
   stores check C's alignment at run time, aligned rows included. */
static void test_rim_tile_edges(void **state) {
  ocft_env *env = ocft_get_env(state);
  padding_on(env);
  mmx_tune(env, EDGE_SET);
  const size_t ks[] = {2 * EDGE_KWG - 1, 2 * EDGE_KWG, 2 * EDGE_KWG + 1, EDGE_KWG / 2 + 1};
  const size_t k_count = ocft_small() ? 2 : 4;
  size_t at = 0;
  for (int padded = 1; padded >= 0; padded--)
    for (int dm = -1; dm <= 1; dm++)
      for (int dn = -1; dn <= 1; dn++)
        for (size_t ki = 0; ki < k_count; ki++, at++) {
          mmx_case c = edge_case(at, dm, dn, ks[(ki + at) % k_count]);
          if (padded) {
            c.a_off = 1, c.b_off = 3;
          } else {
            /* tight leading dimensions rounded up to 4: A, B aligned as they lie */
            const size_t lda = c.ta == OCF_TRANS ? c.m : c.k, ldb = c.tb == OCF_TRANS ? c.k : c.n;
            c.lda_pad = (4 - lda % 4) % 4, c.ldb_pad = (4 - ldb % 4) % 4;
          }
          c.c_off = at % 3 == 0 ? 1 : 0;
          char what[400];
          mmx_describe(&c, what, sizeof what);
          if (padded) {
            check_padded(env, &c, 1, 1);
          } else {
            mmx_check(env, &c, NULL);
            const int mixed = strstr(ocf_last_plan(), "matmul_tiled_mixed ") != NULL;
            if (!mixed && !strstr(ocf_last_plan(), "matmul_tiled_fast ")) {
              print_error("%s\n  ran %s, not the mixed (or fast) kernel\n", what, ocf_last_plan());
              fail();
            }
            if (plan_value("RIM") != mixed) {
              print_error("%s\n  ran %s: RIM should be %d\n", what, ocf_last_plan(), mixed);
              fail();
            }
            if (mixed && rim_on && plan_value("C_VEC") != 0) {
              print_error("%s\n  ran %s: mixed_c_check wants C_VEC 0\n", what, ocf_last_plan());
              fail();
            }
          }
          expect_edge_tiles(what);
        }
  /* A batch with an epilogue across the rim: bias along n in bf16, GELU, fp16 C. */
  mmx_case c = pad_case(1, 0, EDGE_MWG + 1, EDGE_NWG - 1, 2 * EDGE_KWG + 1);
  c.batch = 2;
  c.stride_a = c.stride_b = c.stride_c = MMX_PACKED;
  c.a_off = 2, c.ldb_pad = 2;
  c.activation = OCF_ACTIVATION_GELU_TANH;
  c.bias_axis = OCF_BIAS_N, c.bias_dtype = OCF_BF16, c.bias_off = 3;
  c.c_dtype = OCF_F16;
  c.beta = 0.5f;
  check_padded(env, &c, 1, 1);
  mmx_tune(env, NULL);
}

/* tiled.rim 2: the split kernel's two bodies (matmul_tiled_split under RIM, cl/matmul.cl), on
   the test's tiles with K in ranges of two slices: m and n at two tiles -1, 0, +1 (whole tiles
   beside rim tiles), the last range whole (k 32), short of a slice by one (47: its partial
   slice peeled) or a single value (33); every transpose pair in turn, A and B as they lie
   (aligned or not), alpha and beta, C NaN for beta 0, the scratch NaN (every partial sum read
   must have been written). Each plan must be matmul_tiled_split with RIM=1 on the test's tiles;
   tiled.rim 1 keeps the split kernel's one body (RIM=0). */
static void test_rim_split_edges(void **state) {
  ocft_env *env = ocft_get_env(state);
  char split[256];
  snprintf(split, sizeof split,
           "tiled.rim=2 tiled.pad_min=0 tiled.fill=64 tiled.split_fill=64 tiled.split_k_min=%d "
           "tiled.split_max=16 mma.on=0 wgmma.on=0",
           2 * EDGE_KWG);
  mmx_tune(env, EDGE_SET);
  mmx_tune(env, split);
  const size_t ks[] = {4 * EDGE_KWG, 6 * EDGE_KWG - 1, 4 * EDGE_KWG + 1};
  const size_t k_count = ocft_small() ? 2 : 3;
  size_t at = 0;
  for (int dm = -1; dm <= 1; dm++)
    for (int dn = -1; dn <= 1; dn++)
      for (size_t ki = 0; ki < k_count; ki++, at++) {
        mmx_case c = edge_case(at, dm, dn, ks[(ki + at) % k_count]);
        if (at % 3 == 1) c.a_off = 1, c.b_off = 3; /* element loads in the rim body */
        c.nan_workspace = 1;
        char what[400];
        mmx_describe(&c, what, sizeof what);
        mmx_check(env, &c, NULL);
        if (!strstr(ocf_last_plan(), "matmul_tiled_split ") || plan_value("RIM") != 1) {
          print_error("%s\n  ran %s, not the split kernel with RIM=1\n", what, ocf_last_plan());
          fail();
        }
        expect_edge_tiles(what);
      }
  mmx_tune(env, "tiled.rim=1");
  mmx_case c = pad_case(0, 0, 2 * EDGE_MWG + 1, 2 * EDGE_NWG - 1, 6 * EDGE_KWG - 1);
  mmx_check(env, &c, NULL);
  if (!strstr(ocf_last_plan(), "matmul_tiled_split ") || plan_value("RIM") != 0) {
    print_error("tiled.rim 1: ran %s, not the split kernel with RIM=0\n", ocf_last_plan());
    fail();
  }
  mmx_tune(env, NULL);
}

/* ---- the copy kernel alone ---- */

typedef struct pad_kernel_case {
  int ta, tb, pad_a, pad_b;
  int dtype; /* PAD_DTYPE: 0 fp32, 1 f16, 2 bf16 (values copied as bits) */
  size_t m, n, k, batch;
  size_t a_off, lda, stride_a, b_off, ldb, stride_b;
  size_t rows_a, lds_a, rows_b, lds_b; /* the copies: rows a product, row length */
  size_t wg, groups;
} pad_kernel_case;

/* The bits of element i of A (is_b 0) or B in a case of element size es: fp32 values as before
   the 16-bit copies (small multiples of a half and a quarter), any 16-bit pattern. */
static uint32_t pad_source_bits(size_t i, int is_b, size_t es) {
  if (es == 2) return (uint32_t)((i * 40503u + (is_b ? 7919u : 0u)) & 0xffffu);
  const float v = is_b ? -(float)(i % 241) * 0.25f - 1.0f : (float)(i % 251) * 0.5f + 1.0f;
  uint32_t bits;
  memcpy(&bits, &v, 4);
  return bits;
}

static uint32_t get_bits(const unsigned char *x, size_t i, size_t es) {
  uint32_t v = 0;
  if (es == 2) {
    uint16_t h;
    memcpy(&h, x + 2 * i, 2);
    v = h;
  } else {
    memcpy(&v, x + 4 * i, 4);
  }
  return v;
}

static void set_bits(unsigned char *x, size_t i, size_t es, uint32_t v) {
  if (es == 2) {
    const uint16_t h = (uint16_t)v;
    memcpy(x + 2 * i, &h, 2);
  } else {
    memcpy(x + 4 * i, &v, 4);
  }
}

static void run_pad_kernel(const ocft_env *env, const pad_kernel_case *c) {
  const size_t es = c->dtype ? 2 : 4;
  const uint32_t guard = es == 2 ? 0xabcdu : 0x4640e400u; /* 12345.0f */
  const size_t a_rows = c->ta ? c->k : c->m, a_cols = c->ta ? c->m : c->k;
  const size_t b_rows = c->tb ? c->n : c->k, b_cols = c->tb ? c->k : c->n;
  const size_t a_len = c->a_off + (c->batch - 1) * c->stride_a + (a_rows - 1) * c->lda + a_cols;
  const size_t b_len = c->b_off + (c->batch - 1) * c->stride_b + (b_rows - 1) * c->ldb + b_cols;
  const size_t sa = c->pad_a ? c->rows_a * c->lds_a : 0, sb = c->pad_b ? c->rows_b * c->lds_b : 0;
  const size_t sb_off = c->batch * sa, out_len = sb_off + c->batch * sb + 64;
  /* held in floats for the harness's buffers, es bytes an element */
  const size_t a_floats = a_len * es / 4 + 1, b_floats = b_len * es / 4 + 1,
               out_floats = out_len * es / 4 + 1;
  float *af = ocft_alloc_floats(a_floats), *bf = ocft_alloc_floats(b_floats);
  float *of = ocft_alloc_floats(out_floats);
  unsigned char *a = (unsigned char *)af, *b = (unsigned char *)bf, *out = (unsigned char *)of;
  for (size_t i = 0; i < a_len; i++)
    set_bits(a, i, es, pad_source_bits(i, 0, es));
  for (size_t i = 0; i < b_len; i++)
    set_bits(b, i, es, pad_source_bits(i, 1, es));
  for (size_t i = 0; i < out_len; i++)
    set_bits(out, i, es, guard);
  cl_mem ab = ocft_buffer(env, a_floats, af), bb = ocft_buffer(env, b_floats, bf),
         ob = ocft_buffer(env, out_floats, of);

  ocf_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.program = OCF_PROGRAM_MATMUL_PAD;
  ocf_plan_define(&plan, "TRANS_A", c->ta);
  ocf_plan_define(&plan, "TRANS_B", c->tb);
  ocf_plan_define(&plan, "A_PAD", c->pad_a);
  ocf_plan_define(&plan, "B_PAD", c->pad_b);
  ocf_plan_define(&plan, "PAD_WG", (long long)c->wg);
  ocf_plan_define(&plan, "PAD_DTYPE", c->dtype);
  const size_t local[1] = {c->wg}, global[1] = {c->groups * c->wg};
  ocf_plan_step_add(&plan, OCF_KERNEL_MATMUL_PAD, 1, global, local);
  ocf_matmul_frame f;
  memset(&f, 0, sizeof f);
  f.m = c->m, f.n = c->n, f.k = c->k, f.batch = c->batch;
  f.a = ab, f.a_off = c->a_off, f.lda = c->lda, f.stride_a = c->stride_a;
  f.b = bb, f.b_off = c->b_off, f.ldb = c->ldb, f.stride_b = c->stride_b;
  f.partial = ob, f.sb_off = sb_off;
  f.lds_a = c->lds_a, f.s_stride_a = sa, f.lds_b = c->lds_b, f.s_stride_b = sb;
  ocf_launch launch = OCF_LAUNCH_INIT;
  int replan = 0;
  const ocf_status status =
      ocf_launch_plan(env->ctx, env->queue, &plan, &f, NULL, &launch, &replan);
  if (ocft_refused_by_kernel_limit(status, c->wg)) {
    /* More work-items than this device allows the kernel (rusticl: 32): the planner sizes its
       workgroup from the learnt limit; the launch refused this one cleanly. */
    printf("skipped: %s\n", ocf_last_error());
    clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(ob);
    free(af), free(bf), free(of);
    skip();
  }
  ocft_assert_status(status, OCF_SUCCESS);
  ocft_read(env, ob, out_floats, of);

  size_t bad = 0;
  for (int is_b = 0; is_b < 2; is_b++) {
    if (!(is_b ? c->pad_b : c->pad_a)) continue;
    const size_t rows = is_b ? c->rows_b : c->rows_a, lds = is_b ? c->lds_b : c->lds_a;
    const size_t src_rows = is_b ? b_rows : a_rows, src_cols = is_b ? b_cols : a_cols;
    for (size_t q = 0; q < c->batch; q++)
      for (size_t r = 0; r < rows; r++)
        for (size_t col = 0; col < lds; col++) {
          uint32_t want = 0;
          if (r < src_rows && col < src_cols)
            want = is_b ? get_bits(b, c->b_off + q * c->stride_b + r * c->ldb + col, es)
                        : get_bits(a, c->a_off + q * c->stride_a + r * c->lda + col, es);
          const size_t at = (is_b ? sb_off + q * sb : q * sa) + r * lds + col;
          const uint32_t got = get_bits(out, at, es);
          if (got != want && bad++ < 5)
            print_error("dtype %d pad_a %d pad_b %d ta %d tb %d %zu x %zu x %zu batch %zu: %c' "
                        "product %zu row %zu col %zu is 0x%x, want 0x%x\n",
                        c->dtype, c->pad_a, c->pad_b, c->ta, c->tb, c->m, c->n, c->k, c->batch,
                        is_b ? 'B' : 'A', q, r, col, (unsigned)got, (unsigned)want);
        }
  }
  for (size_t i = sb_off + c->batch * sb; i < out_len; i++)
    if (get_bits(out, i, es) != guard && bad++ < 5)
      print_error("scratch element %zu past the copies written\n", i);
  if (bad) fail();
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(ob);
  free(af), free(bf), free(of);
}

/* Both copies, one of them, every transpose pair; offsets and strides off 4; fewer workgroups
   than rows (the grid-stride loop), a workgroup wider than a row (lds / 4 < wg). */
static void test_pad_kernel(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int t = 0; t < 4; t++)
    for (int which = 1; which <= 3; which++) {
      pad_kernel_case c;
      memset(&c, 0, sizeof c);
      c.ta = t & 1, c.tb = t >> 1, c.pad_a = which & 1, c.pad_b = which >> 1;
      c.m = 13, c.n = 9, c.k = 21, c.batch = 2;
      c.lda = (c.ta ? c.m : c.k) + 1, c.ldb = (c.tb ? c.k : c.n) + 3;
      c.a_off = 3, c.b_off = 1;
      c.stride_a = (c.ta ? c.k : c.m) * c.lda + 1;
      c.stride_b = (c.tb ? c.n : c.k) * c.ldb + 2;
      /* rows to whole tiles of 16 (m, n) or 8 (k); lengths likewise, multiples of 4 */
      c.rows_a = c.ta ? 24 : 16, c.lds_a = c.ta ? 16 : 24;
      c.rows_b = c.tb ? 16 : 24, c.lds_b = c.tb ? 24 : 16;
      c.wg = t % 2 ? 4 : 8;
      c.groups = 1 + (size_t)which * 3;
      run_pad_kernel(env, &c);
    }
}

/* The 16-bit copies of the wgmma kernel's aligned plans (PAD_DTYPE 1 and 2): the rows the
   matrix's own, each 64 values or a multiple (eight a work-item), every transpose pair, one
   copy or both, offsets and strides off 16-byte chunks, rows past 64 and past 128 values,
   fewer workgroups than rows, a workgroup wider than a row's vectors. */
static void test_pad_kernel_16bit(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int dtype = 1; dtype <= 2; dtype++)
    for (int t = 0; t < 4; t++)
      for (int which = 1; which <= 3; which++) {
        if (ocft_small() && (t + which + dtype) % 6) continue; /* 5 of the 24 */
        pad_kernel_case c;
        memset(&c, 0, sizeof c);
        c.dtype = dtype;
        c.ta = t & 1, c.tb = t >> 1, c.pad_a = which & 1, c.pad_b = which >> 1;
        c.m = 13, c.n = 70, c.k = 133, c.batch = 2;
        c.lda = (c.ta ? c.m : c.k) + 1 + (size_t)dtype, c.ldb = (c.tb ? c.k : c.n) + 3;
        c.a_off = 3, c.b_off = 5 + (size_t)t;
        c.stride_a = (c.ta ? c.k : c.m) * c.lda + 1;
        c.stride_b = (c.tb ? c.n : c.k) * c.ldb + 2;
        c.rows_a = c.ta ? c.k : c.m, c.lds_a = c.ta ? 64 : 192;
        c.rows_b = c.tb ? c.n : c.k, c.lds_b = c.tb ? 192 : 128;
        c.wg = which == 2 ? 32 : 8;
        c.groups = 1 + (size_t)which * 5;
        run_pad_kernel(env, &c);
      }
}

/* Source rows that start on 16 bytes take the copy's vector reads (pad_copy_row), the others
   its element reads, for each element size: every row aligned with whole vectors only (form 0),
   every row aligned with a ragged end (1: the last part vector read value by value), every
   other row aligned (2: the leading dimension half a vector past a whole one, offsets on
   vectors); rows past the matrix (zeros) after each copy. */
static void test_pad_kernel_aligned(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int dtype = 0; dtype <= 2; dtype++)
    for (int form = 0; form < 3; form++) {
      const size_t lanes = dtype ? 8 : 4; /* values in 16 bytes */
      pad_kernel_case c;
      memset(&c, 0, sizeof c);
      c.dtype = dtype;
      c.ta = form == 1, c.tb = form != 1, c.pad_a = 1, c.pad_b = 1;
      c.batch = 2;
      c.m = 2 * lanes + (form ? 1 : 0);
      c.n = 3 * lanes + (form ? 5 : 0);
      c.k = 5 * lanes - (form ? 3 : 0);
      const size_t a_rows = c.ta ? c.k : c.m, a_cols = c.ta ? c.m : c.k;
      const size_t b_rows = c.tb ? c.n : c.k, b_cols = c.tb ? c.k : c.n;
      const size_t skew = form == 2 ? lanes / 2 : 0;
      c.lda = ocf_round_up(a_cols, lanes) + skew, c.ldb = ocf_round_up(b_cols, lanes) + skew;
      c.a_off = form == 2 ? lanes : 0, c.b_off = form == 2 ? 2 * lanes : 0;
      c.stride_a = a_rows * c.lda, c.stride_b = b_rows * c.ldb;
      c.rows_a = a_rows + 3, c.rows_b = b_rows + 2;
      const size_t line = dtype ? 64 : 4; /* the host's row lengths: 128-byte lines, 16 bytes */
      c.lds_a = ocf_round_up(a_cols + 1, line), c.lds_b = ocf_round_up(b_cols + 1, line);
      c.wg = 8, c.groups = 5;
      run_pad_kernel(env, &c);
    }
}

/* Rows of many passes of a workgroup's vectors: 8 work-items copy rows of 700 values into 704
   (fp32: 22 passes of 32 values; 16-bit: 11 of 64; and past a work-item's batch of four reads
   with tools/lab/h200/pad_batch.patch: five batches and a part, two and a part), aligned rows
   (whole vectors) and rows off 16 bytes (values), A and B both. */
static void test_pad_kernel_long_rows(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int dtype = 0; dtype <= 2; dtype += 2)
    for (int skew = 0; skew < 2; skew++) {
      pad_kernel_case c;
      memset(&c, 0, sizeof c);
      c.dtype = dtype;
      c.ta = 0, c.tb = 1, c.pad_a = 1, c.pad_b = 1;
      c.batch = 1, c.m = 3, c.n = 2, c.k = 700;
      c.lda = 704 + (size_t)skew, c.ldb = 712 + (size_t)skew;
      c.a_off = (size_t)skew, c.b_off = 0;
      c.stride_a = c.m * c.lda, c.stride_b = c.n * c.ldb;
      c.rows_a = c.m, c.rows_b = c.n + 1;
      c.lds_a = c.lds_b = 704;
      c.wg = 8, c.groups = 2;
      run_pad_kernel(env, &c);
    }
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pad_kernel),
      cmocka_unit_test(test_pad_kernel_16bit),
      cmocka_unit_test(test_pad_kernel_aligned),
      cmocka_unit_test(test_pad_kernel_long_rows),
      cmocka_unit_test(test_pad_layouts),
      cmocka_unit_test(test_pad_one_operand),
      cmocka_unit_test(test_pad_batches_col_major),
      cmocka_unit_test(test_pad_epilogue_precision),
      cmocka_unit_test(test_pad_workspace),
      cmocka_unit_test(test_pad_few_waves),
  };
  /* tiled.rim=1: the same cases (the copy kernel's aside), then the tile's edges */
  const struct CMUnitTest rim_tests[] = {
      cmocka_unit_test(test_pad_layouts),           cmocka_unit_test(test_pad_one_operand),
      cmocka_unit_test(test_pad_batches_col_major), cmocka_unit_test(test_pad_epilogue_precision),
      cmocka_unit_test(test_pad_workspace),         cmocka_unit_test(test_pad_few_waves),
      cmocka_unit_test(test_rim_tile_edges),        cmocka_unit_test(test_rim_split_edges),
  };
  rim_on = 0;
  int failed =
      cmocka_run_group_tests_name("matmul_pad", tests, ocft_group_setup, ocft_group_teardown);
  rim_on = 1;
  failed += cmocka_run_group_tests_name("matmul_pad_rim", rim_tests, ocft_group_setup,
                                        ocft_group_teardown);
  return failed;
}
