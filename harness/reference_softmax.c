#include "reference_softmax.h"

#include <float.h>
#include <math.h>

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

void ocf_ref_kept_lengths(size_t rows, size_t cols, const uint32_t *lengths, int causal,
                          size_t period, size_t offset, uint32_t *kept) {
  for (size_t r = 0; r < rows; r++) {
    size_t len = cols;
    if (lengths && lengths[r] < len) len = lengths[r];
    /* The band's end, q + offset + 1, compared without computing it past cols. */
    if (causal && offset < len && r % period < len - offset - 1) len = r % period + offset + 1;
    kept[r] = (uint32_t)len;
  }
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

void ocf_ref_softmax_ex_tolerance(size_t rows, size_t cols, const float *in, size_t in_ld,
                                  double scale, int log, const uint32_t *lengths,
                                  const double *want, const double *lse, int out_dtype,
                                  int stored_exp, size_t row_items, double *tol) {
  const double u = 1.0 / 16777216.0; /* 2^-24 */
  const size_t w = row_items ? row_items : 1;
  const double h = 2.0 * (double)((cols + w - 1) / w) + 70.0;
  for (size_t r = 0; r < rows; r++) {
    const float *row = in + r * in_ld;
    const double *y = want + r * cols;
    const size_t len = lengths ? (lengths[r] < cols ? lengths[r] : cols) : cols;
    double m = -INFINITY;
    for (size_t k = 0; k < len; k++)
      if (row[k] > m) m = row[k];
    double weighted = 0.0;
    for (size_t k = 0; k < len; k++) {
      const double t = scale * ((double)row[k] - m);
      const double p = log ? exp(y[k]) : y[k];
      if (isfinite(t) && isfinite(p)) weighted += p * (12.0 + 4.0 * fabs(t));
    }
    const double b = u * (weighted + 9.0 * h);
    for (size_t k = 0; k < cols; k++) {
      double e = 0.0;
      const double t = scale * ((double)row[k] - m);
      /* t = -inf (a -inf entry): exactly 0 or -inf. */
      if (k < len && isfinite(y[k]) && isfinite(t)) {
        if (log)
          e = 2.0 * (2.0 * u * fabs(t) + b + 6.0 * u * fabs(lse[r]) + u * fabs(y[k])) +
              2.0 * FLT_MIN;
        else
          e = 2.0 * y[k] * (u * (24.0 + 4.0 * fabs(t)) + b) + 2.0 * FLT_MIN;
        if (stored_exp && out_dtype != 0)
          e += fabs(y[k]) * 2.0 * ocf_ref_half_ulp(out_dtype, 1.0) +
               ocf_ref_half_ulp(out_dtype, 0.0);
        if (out_dtype != 0) e += ocf_ref_half_ulp(out_dtype, fabs(y[k]) + e);
      }
      tol[r * cols + k] = e;
    }
  }
}
