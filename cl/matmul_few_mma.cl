/*
 * matmul_few_mma.cl: 16-bit GEMM (fp16 or bf16 in, fp32 sums) whose C has few rows or few
 * columns (1 to 64), on the matrix units: mma.sync m16n8k16 through cl/attention_mma_prims.clh
 * (inline PTX on NVIDIA, MMA_EMULATE 0; an exact emulation everywhere else, MMA_EMULATE 1).
 * A SIMT kernel at 16 rows needs 32 fp32 flops per loaded element, more than its FMA peak allows
 * at memory speed; the matrix units do them, so the large operand streams at bandwidth.
 *
 * The problem as cl/matmul_skinny.cl sees it (the host passes the same layout, ocf_skinny_layout):
 *     Y = act(alpha * X V + beta * Y + bias)
 *   X  rows x k, the large operand: (r, p) at x[x_off + r * ldx + p] (X_KCONT 1, k contiguous:
 *      B stored n x k for m <= 64, the inference layout) or x[x_off + p * ldx + r] (X_KCONT 0);
 *   V  k x N_SMALL, the small one: (p, s) at v[v_off + p * v_ps + s * v_ss];
 *   Y  rows x N_SMALL: (r, s) at c[c_off + r * c_rs + s * c_ss].
 * Product i of a batch adds i * stride_x, i * stride_v, i * stride_c to the offsets.
 *
 * One mma computes D (16 x 8) += V^T (16 s x 16 k) X^T (16 k x 8 r): V^T's 16-row groups are the
 * A operand (MT = ceil(N_SMALL / 16) of them), 8 rows of X at a time the B operand. The sum over
 * k does not care in which order k comes, so each lane loads 8 consecutive k (16 bytes) of one
 * row of each operand and the two mma of a 32-k step take them permuted: lane (g = lane / 4,
 * t = lane % 4) holds k = 8t .. 8t + 7 of the step as words w0..w3 (2 elements each); mma j
 * (0, 1) takes w[2j] where the PTX ISA's fragment has k 2t, 2t + 1 and w[2j + 1] where it has
 * 2t + 8, 2t + 9, in A (rows g, g + 8 of the group) and B (X row g of the tile) alike:
 *
 *        step of 32 k:  | t=0: k 0..7 | t=1: 8..15 | t=2: 16..23 | t=3: 24..31 |
 *        lane's words:    w0 w1 w2 w3   (mma 0: w0, w1; mma 1: w2, w3)
 *
 * So no operand passes through local memory: X's rows stream from global memory in 16-byte loads
 * (a warp reads 8 rows x 64 contiguous bytes a load), V's from the caches.
 *
 * A workgroup of WARPS warps: RW = WARPS / KW row warps times KW k warps. Row warp rw owns NT
 * tiles of 8 rows (RB = 8 NT RW rows a workgroup); k warp kw the steps kw, kw + KW, ... of the
 * workgroup's K range, UNROLL steps of loads in flight. The k warps' sums meet in local memory,
 * one 16-row group of V at a time, then
 *   matmul_few_mma         applies the epilogue and stores Y;
 *   matmul_few_mma_split   (its K range one of `splits` of k_split elements, a multiple of
 *                          32 KW UNROLL) writes the raw sums to
 *                          partial[((batch_index * splits + split) * rows + r) * N_SMALL + s],
 *   matmul_few_mma_reduce  adds each element's splits in order, then the epilogue and the store.
 * The grid is one-dimensional: group = (batch_index * splits + split) * row_blocks + row_block.
 * Loads are 16-byte words where X_VEC (V_VEC) says the operand is k-contiguous with offset,
 * leading dimension and stride multiples of 8 elements and the workgroup's unrolled step
 * (32 KW UNROLL k) lies inside its K range; else element by element, 0 past K and past V's
 * N_SMALL columns (so that past K no product of leftovers, an infinity times 0 say, reaches a
 * sum), X's rows past the end read as the last one and never stored. Every work-item calls every
 * primitive in the same order (the emulation's barriers), and reaches every barrier.
 */

/* Columns of Y (C's short side), 1 to 64. */
#ifndef N_SMALL
#error "N_SMALL: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* Warps of a workgroup, KW of them along K. */
#ifndef WARPS
#error "WARPS: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
#ifndef KW
#error "KW: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* Tiles of 8 rows of X a warp. */
#ifndef NT
#error "NT: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* Steps of 32 k of loads in flight per warp. */
#ifndef UNROLL
#error "UNROLL: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* 1: X is k-contiguous; 1: V is k-contiguous (v_ps 1). */
#ifndef X_KCONT
#error "X_KCONT: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
#ifndef V_KCONT
#error "V_KCONT: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* 1: 16-byte loads of X (V): k-contiguous, offset, leading dimension, stride multiples of 8. */
#ifndef X_VEC
#error "X_VEC: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
#ifndef V_VEC
#error "V_VEC: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* C and bias storage types (ocf_dtype: 0 fp32, 1 fp16, 2 bf16); X and V are MMA_DTYPE. */
#ifndef C_DTYPE
#error "C_DTYPE: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
#ifndef BIAS_DTYPE
#error "BIAS_DTYPE: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* ocf_activation. */
#ifndef ACTIVATION
#error "ACTIVATION: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* 0 no bias, 1 a bias per column s of Y, 2 a bias per row r of Y. */
#ifndef BIAS
#error "BIAS: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
/* 1: the program holds the split pair, 0: matmul_few_mma. */
#ifndef SPLIT
#error "SPLIT: the host passes every define (src/plan/plan_matmul_few.c)"
#endif
#if N_SMALL < 1 || N_SMALL > 64 || WARPS % KW != 0
#error "N_SMALL is 1 to 64, KW divides WARPS"
#endif

/* ---- derived ---- */
#define WG (32 * WARPS)
#define RW (WARPS / KW)                  /* row warps */
#define MT ((N_SMALL + 15) / 16)         /* 16-row groups of V^T */
#define RB (8 * NT * RW)                 /* rows of X a workgroup */
#define KSTEP 32                         /* k of one warp's step */
#define RED_FLOATS (WARPS * 32 * NT * 4) /* the k warps' sums of one group */
#define C_T OCF_STORAGE(C_DTYPE)
#define BIAS_T OCF_STORAGE(BIAS_DTYPE)
#if MMA_EMULATE
#define EMU_WORDS (WARPS * MMA_EMU_WORDS)
/* The loops around the primitives: rolled in the emulation (each of its primitives passes two
   barriers, and PoCL compiles every region between barriers of an unrolled body apart: minutes
   for a 64-row program), unrolled on NVIDIA (fragments in registers). */
#define MMA_LOOP _Pragma("nounroll")
#else
#define EMU_WORDS 1
#define MMA_LOOP _Pragma("unroll")
#endif

/* 8 elements of one row of an operand (k = p .. p + 7) as words (the lower k in the low half):
   one 16-byte load when `fast`, else element by element, each at base + (p + e) * ps, 0 where
   p + e >= k1 or the row is outside (`inside` 0). */
MMA_INLINE uint4 load8(__global const ushort *row, const ulong ps, const ulong p, const ulong k1,
                       const int inside, const int fast) {
  if (fast) return *(__global const uint4 *)(row + p);
  ushort e[8];
#pragma unroll
  for (uint i = 0; i < 8; i++)
    e[i] = inside && p + i < k1 ? row[(p + i) * ps] : (ushort)0;
  return (uint4)(e[0] | (uint)e[1] << 16, e[2] | (uint)e[3] << 16, e[4] | (uint)e[5] << 16,
                 e[6] | (uint)e[7] << 16);
}

/* This warp's sums over its steps of [k0, k1) into acc[(mt * NT + nt) * 4 + q] (the D fragment
   of V group mt and X tile nt). r_tile: the first row of the warp's first tile. */
MMA_INLINE void accumulate(__global const ushort *x, const ulong ldx, __global const ushort *v,
                           const ulong v_ps, const ulong v_ss, const ulong rows, const ulong r_tile,
                           const uint kw, const ulong k0, const ulong k1, const mma_lane w,
                           float *acc) {
  const uint g = w.lane >> 2, t = w.lane & 3;
#pragma unroll
  for (uint i = 0; i < MT * NT * 4; i++)
    acc[i] = 0.0f;
  /* X's rows of this lane (the last row past the end) and their element strides. */
  __global const ushort *xrow[NT];
#pragma unroll
  for (uint nt = 0; nt < NT; nt++) {
    const ulong r = min(r_tile + 8 * nt + g, rows - 1);
#if X_KCONT
    xrow[nt] = x + r * ldx;
#else
    xrow[nt] = x + r;
#endif
  }
#if X_KCONT
  const ulong x_ps = 1;
#else
  const ulong x_ps = ldx;
#endif
  /* V's columns (rows of V^T) of this lane: s = 16 mt + g + 8 h. */
  for (ulong base = k0; base < k1; base += KSTEP * KW * UNROLL) {
    const int whole = base + KSTEP * KW * UNROLL <= k1; /* the same for the workgroup */
    uint4 xw[UNROLL][NT], vw[UNROLL][MT][2];
#pragma unroll
    for (uint u = 0; u < UNROLL; u++) {
      const ulong p = base + (u * KW + kw) * KSTEP + 8 * t;
#pragma unroll
      for (uint nt = 0; nt < NT; nt++)
        xw[u][nt] = load8(xrow[nt], x_ps, p, k1, 1, X_VEC && whole);
#pragma unroll
      for (uint mt = 0; mt < MT; mt++)
#pragma unroll
        for (uint h = 0; h < 2; h++) {
          const uint s = 16 * mt + g + 8 * h;
          const int in = s < N_SMALL;
          vw[u][mt][h] = 16 * mt + 8 * h >= N_SMALL ? (uint4)(0)
                                                    : load8(v + (in ? s : 0) * v_ss, v_ps, p, k1,
                                                            in, V_VEC && whole && in);
        }
    }
    MMA_LOOP
    for (uint u = 0; u < UNROLL; u++) {
      MMA_LOOP
      for (uint j = 0; j < 2; j++) {
        MMA_LOOP
        for (uint mt = 0; mt < MT; mt++) {
          const uint4 lo = vw[u][mt][0], hi = vw[u][mt][1];
          const uint a[4] = {j ? lo.s2 : lo.s0, j ? hi.s2 : hi.s0, j ? lo.s3 : lo.s1,
                             j ? hi.s3 : hi.s1};
          MMA_LOOP
          for (uint nt = 0; nt < NT; nt++) {
            const uint b[2] = {j ? xw[u][nt].s2 : xw[u][nt].s0, j ? xw[u][nt].s3 : xw[u][nt].s1};
            mma_16816(acc + (mt * NT + nt) * 4, a, b, w);
          }
        }
      }
    }
  }
}

#define FEW_PARAMS                                                                        \
  const ulong rows, const ulong k, const ulong k_split, const ulong splits,               \
      __global const ushort *x, const ulong x_off, const ulong ldx, const ulong stride_x, \
      __global const ushort *v, const ulong v_off, const ulong v_ps, const ulong v_ss,    \
      const ulong stride_v

/* The shared body: the warps' sums, added over the k warps, then either the epilogue and the
   store of Y (to_partial 0) or the raw sums to `partial`. */
MMA_INLINE void few(FEW_PARAMS, const int to_partial, const float alpha, const float beta,
                    __global C_T *c, const ulong c_off, const ulong c_rs, const ulong c_ss,
                    const ulong stride_c, __global const BIAS_T *bias, const ulong bias_off,
                    __global float *partial, __local float *red, __local uint *emu) {
  const uint tid = get_local_id(0), warp = tid / 32;
  const uint rw = warp % RW, kw = warp / RW;
  mma_lane w;
  w.lane = tid % 32;
  w.emu = emu + (MMA_EMULATE ? warp * MMA_EMU_WORDS : 0);
  const ulong row_blocks = rows ? (rows + RB - 1) / RB : 1; /* 1 for the dry frame's 0 rows */
  ulong block, split;
  const ulong rest = ocf_divmod(get_group_id(0), row_blocks, &block);
  const ulong r0 = block * RB, bi = ocf_divmod(rest, splits, &split);
  const ulong k0 = split * k_split, k1 = min(k, k0 + k_split);

  float acc[MT * NT * 4];
  accumulate(x + x_off + bi * stride_x, ldx, v + v_off + bi * stride_v, v_ps, v_ss, rows,
             r0 + 8 * NT * rw, kw, k0, k1, w, acc);

  /* One group of V at a time: every warp's fragments into red, [kw][rw][lane][nt][q], then each
     output of the group summed over the k warps. Output o of the group: its block of 8 rows of
     Y by 16 columns, (rw, nt), then within the block the columns fastest where they are
     contiguous in memory (the partial sums; C with c_ss 1), else the rows (C with c_rs 1: C^T,
     m few), so that consecutive work-items store to consecutive addresses. */
  const int s_fast = to_partial || c_ss == 1;
  MMA_LOOP
  for (uint mt = 0; mt < MT; mt++) {
#pragma unroll
    for (uint i = 0; i < NT * 4; i++)
      red[((kw * RW + rw) * 32 + w.lane) * NT * 4 + i] = acc[mt * NT * 4 + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint o = tid; o < RW * 32 * NT * 4; o += WG) {
      const uint in = o % 128, nt = o / 128 % NT, orw = o / (128 * NT);
      const uint sl = s_fast ? in % 16 : in / 8, rl = s_fast ? in / 16 : in % 8;
      /* the fragment that holds it: s = 16 mt + g + 8 h, r = 8 nt + 2 t + e (lane 4 g + t,
         register 2 h + e) */
      const uint lane = 4 * (sl % 8) + rl / 2, q = 2 * (sl / 8) + rl % 2;
      const uint at = (orw * 32 + lane) * NT * 4 + nt * 4 + q;
      const ulong s = 16 * mt + sl, r = r0 + 8 * NT * orw + 8 * nt + rl;
      if (s < N_SMALL && r < rows) {
        float sum = 0.0f;
        for (uint l = 0; l < KW; l++)
          sum += red[l * RW * 32 * NT * 4 + at];
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

#ifdef OCF_KERNEL_matmul_few_mma
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
matmul_few_mma(FEW_PARAMS, const float alpha, const float beta, __global C_T *restrict c,
               const ulong c_off, const ulong c_rs, const ulong c_ss, const ulong stride_c,
               __global const BIAS_T *restrict bias, const ulong bias_off) {
  __local float red[RED_FLOATS];
  __local uint emu[EMU_WORDS];
  few(rows, k, k_split, splits, x, x_off, ldx, stride_x, v, v_off, v_ps, v_ss, stride_v, 0, alpha,
      beta, c, c_off, c_rs, c_ss, stride_c, bias, bias_off, 0, red, emu);
}
#endif

#else /* SPLIT */

#ifdef OCF_KERNEL_matmul_few_mma_split
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
matmul_few_mma_split(FEW_PARAMS, __global float *restrict partial) {
  __local float red[RED_FLOATS];
  __local uint emu[EMU_WORDS];
  few(rows, k, k_split, splits, x, x_off, ldx, stride_x, v, v_off, v_ps, v_ss, stride_v, 1, 0.0f,
      0.0f, 0, 0, 0, 0, 0, 0, 0, partial, red, emu);
}
#endif

/* One work-item per element (batch_index, r, s) of Y, s fastest. */
#ifdef OCF_KERNEL_matmul_few_mma_reduce
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
matmul_few_mma_reduce(const ulong rows, const ulong batch, const ulong splits,
                      __global const float *restrict partial, SKINNY_OUTPUT_PARAMS) {
  skinny_reduce(rows, batch, splits, partial, SKINNY_OUTPUT_ARGS);
}
#endif

#endif /* SPLIT */
