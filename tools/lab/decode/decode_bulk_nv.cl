/*
 * decode_bulk_nv.cl: decoding attention (one query row a head, long keys) with K and V streamed
 * into a ring of local-memory stages by Hopper's 1-D bulk copy (cp.async.bulk, sm_90), for the
 * decode lab (README.md). The question it answers: is the library's decoding latency-bound
 * because each workgroup's loads go straight to registers in a chain of small steps, and does
 * keeping 32-64 KB a workgroup in flight by bulk copies reach the copy ceiling?
 *
 *   Q, out [b, h, 1, D]    K, V [b, h_kv, lk, D]    dense rows of D 16-bit elements
 *   query head hq reads key head hq / GROUP (GROUP = h / h_kv)
 *
 * decode_bulk_split: workgroup g = unit * ranges + r, unit = batch * h_kv + kv_head, takes the
 * GROUP query rows of its key head (flat rows unit * GROUP + i) over keys [lo, hi) of range r,
 * lo = r * range_keys (range_keys a multiple of BK, so only a row's last range can end in a
 * partial tile). The range's keys go through the ring a tile of BK keys at a time:
 *
 *   local:  | full[STAGES] empty[STAGES] (mbarriers), a flag | stage 0 | ... | stage STAGES-1 |
 *   stage:  | K tile: BK rows x D elements | V tile: BK rows x D elements |   (one bulk copy each:
 *            the rows of a key head are contiguous, so a tile is one run of bytes)
 *
 *   tile i -> stage i % STAGES; its consumers wait on full[s] for phase parity (i / STAGES) & 1;
 *   every consumer arrives on empty[s] once done with it; tile i + STAGES is issued into the
 *   stage only after empty[s] completed its phase for tile i (parity (i / STAGES) & 1).
 *
 * The consumers: WG work-items in KG = WG / LPK key groups of LPK lanes. Per tile, key group kg
 * takes keys kg, kg + KG, ... (KPG of them); lane `lane` holds CPL 16-byte chunks of each row
 * (chunk t at column chunk ((t + kg) % CPL) LPK + lane: the rotation by kg spreads the rows one
 * quarter-warp reads over every bank), its part of each (row, key) dot product, summed over the
 * group's lanes (warp shuffles; through local memory in the emulation), then each row's running
 * (m, l, acc) in base-2 units (the scale and log2(e) folded into Q) takes the group's keys with
 * one rescale. After the range the key groups are joined through local memory (over the ring)
 * and the range's (m, l, acc[D]) written to the partials; decode_bulk_merge, a second kernel,
 * joins each row's ranges into out, or (JOIN 1) the last workgroup of a key head to write its
 * range does, in this kernel.
 *
 * Who issues the copies (ISSUE): 0: work-item 0, a consumer, issues tile i - 1 + STAGES after it
 * consumed tile i (the stage of tile i - 1, most likely released by then); 1: work-item 0 issues
 * tile i + STAGES right after its own release of tile i (waits for the slowest consumer); 2: one
 * more warp (work-items WG .. WG + 31) whose first work-item issues every tile, waiting on
 * empty[s] before each refill. With BULK_EMULATE 1 no PTX is built: every work-item copies tiles
 * into the same ring (tile i - 1 + STAGES at the top of step i, after a barrier), the mbarriers
 * become barriers and the shuffles sums through local memory, so the rest (index arithmetic,
 * ragged tiles and ranges, the softmax, the joins) runs on any OpenCL device (PoCL).
 */

/* ---- tunables: decode_lab.c passes every one ---- */

/* Storage of Q, K, V and out: 1 f16, 2 bf16 (the library's ocf_dtype numbers). */
#ifndef DTYPE
#error "DTYPE: decode_lab.c passes every define"
#endif
/* The head dimension: a multiple of 8 (rows of whole 16-byte chunks), at most 256. */
#ifndef D
#error "D: decode_lab.c passes every define"
#endif
/* Query heads a key head (h / h_kv): the rows of a workgroup. */
#ifndef GROUP
#error "GROUP: decode_lab.c passes every define"
#endif
/* Consumer work-items a workgroup: whole warps. */
#ifndef WG
#error "WG: decode_lab.c passes every define"
#endif
/* Lanes a key: a power of two, at most 32, dividing WG and D / 8. */
#ifndef LPK
#error "LPK: decode_lab.c passes every define"
#endif
/* Keys a tile (a stage holds a K tile and a V tile): a multiple of WG / LPK. */
#ifndef BK
#error "BK: decode_lab.c passes every define"
#endif
/* Stages of the ring, at least 2. */
#ifndef STAGES
#error "STAGES: decode_lab.c passes every define"
#endif
/* Who issues the bulk copies: 0, 1 or 2 (above). */
#ifndef ISSUE
#error "ISSUE: decode_lab.c passes every define"
#endif
/* 0: every consumer arrives on empty[s]; 1: lane 0 of each warp, after bar.warp.sync. */
#ifndef ARRIVE
#error "ARRIVE: decode_lab.c passes every define"
#endif
/* 1: fence.mbarrier_init.release.cluster after the mbarriers are initialised; 0: barrier only. */
#ifndef INIT_FENCE
#error "INIT_FENCE: decode_lab.c passes every define"
#endif
/* 1: the issuer runs fence.proxy.async.shared::cta between a stage's release (its wait on
   empty[s]) and the bulk copies that refill it (the consumers' generic-proxy reads before the
   asynchronous proxy's writes; CUTLASS's pipelines rely on the mbarrier alone); 0: none. */
#ifndef PROXY_FENCE
#error "PROXY_FENCE: decode_lab.c passes every define"
#endif
/* Polls of an mbarrier before the kernel traps (a lost phase ends the run instead of hanging
   it); 0: no limit. */
#ifndef WAIT_LIMIT
#error "WAIT_LIMIT: decode_lab.c passes every define"
#endif
/* 1: no PTX, plain copies, barriers and local-memory sums (any device); 0: PTX for sm_90. */
#ifndef BULK_EMULATE
#error "BULK_EMULATE: decode_lab.c passes every define"
#endif
/* 0: decode_bulk_merge joins each row's ranges; 1: the last workgroup of a key head to finish
   joins them (arrive_last), one kernel. */
#ifndef JOIN
#error "JOIN: decode_lab.c passes every define"
#endif
/* Work-items of decode_bulk_merge, and the most ranges a row it joins. */
#ifndef MERGE_WG
#error "MERGE_WG: decode_lab.c passes every define"
#endif
#ifndef MAX_RANGES
#error "MAX_RANGES: decode_lab.c passes every define"
#endif

#if DTYPE != 1 && DTYPE != 2
#error "DTYPE is 1 (f16) or 2 (bf16)"
#endif
#if D % 8 || D < 8 || D > 256
#error "D must be a multiple of 8 from 8 to 256"
#endif
#if WG % 32 || WG < 32 || GROUP < 1
#error "WG must be whole warps, GROUP at least 1"
#endif
#if (LPK & (LPK - 1)) || LPK > 32 || WG % LPK || (D / 8) % LPK
#error "LPK must be a power of two, at most 32, dividing WG and D / 8"
#endif
#if BK % (WG / LPK) || STAGES < 2
#error "BK must be a multiple of WG / LPK, STAGES at least 2"
#endif
#if ISSUE < 0 || ISSUE > 2 || ARRIVE < 0 || ARRIVE > 1 || JOIN < 0 || JOIN > 1
#error "ISSUE is 0, 1 or 2; ARRIVE and JOIN 0 or 1"
#endif

/* ---- derived ---- */

#define KG (WG / LPK)          /* key groups */
#define KPG (BK / KG)          /* keys a key group takes of a tile */
#define ROW_CHUNKS (D / 8)     /* 16-byte chunks of a K or V row */
#define CPL (ROW_CHUNKS / LPK) /* chunks a lane holds of a row */
#define TILE_CHUNKS (BK * ROW_CHUNKS)
#define STAGE_CHUNKS (2 * TILE_CHUNKS) /* the K tile, then the V tile */
#define RING_CHUNKS (STAGES * STAGE_CHUNKS)
#define GROUPS_CHUNKS ((KG * (D + 2) + 3) / 4)   /* the key groups' (m, l, acc[D]), over the ring */
#define MERGE_CHUNKS (JOIN ? MAX_RANGES / 2 : 0) /* w, lw of the in-kernel merge */
#define AREA_CHUNKS (GROUPS_CHUNKS > MERGE_CHUNKS ? GROUPS_CHUNKS : MERGE_CHUNKS)
#define BODY_CHUNKS (RING_CHUNKS > AREA_CHUNKS ? RING_CHUNKS : AREA_CHUNKS)
#define BAR_CHUNKS ((2 * STAGES * 8 + 4 + 15) / 16) /* the mbarriers, then JOIN's flag */
/* One spare chunk: the base is rounded up to 16 bytes by hand. */
#define SMEM_CHUNKS (1 + BAR_CHUNKS + BODY_CHUNKS)
#define THREADS (WG + (ISSUE == 2 ? 32 : 0))
#define ARRIVALS (ARRIVE ? WG / 32 : WG) /* arrivals that complete a phase of empty[s] */

#define INLINE static inline __attribute__((always_inline))

/* ---- storage ---- */

/* The 8 elements of a 16-byte chunk (4 words, each word's lower half the lower element). */
INLINE void chunk_to_float(const uint4 w, float x[8]) {
  const uint words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
  for (uint i = 0; i < 4; i++) {
#if DTYPE == 2
    x[2 * i] = as_float(words[i] << 16);
    x[2 * i + 1] = as_float(words[i] & 0xffff0000u);
#else
    const float2 pair = vload_half2(0, (__private const half *)&words[i]);
    x[2 * i] = pair.x;
    x[2 * i + 1] = pair.y;
#endif
  }
}

/* x rounded to the storage type (to nearest even), stored as element i of out. */
INLINE void store_element(__global ushort *out, const ulong i, const float x) {
#if DTYPE == 2
  const uint u = as_uint(x);
  out[i] =
      isnan(x) ? (ushort)((u >> 16) | 0x40u) : (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#else
  vstore_half_rte(x, i, (__global half *)out);
#endif
}

/* ---- the ring's synchronisation: PTX, or its emulation ---- */

/* The address of p in the shared window (32 bits), as PTX's shared-memory operands take it. */
INLINE uint local_addr(__local const void *p) {
  return (uint)(ulong)p;
}

#if !BULK_EMULATE
INLINE void mbar_init(const uint bar, const uint count) {
  __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
/* Makes the initialised mbarriers visible to the asynchronous proxy (the bulk copies'
   complete_tx), as CUTLASS's fence_barrier_init; a CTA is a cluster of one. */
INLINE void mbar_init_fence(void) {
#if INIT_FENCE
  __asm__ volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}
INLINE void mbar_arrive(const uint bar) {
  __asm__ volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/* Arrives on bar (its one expected arrival), expecting `bytes` more of asynchronous copies
   before its current phase completes. */
INLINE void mbar_expect_tx(const uint bar, const uint bytes) {
  __asm__ volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                   : "memory");
}
/* Waits until the phase of bar with the given parity has completed (acquire, CTA scope). */
INLINE void mbar_wait(const uint bar, const uint parity) {
  uint done = 0;
#if WAIT_LIMIT
  uint polls = 0;
#endif
  while (!done) {
    __asm__ volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
#if WAIT_LIMIT
    if (!done && ++polls == WAIT_LIMIT) __asm__ volatile("trap;");
#endif
  }
}
/* `bytes` (a multiple of 16) from global src (16-byte aligned) to shared dst (16-byte aligned),
   counted on bar's transaction count as they land. */
INLINE void bulk_copy(const uint dst, __global const uchar *src, const uint bytes, const uint bar) {
  __asm__ volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                   "%2, [%3];" ::"r"(dst),
                   "l"((ulong)src), "r"(bytes), "r"(bar)
                   : "memory");
}
/* The sum of v over the LPK lanes of a key group (consecutive lanes of one warp), the same in
   each: a butterfly of shfl.sync. Every lane of the warp calls it. */
INLINE float group_sum1(float v) {
#pragma unroll
  for (uint mask = 1; mask < LPK; mask <<= 1) {
    float other;
    __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                     : "=f"(other)
                     : "f"(v), "r"(mask));
    v += other;
  }
  return v;
}
#endif

/* Each part summed over this work-item's key group, the same bits in each of its lanes. Every
   work-item of the workgroup calls it (the emulation's barriers; the shuffles of a warp). */
INLINE void group_sum(__local float *red, float part[KPG][GROUP], const uint t) {
#if BULK_EMULATE
  const uint first = t / LPK * LPK;
#pragma unroll
  for (uint u = 0; u < KPG; u++)
#pragma unroll
    for (uint g = 0; g < GROUP; g++)
      red[(u * GROUP + g) * THREADS + t] = part[u][g];
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint u = 0; u < KPG; u++)
#pragma unroll
    for (uint g = 0; g < GROUP; g++) {
      __local const float *x = red + (u * GROUP + g) * THREADS + first;
      float sum = x[0];
      for (uint l = 1; l < LPK; l++)
        sum += x[l];
      part[u][g] = sum;
    }
  barrier(CLK_LOCAL_MEM_FENCE); /* read before the next tile writes */
#else
  (void)red;
  (void)t;
#pragma unroll
  for (uint u = 0; u < KPG; u++)
#pragma unroll
    for (uint g = 0; g < GROUP; g++)
      part[u][g] = group_sum1(part[u][g]);
#endif
}

/* ---- the range ---- */

/* What a workgroup streams: its key head's K and V rows from key lo, as bytes. */
typedef struct {
  __global const uchar *k, *v;
  uint keys;  /* hi - lo */
  uint tiles; /* ceil(keys / BK) */
} range_src;

/* Keys of tile i (BK but for a partial last tile). */
INLINE uint tile_keys(const range_src *src, const uint i) {
  const uint left = src->keys - i * BK;
  return left < BK ? left : BK;
}

#if !BULK_EMULATE
/* Tile i into stage i % STAGES (ring and bars: shared addresses) once the consumers have
   released its tile before (i >= STAGES): one work-item. */
INLINE void issue_tile(const range_src *src, const uint ring, const uint bars, const uint i) {
  const uint s = i % STAGES, full = bars + 8 * s;
  if (i >= STAGES) {
    mbar_wait(bars + 8 * (STAGES + s), (i / STAGES - 1) & 1);
#if PROXY_FENCE
    __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  }
  const uint bytes = tile_keys(src, i) * (D * 2);
  const ulong at = (ulong)i * (BK * D * 2);
  mbar_expect_tx(full, 2 * bytes);
  bulk_copy(ring + s * (STAGE_CHUNKS * 16), src->k + at, bytes, full);
  bulk_copy(ring + s * (STAGE_CHUNKS * 16) + TILE_CHUNKS * 16, src->v + at, bytes, full);
}
#else
/* Tile i into stage i % STAGES by every work-item, 16 bytes at a time. */
INLINE void copy_tile(const range_src *src, __local uint4 *ring, const uint i, const uint t) {
  const uint chunks = tile_keys(src, i) * ROW_CHUNKS;
  __local uint4 *ks = ring + (i % STAGES) * STAGE_CHUNKS, *vs = ks + TILE_CHUNKS;
  __global const uint4 *kg = (__global const uint4 *)src->k + (ulong)i * TILE_CHUNKS;
  __global const uint4 *vg = (__global const uint4 *)src->v + (ulong)i * TILE_CHUNKS;
  for (uint c = t; c < chunks; c += THREADS) {
    ks[c] = kg[c];
    vs[c] = vg[c];
  }
}
#endif

/* The running softmax of a key group's rows: acc[g][t][e] is column ((t + kg) % CPL) LPK + lane
   chunk, element e, of row g; q the same columns of the row's query (times scale log2(e)). */
typedef struct {
  float q[GROUP][CPL][8];
  float acc[GROUP][CPL][8];
  float m[GROUP], l[GROUP];
} rows_state;

/* The column chunk of this lane's chunk t. */
INLINE uint lane_chunk(const uint kg, const uint lane, const uint t) {
  return ((t + kg) % CPL) * LPK + lane;
}

/* One tile of `keys` keys (K tile at ks, V tile at vs) into the key group's rows. */
INLINE void consume_tile(rows_state *st, __local const uint4 *ks, __local const uint4 *vs,
                         const uint keys, const uint kg, const uint lane, __local float *red,
                         const uint t) {
  float part[KPG][GROUP];
#pragma unroll
  for (uint u = 0; u < KPG; u++) {
    const uint key = kg + u * KG, row = key < keys ? key : 0; /* row 0: finite, weight 0 */
    float x[CPL][8];
#pragma unroll
    for (uint c = 0; c < CPL; c++)
      chunk_to_float(ks[row * ROW_CHUNKS + lane_chunk(kg, lane, c)], x[c]);
#pragma unroll
    for (uint g = 0; g < GROUP; g++) {
      float p = 0.0f;
#pragma unroll
      for (uint c = 0; c < CPL; c++)
#pragma unroll
        for (uint e = 0; e < 8; e++)
          p = fma(st->q[g][c][e], x[c][e], p);
      part[u][g] = p;
    }
  }
  group_sum(red, part, t);
  /* Each row: one rescale where the max grew, then the keys' weights (0 for keys past `keys`). */
#pragma unroll
  for (uint g = 0; g < GROUP; g++) {
    float mx = -INFINITY;
#pragma unroll
    for (uint u = 0; u < KPG; u++)
      if (kg + u * KG < keys) mx = fmax(mx, part[u][g]);
    const float nm = fmax(st->m[g], mx);
    if (nm > st->m[g]) {
      const float f = exp2(st->m[g] - nm);
      st->l[g] *= f;
#pragma unroll
      for (uint c = 0; c < CPL; c++)
#pragma unroll
        for (uint e = 0; e < 8; e++)
          st->acc[g][c][e] *= f;
    }
#pragma unroll
    for (uint u = 0; u < KPG; u++) {
      part[u][g] = kg + u * KG < keys ? exp2(part[u][g] - nm) : 0.0f;
      st->l[g] += part[u][g];
    }
    st->m[g] = nm;
  }
#pragma unroll
  for (uint u = 0; u < KPG; u++) {
    const uint key = kg + u * KG, row = key < keys ? key : 0;
    float x[CPL][8];
#pragma unroll
    for (uint c = 0; c < CPL; c++)
      chunk_to_float(vs[row * ROW_CHUNKS + lane_chunk(kg, lane, c)], x[c]);
#pragma unroll
    for (uint g = 0; g < GROUP; g++)
#pragma unroll
      for (uint c = 0; c < CPL; c++)
#pragma unroll
        for (uint e = 0; e < 8; e++)
          st->acc[g][c][e] = fma(part[u][g], x[c][e], st->acc[g][c][e]);
  }
}

/* The query rows of unit's key head (flat rows unit GROUP + g), scaled, and the empty state. */
INLINE void rows_init(rows_state *st, __global const ushort *q, const uint unit, const uint kg,
                      const uint lane, const float qscale) {
#pragma unroll
  for (uint g = 0; g < GROUP; g++) {
    __global const uint4 *qr = (__global const uint4 *)(q + ((ulong)unit * GROUP + g) * D);
#pragma unroll
    for (uint c = 0; c < CPL; c++) {
      /* (a producer-warp work-item, kg >= KG, reads chunks in range too, and never uses them) */
      chunk_to_float(qr[lane_chunk(kg, lane, c)], st->q[g][c]);
#pragma unroll
      for (uint e = 0; e < 8; e++) {
        st->q[g][c][e] *= qscale;
        st->acc[g][c][e] = 0.0f;
      }
    }
    st->m[g] = -INFINITY;
    st->l[g] = 0.0f;
  }
}

/* The key groups' states joined through local memory `joinl` (KG (D + 2) floats, over the ring)
   and written as the range's partial of each row: m (base 2), l, then acc[D] not yet divided.
   Every work-item calls it, after a barrier that ends every use of the ring. */
INLINE void join_groups(const rows_state *st, __local float *joinl, __global float *part_ml,
                        __global float *part_acc, const uint unit, const uint ranges, const uint r,
                        const uint kg, const uint lane, const uint t) {
  for (uint g = 0; g < GROUP; g++) {
    if (kg < KG) {
      __local float *slot = joinl + kg * (D + 2);
      if (lane == 0) slot[0] = st->m[g], slot[1] = st->l[g];
#pragma unroll
      for (uint c = 0; c < CPL; c++)
#pragma unroll
        for (uint e = 0; e < 8; e++)
          slot[2 + lane_chunk(kg, lane, c) * 8 + e] = st->acc[g][c][e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong p = ((ulong)unit * GROUP + g) * ranges + r;
    for (uint col = t; col < D; col += THREADS) {
      float mx = -INFINITY;
      for (uint j = 0; j < KG; j++)
        mx = fmax(mx, joinl[j * (D + 2)]);
      float a = 0.0f, l = 0.0f;
      for (uint j = 0; j < KG; j++) {
        const float w = exp2(joinl[j * (D + 2)] - mx); /* 0 for a group with no key */
        a += joinl[j * (D + 2) + 2 + col] * w;
        l += joinl[j * (D + 2) + 1] * w;
      }
      part_acc[p * D + col] = a;
      if (col == 0) part_ml[2 * p] = mx, part_ml[2 * p + 1] = l;
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* read before the next row writes */
  }
}

/* ---- joining a row's ranges ---- */

/* Row `row`'s ranges joined into out: out[row D + c] = sum_r acc_r[c] 2^(m_r - M) /
   sum_r l_r 2^(m_r - M), M the largest m_r, by work-items t < nt with w and lw (MAX_RANGES floats
   each) of local memory. Every work-item of the workgroup calls it (its barriers). */
INLINE void merge_row(__global const float *part_ml, __global const float *part_acc,
                      __global ushort *out, const uint ranges, const ulong row, const uint t,
                      const uint nt, __local float *w, __local float *lw) {
  const ulong first = row * ranges;
  for (uint r = t; r < ranges; r += nt)
    w[r] = part_ml[2 * (first + r)];
  barrier(CLK_LOCAL_MEM_FENCE);
  float mx = -INFINITY;
  for (uint r = 0; r < ranges; r++)
    mx = fmax(mx, w[r]);
  barrier(CLK_LOCAL_MEM_FENCE); /* every m read before w is overwritten */
  for (uint r = t; r < ranges; r += nt) {
    const float wr = exp2(part_ml[2 * (first + r)] - mx);
    w[r] = wr;
    lw[r] = part_ml[2 * (first + r) + 1] * wr;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float l = 0.0f;
  for (uint r = 0; r < ranges; r++)
    l += lw[r];
  for (uint col = t; col < D; col += nt) {
    __global const float *a = part_acc + first * D + col;
    float sum = 0.0f;
    uint r = 0;
    for (; r + 8 <= ranges; r += 8) { /* eight loads in flight */
      float x[8];
#pragma unroll
      for (uint j = 0; j < 8; j++)
        x[j] = a[(ulong)(r + j) * D];
#pragma unroll
      for (uint j = 0; j < 8; j++)
        sum += x[j] * w[r + j];
    }
    for (; r < ranges; r++)
      sum += a[(ulong)r * D] * w[r];
    store_element(out, row * D + col, sum / l);
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* w and lw read before the next row */
}

#if JOIN
/* Counts this workgroup's range in at its unit's counter (after its partials are written) and
   returns 1 in every work-item of the unit's last range to arrive, which has set the counter back
   to zero and may read every range's partials. OpenCL 1.2 orders nothing between workgroups:
   PTX fences at GPU scope by one work-item next to the barriers (fences are cumulative over
   bar.sync), as the library's decode.join=2; emulated, every work-item's mem_fence (PoCL's
   memory is coherent), as its decode.join=1. */
INLINE int arrive_last(__global uint *counter, const uint ranges, const uint t, __local int *last) {
#if BULK_EMULATE
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    *last = atomic_inc(counter) == ranges - 1;
    if (*last) atomic_xchg(counter, 0u);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#else
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    uint old, zero;
    __asm__ volatile("fence.acq_rel.gpu;\n\tatom.global.add.u32 %0, [%1], 1;"
                     : "=r"(old)
                     : "l"((ulong)counter)
                     : "memory");
    *last = old == ranges - 1;
    if (*last)
      __asm__ volatile("atom.global.exch.b32 %0, [%1], 0;\n\tfence.acq_rel.gpu;"
                       : "=r"(zero)
                       : "l"((ulong)counter)
                       : "memory");
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  return *last;
}
#endif

/* q [b h D], k and v [b h_kv lk D] as 16-bit words; part_ml [b h ranges 2] and part_acc
   [b h ranges D] the ranges' partials; qscale = scale log2(e); with JOIN, out [b h D] and the
   counters [b h_kv] (zero before the first call, left zero), else unused. Global size
   b h_kv ranges THREADS, local THREADS. */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
decode_bulk_split(__global const ushort *q, __global const ushort *k, __global const ushort *v,
                  __global float *part_ml, __global float *part_acc, const uint lk,
                  const uint range_keys, const uint ranges, const float qscale,
                  __global ushort *out, __global uint *counters) {
  __local uint4 smem[SMEM_CHUNKS];
#if BULK_EMULATE
  __local float red[KPG * GROUP * THREADS];
#else
  __local float *red = 0;
#endif
  const uint t = (uint)get_local_id(0), kg = t / LPK, lane = t % LPK;
  const uint grp = (uint)get_group_id(0), unit = grp / ranges, r = grp % ranges;
  /* The ring 16-byte aligned in the shared window, its mbarriers first. */
  const uint pad = (16u - (local_addr(smem) & 15u)) & 15u;
  __local uchar *base = (__local uchar *)smem + pad;
  __local uint4 *ring = (__local uint4 *)(base + BAR_CHUNKS * 16);

  range_src src;
  const uint lo = r * range_keys, hi = lk - lo < range_keys ? lk : lo + range_keys;
  src.k = (__global const uchar *)(k + ((ulong)unit * lk + lo) * D);
  src.v = (__global const uchar *)(v + ((ulong)unit * lk + lo) * D);
  src.keys = hi - lo;
  src.tiles = (src.keys + BK - 1) / BK;

  rows_state st;
  rows_init(&st, q, unit, kg, lane, qscale);

#if BULK_EMULATE
  for (uint i = 0; i < STAGES && i < src.tiles; i++)
    copy_tile(&src, ring, i, t);
  for (uint i = 0; i < src.tiles; i++) {
    barrier(CLK_LOCAL_MEM_FENCE); /* tile i landed; every work-item is done with tile i - 1 */
    if (i >= 1 && i - 1 + STAGES < src.tiles) copy_tile(&src, ring, i - 1 + STAGES, t);
    __local const uint4 *ks = ring + (i % STAGES) * STAGE_CHUNKS;
    consume_tile(&st, ks, ks + TILE_CHUNKS, tile_keys(&src, i), kg, lane, red, t);
  }
#else
  const uint bars = local_addr(base), ring_at = local_addr(ring);
  if (t == 0) {
    for (uint s = 0; s < STAGES; s++) {
      mbar_init(bars + 8 * s, 1);                   /* full: the issuer's expect_tx + bytes */
      mbar_init(bars + 8 * (STAGES + s), ARRIVALS); /* empty: the consumers */
    }
    mbar_init_fence();
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#if ISSUE == 2
  if (t >= WG) { /* the producer warp: its first work-item issues every tile */
    if (t == WG)
      for (uint i = 0; i < src.tiles; i++)
        issue_tile(&src, ring_at, bars, i);
  } else
#else
  if (t == 0)
    for (uint i = 0; i < STAGES && i < src.tiles; i++)
      issue_tile(&src, ring_at, bars, i);
#endif
  {
    for (uint i = 0; i < src.tiles; i++) {
      const uint s = i % STAGES;
      mbar_wait(bars + 8 * s, (i / STAGES) & 1);
      __local const uint4 *ks = ring + s * STAGE_CHUNKS;
      consume_tile(&st, ks, ks + TILE_CHUNKS, tile_keys(&src, i), kg, lane, red, t);
#if ARRIVE
      __asm__ volatile("bar.warp.sync -1;" ::: "memory");
      if (t % 32 == 0) mbar_arrive(bars + 8 * (STAGES + s));
#else
      mbar_arrive(bars + 8 * (STAGES + s));
#endif
#if ISSUE == 0
      if (t == 0 && i >= 1 && i - 1 + STAGES < src.tiles)
        issue_tile(&src, ring_at, bars, i - 1 + STAGES);
#elif ISSUE == 1
      if (t == 0 && i + STAGES < src.tiles) issue_tile(&src, ring_at, bars, i + STAGES);
#endif
    }
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE); /* every tile consumed: the ring becomes the join's */
  join_groups(&st, (__local float *)ring, part_ml, part_acc, unit, ranges, r, kg, lane, t);
#if JOIN
  if (arrive_last(counters + unit, ranges, t, (__local int *)(base + 2 * STAGES * 8))) {
    __local float *w = (__local float *)ring, *lw = w + MAX_RANGES;
    for (uint g = 0; g < GROUP; g++)
      merge_row(part_ml, part_acc, out, ranges, (ulong)unit * GROUP + g, t, THREADS, w, lw);
  }
#else
  (void)out;
  (void)counters;
#endif
}

/* ---- decode_bulk_merge ---- */

/* Every row's ranges joined into out (JOIN 0). Global size b h MERGE_WG, local MERGE_WG. */
__kernel __attribute__((reqd_work_group_size(MERGE_WG, 1, 1))) void
decode_bulk_merge(__global const float *part_ml, __global const float *part_acc,
                  __global ushort *out, const uint ranges) {
  __local float w[MAX_RANGES], lw[MAX_RANGES];
  merge_row(part_ml, part_acc, out, ranges, get_group_id(0), (uint)get_local_id(0), MERGE_WG, w,
            lw);
}
