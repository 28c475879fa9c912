/*
 * CPU reference of the whole GEMM of ocf_matmul_ex, shared by the matmul suites and the lab:
 * storage conversions (fp16, bf16), the input rounding of the precision modes, the epilogue,
 * and one tolerance model for every path. Accumulation is in double.
 *
 * Tolerance of an element, the device result against this reference (u = 2^-24):
 *
 *   GEMM   z = alpha * sum_p a_p b_p + beta * c + bias. Every kernel forms the dot product in
 *          fp32 in some order, each step a rounded multiply-add or an FMA (Higham 3.1: error
 *          <= gamma_k * sum |a_p b_p|, gamma_k ~ k u), then two more roundings (alpha,
 *          beta) and a third with a bias: (k + 2 + [bias]) u * S to first order,
 *          S = |alpha| sum |a_p b_p| + |beta c| + |bias|. Doubled for the second-order terms
 *          and the final rounding: E = 2 (k + 2 + [bias]) u S, the existing suite's factor.
 *          The reference applies the mode's input rounding itself, so in TF32 the products it
 *          sums are the device's exact products of rounded inputs and E holds unchanged. In
 *          3XTF32 each product is ah bh + (al bh + ah bl) with the cross term rounded once
 *          (relative error u * 2^-10 of |a b|): E grows by the factor (1 + 2^-10). The tiled
 *          SIMT kernels instead add the three exact products with two FMAs,
 *          fma(ah, bh + bl, fma(al, bh, acc)) (bh + bl exact in fp32): two roundings of the
 *          running sum per k, (2 k + 2 + [bias]) u S to first order, inside E as well.
 *   act    an activation of Lipschitz constant L adds L E; its own evaluation in fp32 adds
 *          c u |z| (OpenCL's full-profile limits: erf 16 ulp, tanh 5, exp 3, division 2.5,
 *          each ulp at most 2u relative and, for erf and tanh below 1, at most u absolute):
 *            none, relu  L = 1                exact
 *            gelu erf    L = 1.13 (max of     0.5 |z| (17.5 u: erf 16, its argument 0.5,
 *                        Phi + z phi)         1 + erf 1) + u |y|  <=  10 u |z|
 *            gelu tanh   L = 1.13             0.5 |z| (9.2 u: tanh 5, its argument's 7 u
 *                                             damped by |w| sech^2 w <= 0.45, 1 + tanh 1)
 *                                             + u |y|  <=  6 u |z|
 *            silu        L = 1.10             relative: exp 6 u, 1 + e u, division 5 u
 *                                             <= 12 u |z|
 *   store  a 16-bit C adds half an ulp of the result: 2^-11 |y| (fp16, plus 2^-25 absolute
 *          below its normal range), 2^-8 |y| (bf16).
 *
 * Against the exact product of the unrounded fp32 inputs (what the documented bounds of the
 * modes say, tested separately):
 *   TF32    each input truncated: 10 of the 23 mantissa bits kept, the dropped 13 worth less
 *           than one ulp of the kept precision, 2^-10 of the leading bit, so
 *           t(a) = a (1 - d_a) with 0 <= d_a < 2^-10 for a normal a (rounding to nearest was
 *           half that: |d_a| <= 2^-11). A product of truncated inputs is
 *           a b (1 - d_a) (1 - d_b), within (1 - (1 - 2^-10)^2) |a b| = (2^-9 - 2^-20) |a b|
 *           < 2^-9 |a b| of a b, and no larger than |a b| (truncation never grows a
 *           magnitude), so E on the truncated products is at most E on the exact ones: the
 *           error is 2^-9 S_ab + E, include/oclfuse.h's (2^-9 + (k + 2) 2^-23) |alpha| |A||B|
 *           (E twice that on the matrix units, whose sum truncates);
 *   3XTF32  the dropped terms al bl, ah br, ar bh (ar the part of a below its low TF32 half,
 *           |ar| <= 2^-22 |a|) come to at most 12.1 u |a b|: E + 12.1 u S_ab, inside the
 *           fp32 tolerance 2 (k + 2) u S of the plain suite as soon as k >= 11.
 */
#ifndef OCLFUSE_REFERENCE_GEMM_H
#define OCLFUSE_REFERENCE_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include "storage16.h" /* the 16-bit storage types */

/* x as the TF32 mode multiplies it: truncated as cl/common.cl's ocf_tf32_trunc (toward zero,
   10 mantissa bits kept; an infinity stays one, a NaN a NaN). */
float ocf_ref_tf32(float x);
/* The 3XTF32 split: big = x rounded as cl/common.cl's ocf_round_tf32 (cvt.rna.tf32.f32's
   ties away from zero, 10 mantissa bits kept; an infinity stays one, a NaN a NaN); the low
   half, big being ocf_ref_tf32_rna(x): NaN for an infinite x, as ocf_tf32_small. */
float ocf_ref_tf32_rna(float x);
float ocf_ref_tf32_small(float x, float big);

/* ---- the GEMM ---- */

/* One product of ocf_matmul_ex as the reference sees it: operands already decoded to float,
   pointing at the product's own matrices. Element (r, c) of a matrix with leading dimension ld
   is at r * ld + c (row-major) or r + c * ld (col_major). bias points at the product's bias
   vector (n values along N, m along M), NULL when bias_axis is 0. */
typedef struct ocf_ref_gemm {
  int col_major;
  int trans_a, trans_b;
  size_t m, n, k;
  float alpha, beta;
  const float *a, *b, *c;
  size_t lda, ldb, ldc;
  int precision;  /* ocf_precision */
  int activation; /* ocf_activation */
  int bias_axis;  /* ocf_bias_axis */
  const float *bias;
  int c_dtype; /* ocf_dtype of C, for the store's rounding in the tolerance */
  /* 1: the sum is formed by NVIDIA's matrix units, whose accumulation truncates (lab/mma's
     probe: 1 + 0.75 ulp comes out 1): each step's error is up to 2u rather than u, so the GEMM
     term E doubles (2 (k + 2 + [bias]) u S is then the first-order bound alone). */
  int truncating_sum;
} ocf_ref_gemm;

/*
 * want[i * n + j] = act(alpha * sum_p op(A)[i][p] op(B)[p][j] + beta * C[i][j] + bias) in
 * double, with the mode's input rounding (beta == 0: C not read); tol[i * n + j] the tolerance
 * above. With exact_inputs, the products are those of the unrounded inputs and tol the mode's
 * documented bound against them instead.
 */
void ocf_ref_gemm_run(const ocf_ref_gemm *g, int exact_inputs, double *want, double *tol);

/* The plain fp32 tolerance factor of the existing suite, 2 (k + 2) u: for comparing 3XTF32
   with it. */
double ocf_ref_gemm_fp32_factor(size_t k);

#endif /* OCLFUSE_REFERENCE_GEMM_H */
