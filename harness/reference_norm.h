/*
 * CPU references for ocf_layernorm and ocf_rmsnorm (issue 20), in double, shared by
 * tests/test_norm.c and the harness's op case (op_norm.c: the tool's check and bench): the
 * residual add as the kernels round it, then the normalization with the library's rules for
 * non-finite rows.
 */
#ifndef OCLFUSE_REFERENCE_NORM_H
#define OCLFUSE_REFERENCE_NORM_H

#include <stddef.h>

/* x[r][c] = (in[r][c] + res[r][c]) summed in fp32 and rounded to res_dtype (0 f32, 1 f16,
   2 bf16), as the kernels form x' = in + residual. x is rows x cols, dense. */
void ocf_ref_norm_residual(size_t rows, size_t cols, const float *in, size_t in_ld,
                           const float *res, size_t res_ld, int res_dtype, float *x);

/*
 * LayerNorm (rms 0) or RMSNorm (rms 1) of each row of x (row r at x[r * x_ld]) in double:
 *     LayerNorm  y = (x - mean) / sqrt(var + eps) * weight + bias   (var: divided by cols)
 *     RMSNorm    y = x / sqrt(mean(x^2) + eps) * weight
 * weight and bias NULL mean 1 and 0 (bias is ignored for RMSNorm). want is rows x cols, dense;
 * mean and rstd (either may be NULL) receive each row's mean and 1 / sqrt(var + eps). A row with
 * a NaN or an infinity is NaN throughout (want, mean and rstd), as the library has it; eps = 0
 * with a variance of 0 gives NaN where 0 * inf meets (every element of that row).
 */
void ocf_ref_norm(int rms, size_t rows, size_t cols, const float *x, size_t x_ld,
                  const float *weight, const float *bias, double eps, double *want, double *mean,
                  double *rstd);

#endif /* OCLFUSE_REFERENCE_NORM_H */
