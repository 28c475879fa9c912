/*
 * softmax.cl: row softmax and log-softmax with a scale (temperature) and a mask of per-row valid
 * lengths and/or a causal band, any storage type in and out (f32, f16, bf16), fp32 arithmetic.
 *
 *   t[r][c]   = scale * (in[r][c] - max_r)                  for c < len_r (the row's valid length)
 *   softmax:  out[r][c] = exp(t[r][c]) / sum_k exp(t[r][k]) for c < len_r, 0 for len_r <= c < cols
 *   LOG:      out[r][c] = t[r][c] - log(sum_k exp(t[r][k])) for c < len_r, -inf past it
 *
 * max_r is the max of the unscaled row (scale > 0 keeps the order), so no finite input overflows.
 * The mask is computed on the device, per row, in one place (row_length()):
 *
 *   len_r = min(cols, lengths[lengths_off + r] (HAS_LENGTHS),
 *                     r % causal_period + causal_offset + 1 (CAUSAL))
 *
 *   CAUSAL, causal_period 4, causal_offset 1, cols 6 (x kept, . padding):
 *     r 0  x x . . . .     query 0 of a head, at key position 1: keys 0..1
 *     r 1  x x x . . .
 *     r 2  x x x x . .
 *     r 3  x x x x x .
 *     r 4  x x . . . .     the next head (row 4 = its query 0)
 *
 *   The host keeps causal_period >= 1 and causal_period + causal_offset within a ulong.
 *
 *   in:  element in_off + r * in_ld + c            out: element out_off + r * out_ld + c
 *
 *        aligned  |head|<---------------------- cols ----------------------->|
 *        vectors  [ v0   | v1 | ... | vWG-1 | vWG | ...               | v(nv-1) ]
 *                  ^ the aligned vector the row starts in: `head` elements of it (and the tail
 *                    of the last one) are outside the row, read as -inf and never written
 *
 * Rows need not start on a vector boundary: a row is cut into the VW-aligned vectors of the
 * buffer that it touches, so every row gets vector access whatever its offset and stride. The
 * head of row r is (in_off + r * in_ld) % VW; when VW > 1 the host guarantees that out's rows
 * have the same heads (in_off = out_off and in_ld = out_ld modulo VW), and the buffers start on
 * their device's base alignment, so a whole vector inside the row is an aligned access.
 *
 * The running state of a work-item is a pair (m, s): the largest value it has seen and the sum
 * of exp(scale * (x - m)) over what it has seen. Two pairs combine exactly as two halves of a row
 * would (combine()), so the same reduction serves a work-item, a workgroup and a split row.
 * Non-finite inputs fall out of that arithmetic as torch.softmax has them:
 *   - m ignores NaN (fmax); a NaN x gives exp(NaN) = NaN in s, and a NaN s stays NaN through
 *     every rescale (NaN * 0 is NaN), so the whole row is NaN;
 *   - x == m counts as exp(0) = 1, also for x = m = +-inf, so inf - inf is never computed;
 *     an all -inf row or a row holding +inf ends with a non-finite m, and normaliser() makes
 *     the row NaN; a -inf entry next to a finite max gives exp(-inf) = 0 (-inf for LOG).
 * s >= 1 whenever m is finite (the max contributes exactly 1), so 1 / s and log(s) are safe.
 * Padding (columns at or past the row's length) is written as 0 (-inf for LOG) whatever the row
 * holds, and is never read: a row of length 0 is all padding.
 *
 * Kernels (the host picks; every one is right for any rows, cols >= 1, strides and in-place use,
 * under the stated alignment assumption when VW > 1):
 *   softmax_rows       short rows, several a workgroup: a 2-D workgroup of SEG x (WG / SEG)
 *                      work-items (any SEG dividing WG), a row to each SEG, held in ITEMS
 *                      registers of each. Assumes the row's nv <= SEG * ITEMS. Row max, then the
 *                      sum of exp through local memory. With PREFETCH the next batch of rows is
 *                      loaded before this one is reduced.
 *   softmax_resident   one row a workgroup, held in registers (ITEMS vectors a work-item) and in
 *                      local memory (LOCAL_ITEMS more): read once, written once. Any vectors past
 *                      what it holds are streamed twice (the second pass backwards, so that it
 *                      finds the row's tail in cache).
 *   softmax_coop       a row cut into `parts` slices of part_vecs vectors, one workgroup each,
 *                      each holding its slice as softmax_resident does (part_vecs <= WG * (ITEMS +
 *                      LOCAL_ITEMS)): read once, written once. The workgroups of a row exchange
 *                      their (m, s) through `scratch` (see the kernel for why it cannot deadlock).
 *                      Assumes out does not overlap in.
 *   softmax_split_stats, softmax_split_write
 *                      the two-kernel split: stats writes one (m, s) pair per slice to scratch,
 *                      write combines a row's pairs and writes its slice (slices in reverse order,
 *                      for the same cache reason). Reads twice.
 *   softmax_general    the slow, obviously right reference: scalar, two passes.
 *   softmax_base_max, softmax_base_exp_sum, softmax_base_divide
 *                      the benchmark's unfused baseline: three kernels, scratch[r] = row max,
 *                      scratch[rows + r] = row sum, and exp(t) of every element (dense rows
 *                      from scratch[2 * rows]); then out = exp / sum (LOG: the sum only, then
 *                      out = t - log(sum)). Only the last kernel writes out, so a call whose
 *                      later kernel fails to enqueue leaves out untouched.
 *
 * Workgroups of any size work (the local reductions fold a non-power-of-two size first). Indices
 * are 64-bit (ulong). In-place use (out == in, same offset and stride) is fine for every kernel
 * but softmax_coop: every element is read and written by one work-item, and it reads an element
 * before it writes it.
 */

/* Work-items per workgroup; the host launches exactly this many. Any size from 1. */
#ifndef WG
#define WG 256
#endif

/* Elements per vector access: 1, 2, 4, 8 or 16 (16 runs, but Oclgrind 21.10's uninitialized-value
   checker misreports float16 values, so the tests stay below it). */
#ifndef VW
#define VW 4
#endif

/* Vectors each work-item holds in registers (softmax_rows, softmax_resident, softmax_coop). */
#ifndef ITEMS
#define ITEMS 4
#endif

/* Vectors each work-item holds in local memory beyond its registers (softmax_resident and
   softmax_coop); 0: none. */
#ifndef LOCAL_ITEMS
#define LOCAL_ITEMS 0
#endif

/* Work-items per row in softmax_rows; it divides WG (WG / SEG rows a workgroup). */
#ifndef SEG
#define SEG 8
#endif

/* softmax_rows: 1 loads the next batch of rows before reducing the current one. */
#ifndef PREFETCH
#define PREFETCH 0
#endif

/* Vectors each work-item loads per step of the streaming loops (resident's rest, split). */
#ifndef UNROLL
#define UNROLL 4
#endif

/* softmax_coop: polls of a partner's slot before the workgroup computes the partner's (m, s)
   itself. */
#ifndef SPIN
#define SPIN 1024
#endif

/* Storage types of in and out (ocf_dtype: 0 f32, 1 f16, 2 bf16); arithmetic is fp32. */
#ifndef IN_DTYPE
#define IN_DTYPE 0
#endif
#ifndef OUT_DTYPE
#define OUT_DTYPE 0
#endif

/* 1: log-softmax. */
#ifndef LOG
#define LOG 0
#endif

/* 1: `lengths` holds each row's valid length; 0: every row has cols (lengths is not read). */
#ifndef HAS_LENGTHS
#define HAS_LENGTHS 0
#endif

/* 1: the causal band: row r keeps r % causal_period + causal_offset + 1 columns at most; 0: the
   two causal arguments are not read. */
#ifndef CAUSAL
#define CAUSAL 0
#endif

/* Whether some row may end before cols: padding is then written (store_vec's whole vectors). */
#define MASKED (HAS_LENGTHS || CAUSAL)

/* The mask's kernel parameters, the same in every kernel (the host binds them by these names),
   and the same names passed on to the helpers. */
#define MASK_PARAMS                                                                 \
  __global const uint *lengths, const ulong lengths_off, const ulong causal_period, \
      const ulong causal_offset
#define MASK_ARGS lengths, lengths_off, causal_period, causal_offset

#if WG < 1 || SEG < 1 || WG % SEG
#error "SEG must divide WG"
#endif

/* The element types of in and out (OCF_STORAGE: cl/common.cl). */
#define in_real OCF_STORAGE(IN_DTYPE)
#define out_real OCF_STORAGE(OUT_DTYPE)

/* What padding holds. */
#define PAD (LOG ? -INFINITY : 0.0f)

/* The vector types of the row accesses. */
#define floatV OCF_FLOATN(VW)
#define ushortV OCF_CAT(ushort, VW)
#define uintV OCF_CAT(uint, VW)
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
   folds the CHUNK values of its chunk, then, when the segment is longer, the chunks' results). */
#define ROWS_PER_GROUP (WG / SEG)
#define CHUNK 16

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

/* ---- aligned vector access in each storage type (vector k of p: elements k*VW .. +VW-1) ---- */

#if VW == 1
#define LOADA_0(p, k) ((p)[k])
#define LOADA_1(p, k) vload_half((k), (p))
#define LOADA_2(p, k) OCF_BF16_TO_FLOAT((p)[k])
#define STOREA_0(p, k, v) ((p)[k] = (v))
#define STOREA_1(p, k, v) vstore_half_rte((v), (k), (p))
#define STOREA_2(p, k, v) ((p)[k] = ocf_float_to_bf16(v))
#else
#define LOADA_0(p, k) (((__global const floatV *)(p))[k])
#define LOADA_1(p, k) OCF_CAT(vloada_half, VW)((k), (p))
#define LOADA_2(p, k) \
  OCF_CAT(as_float, VW)(OCF_CAT(convert_uint, VW)(((__global const ushortV *)(p))[k]) << 16)
#define STOREA_0(p, k, v) (((__global floatV *)(p))[k] = (v))
#define STOREA_1(p, k, v) OCF_CAT(OCF_CAT(vstorea_half, VW), _rte)((v), (k), (p))
#define STOREA_2(p, k, v) (((__global ushortV *)(p))[k] = bf16_pack(v))

/* Lane by lane bfloat16 of v, rounded to nearest even, a NaN kept a (quiet) NaN: the vector
   form of ocf_float_to_bf16 (cl/common.cl). */
ushortV bf16_pack(const floatV v) {
  const uintV u = OCF_CAT(as_uint, VW)(v);
  const uintV rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uintV quiet = (u >> 16) | 0x40u;
  return OCF_CAT(convert_ushort, VW)(select(rounded, quiet, OCF_CAT(as_uint, VW)(isnan(v))));
}
#endif
#define LOADA(t, p, k) OCF_CAT(LOADA_, t)(p, k)
#define STOREA(t, p, k, v) OCF_CAT(STOREA_, t)(p, k, v)

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
/* (dot, not v.s0 + v.s1: Oclgrind 21.10's uninitialized-value checker crashes on the swizzled
   form.) */
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

/* ---- the arithmetic of a row ---- */

/* exp(a * (x - m)) for x <= m or NaN, with exactly 1 when x == m (also for infinite x == m). */
float exp_shift(const float x, const float m, const float a) {
  return x == m ? 1.0f : exp(a * (x - m));
}

/* The same, lane by lane. */
floatV exp_shift_v(const floatV x, const float m, const float a) {
  const floatV mv = (floatV)(m);
  return select(exp(a * (x - mv)), (floatV)(1.0f), x == mv);
}

/* a * (x - m) lane by lane, with exactly 0 when x == m: the log-softmax numerator. */
floatV shift_v(const floatV x, const float m, const float a) {
  const floatV mv = (floatV)(m);
  return select(a * (x - mv), (floatV)(0.0f), x == mv);
}

/* (m, s) <- (m, s) joined with (om, os). m is never NaN, so fmax picks a real maximum. */
void combine(float *m, float *s, const float om, const float os, const float a) {
  const float nm = fmax(*m, om);
  *s = *s * exp_shift(*m, nm, a) + os * exp_shift(om, nm, a);
  *m = nm;
}

/* What turns exp(t) into an output: 1 / s for softmax, log(s) for LOG; NaN when the row max is
   not finite (an all -inf row, or +inf in the row). */
float normaliser(const float m, const float s) {
#if LOG
  return isfinite(m) ? log(s) : NAN;
#else
  return isfinite(m) ? 1.0f / s : NAN;
#endif
}

/* The output of inputs x of a row with max m and normaliser `norm`. */
floatV output_of(const floatV x, const float m, const float norm, const float a) {
#if LOG
  return shift_v(x, m, a) - norm;
#else
  return exp_shift_v(x, m, a) * norm;
#endif
}

/* ---- rows as the kernels see them ---- */

/* Where a row lies among the aligned vectors of its buffer. Element indices are relative to the
   first element of the aligned vector the row starts in. */
typedef struct row_view {
  ulong lo;  /* the row's first element (its head, < VW) */
  ulong mid; /* lo + the row's valid length: elements in [lo, mid) take part */
  ulong hi;  /* lo + cols: elements in [mid, hi) are padding */
  ulong nv;  /* vectors that cover [0, hi) */
} row_view;

/* Row r's valid length: cols, cut by its entry of `lengths` (a length above cols is cols) and by
   the causal band, whichever are on. The one place the mask is computed: every kernel asks it. */
ulong row_length(MASK_PARAMS, const ulong r, const ulong cols) {
  ulong len = cols;
#if HAS_LENGTHS
  len = min(len, (ulong)lengths[lengths_off + r]);
#else
  (void)lengths, (void)lengths_off;
#endif
#if CAUSAL
  len = min(len, r % causal_period + causal_offset + 1);
#else
  (void)causal_period, (void)causal_offset;
#endif
  (void)r;
  return len;
}

/* The view of a row that starts at element `start` of its buffer. (Filled through a pointer:
   Oclgrind 21.10's uninitialized-value checker crashes on structs passed by value.) */
void view_at(row_view *v, const ulong start, const ulong cols, const ulong len) {
  v->lo = start % VW;
  v->mid = v->lo + len;
  v->hi = v->lo + cols;
  v->nv = (v->hi + VW - 1) / VW;
}

/* Vector k of a row (relative to its aligned start), lanes outside [lo, hi) as -inf: whole
   vectors inside the range are one aligned access, the others go lane by lane. */
floatV load_vec(__global const in_real *src, const ulong k, const ulong lo, const ulong hi) {
  const ulong first = k * VW;
  if (first >= lo && first + VW <= hi) return LOADA(IN_DTYPE, src, k);
#if VW == 1
  return -INFINITY;
#else
  /* Lane by lane into a vector that starts defined (Oclgrind 21.10's uninitialized-value
     checker crashes on a shuffle of a partly undefined vector). */
  floatV v = (floatV)(-INFINITY);
#define LOAD_LANE(j, s) \
  if (first + j >= lo && first + j < hi) v.s = OCF_LOAD(IN_DTYPE, src, first + j);
  LANES(LOAD_LANE)
#undef LOAD_LANE
  return v;
#endif
}

/* Stores vector k of a row: lanes in [lo, hi) get v below mid and padding from mid on (a slice
   of a row may end before mid), the others are not touched. */
void store_vec(__global out_real *dst, const ulong k, const ulong lo, const ulong mid,
               const ulong hi, const floatV v) {
  const ulong first = k * VW;
  if (first >= lo && first + VW <= min(mid, hi)) {
    STOREA(OUT_DTYPE, dst, k, v);
    return;
  }
#if MASKED
  if (first >= mid && first >= lo && first + VW <= hi) {
    STOREA(OUT_DTYPE, dst, k, (floatV)(PAD));
    return;
  }
#endif
#if VW == 1
  if (first >= lo && first < hi) OCF_STORE(OUT_DTYPE, dst, first, PAD);
#else
#define STORE_LANE(j, s)                 \
  if (first + j >= lo && first + j < hi) \
    OCF_STORE(OUT_DTYPE, dst, first + j, first + j < mid ? v.s : PAD);
  LANES(STORE_LANE)
#undef STORE_LANE
#endif
}

/* ---- local memory reductions over the workgroup (any WG; every work-item calls them) ---- */

/* Replaces each work-item's (m, s) by the workgroup's, bit for bit the same in every work-item. */
void reduce_pair(__local float *lm, __local float *ls, float *m, float *s, const float a) {
  const uint lid = get_local_id(0);
  lm[lid] = *m;
  ls[lid] = *s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint width = WG_POW2 / 2; width > 0; width >>= 1) {
    if (lid < width && lid + width < WG) {
      float pm = lm[lid], ps = ls[lid];
      combine(&pm, &ps, lm[lid + width], ls[lid + width], a);
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
   all of them, bit for bit the same (each folds the same values in the same order): first the
   CHUNK values of a chunk, then the chunks' results. No barrier when SEG is 1, one when SEG <=
   CHUNK, else two. `lv` and `lw` are WG floats each; a caller alternates two such pairs (max,
   then sum), so a pair is written again only after a barrier that follows every read of it. */
float segment_reduce(__local float *lv, __local float *lw, const float v, const int is_max) {
#if SEG == 1
  (void)lv, (void)lw, (void)is_max;
  return v;
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
               const ulong in_off, const ulong in_ld, MASK_PARAMS, floatV *v) {
  const uint lane = get_local_id(0);
  const ulong r = b * ROWS_PER_GROUP + get_local_id(1);
  const int live = r < rows;
  const ulong start = in_off + (live ? r : 0) * in_ld;
  row_view w;
  view_at(&w, start, cols, live ? row_length(MASK_ARGS, r, cols) : 0);
  __global const in_real *src = in + (start - w.lo);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    v[i] = load_vec(src, lane + (ulong)i * SEG, w.lo, w.mid);
}

/* Reduces and stores the rows whose vectors v holds (rows_load's batch b). Every work-item
   calls it, those of rows past `rows` too (they take part in the barriers only). */
void rows_finish(const ulong b, const ulong rows, const ulong cols, __global out_real *out,
                 const ulong out_off, const ulong out_ld, const float a, MASK_PARAMS, floatV *v,
                 __local float *lmax, __local float *lmax2, __local float *lsum,
                 __local float *lsum2) {
  const uint lane = get_local_id(0);
  const ulong r = b * ROWS_PER_GROUP + get_local_id(1);
  const int live = r < rows;
  float m = -INFINITY;
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    m = fmax(m, HMAX(v[i]));
  m = segment_reduce(lmax, lmax2, m, 1);
  floatV acc = (floatV)(0.0f);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
#if LOG
    acc += exp_shift_v(v[i], m, a);
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
#if LOG
    const floatV y = shift_v(v[i], m, a) - norm;
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
  floatV v[ITEMS];
#if PREFETCH
  rows_load(get_group_id(1), rows, cols, in, in_off, in_ld, MASK_ARGS, v);
#endif
  for (ulong b = get_group_id(1); b < batches; b += get_num_groups(1)) {
#if PREFETCH
    /* The next batch is in flight while this one is reduced and stored. In place, its rows are
       other rows than this batch's, so the loads never see this batch's stores. */
    floatV next[ITEMS];
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

/* ---- holding a row (or a slice of it) in registers and local memory ---- */

/*
 * A work-item holds vectors first + lid + i * WG of a row: i < ITEMS in registers v[i], then
 * ITEMS <= i < ITEMS + LOCAL_ITEMS in local memory, held[lid + (i - ITEMS) * WG]. Only the
 * work-item itself touches its local vectors, so they need no barrier.
 */
#define HELD_ITEMS (ITEMS + LOCAL_ITEMS)
#if LOCAL_ITEMS > 0
#define HELD_LOCAL(name) __local floatV name[LOCAL_ITEMS * WG]
#else
/* No local vectors: a dummy one keeps one signature for the helpers. */
#define HELD_LOCAL(name) __local floatV name[1]
#endif

/* Loads the vectors this work-item holds of the slice that starts at vector `first`, with the
   lanes outside elements [lo, hi) as -inf. */
void held_load(__global const in_real *src, const ulong first, const ulong lo, const ulong hi,
               floatV *v, __local floatV *held) {
  const uint lid = get_local_id(0);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    v[i] = load_vec(src, first + lid + (ulong)i * WG, lo, hi);
#if LOCAL_ITEMS > 0
#pragma unroll
  for (uint i = 0; i < LOCAL_ITEMS; i++)
    held[lid + i * WG] = load_vec(src, first + lid + (ulong)(ITEMS + i) * WG, lo, hi);
#else
  (void)held;
#endif
}

/* This work-item's (m, s) over what it holds. For softmax each held value becomes
   exp(a * (x - m)); LOG keeps x (its output needs x, not a rounded exp). */
void held_stats(floatV *v, __local floatV *held, const float a, float *m, float *s) {
  const uint lid = get_local_id(0);
  float hm = -INFINITY;
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    hm = fmax(hm, HMAX(v[i]));
#if LOCAL_ITEMS > 0
#pragma unroll
  for (uint i = 0; i < LOCAL_ITEMS; i++)
    hm = fmax(hm, HMAX(held[lid + i * WG]));
#endif
  floatV acc = (floatV)(0.0f);
#pragma unroll
  for (uint i = 0; i < ITEMS; i++) {
    const floatV e = exp_shift_v(v[i], hm, a);
    acc += e;
#if !LOG
    v[i] = e;
#endif
  }
#if LOCAL_ITEMS > 0
#pragma unroll
  for (uint i = 0; i < LOCAL_ITEMS; i++) {
    const floatV e = exp_shift_v(held[lid + i * WG], hm, a);
    acc += e;
#if !LOG
    held[lid + i * WG] = e;
#endif
  }
#else
  (void)held, (void)lid;
#endif
  *m = hm;
  *s = HSUM(acc);
}

/* Stores what this work-item holds of the slice at vector `first` (held_stats done, its own max
   `hm`): softmax multiplies each exp by exp(a * (hm - m)) * norm, LOG takes t - norm. Lanes in
   [lo, mid) get outputs, [mid, hi) padding. */
void held_store(__global out_real *dst, const ulong first, const ulong lo, const ulong mid,
                const ulong hi, const floatV *v, __local floatV *held, const float hm,
                const float m, const float norm, const float a) {
  const uint lid = get_local_id(0);
#if LOG
  (void)hm;
#define HELD_OUTPUT(x) (shift_v((x), m, a) - norm)
#else
  const float k = exp_shift(hm, m, a) * norm;
#define HELD_OUTPUT(x) ((x)*k)
#endif
#pragma unroll
  for (uint i = 0; i < ITEMS; i++)
    store_vec(dst, first + lid + (ulong)i * WG, lo, mid, hi, HELD_OUTPUT(v[i]));
#if LOCAL_ITEMS > 0
#pragma unroll
  for (uint i = 0; i < LOCAL_ITEMS; i++)
    store_vec(dst, first + lid + (ulong)(ITEMS + i) * WG, lo, mid, hi,
              HELD_OUTPUT(held[lid + i * WG]));
#else
  (void)held;
#endif
#undef HELD_OUTPUT
}

/* ---- streaming a range of a row (what is not held) ---- */

/* Joins into this work-item's (m, s) its share of vectors [first, limit) of a row (lanes
   outside [lo, hi) as -inf). */
void stream_stats(__global const in_real *src, const ulong first, const ulong limit, const ulong lo,
                  const ulong hi, const float a, float *m, float *s) {
  for (ulong base = first + get_local_id(0); base < limit; base += (ulong)WG * UNROLL) {
    floatV x[UNROLL];
#pragma unroll
    for (uint u = 0; u < UNROLL; u++)
      x[u] = base + u * WG < limit ? load_vec(src, base + u * WG, lo, hi) : (floatV)(-INFINITY);
    float bm = -INFINITY;
#pragma unroll
    for (uint u = 0; u < UNROLL; u++)
      bm = fmax(bm, HMAX(x[u]));
    floatV acc = (floatV)(0.0f);
#pragma unroll
    for (uint u = 0; u < UNROLL; u++)
      acc += exp_shift_v(x[u], bm, a);
    combine(m, s, bm, HSUM(acc), a);
  }
}

/* Writes vectors [first, limit) of a row from their inputs, stepping by WG, the last step first
   (the most recently read vectors are the likeliest still in cache). */
void stream_write(__global const in_real *src, __global out_real *dst, const ulong first,
                  const ulong limit, const ulong lo, const ulong mid, const ulong hi, const float m,
                  const float norm, const float a) {
  const ulong step = (ulong)WG * UNROLL;
  const ulong steps = limit > first ? (limit - first + step - 1) / step : 0;
  for (ulong t = steps; t-- > 0;) {
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong k = first + t * step + (ulong)u * WG + get_local_id(0);
      if (k < limit)
        store_vec(dst, k, lo, mid, hi, output_of(load_vec(src, k, lo, mid), m, norm, a));
    }
  }
}

/* ---- softmax_resident: one row a workgroup ---- */

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
    floatV v[ITEMS];
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

/* ---- softmax_coop: a row's slices in several workgroups that exchange their (m, s) ---- */

/*
 * Slot pair g of `scratch` (2 uints at 2 * g) holds the (m, s) of slice g = r * parts + p, each
 * stored as the bitwise NOT of the float's bits. The host zero-fills scratch, and 0 is never a
 * published value: ~0 would be the float 0xffffffff, a NaN, and m is never NaN (fmax ignores
 * NaN) while a NaN s is published as the canonical quiet NaN 0x7fc00000. A slot is written once
 * by atomic_cmpxchg from 0 (later writers of the same slot leave it be) and read by atomics, so
 * every reader sees one value per slot.
 *
 * Why it cannot deadlock, on any device, however many workgroups it runs at once: a workgroup
 * waits for a partner's slot at most SPIN polls; a partner that has not published by then is
 * not waited for any longer: the workgroup computes that slice's (m, s) itself from the input,
 * with the same code the partner runs (so the same bits, up to the partner's own rounding if its
 * compiled code differs), and publishes it for the others. Every loop is bounded and every
 * barrier is reached by the whole workgroup (the decisions are read from local memory after a
 * barrier). Out must not overlap in: a slow partner may already be writing its slice while a
 * workgroup reads that slice for its statistics.
 */
/* softmax_coop's pollers: the first work-items of the workgroup, at most a warp. */
#define POLLERS (WG < 32 ? WG : 32)

uint slot_read(__global uint *slot) {
  return atomic_or(slot, 0u);
}
int slots_published(__global uint *scratch, const ulong g) {
  return slot_read(scratch + 2 * g) != 0u && slot_read(scratch + 2 * g + 1) != 0u;
}
void slots_publish(__global uint *scratch, const ulong g, const float m, const float s) {
  atomic_cmpxchg(scratch + 2 * g, 0u, ~as_uint(m));
  mem_fence(CLK_GLOBAL_MEM_FENCE); /* m before s, where the device keeps the order (pollers
                                      watch s; readers still check both) */
  atomic_cmpxchg(scratch + 2 * g + 1, 0u, ~(isnan(s) ? 0x7fc00000u : as_uint(s)));
}

/* The (m, s) of slice p of a row, as the workgroup that owns it computes it (the held values are
   left in v and held); every work-item returns the pair in *pm, *ps and its own in *hm, *hs. */
void slice_stats(__global const in_real *src, const row_view *w, const ulong p,
                 const ulong part_vecs, floatV *v, __local floatV *held, __local float *lm,
                 __local float *ls, const float a, float *hm, float *hs, float *pm, float *ps) {
  const ulong first = p * part_vecs;
  held_load(src, first, max(w->lo, first * VW), min(w->mid, (first + part_vecs) * VW), v, held);
  held_stats(v, held, a, hm, hs);
  *pm = *hm;
  *ps = *hs;
  reduce_pair(lm, ls, pm, ps, a);
}

#ifdef OCF_KERNEL_softmax_coop
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_coop(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
             const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,
             const float scale, MASK_PARAMS, const ulong parts, const ulong part_vecs,
             __global uint *scratch) {
  __local float lm[WG], ls[WG];
  __local int missing, unpublished;
  HELD_LOCAL(held);
  const uint lid = get_local_id(0);
  /* One slice a workgroup and no grid-stride loop: a workgroup never waits on one that only a
     later iteration of its own would reach. The host launches exactly rows * parts workgroups
     (and no early return guards it: PoCL 3.1 miscompiles a return that precedes barriers). */
  const ulong g = get_group_id(0), r = g / parts, p = g - r * parts;
  (void)rows;
  if (lid == 0) missing = 0;
  const ulong len = row_length(MASK_ARGS, r, cols);
  const ulong in_start = in_off + r * in_ld, out_start = out_off + r * out_ld;
  row_view w;
  view_at(&w, in_start, cols, len);
  __global const in_real *src = in + (in_start - w.lo);
  __global out_real *dst = out + (out_start - w.lo);
  __global uint *row_slots = scratch + 2 * r * parts;

  floatV v[ITEMS];
  float hm, hs, pm, ps;
  slice_stats(src, &w, p, part_vecs, v, held, lm, ls, scale, &hm, &hs, &pm, &ps);
  if (lid == 0) slots_publish(row_slots, p, pm, ps);

  /* Wait (boundedly) for the partners, SPIN polls a slot at most. A few pollers (a warp's
     worth) watch every slot between them, each polling the s word only, so that waiting
     workgroups keep their atomics off the memory system's back; reduce_pair's barriers have
     ordered `missing = 0` before any of them. */
  if (lid < POLLERS) {
    for (ulong q = lid; q < parts; q += POLLERS) {
      uint polls = 0;
      while (slot_read(row_slots + 2 * q + 1) == 0u && polls < SPIN)
        polls++;
      if (!slots_published(row_slots, q)) atomic_or(&missing, 1);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (missing) {
    /* Compute and publish every slice still unpublished, then hold our own slice again. */
    for (ulong q = 0; q < parts; q++) {
      if (lid == 0) unpublished = !slots_published(row_slots, q);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int help = unpublished;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (help) {
        float qhm, qhs, qm, qs;
        slice_stats(src, &w, q, part_vecs, v, held, lm, ls, scale, &qhm, &qhs, &qm, &qs);
        if (lid == 0) slots_publish(row_slots, q, qm, qs);
      }
    }
    slice_stats(src, &w, p, part_vecs, v, held, lm, ls, scale, &hm, &hs, &pm, &ps);
  }

  /* Every slot is published: the row's (m, s), the same in every workgroup of the row. */
  float m = -INFINITY, s = 0.0f;
  for (ulong q = lid; q < parts; q += WG)
    combine(&m, &s, as_float(~slot_read(row_slots + 2 * q)),
            as_float(~slot_read(row_slots + 2 * q + 1)), scale);
  reduce_pair(lm, ls, &m, &s, scale);
  const ulong first = p * part_vecs;
  held_store(dst, first, max(w.lo, first * VW), w.mid, min(w.hi, (first + part_vecs) * VW), v, held,
             hm, m, normaliser(m, s), scale);
}
#endif

/* ---- the two-kernel split ---- */

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

/* ---- the reference kernel: scalar, any offsets ---- */

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
