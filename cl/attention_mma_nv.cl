/*
 * attention_mma_nv.cl: fused attention on NVIDIA's matrix units (FlashAttention-2's scheme),
 * out = softmax(scale * Q K^T + mask) V with the layout, masks and rules of cl/attention.cl
 * (attention_common.clh holds what they share). Q, K and V of one 16-bit type (MMA_DTYPE), out
 * of any storage type; scores, softmax and sums fp32. The matrix-unit primitives (mma.sync
 * m16n8k16, ldmatrix, quad shuffles, cp.async) are those of attention_mma_prims.clh: inline PTX
 * on NVIDIA (compute capability 8.0 or higher), an exact emulation of their fragments elsewhere
 * (MMA_EMULATE 1: PoCL, Oclgrind; slow, for the tests).
 *
 * One workgroup per (batch, head, block of BQ = 16 WARPS query rows); warp w owns the 16 rows
 * 16w .. 16w + 15 of the block, lane (g = lane >> 2, t = lane & 3) rows g and g + 8 of them:
 *
 *   Q fragments (registers, loaded once)   qf[D/16][4]: the A operand of S = Q K^T
 *   per tile of BK keys (j0 .. j0 + BK):
 *     S[BK/8][4] = Q K^T          mma per (k step of D, pair of key tiles); K's B fragments by
 *                                 ldmatrix from the K tile (rows = keys, d contiguous)
 *     mask, scale (times log2 e: m and S in base-2 units, so that each weight is one ex2 of the
 *     special function unit); row max over the lane's S, then quad shuffles (xor 1, 2): the 4
 *     lanes of a row agree on it; rescale (m, l, O) where it grew; P = 2^(S - m) in the S
 *     registers
 *     P as 16-bit A fragments       the C-fragment-to-A-fragment identity: S tiles 2kk, 2kk + 1
 *                                 (c0 c1, c2 c3 each) are a0, a1, a2, a3 of P's k step kk
 *     O[D/8][4] += P V             V's B fragments by ldmatrix .trans from the V tile
 *   end: l summed over the quad; out = O / l, lse = (m + log2 l) ln 2.
 *
 * K and V tiles go to local memory in two stages: while the warps work on tile i, the copies of
 * tile i + 1 (cp.async of 16 bytes where KV_LOAD is 16, element loads otherwise) fill the other
 * stage. A tile is BK rows of KV_CH 16-byte chunks (D / 8 of them hold data), chunk c of row r at
 * chunk r * KV_CH + (c ^ f(r)), cl/matmul_mma_nv.cl's XOR swizzle, so that the 8 rows of one
 * ldmatrix matrix fall in 8 distinct groups of banks.
 *
 *   local:  [ stage 0: K tile | V tile ][ stage 1: K tile | V tile ]   (8 BK KV_CH 16 bytes)
 *           emulation only: WARPS x MMA_EMU_WORDS words
 *
 * Masks keep a prefix of each row's keys (attention_common.clh): a block walks the tiles up to
 * its last row's kept length; keys past a row's own are -inf in S and 0 in P. Keys past the
 * block's length are copied as zeros (nothing is read), so a masked key never meets garbage.
 * The control flow around every primitive is uniform over the workgroup (the emulation needs it).
 *
 * attention_mma_split (decoding with few heads): the same, each row's keys cut into ranges of
 * split_keys, one workgroup per (batch, head, block, range), each range's (m, l, O) to scratch;
 * attention_mma_join (merge_ranges) then writes out and lse.
 */

/* ---- tunables and the call's facts, passed by the host (src/plan/plan_attention.c) ---- */

/* Warps a workgroup: 16 WARPS query rows. */
#ifndef WARPS
#error "WARPS: the host passes every define (src/plan/plan_attention.c)"
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
#if Q_DTYPE != MMA_DTYPE || K_DTYPE != MMA_DTYPE || V_DTYPE != MMA_DTYPE
#error "Q, K and V must be stored as MMA_DTYPE"
#endif

/* ---- derived ---- */

#define BQ (16 * WARPS)
#define THREADS (32 * WARPS)
#define KSTEPS (D / 16) /* k steps of S = Q K^T, and pairs of out's 8-column tiles */
#define OT (D / 8)      /* 8-column tiles of out a warp */
#define ST (BK / 8)     /* 8-key tiles of S a warp */
#define DCH (D / 8)     /* chunks of a tile row that hold data */
#define KV_CH (DCH <= 2 ? 2 : DCH <= 4 ? 4 : (DCH + 7) / 8 * 8) /* chunks a tile row */
#define TILE_CHUNKS (BK * KV_CH)
#if MMA_EMULATE
#define MMA_UNROLL
#else
#define MMA_UNROLL _Pragma("unroll")
#endif

/* Byte offset, within a tile, of element e (16-bit) of row r (cl/matmul_mma_nv.cl's tile_byte
   for KV_CH chunks a row). */
MMA_INLINE uint kv_byte(const uint r, const uint e) {
  const uint c = e / 8;
  uint f = 0;
  if (KV_CH >= 8)
    f = ((r & 3u) << 1) | ((r >> 2) & 1u);
  else if (KV_CH == 4)
    f = (r >> 1) & 3u;
  else
    f = (r >> 2) & 1u;
  return (r * KV_CH + (c ^ f)) * 16u + (e % 8) * 2u;
}

/* The lane's ldmatrix row address for K's B fragments of key tiles 2p, 2p + 1 at k step ks:
   matrix i = lane >> 3 is (key tile 2p + (i >> 1), d chunk 2 ks + (i & 1)); its registers are
   b0 b1 of tile 2p, then of 2p + 1. */
MMA_INLINE uint k_frag_byte(const uint lane, const uint p, const uint ks) {
  return kv_byte(16 * p + ((lane >> 4) << 3) + (lane & 7u), (2 * ks + ((lane >> 3) & 1u)) * 8);
}

/* The lane's ldmatrix .trans row address for V's B fragments of out tiles 2p, 2p + 1 at P's k
   step kk: matrix i is (keys 16 kk + 8 (i & 1) .., columns 8 (2p + (i >> 1)) ..). */
MMA_INLINE uint v_frag_byte(const uint lane, const uint kk, const uint p) {
  return kv_byte(16 * kk + (((lane >> 3) & 1u) << 3) + (lane & 7u), 16 * p + ((lane >> 4) << 3));
}

/* Rows j0 .. j0 + BK of a K or V (16-bit elements from `base`, rows `sr` apart) into a tile:
   rows at or past `limit`, and columns at or past d, as zeros. */
MMA_INLINE void load_tile(__local uint4 *tile, __global const uchar *p, const ulong base,
                          const ulong sr, const ulong j0, const ulong limit, const ulong d,
                          const uint tid) {
  for (uint u = tid; u < BK * DCH; u += THREADS) {
    const uint r = u / DCH, c = u - r * DCH;
    const ulong j = j0 + r;
    const uint valid = j < limit && 8 * c < d ? (uint)min((ulong)8, d - 8 * c) : 0;
    __global const uchar *src = p + (valid ? (base + j * sr + 8 * c) * 2 : 0);
#if KV_LOAD == 16
    mma_cp_async16(tile, kv_byte(r, 8 * c), src, 2 * valid);
#else
    uint w[4] = {0, 0, 0, 0};
    for (uint e = 0; e < 8; e++)
      if (e < valid) w[e / 2] |= (uint)((__global const ushort *)src)[e] << (16 * (e % 2));
    tile[kv_byte(r, 8 * c) / 16] = (uint4)(w[0], w[1], w[2], w[3]);
#endif
  }
}

/* The A fragments of the warp's 16 query rows (r0 ..), zeros outside lq x d. */
MMA_INLINE void load_q(__global const ushort *q, const ulong base, const ulong sr, const ulong r0,
                       const ulong lq, const ulong d, const uint lane, uint qf[KSTEPS][4]) {
  MMA_UNROLL
  for (uint ks = 0; ks < KSTEPS; ks++)
    MMA_UNROLL
  for (uint i = 0; i < 4; i++) {
    const ulong row = r0 + (lane >> 2) + 8 * (i & 1);
    const ulong col = 16 * ks + 2 * (lane & 3) + 8 * (i >> 1);
    uint x = 0;
    if (row < lq) {
      if (col < d) x = q[base + row * sr + col];
      if (col + 1 < d) x |= (uint)q[base + row * sr + col + 1] << 16;
    }
    qf[ks][i] = x;
  }
}

/* 2^(x - m) for a row's running max m in base-2 units: 0 for x = -inf (a masked key), and for a
   row whose keys so far are all masked (m = -inf) 2^(x - 0), so that -inf - -inf never occurs. */
MMA_INLINE float weight2(const float x, const float m) {
  return mma_exp2(x - (m == -INFINITY ? 0.0f : m));
}

/* One tile: S = Q K^T, the online softmax of the lane's two rows (m, l, and O rescaled), O += P V.
   kept[h]: the kept keys of row g + 8h; j0 the tile's first key; scale2 the scale times log2 e
   (m in the same base-2 units). */
MMA_INLINE void tile_step(__local const uint4 *kt, __local const uint4 *vt,
                          const uint qf[KSTEPS][4], const ulong j0, const ulong *kept,
                          const float scale2, float *m, float *l, float o[OT][4],
                          const mma_lane w) {
  float s[ST][4];
  MMA_UNROLL
  for (uint n = 0; n < ST; n++)
    MMA_UNROLL
  for (uint q = 0; q < 4; q++)
    s[n][q] = 0.0f;
  MMA_UNROLL
  for (uint ks = 0; ks < KSTEPS; ks++)
    MMA_UNROLL
  for (uint p = 0; p < ST / 2; p++) {
    uint kb[4];
    mma_ldsm_x4(kt, k_frag_byte(w.lane, p, ks), kb, w);
    mma_16816(s[2 * p], qf[ks], kb, w);
    mma_16816(s[2 * p + 1], qf[ks], kb + 2, w);
  }
  /* Scale and mask (masked keys -inf; a tile every key of which both rows keep skips the
     compares); the tile's max of each of the lane's rows, over its quad. */
  float mx[2] = {-INFINITY, -INFINITY};
  if (j0 + BK <= kept[0] && j0 + BK <= kept[1]) {
    MMA_UNROLL
    for (uint n = 0; n < ST; n++)
      MMA_UNROLL
    for (uint q = 0; q < 4; q++) {
      s[n][q] *= scale2;
      mx[q >> 1] = fmax(mx[q >> 1], s[n][q]);
    }
  } else {
    MMA_UNROLL
    for (uint n = 0; n < ST; n++)
      MMA_UNROLL
    for (uint q = 0; q < 4; q++) {
      const ulong key = j0 + 8 * n + 2 * (w.lane & 3) + (q & 1);
      s[n][q] = key < kept[q >> 1] ? scale2 * s[n][q] : -INFINITY;
      mx[q >> 1] = fmax(mx[q >> 1], s[n][q]);
    }
  }
  MMA_UNROLL
  for (uint h = 0; h < 2; h++) {
    mx[h] = fmax(mx[h], mma_shfl_xor(mx[h], 1, w));
    mx[h] = fmax(mx[h], mma_shfl_xor(mx[h], 2, w));
    const float nm = fmax(m[h], mx[h]), f = weight2(m[h], nm);
    l[h] *= f;
    MMA_UNROLL
    for (uint n = 0; n < OT; n++)
      o[n][2 * h] *= f, o[n][2 * h + 1] *= f;
    m[h] = nm;
  }
  /* The weights, into the S registers (masked keys, -inf, give 0), summed by the lane. */
  MMA_UNROLL
  for (uint n = 0; n < ST; n++)
    MMA_UNROLL
  for (uint q = 0; q < 4; q++) {
    s[n][q] = weight2(s[n][q], m[q >> 1]);
    l[q >> 1] += s[n][q];
  }
  /* O += P V: P's k step kk is S tiles 2kk and 2kk + 1 as 16-bit A fragments. */
  MMA_UNROLL
  for (uint kk = 0; kk < ST / 2; kk++) {
    uint pa[4];
    pa[0] = mma_pack2(s[2 * kk][0], s[2 * kk][1]);
    pa[1] = mma_pack2(s[2 * kk][2], s[2 * kk][3]);
    pa[2] = mma_pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
    pa[3] = mma_pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    MMA_UNROLL
    for (uint p = 0; p < KSTEPS; p++) {
      uint vb[4];
      mma_ldsm_x4_trans(vt, v_frag_byte(w.lane, kk, p), vb, w);
      mma_16816(o[2 * p], pa, vb, w);
      mma_16816(o[2 * p + 1], pa, vb + 2, w);
    }
  }
}

/* The block's rows (warp's rows r0 ..; kept[h] the kept keys of row g + 8h) over keys lo .. hi
   of (batch, head): m (base-2 units), the lane's part of l and the unnormalised O. Tiles
   start at lo; keys at or past hi are copied as zeros. lo and hi are the workgroup's, so the
   tile loop, and every primitive in it, is uniform over the workgroup. attention_mma_split's;
   attention_mma keeps its own copy of this loop: calling this (lo 0) from it failed
   test_attention_mma on PoCL (f16, causal, two warps: wrong rows) while Oclgrind and this
   kernel's own tests passed, cause not found (2026-12-02), so attention_mma, measured on the
   H200, stays as it was. */
MMA_INLINE void mma_rows(COMMON_PARAMS, const ulong batch, const ulong head, const ulong r0,
                         const ulong lo, const ulong hi, const ulong *kept, __local uint4 *smem,
                         const mma_lane w, float *m, float *l, float o[OT][4]) {
  const uint tid = get_local_id(0);
  __global const uchar *kp = (__global const uchar *)k, *vp = (__global const uchar *)v;
  const ulong kv_head = head / group;
  MMA_UNROLL
  for (uint hh = 0; hh < 2; hh++)
    m[hh] = -INFINITY, l[hh] = 0.0f;
  MMA_UNROLL
  for (uint n = 0; n < OT; n++)
    MMA_UNROLL
  for (uint e = 0; e < 4; e++)
    o[n][e] = 0.0f;
  uint qf[KSTEPS][4];
  load_q((__global const ushort *)q, q_off + batch * q_sb + head * q_sh, q_sr, r0, lq, d, w.lane,
         qf);
  const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
  const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
  const ulong tiles = hi > lo ? (hi - lo + BK - 1) / BK : 0;
  if (tiles > 0) {
    load_tile(smem, kp, k_base, k_sr, lo, hi, d, tid);
    load_tile(smem + TILE_CHUNKS, vp, v_base, v_sr, lo, hi, d, tid);
  }
  mma_cp_async_commit();
  for (ulong i = 0; i < tiles; i++) {
    /* Tile i + 1 into the other stage (its readers passed the barrier that ended tile i - 1),
       then tile i has landed for every work-item. */
    if (i + 1 < tiles) {
      __local uint4 *next = smem + ((i + 1) & 1) * 2 * TILE_CHUNKS;
      load_tile(next, kp, k_base, k_sr, lo + (i + 1) * BK, hi, d, tid);
      load_tile(next + TILE_CHUNKS, vp, v_base, v_sr, lo + (i + 1) * BK, hi, d, tid);
    }
    mma_cp_async_commit();
    mma_cp_async_wait1();
    barrier(CLK_LOCAL_MEM_FENCE);
    __local const uint4 *kt = smem + (i & 1) * 2 * TILE_CHUNKS;
    tile_step(kt, kt + TILE_CHUNKS, qf, lo + i * BK, kept, scale * M_LOG2E_F, m, l, o, w);
    barrier(CLK_LOCAL_MEM_FENCE); /* the stage is read: tile i + 2 may fill it */
  }
}

/* The local memory of a workgroup: two stages of a K and a V tile, 16-byte aligned (every
   cp.async and ldmatrix row address is a whole chunk of it), and the emulation's words. */
#if MMA_EMULATE
#define MMA_LOCALS                                                  \
  __local uint4 smem[4 * TILE_CHUNKS] __attribute__((aligned(16))); \
  __local uint emu[WARPS * MMA_EMU_WORDS];                          \
  mma_lane w;                                                       \
  w.lane = get_local_id(0) % 32;                                    \
  w.emu = emu + get_local_id(0) / 32 * MMA_EMU_WORDS
#else
#define MMA_LOCALS                                                  \
  __local uint4 smem[4 * TILE_CHUNKS] __attribute__((aligned(16))); \
  mma_lane w;                                                       \
  w.lane = get_local_id(0) % 32;                                    \
  w.emu = (__local uint *)0
#endif

/* The kept keys of the lane's rows g, g + 8 of the warp's rows r0 .. (0 past lq). */
MMA_INLINE void mma_kept(const ulong r0, const ulong lq, const ulong len, const long causal_offset,
                         const uint lane, ulong *kept) {
  MMA_UNROLL
  for (uint hh = 0; hh < 2; hh++) {
    const ulong i = r0 + (lane >> 2) + 8 * hh;
    kept[hh] = i < lq ? kept_keys(i, len, causal_offset) : 0;
  }
}

#ifdef OCF_KERNEL_attention_mma
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void attention_mma(COMMON_PARAMS) {
  /* 16-byte aligned: every cp.async and ldmatrix row address is a whole chunk of it. */
  __local uint4 smem[4 * TILE_CHUNKS] __attribute__((aligned(16)));
  const uint tid = get_local_id(0), warp = tid / 32;
  mma_lane w;
  w.lane = tid % 32;
#if MMA_EMULATE
  __local uint emu[WARPS * MMA_EMU_WORDS];
  w.emu = emu + warp * MMA_EMU_WORDS;
#else
  w.emu = (__local uint *)0;
#endif
  __global const uchar *kp = (__global const uchar *)k, *vp = (__global const uchar *)v;
  const ulong blocks = (lq + BQ - 1) / BQ, units = b * h * blocks;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong block, head;
    const ulong bh = ocf_divmod(unit, blocks, &block);
    const ulong batch = ocf_divmod(bh, h, &head), kv_head = head / group;
    const ulong row0 = block * BQ, r0 = row0 + 16 * warp;
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    const ulong last = (row0 + BQ < lq ? row0 + BQ : lq) - 1;
    const ulong limit = kept_keys(last, len, causal_offset);
    ulong kept[2];
    float m[2], l[2];
    MMA_UNROLL
    for (uint hh = 0; hh < 2; hh++) {
      const ulong i = r0 + (w.lane >> 2) + 8 * hh;
      kept[hh] = i < lq ? kept_keys(i, len, causal_offset) : 0;
      m[hh] = -INFINITY, l[hh] = 0.0f;
    }
    float o[OT][4];
    MMA_UNROLL
    for (uint n = 0; n < OT; n++)
      MMA_UNROLL
    for (uint q = 0; q < 4; q++)
      o[n][q] = 0.0f;
    uint qf[KSTEPS][4];
    load_q((__global const ushort *)q, q_off + batch * q_sb + head * q_sh, q_sr, r0, lq, d, w.lane,
           qf);
    const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
    const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
    const ulong tiles = (limit + BK - 1) / BK;
    if (tiles > 0) {
      load_tile(smem, kp, k_base, k_sr, 0, limit, d, tid);
      load_tile(smem + TILE_CHUNKS, vp, v_base, v_sr, 0, limit, d, tid);
    }
    mma_cp_async_commit();
    for (ulong i = 0; i < tiles; i++) {
      /* Tile i + 1 into the other stage (its readers passed the barrier that ended tile i - 1),
         then tile i has landed for every work-item. */
      if (i + 1 < tiles) {
        __local uint4 *next = smem + ((i + 1) & 1) * 2 * TILE_CHUNKS;
        load_tile(next, kp, k_base, k_sr, (i + 1) * BK, limit, d, tid);
        load_tile(next + TILE_CHUNKS, vp, v_base, v_sr, (i + 1) * BK, limit, d, tid);
      }
      mma_cp_async_commit();
      mma_cp_async_wait1();
      barrier(CLK_LOCAL_MEM_FENCE);
      __local const uint4 *kt = smem + (i & 1) * 2 * TILE_CHUNKS;
      tile_step(kt, kt + TILE_CHUNKS, qf, i * BK, kept, scale * M_LOG2E_F, m, l, o, w);
      barrier(CLK_LOCAL_MEM_FENCE); /* the stage is read: tile i + 2 may fill it */
    }
    /* The row sums over the quad; out = O / l (kept 0: 0, lse -inf; a non-finite max: NaN). */
    MMA_UNROLL
    for (uint hh = 0; hh < 2; hh++) {
      l[hh] += mma_shfl_xor(l[hh], 1, w);
      l[hh] += mma_shfl_xor(l[hh], 2, w);
      const ulong i = r0 + (w.lane >> 2) + 8 * hh;
      if (i >= lq) continue;
      const float norm = kept[hh] == 0 ? 0.0f : isfinite(m[hh]) ? 1.0f / l[hh] : NAN;
      const ulong at = out_off + batch * out_sb + head * out_sh + i * out_sr;
      MMA_UNROLL
      for (uint n = 0; n < OT; n++)
        MMA_UNROLL
      for (uint e = 0; e < 2; e++) {
        const ulong col = 8 * n + 2 * (w.lane & 3) + e;
        if (col < d) OCF_STORE(OUT_DTYPE, out, at + col, o[n][2 * hh + e] * norm);
      }
#if HAS_LSE
      if ((w.lane & 3) == 0)
        lse[lse_off + (batch * h + head) * lq + i] = kept[hh] == 0 ? -INFINITY
                                                     : isfinite(m[hh])
                                                         ? (m[hh] + log2(l[hh])) * M_LN2_F
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
   then joins the ranges and writes out (and lse). */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
attention_mma_split(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                    __global float *scratch) {
  MMA_LOCALS;
  const uint warp = get_local_id(0) / 32;
  const ulong blocks = (lq + BQ - 1) / BQ, units = b * h * blocks * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong split, block, head;
    const ulong rest = ocf_divmod(unit, splits, &split);
    const ulong bh = ocf_divmod(rest, blocks, &block);
    const ulong batch = ocf_divmod(bh, h, &head);
    const ulong row0 = block * BQ, r0 = row0 + 16 * warp;
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    const ulong last = (row0 + BQ < lq ? row0 + BQ : lq) - 1;
    const ulong limit = kept_keys(last, len, causal_offset);
    const ulong lo = split * split_keys;
    const ulong hi = lo >= limit ? lo : (limit - lo < split_keys ? limit : lo + split_keys);
    ulong kept[2];
    mma_kept(r0, lq, len, causal_offset, w.lane, kept);
    float m[2], l[2], o[OT][4];
    mma_rows(COMMON_ARGS, batch, head, r0, lo, hi, kept, smem, w, m, l, o);
    MMA_UNROLL
    for (uint hh = 0; hh < 2; hh++) {
      l[hh] += mma_shfl_xor(l[hh], 1, w); /* the row's sum over its quad */
      l[hh] += mma_shfl_xor(l[hh], 2, w);
      const ulong i = r0 + (w.lane >> 2) + 8 * hh;
      if (i >= lq) continue;
      const ulong at = (((batch * h + head) * lq + i) * splits + split) * (d + 2);
      if ((w.lane & 3) == 0) scratch[at] = m[hh] * M_LN2_F, scratch[at + 1] = l[hh];
      MMA_UNROLL
      for (uint n = 0; n < OT; n++)
        MMA_UNROLL
      for (uint e = 0; e < 2; e++) {
        const ulong col = 8 * n + 2 * (w.lane & 3) + e;
        if (col < d) scratch[at + 2 + col] = o[n][2 * hh + e];
      }
    }
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
