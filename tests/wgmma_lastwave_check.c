/*
 * wgmma_lastwave_check.c: the last-wave split's kernels of cl/matmul_wgmma_nv.cl
 * (matmul_wgmma_lw_split, then matmul_wgmma_lw) on the host, their indexing only (built and run
 * by tools/wgmma_lastwave_check.sh with -DBN, -DCONSUMERS and -DGROUP_M; part.cl is the script's
 * cut of the kernel source: tile_of, the operands, the epilogue's element and the last-wave
 * section). main_loop and whole_tile stand in for the matrix units: a work-item's accumulator for
 * element (row, col) of product p over K range [k0, k0 + kn) is kn w(p, row, col) (0 outside m x
 * n), whose sum over the ranges is exactly k w in floats. Every work-item of every workgroup of
 * both launches runs in turn. Checks, for plans made as src/plan/plan_matmul_wgmma.c's rule 6 makes
 * them (several unit counts, shapes, batches whose last wave straddles products):
 *  - every element of every product's m x n written once, to alpha k w + beta C + bias[col];
 *    nothing outside (C's padding columns and the rows between products keep their value);
 *  - the reduce reads only scratch the split wrote (the scratch starts as NaN).
 * Prints "ok" or what differed; exit status 1 on a difference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned char uchar;
#define __global
#define __local
#define __kernel
#define INLINE static inline
#define min(a, b) ((a) < (b) ? (a) : (b))
#define OCF_KERNEL_matmul_wgmma_lw_split
#define OCF_KERNEL_matmul_wgmma_lw

/* as cl/matmul_wgmma_nv.cl derives them, 16-bit inputs */
#define BM (64 * CONSUMERS)
#define THREADS (128 * CONSUMERS)
#define EB 2
#define BK 64
#define NACC (BN / 2)
#define SMEM_BYTES 16
#define C_DTYPE 0
#define BIAS_DTYPE 0
#define BIAS 1
#define ACTIVATION 0
#define C_T float
#define BIAS_T float
#define OCF_LOAD(dtype, p, i) ((float)(p)[i])
#define OCF_STORE(dtype, p, i, v) store_c(&(p)[i], (v))

static uint group_id, local_id;
static uint get_group_id(int d) {
  (void)d;
  return group_id;
}
static uint get_local_id(int d) {
  (void)d;
  return local_id;
}

static float *c_base;
static size_t c_size;
static unsigned char *written;
static int failures;

static void store_c(float *p, const float v) {
  const size_t i = (size_t)(p - c_base);
  if (p < c_base || i >= c_size) {
    if (failures++ < 5) printf("a store outside C (element %ld)\n", (long)(p - c_base));
    return;
  }
  written[i]++;
  *p = v;
}

static float ocf_matmul_finish(const float v, const float alpha, const float beta,
                               const float c_old, const float bias, const int has_bias,
                               const int act) {
  (void)act;
  return alpha * v + (beta != 0.0f ? beta * c_old : 0.0f) + (has_bias ? bias : 0.0f);
}

/* A stand-in for the product's element: small integers, exact in floats times k. */
static float w_of(const ulong product, const ulong row, const ulong col) {
  return (float)((product * 7 + row * 3 + col) % 61 + 1);
}

static const uchar *origin = (const uchar *)0x100000000ul; /* never read */
#define SA 1000000ul /* the A stride of a product: k0 and the product read back from o->a */

/* float2 stores: the script writes (float2)(x, y) as FLOAT2(x, y) and drops __global there */
typedef struct float2 {
  float x, y;
} float2;
#define FLOAT2(x, y) ((float2){(x), (y)})

typedef struct operands operands;
typedef struct epilogue epilogue;
static void main_loop(float *acc, const uint base, const operands *o, const uint t);
static void whole_tile(const uint base, const uint slot, const uint tiles_m, const uint tiles_n,
                       const ulong m, const ulong n, const ulong k, const float alpha,
                       __global const uchar *a, const ulong a_off, const ulong lda,
                       const ulong stride_a, __global const uchar *b, const ulong b_off,
                       const ulong ldb, const ulong stride_b, const float beta, __global C_T *c,
                       const ulong c_off, const ulong ldc, const ulong stride_c,
                       __global const BIAS_T *bias, const ulong bias_off);
static uint stage_base(void *smem) {
  (void)smem;
  return 0;
}

#include "part.cl"

/* The accumulators of work-item t as the matrix units leave them (the header's layout). */
static void fake_acc(float *acc, const ulong product, const ulong kn, const ulong m, const ulong n,
                     const ulong m0, const ulong n0, const uint t) {
  const uint wg = t / 128, l = t % 128;
  for (uint q = 0; q < BN / 8; q++)
    for (uint v1 = 0; v1 < 2; v1++)
      for (uint v0 = 0; v0 < 2; v0++) {
        const ulong row = m0 + 64 * wg + 16 * (l / 32) + (l % 32) / 4 + 8 * v1;
        const ulong col = n0 + 8 * q + 2 * (l % 4) + v0;
        acc[4 * q + 2 * v1 + v0] = row < m && col < n ? (float)kn * w_of(product, row, col) : 0.0f;
      }
}

static void main_loop(float *acc, const uint base, const operands *o, const uint t) {
  (void)base;
  const ulong at = (ulong)(o->a - origin) / EB; /* product SA + k0 */
  fake_acc(acc, at / SA, o->k, o->m, o->n, o->m0, o->n0, t);
}

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
  const uint wg = t / 128, l = t % 128;
  for (uint q = 0; q < BN / 8; q++)
    for (uint v1 = 0; v1 < 2; v1++)
      for (uint v0 = 0; v0 < 2; v0++) {
        const ulong row = m0 + 64 * wg + 16 * (l / 32) + (l % 32) / 4 + 8 * v1;
        const ulong col = n0 + 8 * q + 2 * (l % 4) + v0;
        if (row >= m || col >= n) continue;
        float *at = c + c_off + product * stride_c + row * ldc + col;
        store_c(at, finish_at(acc[4 * q + 2 * v1 + v0], *at, &e, row, col));
      }
}

static ulong div_ceil(const ulong a, const ulong b) {
  return (a + b - 1) / b;
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

  const ulong ldc = n + 3, stride_c = (m + 2) * ldc, c_off = 5;
  c_size = c_off + batch * stride_c;
  c_base = malloc(c_size * sizeof(float));
  written = calloc(c_size, 1);
  const size_t floats = splits * last * BM * BN;
  float *partial = malloc(floats * sizeof(float));
  float *bias = malloc((n + 9) * sizeof(float));
  if (!c_base || !written || !partial || !bias) {
    printf("out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < c_size; i++)
    c_base[i] = (float)(i % 13);
  for (size_t i = 0; i < floats; i++)
    partial[i] = NAN;
  for (ulong i = 0; i < n + 9; i++)
    bias[i] = (float)(i % 5) - 2.0f;
  const float alpha = 0.5f;

  for (group_id = 0; group_id < last * splits; group_id++)
    for (local_id = 0; local_id < THREADS; local_id++)
      matmul_wgmma_lw_split(m, n, k, batch, origin, 0, k, SA, origin, 0, n, 0, k_split, lw_first,
                            partial);
  for (group_id = 0; group_id < lw_first + last * splits; group_id++)
    for (local_id = 0; local_id < THREADS; local_id++)
      matmul_wgmma_lw(m, n, k, batch, alpha, origin, 0, k, SA, origin, 0, n, 0, beta, c_base, c_off,
                      ldc, stride_c, bias, 9, splits, lw_first, partial);

  for (size_t i = 0; i < c_size; i++) {
    const size_t rel = i - c_off, product = rel / stride_c, row = rel % stride_c / ldc,
                 col = rel % ldc;
    const int inside = i >= c_off && row < m && col < n;
    const float old = (float)(i % 13);
    const float want = inside ? alpha * (float)k * w_of(product, row, col) +
                                    (beta != 0.0f ? beta * old : 0.0f) + bias[9 + col]
                              : old;
    if (written[i] != inside || c_base[i] != want) {
      if (failures++ < 5)
        printf("units %lu, %lu x %lu x %lu, batch %lu (R %lu, %lu ranges of %lu): C[%zu] "
               "(product %zu, row %zu, col %zu) is %g written %d times, want %g %s\n",
               units, m, n, k, batch, last, splits, k_split, i, product, row, col,
               (double)c_base[i], written[i], (double)want, inside ? "once" : "never");
    }
  }
  free(c_base), free(written), free(partial), free(bias);
  return 1;
}

int main(void) {
  static const ulong cases[][5] = {
      /* units, m, n, k, batch */
      {132, 3000, 3000, 3000, 1}, {132, 4095, 4104, 4000, 1}, {132, 1100, 1300, 200, 3},
      {132, 700, 1580, 200, 1},   {132, 300, 100, 400, 28},   {7, 300, 530, 333, 1},
      {10, 130, 270, 700, 3},     {5, 1000, 77, 200, 2},      {9, 64, 2000, 1000, 1},
      {16, 129, 257, 1000, 10},   {3, 200, 300, 150, 1},      {132, 128 * 133, 128, 4096, 1}};
  int planned = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int b = 0; b < 2; b++)
      planned += check(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], 64,
                       b ? 0.75f : 0.0f);
  if (planned < 8) {
    printf("only %d of the cases split their last wave\n", planned);
    return 1;
  }
  if (failures) return 1;
  printf("ok (%d plans)\n", planned);
  return 0;
}
