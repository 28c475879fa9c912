/*
 * ocf_softmax against the CPU reference (double, torch semantics for non-finite values).
 *
 * Tolerance: ocft_check_softmax, argued in harness/tolerance.c from the kernels' arithmetic: every
 * element tightly against its row's common factor, and that factor within the row's bound.
 */
#include "reference.h"
#include "test_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Asserts that rows x cols of got (row stride got_ld) are softmax of `in` (its reference: want)
   within the model, for a call made with `launch`. */
static void assert_softmax(const ocft_env *env, const char *what, size_t rows, size_t cols,
                           const float *in, size_t in_ld, const double *want, const float *got,
                           size_t got_ld, const ocf_launch *launch) {
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(rows, cols, in, in_ld, want, got, got_ld, launch ? launch->workgroup_size : 0,
                     &env->info, &check);
  ocft_assert_check(what, &check);
}

typedef struct shape {
  size_t rows, cols, in_off, in_ld, out_off, out_ld;
} shape;

static size_t extent_of(size_t rows, size_t cols, size_t ld) {
  return rows && cols ? (rows - 1) * ld + cols : 0;
}

/* Whether element i of out lies inside the matrix of shape s. */
static int in_matrix(const shape *s, size_t i) {
  if (i < s->out_off) return 0;
  size_t rel = i - s->out_off;
  return rel / s->out_ld < s->rows && rel % s->out_ld < s->cols;
}

static const shape empty_shape = {0, 0, 0, 1, 0, 1};

/*
 * Runs one out-of-place call on fresh buffers: `in_all` holds in_off + extent floats. Compares
 * every element with the reference and checks that out outside the matrix (before, between rows,
 * after) is untouched.
 */
static void check_softmax(ocft_env *env, const char *what, const shape *s, const float *in_all,
                          const ocf_launch *launch) {
  size_t in_len = s->in_off + extent_of(s->rows, s->cols, s->in_ld);
  size_t out_len = s->out_off + extent_of(s->rows, s->cols, s->out_ld) + 7;
  size_t n = s->rows * s->cols;
  float *got = ocft_alloc_floats(out_len), *sentinel = ocft_alloc_floats(out_len);
  double *want = ocft_alloc_doubles(n);
  ocft_fill_uniform(sentinel, out_len, 1e6f, 2e6f, 77 + n);
  ocf_ref_softmax(s->rows, s->cols, in_all + s->in_off, s->in_ld, want);

  cl_mem ib = ocft_buffer(env, in_len, in_all), ob = ocft_buffer(env, out_len, sentinel);
  ocf_status status = ocf_softmax(env->ctx, s->rows, s->cols, ib, s->in_off, s->in_ld, ob,
                                  s->out_off, s->out_ld, launch);
  ocft_read(env, ob, out_len, got);
  if (launch && ocft_refused_by_kernel_limit(status, launch->workgroup_size)) {
    /* The kernel's own limit is below the size asked (NVIDIA reports 256, rusticl 32): refused,
       nothing touched. */
    ocft_assert_unchanged(what, got, sentinel, out_len);
    out_len = 0;
  } else {
    ocft_assert_status(status, OCF_SUCCESS);
  }
  if (out_len == 0) s = &empty_shape;
  assert_softmax(env, what, s->rows, s->cols, in_all + s->in_off, s->in_ld, want, got + s->out_off,
                 s->out_ld, launch);
  for (size_t i = 0; i < out_len; i++)
    if (!in_matrix(s, i)) ocft_assert_unchanged(what, got + i, sentinel + i, 1);
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
  free(got), free(sentinel), free(want);
}

/* check_softmax on uniform data in [lo, hi). */
static void check_uniform(ocft_env *env, const char *what, const shape *s, float lo, float hi,
                          const ocf_launch *launch) {
  size_t in_len = s->in_off + extent_of(s->rows, s->cols, s->in_ld);
  float *in = ocft_alloc_floats(in_len);
  ocft_fill_uniform(in, in_len, lo, hi, 1 + s->rows * 131 + s->cols);
  check_softmax(env, what, s, in, launch);
  free(in);
}

static const ocf_variant all_variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL,
                                           OCF_VARIANT_BASELINE};

/* Dense shapes: single rows up to 100000, many short rows, lengths around powers of two and
   primes. On a CPU they reach every kernel: rows in registers, the two-pass row and the split. */
static void test_softmax_shapes_all_variants(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][2] = {{1, 1},     {1, 2},     {1, 3},     {1, 7},     {1, 31},
                                     {1, 100},   {2, 257},   {3, 300},   {1, 1023},  {1, 1024},
                                     {1, 1025},  {3, 4097},  {8, 4099},  {1000, 13}, {300, 128},
                                     {17, 2053}, {2, 30011}, {1, 65537}, {1, 100000}};
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++) {
      shape s = {shapes[i][0], shapes[i][1], 0, shapes[i][1], 0, shapes[i][1]};
      if (ocft_small() && (s.cols > 300 || s.rows > 8)) continue;
      check_uniform(env, "softmax shapes", &s, -8.0f, 8.0f, &launch);
    }
  }
}

/* A stride: cols plus `extra`, or with ROUND_LD the next multiple of 16 (every vector width
   divides it, so rows of cols % VW != 0 run the vector kernels with a partial last vector). */
enum { ROUND_LD = 1000 };
static size_t ld_for(size_t cols, size_t extra) {
  return extra == ROUND_LD ? (cols + 15) / 16 * 16 : cols + extra;
}

/* Row strides longer than the row, aligned and misaligned offsets and strides. */
static void test_softmax_offsets_and_strides(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t layouts[][4] = {/* in_off, in_ld extra, out_off, out_ld extra */
                                      {0, 8, 0, 16},
                                      {16, 0, 32, 4},
                                      {1, 0, 0, 0},
                                      {0, 0, 3, 0},
                                      {5, 3, 7, 1},
                                      {4, 1, 4, 1},
                                      {13, 0, 13, 0},
                                      {0, ROUND_LD, 0, ROUND_LD},
                                      {16, ROUND_LD, 32, ROUND_LD}};
  static const size_t shapes[][2] = {{1, 1}, {3, 5}, {4, 61}, {5, 300}, {9, 1031}, {2, 20011}};
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    for (size_t l = 0; l < OCF_ARRAY_LEN_T(layouts); l++)
      for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++) {
        size_t rows = shapes[i][0], cols = shapes[i][1];
        if (ocft_small() && (cols > 300 || (l % 3 != 0 && l < 7 && cols > 61))) continue;
        shape s = {rows,          cols,
                   layouts[l][0], ld_for(cols, layouts[l][1]),
                   layouts[l][2], ld_for(cols, layouts[l][3])};
        check_uniform(env, "softmax offsets", &s, -4.0f, 4.0f, &launch);
      }
  }
}

/* One in-place call (out == in: same buffer, offset `off` and stride `ld`) on uniform data in
   [-6, 6); the gaps between rows, and the floats before and after, keep the input. */
static void check_in_place(ocft_env *env, const char *what, size_t rows, size_t cols, size_t off,
                           size_t ld, unsigned seed, const ocf_launch *launch) {
  size_t len = off + extent_of(rows, cols, ld) + 3;
  float *in = ocft_alloc_floats(len), *got = ocft_alloc_floats(len);
  double *want = ocft_alloc_doubles(rows * cols);
  ocft_fill_uniform(in, len, -6.0f, 6.0f, seed);
  ocf_ref_softmax(rows, cols, in + off, ld, want);
  cl_mem b = ocft_buffer(env, len, in);
  ocft_assert_status(ocf_softmax(env->ctx, rows, cols, b, off, ld, b, off, ld, launch),
                     OCF_SUCCESS);
  ocft_read(env, b, len, got);
  shape s = {rows, cols, off, ld, off, ld};
  assert_softmax(env, what, rows, cols, in + off, ld, want, got + off, ld, launch);
  for (size_t j = 0; j < len; j++)
    if (!in_matrix(&s, j)) ocft_assert_unchanged(what, got + j, in + j, 1);
  clReleaseMemObject(b);
  free(in), free(got), free(want);
}

/* out == in (same buffer, offset and stride); the gaps between rows keep the input. */
static void test_softmax_in_place(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][4] = {/* rows, cols, offset, ld */
                                     {1, 1, 0, 1},         {4, 100, 4, 104},
                                     {3, 77, 1, 80},       {2, 1500, 8, 1500},
                                     {2, 30011, 0, 30011}, {1, 70001, 3, 70001}};
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++) {
      size_t rows = shapes[i][0], cols = shapes[i][1], off = shapes[i][2], ld = shapes[i][3];
      if (ocft_small() && cols > 300) continue;
      check_in_place(env, "softmax in place", rows, cols, off, ld, 40 + (unsigned)i, &launch);
    }
  }
}

/* test_softmax_interleaved's cases on the context's tuning now. */
static void interleaved_cases(ocft_env *env, const size_t (*shapes)[2], size_t count) {
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++)
    for (size_t i = 0; i < count; i++)
      for (int order = 0; order < 3; order++) {
        /* out after in's rows, before them, or one element on (in's and out's rows then start
           alike within a vector when cols is a multiple of it, and in's row r + 1 starts where
           out's row r, written by another segment, ends). */
        const size_t rows = shapes[i][0], cols = shapes[i][1], ld = 2 * cols;
        const size_t in_off = order == 1 ? cols : order == 2 ? 1 : 0;
        const size_t out_off = order == 1 ? 0 : order == 2 ? 1 + cols : cols;
        const size_t len = (rows + 1) * ld;
        float *data = ocft_alloc_floats(len), *got = ocft_alloc_floats(len);
        double *want = ocft_alloc_doubles(rows * cols);
        ocft_fill_uniform(data, len, -5.0f, 5.0f, 90 + (unsigned)i);
        ocf_ref_softmax(rows, cols, data + in_off, ld, want);
        cl_mem b = ocft_buffer(env, len, data);
        ocf_launch launch = OCF_LAUNCH_INIT;
        launch.variant = all_variants[v];
        ocft_assert_status(
            ocf_softmax(env->ctx, rows, cols, b, in_off, ld, b, out_off, ld, &launch), OCF_SUCCESS);
        if (strstr(ocf_last_plan(), "WHOLE_ENDS=1")) {
          print_error("softmax interleaved %zu x %zu planned whole ends: %s\n", rows, cols,
                      ocf_last_plan());
          fail();
        }
        ocft_read(env, b, len, got);
        assert_softmax(env, "softmax interleaved", rows, cols, data + in_off, ld, want,
                       got + out_off, ld, &launch);
        for (size_t r = 0; r < rows; r++)
          ocft_assert_unchanged("softmax interleaved: in", got + in_off + r * ld,
                                data + in_off + r * ld, cols);

        /* The host form takes the same layout, and keeps in as it was. */
        memcpy(got, data, len * sizeof *got);
        ocft_assert_status(
            ocf_softmax_host(env->ctx, rows, cols, got + in_off, ld, got + out_off, ld),
            OCF_SUCCESS);
        assert_softmax(env, "softmax_host interleaved", rows, cols, data + in_off, ld, want,
                       got + out_off, ld, NULL);
        for (size_t r = 0; r < rows; r++)
          ocft_assert_unchanged("softmax_host interleaved: in", got + in_off + r * ld,
                                data + in_off + r * ld, cols);
        clReleaseMemObject(b);
        free(data), free(got), free(want);
      }
}

/* out's rows interleaved with in's in one buffer, sharing no element (in: columns 0..cols-1 of
   a 2 cols wide matrix, out: the columns after them, or the other way round): allowed, softmax
   of in lands in out, and in, read only, keeps every value. Also with rows.whole_ends, which a
   call whose out meets in's span must not take (its whole reads would read out's elements as
   other work-items write them: a race Oclgrind reports). */
static void test_softmax_interleaved(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][2] = {{8, 8}, {3, 100}, {40, 104}, {2, 3001}, {5, 1}};
  for (int whole_ends = 0; whole_ends < 2; whole_ends++) {
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "softmax", OCF_F32, NULL,
                                              whole_ends ? "rows.whole_ends=1" : NULL),
                       OCF_SUCCESS);
    interleaved_cases(env, shapes, OCF_ARRAY_LEN_T(shapes));
  }
  /* The control: the same tuning with out in a buffer of its own does read whole ends. */
  enum { ROWS = 3, COLS = 101 };
  float data[ROWS * COLS];
  ocft_fill_uniform(data, ROWS * COLS, -5.0f, 5.0f, 95);
  cl_mem in = ocft_buffer(env, ROWS * COLS, data), out = ocft_buffer(env, ROWS * COLS, NULL);
  ocft_assert_status(ocf_softmax(env->ctx, ROWS, COLS, in, 0, COLS, out, 0, COLS, NULL),
                     OCF_SUCCESS);
  if (!strstr(ocf_last_plan(), "WHOLE_ENDS=1")) {
    print_error("softmax %d x %d, out apart, planned no whole ends: %s\n", ROWS, COLS,
                ocf_last_plan());
    fail();
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "softmax", OCF_F32, NULL, NULL), OCF_SUCCESS);
}

/* Many short rows, several a workgroup (softmax_rows on every tuning row): lengths around a warp
   and the vector widths, row counts that leave the last group ragged (37, 1003) or hold a single
   row, dense, strided (aligned and not) and offset, in place, and with explicit workgroup sizes
   that change the rows a group (96 is not a power of two: 32-wide segments, 3 rows a group). */
static void test_softmax_many_short_rows(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t cols_list[] = {1, 3, 31, 32, 33, 127, 128, 129, 255};
  static const size_t rows_list[] = {1, 37, 1003};
  static const size_t layouts[][4] = {/* in_off, in_ld extra, out_off, out_ld extra */
                                      {0, 0, 0, 0},
                                      {3, 5, 16, 1},
                                      {16, ROUND_LD, 32, ROUND_LD}};
  static const size_t wgs[] = {0, 32, 96, 128};
  for (size_t c = 0; c < OCF_ARRAY_LEN_T(cols_list); c++) {
    size_t cols = cols_list[c];
    for (size_t r = 0; r < OCF_ARRAY_LEN_T(rows_list); r++) {
      size_t rows = rows_list[r];
      if (ocft_small() && rows > 37) continue;
      for (size_t l = 0; l < OCF_ARRAY_LEN_T(layouts); l++) {
        shape s = {rows,          cols,
                   layouts[l][0], ld_for(cols, layouts[l][1]),
                   layouts[l][2], ld_for(cols, layouts[l][3])};
        check_uniform(env, "softmax short rows", &s, -8.0f, 8.0f, NULL);
      }
      check_in_place(env, "softmax short rows in place", rows, cols, 4, ld_for(cols, ROUND_LD),
                     (unsigned)(cols + rows), NULL);
    }
    for (size_t w = 1; w < OCF_ARRAY_LEN_T(wgs); w++) {
      if (wgs[w] > env->info.max_workgroup_size || (ocft_small() && c % 2)) continue;
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.workgroup_size = wgs[w];
      shape s = {ocft_small() ? 37 : 1003, cols, 0, cols, 0, cols};
      check_uniform(env, "softmax short rows, workgroup", &s, -8.0f, 8.0f, &launch);
    }
  }
}

/* Short rows with the special values of test_softmax_non_finite, row r taking pattern r % 9, so
   that finite, NaN and infinite rows share workgroups (and the last, ragged one). */
static void test_softmax_short_rows_non_finite(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t cols_list[] = {1, 3, 32, 33, 128, 129};
  const size_t rows = ocft_small() ? 23 : 301;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(cols_list); i++) {
    size_t cols = cols_list[i];
    float *in = ocft_alloc_floats(rows * cols);
    ocft_fill_uniform(in, rows * cols, -5.0f, 5.0f, 7 + (unsigned)cols);
    for (size_t r = 0; r < rows; r++) {
      float *x = in + r * cols;
      for (size_t c = 0; c < cols; c++) {
        int spot = c == 0 || c == cols / 2 || c == cols - 1;
        switch (r % 9) {
        case 0:
          x[c] = spot ? -INFINITY : x[c];
          break;
        case 1:
          x[c] = -INFINITY;
          break;
        case 2:
          x[c] = c == cols / 2 ? NAN : x[c];
          break;
        case 3:
          x[c] = c == cols - 1 ? INFINITY : x[c];
          break;
        case 4:
          x[c] = c % 2 ? -INFINITY : INFINITY;
          break;
        case 5:
          x[c] = c == 0 ? NAN : -INFINITY;
          break;
        case 6:
          x[c] = c == cols - 1 ? 1.0f : -INFINITY;
          break;
        case 7:
          x[c] = c % 3 ? -INFINITY : x[c];
          break;
        default:
          break; /* finite */
        }
      }
    }
    shape s = {rows, cols, 0, cols, 0, cols};
    check_softmax(env, "softmax short rows non-finite", &s, in, NULL);
    free(in);
  }
}

/* Magnitudes of 1e4 (exp would overflow without the max subtracted), a narrow band around 1e4
   (many terms of similar size), and a constant row (exactly 1/cols everywhere). */
static void test_softmax_large_magnitudes(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t cols_list[] = {5, 257, 4099, 50000};
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cols_list); i++) {
      size_t cols = cols_list[i];
      if (ocft_small() && cols > 300) continue;
      shape s = {3, cols, 0, cols, 0, cols};
      check_uniform(env, "softmax |x| ~ 1e4", &s, -1e4f, 1e4f, &launch);
      check_uniform(env, "softmax x ~ 1e4 +- 8", &s, 1e4f - 8.0f, 1e4f + 8.0f, &launch);
      float *in = ocft_alloc_floats(3 * cols);
      for (size_t j = 0; j < 3 * cols; j++)
        in[j] = j < cols ? -3e4f : j < 2 * cols ? 0.0f : 3e38f;
      check_softmax(env, "softmax constant rows", &s, in, &launch);
      free(in);
    }
  }
}

/* torch.softmax's rules, with the special values at the start, the middle and the end of rows
   of several lengths (so they land in different work-items, vectors, tails and split parts). */
static void test_softmax_non_finite(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t cols_list[] = {1, 2, 5, 33, 300, 4099, 40009};
  enum { ROWS = 9 };
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cols_list); i++) {
      size_t cols = cols_list[i];
      if (ocft_small() && cols > 300) continue;
      float *in = ocft_alloc_floats(ROWS * cols);
      ocft_fill_uniform(in, ROWS * cols, -5.0f, 5.0f, 90 + cols);
      size_t spots[] = {0, cols / 2, cols - 1};
      for (size_t k = 0; k < 3; k++) {
        size_t c = spots[k];
        in[0 * cols + c] = -INFINITY;           /* row 0: some -inf entries -> 0 */
        in[2 * cols + c] = NAN;                 /* row 2: NaN -> row NaN */
        in[3 * cols + c] = INFINITY;            /* row 3: +inf -> row NaN */
        in[5 * cols + c] = k ? -INFINITY : NAN; /* row 5: NaN among -inf -> NaN */
      }
      for (size_t c = 0; c < cols; c++) {
        in[1 * cols + c] = -INFINITY;                            /* row 1: all -inf -> NaN */
        in[4 * cols + c] = c % 2 ? -INFINITY : INFINITY;         /* row 4: +inf and -inf -> NaN */
        in[6 * cols + c] = c == cols - 1 ? 1.0f : -INFINITY;     /* row 6: one finite -> 1, 0 */
        in[7 * cols + c] = c % 3 ? -INFINITY : in[7 * cols + c]; /* row 7: mostly -inf */
      }
      /* row 8 stays finite: its neighbours must not disturb it */
      shape s = {ROWS, cols, 0, cols, 0, cols};
      check_softmax(env, "softmax non-finite", &s, in, &launch);
      free(in);
    }
  }
}

/* Every workgroup size the device and kernel accept gives the reference within tolerance (which
   widens with the serial share, wg small); one above the device's maximum is refused with
   OCF_ERR_INVALID_WORKGROUP and changes nothing. */
static void test_softmax_workgroup_sizes(void **state) {
  ocft_env *env = ocft_get_env(state);
  size_t max = env->info.max_workgroup_size;
  const size_t candidates[] = {1, 2, 3, 7, 32, 64, 100, 128, 256, 512, 1000, 1024, 2048, 4096};
  const size_t cols = ocft_small() ? 300 : 4099;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(candidates); i++) {
    if (candidates[i] > max || (ocft_small() && candidates[i] > 64)) continue;
    for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.workgroup_size = candidates[i];
      launch.variant = all_variants[v];
      shape aligned = {3, cols, 0, cols + 5, 16, cols + 11};
      shape misaligned = {2, cols, 1, cols, 2, cols + 1};
      shape one_row = {1, cols, 0, cols, 0, cols};
      check_uniform(env, "softmax workgroup", &aligned, -8.0f, 8.0f, &launch);
      if (v == 0) check_uniform(env, "softmax workgroup", &misaligned, -8.0f, 8.0f, &launch);
      if (v == 0) check_uniform(env, "softmax workgroup", &one_row, -8.0f, 8.0f, &launch);
    }
  }
  float before[64], after[64];
  ocft_fill_uniform(before, 64, -1.0f, 1.0f, 3);
  cl_mem ib = ocft_buffer(env, 64, before), ob = ocft_buffer(env, 64, before);
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.workgroup_size = max + 1;
    launch.variant = all_variants[v];
    ocft_assert_status(ocf_softmax(env->ctx, 8, 8, ib, 0, 8, ob, 0, 8, &launch),
                       OCF_ERR_INVALID_WORKGROUP);
    assert_true(strstr(ocf_last_error(), "workgroup") != NULL);
  }
  ocft_read(env, ob, 64, after);
  ocft_assert_unchanged("softmax with a refused workgroup", after, before, 64);
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
}

/* One call that must be refused: ocf_softmax with these arguments, or ocf_softmax_ex when the
   row has options. */
typedef struct bad_softmax {
  const char *what;
  ocf_status expected;
  int no_context;
  size_t rows, cols;
  ocft_buf in;
  size_t in_off, in_ld;
  ocft_buf out;
  size_t out_off, out_ld;
  ocft_launch_kind launch;
  const ocf_softmax_options *options;
} bad_softmax;

enum { BAD_N = 64 }; /* floats in each buffer of the table */

/* Designated initializers: the members not named are 0 (OCF_F32, no lengths, ...). */
static const ocf_softmax_options options_size_zero = {.size = 0, .scale = 1.0f};
static const ocf_softmax_options options_size_small = {
    .size = offsetof(ocf_softmax_options, lengths_offset), .scale = 1.0f};
static const ocf_softmax_options in_dtype_unknown = {
    .size = sizeof(ocf_softmax_options), .in_dtype = (ocf_dtype)3, .scale = 1.0f};
static const ocf_softmax_options out_dtype_unknown = {
    .size = sizeof(ocf_softmax_options), .out_dtype = (ocf_dtype)-1, .scale = 1.0f};
static const ocf_softmax_options scale_zero = {.size = sizeof(ocf_softmax_options), .scale = 0.0f};
static const ocf_softmax_options scale_infinite = {.size = sizeof(ocf_softmax_options),
                                                   .scale = INFINITY};

static const bad_softmax bad_softmaxes[] = {
    {"no context", OCF_ERR_NULL_ARGUMENT, 1, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, NULL},
    {"in NULL", OCF_ERR_NULL_ARGUMENT, 0, 8, 8, OCFT_NO_BUF, 0, 8, OCFT_OUT, 0, 8, 0, NULL},
    {"out NULL", OCF_ERR_NULL_ARGUMENT, 0, 8, 8, OCFT_IN, 0, 8, OCFT_NO_BUF, 0, 8, 0, NULL},
    {"in NULL with no rows", OCF_ERR_NULL_ARGUMENT, 0, 0, 8, OCFT_NO_BUF, 0, 8, OCFT_OUT, 0, 8, 0,
     NULL},
    {"in_ld below cols", OCF_ERR_INVALID_STRIDE, 0, 8, 8, OCFT_IN, 0, 7, OCFT_OUT, 0, 8, 0, NULL},
    {"out_ld below cols", OCF_ERR_INVALID_STRIDE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 7, 0, NULL},
    {"in_ld 0 for one row", OCF_ERR_INVALID_STRIDE, 0, 1, 8, OCFT_IN, 0, 0, OCFT_OUT, 0, 8, 0,
     NULL},
    {"rows whose extent overflows", OCF_ERR_SIZE_OVERFLOW, 0, SIZE_MAX / 4, 8, OCFT_IN, 0, 8,
     OCFT_OUT, 0, 8, 0, NULL},
    {"out_ld whose extent overflows", OCF_ERR_SIZE_OVERFLOW, 0, 2, 8, OCFT_IN, 0, 8, OCFT_OUT, 0,
     SIZE_MAX / 4, 0, NULL},
    {"one row whose bytes overflow", OCF_ERR_SIZE_OVERFLOW, 0, 1, SIZE_MAX / 2, OCFT_IN, 0,
     SIZE_MAX / 2, OCFT_OUT, 0, SIZE_MAX / 2, 0, NULL},
    {"in offset past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, 8, 8, OCFT_IN, 1, 8, OCFT_OUT, 0, 8,
     0, NULL},
    {"out offset past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 1, 8,
     0, NULL},
    {"in_ld past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, 8, 8, OCFT_IN, 0, 9, OCFT_OUT, 0, 8, 0,
     NULL},
    {"in offset SIZE_MAX", OCF_ERR_BUFFER_TOO_SMALL, 0, 1, 1, OCFT_IN, SIZE_MAX, 1, OCFT_OUT, 0, 8,
     0, NULL},
    {"unknown variant", OCF_ERR_INVALID_VALUE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_BAD_VARIANT, NULL},
    {"wait count without a list", OCF_ERR_NULL_ARGUMENT, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_COUNT_NO_LIST, NULL},
    {"wait list without a count", OCF_ERR_INVALID_VALUE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_LIST_NO_COUNT, NULL},
    {"launch size 0", OCF_ERR_INVALID_STRUCT, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_SIZE_ZERO, NULL},
    {"launch size below its first version", OCF_ERR_INVALID_STRUCT, 0, 8, 8, OCFT_IN, 0, 8,
     OCFT_OUT, 0, 8, OCFT_LAUNCH_SIZE_SMALL, NULL},
    /* overlap other than exactly in place: shifted, same start with another stride, sub-buffer */
    {"out shifted over in", OCF_ERR_ALIASING, 0, 4, 8, OCFT_OUT, 0, 8, OCFT_OUT, 1, 8, 0, NULL},
    {"in shifted over out", OCF_ERR_ALIASING, 0, 4, 8, OCFT_OUT, 8, 8, OCFT_OUT, 0, 8, 0, NULL},
    {"in place with another stride", OCF_ERR_ALIASING, 0, 4, 8, OCFT_OUT, 0, 8, OCFT_OUT, 0, 9, 0,
     NULL},
    {"out a sub-buffer over in", OCF_ERR_ALIASING, 0, 2, 8, OCFT_OUT, 8, 8, OCFT_OUT_SUB, 0, 8, 0,
     NULL},
    /* interleaved rows (one stride) are refused only when they share an element; with two
       strides, spans that meet count as sharing */
    {"interleaved rows sharing a column", OCF_ERR_ALIASING, 0, 4, 8, OCFT_OUT, 0, 16, OCFT_OUT, 7,
     16, 0, NULL},
    {"interleaved rows of two strides", OCF_ERR_ALIASING, 0, 2, 8, OCFT_OUT, 0, 16, OCFT_OUT, 8, 24,
     0, NULL},
    {"in of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 8, 8, OCFT_FOREIGN, 0, 8, OCFT_OUT, 0, 8,
     0, NULL},
    {"out of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 8, 8, OCFT_IN, 0, 8, OCFT_FOREIGN, 0, 8,
     0, NULL},
    {"a queue of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_FOREIGN_QUEUE, NULL},
    {"a wait event of another context", OCF_ERR_CONTEXT_MISMATCH, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT,
     0, 8, OCFT_LAUNCH_FOREIGN_EVENT, NULL},
    {"a NULL wait event", OCF_ERR_NULL_ARGUMENT, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8,
     OCFT_LAUNCH_NULL_EVENT, NULL},
    /* the options of ocf_softmax_ex */
    {"options size 0", OCF_ERR_INVALID_STRUCT, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0,
     &options_size_zero},
    {"options size below its first version", OCF_ERR_INVALID_STRUCT, 0, 8, 8, OCFT_IN, 0, 8,
     OCFT_OUT, 0, 8, 0, &options_size_small},
    {"in dtype out of range", OCF_ERR_INVALID_VALUE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0,
     &in_dtype_unknown},
    {"out dtype out of range", OCF_ERR_INVALID_VALUE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0,
     &out_dtype_unknown},
    {"scale 0", OCF_ERR_INVALID_VALUE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0, &scale_zero},
    {"scale infinite", OCF_ERR_INVALID_VALUE, 0, 8, 8, OCFT_IN, 0, 8, OCFT_OUT, 0, 8, 0,
     &scale_infinite},
};

/* Every validation rule returns its own status and leaves out untouched. */
static void test_softmax_rejects_bad_arguments(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocft_refusals run;
  ocft_refusals_start(&run, env, BAD_N, 5);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(bad_softmaxes); i++) {
    const bad_softmax *b = &bad_softmaxes[i];
    ocf_context *ctx = b->no_context ? NULL : env->ctx;
    cl_mem in = ocft_refusals_buffer(&run, b->in), out = ocft_refusals_buffer(&run, b->out);
    ocf_launch storage;
    const ocf_launch *launch = ocft_refusals_launch(&run, b->launch, &storage);
    ocf_status status = b->options ? ocf_softmax_ex(ctx, b->rows, b->cols, in, b->in_off, b->in_ld,
                                                    out, b->out_off, b->out_ld, b->options, launch)
                                   : ocf_softmax(ctx, b->rows, b->cols, in, b->in_off, b->in_ld,
                                                 out, b->out_off, b->out_ld, launch);
    ocft_refusals_record(&run, b->what, status, b->expected);
  }
  ocft_refusals_finish(&run);
}

/* rows == 0 or cols == 0: success and no work, with an event when one is asked for. */
static void test_softmax_empty(void **state) {
  ocft_env *env = ocft_get_env(state);
  float before[8] = {1, 2, 3, 4, 5, 6, 7, 8}, after[8];
  cl_mem b = ocft_buffer(env, 8, before);
  cl_event done = NULL;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.event = &done;
  ocft_assert_status(ocf_softmax(env->ctx, 0, 8, b, 0, 8, b, 0, 8, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_softmax(env->ctx, 8, 0, b, 0, 0, b, 0, 0, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_softmax(env->ctx, 0, 0, b, 8, 0, b, 8, 0, &launch), OCF_SUCCESS);
  assert_non_null(done);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done);
  ocft_read(env, b, 8, after);
  ocft_assert_unchanged("softmax with no work", after, before, 8);
  clReleaseMemObject(b);
}

/* The out event completes after every kernel of the call (the baseline's three, the split's two),
   and the wait list holds the first back. */
static void test_softmax_events(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t cols = ocft_small() ? 200 : 50000;
  float *in = ocft_alloc_floats(cols), *got = ocft_alloc_floats(cols);
  double *want = ocft_alloc_doubles(cols);
  ocft_fill_uniform(in, cols, -3.0f, 3.0f, 21);
  ocf_ref_softmax(1, cols, in, cols, want);
  cl_mem ib = ocft_buffer(env, cols, in), ob = ocft_buffer(env, cols, in);
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(all_variants); v++) {
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env->cl, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event done = NULL;
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = all_variants[v];
    launch.workgroup_size = ocft_small() ? 1 : 0; /* small: long enough rows to split */
    launch.num_wait_events = 1;
    launch.wait_events = &gate;
    launch.event = &done;
    ocft_assert_status(ocf_softmax(env->ctx, 1, cols, ib, 0, cols, ob, 0, cols, &launch),
                       OCF_SUCCESS);
    assert_non_null(done);
    cl_int state_now = 0;
    assert_int_equal(
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state_now, &state_now, NULL),
        CL_SUCCESS);
    assert_true(state_now != CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    ocft_read(env, ob, cols, got);
    assert_softmax(env, "softmax after events", 1, cols, in, cols, want, got, cols, &launch);
    clReleaseEvent(done);
    clReleaseEvent(gate);
  }
  clReleaseMemObject(ib);
  clReleaseMemObject(ob);
  free(in), free(got), free(want);
}

static void test_softmax_host(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t rows = 5, cols = ocft_small() ? 123 : 3001, in_ld = cols + 2, out_ld = cols + 3;
  float *in = ocft_alloc_floats(rows * in_ld), *out = ocft_alloc_floats(rows * out_ld);
  float *sentinel = ocft_alloc_floats(rows * out_ld);
  double *want = ocft_alloc_doubles(rows * cols);
  ocft_fill_uniform(in, rows * in_ld, -7.0f, 7.0f, 31);
  ocft_fill_uniform(sentinel, rows * out_ld, 5.0f, 6.0f, 32);
  memcpy(out, sentinel, rows * out_ld * sizeof *out);
  ocf_ref_softmax(rows, cols, in, in_ld, want);

  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, in, in_ld, out, out_ld), OCF_SUCCESS);
  assert_softmax(env, "softmax_host", rows, cols, in, in_ld, want, out, out_ld, NULL);
  for (size_t r = 0; r < rows; r++) {
    if (r + 1 < rows)
      ocft_assert_unchanged("softmax_host gaps", out + r * out_ld + cols,
                            sentinel + r * out_ld + cols, out_ld - cols);
  }

  /* In place (out == in, same stride): the gaps keep the input. */
  float *copy = ocft_alloc_floats(rows * in_ld);
  memcpy(copy, in, rows * in_ld * sizeof *copy);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, copy, in_ld, copy, in_ld), OCF_SUCCESS);
  assert_softmax(env, "softmax_host in place", rows, cols, in, in_ld, want, copy, in_ld, NULL);
  for (size_t r = 0; r < rows; r++) {
    if (r + 1 < rows)
      ocft_assert_unchanged("softmax_host in place gaps", copy + r * in_ld + cols,
                            in + r * in_ld + cols, in_ld - cols);
  }

  memcpy(copy, in, rows * in_ld * sizeof *copy);
  ocft_assert_status(ocf_softmax_host(NULL, rows, cols, in, in_ld, out, out_ld),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, NULL, in_ld, out, out_ld),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, in, in_ld, NULL, out_ld),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, in, cols - 1, out, out_ld),
                     OCF_ERR_INVALID_STRIDE);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, copy, in_ld, copy, out_ld),
                     OCF_ERR_ALIASING);
  ocft_assert_status(ocf_softmax_host(env->ctx, rows, cols, copy, in_ld, copy + 1, in_ld),
                     OCF_ERR_ALIASING);
  /* Rows of one stride that share an element, or of two strides whose spans meet. */
  ocft_assert_status(ocf_softmax_host(env->ctx, 2, 2, copy, 4, copy + 3, 4), OCF_ERR_ALIASING);
  ocft_assert_status(ocf_softmax_host(env->ctx, 2, 2, copy, 4, copy + 2, 8), OCF_ERR_ALIASING);
  ocft_assert_unchanged("softmax_host after rejected calls", copy, in, rows * in_ld);
  ocft_assert_status(ocf_softmax_host(env->ctx, 0, cols, NULL, in_ld, NULL, out_ld), OCF_SUCCESS);
  free(in), free(out), free(sentinel), free(want), free(copy);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_softmax_shapes_all_variants),
      cmocka_unit_test(test_softmax_offsets_and_strides),
      cmocka_unit_test(test_softmax_in_place),
      cmocka_unit_test(test_softmax_interleaved),
      cmocka_unit_test(test_softmax_many_short_rows),
      cmocka_unit_test(test_softmax_short_rows_non_finite),
      cmocka_unit_test(test_softmax_large_magnitudes),
      cmocka_unit_test(test_softmax_non_finite),
      cmocka_unit_test(test_softmax_workgroup_sizes),
      cmocka_unit_test(test_softmax_rejects_bad_arguments),
      cmocka_unit_test(test_softmax_empty),
      cmocka_unit_test(test_softmax_events),
      cmocka_unit_test(test_softmax_host),
  };
  return cmocka_run_group_tests_name("softmax", tests, ocft_group_setup, ocft_group_teardown);
}
