/*
 * baselines/add_baseline.cl: the benchmark's baseline of ocf_add (OCF_VARIANT_BASELINE), a
 * program of its own so that the product program (add.cl) carries no benchmark code:
 * out[i] = x[i] + y[i] for i < n, one element per work-item, no loop, no vectors.
 */

/* Work-items per workgroup; the host launches exactly this many. */
#ifndef WG
#error "WG: the host passes every tunable (src/plan/plan_add.c)"
#endif

/* Storage type of x, y and out (ocf_dtype: 0 f32, 1 f16, 2 bf16); the sum is fp32. */
#ifndef DTYPE
#error "DTYPE: the host passes every tunable (src/plan/plan_add.c)"
#endif

/* The element type of the buffers (OCF_STORAGE: cl/common.cl). */
#define real OCF_STORAGE(DTYPE)

#ifdef OCF_KERNEL_add_baseline
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
add_baseline(const ulong n, __global const real *x, const ulong x_off, __global const real *y,
             const ulong y_off, __global real *out, const ulong out_off) {
  const ulong i = get_global_id(0);
  if (i < n)
    OCF_STORE(DTYPE, out, out_off + i,
              OCF_LOAD(DTYPE, x, x_off + i) + OCF_LOAD(DTYPE, y, y_off + i));
}
#endif
