/*
 * wgmma_lastwave_check.c: the last-wave split's kernels of cl/matmul_wgmma_split.clh
 * (matmul_wgmma_lw_split, then matmul_wgmma_lw) on the host, their indexing only (built and run
 * by tools/wgmma_lastwave_check.sh with -DBN, -DCONSUMERS and -DGROUP_M; part.cl is the script's
 * cut of the kernel source: the accumulator fragment's macros, tile_of, the operands, the
 * epilogue's element and the last-wave section). main_loop and whole_tile stand in for the matrix
 * units: a work-item's accumulator for element (row, col) of product p over K range [k0, k0 + kn)
 * is kn w(p, row, col) (0 outside m x n), whose sum over the ranges is exactly k w in floats. Every
 * work-item of every workgroup of both launches runs in turn. Checks, for plans made as
 * src/plan/plan_matmul_wgmma.c's rule 6 makes them (several unit counts, shapes, batches whose last
 * wave straddles products):
 *  - every element of every product's m x n written once, to alpha k w + beta C + bias[col];
 *    nothing outside (C's padding columns and the rows between products keep their value);
 *  - the reduce reads only scratch the split wrote (the scratch starts as NaN);
 *  - the kernel's accumulator pairs where acc_element (the header's layout) puts them.
 * Prints "ok" or what differed; exit status 1 on a difference.
 */
#define OCF_KERNEL_matmul_wgmma_lw_split
#define OCF_KERNEL_matmul_wgmma_lw
#include "wgmma_host_check.h"

typedef struct epilogue epilogue;
static void whole_tile(const uint base, const uint slot, const uint tiles_m, const uint tiles_n,
                       const ulong m, const ulong n, const ulong k, const float alpha,
                       __global const uchar *a, const ulong a_off, const ulong lda,
                       const ulong stride_a, __global const uchar *b, const ulong b_off,
                       const ulong ldb, const ulong stride_b, const float beta, __global C_T *c,
                       const ulong c_off, const ulong ldc, const ulong stride_c,
                       __global const BIAS_T *bias, const ulong bias_off);

#include "part.cl"

#include "wgmma_host_acc.h"

/* matmul_wgmma's workgroup: its elements finished from k w. */
static void whole_tile(const uint base, const uint slot, const uint tiles_m, const uint tiles_n,
                       const ulong m, const ulong n, const ulong k, const float alpha,
                       __global const uchar *a, const ulong a_off, const ulong lda,
                       const ulong stride_a, __global const uchar *b, const ulong b_off,
                       const ulong ldb, const ulong stride_b, const float beta, __global C_T *c,
                       const ulong c_off, const ulong ldc, const ulong stride_c,
                       __global const BIAS_T *bias, const ulong bias_off) {
  (void)base, (void)a, (void)a_off, (void)lda, (void)stride_a, (void)b, (void)b_off, (void)ldb;
  (void)stride_b;
  const uint tiles = tiles_m * tiles_n, product = slot / tiles, t = local_id;
  uint tm, tn;
  tile_of(slot - product * tiles, tiles_m, tiles_n, &tm, &tn);
  float acc[NACC];
  const ulong m0 = (ulong)tm * BM, n0 = (ulong)tn * BN;
  fake_acc(acc, product, k, m, n, m0, n0, t);
  epilogue e;
  e.alpha = alpha, e.beta = beta, e.bias = bias, e.bias_off = bias_off;
  store_finished(c + c_off + product * stride_c, ldc, m, n, m0, n0, acc, &e, t);
}

/* One plan of rule 6 (lastwave 100, least K per range min_k) run and checked; 0 when the
   shape does not split (not counted). */
static int check(const ulong units, const ulong m, const ulong n, const ulong k, const ulong batch,
                 const ulong min_k, const float beta) {
  const ulong tiles = div_ceil(m, BM) * div_ceil(n, BN), groups = tiles * batch;
  if (groups <= units || groups % units == 0) return 0;
  const ulong last = groups % units;
  ulong splits = min(units / last, k / min_k);
  if (splits < 2) return 0;
  const ulong k_split = div_ceil(div_ceil(k, splits), BK) * BK;
  splits = div_ceil(k, k_split);
  if (splits < 2) return 0;
  const ulong lw_first = groups - last;

  check_arrays x = arrays_of(m, n, batch, splits * last * BM * BN);
  const float alpha = 0.5f;

  for (group_id = 0; group_id < last * splits; group_id++)
    for (local_id = 0; local_id < THREADS; local_id++)
      matmul_wgmma_lw_split(m, n, k, batch, origin, 0, k, SA, origin, 0, n, 0, k_split, lw_first,
                            x.scratch);
  for (group_id = 0; group_id < lw_first + last * splits; group_id++)
    for (local_id = 0; local_id < THREADS; local_id++)
      matmul_wgmma_lw(m, n, k, batch, alpha, origin, 0, k, SA, origin, 0, n, 0, beta, c_base, C_OFF,
                      x.ldc, x.stride_c, x.bias, BIAS_OFF, splits, lw_first, x.scratch);

  char plan[160];
  snprintf(plan, sizeof plan, "units %lu, %lu x %lu x %lu, batch %lu (R %lu, %lu ranges of %lu)",
           units, m, n, k, batch, last, splits, k_split);
  check_c(plan, &x, m, n, k, alpha, beta);
  return 1;
}

int main(void) {
  static const ulong cases[][5] = {
      /* units, m, n, k, batch */
      {132, 3000, 3000, 3000, 1}, {132, 4095, 4104, 4000, 1}, {132, 1100, 1300, 200, 3},
      {132, 700, 1580, 200, 1},   {132, 300, 100, 400, 28},   {7, 300, 530, 333, 1},
      {10, 130, 270, 700, 3},     {5, 1000, 77, 200, 2},      {9, 64, 2000, 1000, 1},
      {16, 129, 257, 1000, 10},   {3, 200, 300, 150, 1},      {132, 128 * 133, 128, 4096, 1}};
  check_fragment(3 * BM, 5 * BN);
  int planned = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int b = 0; b < 2; b++)
      planned += check(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], 64,
                       b ? 0.75f : 0.0f);
  return checks_done(planned, "split their last wave");
}
