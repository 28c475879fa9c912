/*
 * baselines/softmax_unfused.cl: the benchmark's unfused softmax (OCF_VARIANT_BASELINE), a
 * program of its own so that the product programs carry no benchmark code (the arithmetic, the
 * mask and the tunables: softmax_common.clh).
 *
 *   softmax_base_max, softmax_base_exp_sum, softmax_base_divide
 *                      three kernels, scratch[r] = row max, scratch[rows + r] = row sum, and
 *                      exp(t) of every element (dense rows from scratch[2 * rows]); then out =
 *                      exp / sum (LOG: the sum only, then out = t - log(sum)). Only the last
 *                      kernel writes out, so a call whose later kernel fails to enqueue leaves
 *                      out untouched. Scalar, any offsets and strides.
 */

/* The workgroup's max (is_max) or sum of v, returned to every work-item. */
float reduce_one(__local float *lv, const float v, const int is_max) {
  const uint lid = get_local_id(0);
  lv[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint width = WG_POW2 / 2; width > 0; width >>= 1) {
    if (lid < width && lid + width < WG)
      lv[lid] = is_max ? fmax(lv[lid], lv[lid + width]) : lv[lid] + lv[lid + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float result = lv[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

/* ---- the unfused baseline: three kernels through global scratch ---- */

#ifdef OCF_KERNEL_softmax_base_max
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_base_max(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
                 const ulong in_ld, MASK_PARAMS, __global float *scratch) {
  __local float lv[WG];
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    const ulong len = row_length(MASK_ARGS, r, cols);
    float m = -INFINITY;
    for (ulong c = get_local_id(0); c < len; c += WG)
      m = fmax(m, OCF_LOAD(IN_DTYPE, src, c));
    m = reduce_one(lv, m, 1);
    if (get_local_id(0) == 0) scratch[r] = m;
  }
}
#endif

#ifdef OCF_KERNEL_softmax_base_exp_sum
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_base_exp_sum(const ulong rows, const ulong cols, __global const in_real *in,
                     const ulong in_off, const ulong in_ld, const float scale, MASK_PARAMS,
                     __global float *scratch) {
  __local float lv[WG];
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    __global float *exps = scratch + 2 * rows + r * cols;
    const ulong len = row_length(MASK_ARGS, r, cols);
    const float m = scratch[r];
    float s = 0.0f;
    for (ulong c = get_local_id(0); c < cols; c += WG) {
      /* exp(-inf - -inf) and exp(inf - inf) are NaN: the all -inf and +inf rows come out NaN. */
      const float e = c < len ? exp(scale * (OCF_LOAD(IN_DTYPE, src, c) - m)) : 0.0f;
#if !LOG
      exps[c] = e; /* LOG stores nothing: step 3 reads in */
#else
      (void)exps;
#endif
      s += e;
    }
    s = reduce_one(lv, s, 0);
    if (get_local_id(0) == 0) scratch[rows + r] = s;
  }
}
#endif

#ifdef OCF_KERNEL_softmax_base_divide
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_base_divide(const ulong rows, const ulong cols, __global const in_real *in,
                    const ulong in_off, const ulong in_ld, __global out_real *out,
                    const ulong out_off, const ulong out_ld, const float scale, MASK_PARAMS,
                    __global const float *scratch) {
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    __global out_real *dst = out + out_off + r * out_ld;
    __global const float *exps = scratch + 2 * rows + r * cols;
    const ulong len = row_length(MASK_ARGS, r, cols);
    const float m = scratch[r], s = scratch[rows + r];
    for (ulong c = get_local_id(0); c < cols; c += WG) {
#if LOG
      (void)exps;
      if (c < len)
        OCF_STORE(OUT_DTYPE, dst, c, scale * (OCF_LOAD(IN_DTYPE, src, c) - m) - log(s));
      else
        OCF_STORE(OUT_DTYPE, dst, c, PAD);
#else
      (void)src, (void)scale, (void)m;
      OCF_STORE(OUT_DTYPE, dst, c, c < len ? exps[c] / s : PAD);
#endif
    }
  }
}
#endif
