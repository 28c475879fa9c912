/*
 * softmax_general.cl: the reference kernel (softmax_common.clh).
 *
 *   softmax_general    the slow, obviously right reference: scalar, two passes, any offsets and
 *                      strides.
 */

#ifdef OCF_KERNEL_softmax_general
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_general(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
                const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,
                const float scale, MASK_PARAMS) {
  __local float lm[WG], ls[WG];
  const uint lid = get_local_id(0);
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    __global out_real *dst = out + out_off + r * out_ld;
    const ulong len = row_length(MASK_ARGS, r, cols);
    float m = -INFINITY, s = 0.0f;
    for (ulong c = lid; c < len; c += WG)
      combine(&m, &s, OCF_LOAD(IN_DTYPE, src, c), 1.0f, scale);
    reduce_pair(lm, ls, &m, &s, scale);
    const float norm = normaliser(m, s);
    for (ulong c = lid; c < cols; c += WG) {
      const float x = c < len ? OCF_LOAD(IN_DTYPE, src, c) : 0.0f;
#if LOG
      const float y = (x == m ? 0.0f : scale * (x - m)) - norm;
#else
      const float y = exp_shift(x, m, scale) * norm;
#endif
      OCF_STORE(OUT_DTYPE, dst, c, c < len ? y : PAD);
    }
  }
}
#endif
