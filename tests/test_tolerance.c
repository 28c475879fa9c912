/*
 * The harness's comparisons (tolerance.h), without a device: the fp32 rounding of an exact answer
 * passes, an answer off by more than its model allows fails, in the right place, and the
 * non-finite rules hold. What the models allow is argued in tolerance.c; this checks that the
 * code applies them.
 */
#include "reference.h"
#include "test_common.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* got[i] = want[i] rounded to float: the best any fp32 kernel can do. */
static void round_to_float(const double *want, size_t count, float *got) {
  for (size_t i = 0; i < count; i++)
    got[i] = (float)want[i];
}

static ocft_check elements(const float *got, const double *want, const double *tol, size_t n) {
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(got, want, tol, n, &check);
  return check;
}

/* Exact means exact; NaN meets NaN, an infinity the same infinity; merged parts keep the worst
   place, counted in the whole. */
static void test_tolerance_elements(void **state) {
  (void)state;
  const double want[] = {1.0, -2.5, NAN, INFINITY, -INFINITY, 0.0};
  float got[] = {1.0f, -2.5f, NAN, INFINITY, -INFINITY, 0.0f};
  ocft_check check = elements(got, want, NULL, 6);
  assert_true(ocft_check_passed(&check) && check.ratio == 0.0 && check.checked == 6);

  got[1] = nextafterf(-2.5f, 0.0f); /* one ulp off an exact answer */
  check = elements(got, want, NULL, 6);
  assert_false(ocft_check_passed(&check));
  assert_int_equal(check.worst, 1);
  got[1] = -2.5f;
  const struct {
    size_t at;
    float value;
  } wrong[] = {{2, 0.0f}, {3, -INFINITY}, {4, NAN}, {5, NAN}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(wrong); i++) {
    size_t at = wrong[i].at;
    float saved = got[at];
    got[at] = wrong[i].value;
    check = elements(got, want, NULL, 6);
    assert_true(isinf(check.ratio) && check.worst == at);
    got[at] = saved;
  }

  const double tol[] = {0.5, 0.5, 0.0, 0.0, 0.0, 0.5};
  got[0] = 1.25f;
  check = elements(got, want, tol, 6);
  assert_true(ocft_check_passed(&check) && check.ratio == 0.5 && check.worst == 0);
  ocft_check total;
  ocft_check_start(&total);
  ocft_check_merge(&total, &check, 0);
  got[5] = 1.0f; /* twice its tolerance */
  check = elements(got, want, tol, 6);
  ocft_check_merge(&total, &check, 100);
  assert_false(ocft_check_passed(&total));
  assert_true(total.ratio == 2.0 && total.worst == 105 && total.checked == 12);
}

/* A device of `max_wg` work-items, as a default softmax launch sees it. */
static ocf_device_info fake_device(size_t max_wg) {
  ocf_device_info info;
  ocf_device_info_init(&info);
  info.max_workgroup_size = max_wg;
  info.max_work_item_sizes[0] = max_wg;
  return info;
}

static ocft_check softmax_check(size_t rows, size_t cols, const float *in, const double *want,
                                const float *got, size_t workgroup, const ocf_device_info *info) {
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(rows, cols, in, cols, want, got, cols, workgroup, info, &check);
  return check;
}

/* The rounded reference passes; one element off by 1e-5 fails on its own, however long the row;
   a whole row off by a common factor fails as a row, beyond a bound that grows with the share
   of one work-item; NaN rows must be NaN. */
static void test_tolerance_softmax(void **state) {
  (void)state;
  const ocf_device_info device = fake_device(256);
  const size_t cols_list[] = {7, 1000, 100000};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(cols_list); i++) {
    const size_t cols = cols_list[i], rows = 2;
    float *in = ocft_alloc_floats(rows * cols), *got = ocft_alloc_floats(rows * cols);
    double *want = ocft_alloc_doubles(rows * cols);
    ocft_fill_uniform(in, rows * cols, -8.0f, 8.0f, 11 + cols);
    ocf_ref_softmax(rows, cols, in, cols, want);
    round_to_float(want, rows * cols, got);
    ocft_check check = softmax_check(rows, cols, in, want, got, 0, &device);
    assert_true(ocft_check_passed(&check) && check.ratio < 0.2);
    assert_int_equal(check.checked, rows * cols);

    /* The second row's smallest element 1e-5 high (about 170 u): the element fails, not the
       row, whose factor it hardly moves. */
    size_t at = cols;
    for (size_t c = cols; c < 2 * cols; c++)
      if (want[c] < want[at]) at = c;
    got[at] = (float)(want[at] * (1.0 + 1e-5));
    check = softmax_check(rows, cols, in, want, got, 0, &device);
    assert_false(ocft_check_passed(&check));
    assert_true(check.worst == at && !check.row_factor);
    /* The same element NaN: that element is the worst, not its neighbours. */
    got[at] = NAN;
    check = softmax_check(rows, cols, in, want, got, 0, &device);
    assert_true(isinf(check.ratio) && check.worst == at && !check.row_factor);
    got[at] = (float)want[at];

    /* The second row 1e-3 high as a whole: the row fails, at its first element. */
    for (size_t c = 0; c < cols; c++)
      got[cols + c] = (float)(want[cols + c] * (1.0 + 1e-3));
    check = softmax_check(rows, cols, in, want, got, 0, &device);
    assert_false(ocft_check_passed(&check));
    assert_true(check.worst == cols && check.row_factor);
    free(in), free(got), free(want);
  }

  /* A row factor of 1 + 1e-4 at 10^5 columns: beyond what 256 work-items can produce (each adds
     about 400 terms in sequence), within what one work-item adding all 10^5 can. */
  const size_t cols = 100000;
  float *in = ocft_alloc_floats(cols), *got = ocft_alloc_floats(cols);
  double *want = ocft_alloc_doubles(cols);
  ocft_fill_uniform(in, cols, -8.0f, 8.0f, 5);
  ocf_ref_softmax(1, cols, in, cols, want);
  for (size_t c = 0; c < cols; c++)
    got[c] = (float)(want[c] * (1.0 + 1e-4));
  ocft_check check = softmax_check(1, cols, in, want, got, 256, &device);
  assert_true(!ocft_check_passed(&check) && check.row_factor);
  check = softmax_check(1, cols, in, want, got, 1, &device);
  assert_true(ocft_check_passed(&check));
  free(in), free(got), free(want);

  /* A NaN row (the reference's rule for a NaN input) passes only as NaN. */
  float row[3] = {1.0f, NAN, 2.0f}, nans[3] = {NAN, NAN, NAN}, zeros[3] = {0};
  double row_want[3];
  ocf_ref_softmax(1, 3, row, 3, row_want);
  assert_true(isnan(row_want[0]));
  check = softmax_check(1, 3, row, row_want, nans, 0, &device);
  assert_true(ocft_check_passed(&check));
  check = softmax_check(1, 3, row, row_want, zeros, 0, &device);
  assert_true(isinf(check.ratio));
}

/* The rounded reference passes; an element off by twice its tolerance fails there; the
   tolerance follows the partial sums (inputs of one sign allow more than of random sign). */
static void test_tolerance_matmul(void **state) {
  (void)state;
  enum { M = 5, N = 7, K = 300 };
  float a[M * K], b[K * N], c[M * N], got[M * N];
  double want[M * N], tol[M * N];
  ocft_fill_uniform(a, M * K, -1.0f, 1.0f, 1);
  ocft_fill_uniform(b, K * N, -1.0f, 1.0f, 2);
  ocft_fill_uniform(c, M * N, -1.0f, 1.0f, 3);
  ocf_ref_matmul(0, 0, M, N, K, 1.5f, a, K, b, N, -0.5f, c, N, want);
  ocft_matmul_tolerance(0, 0, M, N, K, 1.5f, a, K, b, N, -0.5f, c, N, tol);
  round_to_float(want, M * N, got);
  ocft_check check = elements(got, want, tol, M * N);
  assert_true(ocft_check_passed(&check) && check.ratio < 0.1);
  got[12] = (float)(want[12] + 2.0 * tol[12]);
  check = elements(got, want, tol, M * N);
  assert_true(!ocft_check_passed(&check) && check.worst == 12);

  /* Random signs: the partial sums stay far below sum |a b|, and the tolerance with them. */
  double positive_tol[M * N];
  for (size_t i = 0; i < M * K; i++)
    a[i] = fabsf(a[i]);
  for (size_t i = 0; i < K * N; i++)
    b[i] = fabsf(b[i]);
  ocft_matmul_tolerance(0, 0, M, N, K, 1.5f, a, K, b, N, -0.5f, c, N, positive_tol);
  double sum_random = 0.0, sum_positive = 0.0;
  for (size_t i = 0; i < M * N; i++)
    sum_random += tol[i], sum_positive += positive_tol[i];
  assert_true(sum_positive > 4.0 * sum_random);

  /* beta = 0 never reads C: a NaN there changes nothing. */
  for (size_t i = 0; i < M * N; i++)
    c[i] = NAN;
  ocft_matmul_tolerance(0, 0, M, N, K, 1.0f, a, K, b, N, 0.0f, c, N, tol);
  for (size_t i = 0; i < M * N; i++)
    assert_true(isfinite(tol[i]) && tol[i] > 0.0);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tolerance_elements),
      cmocka_unit_test(test_tolerance_softmax),
      cmocka_unit_test(test_tolerance_matmul),
  };
  return cmocka_run_group_tests_name("tolerance", tests, NULL, NULL);
}
