/*
 * CPU references for the three operations, accumulating in double, shared by the tests, the
 * `oclfuse check` command and the benchmark's correctness gate.
 */
#ifndef OCLFUSE_REFERENCE_H
#define OCLFUSE_REFERENCE_H

#include <stddef.h>

/* want[i] = (double)x[i] + (double)y[i] rounded once to float (the one right fp32 answer). */
void ocf_ref_add(size_t n, const float *x, const float *y, double *want);

/*
 * Row softmax in double, with torch.softmax's handling of non-finite values: a NaN anywhere or a
 * +inf anywhere makes the row NaN, a row of only -inf is NaN, a -inf entry is 0.
 * Row r of the input starts at in[r * in_ld]; row r of want at want[r * cols].
 */
void ocf_ref_softmax(size_t rows, size_t cols, const float *in, size_t in_ld, double *want);

/*
 * want = alpha * op(A) * op(B) + beta * C in double (beta == 0: C is not read), with the same
 * layout rules as ocf_matmul; want is m x n, dense (row stride n). If bound is not NULL it gets,
 * per element, |alpha| * sum_p |op(A)[i][p]| |op(B)[p][j]| + |beta| |C[i][j]|: the scale that a
 * floating-point error bound for this element is proportional to.
 */
void ocf_ref_matmul(int trans_a, int trans_b, size_t m, size_t n, size_t k, float alpha,
                    const float *a, size_t lda, const float *b, size_t ldb, float beta,
                    const float *c, size_t ldc, double *want, double *bound);

/*
 * The worst-case relative error factor of an fp32 dot product of length k computed with any
 * summation order and FMA or not, plus the final alpha/beta update: (k + 2) * 2^-24 (Higham,
 * "Accuracy and Stability of Numerical Algorithms", 3.1, gamma_n ~ n u), times a safety factor
 * of 2 for the rounding of the result to fp32. Multiply by ocf_ref_matmul's bound.
 */
double ocf_ref_matmul_error_factor(size_t k);

#endif /* OCLFUSE_REFERENCE_H */
