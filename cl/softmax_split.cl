/*
 * softmax_split.cl: the two-kernel split (softmax_stream.clh), for few long rows.
 *
 *   softmax_split_stats, softmax_split_write
 *                      stats writes one (m, s) pair per slice of part_vecs vectors to scratch,
 *                      write combines a row's pairs and writes its slice (slices in reverse order,
 *                      for the same cache reason). Reads twice. Alignment as softmax_rows.
 */

#ifdef OCF_KERNEL_softmax_split_stats
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_split_stats(const ulong rows, const ulong cols, __global const in_real *in,
                    const ulong in_off, const ulong in_ld, const float scale, MASK_PARAMS,
                    const ulong parts, const ulong part_vecs, __global float *scratch) {
  __local float lm[WG], ls[WG];
  for (ulong g = get_group_id(0); g < rows * parts; g += get_num_groups(0)) {
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    const ulong in_start = in_off + r * in_ld;
    row_view w;
    view_at(&w, in_start, cols, row_length(MASK_ARGS, r, cols));
    float m = -INFINITY, s = 0.0f;
    stream_stats(in + (in_start - w.lo), first, min(w.nv, first + part_vecs), w.lo, w.mid, scale,
                 &m, &s);
    reduce_pair(lm, ls, &m, &s, scale);
    if (get_local_id(0) == 0) {
      scratch[2 * g] = m;
      scratch[2 * g + 1] = s;
    }
  }
}
#endif

#ifdef OCF_KERNEL_softmax_split_write
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_split_write(const ulong rows, const ulong cols, __global const in_real *in,
                    const ulong in_off, const ulong in_ld, __global out_real *out,
                    const ulong out_off, const ulong out_ld, const float scale, MASK_PARAMS,
                    const ulong parts, const ulong part_vecs, __global const float *scratch) {
  const ulong total = rows * parts;
  for (ulong h = get_group_id(0); h < total; h += get_num_groups(0)) {
    const ulong g = total - 1 - h; /* reverse order: the stats pass's last reads may be cached */
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    float m = -INFINITY, s = 0.0f;
    for (ulong p = 0; p < parts; p++)
      combine(&m, &s, scratch[2 * (r * parts + p)], scratch[2 * (r * parts + p) + 1], scale);
    const ulong in_start = in_off + r * in_ld, out_start = out_off + r * out_ld;
    row_view w;
    view_at(&w, in_start, cols, row_length(MASK_ARGS, r, cols));
    stream_write(in + (in_start - w.lo), out + (out_start - w.lo), first,
                 min(w.nv, first + part_vecs), w.lo, w.mid, w.hi, m, normaliser(m, s), scale);
  }
}
#endif
