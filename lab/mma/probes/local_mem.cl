/*
 * local48k.cl: whether one workgroup may declare BYTES of local memory (the GEMM's stages use
 * 48 KiB = 49152): every 16-byte slot is written, then read back scrambled.
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
