/*
 * attention_mma_nv.cl: fused attention on NVIDIA's matrix units (FlashAttention-2's scheme),
 * out = softmax(scale * Q K^T + mask) V with the layout, masks and rules of cl/attention.cl
 * (attention_common.clh holds what they share). Q, K and V of one 16-bit type (MMA_DTYPE), or
 * fp32 in TF32 parts (below), out of any storage type; scores, softmax and sums fp32. The
 * matrix-unit primitives (mma.sync m16n8k16, ldmatrix, quad shuffles, cp.async) are those of
 * attention_mma_prims.clh: inline PTX on NVIDIA (compute capability 8.0 or higher), an exact
 * emulation of their fragments elsewhere (MMA_EMULATE 1: PoCL, Oclgrind; slow, for the tests).
 *
 * One workgroup per (batch, head, block of BQ = ROWS RW query rows; RW = WARPS without key
 * warps, below); row warp w owns the ROWS rows ROWS w .. of the block, RG = ROWS / 16 row groups of
 * 16, lane (g = lane >> 2, t = lane & 3) rows g and g + 8 of each (with RG 2 every K and V fragment
 * serves both groups: half the ldmatrix traffic a flop):
 *
 *   Q fragments   qf[RG][D/16][4]: the A operand of S = Q K^T, in registers loaded once
 *                 (Q_LOCAL 0), or by ldmatrix from a Q tile in local memory at every k step
 *                 (Q_LOCAL 1: fewer registers)
 *   per tile of BK keys (j0 .. j0 + BK):
 *     S[RG][BK/8][4] = Q K^T      mma per (k step of D, pair of key tiles); K's B fragments by
 *                                 ldmatrix from the K tile (rows = keys, d contiguous)
 *     mask, scale (times log2 e: m and S in base-2 units, so that each weight is one ex2 of the
 *     special function unit); row max over the lane's S, then quad shuffles (xor 1, 2): the 4
 *     lanes of a row agree on it; rescale (m, l, O) where it grew; P = 2^(S - m) in the S
 *     registers
 *     P as 16-bit A fragments       the C-fragment-to-A-fragment identity: S tiles 2kk, 2kk + 1
 *                                 (c0 c1, c2 c3 each) are a0, a1, a2, a3 of P's k step kk
 *     O[RG][D/8][4] += P V        V's B fragments by ldmatrix .trans from the V tile
 *   end: l summed over the quad; out = O / l, lse = (m + log2 l) ln 2.
 *
 * K and V tiles go to local memory in STAGES stages: while the warps work on tile i, the copies
 * of tiles up to i + STAGES - 1 (cp.async of 16 bytes where KV_LOAD is 16, element loads
 * otherwise) fill the others. A tile is BK rows of KV_CH 16-byte chunks (D / 8 of them hold
 * data), chunk c of row r at chunk r * KV_CH + (c ^ f(r)), cl/matmul_mma_nv.cl's XOR swizzle,
 * so that the 8 rows of one ldmatrix matrix fall in 8 distinct groups of banks.
 *
 *   local:  [ stage 0: K tile | V tile ][ stage 1: K tile | V tile ] ...   (STAGES 2 BK KV_CH
 *           16 bytes), then with Q_LOCAL the Q tile (BQ rows of KV_CH chunks, the same swizzle)
 *           emulation only: WARPS x MMA_EMU_WORDS words
 *
 * Masks keep a prefix of each row's keys (attention_common.clh): a block walks the tiles up to
 * its last row's kept length; keys past a row's own are -inf in S and 0 in P. Keys past the
 * block's length are copied as zeros (nothing is read), so a masked key never meets garbage.
 * The control flow around every primitive is uniform over the workgroup (the emulation needs it).
 *
 * fp32 Q, K and V (MMA_DTYPE 0, with ocf_attention_options.precision TF32 or 3XTF32:
 * PRECISION 1 or 2) take the same scheme on m16n8k8 TF32 products (mma_1688): tiles hold fp32
 * rows of D + 4 words (no swizzle: with the row pitch 4 or 20 words mod 32, the lanes' scalar
 * fragment reads, 8 rows by 4 columns or 4 row pairs by 8 columns, meet 32 distinct banks),
 * every element split into its TF32 parts (mma_tf32_big, mma_tf32_small) where it is read, Q
 * once (split into the registers, or into a big and a small Q tile), and each product one to
 * three MMAs (mma_tf32_products). P V: the lane holds S tile n's keys 2t and 2t + 1 where an
 * m16n8k8 A fragment holds k t and t + 4, so P's k step n takes key 2t as k t and 2t + 1 as
 * k t + 4, and V's B fragment reads the same keys (rows 2t, 2t + 1 of the 8): a sum over keys
 * in any order.
 *
 * attention_mma_split (decoding with few heads): the same, each row's keys cut into ranges of
 * split_keys, one workgroup per (batch, head, block, range), each range's (m, l, O) to scratch;
 * attention_mma_join (merge_ranges) then writes out and lse.
 *
 * Key warps (KW > 1, decoding: a block's few rows): the workgroup's warps are RW = WARPS / KW
 * row warps times KW key warps; key warp kw of a row warp takes keys kw WK .. of every tile (WK
 * = BK / KW) for the row warp's rows with a running (m, l, O) of its own, and after the block's
 * keys the key warps' states are joined through local memory (combine_key_warps; the stages are
 * free then) into key warp 0's, which writes them. A block of a few rows gets KW times the warps
 * (and the copies in flight) on the same keys; a decoding split that aims at fewer workgroups
 * (mma.pack_fill) then has as many warps in fewer ranges to join.
 *
 * Grouped heads packed (PACK 1, decoding with grouped-query heads): a unit is not one query head
 * but the `group` query heads of one key head, their rows one after another (unit row p is row
 * p % lq of the unit's query head p / lq), so that a few query rows a head fill one block's m16
 * row groups together and each K and V tile is read once a key head, not once a query head. The
 * flat rows of attention_common.clh, (batch h + head) lq + i, are the unit's (batch units + u)
 * rows + p in both forms, so the scratch, the joins and lse are the same.
 */

/* ---- tunables and the call's facts, passed by the host (src/plan/plan_attention.c) ---- */

/* Warps a workgroup: ROWS query rows each. */
#ifndef WARPS
#error "WARPS: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Query rows a warp: 16 (one m16 row group), or 32 (two row groups that share every K and V
   fragment a ldmatrix brings). */
#ifndef ROWS
#error "ROWS: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Q's A fragments: 0 held in registers from the block's start, 1 read by ldmatrix from a Q tile
   in local memory at every k step of every K tile (fewer registers). */
#ifndef Q_LOCAL
#error "Q_LOCAL: the host passes every define (src/plan/plan_attention.c)"
#endif
/* K and V tiles in flight: 2 or 3 stages of local memory. */
#ifndef STAGES
#error "STAGES: the host passes every define (src/plan/plan_attention.c)"
#endif
/* The lane's ldmatrix addresses: 0 as the compiler likes (which holds each tile's few dozen
   offsets in registers across the tile loop), 1 computed again at every tile from a lane number
   the compiler cannot hoist (mma_opaque): fewer registers for a few integer operations a tile. */
#ifndef REMAT
#error "REMAT: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Keys a tile: a multiple of 16. */
#ifndef BK
#error "BK: the host passes every define (src/plan/plan_attention.c)"
#endif
/* How K and V reach local memory: 16 cp.async of 16 bytes (K's and V's offsets and strides
   multiples of 8 elements, d too), 0 element loads (any layout). */
#ifndef KV_LOAD
#error "KV_LOAD: the host passes every define (src/plan/plan_attention.c)"
#endif
#if BK % 16 || D % 16 || D > 128 || WARPS < 1 || WARPS > 8
#error "BK and D must be multiples of 16, D at most 128, WARPS 1 to 8"
#endif
#if (ROWS != 16 && ROWS != 32) || (STAGES != 2 && STAGES != 3) || \
    (Q_LOCAL != 0 && Q_LOCAL != 1) || (REMAT != 0 && REMAT != 1) || (PACK != 0 && PACK != 1)
#error "ROWS must be 16 or 32, STAGES 2 or 3, Q_LOCAL, REMAT and PACK 0 or 1"
#endif
#if Q_DTYPE != MMA_DTYPE || K_DTYPE != MMA_DTYPE || V_DTYPE != MMA_DTYPE
#error "Q, K and V must be stored as MMA_DTYPE"
#endif
/* fp32 inputs' products (MMA_DTYPE 0): 1 TF32, 2 3XTF32 (ocf_precision); the host passes 0 for
   16-bit inputs, whose products are exact. */
#ifndef PRECISION
#error "PRECISION: the host passes every define (src/plan/plan_attention.c)"
#endif
/* attention_mma_split's join: 0 attention_mma_join after it; 1 (mem_fence, CPUs) or 2 (PTX
   fences, NVIDIA) its last range of a block of rows joins the block (attention_common.clh). */
#ifndef JOIN
#error "JOIN: the host passes every define (src/plan/plan_attention.c)"
#endif
/* A unit's heads: 0 one query head, 1 the query heads of one key head (grouped heads packed). */
#ifndef PACK
#error "PACK: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Key warps: warps that share a block's rows and split each tile's keys (1: every warp its own
   rows). */
#ifndef KW
#error "KW: the host passes every define (src/plan/plan_attention.c)"
#endif
#if KW < 1 || WARPS % KW || BK % (16 * KW)
#error "KW must divide WARPS, and BK / KW be a multiple of 16"
#endif

/* ---- derived ---- */

#define RG (ROWS / 16)  /* m16 row groups a warp */
#define RW (WARPS / KW) /* row warps */
#define BQ (ROWS * RW)  /* query rows a workgroup */
#define THREADS (32 * WARPS)
#define OT (D / 8)   /* 8-column tiles of out a warp */
#define WK (BK / KW) /* keys of a tile a warp takes */
#define ST (WK / 8)  /* 8-key tiles of S a warp */
#if MMA_DTYPE == 0
#define ELEM 4                          /* bytes an element of Q, K and V */
#define KSTEPS (D / 8)                  /* k steps of S = Q K^T (m16n8k8) */
#define DCH (D / 4)                     /* chunks of a tile row that hold data */
#define KV_CH (DCH + 1)                 /* chunks a tile row: D + 4 words */
#define KV_W (4 * KV_CH)                /* words a tile row */
#define QPARTS (PRECISION == 2 ? 2 : 1) /* Q's TF32 parts: big (and small) */
typedef uint mma_elem;
#else
#define ELEM 2
#define KSTEPS (D / 16) /* k steps of S = Q K^T, and pairs of out's 8-column tiles */
#define DCH (D / 8)
#define KV_CH (DCH <= 2 ? 2 : DCH <= 4 ? 4 : (DCH + 7) / 8 * 8)
#define QPARTS 1
typedef ushort mma_elem;
#endif
#define EPC (16 / ELEM) /* elements a 16-byte chunk */
#define TILE_CHUNKS (BK * KV_CH)
#define KV_CHUNKS (STAGES * 2 * TILE_CHUNKS)         /* the stages of K and V tiles */
#define Q_CHUNKS (Q_LOCAL ? QPARTS * BQ * KV_CH : 0) /* the Q tile(s) (Q_LOCAL 1), after them */
#define LANE_STATE (4 * RG + 4 * RG * OT) /* floats of a lane's (m, l, O): combine_key_warps */
#if KW > 1 && (KW - 1) * RW * 32 * LANE_STATE * 4 > KV_CHUNKS * 16
#error "the key warps' states must fit the stages' local memory"
#endif
#if MMA_EMULATE
#define MMA_UNROLL
#else
#define MMA_UNROLL _Pragma("unroll")
#endif

/* Byte offset, within a tile, of element e of row r: fp32 rows of KV_W words; 16-bit ones
   cl/matmul_mma_nv.cl's tile_byte for KV_CH chunks a row. */
MMA_INLINE uint kv_byte(const uint r, const uint e) {
#if MMA_DTYPE == 0
  return (r * KV_W + e) * 4u;
#else
  const uint c = e / 8;
  uint f = 0;
  if (KV_CH >= 8)
    f = ((r & 3u) << 1) | ((r >> 2) & 1u);
  else if (KV_CH == 4)
    f = (r >> 1) & 3u;
  else
    f = (r >> 2) & 1u;
  return (r * KV_CH + (c ^ f)) * 16u + (e % 8) * 2u;
#endif
}

/* The lane's ldmatrix row address for K's B fragments of the warp's key tiles 2p, 2p + 1 (tile
   rows kofs + 16 p ..) at k step ks: matrix i = lane >> 3 is (key tile 2p + (i >> 1), d chunk
   2 ks + (i & 1)); its registers are b0 b1 of tile 2p, then of 2p + 1. (kofs, a multiple of
   16, keeps the swizzle's rows mod 8.) */
MMA_INLINE uint k_frag_byte(const uint lane, const uint kofs, const uint p, const uint ks) {
  return kv_byte(kofs + 16 * p + ((lane >> 4) << 3) + (lane & 7u),
                 (2 * ks + ((lane >> 3) & 1u)) * 8);
}

/* The lane's ldmatrix .trans row address for V's B fragments of out tiles 2p, 2p + 1 at P's k
   step kk: matrix i is (keys kofs + 16 kk + 8 (i & 1) .., columns 8 (2p + (i >> 1)) ..). */
MMA_INLINE uint v_frag_byte(const uint lane, const uint kofs, const uint kk, const uint p) {
  return kv_byte(kofs + 16 * kk + (((lane >> 3) & 1u) << 3) + (lane & 7u),
                 16 * p + ((lane >> 4) << 3));
}

/* The lane's ldmatrix row address for Q's A fragments of the 16 rows r0 .. of the Q tile at k
   step ks: matrix i is (rows r0 + 8 (i & 1) .., d chunk 2 ks + (i >> 1)), so that its registers
   are a0 .. a3. */
MMA_INLINE uint q_frag_byte(const uint lane, const uint r0, const uint ks) {
  return kv_byte(r0 + (((lane >> 3) & 1u) << 3) + (lane & 7u), (2 * ks + (lane >> 4)) * 8);
}

/* Element e (0 .. EPC - 1) of a 16-byte chunk's words w: a word, or a 16-bit half. */
MMA_INLINE void chunk_put(uint *w, const uint e, const uint x) {
#if MMA_DTYPE == 0
  w[e] = x;
#else
  w[e / 2] |= x << (16 * (e % 2));
#endif
}

/* The element offset of unit row p from its unit's first head in a tensor of head stride sh and
   row stride sr (PACK: head p / lq of the unit's, row p % lq; else row p). */
MMA_INLINE ulong unit_row_offset(const ulong p, const ulong lq, const ulong sh, const ulong sr) {
#if PACK
  ulong i;
  const ulong head = ocf_divmod(p, lq, &i);
  return head * sh + i * sr;
#else
  (void)lq, (void)sh;
  return p * sr;
#endif
}

/* The query row (within its head) of unit row p. (Divisions by ocf_divmod throughout: a / and %
   of the same operands, LLVM pairs into a `freeze` that Oclgrind cannot run.) */
MMA_INLINE ulong unit_row_query(const ulong p, const ulong lq) {
#if PACK
  ulong i;
  ocf_divmod(p, lq, &i);
  return i;
#else
  (void)lq;
  return p;
#endif
}

/* The last query row of unit rows row0 .. last that keeps the most keys (masks keep a prefix that
   grows with the row): a packed block that reaches into the next head holds some head's row
   lq - 1. */
MMA_INLINE ulong block_last_query(const ulong row0, const ulong last, const ulong lq) {
#if PACK
  ulong i;
  return ocf_divmod(last, lq, &i) == row0 / lq ? i : lq - 1;
#else
  (void)row0, (void)lq;
  return last;
#endif
}

/* The offsets of the lane's unit rows g + 8h of each row group rg of the warp's rows r0 ..
   (index 2 rg + h), from Q's `base`; -1 past the unit's rows. */
MMA_INLINE void lane_q_rows(const ulong base, const ulong sh, const ulong sr, const ulong r0,
                            const ulong lq, const ulong rows, const uint lane, long *at) {
  MMA_UNROLL
  for (uint r = 0; r < 2 * RG; r++) {
    const ulong row = r0 + 16 * (r >> 1) + (lane >> 2) + 8 * (r & 1);
    at[r] = row < rows ? (long)(base + unit_row_offset(row, lq, sh, sr)) : -1;
  }
}

/* Rows j0 .. j0 + BK of a K or V (elements from `base`, rows `sr` apart) into a tile: rows at
   or past `limit`, and columns at or past d, as zeros. */
MMA_INLINE void load_tile(__local uint4 *tile, __global const uchar *p, const ulong base,
                          const ulong sr, const ulong j0, const ulong limit, const ulong d,
                          const uint tid) {
  for (uint u = tid; u < BK * DCH; u += THREADS) {
    const uint r = u / DCH, c = u - r * DCH;
    const ulong j = j0 + r;
    const uint valid = j < limit && EPC * c < d ? (uint)min((ulong)EPC, d - EPC * c) : 0;
    __global const uchar *src = p + (valid ? (base + j * sr + EPC * c) * ELEM : 0);
#if KV_LOAD == 16
    mma_cp_async16(tile, kv_byte(r, EPC * c), src, ELEM * valid);
#else
    uint w[4] = {0, 0, 0, 0};
    for (uint e = 0; e < EPC; e++)
      if (e < valid) chunk_put(w, e, (uint)((__global const mma_elem *)src)[e]);
    tile[kv_byte(r, EPC * c) / 16] = (uint4)(w[0], w[1], w[2], w[3]);
#endif
  }
}

#if Q_LOCAL && MMA_DTYPE == 0
/* Q_LOCAL 1, fp32: the block's BQ unit rows (row0 ..) as their TF32 parts, big in the first Q
   tile and (3XTF32) small in the second, by element loads (Q's layout is any), zeros outside
   rows x d. Read after the first K tile's barrier. */
MMA_INLINE void load_q_tile(__local uint4 *qt, __global const uint *q, const ulong base,
                            const ulong sh, const ulong sr, const ulong row0, const ulong lq,
                            const ulong rows, const ulong d, const uint tid) {
  __local uint *words = (__local uint *)qt;
  for (uint u = tid; u < BQ * D; u += THREADS) {
    const uint r = u / D, c = u - r * D;
    const ulong row = row0 + r;
    const float x =
        row < rows && c < d ? as_float(q[base + unit_row_offset(row, lq, sh, sr) + c]) : 0.0f;
    const uint big = mma_tf32_big(x);
    words[r * KV_W + c] = big;
#if PRECISION == 2
    words[BQ * KV_W + r * KV_W + c] = mma_tf32_small(x, big);
#endif
  }
}
#define Q_PARAM __local const uint4 *qt, const uint qrow
#define Q_ARGS(qf, qt, qrow) qt, qrow
#elif Q_LOCAL
/* Q_LOCAL 1: the block's BQ unit rows (row0 ..) into the Q tile by element loads (Q's layout
   is any), zeros outside rows x d. Read after the first K tile's barrier. */
MMA_INLINE void load_q_tile(__local uint4 *qt, __global const ushort *q, const ulong base,
                            const ulong sh, const ulong sr, const ulong row0, const ulong lq,
                            const ulong rows, const ulong d, const uint tid) {
  for (uint u = tid; u < BQ * DCH; u += THREADS) {
    const uint r = u / DCH, c = u - r * DCH;
    const ulong row = row0 + r;
    const ulong at = row < rows ? base + unit_row_offset(row, lq, sh, sr) : 0;
    uint w[4] = {0, 0, 0, 0};
    for (uint e = 0; e < 8; e++)
      if (row < rows && 8 * c + e < d) w[e / 2] |= (uint)q[at + 8 * c + e] << (16 * (e % 2));
    qt[kv_byte(r, 8 * c) / 16] = (uint4)(w[0], w[1], w[2], w[3]);
  }
}
/* Where tile_step finds Q: the Q tile and the warp's first row in it. */
#define Q_PARAM __local const uint4 *qt, const uint qrow
#define Q_ARGS(qf, qt, qrow) qt, qrow
#elif MMA_DTYPE == 0
/* fp32: the TF32 parts of the A fragments of the warp's RG x 16 unit rows (r0 ..), part 0 big,
   1 small (3XTF32), zeros outside rows x d. */
MMA_INLINE void load_q(__global const uint *q, const ulong base, const ulong sh, const ulong sr,
                       const ulong r0, const ulong lq, const ulong rows, const ulong d,
                       const uint lane, uint qf[RG][KSTEPS][QPARTS][4]) {
  long at[2 * RG];
  lane_q_rows(base, sh, sr, r0, lq, rows, lane, at);
  MMA_UNROLL
  for (uint g = 0; g < RG; g++)
    MMA_UNROLL
  for (uint ks = 0; ks < KSTEPS; ks++)
    MMA_UNROLL
  for (uint i = 0; i < 4; i++) {
    const long row_at = at[2 * g + (i & 1)];
    const ulong col = 8 * ks + (lane & 3) + 4 * (i >> 1);
    const float x = row_at >= 0 && col < d ? as_float(q[(ulong)row_at + col]) : 0.0f;
    qf[g][ks][0][i] = mma_tf32_big(x);
#if PRECISION == 2
    qf[g][ks][1][i] = mma_tf32_small(x, qf[g][ks][0][i]);
#endif
  }
}
#define Q_PARAM const uint qf[RG][KSTEPS][QPARTS][4]
#define Q_ARGS(qf, qt, qrow) qf
#else
/* The A fragments of the warp's RG x 16 unit rows (r0 ..), zeros outside rows x d. */
MMA_INLINE void load_q(__global const ushort *q, const ulong base, const ulong sh, const ulong sr,
                       const ulong r0, const ulong lq, const ulong rows, const ulong d,
                       const uint lane, uint qf[RG][KSTEPS][4]) {
  long at[2 * RG];
  lane_q_rows(base, sh, sr, r0, lq, rows, lane, at);
  MMA_UNROLL
  for (uint g = 0; g < RG; g++)
    MMA_UNROLL
  for (uint ks = 0; ks < KSTEPS; ks++)
    MMA_UNROLL
  for (uint i = 0; i < 4; i++) {
    const long row_at = at[2 * g + (i & 1)];
    const ulong col = 16 * ks + 2 * (lane & 3) + 8 * (i >> 1);
    uint x = 0;
    if (row_at >= 0) {
      if (col < d) x = q[(ulong)row_at + col];
      if (col + 1 < d) x |= (uint)q[(ulong)row_at + col + 1] << 16;
    }
    qf[g][ks][i] = x;
  }
}
#define Q_PARAM const uint qf[RG][KSTEPS][4]
#define Q_ARGS(qf, qt, qrow) qf
#endif

/* 2^(x - m) for a row's running max m in base-2 units: 0 for x = -inf (a masked key), and for a
   row whose keys so far are all masked (m = -inf) 2^(x - 0), so that -inf - -inf never occurs. */
MMA_INLINE float weight2(const float x, const float m) {
  return mma_exp2(x - (m == -INFINITY ? 0.0f : m));
}

/* The online softmax of one tile's scores s (C fragments; the lane's rows g + 8h of each row
   group rg, index 2 rg + h of kept, m and l): scale and mask, the rows' max over their quad, the
   rescale of (m, l, O) where it grew, then the weights 2^(s - m) into s, summed into l. j0 is the
   tile's first key, scale2 the scale times log2 e (m in the same base-2 units). */
MMA_INLINE void online_softmax(float s[RG][ST][4], const ulong j0, const ulong *kept,
                               const float scale2, float *m, float *l, float o[RG][OT][4],
                               const mma_lane w) {
  /* Scale and mask (masked keys -inf; a tile every key of which the lane's rows keep skips the
     compares); the tile's max of each of the lane's rows, over its quad. */
  float mx[2 * RG];
  int whole = 1;
  MMA_UNROLL
  for (uint r = 0; r < 2 * RG; r++) {
    mx[r] = -INFINITY;
    whole = whole && j0 + WK <= kept[r];
  }
  if (whole) {
    MMA_UNROLL
    for (uint g = 0; g < RG; g++)
      MMA_UNROLL
    for (uint n = 0; n < ST; n++)
      MMA_UNROLL
    for (uint q = 0; q < 4; q++) {
      s[g][n][q] *= scale2;
      mx[2 * g + (q >> 1)] = fmax(mx[2 * g + (q >> 1)], s[g][n][q]);
    }
  } else {
    MMA_UNROLL
    for (uint g = 0; g < RG; g++)
      MMA_UNROLL
    for (uint n = 0; n < ST; n++)
      MMA_UNROLL
    for (uint q = 0; q < 4; q++) {
      const ulong key = j0 + 8 * n + 2 * (w.lane & 3) + (q & 1);
      const uint r = 2 * g + (q >> 1);
      s[g][n][q] = key < kept[r] ? scale2 * s[g][n][q] : -INFINITY;
      mx[r] = fmax(mx[r], s[g][n][q]);
    }
  }
  MMA_UNROLL
  for (uint r = 0; r < 2 * RG; r++) {
    mx[r] = fmax(mx[r], mma_shfl_xor(mx[r], 1, w));
    mx[r] = fmax(mx[r], mma_shfl_xor(mx[r], 2, w));
    const float nm = fmax(m[r], mx[r]), f = weight2(m[r], nm);
    l[r] *= f;
    MMA_UNROLL
    for (uint n = 0; n < OT; n++)
      o[r >> 1][n][2 * (r & 1)] *= f, o[r >> 1][n][2 * (r & 1) + 1] *= f;
    m[r] = nm;
  }
  /* The weights, into the S registers (masked keys, -inf, give 0), summed by the lane. */
  MMA_UNROLL
  for (uint g = 0; g < RG; g++)
    MMA_UNROLL
  for (uint n = 0; n < ST; n++)
    MMA_UNROLL
  for (uint q = 0; q < 4; q++) {
    s[g][n][q] = weight2(s[g][n][q], m[2 * g + (q >> 1)]);
    l[2 * g + (q >> 1)] += s[g][n][q];
  }
}

/* A tile's score accumulators, cleared. */
MMA_INLINE void zero_scores(float s[RG][ST][4]) {
  MMA_UNROLL
  for (uint rg = 0; rg < RG; rg++)
    MMA_UNROLL
  for (uint n = 0; n < ST; n++)
    MMA_UNROLL
  for (uint q = 0; q < 4; q++)
    s[rg][n][q] = 0.0f;
}

#if MMA_DTYPE != 0
/* One tile: S = Q K^T, the online softmax of the lane's 2 RG rows (online_softmax), O += P V.
   With two row groups every K and V fragment serves both. */
MMA_INLINE void tile_step(__local const uint4 *kt, __local const uint4 *vt, Q_PARAM, const ulong j0,
                          const uint kofs, const ulong *kept, const float scale2, float *m,
                          float *l, float o[RG][OT][4], const mma_lane w) {
  const uint lane = REMAT ? mma_opaque(w.lane) : w.lane;
  float s[RG][ST][4];
  zero_scores(s);
  MMA_UNROLL
  for (uint ks = 0; ks < KSTEPS; ks++) {
#if Q_LOCAL
    uint qa[RG][4];
    MMA_UNROLL
    for (uint g = 0; g < RG; g++)
      mma_ldsm_x4(qt, q_frag_byte(lane, qrow + 16 * g, ks), qa[g], w);
#define QA(g) qa[g]
#else
#define QA(g) qf[g][ks]
#endif
    MMA_UNROLL
    for (uint p = 0; p < ST / 2; p++) {
      uint kb[4];
      mma_ldsm_x4(kt, k_frag_byte(lane, kofs, p, ks), kb, w);
      MMA_UNROLL
      for (uint g = 0; g < RG; g++) {
        mma_16816(s[g][2 * p], QA(g), kb, w);
        mma_16816(s[g][2 * p + 1], QA(g), kb + 2, w);
      }
    }
#undef QA
  }
  online_softmax(s, j0 + kofs, kept, scale2, m, l, o, w);
  /* O += P V: P's k step kk is S tiles 2kk and 2kk + 1 as 16-bit A fragments. */
  MMA_UNROLL
  for (uint kk = 0; kk < ST / 2; kk++) {
    uint pa[RG][4];
    MMA_UNROLL
    for (uint g = 0; g < RG; g++) {
      pa[g][0] = mma_pack2(s[g][2 * kk][0], s[g][2 * kk][1]);
      pa[g][1] = mma_pack2(s[g][2 * kk][2], s[g][2 * kk][3]);
      pa[g][2] = mma_pack2(s[g][2 * kk + 1][0], s[g][2 * kk + 1][1]);
      pa[g][3] = mma_pack2(s[g][2 * kk + 1][2], s[g][2 * kk + 1][3]);
    }
    MMA_UNROLL
    for (uint p = 0; p < KSTEPS; p++) {
      uint vb[4];
      mma_ldsm_x4_trans(vt, v_frag_byte(lane, kofs, kk, p), vb, w);
      MMA_UNROLL
      for (uint g = 0; g < RG; g++) {
        mma_16816(o[g][2 * p], pa[g], vb, w);
        mma_16816(o[g][2 * p + 1], pa[g], vb + 2, w);
      }
    }
  }
}

#else
/* fp32: the TF32 parts of a B fragment's two elements, words at0 and at1 of a tile. */
MMA_INLINE void b_parts(__local const float *tile, const uint at0, const uint at1, uint *big,
                        uint *small) {
  const float x0 = tile[at0], x1 = tile[at1];
  big[0] = mma_tf32_big(x0), big[1] = mma_tf32_big(x1);
  small[0] = mma_tf32_small(x0, big[0]), small[1] = mma_tf32_small(x1, big[1]);
}

/* fp32 (TF32 parts): as above on m16n8k8 products, the fragments read from the tiles' words and
   split where read (Q's parts ready in the registers or the Q tiles). */
MMA_INLINE void tile_step(__local const uint4 *kt4, __local const uint4 *vt4, Q_PARAM,
                          const ulong j0, const uint kofs, const ulong *kept, const float scale2,
                          float *m, float *l, float o[RG][OT][4], const mma_lane w) {
  __local const float *kt = (__local const float *)kt4, *vt = (__local const float *)vt4;
  const uint lane = REMAT ? mma_opaque(w.lane) : w.lane;
  const uint g = lane >> 2, t = lane & 3;
  float s[RG][ST][4];
  zero_scores(s);
  MMA_UNROLL
  for (uint ks = 0; ks < KSTEPS; ks++) {
#if Q_LOCAL
    __local const uint *qw = (__local const uint *)qt;
    uint qa[RG][QPARTS][4];
    MMA_UNROLL
    for (uint rg = 0; rg < RG; rg++)
      MMA_UNROLL
    for (uint part = 0; part < QPARTS; part++)
      MMA_UNROLL
    for (uint i = 0; i < 4; i++)
      qa[rg][part][i] = qw[part * BQ * KV_W + (qrow + 16 * rg + g + 8 * (i & 1)) * KV_W + 8 * ks +
                           t + 4 * (i >> 1)];
#define QA(rg, part) qa[rg][part]
#else
#define QA(rg, part) qf[rg][ks][part]
#endif
    MMA_UNROLL
    for (uint n = 0; n < ST; n++) {
      /* B (k t and t + 4 of the step, key g of tile n): K's row kofs + 8n + g. */
      const uint at = (kofs + 8 * n + g) * KV_W + 8 * ks + t;
      uint kb[2], ksm[2];
      b_parts(kt, at, at + 4, kb, ksm);
      MMA_UNROLL
      for (uint rg = 0; rg < RG; rg++)
        mma_tf32_products(s[rg][n], QA(rg, 0), QA(rg, QPARTS - 1), kb, ksm, w);
    }
#undef QA
  }
  online_softmax(s, j0 + kofs, kept, scale2, m, l, o, w);
  /* O += P V, P's k step n the keys of S tile n: k t is key 2t (c0, c2), k t + 4 key 2t + 1 (c1,
     c3); V's B fragment: rows kofs + 8n + 2t and + 1, column g of out tile p. */
  MMA_UNROLL
  for (uint n = 0; n < ST; n++) {
    uint pb[RG][4], ps[RG][4];
    MMA_UNROLL
    for (uint rg = 0; rg < RG; rg++)
      MMA_UNROLL
    for (uint i = 0; i < 4; i++) {
      const float x = s[rg][n][(i >> 1) | ((i & 1) << 1)];
      pb[rg][i] = mma_tf32_big(x);
      ps[rg][i] = mma_tf32_small(x, pb[rg][i]);
    }
    MMA_UNROLL
    for (uint p = 0; p < OT; p++) {
      const uint at = (kofs + 8 * n + 2 * t) * KV_W + 8 * p + g;
      uint vb[2], vs[2];
      b_parts(vt, at, at + KV_W, vb, vs);
      MMA_UNROLL
      for (uint rg = 0; rg < RG; rg++)
        mma_tf32_products(o[rg][p], pb[rg], ps[rg], vb, vs, w);
    }
  }
}
#endif

/* Tile t of the keys lo .. hi (keys lo + t BK ..) of K and V into stage t % STAGES when
   t < tiles, then a commit group (empty past the last tile, so that the count of groups in
   flight is the same at every tile). */
MMA_INLINE void kv_fetch(__local uint4 *smem, __global const uchar *kp, const ulong k_base,
                         const ulong k_sr, __global const uchar *vp, const ulong v_base,
                         const ulong v_sr, const ulong lo, const ulong hi, const ulong d,
                         const uint tid, const ulong t, const ulong tiles) {
  if (t < tiles) {
    __local uint4 *stage = smem + (uint)(t % STAGES) * 2 * TILE_CHUNKS;
    load_tile(stage, kp, k_base, k_sr, lo + t * BK, hi, d, tid);
    load_tile(stage + TILE_CHUNKS, vp, v_base, v_sr, lo + t * BK, hi, d, tid);
  }
  mma_cp_async_commit();
}

/* Until tile i's copies (the work-item's own) have landed: STAGES - 1 groups after it. */
MMA_INLINE void kv_wait(void) {
#if STAGES == 2
  mma_cp_async_wait1();
#else
  mma_cp_async_wait2();
#endif
}

#if KW > 1
/* The key warps' states joined into key warp 0's: key warp kw > 0 of row warp rw writes its
   lanes' (m, l, O) to slot (kw - 1) RW + rw of the stages' local memory (lane-minor: a warp's
   stores and loads are 32 consecutive words), then key warp 0 joins each into its own (the
   larger m, each state weighed by 2^(m - max) as the online softmax rescales). The same lane of
   every key warp holds the same rows and columns, so no fragment moves between lanes; l stays
   the lane's part (summed over the quad after). The stages are free (the tile loop ended with a
   barrier) and free again after the last barrier here. */
MMA_INLINE void combine_key_warps(__local uint4 *smem, const uint rw, const uint kw, float *m,
                                  float *l, float o[RG][OT][4], const mma_lane w) {
  __local float *slots = (__local float *)smem;
  if (kw > 0) {
    __local float *slot = slots + ((kw - 1) * RW + rw) * LANE_STATE * 32 + w.lane;
    MMA_UNROLL
    for (uint r = 0; r < 2 * RG; r++)
      slot[r * 32] = m[r], slot[(2 * RG + r) * 32] = l[r];
    MMA_UNROLL
    for (uint g = 0; g < RG; g++)
      MMA_UNROLL
    for (uint n = 0; n < OT; n++)
      MMA_UNROLL
    for (uint e = 0; e < 4; e++)
      slot[(4 * RG + (g * OT + n) * 4 + e) * 32] = o[g][n][e];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (kw == 0) {
    for (uint k = 1; k < KW; k++) {
      __local const float *slot = slots + ((k - 1) * RW + rw) * LANE_STATE * 32 + w.lane;
      MMA_UNROLL
      for (uint r = 0; r < 2 * RG; r++) {
        const float m2 = slot[r * 32], nm = fmax(m[r], m2);
        const float f = weight2(m[r], nm), f2 = weight2(m2, nm);
        l[r] = l[r] * f + slot[(2 * RG + r) * 32] * f2;
        MMA_UNROLL
        for (uint n = 0; n < OT; n++)
          MMA_UNROLL
        for (uint e = 0; e < 2; e++) {
          const uint at = 4 * RG + ((r >> 1) * OT + n) * 4 + 2 * (r & 1) + e;
          o[r >> 1][n][2 * (r & 1) + e] = o[r >> 1][n][2 * (r & 1) + e] * f + slot[at * 32] * f2;
        }
        m[r] = nm;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif

/* The block's rows (warp's rows r0 .., the block's row0 .. of the unit's `rows`; kept[2 rg + h]
   the kept keys of the lane's row g + 8h of row group rg) over keys lo .. hi of (batch, unit
   head uh: a query head, or with PACK a key head's query heads): m (base-2 units), the
   lane's part of l and the unnormalised O. Tiles start at lo; keys at or past hi are copied as
   zeros. lo and hi are the workgroup's, so the tile loop, and every primitive in it, is uniform
   over the workgroup. attention_mma's (lo 0) and attention_mma_split's. (attention_mma kept a
   copy of this loop until 2026-12-02: calling this from it had failed test_attention_mma on
   PoCL 3.1, f16 causal two warps lq 33 lk 70, while Oclgrind passed; a loop over the first
   stages' copies failed the same way, at random, and its tiles written out passed: PoCL's
   handling of such loops before a loop of barriers, it seems. The default shape's PTX is the
   same but for a few scalar instructions, 252 registers as before.) */
MMA_INLINE void mma_rows(COMMON_PARAMS, const ulong batch, const ulong uh, const ulong rows,
                         const ulong row0, const ulong r0, const uint rw, const uint kw,
                         const ulong lo, const ulong hi, const ulong *kept, __local uint4 *smem,
                         const mma_lane w, float *m, float *l, float o[RG][OT][4]) {
  const uint tid = get_local_id(0);
  __global const uchar *kp = (__global const uchar *)k, *vp = (__global const uchar *)v;
  const ulong head = PACK ? uh * group : uh; /* the unit's first query head */
  const ulong kv_head = PACK ? uh : uh / group;
  MMA_UNROLL
  for (uint r = 0; r < 2 * RG; r++)
    m[r] = -INFINITY, l[r] = 0.0f;
  MMA_UNROLL
  for (uint g = 0; g < RG; g++)
    MMA_UNROLL
  for (uint n = 0; n < OT; n++)
    MMA_UNROLL
  for (uint e = 0; e < 4; e++)
    o[g][n][e] = 0.0f;
  const ulong q_base = q_off + batch * q_sb + head * q_sh;
  const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
  const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
  const ulong tiles = hi > lo ? (hi - lo + BK - 1) / BK : 0;
#if Q_LOCAL
  /* (Written only where a tile's barrier follows: the previous unit's reads ended with one.) */
  __local const uint4 *qt = smem + KV_CHUNKS;
  const uint qrow = (uint)(r0 - row0);
  if (tiles > 0)
    load_q_tile(smem + KV_CHUNKS, (__global const mma_elem *)q, q_base, q_sh, q_sr, row0, lq, rows,
                d, tid);
#else
#if MMA_DTYPE == 0
  uint qf[RG][KSTEPS][QPARTS][4];
#else
  uint qf[RG][KSTEPS][4];
#endif
  load_q((__global const mma_elem *)q, q_base, q_sh, q_sr, r0, lq, rows, d, w.lane, qf);
  (void)row0;
#endif
  /* The first STAGES - 1 tiles (written out: PoCL 3.1's kernels went wrong, at random, with a
     loop here; Oclgrind ran them right). */
  kv_fetch(smem, kp, k_base, k_sr, vp, v_base, v_sr, lo, hi, d, tid, 0, tiles);
#if STAGES == 3
  kv_fetch(smem, kp, k_base, k_sr, vp, v_base, v_sr, lo, hi, d, tid, 1, tiles);
#endif
  for (ulong i = 0; i < tiles; i++) {
    /* Tile i + STAGES - 1 into its stage (its readers, of tile i - 1, passed the barrier that
       ended it), then tile i has landed for every work-item. */
    kv_fetch(smem, kp, k_base, k_sr, vp, v_base, v_sr, lo, hi, d, tid, i + STAGES - 1, tiles);
    kv_wait();
    barrier(CLK_LOCAL_MEM_FENCE);
    __local const uint4 *kt = smem + (uint)(i % STAGES) * 2 * TILE_CHUNKS;
    tile_step(kt, kt + TILE_CHUNKS, Q_ARGS(qf, qt, qrow), lo + i * BK, kw * WK, kept,
              scale * M_LOG2E_F, m, l, o, w);
    barrier(CLK_LOCAL_MEM_FENCE); /* the stage is read: tile i + STAGES may fill it */
  }
#if KW > 1
  combine_key_warps(smem, rw, kw, m, l, o, w);
#else
  (void)rw;
#endif
}

/* The local memory of a workgroup: STAGES stages of a K and a V tile (then the Q tile with
   Q_LOCAL), 16-byte aligned (every cp.async and ldmatrix row address is a whole chunk of it),
   and the emulation's words. */
#if MMA_EMULATE
#define MMA_LOCALS                                                       \
  __local uint4 smem[KV_CHUNKS + Q_CHUNKS] __attribute__((aligned(16))); \
  __local uint emu[WARPS * MMA_EMU_WORDS];                               \
  mma_lane w;                                                            \
  w.lane = get_local_id(0) % 32;                                         \
  w.emu = emu + get_local_id(0) / 32 * MMA_EMU_WORDS
#else
#define MMA_LOCALS                                                       \
  __local uint4 smem[KV_CHUNKS + Q_CHUNKS] __attribute__((aligned(16))); \
  mma_lane w;                                                            \
  w.lane = get_local_id(0) % 32;                                         \
  w.emu = (__local uint *)0
#endif

/* The kept keys of the lane's unit rows g + 8h of row group rg of the warp's rows r0 .. (index
   2 rg + h; 0 past the unit's rows). */
MMA_INLINE void mma_kept(const ulong r0, const ulong lq, const ulong rows, const ulong len,
                         const long causal_offset, const uint lane, ulong *kept) {
  MMA_UNROLL
  for (uint r = 0; r < 2 * RG; r++) {
    const ulong p = r0 + 16 * (r >> 1) + (lane >> 2) + 8 * (r & 1);
    kept[r] = p < rows ? kept_keys(unit_row_query(p, lq), len, causal_offset) : 0;
  }
}

/* A unit's query heads and rows, and the units of a batch (PACK: a key head's group of heads;
   else one head). */
#define UNIT_HEADS (PACK ? group : 1)
#define UNIT_ROWS (UNIT_HEADS * lq)
#define UNITS_A_BATCH (h / UNIT_HEADS)

#ifdef OCF_KERNEL_attention_mma
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void attention_mma(COMMON_PARAMS) {
  MMA_LOCALS;
  const uint warp = get_local_id(0) / 32, kw = warp / RW, rw = warp - kw * RW;
  const ulong rows = UNIT_ROWS, blocks = (rows + BQ - 1) / BQ, units = b * UNITS_A_BATCH * blocks;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong block, uh;
    const ulong bh = ocf_divmod(unit, blocks, &block);
    const ulong batch = ocf_divmod(bh, UNITS_A_BATCH, &uh);
    const ulong row0 = block * BQ, r0 = row0 + ROWS * rw;
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    const ulong last = (row0 + BQ < rows ? row0 + BQ : rows) - 1;
    const ulong limit = kept_keys(block_last_query(row0, last, lq), len, causal_offset);
    ulong kept[2 * RG];
    mma_kept(r0, lq, rows, len, causal_offset, w.lane, kept);
    float m[2 * RG], l[2 * RG], o[RG][OT][4];
    mma_rows(COMMON_ARGS, batch, uh, rows, row0, r0, rw, kw, 0, limit, kept, smem, w, m, l, o);
    /* The row sums over the quad; out = O / l (kept 0: 0, lse -inf; a non-finite max: NaN). */
    MMA_UNROLL
    for (uint r = 0; r < 2 * RG; r++) {
      l[r] += mma_shfl_xor(l[r], 1, w);
      l[r] += mma_shfl_xor(l[r], 2, w);
      const ulong p = r0 + 16 * (r >> 1) + (w.lane >> 2) + 8 * (r & 1);
      if (p >= rows || kw > 0) continue; /* (key warp 0 holds the joined state) */
      const float norm = kept[r] == 0 ? 0.0f : isfinite(m[r]) ? 1.0f / l[r] : NAN;
      const ulong at = out_off + batch * out_sb + uh * UNIT_HEADS * out_sh +
                       unit_row_offset(p, lq, out_sh, out_sr);
      MMA_UNROLL
      for (uint n = 0; n < OT; n++)
        MMA_UNROLL
      for (uint e = 0; e < 2; e++) {
        const ulong col = 8 * n + 2 * (w.lane & 3) + e;
        if (col < d) OCF_STORE(OUT_DTYPE, out, at + col, o[r >> 1][n][2 * (r & 1) + e] * norm);
      }
#if HAS_LSE
      if ((w.lane & 3) == 0) /* flat row (batch h + head) lq + i = bh rows + p */
        lse[lse_off + bh * rows + p] = kept[r] == 0     ? -INFINITY
                                       : isfinite(m[r]) ? (m[r] + log2(l[r])) * M_LN2_F
                                                        : NAN;
#endif
    }
  }
}
#endif

#ifdef OCF_KERNEL_attention_mma_split
/* attention_mma with each row's keys cut into `splits` ranges of split_keys (decoding with few
   heads: the ranges are what fills the device): one workgroup per (batch, head, block of BQ
   rows, range), keys split * split_keys .. min(limit, + split_keys) with limit the block's
   last row's kept keys. Each row's (m, l, O) of the range goes to scratch as attention_decode
   writes it, m in natural-log units (m ln 2: merge_ranges weighs by exp), a range none of
   whose keys the row keeps as m -inf, l 0, O 0 (weight 0 in the merge); attention_mma_join
   then joins the ranges and writes out (and lse), or with JOIN the block's last range to arrive
   (attention_common.clh), its ranges' statistics in the tiles' local memory. */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
attention_mma_split(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                    __global float *scratch, __global uint *arrivals) {
  MMA_LOCALS;
#if JOIN
  __local int arrived_last;
#endif
  const uint warp = get_local_id(0) / 32, kw = warp / RW, rw = warp - kw * RW;
  const ulong rows = UNIT_ROWS, blocks = (rows + BQ - 1) / BQ;
  const ulong units = b * UNITS_A_BATCH * blocks * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong split, block, uh;
    const ulong rest = ocf_divmod(unit, splits, &split);
    const ulong bh = ocf_divmod(rest, blocks, &block);
    const ulong batch = ocf_divmod(bh, UNITS_A_BATCH, &uh);
    const ulong row0 = block * BQ, r0 = row0 + ROWS * rw;
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    const ulong last = (row0 + BQ < rows ? row0 + BQ : rows) - 1;
    const ulong limit = kept_keys(block_last_query(row0, last, lq), len, causal_offset);
    const ulong lo = split * split_keys;
    const ulong hi = lo >= limit ? lo : (limit - lo < split_keys ? limit : lo + split_keys);
    ulong kept[2 * RG];
    mma_kept(r0, lq, rows, len, causal_offset, w.lane, kept);
    float m[2 * RG], l[2 * RG], o[RG][OT][4];
    mma_rows(COMMON_ARGS, batch, uh, rows, row0, r0, rw, kw, lo, hi, kept, smem, w, m, l, o);
    MMA_UNROLL
    for (uint r = 0; r < 2 * RG; r++) {
      l[r] += mma_shfl_xor(l[r], 1, w); /* the row's sum over its quad */
      l[r] += mma_shfl_xor(l[r], 2, w);
      const ulong p = r0 + 16 * (r >> 1) + (w.lane >> 2) + 8 * (r & 1);
      if (p >= rows || kw > 0) continue; /* (key warp 0 holds the joined state) */
      const ulong at = ((bh * rows + p) * splits + split) * (d + 2); /* flat row bh rows + p */
      if ((w.lane & 3) == 0) scratch[at] = m[r] * M_LN2_F, scratch[at + 1] = l[r];
      MMA_UNROLL
      for (uint n = 0; n < OT; n++)
        MMA_UNROLL
      for (uint e = 0; e < 2; e++) {
        const ulong col = 8 * n + 2 * (w.lane & 3) + e;
        if (col < d) scratch[at + 2 + col] = o[r >> 1][n][2 * (r & 1) + e];
      }
    }
#if JOIN
    /* The block's rows are flat rows bh rows + row0 on; the tiles are free once arrive_last's
       barrier has passed, and taken again after the last barrier here. */
    const uint block_rows = (uint)(last - row0 + 1);
    const ulong first_row = bh * rows + row0;
    __local float *stats = (__local float *)smem;
    const int joins = arrive_last(arrivals, rest, splits, &arrived_last);
    if (joins) join_stats(splits, scratch, d, first_row, block_rows, stats);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (joins) join_weights(splits, block_rows, stats);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (joins) join_elements(COMMON_ARGS, splits, scratch, first_row, block_rows, stats);
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    (void)arrivals;
#endif
  }
}
#endif

#ifdef OCF_KERNEL_attention_mma_join
/* After attention_mma_split: merge_ranges (attention_common.clh). Any workgroup size. */
__kernel void attention_mma_join(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                                 __global float *scratch) {
  merge_ranges(COMMON_ARGS, splits, scratch);
  (void)split_keys;
}
#endif
