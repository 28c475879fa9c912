#include "reference.h"

#include <math.h>

void ocf_ref_add(size_t n, const float *x, const float *y, double *want) {
  for (size_t i = 0; i < n; i++)
    want[i] = (float)((double)x[i] + (double)y[i]);
}

void ocf_ref_softmax(size_t rows, size_t cols, const float *in, size_t in_ld, double *want) {
  for (size_t r = 0; r < rows; r++) {
    const float *row = in + r * in_ld;
    double *out = want + r * cols;
    double max = -INFINITY;
    int has_nan = 0;
    for (size_t c = 0; c < cols; c++) {
      if (isnan(row[c]))
        has_nan = 1;
      else if (row[c] > max)
        max = row[c];
    }
    double sum = 0.0;
    for (size_t c = 0; c < cols; c++) {
      /* -inf - -inf and +inf - +inf are NaN here, as in torch. */
      out[c] = has_nan ? NAN : exp((double)row[c] - max);
      sum += out[c];
    }
    for (size_t c = 0; c < cols; c++)
      out[c] = out[c] / sum;
  }
}

void ocf_ref_matmul(int trans_a, int trans_b, size_t m, size_t n, size_t k, float alpha,
                    const float *a, size_t lda, const float *b, size_t ldb, float beta,
                    const float *c, size_t ldc, double *want) {
  /* alpha = 0 reads neither A nor B (NaNs there do not propagate), as BLAS specifies. */
  const size_t k_read = alpha == 0.0f ? 0 : k;
  for (size_t i = 0; i < m; i++) {
    for (size_t j = 0; j < n; j++) {
      double sum = 0.0;
      for (size_t p = 0; p < k_read; p++) {
        double av = trans_a ? a[p * lda + i] : a[i * lda + p];
        double bv = trans_b ? b[j * ldb + p] : b[p * ldb + j];
        sum += av * bv;
      }
      double value = (double)alpha * sum;
      if (beta != 0.0f) value += (double)beta * c[i * ldc + j];
      want[i * n + j] = value;
    }
  }
}
