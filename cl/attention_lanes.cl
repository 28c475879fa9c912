/*
 * attention_lanes.cl: fused attention for few query rows against long keys (decoding), out =
 * softmax(scale * Q K^T + mask) V, the layout, mask and rules of cl/attention.cl
 * (attention_common.clh holds what they share), with K and V streamed through registers: no tile
 * in local memory and, with SHUFFLE, no barrier in the key loop. Two kernels: attention_lanes
 * (below), then attention_lanes_join, which joins each row's key ranges and writes out (and lse);
 * or, with JOIN, attention_lanes alone, its last workgroup to finish a row block joining the
 * block's ranges (a second kernel costs its launch and the gap before it: some 9 us of a 66 us
 * decode on the H200).
 *
 * Decoding reads every key once and does little with it, so its speed is how many bytes are in
 * flight: cl/attention_decode.cl stages each tile through local memory behind barriers (a fifth
 * to a half of the copy ceiling on the H200); here each key row goes straight from global memory
 * into the registers of the SEG work-items that score it, or (BULK, Hopper) into a ring of
 * local-memory stages that the copy engine fills ahead of the lanes (tools/lab/decode measured
 * the idea first).
 */

/* ---- tunables, each passed by the host (src/plan/plan_attention_lanes.c) ---- */

/* Work-items a workgroup: SLOTS = WG / ROWG / SEG keys in flight at once (UNROLL each). */
#ifndef WG
#error "WG: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* Work-items (lanes) a key: a power of two dividing WG; with SHUFFLE at most 32. */
#ifndef SEG
#error "SEG: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* Query rows a workgroup (of the group * lq rows that share a key head). */
#ifndef RB
#error "RB: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* Row groups: the WG work-items in ROWG groups of WG / ROWG, group g holding RPI = RB / ROWG of
   the block's rows (g RPI ..) and taking every key of the range for them. Fewer rows a work-item
   (registers: grouped heads' blocks of 4 rows held 128 floats a work-item) and as many warps
   more at the same keys, which each group reads (with BULK from the ring, once a group; without,
   from global memory through the caches). */
#ifndef ROWG
#error "ROWG: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* Elements a K, V or Q load (1, 2, 4 or 8): divides d, and every K and V offset and stride. */
#ifndef VEC
#error "VEC: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* Keys a lane loads before it scores any of them. */
#ifndef UNROLL
#error "UNROLL: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* 1: a step's loads are issued before the step before it is scored (its chunks held twice). */
#ifndef AHEAD
#error "AHEAD: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* 0: attention_lanes_join joins the ranges; 1: the last range of a row block to arrive joins
   them (arrive_last of join.clh and the joins of attention_common.clh, in joinl), ordered by
   mem_fence; 2: the same, ordered by PTX fences (NVIDIA compute capability 7.0 on). The host
   keeps 3 splits + 1 <= SLOTS (D + 2). */
#ifndef JOIN
#error "JOIN: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
/* 1 (NVIDIA compute capability 9.0, PTX): K and V reach the lanes through a ring of STAGES
   local-memory stages of BULK_KEYS keys each (a whole number of steps), filled by Hopper's bulk
   copies (cp.async.bulk) on mbarriers, STAGES - 1 tiles ahead of the lanes; VEC elements of K
   and of V are 16 bytes, and so is every K and V offset and stride; 0: loads into registers. */
#ifndef BULK
#error "BULK: the host passes every define (src/plan/plan_attention_lanes.c)"
#endif
#if BULK
#ifndef STAGES
#error "STAGES: the host passes every define with BULK (src/plan/plan_attention_lanes.c)"
#endif
#ifndef BULK_KEYS
#error "BULK_KEYS: the host passes every define with BULK (src/plan/plan_attention_lanes.c)"
#endif
/* Which stage warp 0 refills after tile n: 0 tile n's own (with tile n + STAGES, once the
   slowest warp has read tile n); 1 the stage of tile n - 1 (with tile n - 1 + STAGES: read by
   every warp long before, so no wait, one tile fewer in flight). */
#ifndef REFILL_BEFORE
#error "REFILL_BEFORE: the host passes every define with BULK (src/plan/plan_attention_lanes.c)"
#endif
#if STAGES < 2 || BULK_KEYS % (WG / ROWG / SEG * UNROLL) || !SHUFFLE || WG % 32 || AHEAD
#error "BULK: 2 stages or more, whole steps a tile, warp shuffles, whole warps, no AHEAD"
#endif
#endif
#if WG % SEG || (SEG & (SEG - 1)) || D % VEC || UNROLL < 1 || RB < 1
#error "SEG must be a power of two dividing WG, VEC must divide D, UNROLL and RB at least 1"
#endif
#if ROWG < 1 || RB % ROWG || WG % (ROWG * SEG)
#error "ROWG must divide RB, and WG / ROWG be whole slots of SEG lanes"
#endif
#if SHUFFLE && SEG > 32
#error "SHUFFLE sums a key's lanes within one warp: SEG <= 32"
#endif

/* ---- attention_lanes ----
 *
 * One workgroup per unit (batch, key head, block of RB rows, key range of split_keys keys, a
 * multiple of SLOTS UNROLL: a step never crosses into the next range, so a key a row keeps, j <
 * kept(i), is one of this range's below hi), as attention_decode's:
 * the block's rows are the query rows of all the query heads that read this key head (flat row
 * rho = g * lq + i of head kv_head * group + g), so K and V are read once per key head.
 * Work-item `lane` of slot `slot` of row group `rowg` (SLOTS slots of SEG lanes a group) holds
 * the columns of its chunks, chunk t at columns (t SEG + lane) VEC .. + VEC (NCH chunks: every
 * column of D once), of its group's RPI queries and of their running acc. Per step of SLOTS
 * UNROLL keys, slot `slot` of every group takes keys j0 + u SLOTS + slot (u < UNROLL):
 *   1. each lane loads its chunks of those K and V rows (VEC-wide, UNROLL rows in flight; with
 *      AHEAD during the step before)
 *   2. its part of each (row, key) dot product; the slot's lanes sum their parts (a butterfly
 *      of warp shuffles, or through local memory and two barriers), the same bits in each lane
 *   3. each row's (m, s, acc) takes the step's kept keys: one rescale, then a weight a key
 * The lanes of a slot agree on (m, s); after the range the slots' (m, s, acc) are joined through
 * local memory and written to scratch as attention_decode writes them.
 *
 *   local   joinl [SLOTS][RB][D + 2] floats       redl [RPI UNROLL][WG] floats (no SHUFFLE)
 */
#define RPI (RB / ROWG)                         /* rows a work-item */
#define SLOTS (WG / ROWG / SEG)                 /* slots a row group */
#define NCH ((D + VEC * SEG - 1) / (VEC * SEG)) /* chunks a lane */
typedef OCF_FLOATN(VEC) lanes_vec;

/* The dot product of two chunks; a chunk from VEC floats at private or local p, and into them. */
#if VEC == 8
#define LANES_DOT(a, b) (dot((a).lo, (b).lo) + dot((a).hi, (b).hi))
#define LANES_FROM(p) vload8(0, p)
#define LANES_INTO(x, p) vstore8(x, 0, p)
#elif VEC == 4
#define LANES_DOT(a, b) dot(a, b)
#define LANES_FROM(p) vload4(0, p)
#define LANES_INTO(x, p) vstore4(x, 0, p)
#elif VEC == 2
#define LANES_DOT(a, b) dot(a, b)
#define LANES_FROM(p) vload2(0, p)
#define LANES_INTO(x, p) vstore2(x, 0, p)
#else
#define LANES_DOT(a, b) ((a) * (b))
#define LANES_FROM(p) (*(p))
#define LANES_INTO(x, p) (*(p) = (x))
#endif

/* A chunk of K or V as loaded (raw: LANES_RAW(T)) and as floats (LANES_CVT(T, raw)): VEC
   elements of storage T from element e of p (e a multiple of VEC) in one aligned access of the
   whole chunk (LANES_FETCH(T, p, e)). (vloadN on a 16-bit pointer assumes 2-byte alignment only,
   and NVIDIA's OpenCL then loads element by element: bf16 decoding ran at 1213 GB/s so on the
   H200.) 16-bit chunks stay as their words until they are used (half the registers in flight):
   each word's lower half is the lower element; halves convert from a private copy
   (vload_half2 there may become a register conversion), bfloat16s by moving their bits into a
   float's upper half. A raw 0 is 0.0 in every type. */
#define LANES_RAW(T) OCF_CAT(LANES_RAW_, T)
#define LANES_FETCH(T, p, e) OCF_CAT(LANES_FETCH_, T)(p, e)
#define LANES_CVT(T, x) OCF_CAT(LANES_CVT_, T)(x)
#define LANES_RAW_0 lanes_vec
#define LANES_CVT_0(x) (x)
#define LANES_FETCH_1(p, e) LANES_FETCH_16(p, e)
#define LANES_FETCH_2(p, e) LANES_FETCH_16(p, e)
#if VEC == 1
#define LANES_FETCH_0(p, e) OCF_LOAD(0, p, e)
#define LANES_RAW_1 ushort
#define LANES_RAW_2 ushort
#define LANES_FETCH_16(p, e) (((__global const ushort *)(p))[e])
#define LANES_CVT_1(x) vload_half(0, (__private const half *)&(x))
#define LANES_CVT_2(x) OCF_BF16_TO_FLOAT(x)
#else
#define LANES_FETCH_0(p, e) OCF_LOADV(0, VEC, p, (e) / VEC)
#if VEC == 2
#define LANES_WORDS uint
#define LANES_WORDS_AT(w, i) (w)
#elif VEC == 4
#define LANES_WORDS uint2
#define LANES_WORDS_AT(w, i) ((i) ? (w).y : (w).x)
#else
#define LANES_WORDS uint4
#define LANES_WORDS_AT(w, i) ((i) == 0 ? (w).x : (i) == 1 ? (w).y : (i) == 2 ? (w).z : (w).w)
#endif
#define LANES_RAW_1 LANES_WORDS
#define LANES_RAW_2 LANES_WORDS
#define LANES_FETCH_16(p, e) (*(__global const LANES_WORDS *)((__global const ushort *)(p) + (e)))
#define LANES_CVT_1(w) lanes_words_to_float(w, 0)
#define LANES_CVT_2(w) lanes_words_to_float(w, 1)

/* A chunk of halves (bf16 0) or bfloat16s (bf16 1) from its words. */
lanes_vec lanes_words_to_float(const LANES_WORDS w, const int bf16) {
  float x[VEC];
#pragma unroll
  for (uint i = 0; i < VEC / 2; i++) {
    const uint word = LANES_WORDS_AT(w, i);
    if (bf16) {
      x[2 * i] = as_float(word << 16), x[2 * i + 1] = as_float(word & 0xffff0000u);
    } else {
      const float2 pair = vload_half2(0, (__private const half *)&word);
      x[2 * i] = pair.x, x[2 * i + 1] = pair.y;
    }
  }
  return LANES_FROM(x);
}
#endif
typedef LANES_RAW(K_DTYPE) k_chunk;
typedef LANES_RAW(V_DTYPE) v_chunk;

/* The first column of this lane's chunk t. */
uint lanes_column(const uint lane, const uint t) {
  return (t * SEG + lane) * VEC;
}

/* This lane's chunks of the K and V rows of keys j0 + u SLOTS + slot (u < UNROLL), raw; zeros
   for keys from hi on and columns from d on. */
void lanes_fetch(k_chunk kx[UNROLL][NCH], v_chunk vx[UNROLL][NCH], __global const k_real *k,
                 const ulong k_base, const ulong k_sr, __global const v_real *v, const ulong v_base,
                 const ulong v_sr, const ulong j0, const ulong hi, const ulong d, const uint slot,
                 const uint lane) {
#pragma unroll
  for (uint u = 0; u < UNROLL; u++) {
    const ulong j = j0 + u * SLOTS + slot;
    for (uint t = 0; t < NCH; t++) {
      const uint c = lanes_column(lane, t);
      kx[u][t] = 0, vx[u][t] = 0;
      if (j < hi && c < d) {
        kx[u][t] = LANES_FETCH(K_DTYPE, k, k_base + j * k_sr + c);
        vx[u][t] = LANES_FETCH(V_DTYPE, v, v_base + j * v_sr + c);
      }
    }
  }
}

#if !SHUFFLE
/* Each of the RPI UNROLL parts summed over the SEG lanes of this work-item's slot through local
   memory `redl`, in lane order (the same bits in each lane). Every work-item must call it. */
void lanes_sum_local(__local float *redl, float part[RPI][UNROLL]) {
  const uint lid = get_local_id(0), first = lid / SEG * SEG;
  for (uint r = 0; r < RPI; r++)
    for (uint u = 0; u < UNROLL; u++)
      redl[(r * UNROLL + u) * WG + lid] = part[r][u];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint r = 0; r < RPI; r++)
    for (uint u = 0; u < UNROLL; u++) {
      __local const float *x = redl + (r * UNROLL + u) * WG + first;
      float sum = x[0];
      for (uint l = 1; l < SEG; l++)
        sum += x[l];
      part[r][u] = sum;
    }
  barrier(CLK_LOCAL_MEM_FENCE); /* read before the next step writes */
}
#endif

/* One step's keys j0 + u SLOTS + slot (u < UNROLL; their chunks kx, vx) into the work-item's
   rows: each key's score (its lanes' parts summed), then each row's (m, s, acc) takes the kept
   keys with one rescale. */
void lanes_take_step(lanes_vec qx[RPI][NCH], k_chunk kx[UNROLL][NCH], v_chunk vx[UNROLL][NCH],
                     ulong kept[RPI], const ulong j0, const uint slot, float m[RPI], float s[RPI],
                     lanes_vec acc[RPI][NCH], const float scale, __local float *redl) {
  float score[RPI][UNROLL];
#pragma unroll
  for (uint r = 0; r < RPI; r++) {
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      float part = LANES_DOT(qx[r][0], LANES_CVT(K_DTYPE, kx[u][0]));
      for (uint t = 1; t < NCH; t++)
        part += LANES_DOT(qx[r][t], LANES_CVT(K_DTYPE, kx[u][t]));
#if SHUFFLE
      part = warp_seg_sum(part);
#endif
      score[r][u] = part;
    }
  }
#if !SHUFFLE
  lanes_sum_local(redl, score);
#else
  (void)redl;
#endif
#pragma unroll
  for (uint r = 0; r < RPI; r++) {
    float tm = -INFINITY;
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      score[r][u] *= scale;
      if (j0 + u * SLOTS + slot < kept[r]) tm = fmax(tm, score[r][u]);
    }
    /* A rescale only where the max grew (elsewhere its factor is exactly 1). */
    const float nm = fmax(m[r], tm);
    if (nm > m[r]) {
      const float f = exp_shift(m[r], nm);
      s[r] *= f;
      for (uint t = 0; t < NCH; t++)
        acc[r][t] *= f;
    }
#pragma unroll
    for (uint u = 0; u < UNROLL; u++)
      if (j0 + u * SLOTS + slot < kept[r]) {
        const float e = exp_shift(score[r][u], nm);
        s[r] += e;
        for (uint t = 0; t < NCH; t++)
          acc[r][t] += e * LANES_CVT(V_DTYPE, vx[u][t]);
      }
    m[r] = nm;
  }
}

#if BULK
/* ---- the ring (BULK) ----
 *
 *   local   ring [STAGES][K tile: BULK_KEYS rows of D elements | V tile: the same]
 *           bars [2 STAGES] mbarriers: full[s] (its tile's copies have landed: one arrival and
 *           the bytes), empty[s] (every work-item has its chunks of the tile: WG arrivals)
 *
 * A workgroup numbers its tiles from 0 across its units (n): tile n lies in stage n % STAGES; the
 * lanes wait on full[s] for phase parity (n / STAGES) & 1 and each arrives on empty[s] once its
 * last chunks of the tile are in registers; after tile n, warp 0 refills its stage with tile
 * n + STAGES once its wait on empty[s] for the same parity ends (the slowest warp's reads of
 * tile n), or with REFILL_BEFORE the stage of tile n - 1 with tile n - 1 + STAGES (no such wait:
 * tools/lab/decode's ISSUE 0, 8 % faster in the lab on an H100; not yet timed here). No barrier's
 * phase can run more than one ahead of a waiter, so the parities do not alias. Keys past a range's
 * end in its last tile are never copied: their rows hold an older tile's keys (or nothing yet),
 * which the kept-key tests skip.
 */
#define K_BYTES (K_DTYPE == 0 ? 4 : 2)
#define V_BYTES (V_DTYPE == 0 ? 4 : 2)
#define STEP_KEYS (SLOTS * UNROLL)
#define RING_K_TILE (BULK_KEYS * D * K_BYTES)
#define RING_STAGE (RING_K_TILE + BULK_KEYS * D * V_BYTES)
#if VEC * K_BYTES != 16 || VEC * V_BYTES != 16
#error "BULK: chunks of 16 bytes of K and of V"
#endif

/* The address of p in the shared window, as PTX's shared-memory operands take it. */
uint bulk_shared(__local const void *p) {
  return (uint)(ulong)p;
}
void bulk_init(const uint bar, const uint count) {
  __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
/* After the mbarriers are set up, before anyone uses them: the copy engine (the asynchronous
   proxy, whose copies complete them) sees them set up. */
void bulk_init_fence(void) {
  __asm__ volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
void bulk_arrive(const uint bar) {
  __asm__ volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/* Arrives on bar (a full barrier's one arrival) and expects `bytes` of copies in its phase. */
void bulk_expect(const uint bar, const uint bytes) {
  __asm__ volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                   : "memory");
}
/* Until the phase of bar of the given parity has completed. */
void bulk_wait(const uint bar, const uint parity) {
  uint done = 0;
  while (!done)
    __asm__ volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
}
/* `bytes` (a multiple of 16) from global src to shared dst (both 16-byte aligned), counted on
   bar's phase as they land. */
void bulk_copy(const uint dst, __global const void *src, const uint bytes, const uint bar) {
  __asm__ volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                   "%2, [%3];" ::"r"(dst),
                   "l"((ulong)src), "r"(bytes), "r"(bar)
                   : "memory");
}

/* A unit's key range as warp 0 issues it, a tile (BULK_KEYS keys, fewer at its end) at a time. */
typedef struct {
  __global const k_real *k;
  __global const v_real *v;
  ulong k_at, k_sr, v_at, v_sr; /* the range's first K and V rows (elements), their strides */
  ulong keys;                   /* the range's keys (hi - lo) */
  ulong first;                  /* the workgroup's number of the range's tile 0 */
} bulk_range;

/* Tile r of the range into its stage, by the 32 work-items of warp 0 (lane: the work-item),
   after every work-item has read the stage's tile before (tile number n >= STAGES). Rows back
   to back (K's and V's rows d = D apart) go in one copy each, others a copy a row. */
void bulk_issue(const uint ring, const uint bars, const bulk_range *src, const uint r,
                const ulong d, const uint lane) {
  const ulong n = src->first + r, j = (ulong)r * BULK_KEYS;
  const uint keys = (uint)(src->keys - j < BULK_KEYS ? src->keys - j : BULK_KEYS);
  __global const k_real *k = src->k + src->k_at + j * src->k_sr;
  __global const v_real *v = src->v + src->v_at + j * src->v_sr;
  const uint stage = (uint)(n % STAGES), full = bars + 8 * stage;
  if (n >= STAGES) bulk_wait(bars + 8 * (STAGES + stage), (uint)(n / STAGES - 1) & 1);
  const uint k_row = (uint)d * K_BYTES, v_row = (uint)d * V_BYTES;
  const uint k_dst = ring + stage * RING_STAGE, v_dst = k_dst + RING_K_TILE;
  if (lane == 0) bulk_expect(full, keys * (k_row + v_row));
  __asm__ volatile("bar.warp.sync -1;" ::: "memory"); /* expected before any copy lands */
  if (d == D && src->k_sr == D && src->v_sr == D) {
    if (lane == 0) {
      bulk_copy(k_dst, k, keys * k_row, full);
      bulk_copy(v_dst, v, keys * v_row, full);
    }
  } else {
    for (uint row = lane; row < keys; row += 32) {
      bulk_copy(k_dst + row * (D * K_BYTES), k + row * src->k_sr, k_row, full);
      bulk_copy(v_dst + row * (D * V_BYTES), v + row * src->v_sr, v_row, full);
    }
  }
}

/* This lane's chunks of step `step`'s keys of a stage (K tile at kt, V tile at vt), raw; zeros
   for columns from d on. */
void bulk_fetch(k_chunk kx[UNROLL][NCH], v_chunk vx[UNROLL][NCH], __local const uchar *kt,
                __local const uchar *vt, const uint step, const ulong d, const uint slot,
                const uint lane) {
#pragma unroll
  for (uint u = 0; u < UNROLL; u++) {
    const uint row = step * STEP_KEYS + u * SLOTS + slot;
    for (uint t = 0; t < NCH; t++) {
      const uint c = lanes_column(lane, t);
      kx[u][t] = 0, vx[u][t] = 0;
      if (c < d) {
        kx[u][t] = *(__local const k_chunk *)(kt + (row * D + c) * K_BYTES);
        vx[u][t] = *(__local const v_chunk *)(vt + (row * D + c) * V_BYTES);
      }
    }
  }
}
#endif

#ifdef OCF_KERNEL_attention_lanes
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
attention_lanes(COMMON_PARAMS, const ulong splits, const ulong split_keys, __global float *scratch,
                __global uint *arrivals) {
  __local float joinl[SLOTS * RB * (D + 2)];
#if JOIN
  __local int last;
#endif
#if !SHUFFLE
  __local float redl[RPI * UNROLL * WG];
#else
  __local float *redl = 0;
#endif
  const uint lid = get_local_id(0), rowg = lid / (WG / ROWG);
  const uint slot = (lid - rowg * (WG / ROWG)) / SEG, lane = lid % SEG;
#if BULK
  __local uint4 ring_chunks[STAGES * RING_STAGE / 16];
  __local ulong bar_words[2 * STAGES];
  __local const uchar *ring = (__local const uchar *)ring_chunks;
  const uint ring_at = bulk_shared(ring_chunks), bars = bulk_shared(bar_words);
  if (lid == 0) {
    for (uint stage = 0; stage < STAGES; stage++) {
      bulk_init(bars + 8 * stage, 1);             /* full: warp 0's expectation + bytes */
      bulk_init(bars + 8 * (STAGES + stage), WG); /* empty: every work-item */
    }
    bulk_init_fence();
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong tiles_before = 0; /* this workgroup's tiles of the units before */
#endif
  const ulong rblocks = (group * lq + RB - 1) / RB, h_kv = h / group;
  const ulong units = b * h_kv * rblocks * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong batch, kv_head, rblock, split;
    key_head_unit(unit, splits, rblocks, h_kv, &batch, &kv_head, &rblock, &split);
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    /* The block's most kept keys (every row group's range ends there: the same steps, and with
       BULK the same tiles, in every work-item), then this work-item's rows' queries (zeros past
       the group and past d) and kept keys. */
    ulong limit = 0;
    for (uint r = 0; r < RB; r++) {
      ulong head, i;
      if (!key_head_row(rblock * RB + r, group, lq, kv_head, &head, &i)) continue;
      const ulong keeps = kept_keys(i, len, causal_offset);
      limit = keeps > limit ? keeps : limit;
    }
    lanes_vec qx[RPI][NCH];
    ulong kept[RPI];
#pragma unroll
    for (uint r = 0; r < RPI; r++) {
      ulong head, i;
      const int row = key_head_row(rblock * RB + rowg * RPI + r, group, lq, kv_head, &head, &i);
      const ulong q_base = q_off + batch * q_sb + head * q_sh + i * q_sr;
      /* Element by element: Q's offsets and strides need not allow VEC-wide loads. */
      for (uint t = 0; t < NCH; t++) {
        const uint c = lanes_column(lane, t);
        float x[VEC];
        for (uint e = 0; e < VEC; e++)
          x[e] = row && c < d ? OCF_LOAD(Q_DTYPE, q, q_base + c + e) : 0.0f;
        qx[r][t] = LANES_FROM(x);
      }
      kept[r] = row ? kept_keys(i, len, causal_offset) : 0;
    }
    const ulong lo = split * split_keys;
    const ulong hi = lo >= limit ? lo : (limit - lo < split_keys ? limit : lo + split_keys);
    const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
    const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
    float m[RPI], s[RPI];
    lanes_vec acc[RPI][NCH];
#pragma unroll
    for (uint r = 0; r < RPI; r++) {
      m[r] = -INFINITY, s[r] = 0.0f;
      for (uint t = 0; t < NCH; t++)
        acc[r][t] = 0.0f;
    }
    k_chunk kx[UNROLL][NCH];
    v_chunk vx[UNROLL][NCH];
#if BULK
    /* The range's tiles through the ring, STAGES in flight from the start. */
    const uint tiles = (uint)((hi - lo + BULK_KEYS - 1) / BULK_KEYS);
    const bulk_range src = {k,    v,       k_base + lo * k_sr, k_sr, v_base + lo * v_sr,
                            v_sr, hi - lo, tiles_before};
    if (lid < 32)
      for (uint i = 0; i < STAGES && i < tiles; i++)
        bulk_issue(ring_at, bars, &src, i, d, lid);
    for (uint i = 0; i < tiles; i++) {
      const ulong n = tiles_before + i, first = lo + (ulong)i * BULK_KEYS;
      const uint stage = (uint)(n % STAGES);
      const ulong left = (hi - first + STEP_KEYS - 1) / STEP_KEYS; /* steps to the range's end */
      const uint steps = left < BULK_KEYS / STEP_KEYS ? (uint)left : BULK_KEYS / STEP_KEYS;
      __local const uchar *kt = ring + stage * RING_STAGE, *vt = kt + RING_K_TILE;
      bulk_wait(bars + 8 * stage, (uint)(n / STAGES) & 1);
      for (uint step = 0; step < steps; step++) {
        bulk_fetch(kx, vx, kt, vt, step, d, slot, lane);
        if (step == steps - 1) bulk_arrive(bars + 8 * (STAGES + stage)); /* read: free */
        lanes_take_step(qx, kx, vx, kept, first + step * STEP_KEYS, slot, m, s, acc, scale, redl);
      }
      /* the refill: the range's tile r into its stage */
      const uint r = REFILL_BEFORE ? i - 1 + STAGES : i + STAGES;
      if (lid < 32 && i >= REFILL_BEFORE && r < tiles) bulk_issue(ring_at, bars, &src, r, d, lid);
    }
    tiles_before += tiles;
#else
#if AHEAD
    lanes_fetch(kx, vx, k, k_base, k_sr, v, v_base, v_sr, lo, hi, d, slot, lane);
#endif
    /* The same bounds in every work-item: the barriers of lanes_sum_local are uniform. */
    for (ulong j0 = lo; j0 < hi; j0 += SLOTS * UNROLL) {
#if AHEAD
      /* The next step's chunks in flight while this step's are scored and weighed. */
      k_chunk kn[UNROLL][NCH];
      v_chunk vn[UNROLL][NCH];
      lanes_fetch(kn, vn, k, k_base, k_sr, v, v_base, v_sr, j0 + SLOTS * UNROLL, hi, d, slot, lane);
#else
      lanes_fetch(kx, vx, k, k_base, k_sr, v, v_base, v_sr, j0, hi, d, slot, lane);
#endif
      lanes_take_step(qx, kx, vx, kept, j0, slot, m, s, acc, scale, redl);
#if AHEAD
      for (uint u = 0; u < UNROLL; u++)
        for (uint t = 0; t < NCH; t++)
          kx[u][t] = kn[u][t], vx[u][t] = vn[u][t];
#endif
    }
#endif
/* The slots' partials: slot g's row r of the block at joinl + (g RB + r) (D + 2). */
#pragma unroll
    for (uint r = 0; r < RPI; r++) {
      __local float *part = joinl + (slot * RB + rowg * RPI + r) * (D + 2);
      if (lane == 0) part[0] = m[r], part[1] = s[r];
      for (uint t = 0; t < NCH; t++) {
        const uint c = lanes_column(lane, t);
        if (c < D) LANES_INTO(acc[r][t], part + 2 + c);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    write_range_partials(joinl, SLOTS, RB, rblock * RB, group, lq, kv_head, batch, h, d, splits,
                         split, scratch);
#if JOIN
    /* The block's rows are flat rows (batch h + kv_head group) lq + rho, rho from rblock RB. */
    const ulong rho0 = rblock * RB, rows = group * lq - rho0 < RB ? group * lq - rho0 : RB;
    const ulong first_row = (batch * h + kv_head * group) * lq + rho0;
    const int joins = arrive_last(arrivals, unit / splits, splits, &last);
    if (joins) join_stats(splits, scratch, d, first_row, (uint)rows, joinl);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (joins) join_weights(splits, (uint)rows, joinl);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (joins) join_elements(COMMON_ARGS, splits, scratch, first_row, (uint)rows, joinl);
#else
    (void)arrivals;
#endif
    barrier(CLK_LOCAL_MEM_FENCE); /* before the next unit overwrites joinl */
  }
}
#endif

#ifdef OCF_KERNEL_attention_lanes_join
/* After attention_lanes: merge_ranges (attention_common.clh). Any workgroup size. */
__kernel void attention_lanes_join(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                                   __global float *scratch) {
  merge_ranges(COMMON_ARGS, splits, scratch);
  (void)split_keys;
}
#endif
