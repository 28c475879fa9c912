/* CPU references for LayerNorm and RMSNorm (reference_norm.h). */
#include "reference_norm.h"

#include "storage16.h"

#include <math.h>

static float round_to(int dtype, float v) {
  if (dtype == 1) return ocf_ref_f16_to_float(ocf_ref_f16_from_float(v));
  if (dtype == 2) return ocf_ref_bf16_to_float(ocf_ref_bf16_from_float(v));
  return v;
}

void ocf_ref_norm_residual(size_t rows, size_t cols, const float *in, size_t in_ld,
                           const float *res, size_t res_ld, int res_dtype, float *x) {
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++) {
      /* One fp32 addition (correctly rounded: the double sum rounded once is the same). */
      const float sum = (float)((double)in[r * in_ld + c] + (double)res[r * res_ld + c]);
      x[r * cols + c] = round_to(res_dtype, sum);
    }
}

void ocf_ref_norm(int rms, size_t rows, size_t cols, const float *x, size_t x_ld,
                  const float *weight, const float *bias, double eps, double *want, double *mean,
                  double *rstd) {
  for (size_t r = 0; r < rows; r++) {
    const float *row = x + r * x_ld;
    double *y = want + r * cols;
    int finite = 1;
    for (size_t c = 0; c < cols; c++)
      finite = finite && isfinite(row[c]);
    if (!finite) {
      for (size_t c = 0; c < cols; c++)
        y[c] = NAN;
      if (mean) mean[r] = NAN;
      if (rstd) rstd[r] = NAN;
      continue;
    }
    /* Two passes in double: exact enough that the fp32 kernels' error is all that shows. */
    double m = 0.0;
    if (!rms) {
      for (size_t c = 0; c < cols; c++)
        m += row[c];
      m /= (double)cols;
    }
    double var = 0.0;
    for (size_t c = 0; c < cols; c++) {
      const double d = (double)row[c] - m;
      var += d * d;
    }
    var /= (double)cols;
    const double rs = 1.0 / sqrt(var + eps); /* inf for var + eps = 0 */
    for (size_t c = 0; c < cols; c++) {
      double v = ((double)row[c] - m) * rs; /* 0 * inf = NaN, as the kernels */
      if (weight) v *= weight[c];
      if (bias && !rms) v += bias[c];
      y[c] = v;
    }
    if (mean) mean[r] = m;
    if (rstd) rstd[r] = rs;
  }
}
