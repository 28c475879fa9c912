/*
 * wgmma_join_check.c: matmul_wgmma_split_join of cl/matmul_wgmma_nv.cl on the host, its indexing
 * and its counters only (built and run by tools/wgmma_join_check.sh with -DBN, -DCONSUMERS and
 * -DGROUP_M; part.cl is the script's cut of the kernel source: the operands, the epilogue and
 * its pair store, tile_of, operands_of and the split section without the arrival's fences and
 * atomics and the read past L1, which stand here as join_arrive and load_sums). main_loop stands
 * in for the matrix units: a work-item's accumulator for element (row, col) of product p over
 * K range [k0, k0 + kn) is kn w(p, row, col) (0 outside m x n), whose sum over the ranges is
 * exactly k w in floats. The workgroups run one after another in a shuffled order (so that any
 * range may arrive last), each work-item of a workgroup in turn: a work-item's join reads, of
 * its own range, only the pairs it wrote itself, so this order is one the device may take.
 * Checks, for plans made as src/plan/plan_matmul_wgmma.c's rule 5 makes them (several unit
 * counts, shapes, batches):
 *  - every element of every product's m x n written once, to alpha k w + beta C + bias[col];
 *    nothing outside (C's padding columns and the rows between products keep their value);
 *  - the joins read only sums the ranges wrote (the scratch starts as NaN);
 *  - each tile joined once, by the range that arrived last, and every counter back at zero.
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
#define OCF_KERNEL_matmul_wgmma_split_join

/* as cl/matmul_wgmma_nv.cl derives them, 16-bit inputs, fp32 C */
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

/* float2 values: the script writes (float2)(...) as FLOAT2(...) and drops __global there */
typedef struct float2 {
  float x, y;
} float2;
#define FLOAT2(...) ((float2){__VA_ARGS__})

typedef struct operands operands;
static void main_loop(float *acc, const uint base, const operands *o, const uint t);
static uint stage_base(void *smem) {
  (void)smem;
  return 0;
}

/* The arrival: work-item 0 of a workgroup counts it in, the others see its answer (they run
   after it); the last arrival resets the counter and is counted as the tile's join. */
static int last_arrival;
static ulong joins;
static int join_arrive(__global uint *counter, const ulong splits, __local int *last) {
  (void)last;
  if (local_id == 0) {
    last_arrival = (*counter)++ == splits - 1;
    if (last_arrival) {
      *counter = 0;
      joins++;
    }
  }
  return last_arrival;
}

static float2 load_sums(__global const float *p) {
  return (float2){p[0], p[1]};
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

static ulong div_ceil(const ulong a, const ulong b) {
  return (a + b - 1) / b;
}

/* One plan of rule 5 (split_min min_k) run in a shuffled workgroup order and checked; 0 when
   the shape does not split (not counted). */
static int check(const ulong units, const ulong m, const ulong n, const ulong k, const ulong batch,
                 const ulong min_k, const float beta, unsigned seed) {
  const ulong tiles = div_ceil(m, BM) * div_ceil(n, BN), groups = tiles * batch;
  if (groups >= units) return 0;
  ulong splits = min(units / groups, k / min_k);
  if (splits < 2) return 0;
  const ulong k_split = div_ceil(div_ceil(k, splits), BK) * BK;
  splits = div_ceil(k, k_split);
  if (splits < 2) return 0;

  const ulong ldc = n + 3, stride_c = (m + 2) * ldc, c_off = 5; /* odd: one-element stores */
  const ulong ldp = (n + 3) / 4 * 4;
  c_size = c_off + batch * stride_c;
  c_base = malloc(c_size * sizeof(float));
  written = calloc(c_size, 1);
  const size_t floats = splits * batch * m * ldp;
  float *partial = malloc(floats * sizeof(float));
  float *bias = malloc((n + 9) * sizeof(float));
  uint *counters = calloc(groups, sizeof(uint));
  uint *order = malloc(groups * splits * sizeof(uint));
  if (!c_base || !written || !partial || !bias || !counters || !order) {
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
  const ulong launched = groups * splits;
  for (ulong g = 0; g < launched; g++)
    order[g] = (uint)g;
  for (ulong g = launched - 1; g > 0; g--) { /* Fisher-Yates with a fixed generator */
    seed = seed * 1103515245u + 12345u;
    const ulong j = (seed >> 8) % (g + 1);
    const uint swap = order[g];
    order[g] = order[j], order[j] = swap;
  }

  joins = 0;
  for (ulong g = 0; g < launched; g++) {
    group_id = order[g];
    for (local_id = 0; local_id < THREADS; local_id++)
      matmul_wgmma_split_join(m, n, k, origin, 0, k, SA, origin, 0, n, 0, splits, k_split, partial,
                              alpha, beta, c_base, c_off, ldc, stride_c, bias, 9, counters);
  }

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
        printf("units %lu, %lu x %lu x %lu, batch %lu (%lu ranges of %lu): C[%zu] (product %zu, "
               "row %zu, col %zu) is %g written %d times, want %g %s\n",
               units, m, n, k, batch, splits, k_split, i, product, row, col, (double)c_base[i],
               written[i], (double)want, inside ? "once" : "never");
    }
  }
  if (joins != groups && failures++ < 5)
    printf("%lu x %lu x %lu, batch %lu: %lu joins for %lu tiles\n", m, n, k, batch, joins, groups);
  for (ulong i = 0; i < groups; i++)
    if (counters[i] != 0 && failures++ < 5) printf("counter %lu left at %u\n", i, counters[i]);
  free(c_base), free(written), free(partial), free(bias), free(counters), free(order);
  return 1;
}

int main(void) {
  static const ulong cases[][5] = {
      /* units, m, n, k, batch */
      {132, 128, 8192, 8192, 1}, {132, 100, 1030, 3000, 1}, {132, 300, 520, 1000, 1},
      {132, 77, 130, 333, 1},    {132, 150, 260, 888, 2},   {16, 129, 257, 700, 1},
      {40, 64, 4096, 4000, 3},   {9, 1, 1, 1000, 1},        {132, 200, 264, 1024, 4}};
  int planned = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int b = 0; b < 2; b++)
      planned += check(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], 64,
                       b ? 0.75f : 0.0f, 17u + (unsigned)(7 * i + b));
  if (planned < 8) {
    printf("only %d of the cases split\n", planned);
    return 1;
  }
  if (failures) return 1;
  printf("ok (%d plans)\n", planned);
  return 0;
}
