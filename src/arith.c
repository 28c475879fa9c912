/* Small arithmetic and string helpers shared by the planner and the runtime. */
#include "common.h"

#include <ctype.h>
#include <string.h>

size_t ocf_round_up(size_t x, size_t m) {
  size_t remainder = x % m;
  if (remainder == 0) return x;
  size_t up = m - remainder;
  return x > SIZE_MAX - up ? SIZE_MAX - (SIZE_MAX % m) : x + up;
}

size_t ocf_div_ceil(size_t a, size_t b) {
  return a / b + (a % b != 0);
}

size_t ocf_pow2_ceil(size_t x) {
  size_t p = 1;
  while (p < x && p <= SIZE_MAX / 2)
    p *= 2;
  return p;
}

size_t ocf_min_size(size_t a, size_t b) {
  return a < b ? a : b;
}

size_t ocf_max_size(size_t a, size_t b) {
  return a > b ? a : b;
}

size_t ocf_ladder_up(size_t x) {
  size_t p = ocf_pow2_ceil(x);
  size_t three_quarters = p / 4 * 3;
  return p >= 4 && three_quarters >= x ? three_quarters : p;
}

size_t ocf_pow2_floor(size_t x) {
  size_t p = 1;
  while (p <= x / 2)
    p *= 2;
  return p;
}

int ocf_is_pow2(size_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}

int ocf_contains_nocase(const char *haystack, const char *needle) {
  size_t needle_length = strlen(needle);
  if (needle_length == 0) return 1;
  for (const char *start = haystack; *start; start++) {
    size_t i = 0;
    while (i < needle_length && start[i] &&
           tolower((unsigned char)start[i]) == tolower((unsigned char)needle[i]))
      i++;
    if (i == needle_length) return 1;
  }
  return 0;
}

int ocf_strided_overlap(size_t a_start, size_t a_rows, size_t a_cols, size_t b_start, size_t b_rows,
                        size_t b_cols, size_t ld) {
  if (!a_rows || !a_cols || !b_rows || !b_cols) return 0;
  if (a_start > b_start) {
    size_t start = a_start, rows = a_rows, cols = a_cols;
    a_start = b_start, a_rows = b_rows, a_cols = b_cols;
    b_start = start, b_rows = rows, b_cols = cols;
  }
  /* Element (i, j) of A is (k, l) of B when i ld + j = d + k ld + l, d = b_start - a_start >= 0,
     that is when j - l = d - s ld with s = i - k. j - l runs over [-(b_cols - 1), a_cols - 1] and
     s over [-(b_rows - 1), a_rows - 1]; d - s ld falls as s grows, so the largest s that keeps it
     at or above the lower end (s ld <= d + b_cols - 1) gives the smallest value in reach, and
     they overlap when that value is at most a_cols - 1. s >= 0 always qualifies (d >= 0). */
  const size_t d = b_start - a_start;
  size_t s = 0;
  if (a_rows > 1) {
    /* ld (a_rows - 1) fits the checked extent of A, so neither sum below overflows. */
    s = d / ld + (d % ld + b_cols - 1) / ld;
    if (s > a_rows - 1) s = a_rows - 1;
  }
  return d < a_cols + s * ld;
}
