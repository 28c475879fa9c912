/*
 * CPU references for the three operations, accumulating in double, shared by the tests, the
 * `oclfuse check` command and the benchmark's correctness gate (with fill.h for the inputs and
 * tolerance.h for how far an output may be from its reference).
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
 * want = alpha * op(A) * op(B) + beta * C in double (beta == 0: C is not read; alpha == 0: A
 * and B are not read), with the same
 * layout rules as ocf_matmul; want is m x n, dense (row stride n).
 */
void ocf_ref_matmul(int trans_a, int trans_b, size_t m, size_t n, size_t k, float alpha,
                    const float *a, size_t lda, const float *b, size_t ldb, float beta,
                    const float *c, size_t ldc, double *want);

#endif /* OCLFUSE_REFERENCE_H */
