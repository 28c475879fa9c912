/*
 * attention.cl: fused attention, out = softmax(scale * Q K^T + mask) V, one (batch, head) at a
 * time, the scores never leaving the workgroup. Storage f32, f16 or bf16 per tensor; the scores,
 * the softmax and the accumulation are fp32.
 *
 *   Q, out [b, h, lq, d]     K, V [b, h_kv, lk, d]     query head hd reads key head hd / group
 *   element (batch, head, row, c) at off + batch * sb + head * sh + row * sr + c
 *
 * One workgroup per work unit (batch, head, block of BQ query rows); TPR work-items per query
 * row, BQ * TPR in all. The block's queries are staged once in local memory, then the keys and
 * values stream through it in tiles of BK rows:
 *
 *              local memory                          work-item (row r, lane l) holds
 *   ql [BQ][D]    the block's queries (zero padded)  acc[D / TPR]: out[r][l + TPR t], t < D / TPR
 *   kl [BK][D+1]  a tile of keys (one pad float)     m: the row's running max of scores
 *   vl [BK][D]    the same tile of values            s: the row's running sum of exp(score - m)
 *   pl [BQ][BK]   the tile's scores
 *
 *   for each tile j0 = 0, BK, ... below the block's last kept key:
 *     1. load K and V rows j0 .. j0 + BK - 1 into kl, vl                              barrier
 *     2. lane l of row r scores keys j = l + TPR u: pl[r][j] = scale * ql[r] . kl[j]   barrier
 *     3. every lane of row r reads the whole row pl[r][0 .. n), n its kept keys in the tile,
 *        finds the new max, rescales (s, acc) and adds exp(pl[r][j] - m) (times vl[j]) barrier
 * Every lane of a row computes the same (m, s), in the same order, so no lane waits for another.
 * At the end out = acc / s and lse = m + log(s).
 *
 * The mask: keys j < kept(i) take part in query row i, kept(i) = min(len, max(0, i +
 * causal_offset + 1) (CAUSAL)), len = min(lk, lengths[lengths_off + batch] (HAS_LENGTHS)). Both
 * masks keep a prefix of the keys, so a row's keys are one range, and a block's tiles stop at its
 * last row's kept length (causal blocks skip the tiles above the diagonal).
 *
 * Non-finite values follow cl/softmax.cl's rules (exp_shift, combine): m ignores a NaN score
 * (fmax), a NaN score makes s NaN, x == m counts as exp(0) = 1 (also for infinities), so a row
 * whose max is not finite (+inf, or all kept scores -inf) is NaN, and a row with no kept key
 * gives out = 0, lse = -inf.
 *
 * Kernels (the host picks, src/plan/plan_attention.c):
 *   attention_tiled   the above, every key of a row in one workgroup, out and lse written.
 *   attention_split   the decode split: unit (batch, head, block, split) takes keys
 *                     [split * split_keys, + split_keys) of its rows and writes the running
 *                     (m, s, acc[0 .. d)) of each row to scratch, row R's split p at
 *                     (R * splits + p) * (d + 2); it never writes out.
 *   attention_merge   after it, one work-item an element of out: joins the row's splits as
 *                     combine() joins two halves of a row, and writes out (and lse)
 *                     (merge_ranges, attention_common.clh).
 * Other programs of the same op: cl/attention_decode.cl (few query rows: every query head of a
 * key head in one workgroup, keys over its work-items) and cl/attention_block.cl (register
 * blocks for GPUs).
 *
 * Every work-item reaches every barrier: the unit and tile loops have the same bounds across a
 * workgroup, and only loads, scores and stores are guarded. Indices are 64-bit (ulong).
 */

/* ---- tunables, each passed by the host (the schema, src/tuning/schema_attention.c, holds the
   defaults); the call's own defines: attention_common.clh ---- */

/* Query rows a workgroup. */
#ifndef BQ
#error "BQ: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Keys and values a tile in local memory; a multiple of TPR. */
#ifndef BK
#error "BK: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Work-items per query row: a power of two that divides D and BK. */
#ifndef TPR
#error "TPR: the host passes every define (src/plan/plan_attention.c)"
#endif

#if BK % TPR || D % TPR || BQ < 1
#error "TPR must divide BK and D"
#endif

/* ---- derived ---- */

#define WG (BQ * TPR)
#define DPT (D / TPR)  /* output elements a work-item accumulates */
#define KPT (BK / TPR) /* keys a work-item scores per tile */
/* Floats per key row in local memory: lanes reading one column of consecutive keys fall in
   different banks. */
#define KSTRIDE (D + 1)

/* Loads BQ query rows from row `row0` into ql, zeros past lq and past d. */
void load_queries(__local float *ql, __global const q_real *q, const ulong base, const ulong sr,
                  const ulong row0, const ulong lq, const ulong d) {
  for (uint idx = get_local_id(0); idx < BQ * D; idx += WG) {
    const uint r = idx / D, c = idx - r * D;
    float x = 0.0f;
    if (row0 + r < lq && c < d) x = OCF_LOAD(Q_DTYPE, q, base + (row0 + r) * sr + c);
    ql[idx] = x;
  }
}

/* Loads key and value rows j0 .. j0 + BK - 1 (those below `limit`) into kl and vl, zeros
   elsewhere. */
void load_tile(__local float *kl, __local float *vl, __global const k_real *k, const ulong k_base,
               const ulong k_sr, __global const v_real *v, const ulong v_base, const ulong v_sr,
               const ulong j0, const ulong limit, const ulong d) {
  for (uint idx = get_local_id(0); idx < BK * D; idx += WG) {
    const uint j = idx / D, c = idx - j * D;
    float kx = 0.0f, vx = 0.0f;
    if (j0 + j < limit && c < d) {
      kx = OCF_LOAD(K_DTYPE, k, k_base + (j0 + j) * k_sr + c);
      vx = OCF_LOAD(V_DTYPE, v, v_base + (j0 + j) * v_sr + c);
    }
    kl[j * KSTRIDE + c] = kx;
    vl[idx] = vx;
  }
}

/* The scores of this lane's keys of the tile (keys lane + TPR u below n): pl[r][j]. */
void score_keys(__local float *pl_row, __local const float *ql_row, __local const float *kl,
                const uint lane, const ulong n, const float scale) {
  for (uint u = 0; u < KPT; u++) {
    const uint j = lane + TPR * u;
    if (j >= n) break;
    __local const float *kr = kl + j * KSTRIDE;
    /* Four independent sums (D is a multiple of 16): no chain of D dependent additions. (dot,
       not a swizzled sum: Oclgrind's uninitialised-value checker crashes on the swizzles.) */
    float4 sum = (float4)(0.0f);
    for (uint c = 0; c < D; c += 4)
      sum += vload4(0, ql_row + c) * vload4(0, kr + c);
    pl_row[j] = scale * dot(sum, (float4)(1.0f));
  }
}

/* Joins the tile's n scores of a row into (m, s, acc). */
void accumulate(float *m, float *s, float *acc, __local const float *pl_row,
                __local const float *vl, const uint lane, const uint n) {
  float tm = -INFINITY;
  for (uint j = 0; j < n; j++)
    tm = fmax(tm, pl_row[j]);
  const float nm = fmax(*m, tm);
  const float f = exp_shift(*m, nm);
  *s *= f;
  for (uint t = 0; t < DPT; t++)
    acc[t] *= f;
  for (uint j = 0; j < n; j++) {
    const float p = exp_shift(pl_row[j], nm);
    *s += p;
    __local const float *vr = vl + j * D + lane;
    for (uint t = 0; t < DPT; t++)
      acc[t] += p * vr[TPR * t];
  }
  *m = nm;
}

/* The work of attention_tiled (splits 1: every key, the output written) and attention_split
   (keys [split * split_keys, + split_keys) of each row, the running (m, s, acc) written to
   scratch: row R's split p at (R * splits + p) * (d + 2), as m, s, acc[0 .. d)). */
void attention_body(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                    __global float *scratch, __local float *ql, __local float *kl,
                    __local float *vl, __local float *pl) {
  const uint lid = get_local_id(0), r = lid / TPR, lane = lid - r * TPR;
  const ulong blocks = (lq + BQ - 1) / BQ, units = b * h * blocks * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    /* (ocf_divmod: no division and remainder of the same operands, which Oclgrind cannot
       follow) */
    ulong split, block, head;
    const ulong rest = ocf_divmod(unit, splits, &split);
    const ulong bh = ocf_divmod(rest, blocks, &block);
    const ulong batch = ocf_divmod(bh, h, &head), kv_head = head / group;
    const ulong row0 = block * BQ, i = row0 + r;
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    /* The block's last row keeps the most keys (both masks grow with the row). */
    const ulong last = (row0 + BQ < lq ? row0 + BQ : lq) - 1;
    const ulong limit = kept_keys(last, len, causal_offset);
    const ulong kept = i < lq ? kept_keys(i, len, causal_offset) : 0;
    /* This unit's keys: [lo, hi). */
    const ulong lo = split * split_keys;
    const ulong hi = lo >= limit ? lo : (limit - lo < split_keys ? limit : lo + split_keys);
    const ulong top = kept < hi ? kept : hi; /* this row's keys end here */

    load_queries(ql, q, q_off + batch * q_sb + head * q_sh, q_sr, row0, lq, d);
    const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
    const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
    float m = -INFINITY, s = 0.0f, acc[DPT];
    for (uint t = 0; t < DPT; t++)
      acc[t] = 0.0f;
    for (ulong j0 = lo; j0 < hi; j0 += BK) {
      barrier(CLK_LOCAL_MEM_FENCE); /* the previous tile (and the queries) are read */
      load_tile(kl, vl, k, k_base, k_sr, v, v_base, v_sr, j0, hi, d);
      barrier(CLK_LOCAL_MEM_FENCE);
      const uint n = top > j0 ? (uint)(top - j0 < BK ? top - j0 : BK) : 0;
      score_keys(pl + r * BK, ql + r * D, kl, lane, n, scale);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (n) accumulate(&m, &s, acc, pl + r * BK, vl, lane, n);
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* before the next unit overwrites ql */

    if (i < lq && scratch) {
      const ulong slot = (((batch * h + head) * lq + i) * splits + split) * (d + 2);
      if (lane == 0) scratch[slot] = m, scratch[slot + 1] = s;
      for (uint t = 0; t < DPT; t++) {
        const uint c = lane + TPR * t;
        if (c < d) scratch[slot + 2 + c] = acc[t];
      }
    } else if (i < lq) {
      /* kept 0: out 0, lse -inf; a non-finite max (+inf, or all -inf): NaN. */
      const float norm = kept == 0 ? 0.0f : isfinite(m) ? 1.0f / s : NAN;
      const ulong o = out_off + batch * out_sb + head * out_sh + i * out_sr;
      for (uint t = 0; t < DPT; t++) {
        const uint c = lane + TPR * t;
        if (c < d) OCF_STORE(OUT_DTYPE, out, o + c, acc[t] * norm);
      }
#if HAS_LSE
      if (lane == 0)
        lse[lse_off + (batch * h + head) * lq + i] = kept == 0     ? -INFINITY
                                                     : isfinite(m) ? m + log(s)
                                                                   : NAN;
#endif
    }
  }
}

#if defined(OCF_KERNEL_attention_tiled) || defined(OCF_KERNEL_attention_split)
/* The local memory of the two tiled kernels. */
#define DECLARE_TILES             \
  __local float ql[BQ * D];       \
  __local float kl[BK * KSTRIDE]; \
  __local float vl[BK * D];       \
  __local float pl[BQ * BK]
#endif

#ifdef OCF_KERNEL_attention_tiled
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void attention_tiled(COMMON_PARAMS) {
  DECLARE_TILES;
  attention_body(COMMON_ARGS, 1, lk, 0, ql, kl, vl, pl);
}
#endif

#ifdef OCF_KERNEL_attention_split
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
attention_split(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                __global float *scratch) {
  DECLARE_TILES;
  attention_body(COMMON_ARGS, splits, split_keys, scratch, ql, kl, vl, pl);
}
#endif

#ifdef OCF_KERNEL_attention_merge
/* After attention_split: merge_ranges (attention_common.clh). Any workgroup size. */
__kernel void attention_merge(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                              __global float *scratch) {
  merge_ranges(COMMON_ARGS, splits, scratch);
  (void)split_keys;
}
#endif
