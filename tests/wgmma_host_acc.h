/*
 * wgmma_host_acc.h: the matrix units' stand-in for the host checks of cl/matmul_wgmma_nv.cl
 * (after wgmma_host_check.h and part.cl, which defines the operands): a work-item's accumulator
 * for element (row, col) of product p over a K range of kn is kn w(p, row, col) (0 outside
 * m x n), whose sum over the ranges is exactly k w in floats. acc_element states the layout
 * on its own (from the kernel's header); check_fragment holds the kernel's pair macros to it;
 * store_finished is the whole-tile epilogue (part.cl's finish_at) the checks stand in with.
 */
#ifndef OCLFUSE_TESTS_WGMMA_HOST_ACC_H
#define OCLFUSE_TESTS_WGMMA_HOST_ACC_H

/* The element of a tile at (m0, n0) that work-item t's accumulator 4 q + 2 v1 + v0 holds (the
   kernel's header's layout) into *row, *col. */
static void acc_element(const uint t, const uint q, const uint v1, const uint v0, const ulong m0,
                        const ulong n0, ulong *row, ulong *col) {
  const uint wg = t / 128, l = t % 128;
  *row = m0 + 64 * wg + 16 * (l / 32) + (l % 32) / 4 + 8 * v1;
  *col = n0 + 8 * q + 2 * (l % 4) + v0;
}

/* The kernel's pairs (FRAG_ROW, FRAG_COL and FRAG_ACC of part.cl) against acc_element, for every
   work-item of a workgroup and every accumulator of a tile at (m0, n0): accumulator i of the
   header's numbering is acc[4 q + 2 v1 + v0]. Counts and prints the first differences. */
static void check_fragment(const ulong m0, const ulong n0) {
  for (uint t = 0; t < THREADS; t++)
    for (uint q = 0; q < BN / 8; q++)
      for (uint v1 = 0; v1 < 2; v1++)
        for (uint v0 = 0; v0 < 2; v0++) {
          const uint wg = t / 128, l = t % 128, i = FRAG_ACC(q, v1) + v0;
          const ulong row = FRAG_ROW(m0 + 64 * wg, l, v1), col = FRAG_COL(n0, l, q) + v0;
          ulong want_row, want_col;
          acc_element(t, i / 4, i % 4 / 2, i % 2, m0, n0, &want_row, &want_col);
          if ((row != want_row || col != want_col) && failures++ < 5)
            printf("work-item %u, pair (%u, %u) + %u: acc[%u] at (%lu, %lu), want (%lu, %lu)\n", t,
                   q, v1, v0, i, row, col, want_row, want_col);
        }
}

/* The accumulators of work-item t as the matrix units leave them. */
static void fake_acc(float *acc, const ulong product, const ulong kn, const ulong m, const ulong n,
                     const ulong m0, const ulong n0, const uint t) {
  for (uint q = 0; q < BN / 8; q++)
    for (uint v1 = 0; v1 < 2; v1++)
      for (uint v0 = 0; v0 < 2; v0++) {
        ulong row, col;
        acc_element(t, q, v1, v0, m0, n0, &row, &col);
        acc[4 * q + 2 * v1 + v0] = row < m && col < n ? (float)kn * w_of(product, row, col) : 0.0f;
      }
}

/* The ring's product of operands o: the product and k0 read back from o->a (origin + (product
   SA + k0) EB), the range's length from o->k. */
static void main_loop(float *acc, const uint base, const operands *o, const uint t) {
  (void)base;
  const ulong at = (ulong)(o->a - origin) / EB;
  fake_acc(acc, at / SA, o->k, o->m, o->n, o->m0, o->n0, t);
}

/* Work-item t's accumulators of the tile at (m0, n0) finished with e into C (a product's, rows
   ldc apart), what lies inside m x n, each store counted. */
static inline void store_finished(float *c, const ulong ldc, const ulong m, const ulong n,
                                  const ulong m0, const ulong n0, const float *acc,
                                  const epilogue *e, const uint t) {
  for (uint q = 0; q < BN / 8; q++)
    for (uint v1 = 0; v1 < 2; v1++)
      for (uint v0 = 0; v0 < 2; v0++) {
        ulong row, col;
        acc_element(t, q, v1, v0, m0, n0, &row, &col);
        if (row >= m || col >= n) continue;
        float *at = c + row * ldc + col;
        store_c(at, finish_at(acc[4 * q + 2 * v1 + v0], *at, e, row, col));
      }
}

#endif /* OCLFUSE_TESTS_WGMMA_HOST_ACC_H */
