/*
 * attention_decode.cl: fused attention for few query rows against long keys (decoding), out =
 * softmax(scale * Q K^T + mask) V, the layout, mask and rules of cl/attention.cl
 * (attention_common.clh holds what they share). Two kernels: attention_decode (below), then
 * attention_join, which joins each row's key ranges and writes out (and lse).
 */

/* ---- tunables, each passed by the host (the schema, src/tuning/schema_attention.c, holds the
   defaults) ---- */

/* Keys and values a tile in local memory. */
#ifndef BK
#error "BK: the host passes every define (src/plan/plan_attention.c)"
#endif
/* ---- attention_decode: few query rows against long keys (decoding) ----
 *
 * One workgroup per unit (batch, key head, block of RB rows, key range): the block's rows are
 * the query rows of ALL the query heads that read this key head (flat row rho = g * lq + i of
 * head kv_head * group + g, rho < group * lq), so K and V are read once per key head, and
 * every range of split_keys keys is a workgroup of its own. DWG work-items; per tile of BK keys:
 *   1. the tile's K and V rows into kl, vl as float4s (VEC-wide global loads; with PREFETCH
 *      fetched into registers during the previous tile)                                 barrier
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
/* 1: a work-item loads its share of the next tile into registers before scoring this one. */
#ifndef PREFETCH
#error "PREFETCH: the host passes every define (src/plan/plan_attention.c)"
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

/* The vectors of a tile a work-item loads: BK rows of D / VEC vectors over DWG work-items. */
#define DEC_ITEMS ((BK * (D / VEC) + DWG - 1) / DWG)
typedef OCF_FLOATN(VEC) dec_vec;

/* This work-item's vectors of key and value rows j0 .. j0 + BK - 1 (zeros past `hi` and d) into
   registers: decode_store_tile puts them in local memory. */
void decode_fetch_tile(dec_vec *kx, dec_vec *vx, __global const k_real *k, const ulong k_base,
                       const ulong k_sr, __global const v_real *v, const ulong v_base,
                       const ulong v_sr, const ulong j0, const ulong hi, const ulong d) {
#pragma unroll
  for (uint u = 0; u < DEC_ITEMS; u++) {
    const uint idx = get_local_id(0) + u * DWG;
    const uint j = idx / (D / VEC), c = (idx - j * (D / VEC)) * VEC;
    kx[u] = 0.0f, vx[u] = 0.0f;
    if (idx < BK * (D / VEC) && j0 + j < hi && c < d) {
      kx[u] = DEC_LOAD(K_DTYPE, k, k_base + (j0 + j) * k_sr + c);
      vx[u] = DEC_LOAD(V_DTYPE, v, v_base + (j0 + j) * v_sr + c);
    }
  }
}

/* The fetched vectors into the tiles kl and vl. */
void decode_store_tile(__local float *kl, __local float *vl, const dec_vec *kx, const dec_vec *vx) {
#pragma unroll
  for (uint u = 0; u < DEC_ITEMS; u++) {
    const uint idx = get_local_id(0) + u * DWG;
    const uint j = idx / (D / VEC), c = (idx - j * (D / VEC)) * VEC;
    if (idx < BK * (D / VEC)) {
      DEC_STORE(kx[u], kl + j * 4 * KSTRIDE4 + c);
      DEC_STORE(vx[u], vl + j * D + c);
    }
  }
}

/* The score of row r's key j: its SPK parts, in order, times the scale. */
float decode_score(__local const float *pl, const uint r, const uint j, const float scale) {
  __local const float *part = pl + (r * BK + j) * SPK;
  float sum = part[0];
  for (uint g = 1; g < SPK; g++)
    sum += part[g];
  return scale * sum;
}

#ifdef OCF_KERNEL_attention_decode
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
    ulong batch, kv_head, rblock, split;
    key_head_unit(unit, splits, rblocks, h_kv, &batch, &kv_head, &rblock, &split);
    const ulong len = batch_length(lk, lengths, lengths_off, batch);
    /* The block's rows: queries into ql (zeros past the group), kept keys into keptl. */
    for (uint idx = lid; idx < RB * D; idx += DWG) {
      const uint r = idx / D, c = idx - r * D;
      ulong head, i;
      float x = 0.0f;
      if (key_head_row(rblock * RB + r, group, lq, kv_head, &head, &i) && c < d)
        x = OCF_LOAD(Q_DTYPE, q, q_off + batch * q_sb + head * q_sh + i * q_sr + c);
      ql[idx] = x;
    }
    for (uint r = lid; r < RB; r += DWG) {
      ulong head, i;
      keptl[r] = key_head_row(rblock * RB + r, group, lq, kv_head, &head, &i)
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
    /* With PREFETCH the next tile's loads are in flight while this one is scored and summed. */
    dec_vec kx[DEC_ITEMS], vx[DEC_ITEMS];
#if PREFETCH
    if (lo < hi) decode_fetch_tile(kx, vx, k, k_base, k_sr, v, v_base, v_sr, lo, hi, d);
#endif
    for (ulong j0 = lo; j0 < hi; j0 += BK) {
      barrier(CLK_LOCAL_MEM_FENCE); /* the previous tile is read */
#if !PREFETCH
      decode_fetch_tile(kx, vx, k, k_base, k_sr, v, v_base, v_sr, j0, hi, d);
#endif
      decode_store_tile(kv, kv + BK * 4 * KSTRIDE4, kx, vx);
#if PREFETCH
      if (j0 + BK < hi) decode_fetch_tile(kx, vx, k, k_base, k_sr, v, v_base, v_sr, j0 + BK, hi, d);
#endif
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
    write_range_partials(kv, KG, RB, rblock * RB, group, lq, kv_head, batch, h, d, splits, split,
                         scratch);
    barrier(CLK_LOCAL_MEM_FENCE); /* before the next unit overwrites ql, keptl and kv */
  }
}
#endif

#ifdef OCF_KERNEL_attention_join
/* After attention_decode: merge_ranges (attention_common.clh), as attention_merge after
   attention_split. Any workgroup size. */
__kernel void attention_join(COMMON_PARAMS, const ulong splits, const ulong split_keys,
                             __global float *scratch) {
  merge_ranges(COMMON_ARGS, splits, scratch);
  (void)split_keys;
}
#endif
