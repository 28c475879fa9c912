/*
 * cp_async.cl: cp.async of SIZE bytes (16: .cg, 4: .ca) from global to local memory with a
 * src-size operand: work-item i copies unit i from src + i * SIZE bytes with src-size sizes[i]
 * (the rest of the unit must come out zero, and src-size 0 must read nothing), into a local
 * buffer prefilled with 0xdeadbeef; then commit_group, wait_group 0, a barrier, and the buffer
 * is copied out; where[0] gets the buffer's address. LADDR / GADDR: the address forms of
 * cl/matmul_mma_nv.cl (OCF_MMA_LADDR, OCF_MMA_GADDR).
 *
 * A 16-byte cp.async needs a 16-byte aligned shared destination: the buffer is an array of
 * uint4 (16-byte aligned by its type, and asked for explicitly). NVIDIA's compiler puts 4 bytes
 * of its own at the start of the shared window (a uint buffer lands at 0x404), so a 4-byte
 * aligned buffer is not enough; MISALIGN moves every destination by that many bytes to show
 * what happens then (the first GPU run's fault).
 */
#define WORDS (SIZE / 4)
#ifndef MISALIGN
#define MISALIGN 0
#endif
#if SIZE == 16
typedef uint4 unit_t;
#else
typedef uint unit_t;
#endif
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void probe(__global uint *out,
                                                                    __global const uint *src,
                                                                    __global const uint *sizes,
                                                                    __global ulong *where) {
  __local unit_t buf[65] __attribute__((aligned(16))); /* one spare unit for MISALIGN */
  __local uint *words = (__local uint *)buf;
  const uint i = get_local_id(0);
  for (uint w = 0; w < WORDS; w++)
    words[i * WORDS + w] = 0xdeadbeefu;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uchar *at = (__local uchar *)(buf + i) + MISALIGN;
#if LADDR == 0
  const uint dst = (uint)(ulong)at;
#else
  ulong d64;
  __asm__("cvta.to.shared.u64 %0, %1;" : "=l"(d64) : "l"((ulong)at));
  const uint dst = (uint)d64;
#endif
#if GADDR == 0
  const ulong from = (ulong)(src + i * WORDS);
#else
  ulong from;
  __asm__("cvta.to.global.u64 %0, %1;" : "=l"(from) : "l"((ulong)(src + i * WORDS)));
#endif
#if SIZE == 16
  __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(from),
                   "r"(sizes[i])
                   : "memory");
#else
  __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(from),
                   "r"(sizes[i])
                   : "memory");
#endif
  __asm__ volatile("cp.async.commit_group;" ::: "memory");
  __asm__ volatile("cp.async.wait_group 0;" ::: "memory");
  barrier(CLK_LOCAL_MEM_FENCE);
  __local const uint *got = (__local const uint *)((__local const uchar *)buf + MISALIGN);
  for (uint w = 0; w < WORDS; w++)
    out[i * WORDS + w] = got[i * WORDS + w];
  if (i == 0) where[0] = (ulong)buf;
}
