/*
 * store16.cl: cl/common.cl's 16-bit storage (prepended) on this device, for dtype DT (1 f16,
 * 2 bf16): probe stores each float rounded to nearest even (OCF_STORE), probe_load reads
 * 16-bit values back as floats (OCF_LOAD). The host compares bits with numerics.c (this lab), and
 * also checks ocf_round_tf32 (the SIMT fallback's TF32 rounding) in probe_tf32.
 */
__kernel void probe(__global OCF_STORAGE(DT) * out, __global const float *in) {
  const size_t i = get_global_id(0);
  OCF_STORE(DT, out, i, in[i]);
}
__kernel void probe_load(__global float *out, __global const OCF_STORAGE(DT) * in) {
  const size_t i = get_global_id(0);
  out[i] = OCF_LOAD(DT, in, i);
}
__kernel void probe_tf32(__global float *out, __global const float *in) {
  const size_t i = get_global_id(0);
  out[i] = ocf_round_tf32(in[i]);
}
