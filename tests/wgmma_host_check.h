/*
 * wgmma_host_check.h: what the host checks of cl/matmul_wgmma_nv.cl's split kernels share
 * (tests/wgmma_lastwave_check.c, tests/wgmma_join_check.c): OpenCL C's words as C, the
 * derived sizes of 16-bit inputs and fp32 C, one work-item at a time (group_id, local_id), C's
 * stores counted (store_c), the epilogue without activations, the products' stand-in elements
 * w(p, row, col) and float2. Included before part.cl (the check's cut of the kernel source);
 * wgmma_host_acc.h, after it, gives the accumulators the matrix units would leave.
 */
#ifndef OCLFUSE_TESTS_WGMMA_HOST_CHECK_H
#define OCLFUSE_TESTS_WGMMA_HOST_CHECK_H

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

/* C as the check allocated it, how often each element was stored, the differences found */
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

/* float2 values: the scripts write (float2)(...) as FLOAT2(...) and drop __global there */
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

static ulong div_ceil(const ulong a, const ulong b) {
  return (a + b - 1) / b;
}

/* order[0..n) a shuffle of 0..n-1 (Fisher-Yates with a fixed generator from seed): the order a
   check runs a launch's workgroups in. */
static inline void shuffle_groups(uint *order, const ulong n, unsigned seed) {
  for (ulong g = 0; g < n; g++)
    order[g] = (uint)g;
  for (ulong g = n; g-- > 1;) {
    seed = seed * 1103515245u + 12345u;
    const ulong j = (seed >> 8) % (g + 1);
    const uint swap = order[g];
    order[g] = order[j], order[j] = swap;
  }
}

/* A check's exit: "ok" and 0 when at least 8 of its cases made plans (`planned`) and none
   differed; else what went wrong (`what`: the cases' plan, for "only N of the cases ...") and 1. */
static inline int checks_done(const int planned, const char *what) {
  if (planned < 8) {
    printf("only %d of the cases %s\n", planned, what);
    return 1;
  }
  if (failures) return 1;
  printf("ok (%d plans)\n", planned);
  return 0;
}

/* A check's C and bias: `batch` products of m x n from element C_OFF, rows n + 3 apart, products
   m + 2 rows apart (padding columns and rows between products that must keep their values),
   element i holding i % 13 (into c_base, c_size, written); the bias n + 9 values, i % 5 - 2,
   read from element BIAS_OFF; the scratch `floats` NaNs (a read of a sum nobody wrote shows). */
#define C_OFF 5ul
#define BIAS_OFF 9ul
typedef struct check_arrays {
  ulong ldc, stride_c;
  float *bias, *scratch;
} check_arrays;

static check_arrays arrays_of(const ulong m, const ulong n, const ulong batch,
                              const size_t floats) {
  check_arrays x;
  x.ldc = n + 3, x.stride_c = (m + 2) * x.ldc;
  c_size = C_OFF + batch * x.stride_c;
  c_base = malloc(c_size * sizeof(float));
  written = calloc(c_size, 1);
  x.scratch = malloc(floats * sizeof(float));
  x.bias = malloc((n + BIAS_OFF) * sizeof(float));
  if (!c_base || !written || !x.scratch || !x.bias) {
    printf("out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < c_size; i++)
    c_base[i] = (float)(i % 13);
  for (size_t i = 0; i < floats; i++)
    x.scratch[i] = NAN;
  for (ulong i = 0; i < n + BIAS_OFF; i++)
    x.bias[i] = (float)(i % 5) - 2.0f;
  return x;
}

/* Every element of C: inside m x n of a product written once, alpha k w + beta C + bias[col];
   nothing else touched. `plan` names the case in what differed. Frees the arrays. */
static void check_c(const char *plan, check_arrays *x, const ulong m, const ulong n, const ulong k,
                    const float alpha, const float beta) {
  for (size_t i = 0; i < c_size; i++) {
    const size_t rel = i - C_OFF, product = rel / x->stride_c, row = rel % x->stride_c / x->ldc,
                 col = rel % x->ldc;
    const int inside = i >= C_OFF && row < m && col < n;
    const float old = (float)(i % 13);
    const float want = inside ? alpha * (float)k * w_of(product, row, col) +
                                    (beta != 0.0f ? beta * old : 0.0f) + x->bias[BIAS_OFF + col]
                              : old;
    if ((written[i] != inside || c_base[i] != want) && failures++ < 5)
      printf("%s: C[%zu] (product %zu, row %zu, col %zu) is %g written %d times, want %g %s\n",
             plan, i, product, row, col, (double)c_base[i], written[i], (double)want,
             inside ? "once" : "never");
  }
  free(c_base), free(written), free(x->scratch), free(x->bias);
}

#endif /* OCLFUSE_TESTS_WGMMA_HOST_CHECK_H */
