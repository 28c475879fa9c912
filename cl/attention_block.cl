/*
 * attention_block.cl: fused attention with register blocks for GPUs, out = softmax(scale * Q K^T
 * + mask) V, the layout, mask and rules of cl/attention.cl (attention_common.clh holds what
 * they share).
 */

/* ---- tunables, each passed by the host (the schema, src/tuning/schema_attention.c, holds the
   defaults) ---- */

/* Query rows a workgroup: a multiple of RM. */
#ifndef BQ
#error "BQ: the host passes every define (src/plan/plan_attention.c)"
#endif
/* Keys and values a tile in local memory: a multiple of 4 and of TC. */
#ifndef BK
#error "BK: the host passes every define (src/plan/plan_attention.c)"
#endif
/* ---- attention_block: attention_tiled with register blocks (GPUs) ----
 *
 * One workgroup per (batch, head, block of BQ query rows), (BQ / RM) x TC work-items: work-item
 * (tr, tc) owns rows tr RM .. + RM of the block, for the scores the keys tc + TC u (u < BK / TC)
 * of each tile, for the output the columns tc CN .. + CN (CN = D / TC, a multiple of 4). Per
 * tile of BK keys:
 *   1. K's rows into kvl (float4s, a row one float4 past the last's bank)              barrier
 *   2. the work-item's RM x BK/TC scores (float4 partial sums over d), in registers; the
 *      max of its kept scores of each row into pl (TC partial maxima a row)             barrier
 *   3. V's rows into kvl; each row's tile max (its TC partial maxima): the new (m, s, acc)
 *      scale                                                                           barrier
 *   4. its scores' weights exp_shift(score - m) into pl (0 for masked keys)            barrier
 *   5. acc[a][CN] += pl[a][j] V[j][cols] (float4s), s[a] += pl[a][j], key by key
 * Every work-item of a row reads the same partial maxima and the same pl row in the same order,
 * so all agree on (m, s). A row's max from TC partials, not its BK scores, is a quarter (bk 64)
 * to a half (bk 32) of the scan's local reads at tc 16: local memory, not the FMA units, sets
 * this kernel's pace (docs/ATTENTION.md, "Larger tiles for exact fp32").
 *   local (float4s)   ql [BQ][D/4]   kvl [BK][D/4 + 1]   pl [BQ][BK + 1] floats (the partial
 *   maxima in its first BQ (TC + 1))
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
/* Rows of pl (weights) and of its partial maxima, one float past BK and TC: a warp's row groups
   (32 / TC of them) read their rows' words at the same column, and at RM BK or RM TC words
   apart (a multiple of 32 at the defaults) those fell in one bank, two passes a read. */
#define B_PL_S (BK + 1)
#define B_PM_S (TC + 1)
#define B_WG ((BQ / RM) * TC)
#define B_RN (BK / TC)
#define B_CN (D / TC)

/* Rows j0 .. j0 + BK - 1 (those below `limit`) of a K or V (storage T) into dst, a row every
   4 B_KS4 floats, zeros elsewhere. */
#define B_LOAD_ROWS(dst, T, p, base, sr, j0, limit, d)                                     \
  for (uint idx = get_local_id(0); idx < BK * D; idx += B_WG) {                            \
    const uint j = idx / D, c = idx - j * D;                                               \
    float x = 0.0f;                                                                        \
    if ((j0) + j < (limit) && c < (d)) x = OCF_LOAD(T, p, (base) + ((j0) + j) * (sr) + c); \
    (dst)[j * B_KS4 * 4 + c] = x;                                                          \
  }

#ifdef OCF_KERNEL_attention_block
__kernel __attribute__((reqd_work_group_size(B_WG, 1, 1))) void attention_block(COMMON_PARAMS) {
  __local float4 ql4[BQ * B_D4];
  __local float4 kvl4[BK * B_KS4];
  __local float4 pl4[(BQ * B_PL_S + 3) / 4];
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
    float m[RM], s[RM];
    float4 acc[RM][B_CN / 4];
    for (uint a = 0; a < RM; a++) {
      const ulong i = row0 + tr * RM + a;
      kept[a] = i < lq ? kept_keys(i, len, causal_offset) : 0;
      m[a] = -INFINITY, s[a] = 0.0f;
      for (uint c = 0; c < B_CN / 4; c++)
        acc[a][c] = (float4)(0.0f);
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
      for (uint a = 0; a < RM; a++) {
        float pm = -INFINITY; /* the max of this work-item's kept scores of the row */
        for (uint u = 0; u < B_RN; u++) {
          sc[a][u] = scale * dot(part[a][u], (float4)(1.0f));
          if (j0 + tc + TC * u < kept[a]) pm = fmax(pm, sc[a][u]);
        }
        pl[(tr * RM + a) * B_PM_S + tc] = pm;
      }
      barrier(CLK_LOCAL_MEM_FENCE); /* K is read, the partial maxima written */
      B_LOAD_ROWS(kvl, V_DTYPE, v, v_base, v_sr, j0, limit, d);
      for (uint a = 0; a < RM; a++) {
        float tm = -INFINITY;
        for (uint c = 0; c < TC; c++)
          tm = fmax(tm, pl[(tr * RM + a) * B_PM_S + c]);
        const float nm = fmax(m[a], tm), f = exp_shift(m[a], nm);
        s[a] *= f;
        for (uint c = 0; c < B_CN / 4; c++)
          acc[a][c] *= f;
        m[a] = nm;
      }
      barrier(CLK_LOCAL_MEM_FENCE); /* the partial maxima are read */
      for (uint a = 0; a < RM; a++)
        for (uint u = 0; u < B_RN; u++) {
          const uint j = tc + TC * u;
          pl[(tr * RM + a) * B_PL_S + j] = j0 + j < kept[a] ? exp_shift(sc[a][u], m[a]) : 0.0f;
        }
      barrier(CLK_LOCAL_MEM_FENCE);
      /* (No swizzles: Oclgrind's uninitialised-value checker crashes on them.) */
      for (uint j = 0; j < BK; j++) {
        float w[RM];
        for (uint a = 0; a < RM; a++) {
          w[a] = pl[(tr * RM + a) * B_PL_S + j];
          s[a] += w[a];
        }
        __local const float4 *vr = kvl4 + j * B_KS4 + tc * (B_CN / 4);
        for (uint c = 0; c < B_CN / 4; c++) {
          const float4 x = vr[c];
          for (uint a = 0; a < RM; a++)
            acc[a][c] += w[a] * x;
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
      for (uint c = 0; c < B_CN / 4; c++) {
        float x[4];
        vstore4(acc[a][c] * norm, 0, x);
        for (uint t = 0; t < 4; t++) {
          const uint col = tc * B_CN + 4 * c + t;
          if (col < d) OCF_STORE(OUT_DTYPE, out, o + col, x[t]);
        }
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
