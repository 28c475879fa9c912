/*
 * cvt_tf32.cl: cvt.rna.tf32.f32 on every input; the host compares the bits with its emulation
 * (tools/lab/mma/numerics.c, lab_tf32_rna), which the SIMT fallback mirrors.
 */
__kernel void probe(__global uint *out, __global const float *in) {
  const size_t i = get_global_id(0);
  uint r;
  __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(in[i]));
  out[i] = r;
}
