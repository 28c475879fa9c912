/*
 * numerics.c: the roundings the device applies, emulated bit for bit on the CPU, and the lab's
 * random numbers. The TF32 rounding is the one the SIMT fallback mirrors (cl/common.cl,
 * ocf_round_tf32): add half of the dropped 13 bits' range to the magnitude and clear them, which
 * rounds to nearest with ties away from zero and carries into the exponent (up to infinity)
 * exactly as a wider mantissa would.
 */
#include "lab.h"

#include <math.h>
#include <string.h>

uint32_t lab_f32_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

float lab_bits_f32(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

float lab_tf32_rna(float x) {
  const uint32_t u = lab_f32_bits(x);
  if (isnan(x)) return lab_bits_f32((u | 0x00400000u) & 0xffffe000u);
  return lab_bits_f32((u + 0x1000u) & 0xffffe000u);
}

void lab_split3(float x, float *big, float *small) {
  *big = lab_tf32_rna(x);
  *small = lab_tf32_rna(x - *big); /* NaN for an infinite x: cl/common.cl's ocf_tf32_small */
}

uint16_t lab_f32_to_f16(float x) {
  const uint32_t u = lab_f32_bits(x);
  const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  const uint32_t mag = u & 0x7fffffffu;
  if (mag > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((mag >> 13) & 0x3ffu));
  if (mag >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520: infinity */
  if (mag < 0x38800000u) { /* below 2^-14: subnormal; x * 2^24 is exact, rint rounds to even */
    const float scaled = lab_bits_f32(mag) * 16777216.0f;
    return (uint16_t)(sign | (uint16_t)rintf(scaled));
  }
  uint32_t h = ((((mag >> 23) - 127 + 15) << 10) | ((mag >> 13) & 0x3ffu));
  const uint32_t rest = mag & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
  return (uint16_t)(sign | h);
}

float lab_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = (float)mant / 16777216.0f; /* mant * 2^-24, exact */
    return sign ? -v : v;
  }
  if (exp == 31) return lab_bits_f32(sign | 0x7f800000u | (mant << 13));
  return lab_bits_f32(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t lab_f32_to_bf16(float x) {
  const uint32_t u = lab_f32_bits(x);
  if (isnan(x)) return (uint16_t)((u >> 16) | 0x0040u);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float lab_bf16_to_f32(uint16_t h) {
  return lab_bits_f32((uint32_t)h << 16);
}

float lab_round_to(int dtype, float x) {
  if (dtype == 1) return lab_f16_to_f32(lab_f32_to_f16(x));
  if (dtype == 2) return lab_bf16_to_f32(lab_f32_to_bf16(x));
  return x;
}

uint64_t lab_rand_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float lab_rand_unit(uint64_t *state) {
  return (float)((int32_t)(lab_rand_next(state) >> 40) - (1 << 23)) / 8388608.0f;
}
