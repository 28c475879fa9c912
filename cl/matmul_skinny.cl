/*
 * matmul_skinny.cl: GEMM whose C has at most 16 columns or 16 rows (matrix-vector products and
 * their short-and-wide kin), run at the memory bandwidth of the large operand.
 *
 * The problem as these kernels see it, after the host has put the short side of C last:
 *     Y = act(alpha * X V + beta * Y + bias)
 *   X  rows x k, the large operand: element (r, p) at x[x_off + r * ldx + p] when X_KCONT = 1
 *      (k contiguous), at x[x_off + p * ldx + r] when X_KCONT = 0 (rows contiguous);
 *   V  k x N_SMALL, the small one: element (p, s) at v[v_off + p * v_ps + s * v_ss]
 *      (V_SCONT = 1 says v_ss is 1);
 *   Y  rows x N_SMALL: element (r, s) at c[c_off + r * c_rs + s * c_ss].
 * For C = op(A) op(B) with n <= 16 the host passes X = op(A), V = op(B), Y = C (c_rs = ldc,
 * c_ss = 1); with m <= 16, C^T = op(B)^T op(A)^T: X = op(B)^T, V = op(A)^T, Y = C^T (c_rs = 1,
 * c_ss = ldc). Product i of a batch adds i * stride_x, i * stride_v, i * stride_c to the offsets.
 * Arithmetic is fp32 whatever the storage types (X_DTYPE, V_DTYPE, C_DTYPE, BIAS_DTYPE), with
 * the precision modes and the epilogue of cl/matmul.cl.
 *
 * A workgroup of WG work-items owns RB = 4 * RL rows of one product and one range of K. Its
 * work-items are RL row lanes times KL = WG / RL k lanes, each owning 4 rows:
 *
 *   X_KCONT = 0 (rows contiguous)                 X_KCONT = 1 (k contiguous)
 *   item (rl, kl), row lanes fastest:             item (kl, rl), k lanes fastest:
 *   rows 4 rl .. 4 rl + 3;                        rows rl, rl + RL, rl + 2 RL, rl + 3 RL;
 *   k = kl, kl + KL, ...: one 4-row vector of     k = 4 kl .. 4 kl + 3, then 4 KL further on:
 *   X per k, and that k's N_SMALL values of V,    one 4-k vector of X per row, and the N_SMALL
 *   the same for every row lane (a broadcast).    values of V of each of those 4 k.
 *
 *        k ->                                           k ->
 *   r  +--+--+--+--+-                              r  +----+----+----+-
 *   |  |l0|l0|l0|l0|  one vector of 4 rows         |  | kl0| kl1| kl2|  one vector of 4 k
 *   v  |l1|l1|l1|l1|  per row lane and k           v  +----+----+----+-  per k lane and row
 *
 * Either way each element of X is read once, by one work-item, in coalesced vectors, and
 * multiplied into its 4 x N_SMALL accumulators; UNROLL steps of loads of X are issued before
 * their multiplies, for memory-level parallelism.
 *
 * WIDE = 1 (for the wider Y, N_SMALL from about 8, where every work-item re-reading V from
 * global memory for each of its k makes the kernels bound by those loads, not by X): the
 * workgroup walks its K range in chunks of KC, staging the chunk of X (RB rows x KC) and of V
 * (KC x N_SMALL) in local memory, double-buffered (the next chunk's global loads in flight in
 * registers during the multiply, one barrier a chunk). Work-item (rl, kl), row lanes fastest,
 * owns rows rl, rl + RL, rl + 2 RL, rl + 3 RL and k = kl, kl + KL, ... of each chunk, so the
 * lanes of a warp (RL >= 32) share k and read V's values as broadcasts, and X's as
 * consecutive floats. X is staged [row][k] with an odd row stride when k-contiguous (its
 * global loads are 4-k vectors of a row; the transposing scalar stores and the column reads
 * then meet no bank twice), [k][row] when row-contiguous (4-row vectors both ways):
 *
 *      X chunk (k-contiguous)          V chunk
 *      row +--KC--+1                   k  +--N_SMALL--+
 *       |  |      |                    |  |           |   acc[i][s] += X[rl + i RL][k]
 *       v  +------+                    v  +-----------+                 * V[k][s]
 *
 * At the end the KL k lanes' sums of each
 * (row, s) are added through local memory (four columns of Y at a time, so it holds 16 floats a
 * work-item), then
 *   matmul_skinny        applies the epilogue and stores Y;
 *   matmul_skinny_split  (its K range one of `splits` of k_split elements, k_split a multiple of
 *                        4) writes the raw sums to
 *                        partial[((batch_index * splits + split) * rows + r) * N_SMALL + s],
 *   matmul_skinny_reduce adds each element's splits in order, then the epilogue and the store;
 *   matmul_skinny_join   the split and its reduce in one launch: each workgroup, its range's sums
 *                        written, counts in at its row block's counter (cl/join.clh), and the
 *                        block's last range to arrive adds the block's splits as the reduce
 *                        does (the same bits) and stores Y.
 * The grid is one-dimensional: group = (batch_index * splits + split) * row_blocks + row_block.
 * Loads of rows past the end read a valid row (the last one) or 0 and are never stored; the K
 * range's last step is guarded. Every work-item reaches every barrier.
 */

/* Columns of Y (the short side of C), 1 to 16. */
#ifndef N_SMALL
#error "N_SMALL: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Work-items per workgroup (row lanes times k lanes). */
#ifndef WG
#error "WG: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Row lanes; WG / RL k lanes. A power of two dividing WG. */
#ifndef RL
#error "RL: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Steps of loads of X in flight per work-item. */
#ifndef UNROLL
#error "UNROLL: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: X is k-contiguous (see above). */
#ifndef X_KCONT
#error "X_KCONT: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: v_ss is 1, so a row of V is contiguous. */
#ifndef V_SCONT
#error "V_SCONT: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: X's (or V's) four-element groups are aligned vector accesses: offsets, strides and leading
   dimension multiples of 4 elements (fp32: one 16-byte access; 16-bit types: one 8-byte word,
   converted in registers). 0: element-aligned vloads. */
#ifndef X_VEC
#error "X_VEC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef V_VEC
#error "V_VEC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Storage types: 0 fp32, 1 fp16, 2 bf16. */
#ifndef X_DTYPE
#error "X_DTYPE: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef V_DTYPE
#error "V_DTYPE: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef C_DTYPE
#error "C_DTYPE: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef BIAS_DTYPE
#error "BIAS_DTYPE: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 0 FP32, 1 TF32, 2 3XTF32, as in cl/matmul.cl. */
#ifndef PRECISION
#error "PRECISION: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* ocf_activation. */
#ifndef ACTIVATION
#error "ACTIVATION: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 0 no bias, 1 a bias per column s of Y, 2 a bias per row r of Y. */
#ifndef BIAS
#error "BIAS: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: the wide path (see above); RL >= WG / 32 so that KL divides KC. */
#ifndef WIDE
#error "WIDE: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: the program holds the split pair (matmul_skinny_split, matmul_skinny_reduce) and the split
   that joins its ranges (matmul_skinny_join), 0: matmul_skinny. A program holds only what its
   plan runs: some implementations (Oclgrind) charge a kernel with every __local array of its
   program. */
#ifndef SPLIT
#error "SPLIT: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* matmul_skinny_join's fences (cl/join.clh: 1 mem_fence, 2 PTX); 0 in the other plans. */
#ifndef JOIN
#error "JOIN: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* K of one staged chunk of the wide path: 32 makes the odd row stride 33 free of bank conflicts
   for the k-contiguous staging (8 lanes a row, 4 rows a warp). */
#ifndef KC
#error "KC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif

/* ---- derived ---- */
#define KL (WG / RL)                              /* k lanes */
#define RB (4 * RL)                               /* rows of a workgroup */
#define ROW_BLOCKS(rows) (((rows) + RB - 1) / RB) /* row blocks of one product */
#if X_KCONT
#define STEP (4 * KL) /* k covered by one step of the whole workgroup */
#else
#define STEP KL
#endif

#if WIDE
#if X_KCONT
#define XL_LD (KC + 1) /* [row][k] */
#define XL_AT(r, q) ((r)*XL_LD + (q))
#define XL_SIZE (RB * XL_LD)
#else
#define XL_LD (RB + 4) /* [k][row] */
#define XL_AT(r, q) ((q)*XL_LD + (r))
#define XL_SIZE (KC * XL_LD)
#endif
#define VL_LD ((N_SMALL + 3) / 4 * 4)      /* V chunk row stride: whole float4s */
#define STAGE_SIZE (XL_SIZE + KC * VL_LD)  /* floats of one buffer (X, then V) */
#define X_GROUPS (RB * KC / 4)             /* four-element load groups of an X chunk */
#define X_SLOTS ((X_GROUPS + WG - 1) / WG) /* per work-item */
#define V_SLOTS ((KC * N_SMALL + WG - 1) / WG)
#define LOCAL_FLOATS (2 * STAGE_SIZE > WG * 16 ? 2 * STAGE_SIZE : WG * 16)
#else
#define LOCAL_FLOATS (WG * 16)
#endif

#define X_T OCF_STORAGE(X_DTYPE)
#define V_T OCF_STORAGE(V_DTYPE)
#define C_T OCF_STORAGE(C_DTYPE)
#define BIAS_T OCF_STORAGE(BIAS_DTYPE)

/* The four 16-bit elements of the 8-byte word w (element 0 in its lowest 16 bits), as floats,
   converted in registers: bf16 by shifts, fp16 by vload_half4 of a private copy (the F16_CVT 1
   conversion of cl/f16_words.clh). NVIDIA's OpenCL loads a vload_half4 or a vload4 of ushort
   from a global pointer, which need only 2-byte alignment, element by element (16-bit loads at a
   third of the bandwidth of fp32, 2026-12-01); one aligned 64-bit load does not. A ulong rather
   than a uint2: clang 14 split the uint2's load into two 32-bit loads (its halves are used
   apart), the ulong's it keeps whole (PTX ld.global.u64, tools/few_offline.sh). */
float4 skinny_bf16x4(const ulong w) {
  const uint lo = (uint)w, hi = (uint)(w >> 32);
  return (float4)(as_float(lo << 16), as_float(lo & 0xffff0000u), as_float(hi << 16),
                  as_float(hi & 0xffff0000u));
}
float4 skinny_f16x4(const ulong w) {
  return vload_half4(0, (const __private half *)&w);
}

/* Four elements from p as a float4: an aligned vector access with VEC (fp32 one float4, the
   16-bit types one ulong converted in registers), element-aligned vloads without. */
#define LOAD4_0_1(p) (*(__global const float4 *)(p))
#define LOAD4_0_0(p) vload4(0, p)
#define LOAD4_1_1(p) skinny_f16x4(*(__global const ulong *)(p))
#define LOAD4_1_0(p) vload_half4(0, p)
#define LOAD4_2_1(p) skinny_bf16x4(*(__global const ulong *)(p))
#define LOAD4_2_0(p) OCF_LOADV_2(4, p, 0)
#define LOAD4(t, vec, p) OCF_CAT(OCF_CAT(OCF_CAT(LOAD4_, t), _), vec)(p)

/* TF32 truncation as values are loaded (fp32 inputs in TF32 mode only). */
#if PRECISION == 1 && X_DTYPE == 0
#define ROUND_X(x) ocf_tf32_trunc(x)
#else
#define ROUND_X(x) (x)
#endif
#if PRECISION == 1 && V_DTYPE == 0
#define ROUND_V(x) ocf_tf32_trunc(x)
#else
#define ROUND_V(x) (x)
#endif

/* acc + x * v in the precision mode (TF32 inputs arrive truncated; 3XTF32 splits them here). */
float mac(const float acc, const float x, const float v) {
#if PRECISION == 2
  const float x_big = ocf_round_tf32(x), v_big = ocf_round_tf32(v);
  const float cross = ocf_tf32_small(x, x_big) * v_big + x_big * ocf_tf32_small(v, v_big);
  return acc + (x_big * v_big + cross);
#else
  return x * v + acc;
#endif
}

/* Row p of V, its N_SMALL values as floats; guarded: 0 when p is not inside. */
void load_v_row(__global const V_T *v, const ulong p, const ulong v_ps, const ulong v_ss,
                const int inside, float *out) {
  __global const V_T *row = v + p * v_ps;
#if V_SCONT
#pragma unroll
  for (uint s = 0; s + 4 <= N_SMALL; s += 4) {
    const float4 q = inside ? LOAD4(V_DTYPE, V_VEC, row + s) : (float4)(0.0f);
    out[s] = ROUND_V(q.s0), out[s + 1] = ROUND_V(q.s1), out[s + 2] = ROUND_V(q.s2);
    out[s + 3] = ROUND_V(q.s3);
  }
#pragma unroll
  for (uint s = N_SMALL / 4 * 4; s < N_SMALL; s++)
    out[s] = inside ? ROUND_V(OCF_LOAD(V_DTYPE, row, s)) : 0.0f;
#else
#pragma unroll
  for (uint s = 0; s < N_SMALL; s++)
    out[s] = inside ? ROUND_V(OCF_LOAD(V_DTYPE, row, s * v_ss)) : 0.0f;
#endif
}

/* Four elements of X from p (consecutive in memory), the ones at index >= avail 0. */
float4 load_x4(__global const X_T *p, const int whole, const long avail) {
  float4 q = (float4)(0.0f);
  if (whole) {
    q = LOAD4(X_DTYPE, X_VEC, p);
  } else {
    if (avail > 0) q.s0 = OCF_LOAD(X_DTYPE, p, 0);
    if (avail > 1) q.s1 = OCF_LOAD(X_DTYPE, p, 1);
    if (avail > 2) q.s2 = OCF_LOAD(X_DTYPE, p, 2);
    if (avail > 3) q.s3 = OCF_LOAD(X_DTYPE, p, 3);
  }
  return (float4)(ROUND_X(q.s0), ROUND_X(q.s1), ROUND_X(q.s2), ROUND_X(q.s3));
}

/* This work-item's sums over k in [k0, k1) of its 4 rows (first at r_first: the lane's row
   block start) into acc[i * N_SMALL + s]. */
void accumulate(__global const X_T *x, const ulong ldx, __global const V_T *v, const ulong v_ps,
                const ulong v_ss, const ulong rows, const ulong r0, const uint rl, const uint kl,
                const ulong k0, const ulong k1, float *acc) {
#pragma unroll
  for (uint i = 0; i < 4 * N_SMALL; i++)
    acc[i] = 0.0f;
  float vrow[N_SMALL];
#if X_KCONT
  /* Rows rl + i RL of the block; rows past the end load the last row (results unused). */
  ulong row_at[4];
#pragma unroll
  for (uint i = 0; i < 4; i++)
    row_at[i] = min(r0 + rl + i * RL, rows - 1) * ldx;
  for (ulong base = k0 + 4 * kl; base < k1 + 4 * kl; base += STEP * UNROLL) {
    const int whole = base - 4 * kl + STEP * UNROLL <= k1; /* the same for the workgroup */
    float4 xq[UNROLL][4];
#pragma unroll
    for (uint u = 0; u < UNROLL; u++)
#pragma unroll
      for (uint i = 0; i < 4; i++) {
        const ulong p = base + u * STEP;
        xq[u][i] = whole || p < k1
                       ? load_x4(x + row_at[i] + p, whole || p + 4 <= k1, (long)k1 - (long)p)
                       : (float4)(0.0f);
      }
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong p = base + u * STEP;
      float xs[4][4];
#pragma unroll
      for (uint i = 0; i < 4; i++)
        xs[i][0] = xq[u][i].s0, xs[i][1] = xq[u][i].s1, xs[i][2] = xq[u][i].s2,
        xs[i][3] = xq[u][i].s3;
#pragma unroll
      for (uint q = 0; q < 4; q++) {
        load_v_row(v, p + q, v_ps, v_ss, whole || p + q < k1, vrow);
#pragma unroll
        for (uint i = 0; i < 4; i++)
#pragma unroll
          for (uint s = 0; s < N_SMALL; s++)
            acc[i * N_SMALL + s] = mac(acc[i * N_SMALL + s], xs[i][q], vrow[s]);
      }
    }
  }
#else
  /* Rows 4 rl .. 4 rl + 3 of the block, one vector per k when all four are inside. */
  const ulong r = r0 + 4 * rl;
  const int rows_whole = r + 4 <= rows;
  const long rows_avail = (long)rows - (long)r;
  for (ulong base = k0 + kl; base < k1 + kl; base += STEP * UNROLL) {
    const int whole = base - kl + STEP * UNROLL <= k1;
    float4 xq[UNROLL];
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong p = base + u * STEP;
      xq[u] = whole || p < k1 ? load_x4(x + p * ldx + r, rows_whole, rows_avail) : (float4)(0.0f);
    }
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong p = base + u * STEP;
      load_v_row(v, p, v_ps, v_ss, whole || p < k1, vrow);
      const float xs[4] = {xq[u].s0, xq[u].s1, xq[u].s2, xq[u].s3};
#pragma unroll
      for (uint i = 0; i < 4; i++)
#pragma unroll
        for (uint s = 0; s < N_SMALL; s++)
          acc[i * N_SMALL + s] = mac(acc[i * N_SMALL + s], xs[i], vrow[s]);
    }
  }
#endif
}

#if WIDE
/* The wide path: this work-item's loads of the X and V chunk starting at p0 into registers
   (0 past the rows or k1). */
void wide_load(__global const X_T *x, const ulong ldx, __global const V_T *v, const ulong v_ps,
               const ulong v_ss, const ulong rows, const ulong r0, const ulong p0, const ulong k1,
               const uint tid, float4 *xr, float *vr) {
#pragma unroll
  for (uint s = 0; s < X_SLOTS; s++) {
    const uint e = tid + s * WG;
    if (X_GROUPS % WG == 0 || e < X_GROUPS) {
#if X_KCONT
      const ulong row = r0 + e / (KC / 4), p = p0 + e % (KC / 4) * 4;
      xr[s] = row < rows && p < k1 ? load_x4(x + row * ldx + p, p + 4 <= k1, (long)k1 - (long)p)
                                   : (float4)(0.0f);
#else
      const ulong row = r0 + e % (RB / 4) * 4, p = p0 + e / (RB / 4);
      xr[s] = p < k1 && row < rows
                  ? load_x4(x + p * ldx + row, row + 4 <= rows, (long)rows - (long)row)
                  : (float4)(0.0f);
#endif
    }
  }
#pragma unroll
  for (uint s = 0; s < V_SLOTS; s++) {
    const uint e = tid + s * WG;
    if ((KC * N_SMALL) % WG == 0 || e < KC * N_SMALL) {
      const ulong p = p0 + e / N_SMALL;
      vr[s] = p < k1 ? ROUND_V(OCF_LOAD(V_DTYPE, v, p * v_ps + e % N_SMALL * v_ss)) : 0.0f;
    }
  }
}

/* The registers of wide_load into one staging buffer. */
void wide_store(__local float *buf, const uint tid, const float4 *xr, const float *vr) {
#pragma unroll
  for (uint s = 0; s < X_SLOTS; s++) {
    const uint e = tid + s * WG;
    if (X_GROUPS % WG == 0 || e < X_GROUPS) {
#if X_KCONT
      const uint r = e / (KC / 4), q = e % (KC / 4) * 4;
      buf[XL_AT(r, q)] = xr[s].s0;
      buf[XL_AT(r, q + 1)] = xr[s].s1;
      buf[XL_AT(r, q + 2)] = xr[s].s2;
      buf[XL_AT(r, q + 3)] = xr[s].s3;
#else
      *(__local float4 *)(buf + XL_AT(e % (RB / 4) * 4, e / (RB / 4))) = xr[s];
#endif
    }
  }
#pragma unroll
  for (uint s = 0; s < V_SLOTS; s++) {
    const uint e = tid + s * WG;
    if ((KC * N_SMALL) % WG == 0 || e < KC * N_SMALL)
      buf[XL_SIZE + e / N_SMALL * VL_LD + e % N_SMALL] = vr[s];
  }
}

/* acc += this work-item's rows x its k of one staged chunk times V. */
void wide_multiply(__local const float *buf, const uint rl, const uint kl, float *acc) {
#pragma unroll
  for (uint j = 0; j < KC / KL; j++) {
    const uint q = j * KL + kl;
    __local const float *vrow = buf + XL_SIZE + q * VL_LD;
    float vv[N_SMALL];
#pragma unroll
    for (uint s = 0; s + 4 <= N_SMALL; s += 4) {
      const float4 f = *(__local const float4 *)(vrow + s);
      vv[s] = f.s0, vv[s + 1] = f.s1, vv[s + 2] = f.s2, vv[s + 3] = f.s3;
    }
#pragma unroll
    for (uint s = N_SMALL / 4 * 4; s < N_SMALL; s++)
      vv[s] = vrow[s];
#pragma unroll
    for (uint i = 0; i < 4; i++) {
      const float xv = buf[XL_AT(rl + i * RL, q)];
#pragma unroll
      for (uint s = 0; s < N_SMALL; s++)
        acc[i * N_SMALL + s] = mac(acc[i * N_SMALL + s], xv, vv[s]);
    }
  }
}

/* The wide path's K loop over [k0, k1) (the same for the whole workgroup). */
void accumulate_wide(__global const X_T *x, const ulong ldx, __global const V_T *v,
                     const ulong v_ps, const ulong v_ss, const ulong rows, const ulong r0,
                     const uint tid, const uint rl, const uint kl, const ulong k0, const ulong k1,
                     __local float *stage, float *acc) {
#pragma unroll
  for (uint i = 0; i < 4 * N_SMALL; i++)
    acc[i] = 0.0f;
  float4 xr[X_SLOTS];
  float vr[V_SLOTS];
  const ulong chunks = k1 > k0 ? (k1 - k0 + KC - 1) / KC : 0;
  if (chunks > 0) {
    wide_load(x, ldx, v, v_ps, v_ss, rows, r0, k0, k1, tid, xr, vr);
    wide_store(stage, tid, xr, vr);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong c = 0; c < chunks; c++) {
    const uint cur = (uint)(c & 1);
    const int more = c + 1 < chunks;
    if (more) /* the next chunk's loads, in flight during the multiply */
      wide_load(x, ldx, v, v_ps, v_ss, rows, r0, k0 + (c + 1) * KC, k1, tid, xr, vr);
    wide_multiply(stage + cur * STAGE_SIZE, rl, kl, acc);
    if (more) wide_store(stage + (1 - cur) * STAGE_SIZE, tid, xr, vr);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

/* The row, within the workgroup's block, of this work-item's accumulator row i. */
uint block_row(const uint i, const uint rl) {
#if WIDE || X_KCONT
  return rl + i * RL;
#else
  return 4 * rl + i;
#endif
}

/* This workgroup's row block (*block, its rows from RB * block), K range (*split) and product
   (returned) on the grid of the header. */
ulong place_block(const ulong rows, const ulong splits, ulong *block, ulong *split) {
  return ocf_divmod(ocf_divmod(get_group_id(0), ROW_BLOCKS(rows), block), splits, split);
}

/* The shared body: accumulate, add the k lanes' sums, then either the epilogue and the store of
   Y (split == 0 means direct) or the raw sums to `partial`. */
#define SKINNY_PARAMS                                                                              \
  const ulong rows, const ulong k, const ulong k_split, const ulong splits, __global const X_T *x, \
      const ulong x_off, const ulong ldx, const ulong stride_x, __global const V_T *v,             \
      const ulong v_off, const ulong v_ps, const ulong v_ss, const ulong stride_v
void skinny(SKINNY_PARAMS, const int to_partial, SKINNY_OUTPUT_PARAMS, __global float *partial,
            __local float *sums) {
  const uint tid = get_local_id(0);
#if X_KCONT && !WIDE
  const uint kl = tid % KL, rl = tid / KL;
#else
  const uint rl = tid % RL, kl = tid / RL;
#endif
  ulong block, split;
  const ulong bi = place_block(rows, splits, &block, &split), r0 = block * RB;
  const ulong k0 = split * k_split, k1 = min(k, k0 + k_split);

  float acc[4 * N_SMALL];
#if WIDE
  accumulate_wide(x + x_off + bi * stride_x, ldx, v + v_off + bi * stride_v, v_ps, v_ss, rows, r0,
                  tid, rl, kl, k0, k1, sums, acc);
#else
  accumulate(x + x_off + bi * stride_x, ldx, v + v_off + bi * stride_v, v_ps, v_ss, rows, r0, rl,
             kl, k0, k1, acc);
#endif

  /* Four columns of Y at a time: each work-item's 4 x 4 sums into local memory, laid out
     [kl][block row][column], then each (row, column) of the block summed over the k lanes. */
#pragma unroll
  for (uint s0 = 0; s0 < N_SMALL; s0 += 4) {
#pragma unroll
    for (uint i = 0; i < 4; i++)
#pragma unroll
      for (uint q = 0; q < 4; q++)
        if (s0 + q < N_SMALL)
          sums[(kl * RB + block_row(i, rl)) * 4 + q] = acc[i * N_SMALL + s0 + q];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint o = tid; o < RB * 4; o += WG) {
      const uint q = o % 4;
      const ulong r = r0 + o / 4, s = s0 + q;
      if (s < N_SMALL && r < rows) {
        float sum = 0.0f;
        for (uint l = 0; l < KL; l++)
          sum += sums[l * RB * 4 + o];
        if (to_partial) {
          partial[((bi * splits + split) * rows + r) * N_SMALL + s] = sum;
        } else {
          __global C_T *out = c + c_off + bi * stride_c + r * c_rs + s * c_ss;
          OCF_STORE(C_DTYPE, out, 0, finish(sum, alpha, beta, out, bias, bias_off, r, s));
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#if !SPLIT

#ifdef OCF_KERNEL_matmul_skinny
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void matmul_skinny(SKINNY_PARAMS,
                                                                            SKINNY_OUTPUT_PARAMS) {
  __local float4 sums[LOCAL_FLOATS / 4]; /* the wide path's staging, then the k lanes' sums */
  skinny(rows, k, k_split, splits, x, x_off, ldx, stride_x, v, v_off, v_ps, v_ss, stride_v, 0,
         SKINNY_OUTPUT_ARGS, 0, (__local float *)sums);
}
#endif

#else /* SPLIT */

#ifdef OCF_KERNEL_matmul_skinny_split
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
matmul_skinny_split(SKINNY_PARAMS, __global float *restrict partial) {
  __local float4 sums[LOCAL_FLOATS / 4]; /* the wide path's staging, then the k lanes' sums */
  skinny(rows, k, k_split, splits, x, x_off, ldx, stride_x, v, v_off, v_ps, v_ss, stride_v, 1, 0.0f,
         0.0f, 0, 0, 0, 0, 0, 0, 0, partial, (__local float *)sums);
}
#endif

/* One work-item per element (batch_index, r, s) of Y, s fastest. */
#ifdef OCF_KERNEL_matmul_skinny_reduce
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
matmul_skinny_reduce(const ulong rows, const ulong batch, const ulong splits,
                     __global const float *restrict partial, SKINNY_OUTPUT_PARAMS) {
  skinny_reduce(rows, batch, splits, partial, SKINNY_OUTPUT_ARGS);
}
#endif

#ifdef OCF_KERNEL_matmul_skinny_join
#if !JOIN
#error "matmul_skinny_join: JOIN 1 or 2 (a row block's last range to arrive joins the block)"
#endif
/* matmul_skinny_split, then (outside any branch: every work-item reaches arrive_last's
   barriers) the row block's last range to arrive reduces the block's elements of Y, each with
   every range's sums, its own read back. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
matmul_skinny_join(SKINNY_PARAMS, SKINNY_OUTPUT_PARAMS, __global float *restrict partial,
                   __global uint *restrict arrivals) {
  __local float4 sums[LOCAL_FLOATS / 4]; /* the wide path's staging, then the k lanes' sums */
  __local int last;
  skinny(rows, k, k_split, splits, x, x_off, ldx, stride_x, v, v_off, v_ps, v_ss, stride_v, 1, 0.0f,
         0.0f, 0, 0, 0, 0, 0, 0, 0, partial, (__local float *)sums);
  ulong block, split;
  const ulong bi = place_block(rows, splits, &block, &split);
  if (arrive_last(arrivals, bi * ROW_BLOCKS(rows) + block, splits, &last))
    for (uint o = get_local_id(0); o < RB * N_SMALL; o += WG) {
      ulong s; /* (ocf_divmod: no division and remainder of the same operands, for Oclgrind) */
      const ulong r = block * RB + ocf_divmod(o, N_SMALL, &s);
      if (r < rows) reduce_element(bi, r, s, rows, splits, partial, SKINNY_OUTPUT_ARGS);
    }
}
#endif

#endif /* SPLIT */
