/*
 * attention_wgmma_nv.cl: fused attention on Hopper's warpgroup matrix units (wgmma.mma_async,
 * sm_90a, issue 21), out = softmax(scale * Q K^T + mask) V with the layout, masks and rules of
 * cl/attention.cl (attention_common.clh). Q, K and V of one 16-bit type (MMA_DTYPE), out of any
 * storage type; scores, softmax and sums fp32. Built as cl/matmul_wgmma_nv.cl is: the sm_90a
 * lines (cl/attention_wgmma_asm.clh, generated) are PTX comments that the library uncomments
 * and retargets to sm_90a (src/ptx_retarget.c); the rest of the PTX (shuffles, ex2, cvt,
 * cp.async) is attention_mma_prims.clh's, with MMA_EMULATE 0: there is no emulation.
 *
 * One workgroup of two warpgroups (256 work-items) per (batch, head, block of BQ = 128 query
 * rows); warpgroup wg owns rows 64 wg .. of the block, warp w of it rows 16 w .., lane l rows
 * g = (l % 32) / 4 and g + 8 of those (the wgmma accumulator layout, validated by the GEMM:
 * accumulator 4 q + 2 v1 + v0 of a lane is (row g + 8 v1, column 8 q + 2 (l % 4) + v0)):
 *
 *   Q tile     in local memory, loaded once per block
 *   per tile of BK keys:
 *     S[BK / 2] = Q K^T          wg_scores: D / 16 wgmma m64nBKk16, Q and K from descriptors
 *     scale (times log2 e), mask, the row max over the lane's scores and its quad (shuffles
 *     xor 1, 2), (m, l, O) rescaled where the max grew, P = 2^(S - m) in the S registers
 *     P as A fragments            the accumulator-to-A-fragment identity (as attention_mma's):
 *                                 S columns 16 kk .. 16 kk + 15 are P's key step kk
 *     O[D / 2] += P V             wg_pv: BK / 16 wgmma m64nDk16, P from registers, V from
 *                                 descriptors (MN-major: the transpose bit of B)
 *   end: l summed over the quad; out = O / l, lse = (m + log2 l) ln 2.
 *
 * Local memory, every part 1 KiB aligned, in the 128-byte swizzle (16-byte chunk j of a
 * 128-byte row r at (j ^ (r % 8)) * 16; cl/matmul_wgmma_nv.cl's layouts and descriptors):
 *
 *   Q          D / 64 slices of BQ rows x 128 bytes (K-major: slice s holds columns 64 s ..)
 *   stage i    K tile: D / 64 slices of BK rows x 128 bytes (K-major, as Q)
 *              V tile: BK / 64 slices of 64 keys, each D / 64 blocks of 64 columns (8 KiB:
 *              key r at r * 128, columns 8 j .. 8 j + 7 in its chunk j): MN-major
 *   descriptors: Q, K at slice + (step % 4) * 32 bytes, SBO 1 KiB; V at slice + (step % 4) *
 *   2 KiB, LBO 8 KiB (the next 64 columns), SBO 1 KiB (the next 8 keys)
 *
 * While the warpgroups multiply tile i, every work-item's cp.async copies of tile i + 1 fill
 * another stage (16 bytes each; rows at or past the block's kept keys and columns at or past d
 * as zeros, nothing read). PIPE 0: two stages, and each tile's S, softmax and P V in turn.
 * PIPE 1 (FlashAttention-3's overlap within a warpgroup): three stages; a warpgroup issues
 * S = Q K_i^T, then P V of tile i - 1, waits for S only, computes tile i's weights while P V
 * runs, then waits for it and rescales O (the new max is known by then). Needs (the planner
 * checks): Q's, K's and V's offsets and strides multiples of 8 elements, so that every row starts
 * on a 16-byte chunk. The tile loop, its barriers and every wgmma are uniform over the workgroup:
 * it walks the tiles up to the block's last row's kept keys, and a row's keys past its own are -inf
 * in S, 0 in P. With CAUSAL the blocks go last first (the longest rows first: the grid's tail is
 * short).
 *
 * attention_wgmma_split + attention_wgmma_join (few blocks against long keys): the same rows
 * over each of `splits` ranges of split_keys keys (a multiple of BK), one workgroup a range, each
 * range's (m, l, O) to scratch; the join merges them as attention_mma_join does.
 *
 * attention_wgmma_tma (TMA 1, cl/attention_wgmma_tma.clh, the program's fragment after this
 * file): the same warpgroups and tiles, the stages fed by the tensor memory accelerator for a
 * producer warp.
 */

/* ---- tunables and the call's facts, passed by the host (src/plan/plan_attention_wgmma.c) ---- */

/* Keys a tile: 64 or 128. */
#ifndef BK
#error "BK: the host passes every define (src/plan/plan_attention_wgmma.c)"
#endif
/* 0: each tile's S = Q K^T, softmax and P V in turn (two stages of K and V); 1: P V of the tile
   before in flight while this tile's weights are computed (three stages). */
#ifndef PIPE
#error "PIPE: the host passes every define (src/plan/plan_attention_wgmma.c)"
#endif
/* 1: attention_wgmma_tma's program (the TMA-fed stages); 0: the cp.async kernels'. */
#ifndef TMA
#error "TMA: the host passes every define (src/plan/plan_attention_wgmma.c)"
#endif
/* The TMA-fed ring's stages: 2 to 4. */
#ifndef TMA_STAGES
#error "TMA_STAGES: the host passes every define (src/plan/plan_attention_wgmma.c)"
#endif
/* 1: attention_wgmma_tma's warpgroups take turns issuing their products (awg_turn_wait). */
#ifndef PINGPONG
#error "PINGPONG: the host passes every define (src/plan/plan_attention_wgmma.c)"
#endif
#if TMA && (TMA_STAGES < 2 || TMA_STAGES > 4)
#error "TMA: 2 to 4 stages"
#endif
#if (BK != 64 && BK != 128) || (D != 64 && D != 128)
#error "BK must be 64 or 128, D 64 or 128"
#endif
#if MMA_EMULATE
#error "attention_wgmma runs only as sm_90a PTX: MMA_EMULATE must be 0"
#endif
#if Q_DTYPE != MMA_DTYPE || K_DTYPE != MMA_DTYPE || V_DTYPE != MMA_DTYPE
#error "Q, K and V must be stored as MMA_DTYPE"
#endif

/* ---- derived ---- */

#define BQ 128      /* query rows a workgroup: two warpgroups of 64 */
#define THREADS 256 /* two warpgroups */
#define DCH (D / 8) /* 16-byte chunks of a row */
#define Q_BYTES (D / 64 * BQ * 128)
#define K_BYTES (D / 64 * BK * 128)
#define V_BYTES K_BYTES
/* The byte offset in a V tile of its block of keys 64 kb .. + 63 and columns 64 cb .. + 63 */
#define AWG_V_BLOCK(kb, cb) ((kb) * (D / 64 * 8192) + (cb)*8192)
#define STAGE_BYTES (K_BYTES + V_BYTES)
#define STAGES (TMA ? TMA_STAGES : PIPE ? 3 : 2)
#define SMEM_BYTES (Q_BYTES + STAGES * STAGE_BYTES + 1024) /* 1 KiB spare for the alignment */
#define NS (BK / 2)                                        /* score accumulators a work-item */
#define NO (D / 2)                                         /* out accumulators a work-item */

#define AWG_INLINE static inline __attribute__((always_inline))

/* A wgmma shared-memory descriptor with the 128-byte swizzle (cl/matmul_wgmma_nv.cl's). */
AWG_INLINE ulong awg_desc(const uint addr, const uint lbo, const uint sbo) {
  return (ulong)((addr >> 4) & 0x3FFFu) | ((ulong)((lbo >> 4) & 0x3FFFu) << 16) |
         ((ulong)((sbo >> 4) & 0x3FFFu) << 32) | (1ul << 62);
}

/* The swizzled place of 16-byte chunk j (of 8) of 128-byte row r. */
AWG_INLINE uint awg_swz(const uint r, const uint j) {
  return r * 128 + ((j ^ (r % 8)) * 16);
}

/* Makes this work-item's generic-proxy writes of shared memory (cp.async's) visible to the
   async proxy, which wgmma reads through. */
AWG_INLINE void awg_fence_proxy_async(void) {
  __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* Until every cp.async group of this work-item has landed. */
AWG_INLINE void awg_cp_async_wait0(void) {
  __asm__ volatile("cp.async.wait_group 0;" ::: "memory");
}

/* One 16-byte chunk: `valid` elements (0 .. 8) of row `row` from column 8 c of a tensor whose
   rows are `sr` elements apart from element `base`, into shared address dst, the rest zeros. */
AWG_INLINE void awg_chunk(const uint dst, __global const uchar *x, const ulong base, const ulong sr,
                          const ulong row, const uint c, const uint valid) {
  __global const uchar *src = x + (valid ? (base + row * sr + 8 * c) * 2 : 0);
  __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"((ulong)src),
                   "r"(2 * valid)
                   : "memory");
}

/* The valid elements of chunk c of a row that is inside (0 outside, or past d). */
AWG_INLINE uint awg_valid(const int inside, const uint c, const ulong d) {
  return inside && 8 * c < d ? (uint)min((ulong)8, d - 8 * c) : 0u;
}

/* Rows r0 .. r0 + R (R of them) of a K-major operand into D / 64 slices of R rows at dst;
   rows at or past `limit` as zeros. */
AWG_INLINE void awg_load_kmajor(const uint dst, const uint R, __global const uchar *x,
                                const ulong base, const ulong sr, const ulong r0, const ulong limit,
                                const ulong d, const uint t) {
  for (uint u = t; u < R * DCH; u += THREADS) {
    const uint r = u / DCH, c = u % DCH;
    const uint at = dst + (c / 8) * (R * 128) + awg_swz(r, c % 8);
    awg_chunk(at, x, base, sr, r0 + r, c, awg_valid(r0 + r < limit, c, d));
  }
}

/* Keys j0 .. j0 + BK of V into the MN-major tile at dst; keys at or past `limit` as zeros. */
AWG_INLINE void awg_load_v(const uint dst, __global const uchar *x, const ulong base,
                           const ulong sr, const ulong j0, const ulong limit, const ulong d,
                           const uint t) {
  for (uint u = t; u < BK * DCH; u += THREADS) {
    const uint r = u / DCH, c = u % DCH;
    const uint at = dst + AWG_V_BLOCK(r / 64, c / 8) + awg_swz(r % 64, c % 8);
    awg_chunk(at, x, base, sr, j0 + r, c, awg_valid(j0 + r < limit, c, d));
  }
}

/* 2^(x - m) for a row's running max m in base-2 units: 0 for x = -inf (a masked key), and for
   a row whose keys so far are all masked (m = -inf) 2^(x - 0) (attention_mma's weight2). */
AWG_INLINE float awg_weight(const float x, const float m) {
  return mma_exp2(x - (m == -INFINITY ? 0.0f : m));
}

/* The value of lane (lane ^ mask) of the warp. */
AWG_INLINE float awg_shfl_xor(const float x, const uint mask) {
  mma_lane w;
  w.lane = 0, w.emu = (__local uint *)0;
  return mma_shfl_xor(x, mask, w);
}

/* One tile's weights: the scores s (the lane's two rows v1 = 0, 1; kept: their kept keys; j0
   the tile's first key; scale2 the scale times log2 e) scaled and masked, each row's new max nm
   (over its quad: the running max m and the tile's), s = 2^(s - nm), and each row's sum of them
   over the lane's keys. */
AWG_INLINE void awg_weights(float *s, const ulong j0, const ulong *kept, const float scale2,
                            const uint quad, const float *m, float *nm, float *sum) {
  float mx[2] = {-INFINITY, -INFINITY};
  if (j0 + BK <= kept[0] && j0 + BK <= kept[1]) { /* every key of the tile kept by both rows */
#pragma unroll
    for (uint i = 0; i < NS; i++) {
      s[i] *= scale2;
      mx[(i >> 1) & 1] = fmax(mx[(i >> 1) & 1], s[i]);
    }
  } else {
#pragma unroll
    for (uint i = 0; i < NS; i++) {
      const uint v1 = (i >> 1) & 1;
      const ulong key = j0 + 8 * (i >> 2) + 2 * quad + (i & 1);
      s[i] = key < kept[v1] ? scale2 * s[i] : -INFINITY;
      mx[v1] = fmax(mx[v1], s[i]);
    }
  }
#pragma unroll
  for (uint v1 = 0; v1 < 2; v1++) {
    mx[v1] = fmax(mx[v1], awg_shfl_xor(mx[v1], 1));
    mx[v1] = fmax(mx[v1], awg_shfl_xor(mx[v1], 2));
    nm[v1] = fmax(m[v1], mx[v1]);
    sum[v1] = 0.0f;
  }
#pragma unroll
  for (uint i = 0; i < NS; i++) {
    s[i] = awg_weight(s[i], nm[(i >> 1) & 1]);
    sum[(i >> 1) & 1] += s[i];
  }
}

/* The running (m, l, O) of the lane's rows moved to the new max nm, the tile's sums added. */
AWG_INLINE void awg_rescale(float *o, float *m, float *l, const float *nm, const float *sum) {
#pragma unroll
  for (uint v1 = 0; v1 < 2; v1++) {
    const float f = awg_weight(m[v1], nm[v1]);
    l[v1] = l[v1] * f + sum[v1];
#pragma unroll
    for (uint q = 0; q < D / 8; q++)
      o[4 * q + 2 * v1] *= f, o[4 * q + 2 * v1 + 1] *= f;
    m[v1] = nm[v1];
  }
}

/* The weights as P's 16-bit A fragments. Key step kk's: (row g, keys 2t ..), (row g + 8,
   2t ..), (row g, 2t + 8 ..), (row g + 8, 2t + 8 ..) of keys 16 kk ..: S tiles q = 2 kk and
   2 kk + 1 (the accumulator-to-A-fragment identity). */
AWG_INLINE void awg_pack(const float *s, uint *p) {
#pragma unroll
  for (uint kk = 0; kk < BK / 16; kk++) {
    p[4 * kk] = mma_pack2(s[8 * kk], s[8 * kk + 1]);
    p[4 * kk + 1] = mma_pack2(s[8 * kk + 2], s[8 * kk + 3]);
    p[4 * kk + 2] = mma_pack2(s[8 * kk + 4], s[8 * kk + 5]);
    p[4 * kk + 3] = mma_pack2(s[8 * kk + 6], s[8 * kk + 7]);
  }
}

/* The descriptors of a stage's K tile (K-major, the k steps of d) and V tile (MN-major, the key
   steps). */
AWG_INLINE void awg_k_descs(const uint stage, ulong *dk) {
#pragma unroll
  for (uint ks = 0; ks < D / 16; ks++)
    dk[ks] = awg_desc(stage + (ks / 4) * (BK * 128) + (ks % 4) * 32, 16, 1024);
}
AWG_INLINE void awg_v_descs(const uint stage, ulong *dv) {
#pragma unroll
  for (uint kk = 0; kk < BK / 16; kk++)
    dv[kk] = awg_desc(stage + K_BYTES + AWG_V_BLOCK(kk / 4, 0) + (kk % 4) * 2048, 8192, 1024);
}

/* The scores of a stage's K tile, issued (s zeroed first). */
AWG_INLINE void awg_issue_qk(float *s, const ulong *dq, const uint stage) {
  ulong dk[D / 16];
  awg_k_descs(stage, dk);
#pragma unroll
  for (uint j = 0; j < NS; j++)
    s[j] = 0.0f;
  wg_qk(s, dq, dk);
}
AWG_INLINE void awg_issue_pv(float *o, const uint *p, const uint stage) {
  ulong dv[BK / 16];
  awg_v_descs(stage, dv);
  wg_pv(o, p, dv);
}

/* One tile of keys (from j0) in `stage`, for the lane's rows: S = Q K^T, the weights, (m, l, O)
   moved to the new max, O += P V, each product waited for before the next step. */
AWG_INLINE void awg_step(float *o, float *m, float *l, const ulong *dq, const uint stage,
                         const ulong j0, const ulong *kept, const float scale2, const uint quad) {
  float s[NS], nm[2], sum[2];
  uint p[BK / 4];
  awg_issue_qk(s, dq, stage);
  wg_wait0_s(s);
  awg_weights(s, j0, kept, scale2, quad, m, nm, sum);
  awg_rescale(o, m, l, nm, sum);
  awg_pack(s, p);
  awg_issue_pv(o, p, stage);
  wg_wait0_o(o, p);
}

/* Tile `tile` of keys (j0 = tile * BK) of K and V into its stage, then a commit group (empty
   past the last tile, so that every tile has one). */
AWG_INLINE void awg_fetch(const uint base, __global const uchar *kp, const ulong k_base,
                          const ulong k_sr, __global const uchar *vp, const ulong v_base,
                          const ulong v_sr, const ulong tile, const ulong tiles, const ulong limit,
                          const ulong d, const uint t) {
  if (tile < tiles) {
    const uint stage = base + Q_BYTES + (uint)(tile % STAGES) * STAGE_BYTES;
    awg_load_kmajor(stage, BK, kp, k_base, k_sr, tile * BK, limit, d, t);
    awg_load_v(stage + K_BYTES, vp, v_base, v_sr, tile * BK, limit, d, t);
  }
  mma_cp_async_commit();
}

/* The lane's first row of the block (the second is 8 below). */
AWG_INLINE ulong awg_lane_row(const ulong row0) {
  const uint t = get_local_id(0);
  return row0 + 64 * (t / 128) + 16 * ((t % 128) / 32) + (t % 32) / 4;
}

/* The lane's rows of block row0 of batch `batch` before their first tile: their kept keys
   (clipped to hi) in kept, (m, l, O) = (-inf, 0, 0). */
AWG_INLINE void awg_start_rows(const ulong lq, const ulong lk, __global const uint *lengths,
                               const ulong lengths_off, const long causal_offset, const ulong batch,
                               const ulong row0, const ulong hi, ulong *kept, float *m, float *l,
                               float *o) {
  const ulong len = batch_length(lk, lengths, lengths_off, batch);
#pragma unroll
  for (uint v1 = 0; v1 < 2; v1++) {
    const ulong i = awg_lane_row(row0) + 8 * v1;
    const ulong row_kept = i < lq ? kept_keys(i, len, causal_offset) : 0;
    kept[v1] = row_kept < hi ? row_kept : hi;
  }
  m[0] = m[1] = -INFINITY, l[0] = l[1] = 0.0f;
#pragma unroll
  for (uint i = 0; i < NO; i++)
    o[i] = 0.0f;
}

/* The row sums over the quad (each lane held its share). */
AWG_INLINE void awg_quad_sums(float *l) {
#pragma unroll
  for (uint v1 = 0; v1 < 2; v1++) {
    l[v1] += awg_shfl_xor(l[v1], 1);
    l[v1] += awg_shfl_xor(l[v1], 2);
  }
}

/* The (m, l, O) of the lane's rows of block row0 of (batch, head) over keys lo .. hi (lo a
   multiple of BK; hi at most `limit`, the block's last row's kept keys), their kept keys
   (clipped to hi) in kept: tiles lo / BK .. of BK keys, Q loaded with the first (the previous
   block's readers passed its last barrier), keys at or past hi zeros. m is in base-2 units;
   l is the lane's share of the row sum (its quad's lanes hold the rest). */
AWG_INLINE void awg_rows(COMMON_PARAMS, const ulong batch, const ulong head, const ulong row0,
                         const ulong lo, const ulong hi, const uint base, ulong *kept, float *m,
                         float *l, float *o) {
  const uint t = get_local_id(0), wg = t / 128, lane = t % 32, quad = lane % 4;
  __global const uchar *qp = (__global const uchar *)q, *kp = (__global const uchar *)k,
                       *vp = (__global const uchar *)v;
  const float scale2 = scale * M_LOG2E_F;
  awg_start_rows(lq, lk, lengths, lengths_off, causal_offset, batch, row0, hi, kept, m, l, o);
  const ulong first = lo / BK, tiles = (hi + BK - 1) / BK;
  const ulong kv_head = head / group;
  const ulong q_base = q_off + batch * q_sb + head * q_sh;
  const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
  const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
  if (first < tiles) {
    awg_load_kmajor(base, BQ, qp, q_base, q_sr, row0, lq, d, t);
    awg_fetch(base, kp, k_base, k_sr, vp, v_base, v_sr, first, tiles, hi, d, t);
  }
  ulong dq[D / 16];
#pragma unroll
  for (uint ks = 0; ks < D / 16; ks++)
    dq[ks] = awg_desc(base + (ks / 4) * (BQ * 128) + wg * (64 * 128) + (ks % 4) * 32, 16, 1024);
#if PIPE
  /* Tile i + 1 is copied while tile i is multiplied, into the stage tile i - 2 used; P V of
     tile i - 1 runs while tile i's weights are computed (its O is rescaled after it). */
  uint p[BK / 4];
  for (ulong i = first; i < tiles; i++) {
    awg_cp_async_wait0(); /* this work-item's copies of tile i (and Q) have landed */
    awg_fence_proxy_async();
    barrier(CLK_LOCAL_MEM_FENCE); /* and everyone's; tile i - 2's stage is read */
    awg_fetch(base, kp, k_base, k_sr, vp, v_base, v_sr, i + 1, tiles, hi, d, t);
    const uint stage = base + Q_BYTES + (uint)(i % STAGES) * STAGE_BYTES;
    float s[NS], nm[2], sum[2];
    awg_issue_qk(s, dq, stage);
    if (i > first) {
      awg_issue_pv(o, p, base + Q_BYTES + (uint)((i - 1) % STAGES) * STAGE_BYTES);
      wg_wait1_s(s);
    } else {
      wg_wait0_s(s);
    }
    awg_weights(s, i * BK, kept, scale2, quad, m, nm, sum);
    if (i > first) wg_wait0_o(o, p);
    awg_rescale(o, m, l, nm, sum);
    awg_pack(s, p);
  }
  if (first < tiles) {
    awg_issue_pv(o, p, base + Q_BYTES + (uint)((tiles - 1) % STAGES) * STAGE_BYTES);
    wg_wait0_o(o, p);
  }
  /* Both warpgroups are done with Q and the last stages before the next block's copies. */
  barrier(CLK_LOCAL_MEM_FENCE);
#else
  for (ulong i = first; i < tiles; i++) {
    awg_fetch(base, kp, k_base, k_sr, vp, v_base, v_sr, i + 1, tiles, hi, d, t);
    mma_cp_async_wait1(); /* this work-item's copies of tile i (and Q) have landed */
    awg_fence_proxy_async();
    barrier(CLK_LOCAL_MEM_FENCE); /* and everyone's */
    const uint stage = base + Q_BYTES + (uint)(i % STAGES) * STAGE_BYTES;
    awg_step(o, m, l, dq, stage, i * BK, kept, scale2, quad);
    barrier(CLK_LOCAL_MEM_FENCE); /* the stage is read: tile i + 2 may fill it */
  }
#endif
  awg_quad_sums(l);
}

/* The block's last row's kept keys: the tiles every row of the block needs. */
AWG_INLINE ulong awg_block_keys(const ulong lq, const ulong lk, __global const uint *lengths,
                                const ulong lengths_off, const long causal_offset,
                                const ulong batch, const ulong row0) {
  const ulong last = (row0 + BQ < lq ? row0 + BQ : lq) - 1;
  return kept_keys(last, batch_length(lk, lengths, lengths_off, batch), causal_offset);
}

/* The (batch, head) and first row of unit `unit` of the grid (blocks of BQ rows a head; with
   CAUSAL the blocks of a head go last first: the longest rows first, so the grid's tail is
   short). */
AWG_INLINE void awg_unit(const ulong unit, const ulong blocks, const ulong h, ulong *batch,
                         ulong *head, ulong *row0) {
  ulong block;
  const ulong bh = ocf_divmod(unit, blocks, &block);
  *batch = ocf_divmod(bh, h, head);
#if CAUSAL
  block = blocks - 1 - block;
#endif
  *row0 = block * BQ;
}

/* Unit `unit` of a grid of b h blocks x `splits` ranges a block (the range fastest): its (batch,
   head) and first row as awg_unit gives them, and its keys lo .. hi: range `split` of
   split_keys (a multiple of BK) of the block's last row's kept keys (empty: lo = hi). One range
   (split_keys >= lk): the block's keys. */
AWG_INLINE void awg_range_unit(COMMON_PARAMS, const ulong unit, const ulong splits,
                               const ulong split_keys, ulong *batch, ulong *head, ulong *row0,
                               ulong *split, ulong *lo, ulong *hi) {
  const ulong blocks = (lq + BQ - 1) / BQ;
  awg_unit(ocf_divmod(unit, splits, split), blocks, h, batch, head, row0);
  const ulong limit = awg_block_keys(lq, lk, lengths, lengths_off, causal_offset, *batch, *row0);
  *lo = *split * split_keys;
  *hi = *lo >= limit ? *lo : (limit - *lo < split_keys ? limit : *lo + split_keys);
}

/* The lane's rows' (m, l, O) of range `split` of block row0 into scratch as attention_mma_split
   writes them (m in natural-log units), for attention_wgmma_join. */
AWG_INLINE void awg_write_range(COMMON_PARAMS, const ulong batch, const ulong head,
                                const ulong row0, const ulong splits, const ulong split,
                                const float *m, const float *l, const float *o,
                                __global float *scratch) {
  const uint quad = get_local_id(0) % 4;
#pragma unroll
  for (uint v1 = 0; v1 < 2; v1++) {
    const ulong i = awg_lane_row(row0) + 8 * v1;
    if (i >= lq) continue;
    const ulong at = (((batch * h + head) * lq + i) * splits + split) * (d + 2);
    if (quad == 0) scratch[at] = m[v1] * M_LN2_F, scratch[at + 1] = l[v1];
#pragma unroll
    for (uint q8 = 0; q8 < D / 8; q8++)
#pragma unroll
      for (uint v0 = 0; v0 < 2; v0++) {
        const ulong col = 8 * q8 + 2 * quad + v0;
        if (col < d) scratch[at + 2 + col] = o[4 * q8 + 2 * v1 + v0];
      }
  }
}

/* The lane's rows of block row0 of (batch, head) written: out = O / l (kept 0: 0, lse -inf; a
   non-finite max: NaN), and lse where asked. */
AWG_INLINE void awg_finish(COMMON_PARAMS, const ulong batch, const ulong head, const ulong row0,
                           const ulong *kept, const float *m, const float *l, const float *o) {
  const uint quad = get_local_id(0) % 4;
#pragma unroll
  for (uint v1 = 0; v1 < 2; v1++) {
    const ulong i = awg_lane_row(row0) + 8 * v1;
    if (i >= lq) continue;
    const float norm = kept[v1] == 0 ? 0.0f : isfinite(m[v1]) ? 1.0f / l[v1] : NAN;
    const ulong at = out_off + batch * out_sb + head * out_sh + i * out_sr;
#pragma unroll
    for (uint q8 = 0; q8 < D / 8; q8++)
#pragma unroll
      for (uint v0 = 0; v0 < 2; v0++) {
        const ulong col = 8 * q8 + 2 * quad + v0;
        if (col < d) OCF_STORE(OUT_DTYPE, out, at + col, o[4 * q8 + 2 * v1 + v0] * norm);
      }
#if HAS_LSE
    if (quad == 0)
      lse[lse_off + (batch * h + head) * lq + i] = kept[v1] == 0 ? -INFINITY
                                                   : isfinite(m[v1])
                                                       ? (m[v1] + log2(l[v1])) * M_LN2_F
                                                       : NAN;
#endif
  }
}

#ifdef OCF_KERNEL_attention_wgmma
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void attention_wgmma(COMMON_PARAMS) {
  __local uchar smem[SMEM_BYTES] __attribute__((aligned(1024)));
  const uint base = (mma_local_addr(smem) + 1023u) & ~1023u;
  const ulong blocks = (lq + BQ - 1) / BQ, units = b * h * blocks;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong batch, head, row0;
    awg_unit(unit, blocks, h, &batch, &head, &row0);
    const ulong limit = awg_block_keys(lq, lk, lengths, lengths_off, causal_offset, batch, row0);
    ulong kept[2];
    float m[2], l[2], o[NO];
    awg_rows(COMMON_ARGS, batch, head, row0, 0, limit, base, kept, m, l, o);
    awg_finish(COMMON_ARGS, batch, head, row0, kept, m, l, o);
  }
}
#endif

#ifdef OCF_KERNEL_attention_wgmma_split
/* attention_wgmma with each row's keys cut into `splits` ranges of split_keys (a multiple of
   BK; few blocks against long keys, where the ranges are what fills the device): one workgroup
   per (batch, head, block, range), keys split * split_keys .. min(limit, + split_keys). Each
   row's (m, l, O) of the range goes to scratch as attention_mma_split writes it (m in natural-log
   units; a range none of whose keys the row keeps: m -inf, l 0, O 0); attention_wgmma_join then
   joins the ranges and writes out (and lse). */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
attention_wgmma_split(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                      __global float *scratch) {
  __local uchar smem[SMEM_BYTES] __attribute__((aligned(1024)));
  const uint base = (mma_local_addr(smem) + 1023u) & ~1023u;
  const ulong units = b * h * ((lq + BQ - 1) / BQ) * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong batch, head, row0, split, lo, hi;
    awg_range_unit(COMMON_ARGS, unit, splits, split_keys, &batch, &head, &row0, &split, &lo, &hi);
    ulong kept[2];
    float m[2], l[2], o[NO];
    awg_rows(COMMON_ARGS, batch, head, row0, lo, hi, base, kept, m, l, o);
    awg_write_range(COMMON_ARGS, batch, head, row0, splits, split, m, l, o, scratch);
  }
}
#endif

#ifdef OCF_KERNEL_attention_wgmma_join
/* After attention_wgmma_split: merge_ranges (attention_common.clh). Any workgroup size. */
__kernel void attention_wgmma_join(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                                   __global float *scratch) {
  merge_ranges(COMMON_ARGS, splits, scratch);
  (void)split_keys;
}
#endif
