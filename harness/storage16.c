/* The 16-bit storage types on the CPU, rounded as cl/common.cl stores them. */
#include "storage16.h"

#include <math.h>
#include <string.h>

uint32_t ocf_ref_bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

float ocf_ref_float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t ocf_ref_f16_from_float(float f) {
  const uint32_t u = ocf_ref_bits_of(f);
  const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  const uint32_t magnitude = u & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);  /* NaN */
  if (magnitude >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds past 65504: inf */
  if (magnitude < 0x38800000u) {
    /* Below fp16's normal range: a multiple of 2^-24, rounded to nearest even in double
       (exact: the float has at most 24 significant bits, far above 2^-24 * 2^-30). */
    double scaled = (double)ocf_ref_float_of(magnitude) * 16777216.0; /* in units of 2^-24 */
    double whole = floor(scaled), frac = scaled - whole;
    if (frac > 0.5 || (frac == 0.5 && fmod(whole, 2.0) != 0.0)) whole += 1.0;
    return (uint16_t)(sign | (uint16_t)whole);
  }
  /* Normal: keep 10 of the 23 mantissa bits, round to nearest even; a carry moves into the
     exponent, as it should. */
  uint32_t half = ((magnitude >> 13) - (112u << 10));
  const uint32_t rest = magnitude & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
  return (uint16_t)(sign | half);
}

float ocf_ref_f16_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return ocf_ref_float_of(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    float value = (float)mantissa * 5.9604644775390625e-8f; /* 2^-24, exact */
    return sign ? -value : value;
  }
  return ocf_ref_float_of(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t ocf_ref_bf16_from_float(float f) {
  const uint32_t u = ocf_ref_bits_of(f);
  if (isnan(f)) return (uint16_t)((u >> 16) | 0x0040u);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float ocf_ref_bf16_to_float(uint16_t h) {
  return ocf_ref_float_of((uint32_t)h << 16);
}
