/*
 * ldmatrix.cl: ldmatrix.sync.aligned.m8n8.x4{.trans}.shared.b16 (TRANS 0/1) on one warp. Four
 * 8x8 matrices of 16-bit elements, element (i, r, c) = 64 i + 8 r + c; row r of matrix i is the
 * one lane 8i + r fills and addresses, at row slot (5 * lane) % 32 of a 32 x 16-byte buffer (so
 * a wrong lane-to-address mapping shows). out[4 l + j] = register j of lane l. LADDR as in
 * cl/matmul_mma_nv.cl.
 */
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void probe(__global uint *out) {
  __local uint4 rows[32] __attribute__((aligned(16))); /* ldmatrix rows: 16-byte aligned */
  const uint l = get_local_id(0), slot = (5 * l) % 32;
  const uint i = l >> 3, r = l & 7;
  uint w[4];
  for (uint c = 0; c < 4; c++)
    w[c] = (64 * i + 8 * r + 2 * c) | ((64 * i + 8 * r + 2 * c + 1) << 16);
  rows[slot] = (uint4)(w[0], w[1], w[2], w[3]);
  barrier(CLK_LOCAL_MEM_FENCE);
#if LADDR == 0
  const uint addr = (uint)(ulong)(rows + slot);
#else
  ulong a64;
  __asm__("cvta.to.shared.u64 %0, %1;" : "=l"(a64) : "l"((ulong)(rows + slot)));
  const uint addr = (uint)a64;
#endif
  uint v[4];
#if TRANS
  __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                   : "r"(addr)
                   : "memory");
#else
  __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                   : "r"(addr)
                   : "memory");
#endif
  for (uint j = 0; j < 4; j++)
    out[4 * l + j] = v[j];
}
