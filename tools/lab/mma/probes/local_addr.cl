/*
 * local_addr.cl: how to hand an OpenCL local pointer to PTX as a shared-space address. Each
 * work-item writes its slot of a local buffer with plain OpenCL, then reads another slot with
 * ld.shared through the address form MODE:
 *   0  the pointer's value, truncated to 32 bits, as an "r" operand (the GEMM's OCF_MMA_LADDR 0)
 *   1  cvta.to.shared.u64 applied to the value, as if it were generic (OCF_MMA_LADDR 1)
 *   2  the 64-bit value as an "l" operand
 *   3  as 0, for a local buffer passed as a kernel argument
 * raw[0] gets the pointer's value, raw[1] whether isspacep.shared calls it shared (generic).
 */
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void
probe(__global uint *out, __global ulong *raw, __local uint *arg) {
  __local uint own[64];
#if MODE == 3
  __local uint *buf = arg;
#else
  __local uint *buf = own;
#endif
  const uint i = get_local_id(0);
  buf[i] = i * 7 + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint *p = buf + (i * 5 + 3) % 64;
  uint v;
#if MODE == 0 || MODE == 3
  __asm__ volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((uint)(ulong)p) : "memory");
#elif MODE == 1
  ulong s;
  __asm__ volatile("cvta.to.shared.u64 %0, %1;" : "=l"(s) : "l"((ulong)p));
  __asm__ volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((uint)s) : "memory");
#else
  __asm__ volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
#endif
  out[i] = v;
  if (i == 0) {
    uint is_shared;
    __asm__ volatile("{\n\t.reg .pred q;\n\tisspacep.shared q, %1;\n\tselp.u32 %0, 1, 0, q;\n\t}"
                     : "=r"(is_shared)
                     : "l"((ulong)buf));
    raw[0] = (ulong)buf;
    raw[1] = is_shared;
  }
}
