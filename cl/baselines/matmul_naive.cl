/*
 * baselines/matmul_naive.cl: the benchmark's baseline of ocf_matmul (OCF_VARIANT_BASELINE), a
 * program of its own so that the product program (matmul.cl) carries no benchmark code; the
 * operands, precision and epilogue are cl/matmul_common.clh's.
 *
 *   matmul_naive       one output per work-item, a plain loop over k straight from global
 *                      memory, with the tiled kernels' input rounding and epilogue.
 */

/* ---- tunables ---- */

/* Work-items along M (local dimension 1) and along N (local dimension 0). */
#ifndef MDIMC
#error "MDIMC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef NDIMC
#error "NDIMC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif

/* The baseline: one work-item computes one element of one C, straight from global memory, with
   the same input rounding. Dimension 0 runs over the columns of every C of the batch (each C
   padded to a whole number of workgroups), dimension 1 over the rows. */
#ifdef OCF_KERNEL_matmul_naive
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void matmul_naive(TILED_PARAMS) {
  const ulong n_pad = (n + NDIMC - 1) / NDIMC * NDIMC;
  ulong j;
  const ulong bi = ocf_divmod(get_global_id(0), n_pad, &j), i = get_global_id(1);
  if (i >= m || j >= n) return;
  __global const A_T *ab = a + a_off + bi * stride_a;
  __global const B_T *bb = b + b_off + bi * stride_b;
  float sum = 0.0f;
  for (ulong q = 0; q < k; q++) {
    const float av = OCF_LOAD(A_DTYPE, ab, TRANS_A ? q * lda + i : i * lda + q);
    const float bv = OCF_LOAD(B_DTYPE, bb, TRANS_B ? j * ldb + q : q * ldb + j);
#if PRECISION == 2
    const float a_big = ocf_round_tf32(av), b_big = ocf_round_tf32(bv);
    const float cross = ocf_tf32_small(av, a_big) * b_big + a_big * ocf_tf32_small(bv, b_big);
    sum += a_big * b_big + cross;
#else
    sum = ROUND_A(av) * ROUND_B(bv) + sum;
#endif
  }
  __global C_T *out = c + c_off + bi * stride_c + i * ldc;
  const float old = beta != 0.0f ? OCF_LOAD(C_DTYPE, out, j) : 0.0f;
  OCF_STORE(C_DTYPE, out, j, finish(sum, alpha, beta, old, bias_of(bias, bias_off, i, j)));
}
#endif
