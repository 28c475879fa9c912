/*
 * How far an output may be from its CPU reference: one error model per op, argued in
 * tolerance.c from the arithmetic of the kernels in cl/, and the one comparison that applies it.
 * Shared by the tests, `oclfuse check` and the benchmark's correctness gate.
 *
 *   add      exact: fp32 addition is correctly rounded, so the reference is the one right answer
 *   softmax  each element against its row's common factor, tightly, and that factor against 1
 *   matmul   per element, from the partial sums of its dot product
 *   norm     per element, from the shifted two-pass statistics of its row (LayerNorm, RMSNorm)
 *
 * A comparison reports its worst place as a ratio, the error there divided by the tolerance
 * there, so that 1 is the edge for every op and every element.
 */
#ifndef OCLFUSE_TOLERANCE_H
#define OCLFUSE_TOLERANCE_H

#include "oclfuse.h"

#include <stddef.h>

/* The outcome of comparing an output with its reference. */
typedef struct ocft_check {
  double ratio;     /* the worst error / tolerance (<= 1 passes); +inf for a NaN or an infinity
                       where another value belongs, or any difference where the tolerance is 0 */
  size_t worst;     /* index of the worst place in the compared arrays */
  int row_factor;   /* softmax: the worst place is the common factor of the row starting there */
  double got, want; /* at the worst place (a row's factor: the factor and 1) */
  double tolerance; /* the largest |got - want| that passes there */
  size_t checked;   /* elements compared */
} ocft_check;

/* An empty check: passes, nothing compared. */
void ocft_check_start(ocft_check *check);
/* Whether nothing compared exceeded its tolerance. */
int ocft_check_passed(const ocft_check *check);
/* Adds a part whose element 0 is element `offset` of the whole. */
void ocft_check_merge(ocft_check *total, const ocft_check *part, size_t offset);

/*
 * Compares got[i] with want[i] for i < count, adding to *check: a NaN must meet a NaN, an
 * infinity the same infinity, and a finite value must be within tol[i] (tol NULL: exactly).
 */
void ocft_check_elements(const float *got, const double *want, const double *tol, size_t count,
                         ocft_check *check);

/*
 * matmul: the tolerance of each element of C = alpha op(A) op(B) + beta C (the arguments of
 * ocf_ref_matmul; beta == 0: C is not read), into tol (m x n, dense).
 */
void ocft_matmul_tolerance(int trans_a, int trans_b, size_t m, size_t n, size_t k, float alpha,
                           const float *a, size_t lda, const float *b, size_t ldb, float beta,
                           const float *c, size_t ldc, double *tol);

/*
 * softmax: compares got (row r at got[r * got_ld]) with the reference want (dense, from
 * ocf_ref_softmax) of the input `in` (row r at in[r * in_ld]), adding to *check. The model needs
 * the fewest and the most work-items that may reduce one row, taken from the public side only:
 * `workgroup_size` is the launch's (0 for a default launch), `device` the device's description.
 * Inputs must be in random order (ocft_fill_uniform's are), special values aside.
 */
void ocft_check_softmax(size_t rows, size_t cols, const float *in, size_t in_ld, const double *want,
                        const float *got, size_t got_ld, size_t workgroup_size,
                        const ocf_device_info *device, ocft_check *check);

/*
 * The work-items a default launch of ocf_softmax gives a long row, at the least (capped by the
 * device's limits): the library's softmax `wg` tunable, which every built-in tuning row sets to
 * 64 or more. More work-items only make the model tighter, so were a tuning row to go below this,
 * a right result could fail a check, but a wrong one could never pass.
 */
#define OCFT_SOFTMAX_DEFAULT_WORKGROUP 32

/*
 * norm (LayerNorm rms = 0, RMSNorm rms = 1; issue 20): the tolerance of each output of the
 * normalization of x (rows x cols, row r at x[r * x_ld], the residual already added and rounded
 * as the kernels do: ocf_ref_norm_residual) against ocf_ref_norm's want, into tol (rows x cols,
 * dense), and of each row's mean and rstd into mean_tol and rstd_tol (either may be NULL).
 * weight and bias as ocf_ref_norm's (NULL: 1 and 0), out_dtype the output's storage type (0 f32,
 * 1 f16, 2 bf16). The work-items that may share a row come from the public side only, as for
 * softmax: `workgroup_size` is the launch's (0: a default launch), `device` the device's
 * description.
 */
void ocft_norm_tolerance(int rms, size_t rows, size_t cols, const float *x, size_t x_ld,
                         const float *weight, const float *bias, double eps, const double *want,
                         int out_dtype, size_t workgroup_size, const ocf_device_info *device,
                         double *tol, double *mean_tol, double *rstd_tol);

/* attention: the tolerance of each element of ocf_attention's
   out (tol, dense [b, h, lq, d]) and lse (tol_lse, [b, h, lq]; NULL: not wanted) against the
   reference's want and lse (harness/reference_attention.h; lse may be NULL), for an out of storage
   type out_dtype (0 f32, 1 f16, 2 bf16). 0 where the reference is 0 for an empty row or NaN.
   rescales: 0 for a plan of one workgroup a row (the rescales are counted from the scores), else
   a bound on the rescales of any row's sums (a split plan: one a tile and the merge's). */
struct ocf_ref_attention_args;
void ocft_attention_tolerance(const struct ocf_ref_attention_args *a, const double *want,
                              const double *lse, int out_dtype, size_t rescales, double *tol,
                              double *tol_lse);
/* What attention_mma (NVIDIA's matrix units: P V on weights rounded to the 16-bit p_dtype, 1 f16
   or 2 bf16, or with p_dtype 0 every product of fp32 inputs in TF32 parts, precision 1 TF32 or
   2 3XTF32; sums of no stated rounding) may add beyond that model, added to tol (tolerance.c);
   out_dtype as above; tol_lse (NULL: not wanted) gains the lse's share. */
void ocft_attention_mma_tolerance(const struct ocf_ref_attention_args *a, const double *want,
                                  int p_dtype, int precision, int out_dtype, double *tol,
                                  double *tol_lse);

#endif /* OCLFUSE_TOLERANCE_H */
