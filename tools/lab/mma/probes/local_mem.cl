/*
 * local_mem.cl: whether one workgroup may declare BYTES of static local memory and launch (the
 * GEMM's stages take 32 to 72 KiB; the device reports 48 KiB; NVIDIA's compiler adds a few bytes
 * of its own): every 16-byte slot is written, then read back scrambled.
 */
#define SLOTS (BYTES / 16)
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void probe(__global uint *out) {
  __local uint4 big[SLOTS];
  const uint l = get_local_id(0);
  for (uint s = l; s < SLOTS; s += 256)
    big[s] = (uint4)(s, s + 1, s + 2, s + 3);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = big[(l * 17) % SLOTS].y;
}
