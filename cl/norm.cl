/*
 * norm.cl: LayerNorm and RMSNorm over the rows of a matrix, with an optional fused residual add,
 * weight (gamma) and bias (beta), any storage type for x, y, the residual and the weights (f32,
 * f16, bf16), fp32 arithmetic, and the per-row statistics for a backward pass.
 *
 *   x[r][c]  = round_RES(in[r][c] + res[r][c])        (HAS_RES; else in[r][c]); -> res_out
 *   LayerNorm (RMS 0)                                  RMSNorm (RMS 1)
 *     s = x[r][0] (the shift), z = x - s                 z = x
 *     m = sum z / cols                                   m = 0
 *     var = sum (z - m)^2 / cols                         var = sum z^2 / cols
 *   rstd = 1 / sqrt(var + eps) when var is finite, else NaN
 *   y[r][c] = (z - m) * rstd * weight[c] + bias[c]     (weight 1 and bias 0 when absent)
 *   mean[r] = s + m (NaN when var is not finite), rstd[r] = rstd
 *
 * The statistics are the exact two-pass ones, taken about the row's first element: a row far
 * from zero (1e4 + noise) loses nothing to cancellation, z - m is small where the data is, and a
 * constant row gives z = 0 exactly (y = bias). A NaN or an infinity in a row, or a sum that
 * overflows, makes var non-finite and so the whole row of y (and its statistics) NaN.
 *
 *   in:  element in_off + r * in_ld + c (res, res_out, out likewise with their own off, ld)
 *   weight, bias: element weight_off + c, bias_off + c
 *
 *        |<------------------------------- cols ------------------------------->|
 *        [ v0 | v1 | ... | vSEG-1 | vSEG | ...                    | v(nv-1) ]  nv = ceil(cols/VW)
 *          ^ lane 0's vectors: v0, vSEG, v2SEG ... (vector k belongs to lane k % SEG)
 *
 * When VW > 1 the host guarantees that every row start (in, out, res, res_out) and weight_off
 * and bias_off are multiples of VW, and the buffers start on their device's base alignment, so
 * a whole vector is one aligned access; the last vector of a row may be partial (lane by lane),
 * unless EVEN (cols a multiple of VW), which leaves that code out.
 *
 * SHIFTED (norm_rows only): rows may start inside a vector, `lead` elements in, the same for
 * every operand's row r (the host guarantees equal offsets and strides modulo VW), weight_off
 * and bias_off multiples of VW. The kernel then works on the buffer's vectors: a row is the
 * elements [lead, lead + cols) of its vector-aligned start, ceil((lead + cols) / VW) vectors
 * whose first and last may be partial (lane by lane, only the row's own elements touched, so a
 * neighbouring row's lanes in the same vector are never read or written), and each vector's
 * weights and biases are two of their own aligned vectors shifted `lead` lanes in registers
 * (realign). Rows of 4097 floats, say, so move in float4 but for two vectors a row.
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

/* ---- tunables: the host passes every one (src/plan/plan_norm.c); none has a default here ---- */

#ifndef WG
#error "WG: work-items per workgroup; the host passes it"
#endif
#ifndef VW
#error "VW: elements per vector access: 1, 2, 4, 8 or 16; the host passes it"
#endif
#ifndef EVEN
#error "EVEN: 1 when cols is a multiple of VW (no partial vectors); the host passes it"
#endif
#ifndef ITEMS
#error "ITEMS: vectors norm_rows (norm_stream: of the head) holds a work-item; the host passes it"
#endif
#ifndef SEG
#error "SEG: work-items a row in norm_rows (WG in norm_stream); divides WG; the host passes it"
#endif
#ifndef SHIFTED
#error "SHIFTED: 1: norm_rows's rows may start inside vectors (see above); the host passes it"
#endif
#ifndef PREFETCH
#error "PREFETCH: 1: norm_rows loads its next batch early; the host passes it"
#endif
#ifndef MERGE
#error "MERGE: 1: one Chan-merge reduction (needs SHUFFLE); the host passes it"
#endif
#ifndef UNROLL
#error "UNROLL: vectors loaded per step of the split's and norm_stream's loops; the host passes it"
#endif
#ifndef IN_DTYPE
#error "IN_DTYPE: ocf_dtype of in: 0 f32, 1 f16, 2 bf16; the host passes it"
#endif
#ifndef OUT_DTYPE
#error "OUT_DTYPE: ocf_dtype of out; the host passes it"
#endif
#ifndef RES_DTYPE
#error "RES_DTYPE: ocf_dtype of res and res_out; the host passes it"
#endif
#ifndef W_DTYPE
#error "W_DTYPE: ocf_dtype of weight and bias; the host passes it"
#endif
#ifndef RMS
#error "RMS: 1: RMSNorm, 0: LayerNorm; the host passes it"
#endif
#ifndef HAS_WEIGHT
#error "HAS_WEIGHT: 0 or 1; the host passes it"
#endif
#ifndef HAS_BIAS
#error "HAS_BIAS: 0 or 1; the host passes it"
#endif
#ifndef HAS_RES
#error "HAS_RES: 0 or 1; the host passes it"
#endif
#ifndef HAS_RES_OUT
#error "HAS_RES_OUT: 0 or 1; the host passes it"
#endif
#ifndef HAS_MEAN
#error "HAS_MEAN: 0 or 1; the host passes it"
#endif
#ifndef HAS_RSTD
#error "HAS_RSTD: 0 or 1; the host passes it"
#endif
/* F16_CVT, how fp16 vectors are converted: cl/f16_words.clh, which checks it; BF16_CVT, how
   bfloat16 vectors are stored: cl/bf16_words.clh, which checks it; SHUFFLE, segment sums by warp
   shuffles (NVIDIA): cl/warp_shuffle.clh, which checks it. */

#if WG < 1 || SEG < 1 || WG % SEG
#error "SEG must divide WG"
#endif
#if MERGE && !SHUFFLE
#error "MERGE needs SHUFFLE"
#endif
#if SHIFTED && (VW == 1 || EVEN || !defined(OCF_KERNEL_norm_rows))
#error "SHIFTED is norm_rows's, in vectors, with partial vectors (not EVEN)"
#endif

/* ---- derived ---- */

#define ROWS_PER_GROUP (WG / SEG)
/* segment_sum: each work-item folds CHUNK values, then the chunks' results. */
#define CHUNK 16

#define in_real OCF_STORAGE(IN_DTYPE)
#define out_real OCF_STORAGE(OUT_DTYPE)
#define res_real OCF_STORAGE(RES_DTYPE)
#define w_real OCF_STORAGE(W_DTYPE)

#define floatV OCF_FLOATN(VW)
#define intV OCF_CAT(int, VW)
#define uintV OCF_CAT(uint, VW)

/* The smallest power of two >= WG: the workgroup reductions fold [WG_POW2 / 2, WG) first. */
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

/* The kernels' common parameters, in the order of the host's frame (src/kernels/norm.c). */
#define NORM_PARAMS                                                                                \
  const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,              \
      const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,          \
      const float eps, __global const w_real *weight, const ulong weight_off,                      \
      __global const w_real *bias, const ulong bias_off, __global const res_real *res,             \
      const ulong res_off, const ulong res_ld, __global res_real *res_out,                         \
      const ulong res_out_off, const ulong res_out_ld, __global float *mean, const ulong mean_off, \
      __global float *rstd, const ulong rstd_off
/* The same parameters passed on; row_at for row r of the kernel's parameters. */
#define NORM_ARGS                                                                               \
  rows, cols, in, in_off, in_ld, out, out_off, out_ld, eps, weight, weight_off, bias, bias_off, \
      res, res_off, res_ld, res_out, res_out_off, res_out_ld, mean, mean_off, rstd, rstd_off
#define ROW_AT(p, r)                                                                      \
  row_at(&(p), r, in, in_off, in_ld, out, out_off, out_ld, res, res_off, res_ld, res_out, \
         res_out_off, res_out_ld)

/* The weight and bias rows (no arithmetic on an absent buffer's NULL). */
#if HAS_WEIGHT
#define W_PTR (weight + weight_off)
#else
#define W_PTR weight
#endif
#if HAS_BIAS
#define B_PTR (bias + bias_off)
#else
#define B_PTR bias
#endif

/* ---- lanes and vectors ---- */

#if VW == 1
#define LANE_IDS 0
#elif VW == 2
#define LANE_IDS (int2)(0, 1)
#elif VW == 4
#define LANE_IDS (int4)(0, 1, 2, 3)
#elif VW == 8
#define LANE_IDS (int8)(0, 1, 2, 3, 4, 5, 6, 7)
#elif VW == 16
#define LANE_IDS (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#else
#error "VW must be 1, 2, 4, 8 or 16"
#endif

/* LANES(F) expands F(index, component) over the lanes of a floatV (VW > 1). */
#define LANES_2(F) F(0, s0) F(1, s1)
#define LANES_4(F) LANES_2(F) F(2, s2) F(3, s3)
#define LANES_8(F) LANES_4(F) F(4, s4) F(5, s5) F(6, s6) F(7, s7)
#define LANES_16(F) \
  LANES_8(F) F(8, s8) F(9, s9) F(10, sa) F(11, sb) F(12, sc) F(13, sd) F(14, se) F(15, sf)
#define LANES OCF_CAT(LANES_, VW)

/* Horizontal sum of a vector (a fixed pairwise order). */
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
#define HSUM OCF_CAT(hsum, VW)

/* Lanes of vector k at or past `cols` set to 0 (only the row's last vector has any). */
floatV tail_zero(const floatV v, const ulong k, const ulong cols) {
#if VW == 1
  (void)k, (void)cols;
  return v;
#else
  const ulong first = k * VW;
  if (EVEN || first + VW <= cols) return v;
  const int valid = (int)(cols - first);
  return select(v, (floatV)(0.0f), LANE_IDS >= (intV)(valid));
#endif
}

/* Lanes of vector k outside a held row's elements [lo, hi) set to 0 (only its first and last
   vectors have any; lo < VW). In 32 bits, as the _span accessors below: norm_rows's rows are
   far shorter than 2^32 elements, and at a few vectors a work-item 64-bit index arithmetic was
   a good part of its instructions. */
floatV span_zero(const floatV v, const uint k, const uint lo, const uint hi) {
#if VW == 1
  (void)k, (void)lo, (void)hi;
  return v;
#else
  const uint first = k * VW;
  if (EVEN || ((first >= lo) & (first + VW <= hi))) return v;
  /* Signed differences (a row's indices are far below 2^31): a clamp to 0 here became LLVM's
     usub.sat, which Oclgrind 21.10 cannot run. */
  const int from = (int)lo - (int)first, to = (int)hi - (int)first;
  return select(v, (floatV)(0.0f), (LANE_IDS < (intV)(from)) | (LANE_IDS >= (intV)(to)));
#endif
}

/* Loaders and storers of vector k (elements k*VW ..) of a row at p in one storage type that touch
   only its elements [lo, hi): whole vectors in one access, a partial one (the row's last, and
   with SHIFTED its first) lane by lane, missing lanes read 0. NAME_span in 32-bit indices
   (norm_rows), NAME_from in 64 (every kernel; lo 0). */
#if VW == 1
#define DEFINE_ACCESS_OF(name, idx, T, t)                                                    \
  float load_##name(__global const T *p, const idx k, const idx lo, const idx hi) {          \
    (void)lo, (void)hi;                                                                      \
    return OCF_LOAD(t, p, k);                                                                \
  }                                                                                          \
  void store_##name(__global T *p, const idx k, const idx lo, const idx hi, const float v) { \
    (void)lo, (void)hi;                                                                      \
    OCF_STORE(t, p, k, v);                                                                   \
  }
#else
/* Whole vector k of bfloat16 in one aligned access of its words, converted in registers
   (cl/bf16_words.clh, bf16_words_load; vloadN of a global pointer assumes only element alignment,
   and NVIDIA's OpenCL then loads element by element: 16-bit norm_rows took fp32's time). The
   bfloat16 store rounds as BF16_CVT says (cl/bf16_words.clh: 0 OCF_STOREV's integer arithmetic into
   a private copy, 1 PTX cvt.rn.bf16x2.f32) and stores the words in one access. fp16 as F16_CVT says
   (cl/f16_words.clh): 0 vload_halfN / vstore_halfN_rte of the global pointer (element by element
   on NVIDIA; its words converted in integer arithmetic instead ran slower on the H200, RMSNorm
   8192 x 4096 1457 -> 1158 GB/s), 1 and 2 whole words converted in registers. */
#define LOADW_0(p, k) (((__global const floatV *)(p))[k])
#define LOADW_2(p, k) bf16_words_load((__global const bf16_wordsV *)(p), k)
#define STOREW_0(p, k, v) (((__global floatV *)(p))[k] = (v))
#if F16_CVT == 0
#define LOADW_1(p, k) OCF_LOADV(1, VW, p, k)
#define STOREW_1(p, k, v) OCF_STOREV(1, VW, p, k, v)
#else
#define LOADW_1(p, k) f16_words_load((__global const f16_wordsV *)(p), k)
#define STOREW_1(p, k, v) f16_words_store((__global f16_wordsV *)(p), k, v)
#endif
#define STOREW_2(p, k, v) bf16_words_store((__global bf16_wordsV *)(p), k, v)

#define DEFINE_ACCESS_OF(name, idx, T, t)                                                     \
  floatV load_##name(__global const T *p, const idx k, const idx lo, const idx hi) {          \
    const idx first = k * VW;                                                                 \
    if (EVEN || ((first >= lo) & (first + VW <= hi))) return OCF_CAT(LOADW_, t)(p, k);        \
    floatV v = (floatV)(0.0f);                                                                \
    DEFINE_LOAD_LANES(t)                                                                      \
    return v;                                                                                 \
  }                                                                                           \
  void store_##name(__global T *p, const idx k, const idx lo, const idx hi, const floatV v) { \
    const idx first = k * VW;                                                                 \
    if (EVEN || ((first >= lo) & (first + VW <= hi))) {                                       \
      OCF_CAT(STOREW_, t)(p, k, v);                                                           \
      return;                                                                                 \
    }                                                                                         \
    DEFINE_STORE_LANES(t)                                                                     \
  }
#define IN_SPAN(j) ((first + j >= lo) & (first + j < hi))
#define LOAD_LANE_0(j, s) \
  if (IN_SPAN(j)) v.s = OCF_LOAD(0, p, first + j);
#define LOAD_LANE_1(j, s) \
  if (IN_SPAN(j)) v.s = OCF_LOAD(1, p, first + j);
#define LOAD_LANE_2(j, s) \
  if (IN_SPAN(j)) v.s = OCF_LOAD(2, p, first + j);
#define STORE_LANE_0(j, s) \
  if (IN_SPAN(j)) OCF_STORE(0, p, first + j, v.s);
#define STORE_LANE_1(j, s) \
  if (IN_SPAN(j)) OCF_STORE(1, p, first + j, v.s);
#define STORE_LANE_2(j, s) \
  if (IN_SPAN(j)) OCF_STORE(2, p, first + j, v.s);
#define DEFINE_LOAD_LANES(t) LANES(OCF_CAT(LOAD_LANE_, t))
#define DEFINE_STORE_LANES(t) LANES(OCF_CAT(STORE_LANE_, t))
#endif
#define DEFINE_ACCESS(suffix, T, t)           \
  DEFINE_ACCESS_OF(suffix##_span, uint, T, t) \
  DEFINE_ACCESS_OF(suffix##_from, ulong, T, t)

DEFINE_ACCESS(in, in_real, IN_DTYPE)
DEFINE_ACCESS(out, out_real, OUT_DTYPE)
DEFINE_ACCESS(res, res_real, RES_DTYPE)
DEFINE_ACCESS(w, w_real, W_DTYPE)

/* Vector k of a row of `cols` elements that starts on a vector (lanes past cols read 0). */
floatV load_in(__global const in_real *p, const ulong k, const ulong cols) {
  return load_in_from(p, k, 0, cols);
}
floatV load_res(__global const res_real *p, const ulong k, const ulong cols) {
  return load_res_from(p, k, 0, cols);
}
floatV load_w(__global const w_real *p, const ulong k, const ulong cols) {
  return load_w_from(p, k, 0, cols);
}
void store_out(__global out_real *p, const ulong k, const ulong cols, const floatV v) {
  store_out_from(p, k, 0, cols, v);
}
void store_res(__global res_real *p, const ulong k, const ulong cols, const floatV v) {
  store_res_from(p, k, 0, cols, v);
}

#if SHIFTED
/* v rotated up by s lanes (lane j takes lane (j - s) mod VW), each vector built from single
   lanes: every lane of both rotations below feeds the result, so none becomes an undefined lane
   of an LLVM shuffle (a shifted pair whose unused lanes did crashed Oclgrind 21.10's
   uninitialized-value checker). */
#if VW == 2
#define ROTATE_1(v) ((float2)(v.s1, v.s0))
#elif VW == 4
#define ROTATE_2(v) ((float4)(v.s2, v.s3, v.s0, v.s1))
#define ROTATE_1(v) ((float4)(v.s3, v.s0, v.s1, v.s2))
#elif VW == 8
#define ROTATE_4(v) ((float8)(v.s4, v.s5, v.s6, v.s7, v.s0, v.s1, v.s2, v.s3))
#define ROTATE_2(v) ((float8)(v.s6, v.s7, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5))
#define ROTATE_1(v) ((float8)(v.s7, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6))
#else
#define ROTATE_8(v)                                                                              \
  ((float16)(v.s8, v.s9, v.sa, v.sb, v.sc, v.sd, v.se, v.sf, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, \
             v.s6, v.s7))
#define ROTATE_4(v)                                                                              \
  ((float16)(v.sc, v.sd, v.se, v.sf, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7, v.s8, v.s9, \
             v.sa, v.sb))
#define ROTATE_2(v)                                                                              \
  ((float16)(v.se, v.sf, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7, v.s8, v.s9, v.sa, v.sb, \
             v.sc, v.sd))
#define ROTATE_1(v)                                                                              \
  ((float16)(v.sf, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7, v.s8, v.s9, v.sa, v.sb, v.sc, \
             v.sd, v.se))
#endif

/* The weights (biases) of the columns that vector k of a row `lead` elements into its first
   vector holds: lane j is column k * VW + j - lead, from the weight's own aligned vectors k - 1
   and k (prev, cur): both rotated up by lead lanes, a power of two at a time, then lanes below
   lead from prev, the others from cur. Lanes outside the row (columns < 0 or >= cols) read 0
   or another lane's weight, and are never stored. */
floatV load_w_shifted(__global const w_real *w, const uint k, const uint lead, const uint cols) {
  floatV cur = load_w_span(w, k, 0, cols);
  if (lead == 0) return cur;
  floatV prev = k > 0 ? load_w_span(w, k - 1, 0, cols) : (floatV)(0.0f);
#if VW == 16
  if (lead & 8) cur = ROTATE_8(cur), prev = ROTATE_8(prev);
#endif
#if VW >= 8
  if (lead & 4) cur = ROTATE_4(cur), prev = ROTATE_4(prev);
#endif
#if VW >= 4
  if (lead & 2) cur = ROTATE_2(cur), prev = ROTATE_2(prev);
#endif
  if (lead & 1) cur = ROTATE_1(cur), prev = ROTATE_1(prev);
  return select(cur, prev, LANE_IDS < (intV)((int)lead));
}
#endif

/* x rounded to IEEE binary16 and back, as vstore_half_rte and vload_half would give it, in
   float arithmetic (a half variable needs cl_khr_fp16): to nearest even on the grid 2^q of x's
   binade, q = exponent - 10 (2^-24 below 2^-14: subnormals), an infinity from 65520 up, a NaN
   kept. The powers of two are made from their bits (q + 127 within the normal range). */
float round_f16(const float x) {
  const int q = max((int)((as_uint(x) >> 23) & 0xffu) - 137, -24);
  const float r = rint(x * as_float((uint)(127 - q) << 23)) * as_float((uint)(127 + q) << 23);
  return fabs(x) >= 65520.0f ? copysign(INFINITY, x) : r;
}

/* x rounded to the residual's storage type and back (x' is what that type holds). */
float round_res1(const float x) {
#if RES_DTYPE == 0
  return x;
#elif RES_DTYPE == 1
  return round_f16(x);
#else
  return OCF_BF16_TO_FLOAT(ocf_float_to_bf16(x));
#endif
}

/* The same, lane by lane. */
floatV round_res(const floatV v) {
#if RES_DTYPE == 0
  return v;
#elif VW == 1
  return round_res1(v);
#elif RES_DTYPE == 1
  const intV q =
      max(OCF_CAT(as_int, VW)((OCF_CAT(as_uint, VW)(v) >> 23) & 0xffu) - 137, (intV)(-24));
  const floatV r =
      rint(v * OCF_CAT(as_float, VW)((127 - q) << 23)) * OCF_CAT(as_float, VW)((127 + q) << 23);
  return select(r, copysign((floatV)(INFINITY), v), fabs(v) >= (floatV)(65520.0f));
#else
  const uintV u = OCF_CAT(as_uint, VW)(v);
  const uintV rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uintV quiet = (u >> 16) | 0x40u;
  const uintV bits = select(rounded, quiet, OCF_CAT(as_uint, VW)(isnan(v)));
  return OCF_CAT(as_float, VW)(bits << 16);
#endif
}

/* ---- a row as the kernels see it ---- */

typedef struct row_ptrs {
  __global const in_real *in;
  __global out_real *out;
  __global const res_real *res;
  __global res_real *res_out;
  uint lead; /* SHIFTED: the row's elements are [lead, lead + cols) of the pointers; else 0 */
} row_ptrs;

/* The pointers of row r, with SHIFTED those of the vector its elements start in. (Filled through a
   pointer: Oclgrind 21.10's uninitialized-value checker crashes on structs passed by value.) */
void row_at(row_ptrs *p, const ulong r, __global const in_real *in, const ulong in_off,
            const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,
            __global const res_real *res, const ulong res_off, const ulong res_ld,
            __global res_real *res_out, const ulong res_out_off, const ulong res_out_ld) {
#if SHIFTED
  const uint lead = (uint)((in_off + r * in_ld) % VW);
#else
  const uint lead = 0;
#endif
  p->lead = lead;
  p->in = in + in_off + r * in_ld - lead;
  p->out = out + out_off + r * out_ld - lead;
#if HAS_RES
  p->res = res + res_off + r * res_ld - lead;
#else
  (void)res_off, (void)res_ld;
  p->res = res;
#endif
#if HAS_RES_OUT
  p->res_out = res_out + res_out_off + r * res_out_ld - lead;
#else
  (void)res_out_off, (void)res_out_ld;
  p->res_out = res_out;
#endif
}

/* Vector k of x (the residual added and rounded), lanes outside the row's elements [lo, hi)
   0; with `write_x`, x' is stored to res_out. load_x_span in 32-bit indices (norm_rows),
   load_x_from in 64. */
#if HAS_RES && HAS_RES_OUT
#define STORE_X(name, p, k, lo, hi, x) \
  if (write_x) OCF_CAT(store_res_, name)(p->res_out, k, lo, hi, x);
#else
#define STORE_X(name, p, k, lo, hi, x)
#endif
#if HAS_RES
#define ADD_RES(name, p, k, lo, hi, x)                            \
  x = round_res(x + OCF_CAT(load_res_, name)(p->res, k, lo, hi)); \
  STORE_X(name, p, k, lo, hi, x)
#else
#define ADD_RES(name, p, k, lo, hi, x)
#endif
#define DEFINE_LOAD_X(name, idx)                                                            \
  floatV OCF_CAT(load_x_, name)(const row_ptrs *p, const idx k, const idx lo, const idx hi, \
                                const int write_x) {                                        \
    floatV x = OCF_CAT(load_in_, name)(p->in, k, lo, hi);                                   \
    ADD_RES(name, p, k, lo, hi, x)                                                          \
    (void)write_x;                                                                          \
    return x;                                                                               \
  }
DEFINE_LOAD_X(span, uint)
DEFINE_LOAD_X(from, ulong)

/* Vector k of x of a row of `cols` elements that starts on a vector. */
floatV load_x(const row_ptrs *p, const ulong k, const ulong cols, const int write_x) {
  return load_x_from(p, k, 0, cols, write_x);
}

/* Element c of row x, scalar (the residual added and rounded). */
float load_x1(const row_ptrs *p, const ulong c) {
  float x = OCF_LOAD(IN_DTYPE, p->in, c);
#if HAS_RES
  x = round_res1(x + OCF_LOAD(RES_DTYPE, p->res, c));
#endif
  return x;
}

/* Element 0 of row x: the shift of LayerNorm's statistics (0 for RMSNorm). */
float row_shift(const row_ptrs *p) {
#if RMS
  (void)p;
  return 0.0f;
#else
  return load_x1(p, p->lead);
#endif
}

/* rstd of a row from its variance (mean square): NaN when that is not finite. */
float rstd_of(const float var, const float eps) {
  return isfinite(var) ? rsqrt(var + eps) : NAN;
}

/* The weight or bias vector of a row's vector k: SHIFTED, realigned to the row's lead. */
#if SHIFTED
#define ROW_W(w, k, lead, cols) load_w_shifted(w, (uint)(k), lead, (uint)(cols))
#else
#define ROW_W(w, k, lead, cols) load_w(w, k, cols)
#endif

/* y of the shifted values z of vector k of a row `lead` elements into its first vector (0
   unless SHIFTED): (z - m) * rstd * weight + bias. */
floatV output_of(const floatV z, const float m, const float r, const ulong k, const uint lead,
                 const ulong cols, __global const w_real *weight, __global const w_real *bias) {
  floatV y = (z - m) * r;
#if HAS_WEIGHT
  y = y * ROW_W(weight, k, lead, cols);
#else
  (void)weight;
#endif
#if HAS_BIAS
  y = y + ROW_W(bias, k, lead, cols);
#else
  (void)bias;
#endif
  (void)k, (void)lead, (void)cols;
  return y;
}

/* The row's statistics outputs (one work-item calls it). */
void write_stats(const ulong r, const float shift, const float m, const float var, const float rs,
                 __global float *mean, const ulong mean_off, __global float *rstd,
                 const ulong rstd_off) {
#if HAS_MEAN
  mean[mean_off + r] = isfinite(var) ? shift + m : NAN;
#else
  (void)mean, (void)mean_off, (void)shift, (void)m, (void)var;
#endif
#if HAS_RSTD
  rstd[rstd_off + r] = rs;
#else
  (void)rstd, (void)rstd_off, (void)rs, (void)r;
#endif
}

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
  barrier(CLK_LOCAL_MEM_FENCE);
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
  barrier(CLK_LOCAL_MEM_FENCE);
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
  const ulong nv = (cols + VW - 1) / VW;
  (void)out, (void)out_off, (void)out_ld, (void)eps, (void)weight, (void)weight_off, (void)bias;
  (void)bias_off, (void)mean, (void)mean_off, (void)rstd, (void)rstd_off;
  for (ulong g = get_group_id(0); g < rows * parts; g += get_num_groups(0)) {
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    const ulong limit = min(nv, first + part_vecs);
    row_ptrs p;
    ROW_AT(p, r);
    const float shift = row_shift(&p);
    float n = 0.0f, m = 0.0f, q = 0.0f;
    for (ulong base = first + get_local_id(0); base < limit; base += (ulong)WG * UNROLL) {
#pragma unroll
      for (uint u = 0; u < UNROLL; u++) {
        const ulong k = base + (ulong)u * WG;
        if (k < limit) {
          /* The vector's own count, mean and M2 (two passes over its lanes), then merged. */
          const floatV z = tail_zero(load_x(&p, k, cols, 0) - shift, k, cols);
          const float count = (float)min((ulong)VW, cols - k * VW);
#if RMS
          chan_merge(&n, &m, &q, count, 0.0f, HSUM(z * z));
#else
          const float vm = HSUM(z) / count;
          const floatV d = tail_zero(z - vm, k, cols);
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
  const ulong nv = (cols + VW - 1) / VW;
  const ulong total = rows * parts;
  for (ulong h = get_group_id(0); h < total; h += get_num_groups(0)) {
    const ulong g = total - 1 - h; /* reverse order: the stats pass's last reads may be cached */
    const ulong r = g / parts, first = (g - r * parts) * part_vecs;
    const ulong limit = min(nv, first + part_vecs);
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
    for (ulong k = first + get_local_id(0); k < limit; k += WG) {
      const floatV z = load_x(&p, k, cols, 1) - shift;
      store_out(p.out, k, cols, output_of(z, m, rs, k, 0, cols, W_PTR, B_PTR));
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
