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
 *   kl [BK][D+1]  a tile of keys (one pad float;     m: the row's running max of scores
 *                 WIDE_ROWS: [D][BK], transposed)
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
 * With one work-item a row and tiles of whole vectors (TPR 1, BK a multiple of 16: CPUs' row,
 * WIDE_ROWS) the same steps run on vectors of 16 floats: kl holds the tile's keys transposed
 * (kl[c][j]), so that step 2 scores 16 keys a vector with no sum across lanes, and step 3 takes
 * the max and the weights 16 keys at a time and adds V's rows into the row's D / 16 output
 * vectors. PoCL vectorises across work-items only code between barriers that has no loop of its
 * own; these vectors are what its compiler keeps in registers instead (2.9 times the per-element
 * form's speed, docs/ATTENTION.md).
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
/* Query heads a workgroup decodes at once (attention_heads: one key head's query heads, one
   query row each); 1: a workgroup a head. */
#ifndef HG
#error "HG: the host passes every define (src/plan/plan_attention.c)"
#endif

/* ---- derived ---- */

#define WG (BQ * TPR)
#define DPT (D / TPR)  /* output elements a work-item accumulates */
#define KPT (BK / TPR) /* keys a work-item scores per tile */
/* Floats per key row in local memory: lanes reading one column of consecutive keys fall in
   different banks. */
#define KSTRIDE (D + 1)

/* One work-item a row and tiles of whole vectors: the steps on vectors of 16 floats (the
   header; D is a multiple of 16). */
#define WIDE_ROWS (TPR == 1 && BK % 16 == 0)
#if WIDE_ROWS && D % 16
#error "WIDE_ROWS: D must be a multiple of 16"
#endif
#if HG > 1 && !(WIDE_ROWS && BQ == 1)
#error "HG: query heads together only for one query row a work-item (WIDE_ROWS, BQ 1)"
#endif

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

#if WIDE_ROWS
/* load_tile for one work-item a row: a work-item a key row, its columns in a loop a CPU's
   compiler vectorises (the keys transposed into kl[c][j] for score_keys_wide). */
void load_tile_wide(__local float *kl, __local float *vl, __global const k_real *k,
                    const ulong k_base, const ulong k_sr, __global const v_real *v,
                    const ulong v_base, const ulong v_sr, const ulong j0, const ulong limit,
                    const uint d) {
  for (uint j = get_local_id(0); j < BK; j += WG) {
    __local float *vrow = vl + j * D;
    const uint valid = j0 + j < limit ? d : 0;
    const ulong kb = k_base + (j0 + j) * k_sr, vb = v_base + (j0 + j) * v_sr;
    for (uint c = 0; c < valid; c++) {
      kl[c * BK + j] = OCF_LOAD(K_DTYPE, k, kb + c);
      vrow[c] = OCF_LOAD(V_DTYPE, v, vb + c);
    }
    for (uint c = valid; c < D; c++)
      kl[c * BK + j] = 0.0f, vrow[c] = 0.0f;
  }
}
#endif

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

#if WIDE_ROWS
/* x's 16 elements summed (a tree), and their max (fmax: a NaN only where all are), through
   private memory: Oclgrind's uninitialised-value checker crashes on swizzles. */
float sum16(const float16 x) {
  float t[16];
  vstore16(x, 0, t);
  return dot(vload4(0, t) + vload4(1, t) + (vload4(2, t) + vload4(3, t)), (float4)(1.0f));
}

float max16(const float16 x) {
  float t[16];
  vstore16(x, 0, t);
  const float4 a = fmax(fmax(vload4(0, t), vload4(1, t)), fmax(vload4(2, t), vload4(3, t)));
  return fmax(fmax(a.x, a.y), fmax(a.z, a.w));
}

/* score_keys for the row's work-item, 16 keys a vector from the transposed tile (kl[c][j], see
   load_tile_wide): no sum across a vector's lanes. Every key of the tile, those at or past n too
   (their scores are finite or masked later, and so every score accumulate_wide reads is
   written); four sums of every fourth column, so that four chains of additions overlap. */
void score_keys_wide(__local float *pl_row, __local const float *ql_row, __local const float *kl,
                     const float scale) {
  for (uint j0 = 0; j0 < BK; j0 += 16) {
    float16 s0 = (float16)(0.0f), s1 = s0, s2 = s0, s3 = s0;
    for (uint c = 0; c < D; c += 4) {
      s0 += ql_row[c] * vload16(0, kl + c * BK + j0);
      s1 += ql_row[c + 1] * vload16(0, kl + (c + 1) * BK + j0);
      s2 += ql_row[c + 2] * vload16(0, kl + (c + 2) * BK + j0);
      s3 += ql_row[c + 3] * vload16(0, kl + (c + 3) * BK + j0);
    }
    vstore16(scale * ((s0 + s1) + (s2 + s3)), 0, pl_row + j0);
  }
}

/* The first half of accumulate for the row's work-item: the max and the weights 16 keys at a
   time (keys at or past n weigh 0), the weights written over the row's scores (no other
   work-item reads them), (m, s) moved on; returns the factor of the row's outputs. */
float weigh_wide(float *m, float *s, __local float *pl_row, const uint n) {
  const int16 lanes = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  float16 tm = (float16)(-INFINITY);
  for (uint j0 = 0; j0 < BK; j0 += 16)
    tm = fmax(tm, select(vload16(0, pl_row + j0), (float16)(-INFINITY), lanes + (int)j0 >= (int)n));
  const float nm = fmax(*m, max16(tm));
  const float f = exp_shift(*m, nm);
  float16 sum = (float16)(0.0f);
  for (uint j0 = 0; j0 < BK; j0 += 16) {
    const float16 x = vload16(0, pl_row + j0);
    float16 p = select(exp(x - nm), (float16)(1.0f), x == nm);
    p = select(p, (float16)(0.0f), lanes + (int)j0 >= (int)n);
    vstore16(p, 0, pl_row + j0);
    sum += p;
  }
  *s = *s * f + sum16(sum);
  *m = nm;
  return f;
}

/* accumulate for the row's work-item: weigh_wide, then the row's outputs, D / 16 vectors in
   registers, over the n keys (each element sums its keys in key order, as accumulate does; the
   vectors' chains of additions overlap). */
void accumulate_wide(float *m, float *s, float *acc, __local float *pl_row, __local const float *vl,
                     const uint n) {
  const float f = weigh_wide(m, s, pl_row, n);
  float16 a[D / 16]; /* the row's outputs, in registers across the keys */
  for (uint t = 0; t < D / 16; t++)
    a[t] = vload16(t, acc) * f;
  for (uint j = 0; j < n; j++) {
    const float p = pl_row[j];
    for (uint t = 0; t < D / 16; t++)
      a[t] += p * vload16(t, vl + j * D);
  }
  for (uint t = 0; t < D / 16; t++)
    vstore16(a[t], t, acc);
}

/* 16 elements from p as floats, at any element's alignment (vload16 for f32; the 16-bit loads
   need none). */
#define LOAD16_0(p) vload16(0, (p))
#define LOAD16_1(p) vload_half16(0, (p))
#define LOAD16_2(p) OCF_BF16_LOADV(16, (p), 0)
#define LOAD16(t, p) OCF_CAT(LOAD16_, t)(p)

/* Decoding's tile (BQ 1: one query row a workgroup, so nothing shares the tile and staging it
   through local memory only costs: the keys' transposed stores were most of a decoding step's
   time on PoCL): the row's scores straight from K's rows in global memory, each key's D
   products summed in two vectors and then across them, 0 for keys at or past n (weigh_wide
   masks them; a key past the row's range is never read). Rows of exactly D elements. */
void score_keys_direct(__local float *pl_row, __local const float *ql_row, __global const k_real *k,
                       const ulong k_base, const ulong k_sr, const ulong j0, const uint n,
                       const float scale) {
  for (uint j = 0; j < BK; j++) {
    float x = 0.0f;
    if (j < n) {
      __global const k_real *kr = k + k_base + (j0 + j) * k_sr;
      float16 s0 = (float16)(0.0f), s1 = s0;
      uint c = 0;
      for (; c + 32 <= D; c += 32) {
        s0 += vload16(0, ql_row + c) * LOAD16(K_DTYPE, kr + c);
        s1 += vload16(0, ql_row + c + 16) * LOAD16(K_DTYPE, kr + c + 16);
      }
      if (c < D) s0 += vload16(0, ql_row + c) * LOAD16(K_DTYPE, kr + c);
      x = scale * sum16(s0 + s1);
    }
    pl_row[j] = x;
  }
}

/* accumulate_wide with the values straight from V's rows in global memory (decoding's tile). */
void accumulate_direct(float *m, float *s, float *acc, __local float *pl_row,
                       __global const v_real *v, const ulong v_base, const ulong v_sr,
                       const ulong j0, const uint n) {
  const float f = weigh_wide(m, s, pl_row, n);
  float16 a[D / 16];
  for (uint t = 0; t < D / 16; t++)
    a[t] = vload16(t, acc) * f;
  for (uint j = 0; j < n; j++) {
    const float p = pl_row[j];
    __global const v_real *vr = v + v_base + (j0 + j) * v_sr;
    for (uint t = 0; t < D / 16; t++)
      a[t] += p * LOAD16(V_DTYPE, vr + 16 * t);
  }
  for (uint t = 0; t < D / 16; t++)
    vstore16(a[t], t, acc);
}

#if HG > 1
/* score_keys_direct for the HG query heads staged in ql (head g's row at ql + g D, its scores
   at pl + g BK): each key row is read once for them all, and each head's products are summed as
   score_keys_direct sums them. Rows of exactly D elements. */
void score_heads_direct(__local float *pl, __local const float *ql, __global const k_real *k,
                        const ulong k_base, const ulong k_sr, const ulong j0, const uint n,
                        const float scale) {
  for (uint j = 0; j < BK; j++) {
    float16 s0[HG], s1[HG];
    for (uint g = 0; g < HG; g++)
      s0[g] = s1[g] = (float16)(0.0f);
    if (j < n) {
      __global const k_real *kr = k + k_base + (j0 + j) * k_sr;
      uint c = 0;
      for (; c + 32 <= D; c += 32) {
        const float16 k0 = LOAD16(K_DTYPE, kr + c), k1 = LOAD16(K_DTYPE, kr + c + 16);
        for (uint g = 0; g < HG; g++) {
          s0[g] += vload16(0, ql + g * D + c) * k0;
          s1[g] += vload16(0, ql + g * D + c + 16) * k1;
        }
      }
      if (c < D) {
        const float16 k0 = LOAD16(K_DTYPE, kr + c);
        for (uint g = 0; g < HG; g++)
          s0[g] += vload16(0, ql + g * D + c) * k0;
      }
    }
    for (uint g = 0; g < HG; g++)
      pl[g * BK + j] = j < n ? scale * sum16(s0[g] + s1[g]) : 0.0f;
  }
}

/* accumulate_direct for the HG heads: each head's weights (weigh_wide), then the outputs 16
   columns at a time, each value row's 16 read once and added into every head's (HG vectors in
   registers, where all of a head's D / 16 would spill); each element sums its keys in key order
   from acc times the head's factor, as accumulate_direct does. One head keeps accumulate_direct
   and score_keys_direct: these with HG 1 ran single-head decoding 5-8 % slower on PoCL (all D /
   16 output vectors across the keys suit one head; 2026-12-05). */
void accumulate_heads_direct(float *m, float *s, float *acc, __local float *pl,
                             __global const v_real *v, const ulong v_base, const ulong v_sr,
                             const ulong j0, const uint n) {
  float f[HG];
  for (uint g = 0; g < HG; g++)
    f[g] = weigh_wide(m + g, s + g, pl + g * BK, n);
  __global const v_real *vt = v + v_base + j0 * v_sr;
  for (uint t = 0; t < D / 16; t++) {
    float16 a[HG];
    for (uint g = 0; g < HG; g++)
      a[g] = vload16(t, acc + g * D) * f[g];
    for (uint j = 0; j < n; j++) {
      const float16 x = LOAD16(V_DTYPE, vt + j * v_sr + 16 * t);
      for (uint g = 0; g < HG; g++)
        a[g] += pl[g * BK + j] * x;
    }
    for (uint g = 0; g < HG; g++)
      vstore16(a[g], t, acc + g * D);
  }
}
#endif
#endif

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
#if WIDE_ROWS
      /* One work-item (BQ 1, TPR 1): no barrier to keep, the tile read where it lies. */
      if (BQ == 1 && d == D) {
        const uint n = top > j0 ? (uint)(top - j0 < BK ? top - j0 : BK) : 0;
        score_keys_direct(pl, ql, k, k_base, k_sr, j0, n, scale);
        if (n) accumulate_direct(&m, &s, acc, pl, v, v_base, v_sr, j0, n);
        continue;
      }
#endif
      barrier(CLK_LOCAL_MEM_FENCE); /* the previous tile (and the queries) are read */
#if WIDE_ROWS
      load_tile_wide(kl, vl, k, k_base, k_sr, v, v_base, v_sr, j0, hi, (uint)d);
#else
      load_tile(kl, vl, k, k_base, k_sr, v, v_base, v_sr, j0, hi, d);
#endif
      barrier(CLK_LOCAL_MEM_FENCE);
      const uint n = top > j0 ? (uint)(top - j0 < BK ? top - j0 : BK) : 0;
#if WIDE_ROWS
      score_keys_wide(pl + r * BK, ql + r * D, kl, scale);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (n) accumulate_wide(&m, &s, acc, pl + r * BK, vl, (uint)n);
#else
      score_keys(pl + r * BK, ql + r * D, kl, lane, n, scale);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (n) accumulate(&m, &s, acc, pl + r * BK, vl, lane, n);
#endif
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

#if HG > 1
/* attention_body for decoding grouped-query heads (lq 1, one work-item, HG > 1): a unit is
   (batch, HG consecutive query heads of one key head, split), so each K and V row is read once
   for the HG heads where a workgroup a head read it HG times (their queries staged in ql, their
   scores in pl). The same masks, rules, scratch slots and outputs as attention_body's; head dims
   of exactly D (the host plans it only for d a multiple of 16). */
void attention_heads(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                     __global float *scratch, __local float *ql, __local float *pl) {
  const ulong head_groups = h / HG, units = b * head_groups * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong split, hg;
    const ulong rest = ocf_divmod(unit, splits, &split);
    const ulong batch = ocf_divmod(rest, head_groups, &hg);
    const ulong head0 = hg * HG, kv_head = head0 / group;
    const ulong kept = kept_keys(0, batch_length(lk, lengths, lengths_off, batch), causal_offset);
    /* This unit's keys: [lo, hi). */
    const ulong lo = split * split_keys;
    const ulong hi = lo >= kept ? lo : (kept - lo < split_keys ? kept : lo + split_keys);
    for (uint g = 0; g < HG; g++)
      load_queries(ql + g * D, q, q_off + batch * q_sb + (head0 + g) * q_sh, q_sr, 0, lq, d);
    const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
    const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
    float m[HG], s[HG], acc[HG * D];
    for (uint g = 0; g < HG; g++)
      m[g] = -INFINITY, s[g] = 0.0f;
    for (uint c = 0; c < HG * D; c++)
      acc[c] = 0.0f;
    for (ulong j0 = lo; j0 < hi; j0 += BK) {
      const uint n = (uint)(hi - j0 < BK ? hi - j0 : BK);
      score_heads_direct(pl, ql, k, k_base, k_sr, j0, n, scale);
      accumulate_heads_direct(m, s, acc, pl, v, v_base, v_sr, j0, n);
    }
    for (uint g = 0; g < HG; g++) {
      const ulong row = (batch * h + head0 + g) * lq; /* the head's one query row */
      if (scratch) {
        const ulong slot = (row * splits + split) * (d + 2);
        scratch[slot] = m[g], scratch[slot + 1] = s[g];
        for (uint c = 0; c < d; c++)
          scratch[slot + 2 + c] = acc[g * D + c];
      } else {
        /* kept 0: out 0, lse -inf; a non-finite max (+inf, or all -inf): NaN. */
        const float norm = kept == 0 ? 0.0f : isfinite(m[g]) ? 1.0f / s[g] : NAN;
        const ulong o = out_off + batch * out_sb + (head0 + g) * out_sh;
        for (uint c = 0; c < d; c++)
          OCF_STORE(OUT_DTYPE, out, o + c, acc[g * D + c] * norm);
#if HAS_LSE
        lse[lse_off + row] = kept == 0 ? -INFINITY : isfinite(m[g]) ? m[g] + log(s[g]) : NAN;
#endif
      }
    }
  }
}
#endif

#if defined(OCF_KERNEL_attention_tiled) || defined(OCF_KERNEL_attention_split)
/* The local memory of the two tiled kernels: attention_heads's queries and scores, else
   attention_body's tiles. */
#if HG > 1
#define DECLARE_TILES       \
  __local float ql[HG * D]; \
  __local float pl[HG * BK]
#define RUN_BODY(splits, split_keys, scratch) \
  attention_heads(COMMON_ARGS, splits, split_keys, scratch, ql, pl)
#else
#define DECLARE_TILES             \
  __local float ql[BQ * D];       \
  __local float kl[BK * KSTRIDE]; \
  __local float vl[BK * D];       \
  __local float pl[BQ * BK]
#define RUN_BODY(splits, split_keys, scratch) \
  attention_body(COMMON_ARGS, splits, split_keys, scratch, ql, kl, vl, pl)
#endif
#endif

#ifdef OCF_KERNEL_attention_tiled
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void attention_tiled(COMMON_PARAMS) {
  DECLARE_TILES;
  RUN_BODY(1, lk, 0);
}
#endif

#ifdef OCF_KERNEL_attention_split
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
attention_split(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                __global float *scratch) {
  DECLARE_TILES;
  RUN_BODY(splits, split_keys, scratch);
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
