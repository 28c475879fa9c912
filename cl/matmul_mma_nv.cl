/*
 * matmul_mma_nv.cl: GEMM on NVIDIA's matrix units (tensor cores) through inline PTX,
 * C = act(alpha * op(A) * op(B) + beta * C + bias), row-major, in the conventions of matmul.cl
 * (the same arguments, by name, and the same epilogue): C is m x n; A is stored m x k
 * (TRANS_A = 0) or k x m (TRANS_A = 1), B is stored k x n (TRANS_B = 0) or n x k (TRANS_B = 1);
 * element (r, c) of a stored matrix X is X[x_off + r * ldx + c], offsets and strides in
 * elements, every index computed in 64 bits. beta == 0 never reads C (NaNs in C do not
 * propagate); k == 0 gives act(beta * C + bias). A strided batch runs in one launch: product i
 * uses a_off + i * stride_a, b_off + i * stride_b, c_off + i * stride_c.
 *
 * The epilogue, in registers before the one store of each element (as matmul.cl's `finish`):
 *   v = alpha * acc;  v = beta * C + v (beta != 0);  v += bias[col] (BIAS 1) or bias[row] (2);
 *   C = act(v) (ACTIVATION: ocf_activate in cl/common.cl), rounded to C_DTYPE.
 *
 * Modes (-D):
 *   AB_DTYPE 0, PRECISION 1 (TF32)    fp32 A and B, each element truncated to TF32 by
 *                                     ocf_tf32_trunc (cl/common.cl: toward zero, the low 13
 *                                     mantissa bits cleared, 10 kept; a NaN stays a NaN), the
 *                                     SIMT kernels' TF32 and what wgmma does with fp32 bits.
 *                                     In the fragments' registers, before the mma: PTX asks
 *                                     mma.sync for .tf32 operands and, unlike for wgmma, says
 *                                     nothing of raw fp32 bits, so the mask makes every
 *                                     operand a TF32 value; the select
 *                                     that keeps a NaN whose payload lies in the 13 dropped
 *                                     bits a NaN (the bare mask, like cvt.rna.tf32.f32, would
 *                                     make 0x7f800001 an infinity) costs about one instruction
 *                                     a fragment register.
 *   AB_DTYPE 0, PRECISION 2 (3XTF32)  x = big + small, big = tf32(x) rounded to nearest, ties
 *                                     away (ocf_round_tf32, cvt.rna.tf32.f32's rounding),
 *                                     small = tf32(x - big)
 *                                     (ocf_tf32_small: NaN for an infinite x, whose products
 *                                     are then NaN, as on the SIMT kernels); per mma tile
 *                                     acc += a_small b_big; acc += a_big b_small;
 *                                     acc += a_big b_big (smallest terms first; a_small b_small
 *                                     is below fp32's resolution and left out), a tile's three in
 *                                     a row or in three passes over the tiles (SPLIT3_PASSES)
 *   AB_DTYPE 1 / 2                    A and B stored as f16 / bf16 (products exact)
 *   C_DTYPE 0 / 1 / 2                 C stored as f32 / f16 / bf16, rounded to nearest even on
 *                                     store (OCF_LOAD / OCF_STORE, cl/common.cl)
 * Accumulation is fp32 in every mode.
 *
 * Needs: NVIDIA's OpenCL (its compiler takes inline PTX: `__asm__`), compute capability 8.0 or
 * higher, PTX ISA 7.0 or later: cp.async.{cg 16, ca 4}.shared.global with a src-size operand
 * (zero fill), cp.async.commit_group / wait_group, ldmatrix.sync.aligned.m8n8.x4{.trans}
 * .shared.b16, mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32,
 * mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32, cvt.rna.tf32.f32. Nothing of
 * sm_90a (wgmma, setmaxnreg). It cannot run under Oclgrind or PoCL. Another vendor's matrix
 * instructions (Intel's subgroup matrix multiply-accumulate, AMD's MFMA/WMMA) belong in another
 * file with this kernel's arguments and tile tunables (BM, BN, BK, WM, WN, STAGES).
 *
 * Launch: kernel matmul_mma, 1-D, global tiles_m * tiles_n * batch * THREADS, local THREADS,
 * THREADS = 32 * (BM / WM) * (BN / WN), tiles_m = ceil(m / BM), tiles_n = ceil(n / BN), the
 * whole grid below 2^32 work-items (group ids are 32-bit here); the batch is folded into the one
 * dimension, as in matmul.cl (some devices cap the other dimensions at 65535 workgroups).
 * Workgroup g computes product g / (tiles_m * tiles_n), tile tile_of(g % (tiles_m * tiles_n))
 * (GROUP_M tile rows at a time).
 *
 * One workgroup computes one BM x BN tile of C with WARPS_M x WARPS_N warps; warp (wm, wn) owns
 * the WM x WN block at rows wm * WM, columns wn * WN of the tile, as (WM / 16) x (WN / 8)
 * mma tiles of 16 x 8. K is walked in slices of BK; STAGES slices of A and B are in local
 * memory at once: while the warps multiply slice kt, cp.async fills slice kt + STAGES - 1.
 * The copies of that slice are issued after the mma of k step COPY_AT - 1 of slice kt
 * (COPY_AT 0: before the first, as the first GPU run measured), so that the matrix units are
 * busy while the work-items work out the copies' addresses. A workgroup whose tile lies wholly
 * inside C copies its full K slices without the bounds arithmetic (INTERIOR_FAST, a uniform
 * choice per slice); edge tiles and the last slice of a ragged k take the guarded copies.
 *
 *                 k0     k0+BK                     n0                    n0+BN
 *                 +--------+                  k0   +-----------------------+
 *                 | A slice|                       |  B slice (BK x BN)    |
 *                 | BM x BK|                  k0+BK+-----------------------+
 *                 |        |                       +-----------+-----------+
 *            m0   |        |    C tile, warps:     | warp 0    | warp 1    |  WM x WN each
 *                 |        |                       | (0, 0)    | (0, 1)    |
 *                 |        |                       +-----------+-----------+
 *                 |        |                       | warp 2    | warp 3    |
 *            m0+BM+--------+                       +-----------+-----------+
 *
 *   local memory: [ stage 0: A tile | B tile ][ stage 1: A | B ] ... [ stage STAGES-1 ]
 *
 * Each tile is stored in rows of 16-byte chunks, a row running along the operand's contiguous
 * dimension in global memory, so that one cp.async copies 16 contiguous bytes:
 *   A: TRANS_A = 0: BM rows (m) of BK elements;  TRANS_A = 1: BK rows (k) of BM elements;
 *   B: TRANS_B = 0: BK rows (k) of BN elements;  TRANS_B = 1: BN rows (n) of BK elements.
 * Chunk c of row r sits at chunk position r * CH + (c ^ f(r)) (CH chunks a row), an XOR swizzle:
 *   CH >= 8: f(r) = ((r & 3) << 1) | ((r >> 2) & 1)    (a permutation of 0..7)
 *   CH == 4: f(r) = (r >> 1) & 3;   CH == 2: f(r) = (r >> 2) & 1;   CH == 1: f(r) = 0
 * The 8 row addresses of one ldmatrix 8x8 matrix (8 consecutive rows from a multiple of 8, one
 * chunk) and the TF32 scalar fragment reads (rows 0-3 or 4-7 of an 8-row group, two adjacent
 * chunks) then fall in 8 distinct groups of 4 banks: no bank conflicts and no padding, so the
 * stages use all of local memory (48 KiB: 128 x 128 tiles, 3 stages of BK 32 at 16 bits).
 *
 * Fragments, from the PTX ISA ("Matrix Fragments for mma.m16n8k8 / mma.m16n8k16"), with
 * g = lane >> 2, t = lane & 3, (row, column) of the 16 x 8 x K mma tile:
 *   m16n8k8 .tf32   a0 (g, t)    a1 (g + 8, t)    a2 (g, t + 4)    a3 (g + 8, t + 4)
 *                   b0 (k t, n g)    b1 (k t + 4, n g)
 *   m16n8k16 16-bit (each register two elements, the lower k in the low half)
 *                   a0 (g, 2t..2t+1)  a1 (g + 8, 2t..)  a2 (g, 2t + 8..)  a3 (g + 8, 2t + 8..)
 *                   b0 (k 2t..2t+1, n g)    b1 (k 2t + 8.., n g)
 *   accumulators    c0 (g, 2t)   c1 (g, 2t + 1)   c2 (g + 8, 2t)   c3 (g + 8, 2t + 1)
 * ldmatrix .x4: lanes 8i .. 8i + 7 give the row addresses of 8x8 matrix i (of 16-bit elements,
 * one 16-byte chunk a row); register i of lane l gets row l >> 2, elements 2(l & 3) and
 * 2(l & 3) + 1 (.trans: rows 2(l & 3) and 2(l & 3) + 1 of column l >> 2). A 32-bit element is
 * two 16-bit ones, so the plain form also loads TF32 fragments when k is the row dimension:
 *   A, rows m (TRANS_A = 0): matrices (m 0-7, k chunk 0), (m 8-15, chunk 0), (m 0-7, chunk 1),
 *       (m 8-15, chunk 1) of the k step are a0 a1 a2 a3, for TF32 (4 k a chunk) and 16-bit (8).
 *   A, rows k (TRANS_A = 1): 16-bit: .trans of (k 0-7, m 0-7), (k 0-7, m 8-15), (k 8-15, m 0-7),
 *       (k 8-15, m 8-15) are a0..a3; TF32: 32-bit local reads at the table's (m, k).
 *   B, rows n (TRANS_B = 1): matrices (n tile j, k chunk 0), (j, chunk 1), (j + 1, chunk 0),
 *       (j + 1, chunk 1) are b0 b1 of n tiles j and j + 1.
 *   B, rows k (TRANS_B = 0): 16-bit: .trans of (k 0-7, tile j), (k 8-15, j), (k 0-7, j + 1),
 *       (k 8-15, j + 1); TF32: 32-bit local reads at the table's (k, n).
 *
 * How each operand reaches local memory (A_LOAD, B_LOAD; the host picks per operand):
 *   16  cp.async of 16 bytes (.cg: cached in L2 only). Needs the operand's offset, leading
 *       dimension and batch stride to be multiples of 16 bytes (4 floats, 8 halves) and the
 *       buffer 16-byte aligned.
 *   4   cp.async of 4 bytes (.ca). Any fp32 operand; a 16-bit one with even offset, leading
 *       dimension and batch stride.
 *   0   plain loads, element by element, through registers: any offset and stride (slower:
 *       the loads are not asynchronous).
 * m, n and k are arbitrary: a copy of elements outside op(A) or op(B) reads nothing and fills
 * zeros (cp.async's src-size), so the k remainder adds nothing, and edge tiles store only what
 * lies inside C. Every work-item reaches every barrier.
 *
 * Local memory: STAGES * (BM * BK + BK * BN) * element bytes; with BM = BN = 128, BK = 32 at
 * 16 bits or BK = 16 at fp32, and 3 stages, 48 KiB (NVIDIA's compiler adds 16 bytes of its own,
 * CL_KERNEL_LOCAL_MEM_SIZE 49168, and it launches). The H200's driver also built, launched and
 * ran right static arrays of 64 and 96 KiB though the device reports 48 KiB: the library plans
 * such configurations only after its own probe ran one on the context (src/runtime/
 * mma_probe.c). Registers: the
 * accumulators take WM * WN / 32 per work-item (128 for 64 x 64), the fragments of one k step
 * (WM / 16) * 4 + (WN / 8) * 2 (twice that for 3XTF32).
 */

/* ---- tunables (the host passes every one: the schema holds the defaults) ---- */

/* A and B storage type: 0 f32 (then PRECISION applies), 1 f16, 2 bf16 (ocf_dtype). */
#ifndef AB_DTYPE
#error "AB_DTYPE: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* C storage type: 0 f32, 1 f16, 2 bf16. */
#ifndef C_DTYPE
#error "C_DTYPE: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* For fp32 A and B: 1 TF32, 2 3XTF32 (ocf_precision). */
#ifndef PRECISION
#error "PRECISION: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* 1: A is stored k x m. */
#ifndef TRANS_A
#error "TRANS_A: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* 1: B is stored n x k. */
#ifndef TRANS_B
#error "TRANS_B: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* Rows of the C tile of one workgroup; a multiple of WM. */
#ifndef BM
#error "BM: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* Columns of the C tile; a multiple of WN. */
#ifndef BN
#error "BN: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* Depth of one K slice in local memory; a multiple of the mma's k (8 for TF32, 16 at 16 bits). */
#ifndef BK
#error "BK: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* Rows of one warp's block of C; a multiple of 16. */
#ifndef WM
#error "WM: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* Columns of one warp's block of C; a multiple of 16. */
#ifndef WN
#error "WN: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* K slices in local memory at once (2 to 8): STAGES - 1 are in flight during a multiply. */
#ifndef STAGES
#error "STAGES: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* How A and B reach local memory: 16, 4 or 0 (see above). */
#ifndef A_LOAD
#error "A_LOAD: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
#ifndef B_LOAD
#error "B_LOAD: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* The k step of a slice after whose mma the next slice's copies are issued: 0 before the first
   mma (the copies' address arithmetic then delays the matrix units), 1 .. BK / MMA_K after that
   step (a value above the slice's k steps means after the last). */
#ifndef COPY_AT
#error "COPY_AT: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* 3XTF32: 1 issues the three products as three passes over the warp's tiles (see
   multiply_step), 0 a tile's three in a row. */
#ifndef SPLIT3_PASSES
#error "SPLIT3_PASSES: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* 1: a workgroup whose tile lies wholly inside C copies its full K slices unguarded. */
#ifndef INTERIOR_FAST
#error "INTERIOR_FAST: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* The epilogue (as in matmul.cl): ocf_activation (0 none, 1 relu, 2 gelu erf, 3 gelu tanh,
   4 silu); 0 no bias, 1 a bias per column of C (n values), 2 per row (m values); its type. */
#ifndef ACTIVATION
#error "ACTIVATION: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
#ifndef BIAS
#error "BIAS: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
#ifndef BIAS_DTYPE
#error "BIAS_DTYPE: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* 1: the 16-byte copies also ask L2 to fetch the whole 128-byte line (.L2::128B, PTX 7.4). */
#ifndef CP_L2_PREFETCH
#error "CP_L2_PREFETCH: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* Tile rows per group of the launch order: consecutive workgroups walk GROUP_M tile rows down
   before moving right, so the tiles in flight share slices of A and B in L2. */
#ifndef GROUP_M
#error "GROUP_M: the host passes every tunable (src/plan/plan_matmul_mma.c)"
#endif
/* How the shared-space address of a local pointer is taken for the PTX operands: 0 converts the
   pointer to an integer (the value of an OpenCL local pointer is its shared-space address),
   1 applies cvta.to.shared to it as if it were generic. The lab's probes say which works. */
#ifndef OCF_MMA_LADDR
#define OCF_MMA_LADDR 0
#endif
/* How the global address for cp.async is taken: 0 the pointer's value, 1 cvta.to.global. */
#ifndef OCF_MMA_GADDR
#define OCF_MMA_GADDR 0
#endif

/* ---- derived ---- */

#if AB_DTYPE == 0
#define EB 4    /* bytes of one element of A and B */
#define MMA_K 8 /* k of one mma: m16n8k8 */
#else
#define EB 2
#define MMA_K 16 /* m16n8k16 */
#endif
#define CE (16 / EB) /* elements in a 16-byte chunk */
#define TF32_MODE (AB_DTYPE == 0)
#define SPLIT3 (AB_DTYPE == 0 && PRECISION == 2)
#define WARPS_M (BM / WM)
#define WARPS_N (BN / WN)
#define THREADS (32 * WARPS_M * WARPS_N)
#define MT (WM / 16)        /* mma tiles along m in a warp block */
#define NT (WN / 8)         /* mma tiles along n */
#define KSTEPS (BK / MMA_K) /* mma k steps in one slice */
#define A_KROWS TRANS_A     /* 1: the A tile's rows run along k */
#define B_KROWS (!TRANS_B)  /* 1: the B tile's rows run along k */
#define A_ROWS (A_KROWS ? BK : BM)
#define A_CH ((A_KROWS ? BM : BK) / CE) /* chunks in one row of the A tile */
#define B_ROWS (B_KROWS ? BK : BN)
#define B_CH ((B_KROWS ? BN : BK) / CE)
#define A_CHUNKS (A_ROWS * A_CH)
#define B_CHUNKS (B_ROWS * B_CH)
#define STAGE_CHUNKS (A_CHUNKS + B_CHUNKS)
#define SMEM_CHUNKS (STAGES * STAGE_CHUNKS)             /* 16-byte chunks of local memory */
#define COPY_STEP (COPY_AT < KSTEPS ? COPY_AT : KSTEPS) /* COPY_AT within the slice's k steps */

#if WM % 16 != 0 || WN % 16 != 0 || BM % WM != 0 || BN % WN != 0
#error "WM and WN must be multiples of 16 dividing BM and BN"
#endif
#if THREADS > 256
#error "at most 8 warps: NVIDIA's OpenCL runs at most 256 work-items a workgroup"
#endif
#if BK % MMA_K != 0 || BK < MMA_K
#error "BK must be a multiple of the mma's k (8 for TF32, 16 at 16 bits)"
#endif
#if STAGES < 2 || STAGES > 8
#error "STAGES must be 2 to 8"
#endif
#if (A_CH != 1 && A_CH != 2 && A_CH != 4 && A_CH % 8 != 0) || \
    (B_CH != 1 && B_CH != 2 && B_CH != 4 && B_CH % 8 != 0)
#error "a tile row must be 1, 2, 4 or a multiple of 8 chunks of 16 bytes (the swizzle)"
#endif
#if (A_LOAD != 16 && A_LOAD != 4 && A_LOAD != 0) || (B_LOAD != 16 && B_LOAD != 4 && B_LOAD != 0)
#error "A_LOAD and B_LOAD must be 16, 4 or 0"
#endif

/* Every helper is forced inline: the accumulator and fragment arrays it is handed must end up
   in registers, which needs constant indices after the caller's loops are unrolled. The lab
   probes which spelling the compiler takes (OCF_MMA_INLINE 0: static inline always_inline,
   1: always_inline alone, 2: none, relying on the compiler's own inlining). */
#ifndef OCF_MMA_INLINE
#define OCF_MMA_INLINE 0
#endif
#if OCF_MMA_INLINE == 0
#define INLINE static inline __attribute__((always_inline))
#elif OCF_MMA_INLINE == 1
#define INLINE __attribute__((always_inline))
#else
#define INLINE
#endif

/* ---- index arithmetic (pure; the lab's CPU emulation includes this part alone) ---- */

/* Chunk position, within its row, of chunk c of row r in a tile of ch chunks a row. */
INLINE uint swizzle(const uint r, const uint c, const uint ch) {
  if (ch >= 8) return c ^ (((r & 3u) << 1) | ((r >> 2) & 1u));
  if (ch == 4) return c ^ ((r >> 1) & 3u);
  if (ch == 2) return c ^ ((r >> 2) & 1u);
  return c;
}

/* Byte offset, within a tile of ch chunks a row, of element e (element size eb) of row r. */
INLINE uint tile_byte(const uint r, const uint e, const uint ch, const uint eb) {
  const uint ce = 16u / eb;
  return (r * ch + swizzle(r, e / ce, ch)) * 16u + (e % ce) * eb;
}

/* The C tile (tm, tn) that workgroup `id` computes: groups of GROUP_M tile rows, column by
   column within a group, so that neighbouring workgroups share A rows and B columns. */
INLINE void tile_of(const uint id, const uint tiles_m, const uint tiles_n, uint *tm, uint *tn) {
  const uint per_group = GROUP_M * tiles_n;
  const uint first = (id / per_group) * GROUP_M;
  const uint rows = tiles_m - first < GROUP_M ? tiles_m - first : GROUP_M;
  const uint in_group = id % per_group;
  *tm = first + in_group % rows;
  *tn = in_group / rows;
}

/* Copy unit u of a tile of `rows` rows, ch chunks a row, copied `unit` bytes at a time (0: 16,
   element by element): its row and first element within the row. */
INLINE void unit_place(const uint u, const uint ch, const uint unit, const uint eb, uint *row,
                       uint *elem) {
  const uint bytes = unit == 0 ? 16u : unit;
  const uint per_row = ch * 16u / bytes;
  *row = u / per_row;
  *elem = (u % per_row) * (bytes / eb);
}

/* Elements of a copy unit that lie inside the operand: the unit holds `n_elems` elements from
   (row, elem) of the tile. krows: the tile's rows run along k (row = k - k0), else along x
   (m or n; row = x - x0); the other coordinate is `elem`. xlim: the operand's extent along x
   left from x0 (at most the tile's), krem: along k left from k0. */
INLINE uint unit_valid(const int krows, const uint row, const uint elem, const uint n_elems,
                       const ulong xlim, const ulong krem) {
  const ulong along_row = krows ? xlim : krem; /* the extent the row runs along */
  const ulong across = krows ? krem : xlim;    /* the extent rows are counted in */
  if (row >= across || elem >= along_row) return 0;
  return along_row - elem < n_elems ? (uint)(along_row - elem) : n_elems;
}

/* Element offset, from the operand's element (x0, k0), of a unit at (row, elem) of its tile: the
   tile's rows are rows of the stored operand, whichever of x and k they run along. */
INLINE ulong unit_source(const uint row, const uint elem, const ulong ld) {
  return (ulong)row * ld + elem;
}

/* Local byte offset, within an A tile, of what lane `lane` addresses to load the A fragments of
   mma tile mt (rows wm * WM + mt * 16 ..) at k step ks. ldmatrix forms (16-bit, or TF32 with
   rows along m): the lane's row address, q unused. TF32 with rows along k: the address of
   fragment register q. */
INLINE uint a_frag_byte(const uint lane, const uint wm, const uint mt, const uint ks,
                        const uint q) {
  const uint m_base = wm * WM + mt * 16;
  if (!A_KROWS) /* plain ldmatrix: matrix lane >> 3 = (m half, chunk) */
    return tile_byte(m_base + (lane & 15u), (ks * 2 + (lane >> 4)) * CE, A_CH, EB);
  if (EB == 2) /* ldmatrix.trans: matrix i = lane >> 3 is (k half i >> 1, m half i & 1) */
    return tile_byte(ks * 16 + (lane & 7u) + ((lane >> 4) << 3), m_base + (((lane >> 3) & 1u) << 3),
                     A_CH, EB);
  /* TF32, k rows: a_q at (m g + 8 (q & 1), k t + 4 (q >> 1)) */
  return tile_byte(ks * 8 + (lane & 3u) + ((q >> 1) << 2), m_base + (lane >> 2) + ((q & 1u) << 3),
                   A_CH, EB);
}

/* Local byte offset, within a B tile, of what lane `lane` addresses to load the B fragments of
   mma tiles 2p and 2p + 1 (columns wn * WN + 16p ..) at k step ks (ldmatrix forms), or, TF32 with
   rows along k, of register q of mma tile j = 2p + (q >> 1), q & 1 its b0 / b1. */
INLINE uint b_frag_byte(const uint lane, const uint wn, const uint p, const uint ks, const uint q) {
  const uint n_base = wn * WN + p * 16;
  if (!B_KROWS) /* plain ldmatrix: matrix i = lane >> 3 is (n tile i >> 1, chunk i & 1) */
    return tile_byte(n_base + ((lane >> 4) << 3) + (lane & 7u), (ks * 2 + ((lane >> 3) & 1u)) * CE,
                     B_CH, EB);
  if (EB == 2) /* ldmatrix.trans: matrix i is (k half i & 1, n tile i >> 1) */
    return tile_byte(ks * 16 + (lane & 7u) + (((lane >> 3) & 1u) << 3), n_base + ((lane >> 4) << 3),
                     B_CH, EB);
  /* TF32, k rows: b of tile 2p + (q >> 1) at (k t + 4 (q & 1), n g) */
  return tile_byte(ks * 8 + (lane & 3u) + ((q & 1u) << 2), n_base + ((q >> 1) << 3) + (lane >> 2),
                   B_CH, EB);
}

/* Row and column, within the warp's WM x WN block, of accumulator q of mma tile (mt, nt). */
INLINE uint acc_row(const uint lane, const uint mt, const uint q) {
  return mt * 16 + (lane >> 2) + ((q >> 1) << 3);
}
INLINE uint acc_col(const uint lane, const uint nt, const uint q) {
  return nt * 8 + ((lane & 3u) << 1) + (q & 1u);
}

#ifndef OCF_MMA_INDEX_ONLY

/* ---- PTX ---- */

#ifndef OCF_ASM
#define OCF_ASM __asm__
#endif

INLINE uint local_addr(__local const void *p) {
#if OCF_MMA_LADDR == 0
  return (uint)(ulong)p;
#else
  ulong a;
  OCF_ASM("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"((ulong)p));
  return (uint)a;
#endif
}

INLINE ulong global_addr(__global const void *p) {
#if OCF_MMA_GADDR == 0
  return (ulong)p;
#else
  ulong a;
  OCF_ASM("cvta.to.global.u64 %0, %1;" : "=l"(a) : "l"((ulong)p));
  return a;
#endif
}

/* Copies `valid` bytes from src to shared address dst and zeros the rest of the 16 (4) bytes;
   valid == 0 reads nothing. */
INLINE void cp_async16(const uint dst, __global const void *src, const uint valid) {
#if CP_L2_PREFETCH
  OCF_ASM volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" ::"r"(dst),
                   "l"(global_addr(src)), "r"(valid)
                   : "memory");
#else
  OCF_ASM volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst),
                   "l"(global_addr(src)), "r"(valid)
                   : "memory");
#endif
}
INLINE void cp_async4(const uint dst, __global const void *src, const uint valid) {
  OCF_ASM volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(global_addr(src)),
                   "r"(valid)
                   : "memory");
}
INLINE void cp_async_commit(void) {
  OCF_ASM volatile("cp.async.commit_group;" ::: "memory");
}
/* Waits until at most STAGES - 2 groups of this work-item's copies are in flight. */
INLINE void cp_async_wait_stage(void) {
#if STAGES == 2
  OCF_ASM volatile("cp.async.wait_group 0;" ::: "memory");
#elif STAGES == 3
  OCF_ASM volatile("cp.async.wait_group 1;" ::: "memory");
#elif STAGES == 4
  OCF_ASM volatile("cp.async.wait_group 2;" ::: "memory");
#elif STAGES == 5
  OCF_ASM volatile("cp.async.wait_group 3;" ::: "memory");
#elif STAGES == 6
  OCF_ASM volatile("cp.async.wait_group 4;" ::: "memory");
#elif STAGES == 7
  OCF_ASM volatile("cp.async.wait_group 5;" ::: "memory");
#else
  OCF_ASM volatile("cp.async.wait_group 6;" ::: "memory");
#endif
}

INLINE void ldsm_x4(const uint addr, uint *r) {
  OCF_ASM volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(addr)
                   : "memory");
}
INLINE void ldsm_x4_trans(const uint addr, uint *r) {
  OCF_ASM volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(addr)
                   : "memory");
}

/* d += a b on one 16 x 8 tile: a four registers, b two, d four accumulators. */
INLINE void mma(float *d, const uint *a, const uint *b) {
#if AB_DTYPE == 0
  OCF_ASM("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
          "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#elif AB_DTYPE == 1
  OCF_ASM("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
          "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  OCF_ASM("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
          "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

/* x (raw bits) truncated to TF32 as the SIMT kernels truncate it (ocf_tf32_trunc, see the
   header). */
INLINE uint tf32_bits(const uint x) {
  return as_uint(ocf_tf32_trunc(as_float(x)));
}

/* The 3XTF32 split of x (raw bits): *big = tf32(x), *small = tf32(x - big) (cl/common.cl's
   ocf_tf32_small, the SIMT kernels' split). */
INLINE void split3(const uint x, uint *big, uint *small) {
  const float b = ocf_round_tf32(as_float(x));
  *big = as_uint(b);
  *small = as_uint(ocf_tf32_small(as_float(x), b));
}

/* ---- global -> local: one operand's K slice into one stage ---- */

/* One copy unit: `valid` elements from `from` (the rest zeros) to byte `at` of a tile. */
INLINE void copy_unit(const int path, __global const uchar *from, const uint valid,
                      __local uint4 *tile, const uint tile_addr, const uint at) {
  if (path == 16) {
    cp_async16(tile_addr + at, from, valid * EB);
  } else if (path == 4) {
    cp_async4(tile_addr + at, from, valid * EB);
  } else { /* element by element through registers */
    uint w[4] = {0, 0, 0, 0};
#pragma unroll
    for (uint e = 0; e < CE; e++) {
      if (e < valid) {
#if EB == 4
        w[e] = ((__global const uint *)from)[e];
#else
        w[e / 2] |= (uint)((__global const ushort *)from)[e] << (16 * (e % 2));
#endif
      }
    }
    tile[at / 16] = (uint4)(w[0], w[1], w[2], w[3]);
  }
}

/* Copies the K slice [k0, k0 + BK) of one operand into its tile of one stage. src points at the
   operand's element (x0, k0); xlim and krem are its extents left along x and k (see
   unit_valid); `zero` is any readable address, given to copies that read nothing. path: the
   A_LOAD / B_LOAD value; full: the whole slice lies inside the operand (no bounds to test; the
   callers pass a constant, so each form compiles to its own code). Work-item tid copies units
   tid, tid + THREADS, ...: when THREADS is a multiple of a row's units, these are the same
   element of every (THREADS / per_row)-th row, so one pointer stepping by that many rows serves
   them all (few registers live across the K loop); otherwise each unit's place is worked out on
   its own. */
INLINE void load_slice(const int krows, const uint rows, const uint ch, const int path,
                       const int full, __global const uchar *src, __global const uchar *zero,
                       const ulong ld, const ulong xlim, const ulong krem, __local uint4 *tile,
                       const uint tile_addr, const uint tid) {
  const uint bytes = path == 0 ? 16u : (uint)path;
  const uint per_row = ch * 16u / bytes;
  const uint units = rows * per_row;
  const uint n_elems = bytes / EB;
  if (THREADS % per_row == 0) {
    const uint row_step = THREADS / per_row;
    uint row, elem;
    unit_place(tid, ch, (uint)path, EB, &row, &elem);
    __global const uchar *from = src + unit_source(row, elem, ld) * EB;
    const ulong from_step = (ulong)row_step * ld * EB;
#pragma unroll
    for (uint i = 0; i < (units + THREADS - 1) / THREADS; i++) {
      if (units % THREADS == 0 || row < rows) {
        const uint valid = full ? n_elems : unit_valid(krows, row, elem, n_elems, xlim, krem);
        copy_unit(path, valid ? from : zero, valid, tile, tile_addr, tile_byte(row, elem, ch, EB));
      }
      row += row_step;
      from += from_step;
    }
  } else {
#pragma unroll
    for (uint i = 0; i < (units + THREADS - 1) / THREADS; i++) {
      const uint u = tid + i * THREADS;
      if (units % THREADS == 0 || u < units) {
        uint row, elem;
        unit_place(u, ch, (uint)path, EB, &row, &elem);
        const uint valid = full ? n_elems : unit_valid(krows, row, elem, n_elems, xlim, krem);
        __global const uchar *from = valid ? src + unit_source(row, elem, ld) * EB : zero;
        copy_unit(path, from, valid, tile, tile_addr, tile_byte(row, elem, ch, EB));
      }
    }
  }
}

/* Where one workgroup's operands start, and how far they reach: element (x0, 0) of A and B as
   bytes (a slice at k0 starts k0 elements further on when k runs along the tile's rows' length,
   k0 rows further when the rows run along k), their extents left along m and n, and whether
   the tile lies wholly inside C (then every full K slice is copied unguarded). */
typedef struct tile_operands {
  __global const uchar *a_x0, *b_x0, *a_any, *b_any; /* *_any: readable, for empty copies */
  ulong a_kstep, b_kstep, lda, ldb, a_xlim, b_xlim, k;
  int interior;
  __local uint4 *smem;
  uint smem_addr, tid;
} tile_operands;

/* Copies K slice `s` of both operands into stage `stage`, one cp.async commit group in all. */
INLINE void copy_stage(const tile_operands *t, const ulong s, const uint stage) {
  const ulong k0 = s * BK;
  const uint base = stage * STAGE_CHUNKS;
  __local uint4 *a_tile = t->smem + base, *b_tile = t->smem + base + A_CHUNKS;
  const uint a_addr = t->smem_addr + base * 16, b_addr = a_addr + A_CHUNKS * 16;
  __global const uchar *a_src = t->a_x0 + k0 * t->a_kstep, *b_src = t->b_x0 + k0 * t->b_kstep;
#if INTERIOR_FAST
  if (t->interior && k0 + BK <= t->k) {
    load_slice(A_KROWS, A_ROWS, A_CH, A_LOAD, 1, a_src, t->a_any, t->lda, BM, BK, a_tile, a_addr,
               t->tid);
    load_slice(B_KROWS, B_ROWS, B_CH, B_LOAD, 1, b_src, t->b_any, t->ldb, BN, BK, b_tile, b_addr,
               t->tid);
    return;
  }
#endif
  load_slice(A_KROWS, A_ROWS, A_CH, A_LOAD, 0, a_src, t->a_any, t->lda, t->a_xlim, t->k - k0,
             a_tile, a_addr, t->tid);
  load_slice(B_KROWS, B_ROWS, B_CH, B_LOAD, 0, b_src, t->b_any, t->ldb, t->b_xlim, t->k - k0,
             b_tile, b_addr, t->tid);
}

/* ---- local -> registers -> matrix units: one K slice ---- */

/* The A fragments of the warp's MT mma tiles at k step ks, as raw 32-bit registers. */
INLINE void load_a_frags(__local const uint4 *tile, const uint tile_addr, const uint lane,
                         const uint wm, const uint ks, uint af[MT][4]) {
#pragma unroll
  for (uint mt = 0; mt < MT; mt++) {
#if !A_KROWS
    ldsm_x4(tile_addr + a_frag_byte(lane, wm, mt, ks, 0), af[mt]);
#elif EB == 2
    ldsm_x4_trans(tile_addr + a_frag_byte(lane, wm, mt, ks, 0), af[mt]);
#else
#pragma unroll
    for (uint q = 0; q < 4; q++)
      af[mt][q] = ((__local const uint *)tile)[a_frag_byte(lane, wm, mt, ks, q) / 4];
#endif
  }
}

/* The B fragments of the warp's NT mma tiles at k step ks. */
INLINE void load_b_frags(__local const uint4 *tile, const uint tile_addr, const uint lane,
                         const uint wn, const uint ks, uint bf[NT][2]) {
#pragma unroll
  for (uint p = 0; p < NT / 2; p++) {
#if !B_KROWS || EB == 2
    uint r[4];
#if !B_KROWS
    ldsm_x4(tile_addr + b_frag_byte(lane, wn, p, ks, 0), r);
#else
    ldsm_x4_trans(tile_addr + b_frag_byte(lane, wn, p, ks, 0), r);
#endif
    bf[2 * p][0] = r[0];
    bf[2 * p][1] = r[1];
    bf[2 * p + 1][0] = r[2];
    bf[2 * p + 1][1] = r[3];
#else
#pragma unroll
    for (uint q = 0; q < 4; q++)
      bf[2 * p + (q >> 1)][q & 1] =
          ((__local const uint *)tile)[b_frag_byte(lane, wn, p, ks, q) / 4];
#endif
  }
}

/* TF32 inputs truncated (TF32 mode), in the fragments' registers. */
INLINE void round_frags(uint af[MT][4], uint bf[NT][2]) {
#if TF32_MODE && !SPLIT3
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint q = 0; q < 4; q++)
      af[mt][q] = tf32_bits(af[mt][q]);
#pragma unroll
  for (uint nt = 0; nt < NT; nt++)
#pragma unroll
    for (uint q = 0; q < 2; q++)
      bf[nt][q] = tf32_bits(bf[nt][q]);
#else
  (void)af, (void)bf;
#endif
}

/* acc += the warp's part of k step ks of one K slice (stage tiles a_tile, b_tile). 3XTF32 with
   SPLIT3_PASSES runs its three products as three passes over the warp's mma tiles, so that
   consecutive mma instructions never wait on one another's accumulators (without: a tile's
   three one after the other, as measured); each accumulator gets its products smallest first
   either way. */
INLINE void multiply_step(__local const uint4 *a_tile, const uint a_addr,
                          __local const uint4 *b_tile, const uint b_addr, const uint lane,
                          const uint wm, const uint wn, const uint ks, float *acc) {
  uint af[MT][4], bf[NT][2];
  load_a_frags(a_tile, a_addr, lane, wm, ks, af);
  load_b_frags(b_tile, b_addr, lane, wn, ks, bf);
#if SPLIT3
  uint a_lo[MT][4], b_lo[NT][2]; /* the small parts; af, bf become the big ones */
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint q = 0; q < 4; q++)
      split3(af[mt][q], &af[mt][q], &a_lo[mt][q]);
#pragma unroll
  for (uint nt = 0; nt < NT; nt++)
#pragma unroll
    for (uint q = 0; q < 2; q++)
      split3(bf[nt][q], &bf[nt][q], &b_lo[nt][q]);
#if SPLIT3_PASSES
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint nt = 0; nt < NT; nt++)
      mma(acc + (mt * NT + nt) * 4, a_lo[mt], bf[nt]);
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint nt = 0; nt < NT; nt++)
      mma(acc + (mt * NT + nt) * 4, af[mt], b_lo[nt]);
#else /* the three products of a tile one after the other */
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint nt = 0; nt < NT; nt++) {
      float *d = acc + (mt * NT + nt) * 4;
      mma(d, a_lo[mt], bf[nt]);
      mma(d, af[mt], b_lo[nt]);
      mma(d, af[mt], bf[nt]);
    }
#endif
#else
  round_frags(af, bf);
#endif
#if !SPLIT3 || SPLIT3_PASSES /* the big products' pass (TF32 and 16-bit: the only one) */
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint nt = 0; nt < NT; nt++)
      mma(acc + (mt * NT + nt) * 4, af[mt], bf[nt]);
#endif
}

/* ---- registers -> C ---- */

#define C_T OCF_STORAGE(C_DTYPE)
#define BIAS_T OCF_STORAGE(BIAS_DTYPE)

/* act(alpha * sum + beta * c_old + bias), as matmul.cl's finish; c_old is read by the caller
   only when beta != 0. */
INLINE float finish(const float sum, const float alpha, const float beta, const float c_old,
                    const float bias_value) {
  return ocf_matmul_finish(sum, alpha, beta, c_old, bias_value, BIAS != 0, ACTIVATION);
}

/* The bias of element (row, col) of C (0 without one). */
INLINE float bias_of(__global const BIAS_T *bias, const ulong bias_off, const ulong row,
                     const ulong col) {
#if BIAS == 1
  return OCF_LOAD(BIAS_DTYPE, bias, bias_off + col);
#elif BIAS == 2
  return OCF_LOAD(BIAS_DTYPE, bias, bias_off + row);
#else
  (void)bias, (void)bias_off, (void)row, (void)col;
  return 0.0f;
#endif
}

/* C[i] (and C[i + 1] when two) of row `row`, columns col and col + 1, finished from v0 and v1;
   C is read only when beta != 0. pair: i is even-aligned for a float2 access (f32 C only). */
INLINE void store_c(__global C_T *c, const ulong i, const int two, const int pair, const float v0,
                    const float v1, const float alpha, const float beta,
                    __global const BIAS_T *bias, const ulong bias_off, const ulong row,
                    const ulong col) {
  const float b0 = bias_of(bias, bias_off, row, col);
#if C_DTYPE == 0
  if (two && pair) {
    __global float2 *p = (__global float2 *)(c + i);
    const float2 old = beta != 0.0f ? *p : (float2)(0.0f);
    *p = (float2)(finish(v0, alpha, beta, old.x, b0),
                  finish(v1, alpha, beta, old.y, bias_of(bias, bias_off, row, col + 1)));
    return;
  }
#endif
  OCF_STORE(C_DTYPE, c, i,
            finish(v0, alpha, beta, beta != 0.0f ? OCF_LOAD(C_DTYPE, c, i) : 0.0f, b0));
  if (two)
    OCF_STORE(C_DTYPE, c, i + 1,
              finish(v1, alpha, beta, beta != 0.0f ? OCF_LOAD(C_DTYPE, c, i + 1) : 0.0f,
                     bias_of(bias, bias_off, row, col + 1)));
}

/* Writes the warp's block (rows r0 .., columns c0 .. of C), only what lies inside m x n. */
INLINE void store_block(__global C_T *c, const ulong ldc, const ulong m, const ulong n,
                        const ulong r0, const ulong c0, const uint lane, const int pairs,
                        const float alpha, const float beta, __global const BIAS_T *bias,
                        const ulong bias_off, const float *acc) {
#pragma unroll
  for (uint mt = 0; mt < MT; mt++)
#pragma unroll
    for (uint h = 0; h < 2; h++) {
      const ulong row = r0 + acc_row(lane, mt, 2 * h);
      if (row < m) {
#pragma unroll
        for (uint nt = 0; nt < NT; nt++) {
          const ulong col = c0 + acc_col(lane, nt, 2 * h);
          const float *d = acc + (mt * NT + nt) * 4 + 2 * h;
          if (col < n)
            store_c(c, row * ldc + col, col + 1 < n, pairs, d[0], d[1], alpha, beta, bias, bias_off,
                    row, col);
        }
      }
    }
}

/* ---- the kernel ---- */

#define AB_T OCF_STORAGE(AB_DTYPE)

#ifdef OCF_KERNEL_matmul_mma
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
matmul_mma(const ulong m, const ulong n, const ulong k, const float alpha,
           __global const AB_T *restrict a, const ulong a_off, const ulong lda,
           const ulong stride_a, __global const AB_T *restrict b, const ulong b_off,
           const ulong ldb, const ulong stride_b, const float beta, __global C_T *restrict c,
           const ulong c_off, const ulong ldc, const ulong stride_c,
           __global const BIAS_T *restrict bias, const ulong bias_off) {
  /* 16-byte aligned (by its type, and asked for): every cp.async of 16 bytes and every ldmatrix
     row address is a whole chunk of it. NVIDIA's compiler puts 4 bytes of its own at the start
     of the shared window (a 4-byte aligned array lands at 0x404), so the alignment is what
     keeps them legal. */
  __local uint4 smem[SMEM_CHUNKS] __attribute__((aligned(16)));
  const uint tiles_m = (uint)((m + BM - 1) / BM), tiles_n = (uint)((n + BN - 1) / BN);
  const uint tiles = tiles_m * tiles_n;
  if (tiles == 0) return; /* m or n is 0: nothing to write (the whole workgroup leaves) */
  const uint group = (uint)get_group_id(0);
  const uint product = group / tiles;
  uint tm, tn;
  tile_of(group - product * tiles, tiles_m, tiles_n, &tm, &tn);
  const uint tid = get_local_id(0), lane = tid % 32, warp = tid / 32;
  const uint wm = warp / WARPS_N, wn = warp % WARPS_N;
  const ulong m0 = (ulong)tm * BM, n0 = (ulong)tn * BN;
  const ulong a_at = a_off + product * stride_a, b_at = b_off + product * stride_b;
  const ulong c_at = c_off + product * stride_c;

  tile_operands t;
  t.a_any = (__global const uchar *)a;
  t.b_any = (__global const uchar *)b;
  t.a_x0 = t.a_any + (a_at + (A_KROWS ? m0 : m0 * lda)) * EB;
  t.b_x0 = t.b_any + (b_at + (B_KROWS ? n0 : n0 * ldb)) * EB;
  t.a_kstep = (A_KROWS ? lda : 1) * EB;
  t.b_kstep = (B_KROWS ? ldb : 1) * EB;
  t.lda = lda, t.ldb = ldb, t.k = k;
  t.a_xlim = min((ulong)BM, m - m0);
  t.b_xlim = min((ulong)BN, n - n0);
  t.interior = t.a_xlim == BM && t.b_xlim == BN;
  t.smem = smem;
  t.smem_addr = local_addr(smem);
  t.tid = tid;

  float acc[MT * NT * 4];
#pragma unroll
  for (uint i = 0; i < MT * NT * 4; i++)
    acc[i] = 0.0f;

  const ulong slices = (k + BK - 1) / BK;
  /* Prologue: slices 0 .. STAGES - 2 in flight, one commit group each (empty past the end). */
#pragma unroll
  for (uint s = 0; s + 1 < STAGES; s++) {
    if (s < slices) copy_stage(&t, s, s);
    cp_async_commit();
  }

  uint read_stage = 0, write_stage = STAGES - 1;
  for (ulong kt = 0; kt < slices; kt++) {
    /* Slice kt has landed for every work-item, and every warp is done with slice kt - 1,
       whose stage the copies of slice kt + STAGES - 1 refill. */
    cp_async_wait_stage();
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong next = kt + STAGES - 1;
    const uint base = read_stage * STAGE_CHUNKS;
    __local const uint4 *a_tile = smem + base, *b_tile = smem + base + A_CHUNKS;
    const uint a_addr = t.smem_addr + base * 16, b_addr = a_addr + A_CHUNKS * 16;
#pragma unroll
    for (uint ks = 0; ks <= KSTEPS; ks++) {
      if (ks == COPY_STEP) { /* one commit group per slice, empty past the end */
        if (next < slices) copy_stage(&t, next, write_stage);
        cp_async_commit();
      }
      if (ks < KSTEPS) multiply_step(a_tile, a_addr, b_tile, b_addr, lane, wm, wn, ks, acc);
    }
    read_stage = read_stage + 1 == STAGES ? 0 : read_stage + 1;
    write_stage = write_stage + 1 == STAGES ? 0 : write_stage + 1;
  }

  const int pairs = ((c_at | ldc) & 1) == 0;
  store_block(c + c_at, ldc, m, n, m0 + wm * WM, n0 + wn * WN, lane, pairs, alpha, beta, bias,
              bias_off, acc);
}
#endif

#endif /* OCF_MMA_INDEX_ONLY */
