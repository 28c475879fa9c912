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
 *                     combine() joins two halves of a row, and writes out (and lse).
 *
 * Every work-item reaches every barrier: the unit and tile loops have the same bounds across a
 * workgroup, and only loads, scores and stores are guarded. Indices are 64-bit (ulong).
 */

/* ---- tunables, each passed by the host (the schema, src/tuning/schema_attention.c, holds the
   defaults) ---- */

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
/* The padded head dimension: d <= D, a multiple of TPR (the host uses multiples of 16). */
#ifndef D
#error "D: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Storage types (ocf_dtype: 0 f32, 1 f16, 2 bf16) of Q, K, V and out. */
#ifndef Q_DTYPE
#error "Q_DTYPE: the host passes every define (src/plan/plan_attention.c)"
#endif
#ifndef K_DTYPE
#error "K_DTYPE: the host passes every define (src/plan/plan_attention.c)"
#endif
#ifndef V_DTYPE
#error "V_DTYPE: the host passes every define (src/plan/plan_attention.c)"
#endif
#ifndef OUT_DTYPE
#error "OUT_DTYPE: the host passes every define (src/plan/plan_attention.c)"
#endif
/* 1: `lengths` holds each batch's valid key length; 0: it is not read. */
#ifndef HAS_LENGTHS
#error "HAS_LENGTHS: the host passes every define (src/plan/plan_attention.c)"
#endif
/* 1: the causal mask (causal_offset is read); 0: none. */
#ifndef CAUSAL
#error "CAUSAL: the host passes every define (src/plan/plan_attention.c)"
#endif
/* 1: write each row's log-sum-exp to `lse`; 0: it is not written. */
#ifndef HAS_LSE
#error "HAS_LSE: the host passes every define (src/plan/plan_attention.c)"
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

#define q_real OCF_STORAGE(Q_DTYPE)
#define k_real OCF_STORAGE(K_DTYPE)
#define v_real OCF_STORAGE(V_DTYPE)
#define out_real OCF_STORAGE(OUT_DTYPE)

/* exp(x - m) for x <= m or NaN, exactly 1 when x == m (also for infinite x == m): softmax.cl's
   exp_shift with the scale already in the scores. */
float exp_shift(const float x, const float m) {
  return x == m ? 1.0f : exp(x - m);
}

/* The kept keys of query row i (see the header). */
ulong kept_keys(const ulong i, const ulong len, const long causal_offset) {
#if CAUSAL
  const long limit = (long)i + causal_offset + 1;
  if (limit <= 0) return 0;
  return (ulong)limit < len ? (ulong)limit : len;
#else
  return len;
#endif
}

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

/* The parameters every kernel of the file shares (the host binds them by these names). */
#define COMMON_PARAMS                                                                             \
  const ulong b, const ulong h, const ulong group, const ulong lq, const ulong lk, const ulong d, \
      __global const q_real *q, const ulong q_off, const ulong q_sb, const ulong q_sh,            \
      const ulong q_sr, __global const k_real *k, const ulong k_off, const ulong k_sb,            \
      const ulong k_sh, const ulong k_sr, __global const v_real *v, const ulong v_off,            \
      const ulong v_sb, const ulong v_sh, const ulong v_sr, __global out_real *out,               \
      const ulong out_off, const ulong out_sb, const ulong out_sh, const ulong out_sr,            \
      const float scale, __global const uint *lengths, const ulong lengths_off,                   \
      const long causal_offset, __global float *lse, const ulong lse_off
#define COMMON_ARGS                                                                               \
  b, h, group, lq, lk, d, q, q_off, q_sb, q_sh, q_sr, k, k_off, k_sb, k_sh, k_sr, v, v_off, v_sb, \
      v_sh, v_sr, out, out_off, out_sb, out_sh, out_sr, scale, lengths, lengths_off,              \
      causal_offset, lse, lse_off

/* The valid key length of a batch. */
ulong batch_length(const ulong lk, __global const uint *lengths, const ulong lengths_off,
                   const ulong batch) {
  ulong len = lk;
#if HAS_LENGTHS
  const ulong given = lengths[lengths_off + batch];
  if (given < len) len = given;
#endif
  return len;
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
/* After attention_split: each work-item one element of out, joining its row's splits as
   combine() joins two halves of a row; writes out (and lse). Any workgroup size. */
__kernel void attention_merge(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                              __global float *scratch) {
  const ulong total = b * h * lq * d;
  for (ulong e = get_global_id(0); e < total; e += get_global_size(0)) {
    ulong c, i, head;
    const ulong row = ocf_divmod(e, d, &c);
    const ulong bh = ocf_divmod(row, lq, &i);
    const ulong batch = ocf_divmod(bh, h, &head);
    const ulong kept = kept_keys(i, batch_length(lk, lengths, lengths_off, batch), causal_offset);
    const ulong base = row * splits * (d + 2);
    float m = -INFINITY;
    for (ulong p = 0; p < splits; p++)
      m = fmax(m, scratch[base + p * (d + 2)]);
    float s = 0.0f, a = 0.0f;
    for (ulong p = 0; p < splits; p++) {
      const float f = exp_shift(scratch[base + p * (d + 2)], m);
      s += scratch[base + p * (d + 2) + 1] * f;
      a += scratch[base + p * (d + 2) + 2 + c] * f;
    }
    const float norm = kept == 0 ? 0.0f : isfinite(m) ? 1.0f / s : NAN;
    OCF_STORE(OUT_DTYPE, out, out_off + batch * out_sb + head * out_sh + i * out_sr + c, a * norm);
#if HAS_LSE
    if (c == 0) lse[lse_off + row] = kept == 0 ? -INFINITY : isfinite(m) ? m + log(s) : NAN;
#endif
  }
  (void)split_keys;
  (void)q, (void)k, (void)v;
}
#endif

#ifdef OCF_KERNEL_attention_decode
/* ---- attention_decode: few query rows against long keys (decoding) ----
 *
 * One workgroup per unit (batch, key head, block of RB rows, key range): the block's rows are
 * the query rows of ALL the query heads that read this key head (flat row rho = g * lq + i of
 * head kv_head * group + g, rho < group * lq), so K and V are read once per key head, and
 * every range of split_keys keys is a workgroup of its own. DWG work-items; per tile of BK keys:
 *   1. the tile's K and V rows into kl, vl as float4s (VEC-wide global loads)          barrier
 *   2. the RB x BK scores, SPK work-items a (row, key) pair, each the dot product over the
 *      float4 columns seg, seg + SPK, ...: pl[(r BK + j) SPK + seg]                     barrier
 *   3. work-item (kg, r, cq) of KG key groups x RB rows x D / CPT column blocks takes the keys
 *      j = kg, kg + KG, ... of row r (the score: scale times the SPK parts, summed in order)
 *      and adds p_j V[j][cq CPT .. + CPT) to its own running (m, s, acc[CPT])
 * After the range: the KG groups' (m, s, acc) are joined through local memory (as combine()
 * joins halves of a row) and written to scratch as attention_split writes them; attention_merge
 * then joins the ranges and writes out (and lse).
 *
 *   local (float4s)   ql [RB][D/4]        kl [BK][D/4 + 1] (a row one float4 past the last's
 *                     vl [BK][D/4]        bank)          pl [RB BK SPK] floats, keptl [RB]
 */
#ifndef DWG
#error "DWG: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Columns of out a work-item accumulates; a multiple of 4 that divides D. */
#ifndef CPT
#error "CPT: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Query rows a workgroup (of the group * lq rows that share a key head). */
#ifndef RB
#error "RB: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Elements a K or V load (1, 2, 4 or 8): divides d, and every K and V offset and stride. */
#ifndef VEC
#error "VEC: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Work-items a score: divides D / 4. */
#ifndef SPK
#error "SPK: the host passes every define (src/plan/plan_attention.c)"
#endif
#if D % CPT || CPT % 4 || D % VEC || (D / 4) % SPK
#error "CPT (a multiple of 4), VEC and 4 SPK must divide D"
#endif
#define D4 (D / 4)
#define KSTRIDE4 (D4 + 1)
#define RW (RB * (D / CPT)) /* work-items of one key group */
#define KG (DWG / RW)       /* key groups (work-items past KG * RW only load and score) */
#if KG < 1
#error "DWG must hold RB * D / CPT work-items"
#endif
/* The join of the groups reuses the tiles' local memory. */
#if KG * RB * (D + 2) > BK * 4 * (2 * D4 + 1)
#error "the key groups' partials must fit in the K and V tiles"
#endif

/* x (VEC floats) into local floats p .. p + VEC - 1, p 16-byte aligned for VEC >= 4. */
#if VEC == 8
#define DEC_LOAD(t, p, e) OCF_LOADV(t, 8, p, (e) / 8)
#define DEC_STORE(x, p) (((__local float4 *)(p))[0] = (x).lo, ((__local float4 *)(p))[1] = (x).hi)
#elif VEC == 4
#define DEC_LOAD(t, p, e) OCF_LOADV(t, 4, p, (e) / 4)
#define DEC_STORE(x, p) (((__local float4 *)(p))[0] = (x))
#elif VEC == 2
#define DEC_LOAD(t, p, e) OCF_LOADV(t, 2, p, (e) / 2)
#define DEC_STORE(x, p) vstore2(x, 0, p)
#else
#define DEC_LOAD(t, p, e) OCF_LOAD(t, p, e)
#define DEC_STORE(x, p) (*(p) = (x))
#endif

/* Key and value rows j0 .. j0 + BK - 1 (those below `hi`) into kl and vl, zeros elsewhere. */
void decode_load_tile(__local float *kl, __local float *vl, __global const k_real *k,
                      const ulong k_base, const ulong k_sr, __global const v_real *v,
                      const ulong v_base, const ulong v_sr, const ulong j0, const ulong hi,
                      const ulong d) {
  for (uint idx = get_local_id(0); idx < BK * (D / VEC); idx += DWG) {
    const uint j = idx / (D / VEC), c = (idx - j * (D / VEC)) * VEC;
    OCF_FLOATN(VEC) kx = 0.0f, vx = 0.0f;
    if (j0 + j < hi && c < d) {
      kx = DEC_LOAD(K_DTYPE, k, k_base + (j0 + j) * k_sr + c);
      vx = DEC_LOAD(V_DTYPE, v, v_base + (j0 + j) * v_sr + c);
    }
    DEC_STORE(kx, kl + j * 4 * KSTRIDE4 + c);
    DEC_STORE(vx, vl + j * D + c);
  }
}

/* The block's rows: (head, i) of flat row rho of key head kv_head; 0 when past the group. */
int decode_row(const ulong rho, const ulong group, const ulong lq, const ulong kv_head,
               ulong *head, ulong *i) {
  if (rho >= group * lq) return 0;
  const ulong g = ocf_divmod(rho, lq, i);
  *head = kv_head * group + g;
  return 1;
}

/* The score of row r's key j: its SPK parts, in order, times the scale. */
float decode_score(__local const float *pl, const uint r, const uint j, const float scale) {
  __local const float *part = pl + (r * BK + j) * SPK;
  float sum = part[0];
  for (uint g = 1; g < SPK; g++)
    sum += part[g];
  return scale * sum;
}

__kernel __attribute__((reqd_work_group_size(DWG, 1, 1))) void
attention_decode(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                 __global float *scratch) {
  __local float4 ql4[RB * D4];
  __local float4 kv4[BK * (2 * D4 + 1)];
  __local float pl[RB * BK * SPK];
  __local ulong keptl[RB];
  __local float *const kv = (__local float *)kv4, *const ql = (__local float *)ql4;
  __local const float4 *const kl4 = kv4, *const vl4 = kv4 + BK * KSTRIDE4;
  const uint lid = get_local_id(0);
  const uint kg = lid / RW, rr = (lid - kg * RW) / (D / CPT);
  const uint c0 = (lid - kg * RW - rr * (D / CPT)) * CPT;
  const int active = kg < KG;
  const ulong rblocks = (group * lq + RB - 1) / RB, h_kv = h / group;
  const ulong units = b * h_kv * rblocks * splits;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong split, rblock, kv_head;
    const ulong rest = ocf_divmod(unit, splits, &split);
    const ulong bk_ = ocf_divmod(rest, rblocks, &rblock);
    const ulong batch = ocf_divmod(bk_, h_kv, &kv_head);
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    /* The block's rows: queries into ql (zeros past the group), kept keys into keptl. */
    for (uint idx = lid; idx < RB * D; idx += DWG) {
      const uint r = idx / D, c = idx - r * D;
      ulong head, i;
      float x = 0.0f;
      if (decode_row(rblock * RB + r, group, lq, kv_head, &head, &i) && c < d)
        x = OCF_LOAD(Q_DTYPE, q, q_off + batch * q_sb + head * q_sh + i * q_sr + c);
      ql[idx] = x;
    }
    for (uint r = lid; r < RB; r += DWG) {
      ulong head, i;
      keptl[r] = decode_row(rblock * RB + r, group, lq, kv_head, &head, &i)
                     ? kept_keys(i, len, causal_offset)
                     : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong limit = 0;
    for (uint r = 0; r < RB; r++)
      limit = keptl[r] > limit ? keptl[r] : limit;
    const ulong lo = split * split_keys;
    const ulong hi = lo >= limit ? lo : (limit - lo < split_keys ? limit : lo + split_keys);
    const ulong kept = keptl[rr];
    const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
    const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
    float m = -INFINITY, s = 0.0f, acc[CPT];
    for (uint t = 0; t < CPT; t++)
      acc[t] = 0.0f;
    for (ulong j0 = lo; j0 < hi; j0 += BK) {
      barrier(CLK_LOCAL_MEM_FENCE); /* the previous tile is read */
      decode_load_tile(kv, kv + BK * 4 * KSTRIDE4, k, k_base, k_sr, v, v_base, v_sr, j0, hi, d);
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint p = lid; p < RB * BK * SPK; p += DWG) {
        const uint pair = p / SPK, seg = p - pair * SPK, r = pair / BK, j = pair - r * BK;
        if (j0 + j < keptl[r]) {
          __local const float4 *qr = ql4 + r * D4, *kr = kl4 + j * KSTRIDE4;
          float4 sum = (float4)(0.0f);
          for (uint c = seg; c < D4; c += SPK)
            sum += qr[c] * kr[c];
          pl[p] = dot(sum, (float4)(1.0f));
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      const uint n = kept > j0 ? (uint)(kept - j0 < BK ? kept - j0 : BK) : 0;
      if (active && kg < n) {
        float tm = -INFINITY;
        for (uint j = kg; j < n; j += KG)
          tm = fmax(tm, decode_score(pl, rr, j, scale));
        const float nm = fmax(m, tm), f = exp_shift(m, nm);
        s *= f;
        for (uint t = 0; t < CPT; t++)
          acc[t] *= f;
        for (uint j = kg; j < n; j += KG) {
          const float e = exp_shift(decode_score(pl, rr, j, scale), nm);
          s += e;
          __local const float4 *vr = vl4 + j * D4 + c0 / 4;
          for (uint t = 0; t < CPT / 4; t++) {
            const float4 x = vr[t];
            acc[4 * t] += e * x.x, acc[4 * t + 1] += e * x.y;
            acc[4 * t + 2] += e * x.z, acc[4 * t + 3] += e * x.w;
          }
        }
        m = nm;
      }
    }
    /* The key groups' partials: group kg's row r at kv + (kg * RB + r) * (D + 2). */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (active) {
      __local float *slot = kv + (kg * RB + rr) * (D + 2);
      if (c0 == 0) slot[0] = m, slot[1] = s;
      for (uint t = 0; t < CPT; t++)
        slot[2 + c0 + t] = acc[t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint idx = lid; idx < RB * D; idx += DWG) {
      const uint r = idx / D, c = idx - r * D;
      ulong head, i;
      if (!decode_row(rblock * RB + r, group, lq, kv_head, &head, &i) || c >= d) continue;
      float gm = -INFINITY;
      for (uint g = 0; g < KG; g++)
        gm = fmax(gm, kv[(g * RB + r) * (D + 2)]);
      float gs = 0.0f, ga = 0.0f;
      for (uint g = 0; g < KG; g++) {
        __local const float *slot = kv + (g * RB + r) * (D + 2);
        const float f = exp_shift(slot[0], gm);
        gs += slot[1] * f;
        ga += slot[2 + c] * f;
      }
      const ulong o = (((batch * h + head) * lq + i) * splits + split) * (d + 2);
      if (c == 0) scratch[o] = gm, scratch[o + 1] = gs;
      scratch[o + 2 + c] = ga;
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* before the next unit overwrites ql, keptl and kv */
  }
}
#endif

#ifdef OCF_KERNEL_attention_block
/* ---- attention_block: attention_tiled with register blocks (GPUs) ----
 *
 * One workgroup per (batch, head, block of BQ query rows), (BQ / RM) x TC work-items: work-item
 * (tr, tc) owns rows tr RM .. + RM of the block, for the scores the keys tc + TC u (u < BK / TC)
 * of each tile, for the output the columns tc CN .. + CN (CN = D / TC, a multiple of 4). Per
 * tile of BK keys:
 *   1. K's rows into kvl (float4s, a row one float4 past the last's bank)              barrier
 *   2. the work-item's RM x BK/TC scores (float4 partial sums over d), in registers      barrier
 *   3. V's rows into kvl; the scores into pl                                           barrier
 *   4. each row's tile max (float4 reads of its pl row): the new (m, s, acc) scale     barrier
 *   5. its scores' weights exp_shift(score - m) into pl (0 for masked keys)            barrier
 *   6. acc[a][CN] += pl[a][j] V[j][cols], s[a] += pl[a][j], four keys a step
 * Every work-item of a row reads the same pl row in the same order, so all agree on (m, s).
 *   local (float4s)   ql [BQ][D/4]   kvl [BK][D/4 + 1]   pl [BQ][BK] floats
 */
#ifndef RM
#error "RM: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Work-items across a tile's keys and across out's columns. */
#ifndef TC
#error "TC: the host passes every define (src/plan/plan_attention.c)"
#endif
#if BQ % RM || BK % TC || BK % 4 || D % (4 * TC)
#error "RM must divide BQ, TC and 4 BK, 4 TC D"
#endif
#define B_D4 (D / 4)
#define B_KS4 (B_D4 + 1)
#define B_WG ((BQ / RM) * TC)
#define B_RN (BK / TC)
#define B_CN (D / TC)

/* Rows j0 .. j0 + BK - 1 (those below `limit`) of a K or V (storage T) into dst, a row every
   4 B_KS4 floats, zeros elsewhere. */
#define B_LOAD_ROWS(dst, T, p, base, sr, j0, limit, d)                          \
  for (uint idx = get_local_id(0); idx < BK * D; idx += B_WG) {                \
    const uint j = idx / D, c = idx - j * D;                                   \
    float x = 0.0f;                                                            \
    if ((j0) + j < (limit) && c < (d)) x = OCF_LOAD(T, p, (base) + ((j0) + j) * (sr) + c); \
    (dst)[j * B_KS4 * 4 + c] = x;                                              \
  }

__kernel __attribute__((reqd_work_group_size(B_WG, 1, 1))) void attention_block(COMMON_PARAMS) {
  __local float4 ql4[BQ * B_D4];
  __local float4 kvl4[BK * B_KS4];
  __local float4 pl4[BQ * BK / 4];
  __local float *const ql = (__local float *)ql4, *const kvl = (__local float *)kvl4;
  __local float *const pl = (__local float *)pl4;
  const uint lid = get_local_id(0), tr = lid / TC, tc = lid - tr * TC;
  const ulong blocks = (lq + BQ - 1) / BQ, units = b * h * blocks;
  for (ulong unit = get_group_id(0); unit < units; unit += get_num_groups(0)) {
    ulong block, head;
    const ulong bh = ocf_divmod(unit, blocks, &block);
    const ulong batch = ocf_divmod(bh, h, &head), kv_head = head / group;
    const ulong row0 = block * BQ;
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    const ulong last = (row0 + BQ < lq ? row0 + BQ : lq) - 1;
    const ulong limit = kept_keys(last, len, causal_offset);
    ulong kept[RM];
    float m[RM], s[RM], acc[RM][B_CN];
    for (uint a = 0; a < RM; a++) {
      const ulong i = row0 + tr * RM + a;
      kept[a] = i < lq ? kept_keys(i, len, causal_offset) : 0;
      m[a] = -INFINITY, s[a] = 0.0f;
      for (uint c = 0; c < B_CN; c++)
        acc[a][c] = 0.0f;
    }
    const ulong q_base = q_off + batch * q_sb + head * q_sh;
    for (uint idx = lid; idx < BQ * D; idx += B_WG) {
      const uint r = idx / D, c = idx - r * D;
      float x = 0.0f;
      if (row0 + r < lq && c < d) x = OCF_LOAD(Q_DTYPE, q, q_base + (row0 + r) * q_sr + c);
      ql[idx] = x;
    }
    const ulong k_base = k_off + batch * k_sb + kv_head * k_sh;
    const ulong v_base = v_off + batch * v_sb + kv_head * v_sh;
    for (ulong j0 = 0; j0 < limit; j0 += BK) {
      barrier(CLK_LOCAL_MEM_FENCE); /* the previous tile (and the queries) are read */
      B_LOAD_ROWS(kvl, K_DTYPE, k, k_base, k_sr, j0, limit, d);
      barrier(CLK_LOCAL_MEM_FENCE);
      float4 part[RM][B_RN];
      for (uint a = 0; a < RM; a++)
        for (uint u = 0; u < B_RN; u++)
          part[a][u] = (float4)(0.0f);
      for (uint c = 0; c < B_D4; c++) {
        float4 kx[B_RN];
        for (uint u = 0; u < B_RN; u++)
          kx[u] = kvl4[(tc + TC * u) * B_KS4 + c];
        for (uint a = 0; a < RM; a++) {
          const float4 qx = ql4[(tr * RM + a) * B_D4 + c];
          for (uint u = 0; u < B_RN; u++)
            part[a][u] += qx * kx[u];
        }
      }
      float sc[RM][B_RN];
      for (uint a = 0; a < RM; a++)
        for (uint u = 0; u < B_RN; u++)
          sc[a][u] = scale * dot(part[a][u], (float4)(1.0f));
      barrier(CLK_LOCAL_MEM_FENCE); /* K is read */
      B_LOAD_ROWS(kvl, V_DTYPE, v, v_base, v_sr, j0, limit, d);
      for (uint a = 0; a < RM; a++)
        for (uint u = 0; u < B_RN; u++) {
          const uint j = tc + TC * u;
          pl[(tr * RM + a) * BK + j] = j0 + j < kept[a] ? sc[a][u] : -INFINITY;
        }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint a = 0; a < RM; a++) {
        float4 t4 = (float4)(-INFINITY);
        for (uint j4 = 0; j4 < BK / 4; j4++)
          t4 = fmax(t4, pl4[(tr * RM + a) * (BK / 4) + j4]);
        const float tm = fmax(fmax(t4.x, t4.y), fmax(t4.z, t4.w));
        const float nm = fmax(m[a], tm), f = exp_shift(m[a], nm);
        s[a] *= f;
        for (uint c = 0; c < B_CN; c++)
          acc[a][c] *= f;
        m[a] = nm;
      }
      barrier(CLK_LOCAL_MEM_FENCE); /* the maxima are read */
      for (uint a = 0; a < RM; a++)
        for (uint u = 0; u < B_RN; u++) {
          const uint j = tc + TC * u;
          pl[(tr * RM + a) * BK + j] = j0 + j < kept[a] ? exp_shift(sc[a][u], m[a]) : 0.0f;
        }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint j4 = 0; j4 < BK / 4; j4++) {
        float4 p[RM];
        for (uint a = 0; a < RM; a++) {
          p[a] = pl4[(tr * RM + a) * (BK / 4) + j4];
          s[a] += (p[a].x + p[a].y) + (p[a].z + p[a].w);
        }
        for (uint kk = 0; kk < 4; kk++) {
          __local const float4 *vr = kvl4 + (4 * j4 + kk) * B_KS4 + tc * (B_CN / 4);
          for (uint c4 = 0; c4 < B_CN / 4; c4++) {
            const float4 x = vr[c4];
            for (uint a = 0; a < RM; a++) {
              const float w = kk == 0 ? p[a].x : kk == 1 ? p[a].y : kk == 2 ? p[a].z : p[a].w;
              acc[a][4 * c4] += w * x.x, acc[a][4 * c4 + 1] += w * x.y;
              acc[a][4 * c4 + 2] += w * x.z, acc[a][4 * c4 + 3] += w * x.w;
            }
          }
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* before the next unit overwrites ql */
    for (uint a = 0; a < RM; a++) {
      const ulong i = row0 + tr * RM + a;
      if (i >= lq) continue;
      /* kept 0: out 0, lse -inf; a non-finite max (+inf, or all -inf): NaN. */
      const float norm = kept[a] == 0 ? 0.0f : isfinite(m[a]) ? 1.0f / s[a] : NAN;
      const ulong o = out_off + batch * out_sb + head * out_sh + i * out_sr;
      for (uint c = 0; c < B_CN; c++) {
        const uint col = tc * B_CN + c;
        if (col < d) OCF_STORE(OUT_DTYPE, out, o + col, acc[a][c] * norm);
      }
#if HAS_LSE
      if (tc == 0)
        lse[lse_off + (batch * h + head) * lq + i] = kept[a] == 0     ? -INFINITY
                                                     : isfinite(m[a]) ? m[a] + log(s[a])
                                                                      : NAN;
#endif
    }
  }
}
#endif
