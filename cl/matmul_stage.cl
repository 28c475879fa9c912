/*
 * matmul_stage.cl: the staging step of ocf_matmul's staged wgmma plans (issue 18; planned by
 * src/plan/plan_matmul_wgmma.c, rule 4 there). Portable OpenCL C: it runs on every device, and
 * the suites test it on PoCL and Oclgrind, though only the H200's plans run it.
 *
 * Hopper's TF32 wgmma reads K-major operands only, and truncates the fp32 bits it reads to TF32.
 * This kernel writes, for every product of a batch, the fp32 operands of one TF32 GEMM into
 * scratch, each as K-major rows of `lds` floats (lds = K' rounded up to 4, the columns past K'
 * zeros):
 *
 *   PARTS 1 (TF32):   A'(i, p) = trunc(A(i, p)), B'(j, p) = trunc(B(p, j))       K' = k
 *   PARTS 3 (3XTF32): with x = big + small (ocf_round_tf32, ocf_tf32_small of cl/common.cl:
 *                     the split every 3XTF32 kernel makes, both parts exact TF32 values)
 *                     A' = [A_small, A_big, A_big], B' = [B_big, B_small, B_big]   K' = 3k
 *
 * so that A' B'^T = A_small B_big + A_big B_small + A_big B_big, the 3XTF32 product (A_small
 * B_small is below fp32's resolution and left out, as on the mma.sync kernel), the small terms
 * first along K'. Every value written is an exact TF32 value, so the matrix unit's truncation
 * keeps it as it is (a NaN too: both splits set its quiet bit).
 *
 * STAGE_DTYPE 1 or 2 (f16, bf16; PARTS 1): the 16-bit operands copied bit for bit into K-major
 * rows whose starts lie on 128-byte lines (the host makes lds a multiple of 64), which the wgmma
 * kernel reads at its interior rate where the caller's rows were off those lines (a row's 128
 * bytes of a K slice then span two lines: bf16 4096^3 with ldb 4104 ran at 476 TFLOP/s against
 * 706, 2026-12-03), off 16-byte chunks altogether, or (A) transposed.
 *
 * Scratch layout (in elements of the staged type, floats for fp32): A' of product q, row i at (q m
 * + i) lds; B' of product q, row j at b_base + (q n + j) lds, b_base = batch m lds when A is staged
 * (STAGE_A 1), else 0 (A is then read as it lies: only B is staged).
 *
 * Sources: element (i, p) of op(A) is A[a_off + q stride_a + i lda + p], or + p lda + i with
 * STAGE_TRANS_A; element (p, j) of op(B) is B[b_off + q stride_b + p ldb + j], or + j ldb + p with
 * STAGE_TRANS_B. Any offsets, leading dimensions and strides (no alignment).
 *
 * Launch: 2-D, local (32, 8), global (ceil(k / 32) 32, ceil(R / 32) 8) with R = batch (m + n)
 * rows (batch n without STAGE_A): each workgroup moves a 32 x 32 tile of (row, p) through local
 * memory, read along the source's contiguous side and written along K.
 */

#ifndef STAGE_TRANS_A
#error "STAGE_TRANS_A: the host passes every tunable (src/plan/plan_matmul_wgmma.c)"
#endif
#ifndef STAGE_TRANS_B
#error "STAGE_TRANS_B: the host passes every tunable (src/plan/plan_matmul_wgmma.c)"
#endif
#ifndef STAGE_A
#error "STAGE_A: the host passes every tunable (src/plan/plan_matmul_wgmma.c)"
#endif
#ifndef PARTS
#error "PARTS: the host passes every tunable (src/plan/plan_matmul_wgmma.c)"
#endif
#if PARTS != 1 && PARTS != 3
#error "PARTS must be 1 or 3"
#endif
/* The operands' storage type (ocf_dtype): 0 fp32 (TF32 or 3XTF32), 1 f16, 2 bf16 (copied). */
#ifndef STAGE_DTYPE
#error "STAGE_DTYPE: the host passes every tunable (src/plan/plan_matmul_wgmma.c)"
#endif
#if STAGE_DTYPE == 0
#define ST_T float
#else
#define ST_T ushort /* the 16-bit values' bits, never converted */
#if PARTS != 1
#error "16-bit operands stage in one part"
#endif
#endif

#define ST_TILE 32
#define ST_ROWS 8

/* Where element p of staged row r comes from: the row's source pointer and its strides. */
typedef struct stage_row {
  __global const ST_T *x; /* element p at x[p * ps] (or 0 when r is past the rows) */
  ulong ps;               /* element stride along K */
  ulong out;              /* the row's first element in scratch */
  int valid, is_b;
} stage_row;

/* a / b, in 32 bits where both fit (a 64-bit division is a long software sequence). */
ulong stage_div(const ulong a, const ulong b) {
  return (a | b) <= 0xffffffffu ? (ulong)((uint)a / (uint)b) : a / b;
}

stage_row stage_row_of(const ulong r, const ulong m, const ulong n, const ulong batch,
                       __global const ST_T *a, const ulong a_off, const ulong lda,
                       const ulong stride_a, __global const ST_T *b, const ulong b_off,
                       const ulong ldb, const ulong stride_b, const ulong lds) {
  stage_row s;
  const ulong a_rows = STAGE_A ? batch * m : 0;
  s.valid = r < a_rows + batch * n;
  s.is_b = r >= a_rows;
  s.out = r * lds;
  if (!s.is_b) {
    const ulong q = stage_div(r, m), i = r - q * m;
    s.x = a + a_off + q * stride_a + (STAGE_TRANS_A ? i : i * lda);
    s.ps = STAGE_TRANS_A ? lda : 1;
  } else {
    const ulong rb = s.valid ? r - a_rows : 0, q = s.valid ? stage_div(rb, n) : 0, j = rb - q * n;
    s.x = b + b_off + q * stride_b + (STAGE_TRANS_B ? j * ldb : j);
    s.ps = STAGE_TRANS_B ? 1 : ldb;
  }
  return s;
}

/* Whether a row's source is contiguous along K (then the tile is read along K). */
int stage_kcont(const int is_b) {
  return is_b ? STAGE_TRANS_B : !STAGE_TRANS_A;
}

#ifdef OCF_KERNEL_matmul_stage
__kernel __attribute__((reqd_work_group_size(ST_TILE, ST_ROWS, 1))) void
matmul_stage(const ulong m, const ulong n, const ulong k, const ulong batch, __global const ST_T *a,
             const ulong a_off, const ulong lda, const ulong stride_a, __global const ST_T *b,
             const ulong b_off, const ulong ldb, const ulong stride_b, __global ST_T *partial,
             const ulong lds) {
  __local ST_T tile[ST_TILE][ST_TILE + 1];
  const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
  const ulong p0 = (ulong)get_group_id(0) * ST_TILE, r0 = (ulong)get_group_id(1) * ST_TILE;
  /* The rows this work-item writes (ly + u), each located once. */
  stage_row rows[ST_TILE / ST_ROWS];
  for (uint u = 0; u < ST_TILE / ST_ROWS; u++)
    rows[u] = stage_row_of(r0 + ly + u * ST_ROWS, m, n, batch, a, a_off, lda, stride_a, b, b_off,
                           ldb, stride_b, lds);
  /* The orientation of the tile's read: that of its first row's operand. */
  const int along_k = stage_kcont(
      stage_row_of(r0, m, n, batch, a, a_off, lda, stride_a, b, b_off, ldb, stride_b, lds).is_b);
  if (along_k) { /* work-item (lx, ly) reads its rows' element lx */
    const ulong p = p0 + lx;
    for (uint u = 0; u < ST_TILE / ST_ROWS; u++)
      tile[ly + u * ST_ROWS][lx] = rows[u].valid && p < k ? rows[u].x[p * rows[u].ps] : (ST_T)0;
  } else { /* work-item (lx, ly) reads row lx's elements ly + u, adjacent work-items' rows
              adjacent in memory */
    const stage_row s =
        stage_row_of(r0 + lx, m, n, batch, a, a_off, lda, stride_a, b, b_off, ldb, stride_b, lds);
    for (uint u = 0; u < ST_TILE; u += ST_ROWS) {
      const ulong p = p0 + ly + u;
      tile[lx][ly + u] = s.valid && p < k ? s.x[p * s.ps] : (ST_T)0;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const ulong kk = PARTS * k;
  for (uint u = 0; u < ST_TILE / ST_ROWS; u++) {
    const ulong p = p0 + lx;
    const stage_row s = rows[u];
    if (!s.valid || p >= k) continue;
    const ST_T x = tile[ly + u * ST_ROWS][lx];
    __global ST_T *o = partial + s.out;
#if STAGE_DTYPE != 0
    o[p] = x;
#elif PARTS == 1
    o[p] = ocf_tf32_trunc(x);
#else
    const float big = ocf_round_tf32(x), small = ocf_tf32_small(x, big);
    o[p] = s.is_b ? big : small;
    o[k + p] = s.is_b ? small : big;
    o[2 * k + p] = big;
#endif
    /* The row's last element writes the zeros past K' (fewer than 4 floats, 64 16-bit
       values). */
    if (p == k - 1)
      for (ulong z = kk; z < lds; z++)
        o[z] = (ST_T)0;
  }
}
#endif
