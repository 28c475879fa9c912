/*
 * ref_kernel.cl: a slow, plain stand-in for cl/matmul_mma_nv.cl with the same arguments, -D
 * names and arithmetic contract, for devices without inline PTX (PoCL): it lets the lab check
 * itself there (mma_lab --no-probes --kernel tools/lab/mma/ref_kernel.cl --quick). TF32 inputs are
 * rounded by ocf_round_tf32 (cl/common.cl, the cvt.rna.tf32.f32 rounding), 3XTF32 adds the three
 * products of the split parts smallest first, 16-bit inputs are exact; one work-item per output
 * element of the workgroup's BM x BN tile, products added in k order in fp32.
 */
#ifndef AB_DTYPE
#define AB_DTYPE 2
#endif
#ifndef C_DTYPE
#define C_DTYPE 0
#endif
#ifndef PRECISION
#define PRECISION 1
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 64
#endif
#define THREADS (32 * (BM / WM) * (BN / WN))
#define AB_T OCF_STORAGE(AB_DTYPE)
#define C_T OCF_STORAGE(C_DTYPE)

/* acc + a b in the mode's arithmetic. */
float mode_product(const float acc, const float a, const float b) {
#if AB_DTYPE == 0 && PRECISION == 2
  const float ab = ocf_round_tf32(a), as = ocf_tf32_small(a, ab);
  const float bb = ocf_round_tf32(b), bs = ocf_tf32_small(b, bb);
  return ((acc + as * bb) + ab * bs) + ab * bb;
#elif AB_DTYPE == 0
  return acc + ocf_round_tf32(a) * ocf_round_tf32(b);
#else
  return acc + a * b;
#endif
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
matmul_mma(const ulong m, const ulong n, const ulong k, const float alpha, __global const AB_T *a,
           const ulong a_off, const ulong lda, const ulong stride_a, __global const AB_T *b,
           const ulong b_off, const ulong ldb, const ulong stride_b, const float beta,
           __global C_T *c, const ulong c_off, const ulong ldc, const ulong stride_c,
           __global const AB_T *bias, const ulong bias_off) {
  (void)bias, (void)bias_off; /* the lab's programs have no epilogue */
  /* 1-D grid, the batch folded in: workgroup g is product g / tiles, tile g % tiles */
  const ulong tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
  const ulong tiles = tiles_m * tiles_n, g = get_group_id(0);
  if (tiles == 0) return;
  const ulong batch = g / tiles, t = g - batch * tiles;
  const ulong tm = t / tiles_n, tn = t - tm * tiles_n;
  const ulong a_at = a_off + batch * stride_a, b_at = b_off + batch * stride_b;
  const ulong c_at = c_off + batch * stride_c;
  for (uint e = get_local_id(0); e < BM * BN; e += THREADS) {
    const ulong i = tm * BM + e / BN, j = tn * BN + e % BN;
    if (i >= m || j >= n) continue;
    float acc = 0.0f;
    for (ulong p = 0; p < k; p++) {
      const float x = OCF_LOAD(AB_DTYPE, a, a_at + (TRANS_A ? p * lda + i : i * lda + p));
      const float y = OCF_LOAD(AB_DTYPE, b, b_at + (TRANS_B ? j * ldb + p : p * ldb + j));
      acc = mode_product(acc, x, y);
    }
    const ulong at = c_at + i * ldc + j;
    const float value = alpha * acc;
    OCF_STORE(C_DTYPE, c, at, beta != 0.0f ? beta * OCF_LOAD(C_DTYPE, c, at) + value : value);
  }
}
