/*
 * matmul_pad.cl: the copy step of ocf_matmul's padded tiled plans (the ragged path:
 * src/plan/plan_matmul.c, rule 5; docs/GEMM.md). Portable OpenCL C, tested on every device
 * (test_matmul_pad, Oclgrind included).
 *
 * An fp32 operand whose offset, leading dimension or batch stride is not a multiple of 4 cannot
 * take aligned vector loads anywhere (a row of lda = k + 1 floats starts on a different 16-byte
 * phase each time), so the tiled kernels read it element by element, interior and rim alike.
 * This kernel copies such an operand, as it is stored (transposed or not), into the plan's
 * scratch with rows of `lds` floats (a multiple of 4) and whole tiles of rows, zeros past the
 * matrix, so that matmul_tiled_pad (cl/matmul.cl) reads every tile with unguarded aligned loads:
 *
 *      X stored R x C, row stride ld           X' in scratch: R' x lds, R' >= R, lds >= C
 *      (any offset, stride, alignment)         +-------------+----+
 *      +-------------+ . .                     | x x x x x x | 0  |
 *      | x x x x x x | . .   (gaps, other      | x x x x x x | 0  |
 *      | x x x x x x | . .    products)  --->  +-------------+----+
 *      +-------------+                         | 0 0 0 0 0 0   0  |   (to a whole tile)
 *                                              +------------------+
 *
 * Scratch layout (floats): A' of product q at q s_stride_a, row r at + r lds_a; B' at
 * sb_off + q s_stride_b, row r at + r lds_b; R' = s_stride / lds rows a product. The host makes
 * sb_off, the strides and lds multiples of 4, so every row starts on 16 bytes (the scratch
 * buffer itself is aligned far beyond that). Sources: row r of product q of A is
 * a + a_off + q stride_a + r lda, stored k x m with TRANS_A (m x k otherwise); B likewise (n x k
 * with TRANS_B, k x n otherwise). Every float of the copies is written, the zeros too, so the
 * scratch needs no zeroing first, and nothing outside them is.
 *
 * Launch: 1-D, PAD_WG work-items a workgroup, any number of workgroups: each takes rows of the
 * copies in turn (grid-stride), its work-items four floats of the row each, read as one float4
 * where the source row starts on 16 bytes, as elements otherwise, and written as one aligned
 * float4.
 *
 * PAD_DTYPE 1 or 2 (f16, bf16): the 16-bit operands of the wgmma kernel's aligned plans
 * (src/plan/plan_matmul_wgmma.c, rule 4), copied bit for bit into rows of lds values that the
 * host makes a multiple of 64 (every row on a 128-byte line), eight values a work-item written
 * as one aligned 16-byte vector; the rows are the matrix's own (the wgmma kernel bounds its
 * edge tiles itself). Scratch offsets and strides are then in 16-bit values.
 */

/* 1: A is stored k x m (as cl/matmul_common.clh). */
#ifndef TRANS_A
#error "TRANS_A: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: B is stored n x k. */
#ifndef TRANS_B
#error "TRANS_B: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: A is copied (fp32 A then). */
#ifndef A_PAD
#error "A_PAD: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* 1: B is copied (fp32 B then). */
#ifndef B_PAD
#error "B_PAD: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* Work-items per workgroup of matmul_pad. */
#ifndef PAD_WG
#error "PAD_WG: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
/* The operands' storage type (ocf_dtype): 0 fp32, 1 f16, 2 bf16. */
#ifndef PAD_DTYPE
#error "PAD_DTYPE: the host passes every tunable (src/plan/plan_matmul.c)"
#endif
#if PAD_DTYPE == 0
#define PAD_T float
#define PAD_LANES 4 /* values a work-item writes at once: 16 bytes */
#define PAD_VEC float4
#define PAD_VEC_OF(e) (float4)((e)[0], (e)[1], (e)[2], (e)[3])
#else
#define PAD_T ushort /* the 16-bit values' bits, never converted */
#define PAD_LANES 8
#define PAD_VEC ushort8
#define PAD_VEC_OF(e) (ushort8)((e)[0], (e)[1], (e)[2], (e)[3], (e)[4], (e)[5], (e)[6], (e)[7])
#endif

/* One row of a copy: where it comes from and where it goes. */
typedef struct pad_row {
  __global const PAD_T *src; /* the source row (NULL: a row of zeros past the matrix) */
  ulong cols;                /* values of the source row */
  __global PAD_T *dst;       /* the copy's row, lds values, 16-byte aligned */
  ulong lds;
} pad_row;

/* Row `row` of all copies: A's products' rows first (rows_a each), then B's (rows_b each). */
pad_row pad_row_of(const ulong row, const ulong m, const ulong n, const ulong k, const ulong batch,
                   __global const PAD_T *a, const ulong a_off, const ulong lda,
                   const ulong stride_a, __global const PAD_T *b, const ulong b_off,
                   const ulong ldb, const ulong stride_b, __global PAD_T *partial,
                   const ulong sb_off, const ulong lds_a, const ulong s_stride_a, const ulong lds_b,
                   const ulong s_stride_b) {
  pad_row p;
  const ulong rows_a = A_PAD ? s_stride_a / lds_a : 0;
  const ulong all_a = batch * rows_a;
  if (row < all_a) {
    const ulong q = row / rows_a, r = row - q * rows_a;
    const ulong stored_rows = TRANS_A ? k : m;
    p.src = r < stored_rows ? a + a_off + q * stride_a + r * lda : 0;
    p.cols = TRANS_A ? m : k;
    p.dst = partial + q * s_stride_a + r * lds_a;
    p.lds = lds_a;
  } else {
    const ulong rows_b = B_PAD ? s_stride_b / lds_b : 1;
    const ulong q = (row - all_a) / rows_b, r = row - all_a - q * rows_b;
    const ulong stored_rows = TRANS_B ? n : k;
    p.src = r < stored_rows ? b + b_off + q * stride_b + r * ldb : 0;
    p.cols = TRANS_B ? k : n;
    p.dst = partial + sb_off + q * s_stride_b + r * lds_b;
    p.lds = lds_b;
  }
  return p;
}

/* Copies one row: work-item lx writes values L i .. L i + L - 1 (L = PAD_LANES) for i = lx,
   lx + PAD_WG, ... A source row that starts on 16 bytes (a 16-bit operand copied only to move
   its rows onto 128-byte lines, every operand of a few-wave fp32 call) is read a whole vector at
   a time up to its last whole one: NVIDIA issues value-by-value reads of 2 bytes one load each,
   and the copy then runs at a third of the memory's speed. Other rows, and such a row's ragged
   end, are read value by value. */
void pad_copy_row(const pad_row *p, const uint lx) {
  const int whole_vectors = p->src && ((size_t)p->src & 15) == 0;
  for (ulong c = (ulong)lx * PAD_LANES; c < p->lds; c += (ulong)PAD_WG * PAD_LANES) {
    PAD_VEC v;
    if (whole_vectors && c + PAD_LANES <= p->cols) {
      v = *(__global const PAD_VEC *)(p->src + c);
    } else {
      PAD_T e[PAD_LANES];
      for (uint j = 0; j < PAD_LANES; j++)
        e[j] = p->src && c + j < p->cols ? p->src[c + j] : (PAD_T)0;
      v = PAD_VEC_OF(e);
    }
    *(__global PAD_VEC *)(p->dst + c) = v;
  }
}

#ifdef OCF_KERNEL_matmul_pad
__kernel __attribute__((reqd_work_group_size(PAD_WG, 1, 1))) void
matmul_pad(const ulong m, const ulong n, const ulong k, const ulong batch, __global const PAD_T *a,
           const ulong a_off, const ulong lda, const ulong stride_a, __global const PAD_T *b,
           const ulong b_off, const ulong ldb, const ulong stride_b, __global PAD_T *partial,
           const ulong sb_off, const ulong lds_a, const ulong s_stride_a, const ulong lds_b,
           const ulong s_stride_b) {
  const ulong rows = batch * ((A_PAD ? s_stride_a / lds_a : 0) + (B_PAD ? s_stride_b / lds_b : 0));
  const uint lx = (uint)get_local_id(0);
  for (ulong row = get_group_id(0); row < rows; row += get_num_groups(0)) {
    const pad_row p = pad_row_of(row, m, n, k, batch, a, a_off, lda, stride_a, b, b_off, ldb,
                                 stride_b, partial, sb_off, lds_a, s_stride_a, lds_b, s_stride_b);
    pad_copy_row(&p, lx);
  }
}
#endif
