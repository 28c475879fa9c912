/*
 * norm.cl: the kernels of LayerNorm and RMSNorm (what they compute, the layouts and every define:
 * norm_common.clh; a row's vectors and pointers: norm_vector.clh).
 *
 * Kernels (the host picks; each is right for any rows, cols >= 1, strides and in-place use):
 *   norm_rows          a 2-D workgroup of SEG x (WG / SEG) work-items, a row to each SEG, held in
 *                      ITEMS registers of each (needs nv <= SEG * ITEMS): x (and res) read once,
 *                      y (and x') written once. Two segment reductions (one for RMS): through
 *                      local memory, or (SHUFFLE, NVIDIA) warp shuffles and one barrier. A
 *                      workgroup loops over batches of rows; with PREFETCH it loads the next
 *                      batch before reducing this one.
 *   norm_stream        long rows, one a workgroup of WG work-items (SEG = WG): ITEMS vectors a
 *                      work-item held in registers (the row's first WG * ITEMS vectors), the rest
 *                      streamed twice: pass 1 reads it into the statistics (LayerNorm: each
 *                      step's count, mean and M2 merged by Chan's update) and writes x', pass 2,
 *                      backwards (into what pass 1 left in cache), reads x again (x' from
 *                      res_out where it was written) and writes y; the held vectors' y and x'
 *                      last. A workgroup loops over rows (the host launches few: fewer rows in
 *                      flight, so that pass 2 hits).
 *   norm_split_stats, norm_split_apply
 *                      rows beyond registers: a row cut into `parts` slices of part_vecs vectors;
 *                      stats writes each slice's (count, mean, M2) about the shift to scratch
 *                      (Chan's merge over vectors, work-items, then the workgroup); apply merges
 *                      the row's slices (the same order in every workgroup) and writes its
 *                      slice. Reads x twice. scratch: 3 floats a slice, then the rows' shifts.
 *   norm_general       the slow, obviously right reference: scalar, one workgroup a row, three
 *                      passes over the row in global memory.
 *   norm_base_mean, norm_base_var, norm_base_apply
 *                      the benchmark's unfused baseline (mean, variance, normalize kernels):
 *                      scratch[2r], [2r + 1] = shift and shifted mean, scratch[2 rows + r] = var
 *                      (RMS: the mean square, from norm_base_mean; norm_base_var is not run).
 *
 * Every step but the last writes only scratch, so a call whose later kernel fails to enqueue
 * changes no output. In place (out = in, res_out = res) is fine for every kernel: an element is
 * read and then written by the same work-item, and the shift the split and baseline kernels
 * need after the first step comes from scratch, not from a row that may be overwritten.
 * norm_stream's second pass reads x' back from res_out where it wrote it (res may be res_out),
 * each vector by the work-item that wrote it; element 0 (the shift) is lane 0's alone (held,
 * written last), the other lanes get the shift through local memory.
 */

/* ---- reductions ---- */

/* The sum of v over the SEG work-items of this work-item's segment (norm_rows's 2-D workgroup),
   returned to all of them, bit for bit the same. Portable: CHUNK values a work-item through
   local memory, then the chunks. SHUFFLE: each warp's part by shuffles (no barrier within a
   warp), then, for segments of several warps, their sums in order through local memory (one
   barrier). `lv` and `lw` are WG floats; a caller alternates two such pairs, so that a pair is
   written again only after a barrier that follows every read of it. */
float segment_sum(__local float *lv, __local float *lw, const float v) {
#if SEG == 1
  (void)lv, (void)lw;
  return v;
#elif SHUFFLE
  (void)lw;
#if SEG <= 32
  (void)lv;
  return warp_seg_sum(v);
#else
  return segment_warps_fold(lv, warp_seg_sum(v), 0);
#endif
#else
  const uint base = get_local_id(1) * SEG, lid = base + get_local_id(0);
  lv[lid] = v;
  /* The global fence orders every lane's read of the row's shift (element 0 of x, in v's sum)
     before lane 0's later store over it in place (Oclgrind's race detector flagged the local
     fence alone). */
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#if SEG <= CHUNK
  (void)lw;
  float acc = lv[base];
  for (uint j = 1; j < SEG; j++)
    acc += lv[base + j];
#else
  const uint chunk = base + get_local_id(0) / CHUNK * CHUNK;
  const uint count = min((uint)CHUNK, base + SEG - chunk);
  float acc = lv[chunk];
  for (uint j = 1; j < count; j++)
    acc += lv[chunk + j];
  lw[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  acc = lw[base];
  for (uint j = CHUNK; j < SEG; j += CHUNK)
    acc += lw[base + j];
#endif
  return acc;
#endif
}

/* The workgroup's sum of v (1-D workgroups), returned to every work-item. */
float group_sum(__local float *lv, const float v) {
  const uint lid = get_local_id(0);
  lv[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* the shift's reads: segment_sum */
  for (uint width = WG_POW2 / 2; width > 0; width >>= 1) {
    if (lid < width && lid + width < WG) lv[lid] += lv[lid + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float result = lv[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

/* (n, m, M2) <- its merge with (nb, mb, M2b): Chan et al.'s pairwise update of a count, a mean
   and a sum of squared deviations. An empty side changes nothing. */
void chan_merge(float *n, float *m, float *q, const float nb, const float mb, const float qb) {
  if (nb == 0.0f) return;
  if (*n == 0.0f) {
    *n = nb, *m = mb, *q = qb;
    return;
  }
  const float total = *n + nb, delta = mb - *m;
  *q = *q + qb + delta * delta * (*n * nb / total);
  *m = *m + delta * (nb / total);
  *n = total;
}

#if SHUFFLE
/* Replaces every work-item's (n, m, M2) by its segment's merge of them (norm_rows's 2-D
   workgroup), the same bits in each: a butterfly of shuffles within a warp, each pair merging
   (lower lane, upper lane) in that order, then, for segments of several warps, the warps'
   results merged in order through local memory (one barrier). `turn` alternates between two
   halves of the arrays from one call to the next, so a half is written again only after a
   barrier that follows every read of it. */
void segment_merge(__local float *ln, __local float *lm, __local float *lq, const uint turn,
                   float *n, float *m, float *q) {
#pragma unroll
  for (uint mask = 1; mask < WARP_SEG; mask <<= 1) {
    float on = shuffle_xor(*n, mask), om = shuffle_xor(*m, mask), oq = shuffle_xor(*q, mask);
    if (get_local_id(0) & mask) {
      chan_merge(&on, &om, &oq, *n, *m, *q);
      *n = on, *m = om, *q = oq;
    } else {
      chan_merge(n, m, q, on, om, oq);
    }
  }
#if SEG > 32
  const uint base = turn * (WG / 32) + get_local_id(1) * (SEG / 32);
  if (get_local_id(0) % 32 == 0) {
    const uint at = base + get_local_id(0) / 32;
    ln[at] = *n, lm[at] = *m, lq[at] = *q;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *n = ln[base], *m = lm[base], *q = lq[base];
  for (uint j = 1; j < SEG / 32; j++)
    chan_merge(n, m, q, ln[base + j], lm[base + j], lq[base + j]);
#else
  (void)ln, (void)lm, (void)lq, (void)turn;
#endif
}
#endif

/* Replaces every work-item's (n, m, M2) by the workgroup's merge of them (1-D workgroups). */
void group_merge(__local float *ln, __local float *lm, __local float *lq, float *n, float *m,
                 float *q) {
  const uint lid = get_local_id(0);
  ln[lid] = *n;
  lm[lid] = *m;
  lq[lid] = *q;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint width = WG_POW2 / 2; width > 0; width >>= 1) {
    if (lid < width && lid + width < WG) {
      float pn = ln[lid], pm = lm[lid], pq = lq[lid];
      chan_merge(&pn, &pm, &pq, ln[lid + width], lm[lid + width], lq[lid + width]);
      ln[lid] = pn;
      lm[lid] = pm;
      lq[lid] = pq;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *n = ln[0];
  *m = lm[0];
  *q = lq[0];
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* ---- norm_rows: rows held in registers, several a workgroup ---- */

/* Loads this work-item's vectors of row b * ROWS_PER_GROUP + (its segment) into x (the residual
   added and rounded; vector k in lane k % SEG) and the row's shift; a row past `rows` loads
   nothing (x 0). x' is not written here: rows_finish writes it, after the segment's reductions,
   whose barriers follow every lane's read of the shift (in place, x' may be over element 0). */
void rows_load(const ulong b, NORM_PARAMS, floatV *x, float *shift) {
  const uint lane = get_local_id(0);
  const ulong r = b * ROWS_PER_GROUP + get_local_id(1);
  const int live = r < rows;
  /* Reading row 0 instead of a dead row would race with row 0's in-place stores. */
  row_ptrs p;
  ROW_AT(p, live ? r : 0);
  const uint hi = p.lead + (uint)cols;
  const uint nv = live ? (hi + VW - 1) / VW : 0;
  *shift = live ? row_shift(&p) : 0.0f;
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const uint k = lane + i * SEG;
    x[i] = (floatV)(0.0f);
    if (k < nv) x[i] = load_x_span(&p, k, p.lead, hi, 0);
  }
}

/* Reduces and stores the rows whose vectors x holds (rows_load's batch b): the two-pass
   statistics about the shift, then y (and x'). Every work-item calls it, those of rows past
   `rows` too (they take part in the barriers only; no early return: PoCL 3.1 miscompiles a
   return that precedes barriers). */
void rows_finish(const ulong b, NORM_PARAMS, const floatV *x, const float shift, const uint turn,
                 __local float *la, __local float *lb, __local float *lc, __local float *ld) {
  const uint lane = get_local_id(0);
  const ulong r = b * ROWS_PER_GROUP + get_local_id(1);
  const int live = r < rows;
  row_ptrs p;
  ROW_AT(p, live ? r : 0);
  const uint lo = p.lead, hi = lo + (uint)cols;
  const uint nv = live ? (hi + VW - 1) / VW : 0;
  const float inv_cols = 1.0f / (float)cols;
  floatV acc = (floatV)(0.0f);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const uint k = lane + i * SEG;
    if (k < nv) {
      const floatV z = span_zero(x[i] - shift, k, lo, hi);
#if RMS
      acc += z * z;
#else
      acc += z;
#endif
    }
  }
#if RMS
  /* One reduction a batch: the pairs alternate between batches (`turn`). */
  const float m = 0.0f;
  const float var = segment_sum(turn ? lc : la, turn ? ld : lb, HSUM(acc)) * inv_cols;
#elif MERGE
  /* This lane's count, mean and M2 of its values (two passes over its registers), then the
     segment's, merged by Chan's update: one reduction. */
  (void)ld;
  float n = 0.0f, m = 0.0f, q = 0.0f;
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const uint k = lane + i * SEG;
    if (k < nv) n += (float)(min(hi, k * VW + VW) - max(lo, k * VW));
  }
  if (n > 0.0f) m = HSUM(acc) / n;
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const uint k = lane + i * SEG;
    if (k < nv) {
      const floatV d = span_zero(x[i] - shift - m, k, lo, hi);
      q += HSUM(d * d);
    }
  }
  segment_merge(la, lb, lc, turn, &n, &m, &q);
  const float var = q * inv_cols;
#else
  (void)turn;
  const float m = segment_sum(la, lb, HSUM(acc)) * inv_cols;
  acc = (floatV)(0.0f);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const uint k = lane + i * SEG;
    if (k < nv) {
      const floatV d = span_zero(x[i] - shift - m, k, lo, hi);
      acc += d * d;
    }
  }
  const float var = segment_sum(lc, ld, HSUM(acc)) * inv_cols;
#endif
  const float rs = rstd_of(var, eps);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const uint k = lane + i * SEG;
    if (k < nv) {
#if HAS_RES_OUT
      store_res_span(p.res_out, k, lo, hi, x[i]);
#endif
      store_out_span(p.out, k, lo, hi,
                     output_of(x[i] - shift, m, rs, k, p.lead, cols, W_PTR, B_PTR));
    }
  }
  if (live && lane == 0) write_stats(r, shift, m, var, rs, mean, mean_off, rstd, rstd_off);
}

/* Row b * ROWS_PER_GROUP + get_local_id(1) belongs to the SEG work-items of that segment, which
   hold its vectors (vector k in lane k % SEG) from the one read to the one write. Batches of
   rows are numbered along dimension 1; with PREFETCH the next batch is loaded before this one
   is reduced (its rows are other rows, so in place its loads never see this batch's stores).
   (2-D rather than lid / SEG and lid % SEG: LLVM pairs those into a `freeze` that Oclgrind
   21.10's uninitialized-value checker cannot run.) */
#ifdef OCF_KERNEL_norm_rows
__kernel __attribute__((reqd_work_group_size(SEG, ROWS_PER_GROUP, 1))) void norm_rows(NORM_PARAMS) {
  __local float la[WG], lb[WG], lc[WG], ld[WG];
  const ulong batches = (rows + ROWS_PER_GROUP - 1) / ROWS_PER_GROUP;
  floatV x[ITEMS];
  float shift;
  uint turn = 0;
#if PREFETCH
  rows_load(get_group_id(1), NORM_ARGS, x, &shift);
#endif
  for (ulong b = get_group_id(1); b < batches; b += get_num_groups(1)) {
#if PREFETCH
    floatV next[ITEMS];
    float next_shift;
    rows_load(b + get_num_groups(1), NORM_ARGS, next, &next_shift);
#else
    rows_load(b, NORM_ARGS, x, &shift);
#endif
    rows_finish(b, NORM_ARGS, x, shift, turn, la, lb, lc, ld);
    turn ^= 1u;
#if PREFETCH
#pragma unroll
    for (uint i = 0; i < ITEMS; i++)
      x[i] = next[i];
    shift = next_shift;
#endif
  }
}
#endif

/* ---- norm_stream: a long row a workgroup, its head held, the rest streamed twice ---- */

/* Lane 0 of a vector. */
#if VW == 1
#define FIRST_LANE(v) (v)
#else
#define FIRST_LANE(v) ((v).s0)
#endif

/* Vector k of x as the second pass reads it: x' from res_out where pass 1 wrote it there (in
   place, res_out is res, which then no longer holds the residual), else in (+ res) again. The
   work-item that reads vector k here is the one that wrote it in pass 1 (vector k belongs to
   lane k % WG in both passes): its own store, in program order, no fence needed. */
floatV load_x_again(const row_ptrs *p, const ulong k, const ulong cols) {
#if HAS_RES && HAS_RES_OUT
  return load_res(p->res_out, k, cols);
#else
  return load_x(p, k, cols, 0);
#endif
}

#if RMS
/* Pass 1 for RMSNorm: this work-item's sum of squares over its vectors of [first, nv) (vector
   k at lane k % WG), x' written on the way. */
float stream_squares(const row_ptrs *p, const ulong first, const ulong nv, const ulong cols) {
  floatV acc = (floatV)(0.0f);
  for (ulong base = first + get_local_id(0); base < nv; base += (ulong)WG * UNROLL) {
    floatV z[UNROLL];
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong k = base + (ulong)u * WG;
      z[u] = k < nv ? tail_zero(load_x(p, k, cols, 1), k, cols) : (floatV)(0.0f);
    }
#pragma unroll
    for (uint u = 0; u < UNROLL; u++)
      acc += z[u] * z[u];
  }
  return HSUM(acc);
}
#else
/* Pass 1 for LayerNorm: merges into this work-item's (n, m, M2) about the shift its vectors of
   [first, nv), a step (UNROLL vectors) at a time: the step's own count, mean and M2 (two passes
   over its registers), then Chan's update; x' written on the way. */
void stream_stats(const row_ptrs *p, const ulong first, const ulong nv, const ulong cols,
                  const float shift, float *n, float *m, float *q) {
  for (ulong base = first + get_local_id(0); base < nv; base += (ulong)WG * UNROLL) {
    floatV z[UNROLL];
    float count = 0.0f;
    floatV sum = (floatV)(0.0f);
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong k = base + (ulong)u * WG;
      z[u] = (floatV)(0.0f);
      if (k < nv) {
        z[u] = tail_zero(load_x(p, k, cols, 1) - shift, k, cols);
        count += (float)min((ulong)VW, cols - k * VW);
      }
      sum += z[u];
    }
    /* count > 0: vector `base` is in the row. */
    const float sm = HSUM(sum) / count;
    floatV dev = (floatV)(0.0f);
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong k = base + (ulong)u * WG;
      if (k < nv) {
        const floatV d = tail_zero(z[u] - sm, k, cols);
        dev += d * d;
      }
    }
    chan_merge(n, m, q, count, sm, HSUM(dev));
  }
}
#endif

/* Pass 2: y of this work-item's vectors of [first, nv), the last step first (the vectors pass 1
   read last are the likeliest still in cache). */
void stream_apply(const row_ptrs *p, const ulong first, const ulong nv, const ulong cols,
                  const float shift, const float m, const float rs, __global const w_real *weight,
                  __global const w_real *bias) {
  const ulong step = (ulong)WG * UNROLL;
  const ulong steps = nv > first ? (nv - first + step - 1) / step : 0;
  for (ulong t = steps; t-- > 0;) {
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong k = first + t * step + (ulong)u * WG + get_local_id(0);
      if (k < nv)
        store_out(p->out, k, cols,
                  output_of(load_x_again(p, k, cols) - shift, m, rs, k, 0, cols, weight, bias));
    }
  }
}

/* Row r of a workgroup: its head (vectors below WG * ITEMS, vector k in lane k % WG) read once
   into registers, the rest streamed twice; one reduction (RMSNorm: the sum of squares;
   LayerNorm: (count, mean, M2), merged by Chan's update). Element 0 (LayerNorm's shift) is read
   and written by lane 0 only (held, written last), the others take the shift from local
   memory: no lane reads what another writes. The reductions
   alternate between two halves of the local arrays from row to row (`turn`), as in norm_rows. */
#ifdef OCF_KERNEL_norm_stream
#if SEG != WG
#error "norm_stream: SEG is WG (one row a workgroup)"
#endif
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void norm_stream(NORM_PARAMS) {
  __local float la[WG], lb[WG], lc[WG], ld[WG];
  const uint lane = get_local_id(0);
  const ulong nv = (cols + VW - 1) / VW;
  const ulong held = (ulong)WG * ITEMS;
  const float inv_cols = 1.0f / (float)cols;
  uint turn = 0;
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    row_ptrs p;
    ROW_AT(p, r);
    floatV x[ITEMS];
#pragma unroll
    for (uint i = 0; i < ITEMS; i++) {
      const ulong k = lane + (ulong)i * WG;
      x[i] = k < nv ? load_x(&p, k, cols, 0) : (floatV)(0.0f);
    }
#if RMS
    const float shift = 0.0f;
    floatV acc = (floatV)(0.0f);
#pragma unroll
    for (uint i = 0; i < ITEMS; i++) {
      const ulong k = lane + (ulong)i * WG;
      if (k < nv) {
        const floatV z = tail_zero(x[i], k, cols);
        acc += z * z;
      }
    }
    const float own = HSUM(acc) + stream_squares(&p, held, nv, cols);
    const float m = 0.0f;
    const float var = segment_sum(turn ? lc : la, turn ? ld : lb, own) * inv_cols;
#else
    /* The shift, element 0 of x: lane 0 holds it (vector 0) and hands it to the others through
       local memory, so that no other lane reads element 0, which lane 0 overwrites in place at
       the end. Its slot alternates with `turn`: written again two rows on, after the next row's
       barrier, which follows every lane's read of it. */
    if (lane == 0) ld[turn] = FIRST_LANE(x[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    const float shift = ld[turn];
    /* The held values' count, mean and M2 (two passes over the registers), the streamed steps
       merged in, then the workgroup's merge. */
    float n = 0.0f, m = 0.0f, q = 0.0f;
    floatV acc = (floatV)(0.0f);
#pragma unroll
    for (uint i = 0; i < ITEMS; i++) {
      const ulong k = lane + (ulong)i * WG;
      if (k < nv) {
        n += (float)min((ulong)VW, cols - k * VW);
        acc += tail_zero(x[i] - shift, k, cols);
      }
    }
    if (n > 0.0f) m = HSUM(acc) / n;
    acc = (floatV)(0.0f);
#pragma unroll
    for (uint i = 0; i < ITEMS; i++) {
      const ulong k = lane + (ulong)i * WG;
      if (k < nv) {
        const floatV d = tail_zero(x[i] - shift - m, k, cols);
        acc += d * d;
      }
    }
    q = HSUM(acc);
    stream_stats(&p, held, nv, cols, shift, &n, &m, &q);
#if SHUFFLE
    segment_merge(la, lb, lc, turn, &n, &m, &q);
#else
    group_merge(la, lb, lc, &n, &m, &q); /* it ends with a barrier: no turn */
#endif
    const float var = q * inv_cols;
#endif
    turn ^= 1u;
    const float rs = rstd_of(var, eps);
    stream_apply(&p, held, nv, cols, shift, m, rs, W_PTR, B_PTR);
#pragma unroll
    for (uint i = 0; i < ITEMS; i++) {
      const ulong k = lane + (ulong)i * WG;
      if (k < nv) {
#if HAS_RES_OUT
        store_res(p.res_out, k, cols, x[i]);
#endif
        store_out(p.out, k, cols, output_of(x[i] - shift, m, rs, k, 0, cols, W_PTR, B_PTR));
      }
    }
    if (lane == 0) write_stats(r, shift, m, var, rs, mean, mean_off, rstd, rstd_off);
  }
}
#endif

/* ---- the split: a row's slices in several workgroups, two kernels ---- */

/* Scratch: slice g = r * parts + p at 3 g (count, mean and M2 of z over the slice), then the
   shift of row r at 3 rows parts + r (written by slice 0's workgroup). */

#ifdef OCF_KERNEL_norm_split_stats
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
norm_split_stats(NORM_PARAMS, const ulong parts, const ulong part_vecs, __global float *scratch) {
  __local float ln[WG], lm[WG], lq[WG];
  (void)out, (void)out_off, (void)out_ld, (void)eps, (void)weight, (void)weight_off, (void)bias;
  (void)bias_off, (void)mean, (void)mean_off, (void)rstd, (void)rstd_off;
  for (ulong g = get_group_id(0); g < rows * parts; g += get_num_groups(0)) {
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    row_ptrs p;
    ROW_AT(p, r);
    /* The row's elements [lo, hi) of its vectors (SHIFTED: lo is its lead; a slice past its
       last vector is empty, its statistics (0, 0, 0)). */
    const ulong lo = p.lead, hi = lo + cols;
    const ulong limit = min((hi + VW - 1) / VW, first + part_vecs);
    const float shift = row_shift(&p);
    float n = 0.0f, m = 0.0f, q = 0.0f;
    for (ulong base = first + get_local_id(0); base < limit; base += (ulong)WG * UNROLL) {
#pragma unroll
      for (uint u = 0; u < UNROLL; u++) {
        const ulong k = base + (ulong)u * WG;
        if (k < limit) {
          /* The vector's own count, mean and M2 (two passes over its lanes), then merged. */
          const floatV z = span_zero_from(load_x_from(&p, k, lo, hi, 0) - shift, k, lo, hi);
          const float count = (float)(min(hi, k * VW + VW) - max(lo, k * VW));
#if RMS
          chan_merge(&n, &m, &q, count, 0.0f, HSUM(z * z));
#else
          const float vm = HSUM(z) / count;
          const floatV d = span_zero_from(z - vm, k, lo, hi);
          chan_merge(&n, &m, &q, count, vm, HSUM(d * d));
#endif
        }
      }
    }
#if RMS
    /* RMSNorm needs sum z^2 only: the means stay 0, M2 adds up. */
#endif
    group_merge(ln, lm, lq, &n, &m, &q);
    if (get_local_id(0) == 0) {
      scratch[3 * g] = n;
      scratch[3 * g + 1] = m;
      scratch[3 * g + 2] = q;
      if (first == 0) scratch[3 * rows * parts + r] = shift;
    }
  }
}
#endif

#ifdef OCF_KERNEL_norm_split_apply
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
norm_split_apply(NORM_PARAMS, const ulong parts, const ulong part_vecs,
                 __global const float *scratch) {
  const ulong total = rows * parts;
  for (ulong h = get_group_id(0); h < total; h += get_num_groups(0)) {
    const ulong g = total - 1 - h; /* reverse order: the stats pass's last reads may be cached */
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    float n = 0.0f, m = 0.0f, q = 0.0f;
    for (ulong s = 0; s < parts; s++) {
      const ulong at = 3 * (r * parts + s);
      chan_merge(&n, &m, &q, scratch[at], scratch[at + 1], scratch[at + 2]);
    }
    const float shift = scratch[3 * total + r];
    const float var = q / n;
    const float rs = rstd_of(var, eps);
    row_ptrs p;
    ROW_AT(p, r);
    const ulong lo = p.lead, hi = lo + cols;
    const ulong limit = min((hi + VW - 1) / VW, first + part_vecs);
    for (ulong k = first + get_local_id(0); k < limit; k += WG) {
      const floatV z = load_x_from(&p, k, lo, hi, 1) - shift;
      store_out_from(p.out, k, lo, hi, output_of(z, m, rs, k, p.lead, cols, W_PTR, B_PTR));
    }
    if (first == 0 && get_local_id(0) == 0)
      write_stats(r, shift, m, var, rs, mean, mean_off, rstd, rstd_off);
  }
}
#endif

/* ---- the reference kernel: scalar, three passes ---- */

/* y of one shifted value z of column c. */
float output1(const float z, const float m, const float r, const ulong c,
              __global const w_real *weight, __global const w_real *bias) {
  float y = (z - m) * r;
#if HAS_WEIGHT
  y = y * OCF_LOAD(W_DTYPE, weight, c);
#else
  (void)weight;
#endif
#if HAS_BIAS
  y = y + OCF_LOAD(W_DTYPE, bias, c);
#else
  (void)bias;
#endif
  (void)c;
  return y;
}

/* The row's y (and x') from its statistics, scalar, the workgroup's items striding the row. */
void apply_row1(const row_ptrs *p, const ulong cols, const float shift, const float m,
                const float rs, __global const w_real *weight, __global const w_real *bias) {
  for (ulong c = get_local_id(0); c < cols; c += WG) {
    const float x = load_x1(p, c);
#if HAS_RES_OUT
    OCF_STORE(RES_DTYPE, p->res_out, c, x);
#endif
    OCF_STORE(OUT_DTYPE, p->out, c, output1(x - shift, m, rs, c, weight, bias));
  }
}

#ifdef OCF_KERNEL_norm_general
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void norm_general(NORM_PARAMS) {
  __local float lv[WG];
  const uint lid = get_local_id(0);
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    row_ptrs p;
    ROW_AT(p, r);
    const float shift = row_shift(&p);
    float m = 0.0f, acc = 0.0f;
#if !RMS
    for (ulong c = lid; c < cols; c += WG)
      acc += load_x1(&p, c) - shift;
    m = group_sum(lv, acc) / (float)cols;
    acc = 0.0f;
#endif
    for (ulong c = lid; c < cols; c += WG) {
      const float d = load_x1(&p, c) - shift - m;
      acc += d * d;
    }
    const float var = group_sum(lv, acc) / (float)cols;
    const float rs = rstd_of(var, eps);
    apply_row1(&p, cols, shift, m, rs, W_PTR, B_PTR);
    if (lid == 0) write_stats(r, shift, m, var, rs, mean, mean_off, rstd, rstd_off);
  }
}
#endif

/* ---- the unfused baseline: mean, variance and normalize kernels through global scratch ---- */

#ifdef OCF_KERNEL_norm_base_mean
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
norm_base_mean(NORM_PARAMS, __global float *scratch) {
  __local float lv[WG];
  (void)out, (void)out_off, (void)out_ld, (void)eps, (void)weight, (void)weight_off, (void)bias;
  (void)bias_off, (void)mean, (void)mean_off, (void)rstd, (void)rstd_off;
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    row_ptrs p;
    ROW_AT(p, r);
    const float shift = row_shift(&p);
    float acc = 0.0f;
    for (ulong c = get_local_id(0); c < cols; c += WG) {
      const float z = load_x1(&p, c) - shift;
#if RMS
      acc += z * z;
#else
      acc += z;
#endif
    }
    const float sum = group_sum(lv, acc) / (float)cols;
    if (get_local_id(0) == 0) {
      scratch[2 * r] = shift;
#if RMS
      scratch[2 * r + 1] = 0.0f;
      scratch[2 * rows + r] = sum;
#else
      scratch[2 * r + 1] = sum;
#endif
    }
  }
}
#endif

#ifdef OCF_KERNEL_norm_base_var
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
norm_base_var(NORM_PARAMS, __global float *scratch) {
  __local float lv[WG];
  (void)out, (void)out_off, (void)out_ld, (void)eps, (void)weight, (void)weight_off, (void)bias;
  (void)bias_off, (void)mean, (void)mean_off, (void)rstd, (void)rstd_off;
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    row_ptrs p;
    ROW_AT(p, r);
    const float shift = scratch[2 * r], m = scratch[2 * r + 1];
    float acc = 0.0f;
    for (ulong c = get_local_id(0); c < cols; c += WG) {
      const float d = load_x1(&p, c) - shift - m;
      acc += d * d;
    }
    const float var = group_sum(lv, acc) / (float)cols;
    if (get_local_id(0) == 0) scratch[2 * rows + r] = var;
  }
}
#endif

#ifdef OCF_KERNEL_norm_base_apply
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
norm_base_apply(NORM_PARAMS, __global const float *scratch) {
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    row_ptrs p;
    ROW_AT(p, r);
    const float shift = scratch[2 * r], m = scratch[2 * r + 1], var = scratch[2 * rows + r];
    const float rs = rstd_of(var, eps);
    apply_row1(&p, cols, shift, m, rs, W_PTR, B_PTR);
    if (get_local_id(0) == 0) write_stats(r, shift, m, var, rs, mean, mean_off, rstd, rstd_off);
  }
}
#endif
