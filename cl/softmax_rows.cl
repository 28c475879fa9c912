/*
 * softmax_rows.cl: several short rows a workgroup (the arithmetic, the mask and the row layout:
 * softmax_common.clh and softmax_vector.clh; warp shuffles: warp_shuffle.clh).
 *
 *   softmax_rows  short rows, several a workgroup: a 2-D workgroup of SEG x (WG / SEG) work-items
 *                 (any SEG dividing WG), a row to each SEG, held in ITEMS registers of each
 *                 (PACKED: a 16-bit row's bits). Assumes the row's nv <= SEG * ITEMS, and when
 *                 VW > 1 that out's rows have in's heads (in_off = out_off and in_ld = out_ld
 *                 modulo VW). Row max, then the sum of exp, through local memory or (SHUFFLE)
 *                 warp shuffles. With PREFETCH the next batch of rows is loaded before this one
 *                 is reduced; with WHOLE_ENDS a vector straddling a row's ends is one access.
 */

/* ---- tunables ---- */

/* Vectors each work-item holds in registers. */
#ifndef ITEMS
#error "ITEMS: the host passes every tunable (src/plan/plan_softmax.c)"
#endif
/* Work-items per row in softmax_rows; it divides WG (WG / SEG rows a workgroup). */
#ifndef SEG
#error "SEG: the host passes every tunable (src/plan/plan_softmax.c)"
#endif
/* softmax_rows: 1 loads the next batch of rows before reducing the current one. */
#ifndef PREFETCH
#error "PREFETCH: the host passes every tunable (src/plan/plan_softmax.c)"
#endif
/* 1: a vector that straddles a row's ends is read whole (its lanes outside the row then -inf)
   where it lies within in's rows: the host passes 1 only where out's elements lie apart from
   in's span (softmax_vector.clh, load_vec_ends). SHUFFLE (segment reductions by warp
   shuffles): cl/warp_shuffle.clh, which checks it. */
#ifndef WHOLE_ENDS
#error "WHOLE_ENDS: the host passes every tunable (src/plan/plan_softmax.c)"
#endif

#if WG < 1 || SEG < 1 || WG % SEG
#error "SEG must divide WG"
#endif

/* ---- derived ---- */

/* softmax_rows: rows a workgroup, and the first level of its segment reductions (each work-item
   folds the CHUNK values of its chunk, then, when the segment is longer, the chunks' results). */
#define ROWS_PER_GROUP (WG / SEG)
#define CHUNK 16

/* The max (is_max) or sum of v over the SEG work-items of this work-item's segment, returned to
   all of them, bit for bit the same (each folds the same values in the same order). Portable:
   first the CHUNK values of a chunk through local memory, then the chunks' results; no barrier
   when SEG is 1, one when SEG <= CHUNK, else two. SHUFFLE (NVIDIA): each warp's part by
   shuffles (cl/warp_shuffle.clh), then, for a segment of several warps, their results in order
   through local memory: no barrier within a warp, else one. `lv` and `lw` are WG floats each; a
   caller alternates two such pairs (max, then sum), so a pair is written again only after a
   barrier that follows every read of it. */
float segment_reduce(__local float *lv, __local float *lw, const float v, const int is_max) {
#if SEG == 1
  (void)lv, (void)lw, (void)is_max;
  return v;
#elif SHUFFLE
  (void)lw;
  const float part = is_max ? warp_seg_max(v) : warp_seg_sum(v);
#if SEG <= 32
  (void)lv;
  return part;
#else
  return segment_warps_fold(lv, part, is_max);
#endif
#else
  /* softmax_rows's 2-D workgroup: segment get_local_id(1), lane get_local_id(0). */
  const uint base = get_local_id(1) * SEG, lid = base + get_local_id(0);
  lv[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
#if SEG <= CHUNK
  (void)lw;
  float acc = lv[base];
  for (uint j = 1; j < SEG; j++)
    acc = is_max ? fmax(acc, lv[base + j]) : acc + lv[base + j];
#else
  const uint chunk = base + get_local_id(0) / CHUNK * CHUNK;
  const uint count = min((uint)CHUNK, base + SEG - chunk);
  float acc = lv[chunk];
  for (uint j = 1; j < count; j++)
    acc = is_max ? fmax(acc, lv[chunk + j]) : acc + lv[chunk + j];
  lw[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  acc = lw[base];
  for (uint j = CHUNK; j < SEG; j += CHUNK)
    acc = is_max ? fmax(acc, lw[base + j]) : acc + lw[base + j];
#endif
  return acc;
#endif
}

/* ---- softmax_rows: several short rows a workgroup ---- */

/* Loads this work-item's vectors of row b * ROWS_PER_GROUP + (its segment) into v; a row past
   `rows` loads nothing (all -inf). */
void rows_load(const ulong b, const ulong rows, const ulong cols, __global const in_real *in,
               const ulong in_off, const ulong in_ld, MASK_PARAMS, heldV *v) {
  const uint lane = get_local_id(0);
  const ulong r = b * ROWS_PER_GROUP + get_local_id(1);
  const int live = r < rows;
  const ulong start = in_off + (live ? r : 0) * in_ld;
  row_view w;
  view_at(&w, start, cols, live ? row_length(MASK_ARGS, r, cols) : 0);
  __global const in_real *src = in + (start - w.lo);
#if WHOLE_ENDS
  /* Elements of in's rows from the row's aligned start: in_off + (rows - 1) * in_ld + cols in
     all, the extent the host checked. */
  const ulong avail = in_off + (rows - 1) * in_ld + cols - (start - w.lo);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    v[i] = load_held_ends(src, lane + (ulong)i * SEG, w.lo, w.mid, avail);
#else
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    v[i] = load_held(src, lane + (ulong)i * SEG, w.lo, w.mid);
#endif
}

/* Reduces and stores the rows whose vectors v holds (rows_load's batch b). Every work-item
   calls it, those of rows past `rows` too (they take part in the barriers only). */
void rows_finish(const ulong b, const ulong rows, const ulong cols, __global out_real *out,
                 const ulong out_off, const ulong out_ld, const float a, MASK_PARAMS, heldV *v,
                 __local float *lmax, __local float *lmax2, __local float *lsum,
                 __local float *lsum2) {
  const uint lane = get_local_id(0);
  const ulong r = b * ROWS_PER_GROUP + get_local_id(1);
  const int live = r < rows;
  float m = -INFINITY;
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    m = fmax(m, HMAX(held_float(v[i], 0u)));
  m = segment_reduce(lmax, lmax2, m, 1);
  floatV acc = (floatV)(0.0f);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
#if LOG || PACKED
    acc += exp_shift_v(held_float(v[i], unfolded_zero(m)), m, a);
#else
    v[i] = exp_shift_v(v[i], m, a);
    acc += v[i];
#endif
  }
  const float norm = normaliser(m, segment_reduce(lsum, lsum2, HSUM(acc), 0));
  /* (No early return for dead rows: PoCL 3.1 miscompiles a return that precedes barriers.) */
  const ulong start = out_off + (live ? r : 0) * out_ld;
  row_view w;
  view_at(&w, start, cols, live ? row_length(MASK_ARGS, r, cols) : 0);
  __global out_real *dst = out + (start - w.lo);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const ulong k = lane + (ulong)i * SEG;
#if LOG || PACKED
    const floatV y = output_of(held_float(v[i], unfolded_zero(norm)), m, norm, a);
#else
    const floatV y = v[i] * norm;
#endif
    if (live && k < w.nv) store_vec(dst, k, w.lo, w.mid, w.hi, y);
  }
}

/* Several short rows a workgroup, a 2-D one of SEG x ROWS_PER_GROUP work-items: row
   b * ROWS_PER_GROUP + j of batch b belongs to the SEG work-items of get_local_id(1) = j (the
   linear ids [j * SEG, (j + 1) * SEG)), which hold it in registers (vector k with lane k % SEG).
   Batches are numbered along dimension 1. The row max, then the sum of exp, come from
   segment_reduce: no rescaling exps. (2-D rather than lid / SEG and lid % SEG: LLVM pairs those
   into a `freeze` that Oclgrind 21.10's uninitialized-value checker cannot run.) */
#ifdef OCF_KERNEL_softmax_rows
__kernel __attribute__((reqd_work_group_size(SEG, ROWS_PER_GROUP, 1))) void
softmax_rows(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
             const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,
             const float scale, MASK_PARAMS) {
  __local float lmax[WG], lmax2[WG], lsum[WG], lsum2[WG];
  const ulong batches = (rows + ROWS_PER_GROUP - 1) / ROWS_PER_GROUP;
  heldV v[ITEMS];
#if PREFETCH
  rows_load(get_group_id(1), rows, cols, in, in_off, in_ld, MASK_ARGS, v);
#endif
  for (ulong b = get_group_id(1); b < batches; b += get_num_groups(1)) {
#if PREFETCH
    /* The next batch is in flight while this one is reduced and stored. In place, its rows are
       other rows than this batch's, so the loads never see this batch's stores. */
    heldV next[ITEMS];
    rows_load(b + get_num_groups(1), rows, cols, in, in_off, in_ld, MASK_ARGS, next);
#else
    rows_load(b, rows, cols, in, in_off, in_ld, MASK_ARGS, v);
#endif
    rows_finish(b, rows, cols, out, out_off, out_ld, scale, MASK_ARGS, v, lmax, lmax2, lsum, lsum2);
#if PREFETCH
#pragma unroll
    for (uint i = 0; i < ITEMS; i++)
      v[i] = next[i];
#endif
  }
}
#endif
