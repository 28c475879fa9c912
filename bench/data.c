/* Deterministic input data and checked host allocations. */
#include "tool.h"

#include <stdlib.h>

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void tool_fill_uniform(float *data, size_t count, float lo, float hi, uint64_t seed) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  const double span = (double)hi - (double)lo;
  for (size_t i = 0; i < count; i++) {
    double unit = (double)(splitmix64(&state) >> 11) * 0x1.0p-53; /* [0, 1) */
    data[i] = (float)(lo + span * unit);
  }
}

uint64_t tool_rng_next(tool_rng *rng) {
  return splitmix64(&rng->state);
}

static void *alloc_checked(size_t count, size_t size) {
  if (count == 0) count = 1;
  if (count > SIZE_MAX / size) {
    fprintf(stderr, "oclfuse: %zu elements of %zu bytes overflow size_t\n", count, size);
    return NULL;
  }
  void *p = malloc(count * size);
  if (!p) fprintf(stderr, "oclfuse: out of host memory (%zu bytes)\n", count * size);
  return p;
}

float *tool_alloc_floats(size_t count) {
  return alloc_checked(count, sizeof(float));
}

double *tool_alloc_doubles(size_t count) {
  return alloc_checked(count, sizeof(double));
}
