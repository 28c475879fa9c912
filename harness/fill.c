#include "fill.h"

uint64_t ocft_rng_next(uint64_t *state) {
  /* splitmix64: reproducible across platforms and libraries, unlike rand(). */
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void ocft_fill_uniform(float *data, size_t count, float lo, float hi, uint64_t seed) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  const double span = (double)hi - (double)lo;
  for (size_t i = 0; i < count; i++) {
    double unit = (double)(ocft_rng_next(&state) >> 11) * 0x1.0p-53; /* [0, 1) */
    data[i] = (float)(lo + span * unit);
  }
}
