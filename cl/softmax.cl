/*
 * softmax.cl: row softmax, out[r][c] = exp(in[r][c] - max_r) / sum_k exp(in[r][k] - max_r).
 *
 *   in:  element in_off + r * in_ld + c            out: element out_off + r * out_ld + c
 *
 *        row r  |<------------------ cols ------------------->|<-- ld - cols -->|
 *               [ v0 | v1 | ... | vWG-1 | vWG | ... | v(nv-1) ]   (never touched)
 *                 VW floats a vector; vector k belongs to work-item k % WG; the last vector
 *                 may be partial (cols % VW floats), its missing lanes read as -inf
 *
 * One workgroup per row (rows loop grid-stride when there are more rows than workgroups), except
 * softmax_rows, which gives a row SEG work-items of a workgroup (WG / SEG rows a group), and the
 * split kernels, which give each row `parts` workgroups.
 *
 *   softmax_rows, WG = 8, SEG = 4, ITEMS = 2:     row b*2 + 0: work-items 0..3, vectors
 *                                                   [0 1 2 3 | 4 5 6 7]  (item i holds k = i, i+4)
 *                                                 row b*2 + 1: work-items 4..7, likewise
 *
 * The running state of a work-item is a pair (m, s): the largest value it has seen and the sum of
 * exp(x - m) over what it has seen. Two pairs combine exactly as two halves of a row would
 * (combine()), so the same reduction serves a chunk, a work-item, a workgroup and a split row.
 * Non-finite inputs fall out of that arithmetic as torch.softmax has them:
 *   - m ignores NaN (fmax); a NaN x gives exp(NaN) = NaN in s, and a NaN s stays NaN through
 *     every rescale (NaN * 0 is NaN), so the whole row is NaN;
 *   - scale(x, m) is 1 when x == m, so -inf == -inf and +inf == +inf never compute inf - inf;
 *     an all -inf row or a row holding +inf ends with a non-finite m, and inverse_sum() makes
 *     the row NaN; a -inf entry next to a finite max gives exp(-inf) = 0.
 * The row max is subtracted before exp, so large magnitudes do not overflow; s >= 1 whenever m
 * is finite (the max contributes exactly 1), so 1 / s neither divides by zero nor overflows.
 *
 * Kernels (the host picks; every one is right for any rows, cols >= 1, strides and in-place use):
 *   softmax_rows       short rows, several a workgroup: WG / SEG rows, SEG work-items each,
 *                      the row in registers. Assumes cols <= SEG * VW * ITEMS, SEG a power of two
 *                      dividing WG, and, when VW > 1, the same alignment as softmax_resident. Reads
 *                      once, writes once; two segment reductions (max, then sum) through local
 *                      memory, one or two barriers each, whatever the row count (the last batch
 *                      may be ragged: its missing rows take part in the barriers only).
 *   softmax_resident   the row fits in registers: cols <= WG * VW * ITEMS. Reads the row once,
 *                      writes it once. Assumes, when VW > 1, that in_off, in_ld, out_off, out_ld
 *                      are multiples of VW (aligned vector access).
 *   softmax_online     any cols: pass 1 keeps (m, s) over the row, pass 2 writes. Reads twice
 *                      (the second pass runs backwards, so the row's tail may still be cached).
 *                      Same alignment assumption as softmax_resident.
 *   softmax_split_stats, softmax_split_write
 *                      few long rows: each row is cut into `parts` ranges of part_vecs vectors,
 *                      one workgroup each; stats writes one (m, s) pair per range to `scratch`,
 *                      write combines the row's pairs and writes its range (groups in reverse
 *                      order, for the same cache reason). Same alignment assumption.
 *   softmax_general    the slow, obviously right reference: scalar, any offsets, two passes.
 *   softmax_base_max, softmax_base_exp_sum, softmax_base_divide
 *                      the benchmark's unfused baseline: three kernels, scratch[r] = row max,
 *                      scratch[rows + r] = row sum, and the exp(x - max) of every element
 *                      (dense rows from scratch[2 * rows]); then out = exp / sum. Only the last
 *                      kernel writes out, so a call whose later kernel fails to enqueue leaves
 *                      out untouched.
 *
 * Workgroups of any size work (the local reductions fold a non-power-of-two size first).
 * Indices are 64-bit (ulong). In-place use (out == in, same offset and stride) is fine: every
 * element is read and written by one work-item, reads of a row finish before a barrier that
 * precedes its writes, and no pointer is `restrict`.
 */

/* Work-items per workgroup; the host launches exactly this many. Any size from 1. */
#ifndef WG
#define WG 256
#endif

/* Floats per vector access: 1, 2, 4, 8 or 16. */
#ifndef VW
#define VW 4
#endif

/* Vectors each work-item holds in registers in softmax_resident. */
#ifndef ITEMS
#define ITEMS 4
#endif

/* Work-items per row in softmax_rows: a power of two that divides WG (WG / SEG rows a group). */
#ifndef SEG
#define SEG 8
#endif

/* Vectors each work-item loads per step of the long-row loops (online, split). */
#ifndef UNROLL
#define UNROLL 4
#endif

/* Storage types of in and out (ocf_dtype: 0 f32, 1 f16, 2 bf16); arithmetic is fp32. */
#ifndef IN_DTYPE
#define IN_DTYPE 0
#endif
#ifndef OUT_DTYPE
#define OUT_DTYPE 0
#endif

/* The element types of in and out (OCF_STORAGE: cl/common.cl). */
#define in_real OCF_STORAGE(IN_DTYPE)
#define out_real OCF_STORAGE(OUT_DTYPE)

/* The vector type of the row accesses (OCF_FLOATN: cl/common.cl). */
#define floatV OCF_FLOATN(VW)
/* LANES(F) expands F(index, component) over the lanes of a floatV (VW > 1). */
#define LANES_2(F) F(0, s0) F(1, s1)
#define LANES_4(F) LANES_2(F) F(2, s2) F(3, s3)
#define LANES_8(F) LANES_4(F) F(4, s4) F(5, s5) F(6, s6) F(7, s7)
#define LANES_16(F) \
  LANES_8(F) F(8, s8) F(9, s9) F(10, sa) F(11, sb) F(12, sc) F(13, sd) F(14, se) F(15, sf)
#define LANES OCF_CAT(LANES_, VW)
#define HMAX OCF_CAT(hmax, VW)
#define HSUM OCF_CAT(hsum, VW)

/* softmax_rows: rows a workgroup, and the first level of its segment reductions (each work-item
   reads CHUNK values, then, when the segment is longer, SEG / CHUNK partial results). */
#define ROWS_PER_GROUP (WG / SEG)
#define CHUNK (SEG < 16 ? SEG : 16)
#if SEG < 1 || (SEG & (SEG - 1)) || WG % SEG
#error "SEG must be a power of two that divides WG"
#endif

/* The smallest power of two >= WG: the local reductions fold [WG_POW2 / 2, WG) first. */
#define WG_POW2        \
  (WG <= 1      ? 1    \
   : WG <= 2    ? 2    \
   : WG <= 4    ? 4    \
   : WG <= 8    ? 8    \
   : WG <= 16   ? 16   \
   : WG <= 32   ? 32   \
   : WG <= 64   ? 64   \
   : WG <= 128  ? 128  \
   : WG <= 256  ? 256  \
   : WG <= 512  ? 512  \
   : WG <= 1024 ? 1024 \
   : WG <= 2048 ? 2048 \
   : WG <= 4096 ? 4096 \
   : WG <= 8192 ? 8192 \
                : 16384)

/* ---- horizontal max and sum of one vector (pairwise) ---- */

float hmax1(float v) {
  return v;
}
float hmax2(float2 v) {
  return fmax(v.s0, v.s1);
}
float hmax4(float4 v) {
  return fmax(hmax2(v.s01), hmax2(v.s23));
}
float hmax8(float8 v) {
  return fmax(hmax4(v.s0123), hmax4(v.s4567));
}
float hmax16(float16 v) {
  return fmax(hmax8(v.s01234567), hmax8(v.s89abcdef));
}
float hsum1(float v) {
  return v;
}
float hsum2(float2 v) {
  return dot(v, (float2)(1.0f));
}
float hsum4(float4 v) {
  return dot(v, (float4)(1.0f));
}
float hsum8(float8 v) {
  return hsum4(v.s0123) + hsum4(v.s4567);
}
float hsum16(float16 v) {
  return hsum8(v.s01234567) + hsum8(v.s89abcdef);
}

/* ---- the (m, s) arithmetic ---- */

/* exp(x - m) for x <= m or NaN, with 1 when x == m (also for infinite x == m). */
float scale(float x, float m) {
  return x == m ? 1.0f : exp(x - m);
}

/* The same, lane by lane. */
floatV scale_v(floatV x, float m) {
  const floatV mv = (floatV)(m);
  return select(exp(x - mv), (floatV)(1.0f), x == mv);
}

/* (m, s) <- (m, s) joined with (om, os). m is never NaN, so fmax picks a real maximum. */
void combine(float *m, float *s, const float om, const float os) {
  const float nm = fmax(*m, om);
  *s = *s * scale(*m, nm) + os * scale(om, nm);
  *m = nm;
}

/* 1 / s, or NaN when the row max is not finite (an all -inf row, or +inf in the row). */
float inverse_sum(const float m, const float s) {
  return isfinite(m) ? 1.0f / s : NAN;
}

/* ---- global memory: one vector of a row, guarded ---- */

/* Vector k of a row (k < limit, else all -inf); lanes past cols read as -inf. */
floatV load_vec(__global const in_real *row, const ulong k, const ulong limit, const ulong cols) {
  const ulong first = k * VW;
  if (k < limit && first + VW <= cols) return OCF_LOADV(IN_DTYPE, VW, row, k);
#if VW == 1
  return -INFINITY; /* with VW == 1 a vector below limit is always whole */
#else
  /* Lane by lane into a vector that starts defined (Oclgrind 21.10's uninitialized-value
     checker crashes on a shuffle of a partly undefined vector). */
  floatV v = (floatV)(-INFINITY);
#define LOAD_LANE(j, s) \
  if (k < limit && first + j < cols) v.s = OCF_LOAD(IN_DTYPE, row, first + j);
  LANES(LOAD_LANE)
#undef LOAD_LANE
  return v;
#endif
}

/* Stores vector k of a row, only its lanes below cols. */
void store_vec(__global out_real *row, const ulong k, const ulong cols, const floatV v) {
  const ulong first = k * VW;
  if (first + VW <= cols) {
    OCF_STOREV(OUT_DTYPE, VW, row, k, v);
  } else {
#if VW > 1
#define STORE_LANE(j, s) \
  if (first + j < cols) OCF_STORE(OUT_DTYPE, row, first + j, v.s);
    LANES(STORE_LANE)
#undef STORE_LANE
#endif
  }
}

/* Loads `count` vectors first, first + step, ... (those at or past limit read as -inf). */
void load_strided(__global const in_real *row, const ulong first, const uint step,
                  const ulong limit, const ulong cols, floatV *v, const uint count) {
  for (uint i = 0; i < count; i++)
    v[i] = load_vec(row, first + (ulong)i * step, limit, cols);
}

/* Loads `count` vectors first, first + WG, ... (those at or past limit read as -inf). */
void load_block(__global const in_real *row, const ulong first, const ulong limit, const ulong cols,
                floatV *v, const uint count) {
  load_strided(row, first, WG, limit, cols, v, count);
}

/* The (m, s) of `count` vectors; replaces each vector by exp(v - m) (1 where v == m). */
void block_stats(floatV *v, const uint count, float *m, float *s) {
  float bm = -INFINITY;
  for (uint i = 0; i < count; i++)
    bm = fmax(bm, HMAX(v[i]));
  floatV acc = (floatV)(0.0f);
  for (uint i = 0; i < count; i++) {
    v[i] = scale_v(v[i], bm);
    acc += v[i];
  }
  *m = bm;
  *s = HSUM(acc);
}

/* ---- local memory reductions over the workgroup (any WG; every work-item calls them) ---- */

/* Replaces each work-item's (m, s) by the workgroup's. */
void reduce_pair(__local float *lm, __local float *ls, float *m, float *s) {
  const uint lid = get_local_id(0);
  lm[lid] = *m;
  ls[lid] = *s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint width = WG_POW2 / 2; width > 0; width >>= 1) {
    if (lid < width && lid + width < WG) {
      float pm = lm[lid], ps = ls[lid];
      combine(&pm, &ps, lm[lid + width], ls[lid + width]);
      lm[lid] = pm;
      ls[lid] = ps;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *m = lm[0];
  *s = ls[0];
  barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read [0] before the next row overwrites it */
}

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

/* The max (is_max) or sum of v over the SEG work-items of this work-item's segment, returned to
   all of them, bit for bit the same (each adds the same values in the same order). Two barriers
   when SEG > CHUNK, else one. `lv` and `lw` are WG floats each; a caller alternates two such
   pairs (max, then sum), so a pair is written again only after a barrier that follows every
   read of it. */
float segment_reduce(__local float *lv, __local float *lw, const float v, const int is_max) {
  const uint lid = get_local_id(0);
  lv[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint chunk = lid - lid % CHUNK;
  float acc = lv[chunk];
  for (uint j = 1; j < CHUNK; j++)
    acc = is_max ? fmax(acc, lv[chunk + j]) : acc + lv[chunk + j];
#if SEG > CHUNK
  lw[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint base = lid - lid % SEG;
  acc = lw[base];
  for (uint j = CHUNK; j < SEG; j += CHUNK)
    acc = is_max ? fmax(acc, lw[base + j]) : acc + lw[base + j];
#else
  (void)lw;
#endif
  return acc;
}

/* ---- fused kernels ---- */

/* Several short rows a workgroup: row r of the group's batch belongs to work-items
   [r * SEG, (r + 1) * SEG), which hold it in registers (vector k with work-item k % SEG). The
   row max, then the sum of exp(x - max), come from segment_reduce: no rescaling exps. Rows past
   `rows` in the last batch (rows % ROWS_PER_GROUP != 0) run with nothing loaded, reach every
   barrier and store nothing. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_rows(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
             const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld) {
  __local float lmax[WG], lmax2[WG], lsum[WG], lsum2[WG];
  const uint lid = get_local_id(0), lane = lid % SEG;
  const ulong nv = (cols + VW - 1) / VW;
  const ulong batches = (rows + ROWS_PER_GROUP - 1) / ROWS_PER_GROUP;
  for (ulong b = get_group_id(0); b < batches; b += get_num_groups(0)) {
    const ulong r = b * ROWS_PER_GROUP + lid / SEG;
    const int live = r < rows;
    const ulong row = live ? r : 0; /* a dead row loads nothing (limit 0) and stores nothing */
    floatV v[ITEMS];
    load_strided(in + in_off + row * in_ld, lane, SEG, live ? nv : 0, cols, v, ITEMS);
    float m = -INFINITY;
    for (uint i = 0; i < ITEMS; i++)
      m = fmax(m, HMAX(v[i]));
    m = segment_reduce(lmax, lmax2, m, 1);
    floatV acc = (floatV)(0.0f);
    for (uint i = 0; i < ITEMS; i++) {
      v[i] = scale_v(v[i], m);
      acc += v[i];
    }
    const float inv = inverse_sum(m, segment_reduce(lsum, lsum2, HSUM(acc), 0));
    __global out_real *dst = out + out_off + row * out_ld;
    for (uint i = 0; i < ITEMS; i++) {
      const ulong vec = lane + (ulong)i * SEG;
      if (live && vec < nv) store_vec(dst, vec, cols, v[i] * inv);
    }
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_resident(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
                 const ulong in_ld, __global out_real *out, const ulong out_off,
                 const ulong out_ld) {
  __local float lm[WG], ls[WG];
  const uint lid = get_local_id(0);
  const ulong nv = (cols + VW - 1) / VW;
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    floatV v[ITEMS];
    load_block(in + in_off + r * in_ld, lid, nv, cols, v, ITEMS);
    float m, s;
    block_stats(v, ITEMS, &m, &s);
    float gm = m, gs = s;
    reduce_pair(lm, ls, &gm, &gs);
    /* v holds exp(x - m) for this work-item's own m; rescale to the row's and normalise. */
    const float k = scale(m, gm) * inverse_sum(gm, gs);
    __global out_real *dst = out + out_off + r * out_ld;
    for (uint i = 0; i < ITEMS; i++) {
      const ulong vec = lid + (ulong)i * WG;
      if (vec < nv) store_vec(dst, vec, cols, v[i] * k);
    }
  }
}

/* Writes exp(x - m) * inv for vectors [first, limit) of a row, stepping by WG, last step first. */
void write_range(__global const in_real *src, __global out_real *dst, const ulong first,
                 const ulong limit, const ulong cols, const float m, const float inv) {
  const ulong step = (ulong)WG * UNROLL;
  const ulong steps = limit > first ? (limit - first + step - 1) / step : 0;
  for (ulong t = steps; t-- > 0;) {
    for (uint i = 0; i < UNROLL; i++) {
      const ulong vec = first + t * step + (ulong)i * WG + get_local_id(0);
      if (vec < limit) store_vec(dst, vec, cols, exp(load_vec(src, vec, limit, cols) - m) * inv);
    }
  }
}

/* The (m, s) of vectors [first, limit) of a row over this work-item's share, then the group's. */
void range_stats(__global const in_real *src, const ulong first, const ulong limit,
                 const ulong cols, __local float *lm, __local float *ls, float *m, float *s) {
  *m = -INFINITY;
  *s = 0.0f;
  for (ulong base = first; base < limit; base += (ulong)WG * UNROLL) {
    floatV v[UNROLL];
    load_block(src, base + get_local_id(0), limit, cols, v, UNROLL);
    float bm, bs;
    block_stats(v, UNROLL, &bm, &bs);
    combine(m, s, bm, bs);
  }
  reduce_pair(lm, ls, m, s);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_online(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
               const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld) {
  __local float lm[WG], ls[WG];
  const ulong nv = (cols + VW - 1) / VW;
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    float m, s;
    range_stats(src, 0, nv, cols, lm, ls, &m, &s);
    write_range(src, out + out_off + r * out_ld, 0, nv, cols, m, inverse_sum(m, s));
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_split_stats(const ulong rows, const ulong cols, __global const in_real *in,
                    const ulong in_off, const ulong in_ld, const ulong parts, const ulong part_vecs,
                    __global float *scratch) {
  __local float lm[WG], ls[WG];
  const ulong nv = (cols + VW - 1) / VW;
  for (ulong g = get_group_id(0); g < rows * parts; g += get_num_groups(0)) {
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    const ulong limit = min(nv, first + part_vecs);
    float m, s;
    range_stats(in + in_off + r * in_ld, first, limit, cols, lm, ls, &m, &s);
    if (get_local_id(0) == 0) {
      scratch[2 * g] = m;
      scratch[2 * g + 1] = s;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_split_write(const ulong rows, const ulong cols, __global const in_real *in,
                    const ulong in_off, const ulong in_ld, __global out_real *out,
                    const ulong out_off, const ulong out_ld, const ulong parts,
                    const ulong part_vecs, __global const float *scratch) {
  const ulong nv = (cols + VW - 1) / VW, total = rows * parts;
  for (ulong h = get_group_id(0); h < total; h += get_num_groups(0)) {
    const ulong g = total - 1 - h; /* reverse order: the stats pass's last reads may be cached */
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    float m = -INFINITY, s = 0.0f;
    for (ulong p = 0; p < parts; p++)
      combine(&m, &s, scratch[2 * (r * parts + p)], scratch[2 * (r * parts + p) + 1]);
    write_range(in + in_off + r * in_ld, out + out_off + r * out_ld, first,
                min(nv, first + part_vecs), cols, m, inverse_sum(m, s));
  }
}

/* ---- the reference kernel: scalar, any offsets ---- */

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_general(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
                const ulong in_ld, __global out_real *out, const ulong out_off,
                const ulong out_ld) {
  __local float lm[WG], ls[WG];
  const uint lid = get_local_id(0);
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    __global out_real *dst = out + out_off + r * out_ld;
    float m = -INFINITY, s = 0.0f;
    for (ulong c = lid; c < cols; c += WG)
      combine(&m, &s, OCF_LOAD(IN_DTYPE, src, c), 1.0f);
    reduce_pair(lm, ls, &m, &s);
    const float inv = inverse_sum(m, s);
    for (ulong c = lid; c < cols; c += WG)
      OCF_STORE(OUT_DTYPE, dst, c, exp(OCF_LOAD(IN_DTYPE, src, c) - m) * inv);
  }
}

/* ---- the unfused baseline: three kernels through global scratch ---- */

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_base_max(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
                 const ulong in_ld, __global float *scratch) {
  __local float lv[WG];
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    float m = -INFINITY;
    for (ulong c = get_local_id(0); c < cols; c += WG)
      m = fmax(m, OCF_LOAD(IN_DTYPE, src, c));
    m = reduce_one(lv, m, 1);
    if (get_local_id(0) == 0) scratch[r] = m;
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_base_exp_sum(const ulong rows, const ulong cols, __global const in_real *in,
                     const ulong in_off, const ulong in_ld, __global float *scratch) {
  __local float lv[WG];
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global const in_real *src = in + in_off + r * in_ld;
    __global float *exps = scratch + 2 * rows + r * cols;
    const float m = scratch[r];
    float s = 0.0f;
    for (ulong c = get_local_id(0); c < cols; c += WG) {
      /* exp(-inf - -inf) and exp(inf - inf) are NaN: the all -inf and +inf rows come out NaN. */
      const float e = exp(OCF_LOAD(IN_DTYPE, src, c) - m);
      exps[c] = e;
      s += e;
    }
    s = reduce_one(lv, s, 0);
    if (get_local_id(0) == 0) scratch[rows + r] = s;
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_base_divide(const ulong rows, const ulong cols, __global out_real *out, const ulong out_off,
                    const ulong out_ld, __global const float *scratch) {
  for (ulong r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    __global out_real *dst = out + out_off + r * out_ld;
    __global const float *exps = scratch + 2 * rows + r * cols;
    const float s = scratch[rows + r];
    for (ulong c = get_local_id(0); c < cols; c += WG)
      OCF_STORE(OUT_DTYPE, dst, c, exps[c] / s);
  }
}
