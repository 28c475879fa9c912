/*
 * matmul.cl: SGEMM, C = alpha * op(A) * op(B) + beta * C, row-major fp32.
 *
 * C is m x n; op(A) is m x k, op(B) is k x n. A is stored m x k (TRANS_A = 0) or k x m
 * (TRANS_A = 1), B is stored k x n (TRANS_B = 0) or n x k (TRANS_B = 1). Element (r, c) of a
 * stored matrix X is X[x_off + r * ldx + c]; every such index is computed in 64 bits (ulong).
 *
 * One workgroup computes one MWG x NWG tile of C. It walks K in steps of KWG, staging an
 * MWG x KWG slice of op(A) and a KWG x NWG slice of op(B) in local memory, both stored K-major
 * (one row per k, padded by PADA / PADB floats against bank conflicts):
 *
 *                      NWG                       local A tile (K-major)    local B tile
 *               +---------------+                  k  +--MWG--+pad         k  +--NWG--+pad
 *     KWG slice |   op(B) tile  |                  |  |       |            |  |       |
 *               +---------------+                  v  +-------+            v  +-------+
 *    +---+      +---------------+
 *    |op |      |  C tile       |  work-item (tm, tn) owns MWI x NWI outputs, in groups of
 *  MWG(A)|      |  MWG x NWG    |  VWM rows / VWN columns, the groups MDIMC * VWM rows and
 *    |   |      |               |  NDIMC * VWN columns apart:
 *    +---+      +---------------+    row = g * MDIMC * VWM + tm * VWM + v,  v < VWM
 *     KWG                            col = h * NDIMC * VWN + tn * VWN + w,  w < VWN
 *
 * so neighbouring work-items read neighbouring vectors of local memory (no bank conflicts) and
 * write neighbouring columns of C (coalesced). The local tiles are double-buffered: while the
 * work-items multiply one slice, the next slice's global loads are already in flight in
 * registers, and one barrier per slice separates the two buffers.
 *
 * Global loads come in groups of four floats consecutive along the dimension that is contiguous
 * in memory (k for A when TRANS_A = 0, m when TRANS_A = 1; n for B when TRANS_B = 0, k when 1).
 *
 * Kernels, the host picks one:
 *   matmul_tiled_fast  the fast path. Assumes m % MWG == 0, n % NWG == 0, k % KWG == 0, and
 *                      a_off, b_off, c_off, lda, ldb, ldc all multiples of 4, so every tile is
 *                      whole and every float4 access is aligned: no bound checks at all.
 *   matmul_tiled_mixed any m, n, k, but the offsets and strides aligned as for the fast path.
 *                      A workgroup whose tile lies wholly inside C runs the unguarded loads and
 *                      vector stores, guarding only the last K slice when k % KWG != 0; a tile
 *                      on the bottom or right edge of C runs the guarded path. The choice is per
 *                      workgroup (uniform), so the edge tiles run in the same waves as the
 *                      interior ones instead of in a separate, mostly idle launch:
 *
 *                          +------+------+------+--+
 *                          | whole| whole| whole|e |   e: edge tiles (guarded loads and
 *                          +------+------+------+--+      stores); the last K slice of a
 *                          | whole| whole| whole|e |      whole tile is guarded too
 *                          +------+------+------+--+
 *                          |  e   |  e   |  e   |e |
 *                          +------+------+------+--+
 *
 *   matmul_tiled       the general kernel: the same tiles with guarded loads (elements outside
 *                      the matrices read as 0, so the K remainder adds nothing) and guarded
 *                      stores; right for any m, n, k, offset and stride.
 *   matmul_naive       the baseline: one output per work-item, a plain loop over k.
 * All four: beta == 0 never reads C (NaNs in C do not propagate); k == 0 gives beta * C (the
 * host passes k = 0 when alpha == 0 too, so A and B are then not read, as BLAS specifies).
 * Every work-item reaches every barrier: guards wrap loads and stores, never a barrier.
 */

/* Work-items along M (local dimension 1); any power of two. */
#ifndef MDIMC
#define MDIMC 16
#endif
/* Work-items along N (local dimension 0); any power of two. */
#ifndef NDIMC
#define NDIMC 16
#endif
/* Rows of C per work-item (register blocking); a multiple of VWM. */
#ifndef MWI
#define MWI 8
#endif
/* Columns of C per work-item (register blocking); a multiple of VWN. */
#ifndef NWI
#define NWI 8
#endif
/* Depth of one K slice staged in local memory; a multiple of 4. */
#ifndef KWG
#define KWG 16
#endif
/* Width of the local-memory reads of the A tile: 1, 2 or 4. */
#ifndef VWM
#define VWM 4
#endif
/* Width of the local-memory reads of the B tile and of the stores of C (fast kernel): 1, 2, 4. */
#ifndef VWN
#define VWN 4
#endif
/* Floats of padding after each k-row of the local A tile; a multiple of 4. */
#ifndef PADA
#define PADA 4
#endif
/* Floats of padding after each k-row of the local B tile; a multiple of 4. */
#ifndef PADB
#define PADB 4
#endif
/* 1: A is stored k x m (op(A) = A^T). */
#ifndef TRANS_A
#define TRANS_A 0
#endif
/* 1: B is stored n x k (op(B) = B^T). */
#ifndef TRANS_B
#define TRANS_B 0
#endif

/* ---- derived ---- */
#define MWG (MDIMC * MWI)        /* rows of the C tile */
#define NWG (NDIMC * NWI)        /* columns of the C tile */
#define WGS (MDIMC * NDIMC)      /* work-items per workgroup */
#define ALD (MWG + PADA)         /* row stride of the local A tile */
#define BLD (NWG + PADB)         /* row stride of the local B tile */
#define A_TILE (KWG * ALD)       /* floats in one local A buffer */
#define B_TILE (KWG * BLD)       /* floats in one local B buffer */
#define A_GROUPS (MWG * KWG / 4) /* four-float load groups in one A slice */
#define B_GROUPS (NWG * KWG / 4)
#define A_SLOTS ((A_GROUPS + WGS - 1) / WGS) /* load groups per work-item */
#define B_SLOTS ((B_GROUPS + WGS - 1) / WGS)
#define MAX_SLOTS (A_SLOTS > B_SLOTS ? A_SLOTS : B_SLOTS) /* a constant loop bound for both */

/* Vector types of the A and B accesses (OCF_FLOATN: cl/common.cl). */
#define floatM OCF_FLOATN(VWM)
#define floatN OCF_FLOATN(VWN)

/* Copies the VWx components of vector v into dst[0 .. VWx). */
#if VWM == 1
#define SPLIT_M(v, dst) ((dst)[0] = (v))
#elif VWM == 2
#define SPLIT_M(v, dst) ((dst)[0] = (v).s0, (dst)[1] = (v).s1)
#else
#define SPLIT_M(v, dst) ((dst)[0] = (v).s0, (dst)[1] = (v).s1, (dst)[2] = (v).s2, (dst)[3] = (v).s3)
#endif
#if VWN == 1
#define SPLIT_N(v, dst) ((dst)[0] = (v))
#elif VWN == 2
#define SPLIT_N(v, dst) ((dst)[0] = (v).s0, (dst)[1] = (v).s1)
#else
#define SPLIT_N(v, dst) ((dst)[0] = (v).s0, (dst)[1] = (v).s1, (dst)[2] = (v).s2, (dst)[3] = (v).s3)
#endif

/* ---- global -> registers -> local: one K slice of A or B ---- */

/* Where load group e of an xwg x KWG slice lies: x along M (or N), kk along K. When K is the
   contiguous dimension (kcont), the group spans kk .. kk+3 of row x; otherwise x .. x+3 of k-row
   kk. Consecutive groups run along the contiguous dimension, so a warp reads whole segments. */
void slice_coords(const uint e, const int kcont, const uint xwg, uint *x, uint *kk) {
  if (kcont) {
    *x = e / (KWG / 4);
    *kk = (e % (KWG / 4)) * 4;
  } else {
    *x = (e % (xwg / 4)) * 4;
    *kk = e / (xwg / 4);
  }
}

/* Four consecutive floats from p: those with index < avail when `inside`, the rest 0. (Signed
   avail, no clamping: a clamped unsigned difference becomes an intrinsic Oclgrind lacks.) */
float4 load4_guarded(__global const float *p, const int inside, const int avail) {
  float4 v = (float4)(0.0f);
  if (inside) {
    if (avail > 0) v.s0 = p[0];
    if (avail > 1) v.s1 = p[1];
    if (avail > 2) v.s2 = p[2];
    if (avail > 3) v.s3 = p[3];
  }
  return v;
}

/* Loads this work-item's load groups of one xwg x KWG slice into regs. The slice's element
   (x, kk) is slice[x * ld + kk] when kcont, else slice[kk * ld + x]. guarded: elements with
   x >= xlim or kk >= klim read as 0 and are never touched; unguarded: all are inside and every
   group is a 16-byte aligned float4. */
void load_slice(__global const float *slice, const ulong ld, const int kcont, const uint xwg,
                const uint groups, const uint slots, const uint xlim, const uint klim,
                const int guarded, const uint tid, float4 *regs) {
#pragma unroll
  for (uint s = 0; s < MAX_SLOTS; s++) {
    const uint e = tid + s * WGS;
    if (s < slots && (groups % WGS == 0 || e < groups)) {
      uint x, kk;
      slice_coords(e, kcont, xwg, &x, &kk);
      const ulong at = kcont ? (ulong)x * ld + kk : (ulong)kk * ld + x;
      if (!guarded) {
        regs[s] = *(__global const float4 *)(slice + at);
      } else if (kcont) {
        regs[s] = load4_guarded(slice + at, x < xlim, (int)klim - (int)kk);
      } else {
        regs[s] = load4_guarded(slice + at, kk < klim, (int)xlim - (int)x);
      }
    }
  }
}

/* Stores the groups loaded by load_slice into a K-major local tile of row stride ld_local. */
void store_slice(__local float *tile, const uint ld_local, const int kcont, const uint xwg,
                 const uint groups, const uint slots, const uint tid, const float4 *regs) {
#pragma unroll
  for (uint s = 0; s < MAX_SLOTS; s++) {
    const uint e = tid + s * WGS;
    if (s < slots && (groups % WGS == 0 || e < groups)) {
      uint x, kk;
      slice_coords(e, kcont, xwg, &x, &kk);
      if (kcont) {
        tile[(kk + 0) * ld_local + x] = regs[s].s0;
        tile[(kk + 1) * ld_local + x] = regs[s].s1;
        tile[(kk + 2) * ld_local + x] = regs[s].s2;
        tile[(kk + 3) * ld_local + x] = regs[s].s3;
      } else {
        *(__local float4 *)(tile + kk * ld_local + x) = regs[s];
      }
    }
  }
}

/* ---- the register-blocked multiply: acc += A tile * B tile (one K slice) ---- */

void multiply_slice(__local const float *al, __local const float *bl, const uint tm, const uint tn,
                    float *acc) {
#pragma unroll
  for (uint kk = 0; kk < KWG; kk++) {
    float a[MWI], b[NWI];
#pragma unroll
    for (uint g = 0; g < MWI / VWM; g++) {
      const floatM v = *(__local const floatM *)(al + kk * ALD + (g * MDIMC + tm) * VWM);
      SPLIT_M(v, a + g * VWM);
    }
#pragma unroll
    for (uint h = 0; h < NWI / VWN; h++) {
      const floatN v = *(__local const floatN *)(bl + kk * BLD + (h * NDIMC + tn) * VWN);
      SPLIT_N(v, b + h * VWN);
    }
#pragma unroll
    for (uint i = 0; i < MWI; i++)
#pragma unroll
      for (uint j = 0; j < NWI; j++)
        acc[i * NWI + j] = a[i] * b[j] + acc[i * NWI + j];
  }
}

/* ---- stores of the C tile ---- */

/* Row and column, within the C tile, of this work-item's accumulator (i, j). */
uint tile_row(const uint i, const uint tm) {
  return ((i / VWM) * MDIMC + tm) * VWM + i % VWM;
}
uint tile_col(const uint j, const uint tn) {
  return ((j / VWN) * NDIMC + tn) * VWN + j % VWN;
}

/* Guarded: only rows < mlim and columns < nlim are written; C is read only when beta != 0. */
void store_c_guarded(__global float *c, const ulong ldc, const uint mlim, const uint nlim,
                     const uint tm, const uint tn, const float alpha, const float beta,
                     const float *acc) {
#pragma unroll
  for (uint i = 0; i < MWI; i++) {
    const uint r = tile_row(i, tm);
    if (r < mlim) {
      __global float *row = c + (ulong)r * ldc;
#pragma unroll
      for (uint j = 0; j < NWI; j++) {
        const uint col = tile_col(j, tn);
        if (col < nlim) {
          const float value = alpha * acc[i * NWI + j];
          row[col] = beta != 0.0f ? beta * row[col] + value : value;
        }
      }
    }
  }
}

/* Whole tile, aligned: VWN-wide vector stores (and reads of C when beta != 0). */
void store_c_whole(__global float *c, const ulong ldc, const uint tm, const uint tn,
                   const float alpha, const float beta, const float *acc) {
#pragma unroll
  for (uint i = 0; i < MWI; i++) {
    __global float *row = c + (ulong)tile_row(i, tm) * ldc;
#pragma unroll
    for (uint h = 0; h < NWI / VWN; h++) {
      __global floatN *out = (__global floatN *)(row + tile_col(h * VWN, tn));
      floatN value;
#if VWN == 1
      value = acc[i * NWI + h];
#else
      value = OCF_CAT(vload, VWN)(0, acc + i * NWI + h * VWN);
#endif
      value *= alpha;
      *out = beta != 0.0f ? beta * *out + value : value;
    }
  }
}

/* ---- the tiled kernel body, shared by the three tiled entries ---- */

/* guarded: this tile may cross the bottom or right edge of C (guarded loads and stores).
   k_tail: k may not be a multiple of KWG, so a whole tile's last, partial K slice is loaded
   guarded (its other slices are not). Both are constants in the fast and general entries, so
   their unused paths compile away; the mixed entry passes a per-workgroup `guarded`. */
void gemm_tiled(const ulong m, const ulong n, const ulong k, const float alpha,
                __global const float *a, const ulong a_off, const ulong lda,
                __global const float *b, const ulong b_off, const ulong ldb, const float beta,
                __global float *c, const ulong c_off, const ulong ldc, const int guarded,
                const int k_tail, __local float *al, __local float *bl) {
  const uint tn = get_local_id(0), tm = get_local_id(1);
  const uint tid = tm * NDIMC + tn;
  const ulong m0 = (ulong)get_group_id(1) * MWG, n0 = (ulong)get_group_id(0) * NWG;
  const uint mlim = (uint)min((ulong)MWG, m - m0), nlim = (uint)min((ulong)NWG, n - n0);

  /* Each slice pointer points at element (x0, k0) of its slice; the steps move it KWG on. */
#if TRANS_A
  __global const float *a_slice = a + a_off + m0;
  const ulong a_step = KWG * lda;
#else
  __global const float *a_slice = a + a_off + m0 * lda;
  const ulong a_step = KWG;
#endif
#if TRANS_B
  __global const float *b_slice = b + b_off + n0 * ldb;
  const ulong b_step = KWG;
#else
  __global const float *b_slice = b + b_off + n0;
  const ulong b_step = KWG * ldb;
#endif
  const int a_kcont = !TRANS_A, b_kcont = TRANS_B;

  float acc[MWI * NWI];
#pragma unroll
  for (uint i = 0; i < MWI * NWI; i++)
    acc[i] = 0.0f;
  float4 ra[A_SLOTS], rb[B_SLOTS];

  const ulong slices = (k + KWG - 1) / KWG;
  if (slices > 0) {
    const uint klim = (uint)min((ulong)KWG, k);
    const int guard = guarded || (k_tail && klim < KWG);
    load_slice(a_slice, lda, a_kcont, MWG, A_GROUPS, A_SLOTS, mlim, klim, guard, tid, ra);
    load_slice(b_slice, ldb, b_kcont, NWG, B_GROUPS, B_SLOTS, nlim, klim, guard, tid, rb);
    store_slice(al, ALD, a_kcont, MWG, A_GROUPS, A_SLOTS, tid, ra);
    store_slice(bl, BLD, b_kcont, NWG, B_GROUPS, B_SLOTS, tid, rb);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong t = 0; t < slices; t++) {
    const uint cur = (uint)(t & 1);
    const int more = t + 1 < slices;
    if (more) { /* the next slice's loads, in flight during the multiply */
      a_slice += a_step;
      b_slice += b_step;
      const uint klim = (uint)min((ulong)KWG, k - (t + 1) * KWG);
      const int guard = guarded || (k_tail && klim < KWG);
      load_slice(a_slice, lda, a_kcont, MWG, A_GROUPS, A_SLOTS, mlim, klim, guard, tid, ra);
      load_slice(b_slice, ldb, b_kcont, NWG, B_GROUPS, B_SLOTS, nlim, klim, guard, tid, rb);
    }
    multiply_slice(al + cur * A_TILE, bl + cur * B_TILE, tm, tn, acc);
    if (more) {
      store_slice(al + (1 - cur) * A_TILE, ALD, a_kcont, MWG, A_GROUPS, A_SLOTS, tid, ra);
      store_slice(bl + (1 - cur) * B_TILE, BLD, b_kcont, NWG, B_GROUPS, B_SLOTS, tid, rb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  __global float *c_tile = c + c_off + m0 * ldc + n0;
  if (guarded)
    store_c_guarded(c_tile, ldc, mlim, nlim, tm, tn, alpha, beta, acc);
  else
    store_c_whole(c_tile, ldc, tm, tn, alpha, beta, acc);
}

/* ---- entries ---- */

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_fast(const ulong m, const ulong n, const ulong k, const float alpha,
                  __global const float *a, const ulong a_off, const ulong lda,
                  __global const float *b, const ulong b_off, const ulong ldb, const float beta,
                  __global float *c, const ulong c_off, const ulong ldc) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4]; /* float4: 16-byte aligned */
  gemm_tiled(m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, c, c_off, ldc, 0, 0,
             (__local float *)al, (__local float *)bl);
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_mixed(const ulong m, const ulong n, const ulong k, const float alpha,
                   __global const float *a, const ulong a_off, const ulong lda,
                   __global const float *b, const ulong b_off, const ulong ldb, const float beta,
                   __global float *c, const ulong c_off, const ulong ldc) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
  /* The same for every work-item of the workgroup: a uniform choice of loads and stores, and
     every work-item still reaches every barrier of the one shared body. */
  const int edge = ((ulong)get_group_id(1) + 1) * MWG > m || ((ulong)get_group_id(0) + 1) * NWG > n;
  gemm_tiled(m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, c, c_off, ldc, edge, 1,
             (__local float *)al, (__local float *)bl);
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled(const ulong m, const ulong n, const ulong k, const float alpha,
             __global const float *a, const ulong a_off, const ulong lda, __global const float *b,
             const ulong b_off, const ulong ldb, const float beta, __global float *c,
             const ulong c_off, const ulong ldc) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
  gemm_tiled(m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, c, c_off, ldc, 1, 1,
             (__local float *)al, (__local float *)bl);
}

/* The baseline: work-item (j, i) computes C[i][j] alone, straight from global memory. */
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_naive(const ulong m, const ulong n, const ulong k, const float alpha,
             __global const float *a, const ulong a_off, const ulong lda, __global const float *b,
             const ulong b_off, const ulong ldb, const float beta, __global float *c,
             const ulong c_off, const ulong ldc) {
  const ulong j = get_global_id(0), i = get_global_id(1);
  if (i >= m || j >= n) return;
  float sum = 0.0f;
  for (ulong p = 0; p < k; p++) {
#if TRANS_A
    const float av = a[a_off + p * lda + i];
#else
    const float av = a[a_off + i * lda + p];
#endif
#if TRANS_B
    const float bv = b[b_off + j * ldb + p];
#else
    const float bv = b[b_off + p * ldb + j];
#endif
    sum = av * bv + sum;
  }
  __global float *out = c + c_off + i * ldc + j;
  const float value = alpha * sum;
  *out = beta != 0.0f ? beta * *out + value : value;
}
