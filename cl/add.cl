/*
 * add.cl: masked elementwise add, out[i] = x[i] + y[i] for i < n.
 *
 *   x:   [x_off .......................... x_off + n)
 *   y:   [y_off .......................... y_off + n)
 *   out: [out_off ........................ out_off + n)
 *         |<--- n / VW vectors (VW floats each) --->|<- n % VW tail ->|
 *
 * Two kernels, the host picks one (the benchmark's baseline is baselines/add_baseline.cl):
 *   add_vector    the fast path. Assumes x_off, y_off and out_off are multiples of VW, so that
 *                 every vector access is aligned (buffers themselves are aligned by OpenCL to
 *                 CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 16 bytes). A grid-stride loop covers
 *                 the vectors; the first (n % VW) work-items of the grid then do the tail.
 *   add_general   any offsets: a scalar grid-stride loop.
 *
 * Indices are 64-bit (ulong), so n past 2^32 is right. In-place use (out == x or out == y) is
 * fine: every element is read and written by the same work-item, and no pointer is `restrict`.
 */

/* Work-items per workgroup; the host launches exactly this many. */
#ifndef WG
#error "WG: the host passes every tunable (src/plan/plan_add.c)"
#endif

/* Floats per vector access in add_vector: 1, 2, 4, 8 or 16. */
#ifndef VW
#error "VW: the host passes every tunable (src/plan/plan_add.c)"
#endif

/* Storage type of x, y and out (ocf_dtype: 0 f32, 1 f16, 2 bf16); the sum is fp32. */
#ifndef DTYPE
#error "DTYPE: the host passes every tunable (src/plan/plan_add.c)"
#endif

/* The element type of the buffers (OCF_STORAGE: cl/common.cl). */
#define real OCF_STORAGE(DTYPE)

#ifdef OCF_KERNEL_add_vector
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
add_vector(const ulong n, __global const real *x, const ulong x_off, __global const real *y,
           const ulong y_off, __global real *out, const ulong out_off) {
  __global const real *xs = x + x_off, *ys = y + y_off;
  __global real *outs = out + out_off;
  const ulong vectors = n / VW;
  const ulong stride = get_global_size(0);
  const ulong gid = get_global_id(0);
  for (ulong i = gid; i < vectors; i += stride)
    OCF_STOREV(DTYPE, VW, outs, i, OCF_LOADV(DTYPE, VW, xs, i) + OCF_LOADV(DTYPE, VW, ys, i));
  /* The ragged tail: fewer than VW elements past the last whole vector. */
  const ulong tail = vectors * VW + gid;
  if (tail < n) OCF_STORE(DTYPE, outs, tail, OCF_LOAD(DTYPE, xs, tail) + OCF_LOAD(DTYPE, ys, tail));
}
#endif

#ifdef OCF_KERNEL_add_general
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
add_general(const ulong n, __global const real *x, const ulong x_off, __global const real *y,
            const ulong y_off, __global real *out, const ulong out_off) {
  const ulong stride = get_global_size(0);
  for (ulong i = get_global_id(0); i < n; i += stride)
    OCF_STORE(DTYPE, out, out_off + i,
              OCF_LOAD(DTYPE, x, x_off + i) + OCF_LOAD(DTYPE, y, y_off + i));
}
#endif
