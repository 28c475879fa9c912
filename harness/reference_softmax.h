/*
 * CPU references for ocf_softmax_ex's options (scale, log-softmax, row lengths, the causal band,
 * through the kept lengths they give), and the half-ulp bound of the 16-bit storage types. Shared
 * by tests/test_softmax_options.c and tools/lab/softmax.
 */
#ifndef OCLFUSE_REFERENCE_SOFTMAX_H
#define OCLFUSE_REFERENCE_SOFTMAX_H

#include <stddef.h>
#include <stdint.h>

#include "storage16.h" /* the 16-bit storage types */

/*
 * Row softmax (log = 0) or log-softmax (log != 0) of scale * x in double, with the library's
 * rules: over the first len = lengths[r] columns of row r (lengths NULL: all cols),
 * t = scale * (x - max) and
 *     softmax      exp(t) / sum exp(t)          log-softmax   t - log(sum exp(t)),
 * the columns at or past len are 0 (softmax) or -inf (log-softmax), a row of length 0 is all of
 * that, and non-finite inputs make what torch makes of them (a NaN or +inf among the first len
 * columns, or all of them -inf, make those columns NaN; a -inf entry gives 0, or -inf). Row r of
 * the input starts at in[r * in_ld]; want is rows x cols, dense. Each row's log(sum exp(t)) goes
 * to lse[r] when lse is not NULL (+inf for an empty row), for the tolerance of log outputs.
 */
void ocf_ref_softmax_ex(size_t rows, size_t cols, const float *in, size_t in_ld, double scale,
                        int log, const uint32_t *lengths, double *want, double *lse);

/* The kept length of each row under ocf_softmax_options, into kept[r]: the smallest of cols,
   lengths[r] (lengths not NULL) and, with causal, (r mod period) + offset + 1: query
   q = r mod period at key position q + offset sees keys 0 .. q + offset (PyTorch's is_causal,
   top-left aligned, for a query block that starts at key position offset). cols < 2^32. */
void ocf_ref_kept_lengths(size_t rows, size_t cols, const uint32_t *lengths, int causal,
                          size_t period, size_t offset, uint32_t *kept);

/*
 * The tolerance of each element of ocf_softmax_ex's output against ocf_ref_softmax_ex's want (and
 * its lse), the model of tests/test_softmax_options.c (u = 2^-24): the row's sum carries
 * u (sum p (12 + 4 |t|) + 9 h), h = 2 ceil(cols / row_items) + 70 the depth of the reduction when
 * at least row_items work-items share a row; softmax outputs are relative to that, log outputs
 * absolute, plus the output type's rounding (out_dtype: 0 f32, 1 f16, 2 bf16) and, with
 * stored_exp (the three-kernel baseline's softmax, which stores exp(t) in the output type before
 * dividing), that rounding of exp(t). tol is rows x cols, dense.
 */
void ocf_ref_softmax_ex_tolerance(size_t rows, size_t cols, const float *in, size_t in_ld,
                                  double scale, int log, const uint32_t *lengths,
                                  const double *want, const double *lse, int out_dtype,
                                  int stored_exp, size_t row_items, double *tol);

/* Half an ulp of a value of magnitude `magnitude` in storage type `dtype` (0 f32, 1 f16, 2 bf16),
   the most its rounding to that type moves it (subnormals included; f32: 2^-24 relative). */
double ocf_ref_half_ulp(int dtype, double magnitude);

#endif /* OCLFUSE_REFERENCE_SOFTMAX_H */
