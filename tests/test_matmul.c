/*
 * ocf_matmul against a CPU reference (double accumulation), and against CLBlast's SGEMM.
 *
 * Tolerance, per element of C: ocft_matmul_tolerance, argued in harness/tolerance.c from the
 * kernels' arithmetic (one dot product per element, accumulated in order, then alpha and beta).
 */
#include "reference.h"
#include "test_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OCF_HAVE_CLBLAST
#include <clblast_c.h>
#endif

static const ocf_variant all_variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL,
                                           OCF_VARIANT_BASELINE};

/* One call's shape: the transposes, sizes, scalars, extra stride beyond the minimum and element
   offsets of A, B and C. */
typedef struct mm_case {
  ocf_transpose ta, tb;
  size_t m, n, k;
  float alpha, beta;
  size_t lda_pad, ldb_pad, ldc_pad;
  size_t a_off, b_off, c_off;
  int nan_c;  /* fill C with NaN (only meaningful with beta == 0) */
  int nan_ab; /* fill A and B with NaN (only meaningful with alpha == 0) */
} mm_case;

static mm_case plain(size_t m, size_t n, size_t k) {
  mm_case t = {OCF_NO_TRANS, OCF_NO_TRANS, m, n, k, 1.0f, 0.0f, 0, 0, 0, 0, 0, 0, 0, 0};
  return t;
}

/* Host copies of one case's inputs: A and B, C before the call, and the reference. */
typedef struct mm_data {
  size_t lda, ldb, ldc, a_len, b_len, c_len;
  float *a, *b, *c;
  double *want, *tol;
} mm_data;

static void mm_data_make(const mm_case *t, uint64_t seed, mm_data *d) {
  size_t a_rows = t->ta ? t->k : t->m, a_cols = t->ta ? t->m : t->k;
  size_t b_rows = t->tb ? t->n : t->k, b_cols = t->tb ? t->k : t->n;
  d->lda = a_cols + t->lda_pad;
  d->ldb = b_cols + t->ldb_pad;
  d->ldc = t->n + t->ldc_pad;
  d->a_len = t->a_off + a_rows * d->lda + 3;
  d->b_len = t->b_off + b_rows * d->ldb + 3;
  d->c_len = t->c_off + t->m * d->ldc + 3;
  d->a = ocft_alloc_floats(d->a_len);
  d->b = ocft_alloc_floats(d->b_len);
  d->c = ocft_alloc_floats(d->c_len);
  ocft_fill_uniform(d->a, d->a_len, -1.0f, 1.0f, seed);
  ocft_fill_uniform(d->b, d->b_len, -1.0f, 1.0f, seed + 1);
  ocft_fill_uniform(d->c, d->c_len, -1.0f, 1.0f, seed + 2);
  if (t->nan_c)
    for (size_t i = 0; i < d->c_len; i++)
      d->c[i] = NAN;
  for (size_t i = 0; t->nan_ab && i < d->a_len; i++)
    d->a[i] = NAN;
  for (size_t i = 0; t->nan_ab && i < d->b_len; i++)
    d->b[i] = NAN;
  d->want = ocft_alloc_doubles(t->m * t->n);
  d->tol = ocft_alloc_doubles(t->m * t->n);
  ocf_ref_matmul(t->ta, t->tb, t->m, t->n, t->k, t->alpha, d->a + t->a_off, d->lda, d->b + t->b_off,
                 d->ldb, t->beta, d->c + t->c_off, d->ldc, d->want);
  ocft_matmul_tolerance(t->ta, t->tb, t->m, t->n, t->k, t->alpha, d->a + t->a_off, d->lda,
                        d->b + t->b_off, d->ldb, t->beta, d->c + t->c_off, d->ldc, d->tol);
}

static void mm_data_free(mm_data *d) {
  free(d->a), free(d->b), free(d->c), free(d->want), free(d->tol);
}

/* Checks C after a call: the m x n block within tolerance, every other element unchanged. */
static void mm_check_c(const char *what, const mm_case *t, const mm_data *d, const float *got) {
  float *row = ocft_alloc_floats(t->n);
  ocft_assert_unchanged(what, got, d->c, t->c_off);
  for (size_t i = 0; i < t->m; i++) {
    const float *g = got + t->c_off + i * d->ldc, *before = d->c + t->c_off + i * d->ldc;
    memcpy(row, g, t->n * sizeof *row);
    ocft_assert_close(what, row, d->want + i * t->n, d->tol + i * t->n, t->n);
    size_t gap = i + 1 < t->m ? d->ldc - t->n : d->c_len - (t->c_off + i * d->ldc + t->n);
    ocft_assert_unchanged(what, g + t->n, before + t->n, gap);
  }
  if (t->m == 0) ocft_assert_unchanged(what, got, d->c, d->c_len);
  free(row);
}

/* Runs one case on fresh device buffers and checks the whole of C. */
static void check_case(ocft_env *env, const mm_case *t, const ocf_launch *launch) {
  mm_data d;
  mm_data_make(t, 7 + t->m * 131 + t->n * 17 + t->k, &d);
  cl_mem ab = ocft_buffer(env, d.a_len, d.a), bb = ocft_buffer(env, d.b_len, d.b);
  cl_mem cb = ocft_buffer(env, d.c_len, d.c);
  ocft_assert_status(ocf_matmul(env->ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha, ab, t->a_off,
                                d.lda, bb, t->b_off, d.ldb, t->beta, cb, t->c_off, d.ldc, launch),
                     OCF_SUCCESS);
  float *got = ocft_alloc_floats(d.c_len);
  ocft_read(env, cb, d.c_len, got);
  char what[160];
  snprintf(what, sizeof what, "matmul %s%s m=%zu n=%zu k=%zu alpha=%g beta=%g variant=%d wg=%zu",
           t->ta ? "T" : "N", t->tb ? "T" : "N", t->m, t->n, t->k, t->alpha, t->beta,
           launch ? (int)launch->variant : 0, launch ? launch->workgroup_size : 0);
  mm_check_c(what, t, &d, got);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(cb);
  free(got);
  mm_data_free(&d);
}

static void check_all_variants(ocft_env *env, const mm_case *t) {
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    check_case(env, t, &launch);
  }
}

/* 1 x 1 x 1 and prime shapes, every variant. */
static void test_matmul_small_and_prime_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t shapes[][3] = {{1, 1, 1},   {17, 31, 13}, {3, 5, 7},  {31, 17, 1},
                              {13, 1, 29}, {1, 23, 37},  {37, 2, 11}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
    mm_case t = plain(shapes[s][0], shapes[s][1], shapes[s][2]);
    check_all_variants(env, &t);
  }
}

/* Sizes that are not multiples of any tile dimension of any tuning row (tiles of 32, 64, 128,
   K slices of 16), each size in each position, and whole multiples that take the fast path. */
static void test_matmul_tile_remainders(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t big[][3] = {{1, 7, 65},    {7, 65, 129},   {65, 129, 130}, {129, 130, 257},
                                  {130, 257, 1}, {257, 1, 7},    {65, 65, 65},   {129, 257, 33},
                                  {64, 96, 48},  {128, 128, 64}, {256, 128, 32}, {128, 256, 80}};
  static const size_t small[][3] = {{1, 7, 13}, {7, 13, 33},  {13, 33, 40}, {33, 40, 1},
                                    {40, 1, 7}, {32, 32, 16}, {32, 40, 32}};
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small) : OCF_ARRAY_LEN_T(big);
  for (size_t s = 0; s < count; s++) {
    const size_t *shape = ocft_small() ? small[s] : big[s];
    mm_case t = plain(shape[0], shape[1], shape[2]);
    t.beta = 0.5f;
    check_all_variants(env, &t);
  }
}

/* k = 0 gives beta * C (and 0 for beta = 0, even over NaN); k = 1 is a rank-one update. */
static void test_matmul_k_zero_and_one(void **state) {
  ocft_env *env = ocft_get_env(state);
  const float betas[] = {0.0f, 1.0f, 0.5f};
  const size_t ks[] = {0, 1};
  for (size_t kk = 0; kk < OCF_ARRAY_LEN_T(ks); kk++)
    for (size_t bi = 0; bi < OCF_ARRAY_LEN_T(betas); bi++) {
      mm_case t = plain(33, 40, ks[kk]);
      t.beta = betas[bi];
      t.alpha = -2.5f;
      check_all_variants(env, &t);
      t = plain(32, 32, ks[kk]); /* whole tiles: the fast kernel where it applies */
      t.beta = betas[bi];
      check_all_variants(env, &t);
    }
  mm_case t = plain(17, 9, 0);
  t.nan_c = 1;
  check_all_variants(env, &t);
}

/* All four transpose combinations, ragged and whole-tile shapes, every variant. */
static void test_matmul_transposes(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t big[][3] = {{37, 29, 41}, {129, 65, 130}, {128, 128, 64}, {1, 33, 5}};
  const size_t small[][3] = {{13, 11, 9}, {32, 32, 16}};
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small) : OCF_ARRAY_LEN_T(big);
  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++)
      for (size_t s = 0; s < count; s++) {
        const size_t *shape = ocft_small() ? small[s] : big[s];
        mm_case t = plain(shape[0], shape[1], shape[2]);
        t.ta = (ocf_transpose)ta;
        t.tb = (ocf_transpose)tb;
        t.alpha = 1.5f;
        t.beta = 0.5f;
        check_all_variants(env, &t);
      }
}

/* Leading dimensions longer than a row, and offsets both aligned (multiples of 4) and not,
   with every transpose. Aligned padded strides keep the fast path; odd ones leave it. */
static void test_matmul_strides_and_offsets(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t layouts[][6] = {/* lda_pad ldb_pad ldc_pad a_off b_off c_off */
                               {4, 8, 12, 4, 8, 16},
                               {1, 3, 5, 0, 0, 0},
                               {0, 0, 0, 1, 2, 3},
                               {3, 1, 2, 5, 7, 9},
                               {4, 4, 4, 0, 0, 1},
                               {16, 0, 4, 128, 4, 0},
                               /* all aligned but ldc: off the aligned kernels, whose vector
                                  stores assume every row of C starts on a float4 */
                               {0, 0, 1, 0, 0, 0},
                               {4, 8, 3, 4, 8, 0}};
  const size_t shapes[][3] = {{32, 32, 32}, {27, 35, 19}, {64, 64, 48}};
  for (size_t l = 0; l < OCF_ARRAY_LEN_T(layouts); l++)
    for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
      if (ocft_small() && s != l % 2) continue; /* Oclgrind: one shape per layout */
      for (int tr = 0; tr < 4; tr++) {
        if (ocft_small() && tr != (int)l % 4 && tr != 3 - (int)l % 4) continue;
        mm_case t = plain(shapes[s][0], shapes[s][1], shapes[s][2]);
        t.ta = (ocf_transpose)(tr & 1);
        t.tb = (ocf_transpose)(tr >> 1);
        t.beta = 1.0f;
        t.lda_pad = layouts[l][0], t.ldb_pad = layouts[l][1], t.ldc_pad = layouts[l][2];
        t.a_off = layouts[l][3], t.b_off = layouts[l][4], t.c_off = layouts[l][5];
        check_case(env, &t, NULL);
        ocf_launch general = OCF_LAUNCH_INIT;
        general.variant = OCF_VARIANT_GENERAL;
        check_case(env, &t, &general);
      }
    }
}

/* Pads that make each leading dimension of t a multiple of 4 (at least 4 floats longer than
   its row, so the gaps are checked too), and offsets that keep the float4 alignment: the
   conditions of the fast and mixed kernels. */
static void align_layout(mm_case *t) {
  size_t a_cols = t->ta ? t->m : t->k, b_cols = t->tb ? t->k : t->n;
  t->lda_pad = 4 + (4 - a_cols % 4) % 4;
  t->ldb_pad = 4 + (4 - b_cols % 4) % 4;
  t->ldc_pad = 4 + (4 - t->n % 4) % 4;
  t->a_off = 4, t->b_off = 8, t->c_off = 12;
}

/* Aligned layouts, m, n and k each whole or ragged (2^3 combinations), every transpose: whole
   shapes take the fast kernel, ragged ones the mixed kernel, whose whole tiles run unguarded
   (with a guarded last K slice when k is ragged) and whose bottom and right edge tiles run
   guarded, all in one launch. Whole means a multiple of every tile and K slice of every tuning
   row (M and N 32 or 128, K 16 or 64); ragged adds 5 to 45. The scales also pick different
   parameter sets: on the H200, 128 x 128 C gives 16 small tiles, 768 the mid set, 1536 the
   large one; under Oclgrind (one compute unit, two workgroups wanted) a 32 x 32 C takes the CPU
   row's small 16 x 16 tiles, 37 x 37 its 32 x 32 ones. */
static void test_matmul_interior_and_edges(void **state) {
  ocft_env *env = ocft_get_env(state);
  typedef struct scale {
    size_t mn, k, ragged_m, ragged_n, ragged_k;
    int all_transposes; /* else NN for every combination, all transposes for all-ragged */
  } scale;
  static const scale big[] = {
      {128, 64, 37, 45, 13, 1}, {768, 32, 21, 9, 7, 0}, {1536, 32, 45, 27, 5, 0}};
  static const scale small[] = {{32, 16, 5, 11, 5, 1}};
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small) : OCF_ARRAY_LEN_T(big);
  for (size_t sc = 0; sc < count; sc++) {
    const scale *s = ocft_small() ? &small[sc] : &big[sc];
    for (int combo = 0; combo < 8; combo++)
      for (int tr = 0; tr < 4; tr++) {
        if (!s->all_transposes && tr != 0 && combo != 7) continue;
        mm_case t =
            plain(s->mn + (combo & 1 ? s->ragged_m : 0), s->mn + (combo & 2 ? s->ragged_n : 0),
                  s->k + (combo & 4 ? s->ragged_k : 0));
        t.ta = (ocf_transpose)(tr & 1);
        t.tb = (ocf_transpose)(tr >> 1);
        t.alpha = 1.5f;
        t.beta = combo == 5 ? 0.0f : 0.5f;
        t.nan_c = combo == 5; /* beta = 0 over NaN: edge and whole tiles alike never read C */
        align_layout(&t);
        check_case(env, &t, NULL);
      }
  }
}

/* The mixed kernel's corner cases: C smaller than one tile (edge tiles only), one row or column
   of whole tiles plus an edge, k below one K slice (the first slice is the guarded last one),
   k = 0 and alpha = 0 (beta * C), with aligned layouts and every transpose. */
static void test_matmul_mixed_corners(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t big[][3] = {{5, 7, 3},    {129, 4, 20}, {4, 131, 9},
                                  {132, 36, 3}, {36, 36, 0},  {260, 140, 17}};
  static const size_t small[][3] = {{5, 7, 3}, {33, 4, 20}, {36, 36, 3}, {36, 20, 0}};
  size_t count = ocft_small() ? OCF_ARRAY_LEN_T(small) : OCF_ARRAY_LEN_T(big);
  for (size_t s = 0; s < count; s++)
    for (int tr = 0; tr < 4; tr++) {
      if (ocft_small() && tr != (int)s % 4) continue; /* Oclgrind: one transpose per shape */
      const size_t *shape = ocft_small() ? small[s] : big[s];
      mm_case t = plain(shape[0], shape[1], shape[2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.beta = -0.5f;
      align_layout(&t);
      check_case(env, &t, NULL);
      t.alpha = 0.0f; /* beta * C only */
      check_case(env, &t, NULL);
    }
}

/* alpha in {1, 0, -2.5} times beta in {0, 1, 0.5}; beta = 0 over a C full of NaN gives no NaN. */
static void test_matmul_alpha_beta(void **state) {
  ocft_env *env = ocft_get_env(state);
  const float alphas[] = {1.0f, 0.0f, -2.5f}, betas[] = {0.0f, 1.0f, 0.5f};
  const size_t shapes[][3] = {{33, 29, 21}, {32, 32, 32}};
  for (size_t s = 0; s < (ocft_small() ? 1 : OCF_ARRAY_LEN_T(shapes)); s++)
    for (size_t ai = 0; ai < OCF_ARRAY_LEN_T(alphas); ai++)
      for (size_t bi = 0; bi < OCF_ARRAY_LEN_T(betas); bi++) {
        mm_case t = plain(shapes[s][0], shapes[s][1], shapes[s][2]);
        t.alpha = alphas[ai];
        t.beta = betas[bi];
        check_all_variants(env, &t);
        if (betas[bi] == 0.0f) {
          t.nan_c = 1;
          check_all_variants(env, &t);
          t.nan_c = 0;
        }
        if (alphas[ai] == 0.0f) {
          /* alpha = 0 reads neither A nor B: NaNs there give beta * C, not NaN. */
          t.nan_ab = 1;
          check_all_variants(env, &t);
          align_layout(&t); /* and on the aligned kernels */
          check_case(env, &t, NULL);
        }
      }
}

/* Every power-of-two workgroup size that the device and kernel accept gives the reference
   result with every variant; a refused one is OCF_ERR_INVALID_WORKGROUP and changes nothing. */
static void test_matmul_workgroup_sizes(void **state) {
  ocft_env *env = ocft_get_env(state);
  size_t cap = ocft_small() ? 16 : 1024;
  size_t accepted = 0;
  for (size_t wg = 1; wg <= env->info.max_workgroup_size && wg <= cap; wg *= 2) {
    mm_case t = plain(ocft_small() ? 37 : 129, ocft_small() ? 33 : 130, 21);
    t.beta = 0.5f;
    mm_data d;
    mm_data_make(&t, 99, &d);
    cl_mem ab = ocft_buffer(env, d.a_len, d.a), bb = ocft_buffer(env, d.b_len, d.b);
    cl_mem cb = ocft_buffer(env, d.c_len, d.c);
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.workgroup_size = wg;
    ocf_status status = ocf_matmul(env->ctx, t.ta, t.tb, t.m, t.n, t.k, t.alpha, ab, 0, d.lda, bb,
                                   0, d.ldb, t.beta, cb, 0, d.ldc, &launch);
    float *got = ocft_alloc_floats(d.c_len);
    ocft_read(env, cb, d.c_len, got);
    if (status == OCF_ERR_INVALID_WORKGROUP) {
      /* Too large for this device's local memory or this kernel's registers: refused whole. */
      assert_true(wg > 1);
      ocft_assert_unchanged("matmul with a refused workgroup", got, d.c, d.c_len);
    } else {
      ocft_assert_status(status, OCF_SUCCESS);
      mm_check_c("matmul workgroup size", &t, &d, got);
      accepted++;
      for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
        launch.variant = all_variants[v];
        check_case(env, &t, &launch);
        mm_case whole = plain(4 * wg, 4 * wg, 16); /* whole tiles for the CPU row's 4 x 4 */
        if (whole.m <= 128 && !ocft_small()) check_case(env, &whole, &launch);
      }
    }
    clReleaseMemObject(ab);
    clReleaseMemObject(bb);
    clReleaseMemObject(cb);
    free(got);
    mm_data_free(&d);
  }
  assert_true(accepted >= 4); /* 1, 2, 4 and 8 work-items run anywhere */

  /* Not a power of two, or more than the device allows: refused before anything runs. */
  const size_t refused[] = {3, 6, 48, 100, env->info.max_workgroup_size * 2};
  float before[64], after[64], a[64];
  ocft_fill_uniform(before, 64, -1.0f, 1.0f, 3);
  ocft_fill_uniform(a, 64, -1.0f, 1.0f, 4);
  cl_mem ab = ocft_buffer(env, 64, a), cb = ocft_buffer(env, 64, before);
  for (size_t r = 0; r < OCF_ARRAY_LEN_T(refused); r++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.workgroup_size = refused[r];
    ocft_assert_status(ocf_matmul(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 8, 8, 8, 1.0f, ab, 0, 8, ab,
                                  0, 8, 0.0f, cb, 0, 8, &launch),
                       OCF_ERR_INVALID_WORKGROUP);
    assert_true(strstr(ocf_last_error(), "workgroup") != NULL);
  }
  ocft_read(env, cb, 64, after);
  ocft_assert_unchanged("matmul after refused workgroups", after, before, 64);
  clReleaseMemObject(ab);
  clReleaseMemObject(cb);
}

/* One call that must be refused: ocf_matmul with alpha 1, beta 0 and these arguments, or
   ocf_matmul_ex when the row has options. */
typedef struct bad_matmul {
  const char *what;
  ocf_status expected;
  int no_context;
  ocf_transpose ta, tb;
  size_t m, n, k;
  ocft_buf a;
  size_t a_off, lda;
  ocft_buf b;
  size_t b_off, ldb;
  ocft_buf c;
  size_t c_off, ldc;
  ocft_launch_kind launch;
  const ocf_matmul_options *options;
} bad_matmul;

enum { BAD_N = 256 }; /* floats in each buffer of the table */
#define NT OCF_NO_TRANS
#define T OCF_TRANS
#define IN OCFT_IN
#define OUT OCFT_OUT

/* Designated initializers: the members not named are 0 (OCF_F32, FP32, row-major, ...). */
static const ocf_matmul_options options_size_zero = {.size = 0, .batch = 1};
static const ocf_matmul_options options_size_small = {
    .size = offsetof(ocf_matmul_options, bias_dtype), .batch = 1};
static const ocf_matmul_options a_dtype_unknown = {
    .size = sizeof(ocf_matmul_options), .a_dtype = (ocf_dtype)3, .batch = 1};
static const ocf_matmul_options b_dtype_unknown = {
    .size = sizeof(ocf_matmul_options), .b_dtype = (ocf_dtype)-1, .batch = 1};
static const ocf_matmul_options c_dtype_unknown = {
    .size = sizeof(ocf_matmul_options), .c_dtype = (ocf_dtype)7, .batch = 1};

static const bad_matmul bad_matmuls[] = {
    {"no context", OCF_ERR_NULL_ARGUMENT, 1, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0, 4, 0,
     NULL},
    {"A NULL", OCF_ERR_NULL_ARGUMENT, 0, NT, NT, 4, 4, 4, OCFT_NO_BUF, 0, 4, IN, 0, 4, OUT, 0, 4, 0,
     NULL},
    {"B NULL", OCF_ERR_NULL_ARGUMENT, 0, NT, NT, 4, 4, 4, IN, 0, 4, OCFT_NO_BUF, 0, 4, OUT, 0, 4, 0,
     NULL},
    {"C NULL", OCF_ERR_NULL_ARGUMENT, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OCFT_NO_BUF, 0, 4, 0,
     NULL},
    {"trans_a 2", OCF_ERR_INVALID_VALUE, 0, (ocf_transpose)2, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT,
     0, 4, 0, NULL},
    {"trans_b -1", OCF_ERR_INVALID_VALUE, 0, NT, (ocf_transpose)-1, 4, 4, 4, IN, 0, 4, IN, 0, 4,
     OUT, 0, 4, 0, NULL},
    {"unknown variant", OCF_ERR_INVALID_VALUE, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0, 4,
     OCFT_LAUNCH_BAD_VARIANT, NULL},
    {"wait count without a list", OCF_ERR_NULL_ARGUMENT, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4,
     OUT, 0, 4, OCFT_LAUNCH_COUNT_NO_LIST, NULL},
    {"wait list without a count", OCF_ERR_INVALID_VALUE, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4,
     OUT, 0, 4, OCFT_LAUNCH_LIST_NO_COUNT, NULL},
    {"launch size 0", OCF_ERR_INVALID_STRUCT, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0, 4,
     OCFT_LAUNCH_SIZE_ZERO, NULL},
    {"launch size below its first version", OCF_ERR_INVALID_STRUCT, 0, NT, NT, 4, 4, 4, IN, 0, 4,
     IN, 0, 4, OUT, 0, 4, OCFT_LAUNCH_SIZE_SMALL, NULL},
    /* strides shorter than a row, for each transpose: A is m x k or k x m, B k x n or n x k */
    {"lda 4 below k 5", OCF_ERR_INVALID_STRIDE, 0, NT, NT, 4, 6, 5, IN, 0, 4, IN, 0, 6, OUT, 0, 6,
     0, NULL},
    {"lda 5 below m 6 (A transposed)", OCF_ERR_INVALID_STRIDE, 0, T, NT, 6, 4, 3, IN, 0, 5, IN, 0,
     4, OUT, 0, 4, 0, NULL},
    {"ldb 5 below n 6", OCF_ERR_INVALID_STRIDE, 0, NT, NT, 4, 6, 4, IN, 0, 4, IN, 0, 5, OUT, 0, 6,
     0, NULL},
    {"ldb 5 below k 6 (B transposed)", OCF_ERR_INVALID_STRIDE, 0, NT, T, 4, 3, 6, IN, 0, 6, IN, 0,
     5, OUT, 0, 3, 0, NULL},
    {"ldc 5 below n 6", OCF_ERR_INVALID_STRIDE, 0, NT, NT, 4, 6, 4, IN, 0, 4, IN, 0, 6, OUT, 0, 5,
     0, NULL},
    {"ldb 5 below n 6 with k = 0", OCF_ERR_INVALID_STRIDE, 0, NT, NT, 4, 6, 0, IN, 0, 0, IN, 0, 5,
     OUT, 0, 6, 0, NULL},
    /* overflow of an extent */
    {"m whose extent overflows", OCF_ERR_SIZE_OVERFLOW, 0, NT, NT, SIZE_MAX / 2, 4, 4, IN, 0, 4, IN,
     0, 4, OUT, 0, 4, 0, NULL},
    {"lda whose extent overflows", OCF_ERR_SIZE_OVERFLOW, 0, NT, NT, 4, 4, 3, IN, 0, SIZE_MAX / 2,
     IN, 0, 4, OUT, 0, 4, 0, NULL},
    /* buffers too small, for the extent and for the offset */
    {"A 17 x 16 past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, NT, NT, 17, 4, 16, IN, 0, 16, IN, 0,
     4, OUT, 0, 4, 0, NULL},
    {"B 17 x 16 past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, NT, NT, 4, 16, 17, IN, 0, 17, IN, 0,
     16, OUT, 0, 16, 0, NULL},
    {"C 16 x 17 past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, NT, NT, 16, 17, 1, IN, 0, 1, IN, 0,
     17, OUT, 0, 17, 0, NULL},
    {"A offset past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, NT, NT, 4, 4, 4, IN, 241, 4, IN, 0, 4,
     OUT, 0, 4, 0, NULL},
    {"C offset SIZE_MAX", OCF_ERR_BUFFER_TOO_SMALL, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT,
     SIZE_MAX, 4, 0, NULL},
    /* C overlapping A or B: the same buffer, a shifted range, and through a sub-buffer */
    {"C is A", OCF_ERR_ALIASING, 0, NT, NT, 4, 4, 4, OUT, 0, 4, IN, 0, 4, OUT, 0, 4, 0, NULL},
    {"C overlaps B shifted", OCF_ERR_ALIASING, 0, NT, NT, 4, 4, 4, IN, 0, 4, OUT, 8, 4, OUT, 0, 4,
     0, NULL},
    {"A a sub-buffer over C", OCF_ERR_ALIASING, 0, NT, NT, 4, 4, 4, OCFT_OUT_SUB, 0, 4, IN, 0, 4,
     OUT, 10, 4, 0, NULL},
    {"B of another context", OCF_ERR_CONTEXT_MISMATCH, 0, NT, NT, 4, 4, 4, IN, 0, 4, OCFT_FOREIGN,
     0, 4, OUT, 0, 4, 0, NULL},
    {"a queue of another context", OCF_ERR_CONTEXT_MISMATCH, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4,
     OUT, 0, 4, OCFT_LAUNCH_FOREIGN_QUEUE, NULL},
    {"a wait event of another context", OCF_ERR_CONTEXT_MISMATCH, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN,
     0, 4, OUT, 0, 4, OCFT_LAUNCH_FOREIGN_EVENT, NULL},
    {"a NULL wait event", OCF_ERR_NULL_ARGUMENT, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0, 4,
     OCFT_LAUNCH_NULL_EVENT, NULL},
    /* the options of ocf_matmul_ex */
    {"options size 0", OCF_ERR_INVALID_STRUCT, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0, 4, 0,
     &options_size_zero},
    {"options size below its first version", OCF_ERR_INVALID_STRUCT, 0, NT, NT, 4, 4, 4, IN, 0, 4,
     IN, 0, 4, OUT, 0, 4, 0, &options_size_small},
    {"A dtype out of range", OCF_ERR_INVALID_VALUE, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0,
     4, 0, &a_dtype_unknown},
    {"B dtype out of range", OCF_ERR_INVALID_VALUE, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0,
     4, 0, &b_dtype_unknown},
    {"C dtype out of range", OCF_ERR_INVALID_VALUE, 0, NT, NT, 4, 4, 4, IN, 0, 4, IN, 0, 4, OUT, 0,
     4, 0, &c_dtype_unknown},
};

#undef NT
#undef T
#undef IN
#undef OUT

/* Every validation rule returns its own status and leaves C untouched; two legal calls beside
   them (a transposed shape that fits, disjoint ranges of one buffer) succeed. */
static void test_matmul_rejects_bad_arguments(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocft_refusals run;
  ocft_refusals_start(&run, env, BAD_N, 5);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(bad_matmuls); i++) {
    const bad_matmul *b = &bad_matmuls[i];
    ocf_context *ctx = b->no_context ? NULL : env->ctx;
    cl_mem a = ocft_refusals_buffer(&run, b->a), bm = ocft_refusals_buffer(&run, b->b);
    cl_mem c = ocft_refusals_buffer(&run, b->c);
    ocf_launch storage;
    const ocf_launch *launch = ocft_refusals_launch(&run, b->launch, &storage);
    ocf_status status =
        b->options
            ? ocf_matmul_ex(ctx, b->ta, b->tb, b->m, b->n, b->k, 1.0f, a, b->a_off, b->lda, bm,
                            b->b_off, b->ldb, 0.0f, c, b->c_off, b->ldc, b->options, launch)
            : ocf_matmul(ctx, b->ta, b->tb, b->m, b->n, b->k, 1.0f, a, b->a_off, b->lda, bm,
                         b->b_off, b->ldb, 0.0f, c, b->c_off, b->ldc, launch);
    ocft_refusals_record(&run, b->what, status, b->expected);
  }
  /* The transposed shape of the stride rows, fitting: the transpose rule made the difference. */
  ocft_assert_status(ocf_matmul(env->ctx, OCF_TRANS, OCF_NO_TRANS, 6, 4, 3, 1.0f, run.in, 0, 6,
                                run.in, 0, 4, 0.0f, run.out, 0, 4, NULL),
                     OCF_SUCCESS);
  /* Disjoint ranges of one buffer are fine: C after A and B in the same buffer. */
  ocft_assert_status(ocf_matmul(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 4, 4, 4, 1.0f, run.out, 0, 4,
                                run.out, 16, 4, 0.0f, run.out, 32, 4, NULL),
                     OCF_SUCCESS);
  ocft_refusals_finish(&run);
}

/* m = 0 or n = 0: success, nothing written, and an event still comes back when asked for. */
static void test_matmul_empty(void **state) {
  ocft_env *env = ocft_get_env(state);
  float before[16], after[16];
  ocft_fill_uniform(before, 16, -1.0f, 1.0f, 8);
  cl_mem xb = ocft_buffer(env, 16, before), cb = ocft_buffer(env, 16, before);
  cl_event done = NULL;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.event = &done;
  ocft_assert_status(ocf_matmul(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 0, 4, 4, 1.0f, xb, 0, 4, xb,
                                0, 4, 0.0f, cb, 0, 4, &launch),
                     OCF_SUCCESS);
  assert_non_null(done);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done);
  ocft_assert_status(ocf_matmul(env->ctx, OCF_TRANS, OCF_TRANS, 4, 0, 4, 1.0f, xb, 0, 4, xb, 0, 4,
                                0.0f, cb, 0, 0, NULL),
                     OCF_SUCCESS);
  ocft_read(env, cb, 16, after);
  ocft_assert_unchanged("matmul with no work", after, before, 16);
  clReleaseMemObject(xb);
  clReleaseMemObject(cb);
}

/* The out event completes after the work, and the wait list holds the kernel back. */
static void test_matmul_events(void **state) {
  ocft_env *env = ocft_get_env(state);
  mm_case t = plain(19, 23, 29);
  mm_data d;
  mm_data_make(&t, 41, &d);
  cl_mem ab = ocft_buffer(env, d.a_len, d.a), bb = ocft_buffer(env, d.b_len, d.b);
  cl_mem cb = ocft_buffer(env, d.c_len, d.c);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env->cl, &err), done = NULL;
  assert_int_equal(err, CL_SUCCESS);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.num_wait_events = 1;
  launch.wait_events = &gate;
  launch.event = &done;
  ocft_assert_status(ocf_matmul(env->ctx, t.ta, t.tb, t.m, t.n, t.k, t.alpha, ab, 0, d.lda, bb, 0,
                                d.ldb, t.beta, cb, 0, d.ldc, &launch),
                     OCF_SUCCESS);
  assert_non_null(done);
  cl_int now = 0;
  assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof now, &now, NULL),
                   CL_SUCCESS);
  assert_true(now != CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  float *got = ocft_alloc_floats(d.c_len);
  ocft_read(env, cb, d.c_len, got);
  mm_check_c("matmul after events", &t, &d, got);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(cb);
  free(got);
  mm_data_free(&d);
}

/* The host-array call: every transpose, padded ldc whose gaps stay untouched, beta = 0 over NaN,
   and its own argument checks. */
static void test_matmul_host(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* Every transpose with every sign of alpha and beta (negative, zero, positive): the host form
     copies C in only for beta != 0 and must not take a negative beta for zero. */
  static const float alphas[3] = {-2.5f, 0.0f, 1.5f}, betas[3] = {-0.75f, 0.0f, 0.5f};
  for (int tr = 0; tr < 4; tr++)
    for (int sign = 0; sign < 9; sign++) {
      mm_case t = plain(37, 41, 23);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.lda_pad = 2, t.ldb_pad = 1, t.ldc_pad = 3;
      t.alpha = alphas[sign % 3];
      t.beta = betas[sign / 3];
      t.nan_c = t.beta == 0.0f;
      mm_data d;
      mm_data_make(&t, 77 + (uint64_t)(tr * 9 + sign), &d);
      float *got = ocft_alloc_floats(d.c_len);
      memcpy(got, d.c, d.c_len * sizeof *got);
      ocft_assert_status(ocf_matmul_host(env->ctx, t.ta, t.tb, t.m, t.n, t.k, t.alpha, d.a, d.lda,
                                         d.b, d.ldb, t.beta, got, d.ldc),
                         OCF_SUCCESS);
      mm_check_c("matmul_host", &t, &d, got);
      free(got);
      mm_data_free(&d);
    }
  float x[16] = {0}, c[16] = {0};
  ocft_assert_status(
      ocf_matmul_host(NULL, OCF_NO_TRANS, OCF_NO_TRANS, 2, 2, 2, 1, x, 2, x, 2, 0, c, 2),
      OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(
      ocf_matmul_host(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 2, 2, 2, 1, NULL, 2, x, 2, 0, c, 2),
      OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(
      ocf_matmul_host(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 2, 2, 2, 1, x, 2, x, 2, 0, NULL, 2),
      OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(
      ocf_matmul_host(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 2, 2, 2, 1, x, 1, x, 2, 0, c, 2),
      OCF_ERR_INVALID_STRIDE);
  ocft_assert_status(
      ocf_matmul_host(env->ctx, (ocf_transpose)3, OCF_NO_TRANS, 2, 2, 2, 1, x, 2, x, 2, 0, c, 2),
      OCF_ERR_INVALID_VALUE);
  /* no work: NULL arrays are fine where nothing is read or written */
  ocft_assert_status(
      ocf_matmul_host(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 0, 2, 2, 1, NULL, 2, x, 2, 0, NULL, 2),
      OCF_SUCCESS);
  /* k = 0: A and B may be NULL, C = beta * C */
  c[0] = 2.0f, c[1] = -4.0f, c[2] = 8.0f, c[3] = 1.0f;
  ocft_assert_status(ocf_matmul_host(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 2, 2, 0, 1, NULL, 0,
                                     NULL, 2, 0.5f, c, 2),
                     OCF_SUCCESS);
  assert_true(c[0] == 1.0f && c[1] == -2.0f && c[2] == 4.0f && c[3] == 0.5f);
}

#ifdef OCF_HAVE_CLBLAST
/* CLBlast's SGEMM on the same device and data: both must be within the error bound of the
   exact result, so they differ by at most twice that bound. */
static void check_against_clblast(ocft_env *env, const mm_case *t) {
  mm_data d;
  mm_data_make(t, 1234 + t->m, &d);
  cl_mem ab = ocft_buffer(env, d.a_len, d.a), bb = ocft_buffer(env, d.b_len, d.b);
  cl_mem ours = ocft_buffer(env, d.c_len, d.c), theirs = ocft_buffer(env, d.c_len, d.c);
  ocft_assert_status(ocf_matmul(env->ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha, ab, t->a_off,
                                d.lda, bb, t->b_off, d.ldb, t->beta, ours, t->c_off, d.ldc, NULL),
                     OCF_SUCCESS);
  cl_command_queue queue = env->queue;
  CLBlastStatusCode code = CLBlastSgemm(
      CLBlastLayoutRowMajor, t->ta ? CLBlastTransposeYes : CLBlastTransposeNo,
      t->tb ? CLBlastTransposeYes : CLBlastTransposeNo, t->m, t->n, t->k, t->alpha, ab, t->a_off,
      d.lda, bb, t->b_off, d.ldb, t->beta, theirs, t->c_off, d.ldc, &queue, NULL);
  if (code != CLBlastSuccess) {
    print_error("CLBlastSgemm failed with status %d\n", (int)code);
    fail();
  }
  float *got = ocft_alloc_floats(d.c_len), *ref = ocft_alloc_floats(d.c_len);
  ocft_read(env, ours, d.c_len, got);
  ocft_read(env, theirs, d.c_len, ref);
  mm_check_c("matmul vs reference", t, &d, got);
  mm_check_c("CLBlast vs reference", t, &d, ref);
  for (size_t i = 0; i < t->m; i++)
    for (size_t j = 0; j < t->n; j++) {
      size_t at = t->c_off + i * d.ldc + j;
      double diff = fabs((double)got[at] - ref[at]);
      if (!(diff <= 2.0 * d.tol[i * t->n + j])) {
        print_error("matmul vs CLBlast at (%zu, %zu): %.9g vs %.9g\n", i, j, got[at], ref[at]);
        fail();
      }
    }
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(ours);
  clReleaseMemObject(theirs);
  free(got), free(ref);
  mm_data_free(&d);
}
#endif

static void test_matmul_against_clblast(void **state) {
  ocft_env *env = ocft_get_env(state);
#ifdef OCF_HAVE_CLBLAST
  /* Under Oclgrind CLBlast's own kernels would be simulated too (and judged by its checks):
     that cross-check belongs to the real-device run. */
  if (ocft_small()) skip();
  const size_t shapes[][3] = {{128, 128, 64}, {129, 65, 130}, {256, 192, 96}, {31, 17, 13}};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++)
    for (int tr = 0; tr < 4; tr++) {
      mm_case t = plain(shapes[s][0], shapes[s][1], shapes[s][2]);
      t.ta = (ocf_transpose)(tr & 1);
      t.tb = (ocf_transpose)(tr >> 1);
      t.alpha = 0.75f;
      t.beta = tr == 3 ? 0.0f : -1.5f;
      t.ldc_pad = 4;
      t.c_off = 8;
      check_against_clblast(env, &t);
    }
#else
  (void)env;
  skip(); /* built without CLBlast */
#endif
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matmul_small_and_prime_shapes),
      cmocka_unit_test(test_matmul_tile_remainders),
      cmocka_unit_test(test_matmul_k_zero_and_one),
      cmocka_unit_test(test_matmul_transposes),
      cmocka_unit_test(test_matmul_strides_and_offsets),
      cmocka_unit_test(test_matmul_interior_and_edges),
      cmocka_unit_test(test_matmul_mixed_corners),
      cmocka_unit_test(test_matmul_alpha_beta),
      cmocka_unit_test(test_matmul_workgroup_sizes),
      cmocka_unit_test(test_matmul_rejects_bad_arguments),
      cmocka_unit_test(test_matmul_empty),
      cmocka_unit_test(test_matmul_events),
      cmocka_unit_test(test_matmul_host),
      cmocka_unit_test(test_matmul_against_clblast),
  };
  return cmocka_run_group_tests_name("matmul", tests, ocft_group_setup, ocft_group_teardown);
}
