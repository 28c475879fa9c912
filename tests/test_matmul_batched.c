/*
 * ocf_matmul_ex with a strided batch: every product against the CPU reference (tolerance:
 * harness/reference_gemm.h), every element of C outside the products unchanged, CLBlast's
 * SgemmStridedBatched on the same data; shared operands (stride 0), interleaved C's, batches on
 * every kernel (tiled fast, mixed, general, split-K, skinny, naive), and the refusals of a batch
 * whose extents overflow, whose last product runs past its buffer, or whose C's overlap.
 */
#include "matmul_check.h"

#include "reference_gemm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ocf_variant all_variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL,
                                           OCF_VARIANT_BASELINE};

static void check_all_variants(const ocft_env *env, mmx_case t) {
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    t.variant = all_variants[v];
    mmx_check(env, &t, NULL);
  }
}

/* Batches of 2 and 5 products of small, prime, whole-tile and skinny shapes, two transposes
   each, packed (aligned) strides; every variant on one of them (each shape and transpose is a
   program build, so not every combination). */
static void test_batched_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t big[][3] = {{1, 1, 1},    {17, 13, 9}, {33, 40, 20},
                                  {64, 64, 32}, {3, 37, 29}, {45, 2, 50}};
  static const size_t small[][3] = {{1, 1, 1}, {17, 13, 9}, {3, 21, 10}};
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small) : OCF_ARRAY_LEN_T(big);
  for (size_t s = 0; s < count; s++)
    for (int i = 0; i < 2; i++) {
      if (ocft_small() && i) continue;
      const size_t *shape = ocft_small() ? small[s] : big[s];
      const int tr = (int)(s + 2 * (size_t)i) % 4;
      mmx_case t = mmx_plain(shape[0], shape[1], shape[2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.batch = i ? 5 : 2;
      t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
      t.alpha = 1.5f;
      t.beta = 0.5f;
      if (s == 2 && i == 0)
        check_all_variants(env, t);
      else
        mmx_check(env, &t, NULL);
    }
}

/* Unaligned strides, offsets and leading dimensions (no fp32 vector accesses), and strides far
   beyond the extent. */
static void test_batched_odd_strides(void **state) {
  ocft_env *env = ocft_get_env(state);
  mmx_case t = mmx_plain(ocft_small() ? 9 : 37, ocft_small() ? 11 : 41, ocft_small() ? 7 : 23);
  t.batch = 3;
  t.lda_pad = 1, t.ldb_pad = 2, t.ldc_pad = 3;
  t.a_off = 1, t.b_off = 2, t.c_off = 3;
  t.beta = -1.0f;
  for (int v = 0; v < 2; v++) {
    size_t extra = v ? 1001 : 5;
    /* extents: A m x (k + 1), B k x (n + 2), C m x (n + 3) */
    t.stride_a = (t.m - 1) * (t.k + 1) + t.k + extra;
    t.stride_b = (t.k - 1) * (t.n + 2) + t.n + extra + 2;
    t.stride_c = (t.m - 1) * (t.n + 3) + t.n + extra + 4;
    check_all_variants(env, t);
  }
}

/* stride 0: one A (or one B, or both) for the whole batch. */
static void test_batched_shared_operand(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t shapes[][3] = {{19, 23, 17}, {2, 40, 33}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
    for (int shared = 1; shared < 4; shared++) {
      if (ocft_small() && shared != 1 + (int)s) continue;
      mmx_case t = mmx_plain(shapes[s][0], shapes[s][1], shapes[s][2]);
      t.batch = 4;
      t.stride_a = shared & 1 ? 0 : MMX_PACKED;
      t.stride_b = shared & 2 ? 0 : MMX_PACKED;
      t.stride_c = MMX_PACKED;
      t.ta = OCF_TRANS;
      if (shared == 1)
        check_all_variants(env, t);
      else
        mmx_check(env, &t, NULL);
    }
}

/* C's interleaved in one matrix: C_i is columns i n .. i n + n - 1 of an m x (batch n) matrix
   (stride_c = n, ldc = batch n), as attention heads are laid out. No two share an element. */
static void test_batched_interleaved_c(void **state) {
  ocft_env *env = ocft_get_env(state);
  mmx_case t = mmx_plain(13, 8, 11);
  t.batch = 3;
  t.stride_a = t.stride_b = MMX_PACKED;
  t.stride_c = 8;
  t.ldc_pad = 16; /* ldc = 24 = batch * n */
  t.beta = 0.5f;
  check_all_variants(env, t);
  t.layout = OCF_COL_MAJOR; /* the same in column-major: C_i is rows i m .. of a 3m x n C */
  t.stride_c = 13;
  t.ldc_pad = 26;
  check_all_variants(env, t);
}

/* alpha = 0 with NaNs in A and B gives beta * C (A and B not read); beta = 0 over a C of NaNs
   gives alpha * A B (C not read); k = 0. */
static void test_batched_alpha_beta_zero(void **state) {
  ocft_env *env = ocft_get_env(state);
  mmx_case t = mmx_plain(21, 18, 12);
  t.batch = 3;
  t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
  t.alpha = 0.0f;
  t.beta = -2.0f;
  t.nan_inputs = 1;
  check_all_variants(env, t);
  t = mmx_plain(21, 18, 12);
  t.batch = 3;
  t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
  t.nan_c = 1;
  check_all_variants(env, t);
  t.k = 0;
  t.nan_c = 0;
  t.beta = 0.25f;
  check_all_variants(env, t);
}

/* Column-major batches (the operand swap) and a batch of one. */
static void test_batched_column_major(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int tr = 0; tr < 4; tr++) {
    if (ocft_small() && tr % 3 != 0) continue;
    mmx_case t = mmx_plain(27, 19, 31);
    t.layout = OCF_COL_MAJOR;
    t.ta = (ocf_transpose)(tr & 1);
    t.tb = (ocf_transpose)(tr >> 1);
    t.batch = tr == 3 ? 1 : 3;
    t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
    t.lda_pad = 2, t.ldc_pad = 1;
    t.beta = 0.5f;
    if (tr == 0)
      check_all_variants(env, t);
    else
      mmx_check(env, &t, NULL);
  }
}

/* Long K over few tiles: the split-K kernels (matmul_tiled_split + matmul_reduce) on CPUs from
   K = 256 (two ranges of split_k_min = 128), over a batch, ragged and whole. */
static void test_batched_split_k(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t shapes[][3] = {{32, 32, 512}, {37, 29, 700}, {8, 40, 300}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
    if (ocft_small() && s != 1) continue;
    /* The splits' sums are not zeroed (matmul_tiled_split writes every one the reduce reads):
       the one-product call runs on a workspace of NaN bytes to show it. */
    mmx_case t = mmx_plain(ocft_small() ? 13 : shapes[s][0], shapes[s][1],
                           ocft_small() ? 300 : shapes[s][2]);
    t.batch = 2;
    t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
    t.tb = OCF_TRANS;
    t.beta = 0.5f;
    mmx_check(env, &t, NULL);
    t.batch = 1;
    t.nan_workspace = 1;
    mmx_check(env, &t, NULL);
  }
}

/* A split-K batch behind a user event: the split kernel waits for the caller's wait list (its
   sums are not zeroed first: no fill to order); nothing runs before the gate opens, and the result
   is right after it. */
static void test_batched_split_k_waits(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t m = ocft_small() ? 16 : 32, n = 32, k = ocft_small() ? 300 : 512, batch = 2;
  float *a = ocft_alloc_floats(batch * m * k), *b = ocft_alloc_floats(batch * k * n);
  float *c = ocft_alloc_floats(batch * m * n);
  double *want = ocft_alloc_doubles(m * n), *tol = ocft_alloc_doubles(m * n);
  ocft_fill_uniform(a, batch * m * k, -1.0f, 1.0f, 3);
  ocft_fill_uniform(b, batch * k * n, -1.0f, 1.0f, 4);
  cl_mem ab = ocft_buffer(env, batch * m * k, a), bb = ocft_buffer(env, batch * k * n, b);
  cl_mem cb = ocft_buffer(env, batch * m * n, NULL);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env->cl, &err), done = NULL;
  assert_int_equal(err, CL_SUCCESS);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.num_wait_events = 1;
  launch.wait_events = &gate;
  launch.event = &done;
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.batch = batch;
  o.stride_a = m * k, o.stride_b = k * n, o.stride_c = m * n;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, m, n, k, 1.0f, ab, 0, k,
                                   bb, 0, n, 0.0f, cb, 0, n, &o, &launch),
                     OCF_SUCCESS);
  cl_int now = 0;
  assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof now, &now, NULL),
                   CL_SUCCESS);
  assert_true(now != CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  ocft_read(env, cb, batch * m * n, c);
  for (size_t bi = 0; bi < batch; bi++) {
    ocf_ref_gemm g;
    memset(&g, 0, sizeof g);
    g.m = m, g.n = n, g.k = k;
    g.alpha = 1.0f;
    g.a = a + bi * m * k, g.b = b + bi * k * n;
    g.lda = k, g.ldb = n;
    ocf_ref_gemm_run(&g, 0, want, tol);
    ocft_assert_close("split-K batch behind a gate", c + bi * m * n, want, tol, m * n);
  }
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
  free(a), free(b), free(c), free(want), free(tol);
}

/* The same batches through CLBlastSgemmStridedBatched (and a split-K product through
   CLBlastSgemm): both within the bound of the reference and within twice of each other. */
static void test_batched_against_clblast(void **state) {
  ocft_env *env = ocft_get_env(state);
  if (!mmx_have_clblast()) skip();
  const size_t shapes[][3] = {{16, 16, 16}, {33, 40, 20}, {64, 64, 64}, {3, 37, 29}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
    for (int tr = 0; tr < 4; tr++) {
      mmx_case t = mmx_plain(shapes[s][0], shapes[s][1], shapes[s][2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.layout = tr == 2 ? OCF_COL_MAJOR : OCF_ROW_MAJOR;
      t.batch = 7;
      t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
      t.alpha = 0.75f;
      t.beta = tr == 3 ? 0.0f : -1.5f;
      mmx_check_clblast(env, &t);
    }
  /* a long K over one tile: the split-K kernels on CPUs (a single product) */
  mmx_case t = mmx_plain(29, 32, 600);
  t.beta = 0.5f;
  mmx_check_clblast(env, &t);
}

/* Every refusal leaves every buffer as it was; each is checked before anything is enqueued. */
static void test_batched_rejects(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = 4096 };
  cl_mem x = mmx_pattern_buffer(env, N * sizeof(float)), c = mmx_pattern_buffer(env, N * 4);
  ocf_context *ctx = env->ctx;
  const ocf_transpose NT = OCF_NO_TRANS;
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;

  /* 4 x 4 matrices, 16 elements each: a batch of 10 packed needs 160 elements of each, so the
     last product of a batch at N - 160 just fits. */
  o.batch = 10;
  o.stride_a = o.stride_b = o.stride_c = 16;
  cl_mem good = mmx_pattern_buffer(env, N * 4);
  ocft_assert_status(ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, N - 160, 4, x, N - 160, 4, 0, good,
                                   N - 160, 4, &o, NULL),
                     OCF_SUCCESS);
  clReleaseMemObject(good);
  mmx_assert_pattern(env, x, N * sizeof(float), "A and B after a good call");
  /* the last product's extent past the end of each buffer, by one element */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, N - 159, 4, x, 0, 4, 0, c, 0, 4, &o, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, N - 159, 4, 0, c, 0, 4, &o, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, N - 159, 4, &o, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  /* a batch whose extent overflows size_t (in elements, and in bytes) */
  ocf_matmul_options huge = o;
  huge.batch = SIZE_MAX / 8;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &huge, NULL),
      OCF_ERR_SIZE_OVERFLOW);
  huge.batch = 3;
  huge.stride_c = SIZE_MAX / 4;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &huge, NULL),
      OCF_ERR_SIZE_OVERFLOW);
  /* C's of the batch overlapping each other: stride 0, a stride shorter than the extent whose
     rows collide, and one whose column blocks collide in an interleaved layout */
  ocf_matmul_options overlap = o;
  overlap.stride_c = 0;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &overlap, NULL),
      OCF_ERR_ALIASING);
  overlap.stride_c = 8; /* C_1 starts on C_0's third row */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 4, &overlap, NULL),
      OCF_ERR_ALIASING);
  overlap.stride_c = 3; /* interleaved with ldc 40: C_1's columns 3.. overlap C_0's column 3 */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 40, &overlap, NULL),
      OCF_ERR_ALIASING);
  overlap.stride_c = 37; /* C_1 at row 0, column 37 of ldc 40: its row 0 runs into C_0's row 1 */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 40, &overlap, NULL),
      OCF_ERR_ALIASING);
  /* C's batch span reaching into A's, through the last product only */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, c, 150, 4, x, 0, 4, 0, c, 0, 4, &o, NULL),
      OCF_ERR_ALIASING);
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, c, 159, 4, 0, c, 0, 4, &o, NULL),
      OCF_ERR_ALIASING);
  mmx_assert_pattern(env, c, N * 4, "C after refused batches");
  /* ... while interleaved C's that do not collide are fine (stride 4, ldc 40) */
  overlap.stride_c = 4;
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 4, 4, 4, 1, x, 0, 4, x, 0, 4, 0, c, 0, 40, &overlap, NULL),
      OCF_SUCCESS);
  clReleaseMemObject(x);
  clReleaseMemObject(c);
}

/* Every multi-kernel plan (the tiled split-K pair, the skinny split pair) over a batch of 3, in
   both layouts, under every transpose, with both signs of alpha and beta: the reduce kernels
   find each product's partial sums and its C however the call maps onto the row-major problem
   (a column-major call swaps A and B, and the skinny kernels' long operand). The tuning forces
   the split on any device, and the skinny split's separate reduce where a card's database joins
   it in one launch (the H100's: test_matmul_joins covers that form's batches). */
static void test_batched_multi_kernel_every_layout(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const struct {
    const char *tuning, *reduce;
    size_t m, n, k;
  } plans[] = {
      {"skinny_max=0 min_eff=1 fill=64 split_k_min=32 split_max=4 split_fill=64", "matmul_reduce",
       13, 24, 160},
      {"skinny_max=16 skinny_long_min=16 sk_fill=64 sk_split_min=32 skinny.join=0",
       "matmul_skinny_reduce", 5, 37, 160},
  };
  for (size_t p = 0; p < OCF_ARRAY_LEN_T(plans); p++) {
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, plans[p].tuning),
                       OCF_SUCCESS);
    for (int layout = 0; layout < 2; layout++)
      for (int tr = 0; tr < 4; tr++) {
        mmx_case t = mmx_plain(plans[p].m, plans[p].n, plans[p].k);
        t.layout = layout ? OCF_COL_MAJOR : OCF_ROW_MAJOR;
        t.ta = (ocf_transpose)(tr & 1);
        t.tb = (ocf_transpose)(tr >> 1);
        t.batch = 3;
        t.stride_a = t.stride_b = t.stride_c = MMX_PACKED;
        t.lda_pad = 1, t.ldc_pad = 2;
        t.alpha = tr & 1 ? -1.5f : 1.0f;
        t.beta = tr & 2 ? -0.5f : 0.25f;
        mmx_check(env, &t, NULL);
        if (!strstr(ocf_last_plan(), plans[p].reduce)) {
          char what[160];
          mmx_describe(&t, what, sizeof what);
          fail_msg("%s ran no %s: %s", what, plans[p].reduce, ocf_last_plan());
        }
      }
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", OCF_F32, NULL, NULL),
                       OCF_SUCCESS);
  }
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_batched_shapes),
      cmocka_unit_test(test_batched_odd_strides),
      cmocka_unit_test(test_batched_shared_operand),
      cmocka_unit_test(test_batched_interleaved_c),
      cmocka_unit_test(test_batched_alpha_beta_zero),
      cmocka_unit_test(test_batched_column_major),
      cmocka_unit_test(test_batched_split_k),
      cmocka_unit_test(test_batched_split_k_waits),
      cmocka_unit_test(test_batched_against_clblast),
      cmocka_unit_test(test_batched_rejects),
      cmocka_unit_test(test_batched_multi_kernel_every_layout),
  };
  return cmocka_run_group_tests_name("matmul_batched", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
