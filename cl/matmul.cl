/*
 * matmul.cl: GEMM on SIMT cores, C = act(alpha * op(A) * op(B) + beta * C + bias), row-major,
 * for a strided batch of products in one launch. A, B and C are stored as fp32, fp16 or bf16
 * (A_DTYPE, B_DTYPE, C_DTYPE: cl/common.cl's storage types); arithmetic is fp32.
 *
 * C is m x n; op(A) is m x k, op(B) is k x n. A is stored m x k (TRANS_A = 0) or k x m
 * (TRANS_A = 1), B is stored k x n (TRANS_B = 0) or n x k (TRANS_B = 1). Element (r, c) of a
 * stored matrix X of product i of the batch is X[x_off + i * stride_x + r * ldx + c]; every such
 * index is computed in 64 bits (ulong).
 *
 * One workgroup computes one MWG x NWG tile of one C of the batch. It walks K in steps of KWG,
 * staging an MWG x KWG slice of op(A) and a KWG x NWG slice of op(B) in local memory, both
 * stored K-major (one row per k, padded by PADA / PADB floats against bank conflicts):
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
 * The grid: dimension 1 counts the tiles along M; dimension 0 counts the tiles along N, then
 * (split kernel) the K splits, then the products of the batch, so that no dimension but the
 * first grows with the batch (some devices cap the others at 65535 workgroups):
 *     group_id(0) = (batch_index * splits + split) * n_tiles + tile_n
 *
 * Global loads come in groups of four elements consecutive along the dimension that is
 * contiguous in memory (k for A when TRANS_A = 0, m when TRANS_A = 1; n for B when TRANS_B = 0,
 * k when 1). X_VEC = 1 says that operand X's offset, strides and leading dimension let those
 * groups (and, for C, the VWN-wide stores) be aligned vector accesses; with X_VEC = 0 they are
 * element-aligned vloads (fp16 and bf16 need nothing more, as their vloads are element-aligned).
 *
 * Precision (PRECISION, for fp32 inputs; fp16 and bf16 values are exact in TF32 already):
 *   0 FP32    plain fp32 products.
 *   1 TF32    A and B truncated to TF32 (ocf_tf32_trunc: the low 13 mantissa bits cleared, as
 *             Hopper's wgmma reads fp32 bits; a NaN kept a NaN) as they enter local memory;
 *             products of TF32 values are exact in fp32, accumulation is fp32.
 *   2 3XTF32  each input split into big = tf32(x), rounded to nearest (ocf_round_tf32,
 *             cvt.rna.tf32.f32's rounding), and small = tf32(x - big) (ocf_tf32_small:
 *             an infinite input has no finite low part and gives NaN, on every kernel) once,
 *             as it enters local memory, which holds two parts in two halves of each buffer
 *             (twice the local memory): big_a and small_a of A, big_b and
 *             sum_b = big_b + small_b of B (exact in fp32 for a finite input: the two parts' bits
 *             lie within the 24 of x). Then two FMAs per product:
 *                 acc = fma(big_a, sum_b, fma(small_a, big_b, acc)),
 *             the three products big_a big_b + big_a small_b + small_a big_b (each exact, as
 *             TF32 x TF32 fits fp32) with two roundings, as an fp32 product has one.
 *
 * The epilogue, in registers before the one store of each element (beta == 0 never reads C, so
 * NaNs in C do not propagate; k == 0 gives act(beta * C + bias), and the host passes k = 0 when
 * alpha == 0 too, so A and B are then not read, as BLAS specifies):
 *   v = alpha * acc;  v = beta * C + v (beta != 0);  v += bias[col] (BIAS 1) or bias[row] (2);
 *   C = act(v) (ACTIVATION: ocf_activate in cl/common.cl), rounded to C_DTYPE.
 *
 * The program is cl/common.cl, cl/matmul_common.clh (the operands' types, the precision mode, the
 * epilogue, shared with the benchmark's baseline cl/baselines/matmul_naive.cl) and this file.
 * Kernels, the host picks one (SPLIT_K = 1 builds the split pair, 2 the stream kernel, 0 the
 * others):
 *   matmul_tiled_fast  the fast path. Assumes m % MWG == 0, n % NWG == 0, k % KWG == 0, so every
 *                      tile is whole: no bound checks at all.
 *   matmul_tiled_mixed any m, n, k. A workgroup whose tile lies wholly inside C runs the
 *                      unguarded loads and vector stores, guarding only the last K slice when
 *                      k % KWG != 0; a tile on the bottom or right edge of C runs the guarded
 *                      path. The choice is per workgroup (uniform), so the edge tiles run in the
 *                      same waves as the interior ones instead of in a separate, mostly idle
 *                      launch:
 *
 *                          +------+------+------+--+
 *                          | whole| whole| whole|e |   e: edge tiles (guarded loads and
 *                          +------+------+------+--+      stores); the last K slice of a
 *                          | whole| whole| whole|e |      whole tile is guarded too
 *                          +------+------+------+--+
 *                          |  e   |  e   |  e   |e |
 *                          +------+------+------+--+
 *
 *   matmul_tiled_split the mixed kernel over one of `splits` ranges of k_split along K (a
 *                      multiple of KWG): it writes its raw sums (no alpha, no epilogue) to
 *                      partial[((batch_index * splits + split) * m + row) * ldp + col] with
 *                      ldp = n rounded up to 4, for matmul_reduce to add up. For K much longer
 *                      than C is wide, when the tiles alone would leave compute units idle.
 *   matmul_reduce      one work-item per element of the batch's C: adds the splits' partial
 *                      sums in split order, then the epilogue and the store.
 *   matmul_tiled_stream stream-K: the tiles' K slices, all in one sequence, cut into one
 *                      equal range per workgroup, as many workgroups as run at once; a tile
 *                      split between ranges is joined by its last part to arrive (JOIN,
 *                      cl/join.clh), in the same launch. For calls whose tiles fill their last
 *                      wave poorly (mid sizes): every workgroup does the same work.
 *   matmul_tiled       the general kernel: the same tiles with guarded loads (elements outside
 *                      the matrices read as 0, so the K remainder adds nothing) and guarded
 *                      stores; right for any m, n, k, offset and stride.
 *   matmul_tiled_pad   the ragged path (docs/GEMM.md): after matmul_pad (cl/matmul_pad.cl) has
 *                      copied the fp32 operands whose offset, leading dimension or batch stride
 *                      forbids aligned vector loads (A_PAD, B_PAD) into zero-padded scratch
 *                      (rows a multiple of 4, whole tiles and K slices), every tile reads those
 *                      copies with unguarded aligned vector loads, interior and rim alike; only
 *                      an operand left as it lies keeps the mixed kernel's guards, and edge
 *                      tiles guard their stores:
 *
 *                          A (lda = k + 1)         A' (scratch): lds_a = k rounded up to KWG
 *                          +-----------+.          +-----------+--+
 *                          | m x k     |.  copy    | m x k     |0 |  rows up to a whole MWG,
 *                          |           |.  ---->   |           |0 |  all 16-byte aligned
 *                          +-----------+.          +-----------+--+
 *                                                  |0 0 0 0 0 0 0 |
 *                                                  +--------------+
 * RIM = 1 (tiled.rim, docs/GEMM.md "Ragged shapes: the rim"): matmul_tiled_mixed and
 * matmul_tiled_pad (and matmul_tiled_split with tiled.rim 2) pick per workgroup between two
 * copies of one body (tile_body; the split kernel's accumulate_tile): whole tiles with no guard
 * at all (a partial last K slice loaded guarded after the loop), rim tiles guarded.
 * Every work-item reaches every barrier: guards wrap loads and stores, never a barrier (RIM's
 * branch is the workgroup's own, so all of it takes the same body and its barriers).
 */

/* Work-items along M (local dimension 1); any power of two. */
#ifndef MDIMC
#error "MDIMC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Work-items along N (local dimension 0); any power of two. */
#ifndef NDIMC
#error "NDIMC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Rows of C per work-item (register blocking); a multiple of VWM. */
#ifndef MWI
#error "MWI: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Columns of C per work-item (register blocking); a multiple of VWN. */
#ifndef NWI
#error "NWI: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Depth of one K slice staged in local memory; a multiple of 4. */
#ifndef KWG
#error "KWG: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Width of the local-memory reads of the A tile: 1, 2 or 4. */
#ifndef VWM
#error "VWM: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Width of the local-memory reads of the B tile and of the stores of C (whole tiles): 1, 2, 4. */
#ifndef VWN
#error "VWN: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Floats of padding after each k-row of the local A tile; a multiple of 4. */
#ifndef PADA
#error "PADA: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Floats of padding after each k-row of the local B tile; a multiple of 4. */
#ifndef PADB
#error "PADB: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: the operand's accesses in groups of 4 (C: of VWN) may be aligned vector accesses. */
#ifndef A_VEC
#error "A_VEC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef B_VEC
#error "B_VEC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef C_VEC
#error "C_VEC: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: the program holds the split-K pair (matmul_tiled_split, matmul_reduce), 2: the stream-K
   kernel (matmul_tiled_stream), 0: the other kernels. A program holds only what its plan runs:
   some implementations (Oclgrind) charge a kernel with every __local array of its program. */
#ifndef SPLIT_K
#error "SPLIT_K: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* The fences of matmul_tiled_stream's joins (cl/join.clh; 0 in the other programs). */
#ifndef JOIN
#error "JOIN: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Work-items per workgroup of matmul_reduce. */
#ifndef REDUCE_WG
#error "REDUCE_WG: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: matmul_tiled_pad reads A (A_PAD) / B (B_PAD) from its zero-padded copy in `partial`. */
#ifndef A_PAD
#error "A_PAD: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#ifndef B_PAD
#error "B_PAD: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: matmul_tiled_pad and matmul_tiled_mixed pick, per workgroup, one of two bodies built from
   one source: whole tiles unguarded (the fast kernel's K loop, loads and vector stores; a
   partial last K slice guarded, after the loop), rim tiles guarded; 0: one body with run-time
   guards. */
#ifndef RIM
#error "RIM: the host passes every tunable (src/plan/plan_matmul.c)"
#endif

/* ---- derived ---- */
#define MWG (MDIMC * MWI)   /* rows of the C tile */
#define NWG (NDIMC * NWI)   /* columns of the C tile */
#define WGS (MDIMC * NDIMC) /* work-items per workgroup */
#define ALD (MWG + PADA)    /* row stride of the local A tile */
#define BLD (NWG + PADB)    /* row stride of the local B tile */
#if PRECISION == 2
#define PARTS 2 /* 3XTF32: each local buffer holds the big parts, then the small ones */
#else
#define PARTS 1
#endif
#define A_PART (KWG * ALD)       /* floats of one part of a local A buffer */
#define B_PART (KWG * BLD)       /* floats of one part of a local B buffer */
#define A_TILE (PARTS * A_PART)  /* floats in one local A buffer */
#define B_TILE (PARTS * B_PART)  /* floats in one local B buffer */
#define A_GROUPS (MWG * KWG / 4) /* four-element load groups in one A slice */
#define B_GROUPS (NWG * KWG / 4)
#define A_SLOTS ((A_GROUPS + WGS - 1) / WGS) /* load groups per work-item */
#define B_SLOTS ((B_GROUPS + WGS - 1) / WGS)
#define MAX_SLOTS (A_SLOTS > B_SLOTS ? A_SLOTS : B_SLOTS) /* a constant loop bound for both */

/* RIM: the functions of a tile where its two bodies part (tile_body, accumulate_tile and the
   stores) are forced inline, so that each body gets its own copy with its guards folded to
   constants (the spelling NVIDIA's compiler takes, as in cl/matmul_mma_nv.cl); the small helpers
   they call are left to the compiler's own inlining, as with RIM 0 (forced too, Oclgrind 21.10
   ran test_matmul_pad's TF32-rounded load groups as stores of undef). */
#if RIM
#define RIM_INLINE static inline __attribute__((always_inline))
#else
#define RIM_INLINE
#endif

/* Vector types of the local-memory reads (OCF_FLOATN: cl/common.cl). */
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

/* ---- vector access by storage type and alignment: LOADV(t, vec, w, p) reads elements
   p[0 .. w) as floats, STOREV(t, vec, w, p, v) writes them rounded to type t. An aligned fp32
   access is a plain vector access; an unaligned one an element-aligned vloadn / vstoren; the
   16-bit types use cl/common.cl's OCF_LOADV / OCF_STOREV, which need no alignment. ---- */
#define F32_LOADU_1(p) (*(p))
#define F32_LOADU_2(p) vload2(0, p)
#define F32_LOADU_4(p) vload4(0, p)
#define F32_STOREU_1(p, v) (*(p) = (v))
#define F32_STOREU_2(p, v) vstore2(v, 0, p)
#define F32_STOREU_4(p, v) vstore4(v, 0, p)
#define LOADV_0_1(w, p) OCF_LOADV_0(w, p, 0)
#define LOADV_0_0(w, p) OCF_CAT(F32_LOADU_, w)(p)
#define LOADV_1_1(w, p) OCF_LOADV_1(w, p, 0)
#define LOADV_1_0(w, p) OCF_LOADV_1(w, p, 0)
#define LOADV_2_1(w, p) OCF_LOADV_2(w, p, 0)
#define LOADV_2_0(w, p) OCF_LOADV_2(w, p, 0)
#define LOADV(t, vec, w, p) OCF_CAT(OCF_CAT(OCF_CAT(LOADV_, t), _), vec)(w, p)
#define STOREV_0_1(w, p, v) OCF_STOREV_0(w, p, 0, v)
#define STOREV_0_0(w, p, v) OCF_CAT(F32_STOREU_, w)(p, v)
#define STOREV_1_1(w, p, v) OCF_STOREV_1(w, p, 0, v)
#define STOREV_1_0(w, p, v) OCF_STOREV_1(w, p, 0, v)
#define STOREV_2_1(w, p, v) OCF_STOREV_2(w, p, 0, v)
#define STOREV_2_0(w, p, v) OCF_STOREV_2(w, p, 0, v)
#define STOREV(t, vec, w, p, v) OCF_CAT(OCF_CAT(OCF_CAT(STOREV_, t), _), vec)(w, p, v)

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

/* load_group_a / load_group_b: one load group of four elements from p, rounded as the
   precision mode says. guarded: only those with `inside` and index < avail are read, the rest
   are 0 (signed avail, no clamping: a clamped unsigned difference becomes an intrinsic Oclgrind
   lacks); unguarded: all four are inside. */
#define DEFINE_LOAD_GROUP(NAME, T, DTYPE, VEC, ROUND)                                      \
  float4 NAME(__global const T *p, const int guarded, const int inside, const int avail) { \
    float4 v = (float4)(0.0f);                                                             \
    if (!guarded) {                                                                        \
      v = LOADV(DTYPE, VEC, 4, p);                                                         \
    } else if (inside) {                                                                   \
      if (avail > 0) v.s0 = OCF_LOAD(DTYPE, p, 0);                                         \
      if (avail > 1) v.s1 = OCF_LOAD(DTYPE, p, 1);                                         \
      if (avail > 2) v.s2 = OCF_LOAD(DTYPE, p, 2);                                         \
      if (avail > 3) v.s3 = OCF_LOAD(DTYPE, p, 3);                                         \
    }                                                                                      \
    return (float4)(ROUND(v.s0), ROUND(v.s1), ROUND(v.s2), ROUND(v.s3));                   \
  }
DEFINE_LOAD_GROUP(load_group_a, A_T, A_DTYPE, A_VEC, ROUND_A)
DEFINE_LOAD_GROUP(load_group_b, B_T, B_DTYPE, B_VEC, ROUND_B)

/* The body of load_slice_a / load_slice_b: this work-item's load groups of one xwg x KWG slice
   into regs. The slice's element (x, kk) is slice[x * ld + kk] when kcont, else
   slice[kk * ld + x]; guarded: elements with x >= xlim or kk >= klim read as 0 and are never
   touched. */
#define LOAD_SLICE_BODY(LOAD_GROUP)                                                   \
  const uint e = tid + s * WGS;                                                       \
  if (s < slots && (groups % WGS == 0 || e < groups)) {                               \
    uint x, kk;                                                                       \
    slice_coords(e, kcont, xwg, &x, &kk);                                             \
    const ulong at = kcont ? (ulong)x * ld + kk : (ulong)kk * ld + x;                 \
    regs[s] = kcont ? LOAD_GROUP(slice + at, guarded, x < xlim, (int)klim - (int)kk)  \
                    : LOAD_GROUP(slice + at, guarded, kk < klim, (int)xlim - (int)x); \
  }
#define LOAD_SLICE_PARAMS                                                               \
  const ulong ld, const int kcont, const uint xwg, const uint groups, const uint slots, \
      const uint xlim, const uint klim, const int guarded, const uint tid, float4 *regs
void load_slice_a(__global const A_T *slice, LOAD_SLICE_PARAMS) {
#pragma unroll
  for (uint s = 0; s < MAX_SLOTS; s++) {
    LOAD_SLICE_BODY(load_group_a)
  }
}
void load_slice_b(__global const B_T *slice, LOAD_SLICE_PARAMS) {
#pragma unroll
  for (uint s = 0; s < MAX_SLOTS; s++) {
    LOAD_SLICE_BODY(load_group_b)
  }
}

/* One load group into a K-major local tile part of row stride ld_local at (x, kk). */
void store_group(__local float *tile, const uint ld_local, const int kcont, const uint x,
                 const uint kk, const float4 v) {
  if (kcont) {
    tile[(kk + 0) * ld_local + x] = v.s0;
    tile[(kk + 1) * ld_local + x] = v.s1;
    tile[(kk + 2) * ld_local + x] = v.s2;
    tile[(kk + 3) * ld_local + x] = v.s3;
  } else {
    *(__local float4 *)(tile + kk * ld_local + x) = v;
  }
}

/* Stores the groups loaded by load_slice_x into a K-major local tile of row stride ld_local;
   3XTF32: their big parts there and `part` floats further on their small parts (A) or
   big + small (B, is_b). */
void store_slice(__local float *tile, const uint ld_local, const uint part, const int is_b,
                 const int kcont, const uint xwg, const uint groups, const uint slots,
                 const uint tid, const float4 *regs) {
#pragma unroll
  for (uint s = 0; s < MAX_SLOTS; s++) {
    const uint e = tid + s * WGS;
    if (s < slots && (groups % WGS == 0 || e < groups)) {
      uint x, kk;
      slice_coords(e, kcont, xwg, &x, &kk);
#if PRECISION == 2
      const float4 v = regs[s];
      const float4 big = (float4)(ocf_round_tf32(v.s0), ocf_round_tf32(v.s1), ocf_round_tf32(v.s2),
                                  ocf_round_tf32(v.s3));
      const float4 small = (float4)(ocf_tf32_small(v.s0, big.s0), ocf_tf32_small(v.s1, big.s1),
                                    ocf_tf32_small(v.s2, big.s2), ocf_tf32_small(v.s3, big.s3));
      store_group(tile, ld_local, kcont, x, kk, big);
      store_group(tile + part, ld_local, kcont, x, kk, is_b ? big + small : small);
#else
      store_group(tile, ld_local, kcont, x, kk, regs[s]);
#endif
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
#if PRECISION == 2
    /* a and b are the big parts; a part further on in local memory lie A's small parts and
       B's big + small */
    float a_small[MWI], b_sum[NWI];
#pragma unroll
    for (uint g = 0; g < MWI / VWM; g++) {
      const floatM v = *(__local const floatM *)(al + A_PART + kk * ALD + (g * MDIMC + tm) * VWM);
      SPLIT_M(v, a_small + g * VWM);
    }
#pragma unroll
    for (uint h = 0; h < NWI / VWN; h++) {
      const floatN v = *(__local const floatN *)(bl + B_PART + kk * BLD + (h * NDIMC + tn) * VWN);
      SPLIT_N(v, b_sum + h * VWN);
    }
#pragma unroll
    for (uint i = 0; i < MWI; i++)
#pragma unroll
      for (uint j = 0; j < NWI; j++)
        acc[i * NWI + j] = fma(a[i], b_sum[j], fma(a_small[i], b[j], acc[i * NWI + j]));
#else
#pragma unroll
    for (uint i = 0; i < MWI; i++)
#pragma unroll
      for (uint j = 0; j < NWI; j++)
        acc[i * NWI + j] = a[i] * b[j] + acc[i * NWI + j];
#endif
  }
}

/* ---- the K loop of one tile ---- */

/* Accumulates op(A) op(B) over k elements of K into this work-item's acc. a_slice and b_slice
   point at element (x0, k0) of the tile's first slice. guarded: this tile may cross the bottom
   or right edge of C (rows >= mlim, columns >= nlim read as 0). k_tail: k may not be a multiple
   of KWG, so a whole tile's last, partial K slice is loaded guarded (its other slices are not).
   pad_a / pad_b: that operand is a zero-padded copy (matmul_tiled_pad) holding whole tiles and
   whole K slices, so its loads are never guarded. peel (with k_tail): the double-buffered loop
   runs the whole K slices only, their loads guarded by `guarded` alone (no guard at all in a
   whole tile), and the partial last slice follows the loop, loaded guarded into the first
   buffer (the loop's last barrier has freed both), one barrier, its multiply:
       slices 0 .. k / KWG - 1: the loop, prefetched  |  k % KWG: guarded, after it
   All are constants in each entry, so their unused paths compile away. */
RIM_INLINE void accumulate_tile(__global const A_T *a_slice, const ulong lda,
                                __global const B_T *b_slice, const ulong ldb, const ulong k,
                                const uint mlim, const uint nlim, const int guarded,
                                const int k_tail, const int peel, const int pad_a, const int pad_b,
                                __local float *al, __local float *bl, float *acc) {
  const uint tn = get_local_id(0), tm = get_local_id(1);
  const uint tid = tm * NDIMC + tn;
#if TRANS_A
  const ulong a_step = KWG * lda;
#else
  const ulong a_step = KWG;
#endif
#if TRANS_B
  const ulong b_step = KWG;
#else
  const ulong b_step = KWG * ldb;
#endif
  const int a_kcont = !TRANS_A, b_kcont = TRANS_B;

#pragma unroll
  for (uint i = 0; i < MWI * NWI; i++)
    acc[i] = 0.0f;
  float4 ra[A_SLOTS], rb[B_SLOTS];

  const ulong slices = (k + KWG - 1) / KWG;
  const int peeled = peel && k_tail;            /* the partial slice after the loop */
  const ulong loop = peeled ? k / KWG : slices; /* slices of the double-buffered loop */
  if (loop > 0) {
    const uint klim = (uint)min((ulong)KWG, k);
    const int guard = guarded || (!peeled && k_tail && klim < KWG);
    load_slice_a(a_slice, lda, a_kcont, MWG, A_GROUPS, A_SLOTS, mlim, klim, guard && !pad_a, tid,
                 ra);
    load_slice_b(b_slice, ldb, b_kcont, NWG, B_GROUPS, B_SLOTS, nlim, klim, guard && !pad_b, tid,
                 rb);
    store_slice(al, ALD, A_PART, 0, a_kcont, MWG, A_GROUPS, A_SLOTS, tid, ra);
    store_slice(bl, BLD, B_PART, 1, b_kcont, NWG, B_GROUPS, B_SLOTS, tid, rb);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong t = 0; t < loop; t++) {
    const uint cur = (uint)(t & 1);
    const int more = t + 1 < loop;
    if (more) { /* the next slice's loads, in flight during the multiply */
      a_slice += a_step;
      b_slice += b_step;
      const uint klim = (uint)min((ulong)KWG, k - (t + 1) * KWG);
      const int guard = guarded || (!peeled && k_tail && klim < KWG);
      load_slice_a(a_slice, lda, a_kcont, MWG, A_GROUPS, A_SLOTS, mlim, klim, guard && !pad_a, tid,
                   ra);
      load_slice_b(b_slice, ldb, b_kcont, NWG, B_GROUPS, B_SLOTS, nlim, klim, guard && !pad_b, tid,
                   rb);
    }
    multiply_slice(al + cur * A_TILE, bl + cur * B_TILE, tm, tn, acc);
    if (more) {
      store_slice(al + (1 - cur) * A_TILE, ALD, A_PART, 0, a_kcont, MWG, A_GROUPS, A_SLOTS, tid,
                  ra);
      store_slice(bl + (1 - cur) * B_TILE, BLD, B_PART, 1, b_kcont, NWG, B_GROUPS, B_SLOTS, tid,
                  rb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  /* k, hence this branch, is the same for the whole workgroup: all of it reaches the barrier */
  if (peeled && loop < slices) {
    if (loop > 0) {
      a_slice += a_step;
      b_slice += b_step;
    }
    const uint klim = (uint)(k - loop * KWG);
    load_slice_a(a_slice, lda, a_kcont, MWG, A_GROUPS, A_SLOTS, mlim, klim, !pad_a, tid, ra);
    load_slice_b(b_slice, ldb, b_kcont, NWG, B_GROUPS, B_SLOTS, nlim, klim, !pad_b, tid, rb);
    store_slice(al, ALD, A_PART, 0, a_kcont, MWG, A_GROUPS, A_SLOTS, tid, ra);
    store_slice(bl, BLD, B_PART, 1, b_kcont, NWG, B_GROUPS, B_SLOTS, tid, rb);
    barrier(CLK_LOCAL_MEM_FENCE);
    multiply_slice(al, bl, tm, tn, acc);
  }
}

/* ---- where a workgroup's tile lies ---- */

typedef struct tile_place {
  ulong m0, n0;    /* the tile's first row and column in C */
  ulong batch;     /* which product of the batch */
  ulong split;     /* which K range (split kernel) */
  uint mlim, nlim; /* rows and columns of the tile inside C */
  int edge;        /* the tile crosses the bottom or right edge of C */
} tile_place;

/* The tile (tile_m, tile_n) of product `batch`, K range `split`. */
tile_place tile_at(const ulong m, const ulong n, const ulong tile_m, const ulong tile_n,
                   const ulong batch, const ulong split) {
  tile_place p;
  p.m0 = tile_m * MWG;
  p.n0 = tile_n * NWG;
  p.batch = batch;
  p.split = split;
  p.mlim = (uint)min((ulong)MWG, m - p.m0);
  p.nlim = (uint)min((ulong)NWG, n - p.n0);
  p.edge = p.mlim < MWG || p.nlim < NWG;
  return p;
}

/* This workgroup's tile, by the grid's layout (the header's "grid"). */
tile_place place_tile(const ulong m, const ulong n, const ulong splits) {
  const ulong n_tiles = (n + NWG - 1) / NWG;
  ulong tile_n, split;
  const ulong rest = ocf_divmod(get_group_id(0), n_tiles, &tile_n);
  const ulong batch = ocf_divmod(rest, splits, &split);
  return tile_at(m, n, get_group_id(1), tile_n, batch, split);
}

/* Pointers to element (x0, k0) of the tile's first A and B slices. */
__global const A_T *a_tile(__global const A_T *a, const ulong a_off, const ulong lda,
                           const ulong m0, const ulong k0) {
#if TRANS_A
  return a + a_off + k0 * lda + m0;
#else
  return a + a_off + m0 * lda + k0;
#endif
}
__global const B_T *b_tile(__global const B_T *b, const ulong b_off, const ulong ldb,
                           const ulong n0, const ulong k0) {
#if TRANS_B
  return b + b_off + n0 * ldb + k0;
#else
  return b + b_off + k0 * ldb + n0;
#endif
}

/* ---- the epilogue and the stores of the C tile ---- */

/* Row and column, within the C tile, of this work-item's accumulator (i, j). */
uint tile_row(const uint i, const uint tm) {
  return ((i / VWM) * MDIMC + tm) * VWM + i % VWM;
}
uint tile_col(const uint j, const uint tn) {
  return ((j / VWN) * NDIMC + tn) * VWN + j % VWN;
}

/* Guarded: only rows < mlim and columns < nlim are written; C is read only when beta != 0.
   c_tile points at the tile's element (0, 0); (m0, n0) is where that is in C, for the bias. */
RIM_INLINE void store_c_guarded(__global C_T *c_tile, const ulong ldc, const tile_place *p,
                                const uint tm, const uint tn, const float alpha, const float beta,
                                __global const BIAS_T *bias, const ulong bias_off,
                                const float *acc) {
#pragma unroll
  for (uint i = 0; i < MWI; i++) {
    const uint r = tile_row(i, tm);
    if (r < p->mlim) {
      __global C_T *row = c_tile + (ulong)r * ldc;
#pragma unroll
      for (uint j = 0; j < NWI; j++) {
        const uint col = tile_col(j, tn);
        if (col < p->nlim) {
          const float old = beta != 0.0f ? OCF_LOAD(C_DTYPE, row, col) : 0.0f;
          const float b = bias_of(bias, bias_off, p->m0 + r, p->n0 + col);
          OCF_STORE(C_DTYPE, row, col, finish(acc[i * NWI + j], alpha, beta, old, b));
        }
      }
    }
  }
}

/* Whether C's VWN-wide group at p may be an aligned vector access. C_VEC 1: always. RIM with an
   fp32 C off 16 bytes (ldc = n odd, say): where the group's address is a multiple of its size
   (every second row for ldc odd and VWN 2), checked per group at run time; the 16-bit types'
   accesses need no alignment. */
#if RIM && C_DTYPE == 0 && !C_VEC
#define C_VEC_AT(p) ((((size_t)(p)) & (sizeof(floatN) - 1)) == 0)
#else
#define C_VEC_AT(p) C_VEC
#endif

/* Whole tile: VWN-wide stores (and reads of C when beta != 0). */
RIM_INLINE void store_c_whole(__global C_T *c_tile, const ulong ldc, const tile_place *p,
                              const uint tm, const uint tn, const float alpha, const float beta,
                              __global const BIAS_T *bias, const ulong bias_off, const float *acc) {
#pragma unroll
  for (uint i = 0; i < MWI; i++) {
    const uint r = tile_row(i, tm);
    __global C_T *row = c_tile + (ulong)r * ldc;
#pragma unroll
    for (uint h = 0; h < NWI / VWN; h++) {
      const uint col = tile_col(h * VWN, tn);
      float old[VWN], out[VWN];
      const int vec = C_VEC_AT(row + col);
      if (beta != 0.0f) {
        const floatN v =
            vec ? LOADV(C_DTYPE, 1, VWN, row + col) : LOADV(C_DTYPE, 0, VWN, row + col);
        SPLIT_N(v, old);
      }
#pragma unroll
      for (uint w = 0; w < VWN; w++)
        out[w] = finish(acc[i * NWI + h * VWN + w], alpha, beta, beta != 0.0f ? old[w] : 0.0f,
                        bias_of(bias, bias_off, p->m0 + r, p->n0 + col + w));
#if VWN == 1
      const floatN value = out[0];
#else
      const floatN value = OCF_CAT(vload, VWN)(0, out);
#endif
      if (vec)
        STOREV(C_DTYPE, 1, VWN, row + col, value);
      else
        STOREV(C_DTYPE, 0, VWN, row + col, value);
    }
  }
}

/* The raw sums of one split into its partial tile (fp32, row stride ldp, a multiple of 4). */
void store_partial(__global float *part, const ulong ldp, const tile_place *p, const uint tm,
                   const uint tn, const float *acc) {
#pragma unroll
  for (uint i = 0; i < MWI; i++) {
    const uint r = tile_row(i, tm);
    __global float *row = part + (ulong)r * ldp;
#pragma unroll
    for (uint h = 0; h < NWI / VWN; h++) {
      const uint col = tile_col(h * VWN, tn);
      if (!p->edge) {
#if VWN == 1
        row[col] = acc[i * NWI + h];
#else
        *(__global floatN *)(row + col) = OCF_CAT(vload, VWN)(0, acc + i * NWI + h * VWN);
#endif
      } else if (r < p->mlim) {
#pragma unroll
        for (uint w = 0; w < VWN; w++)
          if (col + w < p->nlim) row[col + w] = acc[i * NWI + h * VWN + w];
      }
    }
  }
}

/* The epilogue and the stores of a tile of C: guarded (the tile may cross C's edge), or whole. */
RIM_INLINE void store_tile(__global C_T *c, const ulong c_off, const ulong ldc,
                           const ulong stride_c, const tile_place *p, const int guarded,
                           const float alpha, const float beta, __global const BIAS_T *bias,
                           const ulong bias_off, const float *acc) {
  const uint tn = get_local_id(0), tm = get_local_id(1);
  __global C_T *c_tile = c + c_off + p->batch * stride_c + p->m0 * ldc + p->n0;
  if (guarded)
    store_c_guarded(c_tile, ldc, p, tm, tn, alpha, beta, bias, bias_off, acc);
  else
    store_c_whole(c_tile, ldc, p, tm, tn, alpha, beta, bias, bias_off, acc);
}

/* ---- entries ---- */

/* One tile of one product: its K loop, epilogue and stores. a_at / b_at point at the tile's
   first A and B slices (row strides lda, ldb); guarded, k_tail, peel, pad_a, pad_b as in
   accumulate_tile, guarded for the stores too. */
RIM_INLINE void tile_body(__global const A_T *a_at, const ulong lda, __global const B_T *b_at,
                          const ulong ldb, const ulong k, const tile_place *p, const int guarded,
                          const int k_tail, const int peel, const int pad_a, const int pad_b,
                          const float alpha, const float beta, __global C_T *c, const ulong c_off,
                          const ulong ldc, const ulong stride_c, __global const BIAS_T *bias,
                          const ulong bias_off, __local float *al, __local float *bl) {
  float acc[MWI * NWI];
  accumulate_tile(a_at, lda, b_at, ldb, k, p->mlim, p->nlim, guarded, k_tail, peel, pad_a, pad_b,
                  al, bl, acc);
  store_tile(c, c_off, ldc, stride_c, p, guarded, alpha, beta, bias, bias_off, acc);
}

/* RIM: the workgroup's tile picks its body, the same choice for every work-item of it (so every
   work-item reaches every barrier of the body it runs): a whole tile runs tile_body with every
   guard a constant 0 (K's partial slice, when k_tail, after the loop), a rim tile the guarded
   one:

       +------+------+--+      whole: tile_body(guarded 0): vector loads, C_VEC stores (or
       |whole |whole |r |             vector stores on the rows whose address allows them)
       +------+------+--+      r:     tile_body(guarded 1): guarded loads (copied operands
       |  r   |  r   |r |             excepted) and guarded stores
       +------+------+--+                                                                  */
/* (Not variadic: NVIDIA's OpenCL C compiler refuses variadic macros, which clang takes.) */
#define RIM_BODIES(p, k_tail, a0, lda0, b0, ldb0, k0)                        \
  do {                                                                       \
    if ((p).edge)                                                            \
      tile_body(a0, lda0, b0, ldb0, k0, &(p), 1, k_tail, 1, TILE_BODY_REST); \
    else                                                                     \
      tile_body(a0, lda0, b0, ldb0, k0, &(p), 0, k_tail, 1, TILE_BODY_REST); \
  } while (0)

/* The body of the three tiled entries: one tile of one product, epilogue and store.
   guarded / k_tail as in accumulate_tile; the mixed entry passes guarded = the tile's edge
   (RIM: the mixed entry picks one of two bodies itself, below). */
void gemm_tiled(TILED_PARAMS, const int fast, const int general, __local float *al,
                __local float *bl) {
  const tile_place p = place_tile(m, n, 1);
  tile_body(a_tile(a, a_off + p.batch * stride_a, lda, p.m0, 0), lda,
            b_tile(b, b_off + p.batch * stride_b, ldb, p.n0, 0), ldb, k, &p,
            general || (!fast && p.edge), !fast, 0, 0, 0, alpha, beta, c, c_off, ldc, stride_c,
            bias, bias_off, al, bl);
}

#if SPLIT_K == 0

#ifdef OCF_KERNEL_matmul_tiled_fast
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_fast(TILED_PARAMS) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4]; /* float4: 16-byte aligned */
  gemm_tiled(m, n, k, alpha, a, a_off, lda, stride_a, b, b_off, ldb, stride_b, beta, c, c_off, ldc,
             stride_c, bias, bias_off, 1, 0, (__local float *)al, (__local float *)bl);
}
#endif

#ifdef OCF_KERNEL_matmul_tiled_mixed
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_mixed(TILED_PARAMS) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
#if RIM
  /* In the entry itself, as matmul_tiled_pad: through gemm_tiled, PoCL 3.1 (its own inlining)
     stored a rim tile's rows past C, and forcing gemm_tiled inline handed Oclgrind 21.10 an
     intrinsic it lacks (llvm.experimental.noalias.scope.decl, from its restrict pointers). */
  const tile_place p = place_tile(m, n, 1);
#define TILE_BODY_REST                                                             \
  0, 0, alpha, beta, c, c_off, ldc, stride_c, bias, bias_off, (__local float *)al, \
      (__local float *)bl
  RIM_BODIES(p, 1, a_tile(a, a_off + p.batch * stride_a, lda, p.m0, 0), lda,
             b_tile(b, b_off + p.batch * stride_b, ldb, p.n0, 0), ldb, k);
#undef TILE_BODY_REST
#else
  /* The edge test is the same for every work-item of the workgroup: a uniform choice of loads
     and stores, and every work-item still reaches every barrier of the one shared body. */
  gemm_tiled(m, n, k, alpha, a, a_off, lda, stride_a, b, b_off, ldb, stride_b, beta, c, c_off, ldc,
             stride_c, bias, bias_off, 0, 0, (__local float *)al, (__local float *)bl);
#endif
}
#endif

#ifdef OCF_KERNEL_matmul_tiled
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void matmul_tiled(TILED_PARAMS) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
  gemm_tiled(m, n, k, alpha, a, a_off, lda, stride_a, b, b_off, ldb, stride_b, beta, c, c_off, ldc,
             stride_c, bias, bias_off, 0, 1, (__local float *)al, (__local float *)bl);
}
#endif

#ifdef OCF_KERNEL_matmul_tiled_pad
#if (A_PAD && A_DTYPE != 0) || (B_PAD && B_DTYPE != 0)
#error "A_PAD, B_PAD: only fp32 operands are padded (cl/matmul_pad.cl copies floats)"
#endif
/* Operands with A_PAD / B_PAD are read from the copies matmul_pad (cl/matmul_pad.cl) wrote into
   `partial`: product q's A' at q * s_stride_a with row stride lds_a, B' at sb_off + q * s_stride_b
   with row stride lds_b, each as the operand is stored (transposed or not), 16-byte aligned, with
   whole tiles and whole K slices (zeros past the matrix). Their loads are never guarded; the
   other operand's are guarded as in matmul_tiled_mixed, and so are the stores of edge tiles. */
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_pad(TILED_PARAMS, __global const float *restrict partial, const ulong sb_off,
                 const ulong lds_a, const ulong s_stride_a, const ulong lds_b,
                 const ulong s_stride_b) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
  const tile_place p = place_tile(m, n, 1);
#if A_PAD
  __global const A_T *a_at = a_tile(partial, p.batch * s_stride_a, lds_a, p.m0, 0);
  const ulong lda_at = lds_a;
#else
  __global const A_T *a_at = a_tile(a, a_off + p.batch * stride_a, lda, p.m0, 0);
  const ulong lda_at = lda;
#endif
#if B_PAD
  __global const B_T *b_at = b_tile(partial, sb_off + p.batch * s_stride_b, lds_b, p.n0, 0);
  const ulong ldb_at = lds_b;
#else
  __global const B_T *b_at = b_tile(b, b_off + p.batch * stride_b, ldb, p.n0, 0);
  const ulong ldb_at = ldb;
#endif
#define TILE_BODY_REST                                                                     \
  A_PAD, B_PAD, alpha, beta, c, c_off, ldc, stride_c, bias, bias_off, (__local float *)al, \
      (__local float *)bl
#if RIM
  /* K's partial slice needs guards only on an operand read as it lies; the copies hold zeros
     there */
  RIM_BODIES(p, !(A_PAD && B_PAD), a_at, lda_at, b_at, ldb_at, k);
#else
  tile_body(a_at, lda_at, b_at, ldb_at, k, &p, p.edge, 1, 0, TILE_BODY_REST);
#endif
#undef TILE_BODY_REST
}
#endif

#elif SPLIT_K == 1

#ifdef OCF_KERNEL_matmul_tiled_split
#if RIM
/* One K range of one tile: its sums, stored raw to the partial buffer at `part`. guarded and
   peel as in accumulate_tile (k_tail always: a range may end in a partial slice). */
RIM_INLINE void split_body(__global const A_T *a_at, const ulong lda, __global const B_T *b_at,
                           const ulong ldb, const ulong k_len, const tile_place *p,
                           const int guarded, const int peel, __global float *part, const ulong ldp,
                           __local float *al, __local float *bl) {
  float acc[MWI * NWI];
  accumulate_tile(a_at, lda, b_at, ldb, k_len, p->mlim, p->nlim, guarded, 1, peel, 0, 0, al, bl,
                  acc);
  store_partial(part, ldp, p, get_local_id(1), get_local_id(0), acc);
}
#endif

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_split(const ulong m, const ulong n, const ulong k, const ulong k_split,
                   const ulong splits, __global const A_T *restrict a, const ulong a_off,
                   const ulong lda, const ulong stride_a, __global const B_T *restrict b,
                   const ulong b_off, const ulong ldb, const ulong stride_b,
                   __global float *restrict partial) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
  const tile_place p = place_tile(m, n, splits);
  const ulong k0 = p.split * k_split, k_len = min(k_split, k - k0);
  __global const A_T *a_at = a_tile(a, a_off + p.batch * stride_a, lda, p.m0, k0);
  __global const B_T *b_at = b_tile(b, b_off + p.batch * stride_b, ldb, p.n0, k0);
  const ulong ldp = (n + 3) & ~(ulong)3;
  __global float *part = partial + ((p.batch * splits + p.split) * m + p.m0) * ldp + p.n0;
#if RIM
  /* tiled.rim 2: two bodies as the mixed kernel's, whole tiles without a guard (the last range's
     partial slice peeled), rim tiles guarded; the workgroup's own choice, so every work-item
     reaches every barrier of the body it runs. Each body ends the kernel, its stores inside:
     with one store after the two, PoCL 3.1 stored wrong sums (NaN) in 5 runs of 16 of
     test_rim_split_edges, where Oclgrind found no race. */
  if (p.edge)
    split_body(a_at, lda, b_at, ldb, k_len, &p, 1, 1, part, ldp, (__local float *)al,
               (__local float *)bl);
  else
    split_body(a_at, lda, b_at, ldb, k_len, &p, 0, 1, part, ldp, (__local float *)al,
               (__local float *)bl);
#else
  float acc[MWI * NWI];
  accumulate_tile(a_at, lda, b_at, ldb, k_len, p.mlim, p.nlim, p.edge, 1, 0, 0, 0,
                  (__local float *)al, (__local float *)bl, acc);
  store_partial(part, ldp, &p, get_local_id(1), get_local_id(0), acc);
#endif
}
#endif

/* Work-item e of the batch's m * n * batch elements: row-major within each C. */
#ifdef OCF_KERNEL_matmul_reduce
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
matmul_reduce(const ulong m, const ulong n, const ulong batch, const ulong splits,
              __global const float *restrict partial, const float alpha, const float beta,
              __global C_T *restrict c, const ulong c_off, const ulong ldc, const ulong stride_c,
              __global const BIAS_T *restrict bias, const ulong bias_off) {
  const ulong e = get_global_id(0), per = m * n;
  if (e >= per * batch) return;
  ulong at, j;
  const ulong bi = ocf_divmod(e, per, &at), i = ocf_divmod(at, n, &j);
  const ulong ldp = (n + 3) & ~(ulong)3;
  __global const float *part = partial + (bi * splits * m + i) * ldp + j;
  float sum = 0.0f;
  for (ulong s = 0; s < splits; s++)
    sum += part[s * m * ldp];
  __global C_T *out = c + c_off + bi * stride_c + i * ldc;
  const float old = beta != 0.0f ? OCF_LOAD(C_DTYPE, out, j) : 0.0f;
  OCF_STORE(C_DTYPE, out, j, finish(sum, alpha, beta, old, bias_of(bias, bias_off, i, j)));
}
#endif

#else /* SPLIT_K == 2: stream-K */

#ifdef OCF_KERNEL_matmul_tiled_stream
#if !JOIN
#error "matmul_tiled_stream: JOIN 1 or 2 (the last part of a tile to arrive joins the tile)"
#endif
/* Stream-K (docs/GEMM.md, "Mid sizes: stream-K"). The call's work, `tiles` tiles (of every
   product) of `slices` K slices each, is one sequence of steps, a tile's slices one after the
   other and the tiles in the grid's order (along N, then M, then the batch), cut into as many
   equal ranges as the host launches workgroups (as many as run at once), so that every
   workgroup does the same work however the tiles fall into waves:

       steps:   | tile 0          | tile 1          | tile 2          |
       ranges:  | g0         | g1         | g2         | g3          |

   A workgroup runs its range a tile at a time. A tile it holds whole goes through the epilogue
   at once; a part of a tile (the one that begins its range or the one that ends it) goes raw to
   the workgroup's slot of that side in the scratch, and the workgroup arrives at the tile's
   counter (join.clh); the tile's last part to arrive adds all its parts in range order (the same
   bits whatever the order of arrival) and finishes the tile. No workgroup waits for another. */

/* The step arithmetic is 32-bit: the host keeps (groups + 1) * work below 2^32 (rule 4's
   stream_groups). It was 64-bit when the H100 found this kernel at 179-181 registers against the
   split kernel's 121; 32 bits did not lower them (242 for 8 x 8 on 2026-12-06: docs/GEMM.md). */

/* The first step of workgroup g's range: g work / groups, rounded down. The host launches at
   most `work` workgroups, so that no range is empty (a tile's parts are then its owners'
   ranges, each one part). */
uint stream_first(const uint g, const uint work, const uint groups) {
  return g * work / groups;
}

/* The workgroup whose range holds step x: the last g with stream_first(g) <= x, that is
   g < (x + 1) groups / work. */
uint stream_owner(const uint x, const uint work, const uint groups) {
  return ((x + 1) * groups + work - 1) / work - 1;
}

/* Workgroup g's slot for the part of a tile that begins its range (begins 1) or ends it: a
   partial tile of MWG x NWG floats (row stride NWG, a multiple of 4: aligned vector stores). */
__global float *stream_slot(__global float *partial, const uint g, const int begins) {
  return partial + (2 * g + (begins ? 0 : 1)) * (ulong)(MWG * NWG);
}

/* Adds a part (as store_partial wrote it, row stride NWG) to this work-item's acc: only the
   elements inside C, the only ones written. */
void add_part(__global const float *part, const tile_place *p, const uint tm, const uint tn,
              float *acc) {
#pragma unroll
  for (uint i = 0; i < MWI; i++) {
    const uint r = tile_row(i, tm);
#pragma unroll
    for (uint j = 0; j < NWI; j++) {
      const uint col = tile_col(j, tn);
      if (r < p->mlim && col < p->nlim) acc[i * NWI + j] += part[(ulong)r * NWG + col];
    }
  }
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1))) void
matmul_tiled_stream(TILED_PARAMS, const ulong batch, __global float *restrict partial,
                    __global uint *restrict arrivals) {
  __local float4 al[2 * A_TILE / 4], bl[2 * B_TILE / 4];
  __local int last;
  const uint tn = get_local_id(0), tm = get_local_id(1);
  const uint m_tiles = (uint)((m + MWG - 1) / MWG), n_tiles = (uint)((n + NWG - 1) / NWG);
  const uint slices = (uint)((k + KWG - 1) / KWG), work = m_tiles * n_tiles * (uint)batch * slices;
  const uint groups = (uint)get_num_groups(0), g = (uint)get_group_id(0);
  const uint first = stream_first(g, work, groups), end = stream_first(g + 1, work, groups);
  for (uint step = first; step < end;) {
    const uint tile = step / slices, s0 = step - tile * slices;
    const uint s1 = min(slices, s0 + (end - step));
    const uint rest = tile / n_tiles, tile_n = tile - rest * n_tiles;
    const uint product = rest / m_tiles, tile_m = rest - product * m_tiles;
    const tile_place p = tile_at(m, n, tile_m, tile_n, product, 0);
    const ulong k0 = (ulong)s0 * KWG;
    /* the tile's parts, known before the sums are (nothing of this held beside them but two
       counts) */
    const int whole = s0 == 0 && s1 == slices;
    const uint owner = stream_owner(tile * slices, work, groups);
    const uint parts =
        whole ? 1 : stream_owner(tile * slices + slices - 1, work, groups) - owner + 1;
    float acc[MWI * NWI];
    accumulate_tile(a_tile(a, a_off + (ulong)product * stride_a, lda, p.m0, k0), lda,
                    b_tile(b, b_off + (ulong)product * stride_b, ldb, p.n0, k0), ldb,
                    min((ulong)s1 * KWG, k) - k0, p.mlim, p.nlim, p.edge, 1, 0, 0, 0,
                    (__local float *)al, (__local float *)bl, acc);
    /* A part goes to the slot of its side; a whole tile counts in as its own last part (every
       segment reaches arrive_last's barriers, none of them inside a branch) */
    if (!whole) store_partial(stream_slot(partial, g, step == first), NWG, &p, tm, tn, acc);
    if (arrive_last(arrivals, tile, parts, &last)) {
      if (!whole) {
#pragma unroll
        for (uint i = 0; i < MWI * NWI; i++)
          acc[i] = 0.0f;
        for (uint w = owner; w < owner + parts; w++)
          add_part(stream_slot(partial, w, stream_first(w, work, groups) >= tile * slices), &p, tm,
                   tn, acc);
      }
      store_tile(c, c_off, ldc, stride_c, &p, p.edge, alpha, beta, bias, bias_off, acc);
    }
    /* the next segment's first slice goes into the local tiles this one's last slice read */
    barrier(CLK_LOCAL_MEM_FENCE);
    step = tile * slices + s1;
  }
}
#endif

#endif /* SPLIT_K */
