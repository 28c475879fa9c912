/*
 * The harness of the matmul suites that go beyond the plain fp32 call (test_matmul_batched,
 * _epilogue, _skinny, _precision): one described call of ocf_matmul_ex on fresh device buffers,
 * its every output element checked against harness/reference_gemm.h (whose header argues the
 * tolerances) and every other element of C's buffer checked unchanged, bit for bit; and the same
 * call through CLBlast where CLBlast has one (fp32, no epilogue).
 */
#ifndef OCLFUSE_MATMUL_CHECK_H
#define OCLFUSE_MATMUL_CHECK_H

#include "test_common.h"

/* A batch stride of one matrix's extent rounded up to 4, plus 4 more (a gap that must stay
   untouched, and strides that keep fp32 vector alignment). */
#define MMX_PACKED ((size_t)-1)

typedef struct mmx_case {
  ocf_layout layout;
  ocf_transpose ta, tb;
  size_t m, n, k;
  float alpha, beta;
  size_t lda_pad, ldb_pad, ldc_pad; /* beyond the shortest legal leading dimension */
  size_t a_off, b_off, c_off;
  size_t batch;                        /* 0 or 1: one product */
  size_t stride_a, stride_b, stride_c; /* elements, 0 (shared) or MMX_PACKED */
  ocf_dtype a_dtype, b_dtype, c_dtype, bias_dtype;
  ocf_precision precision;
  ocf_activation activation;
  ocf_bias_axis bias_axis;
  size_t bias_off;
  int nan_c;        /* C starts as NaN (beta 0 must not read it) */
  int nan_inputs;   /* every 5th element of A and B is NaN (alpha 0 must not read them) */
  int exact_inputs; /* judge against the unrounded inputs: the mode's documented bound */
  ocf_variant variant;
  size_t workgroup;
  int truncating_sum; /* judged as a matrix-unit sum (harness/reference_gemm.h) */
  cl_mem workspace;   /* the launch's workspace (NULL: none), its first workspace_size bytes */
  size_t workspace_size;
  int nan_workspace; /* without a workspace: one of the size the call asks, of NaN bytes (a split
                        plan does not zero its scratch: every float read must be written) */
} mmx_case;

/* m x n x k, row-major, no transposes, alpha 1, beta 0, fp32, one product, no epilogue. */
mmx_case mmx_plain(size_t m, size_t n, size_t k);

/* What a check saw. */
typedef struct mmx_outcome {
  double worst;         /* largest |got - want| / tolerance over the outputs (<= 1 passed) */
  double worst_vs_fp32; /* the same against the exact inputs with the plain fp32 tolerance */
} mmx_outcome;

/* Runs the case and checks it (fails the test on the first wrong element, naming the case).
   out may be NULL. */
void mmx_check(const ocft_env *env, const mmx_case *t, mmx_outcome *out);

/* Sets matmul tuning `values` on the environment's context for every input type (NULL: back to
   the resolved values), as a suite that forces a plan does. */
void mmx_tune(const ocft_env *env, const char *values);

/* ocf_matmul_workspace_size for the case's call (its buffers as mmx_check lays them out). */
size_t mmx_workspace_size(const ocft_env *env, const mmx_case *t);

/* Runs the case through CLBlast too (SgemmStridedBatched for a batch, else Sgemm) and checks
   both against the reference and each other (within twice the tolerance). Skips nothing: call
   it only for fp32 cases without an epilogue, and only where CLBlast is built in. */
void mmx_check_clblast(const ocft_env *env, const mmx_case *t);
/* Non-zero when built with CLBlast and not under Oclgrind (where CLBlast's kernels would be
   simulated and judged too). */
int mmx_have_clblast(void);
/* The default device's NVIDIA compute capability as major * 10 + minor (90: Hopper), 0 when it
   is not an NVIDIA GPU (the matrix-unit suites' gates). */
unsigned mmx_nvidia_compute_capability(void);

/* A short description of a case for failure messages. */
void mmx_describe(const mmx_case *t, char *out, size_t capacity);

/* ---- pieces for the suites' refusal tests ---- */

/* A device buffer of `bytes` bytes filled with a pattern, and a check that it still holds it. */
cl_mem mmx_pattern_buffer(const ocft_env *env, size_t bytes);
void mmx_assert_pattern(const ocft_env *env, cl_mem buffer, size_t bytes, const char *what);

#endif /* OCLFUSE_MATMUL_CHECK_H */
