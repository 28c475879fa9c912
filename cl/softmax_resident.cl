/*
 * softmax_resident.cl: one row a workgroup (softmax_held.clh, softmax_stream.clh).
 *
 *   softmax_resident   one row a workgroup, held in registers (ITEMS vectors a work-item) and in
 *                      local memory (LOCAL_ITEMS more): read once, written once. Any vectors past
 *                      what it holds are streamed twice (the second pass backwards, so that it
 *                      finds the row's tail in cache). Alignment as softmax_rows.
 */

#ifdef OCF_KERNEL_softmax_resident
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_resident(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
                 const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,
                 const float scale, MASK_PARAMS) {
  __local float lm[WG], ls[WG];
  HELD_LOCAL(held);
  const ulong held_vecs = (ulong)WG * HELD_ITEMS;
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    const ulong len = row_length(MASK_ARGS, r, cols);
    const ulong in_start = in_off + r * in_ld, out_start = out_off + r * out_ld;
    row_view w;
    view_at(&w, in_start, cols, len);
    __global const in_real *src = in + (in_start - w.lo);
    __global out_real *dst = out + (out_start - w.lo);
    heldV v[ITEMS];
    held_load(src, 0, w.lo, w.mid, v, held);
    float hm, hs;
    held_stats(v, held, scale, &hm, &hs);
    float m = hm, s = hs;
    /* What is not held is streamed: once for its (m, s), once more to write it. */
    if (w.nv > held_vecs) stream_stats(src, held_vecs, w.nv, w.lo, w.mid, scale, &m, &s);
    reduce_pair(lm, ls, &m, &s, scale);
    const float norm = normaliser(m, s);
    if (w.nv > held_vecs)
      stream_write(src, dst, held_vecs, w.nv, w.lo, w.mid, w.hi, m, norm, scale);
    held_store(dst, 0, w.lo, w.mid, w.hi, v, held, hm, m, norm, scale);
  }
}
#endif
