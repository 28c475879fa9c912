/*
 * ocf_strided_overlap (src/arith.c), the exact test of whether two strided matrices of one row
 * stride share an element, against brute force over every small case: each element of one
 * matrix looked up in the other. No device.
 */
#include "common.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the headers above first. */
#include <cmocka.h>

enum { MAX_ROWS = 4, MAX_COLS = 5, MAX_LD = 9, MAX_START = 24 };

/* Whether some element of A is an element of B, by looking at every pair. */
static int brute_overlap(size_t a_start, size_t a_rows, size_t a_cols, size_t b_start,
                         size_t b_rows, size_t b_cols, size_t ld) {
  for (size_t i = 0; i < a_rows; i++)
    for (size_t j = 0; j < a_cols; j++) {
      size_t element = a_start + i * ld + j;
      for (size_t k = 0; k < b_rows; k++)
        if (element >= b_start + k * ld && element < b_start + k * ld + b_cols) return 1;
    }
  return 0;
}

/* Every shape up to MAX_ROWS x MAX_COLS for both, every stride they allow up to MAX_LD, every
   start of B up to MAX_START with A at 0, 3 and 7: about two million cases. */
static void test_overlap_matches_brute_force(void **state) {
  (void)state;
  static const size_t a_starts[] = {0, 3, 7};
  size_t cases = 0, overlapping = 0;
  for (size_t ar = 0; ar <= MAX_ROWS; ar++)
    for (size_t ac = 0; ac <= MAX_COLS; ac++)
      for (size_t br = 0; br <= MAX_ROWS; br++)
        for (size_t bc = 0; bc <= MAX_COLS; bc++)
          for (size_t ld = ac > bc ? ac : bc; ld <= MAX_LD; ld++) {
            if (ld == 0) continue;
            for (size_t s = 0; s < OCF_ARRAY_LEN(a_starts); s++)
              for (size_t b_start = 0; b_start <= MAX_START; b_start++) {
                size_t a_start = a_starts[s];
                int want = brute_overlap(a_start, ar, ac, b_start, br, bc, ld);
                int got = ocf_strided_overlap(a_start, ar, ac, b_start, br, bc, ld);
                if (got != want)
                  fail_msg("A %zu x %zu at %zu, B %zu x %zu at %zu, ld %zu: got %d, want %d", ar,
                           ac, a_start, br, bc, b_start, ld, got, want);
                cases++;
                overlapping += (size_t)want;
              }
          }
  /* Both answers occur often: the sweep is not trivially one-sided. */
  assert_true(overlapping > cases / 10 && overlapping < cases - cases / 10);
}

/* The case of the audit (interleaved rows of a 16-wide matrix, in at 0 and out at 8) and a few
   large values, whose sums must not wrap. */
static void test_overlap_interleaved_and_large(void **state) {
  (void)state;
  assert_false(ocf_strided_overlap(0, 8, 8, 8, 8, 8, 16));
  assert_true(ocf_strided_overlap(0, 8, 8, 7, 8, 8, 16));
  assert_true(ocf_strided_overlap(0, 8, 9, 8, 8, 8, 16));
  /* One row each: the stride may be anything, only the columns count. */
  assert_false(ocf_strided_overlap(0, 1, 4, 4, 1, 4, SIZE_MAX));
  assert_true(ocf_strided_overlap(0, 1, 5, 4, 1, 4, SIZE_MAX));
  /* Rows far apart in a huge matrix: 2^40 rows of stride 2^20, B one column to the right. */
  const size_t ld = (size_t)1 << 20, rows = (size_t)1 << 40;
  assert_false(ocf_strided_overlap(0, rows, ld / 2, ld / 2, rows, ld / 2, ld));
  assert_true(ocf_strided_overlap(0, rows, ld / 2 + 1, ld / 2, rows, ld / 2, ld));
  assert_true(ocf_strided_overlap(ld / 2, rows, ld / 2, 5 * ld, 1, 1, ld) == 0);
  assert_true(ocf_strided_overlap(ld / 2, rows, ld / 2, 5 * ld + ld / 2, 1, 1, ld));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_overlap_matches_brute_force),
      cmocka_unit_test(test_overlap_interleaved_and_large),
  };
  return cmocka_run_group_tests_name("overlap", tests, NULL, NULL);
}
