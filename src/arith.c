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
