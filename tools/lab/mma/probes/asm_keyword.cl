/*
 * asm_keyword.cl: which inline-assembly spelling NVIDIA's OpenCL compiler takes. Built with
 * -DKW=asm and with -DKW=__asm__ (the GEMM uses __asm__). out[i] = in[i] + 7 through PTX.
 */
__kernel void probe(__global uint *out, __global const uint *in) {
  const size_t i = get_global_id(0);
  uint y;
  KW volatile("add.u32 %0, %1, 7;" : "=r"(y) : "r"(in[i]));
  out[i] = y;
}
