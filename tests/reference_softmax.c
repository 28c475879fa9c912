#include "reference_softmax.h"

#include <math.h>
#include <string.h>

void ocf_ref_softmax_ex(size_t rows, size_t cols, const float *in, size_t in_ld, double scale,
                        int log_softmax, const uint32_t *lengths, double *want, double *lse) {
  for (size_t r = 0; r < rows; r++) {
    const float *row = in + r * in_ld;
    double *out = want + r * cols;
    const size_t len = lengths ? (lengths[r] < cols ? lengths[r] : cols) : cols;
    double max = -INFINITY;
    int has_nan = 0;
    for (size_t c = 0; c < len; c++) {
      if (isnan(row[c]))
        has_nan = 1;
      else if (row[c] > max)
        max = row[c];
    }
    /* -inf - -inf and +inf - +inf are NaN here, as in torch: those rows come out NaN. */
    double sum = 0.0;
    for (size_t c = 0; c < len; c++)
      sum += has_nan ? NAN : exp(scale * ((double)row[c] - max));
    const double log_sum = len ? log(sum) : INFINITY;
    for (size_t c = 0; c < cols; c++) {
      if (c >= len)
        out[c] = log_softmax ? -INFINITY : 0.0;
      else if (has_nan)
        out[c] = NAN;
      else if (log_softmax)
        out[c] = scale * ((double)row[c] - max) - log_sum;
      else
        out[c] = exp(scale * ((double)row[c] - max)) / sum;
    }
    if (lse) lse[r] = log_sum;
  }
}

uint16_t ocf_ref_f16_from_float(float value) {
  const uint16_t sign = signbit(value) ? 0x8000u : 0u;
  const double v = fabs((double)value);
  if (isnan(value)) return sign | 0x7e00u;
  /* 65520 is halfway between the largest half, 65504, and the next power, 65536: even is inf. */
  if (v >= 65520.0) return sign | 0x7c00u;
  if (v < ldexp(1.0, -14)) /* subnormal: multiples of 2^-24; 1024 of them is the least normal */
    return sign | (uint16_t)rint(v * ldexp(1.0, 24));
  int exponent = 0;
  const double fraction = frexp(v, &exponent); /* v = fraction * 2^exponent, fraction in [.5, 1) */
  unsigned mantissa = (unsigned)rint((fraction * 2.0 - 1.0) * 1024.0); /* rint: to even */
  int biased = exponent - 1 + 15;
  if (mantissa == 1024) {
    mantissa = 0;
    biased++;
  }
  return sign | (uint16_t)(biased << 10) | (uint16_t)mantissa;
}

float ocf_ref_f16_to_float(uint16_t bits) {
  const double sign = bits & 0x8000u ? -1.0 : 1.0;
  const int biased = (bits >> 10) & 0x1f;
  const unsigned mantissa = bits & 0x3ffu;
  if (biased == 31) return mantissa ? NAN : (float)(sign * INFINITY);
  if (biased == 0) return (float)(sign * ldexp((double)mantissa, -24));
  return (float)(sign * ldexp(1024.0 + mantissa, biased - 25));
}

uint16_t ocf_ref_bf16_from_float(float value) {
  uint32_t u;
  memcpy(&u, &value, sizeof u);
  if (isnan(value)) return (uint16_t)((u >> 16) | 0x40u);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float ocf_ref_bf16_to_float(uint16_t bits) {
  const uint32_t u = (uint32_t)bits << 16;
  float value;
  memcpy(&value, &u, sizeof value);
  return value;
}

double ocf_ref_half_ulp(int dtype, double magnitude) {
  /* (precision bits including the implicit one, least normal exponent) of each type */
  const int bits = dtype == 1 ? 11 : dtype == 2 ? 8 : 24;
  const int min_exponent = dtype == 1 ? -14 : -126;
  int exponent = 0;
  frexp(magnitude, &exponent); /* magnitude in [2^(exponent-1), 2^exponent) */
  if (magnitude == 0.0 || exponent - 1 < min_exponent) exponent = min_exponent + 1;
  return ldexp(1.0, exponent - 1 - bits);
}
