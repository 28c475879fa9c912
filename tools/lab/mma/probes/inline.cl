/*
 * inline.cl: which spelling of a forced-inline helper the compiler takes (cl/matmul_mma_nv.cl's
 * OCF_MMA_INLINE): FORM 0 static inline __attribute__((always_inline)), 1 the attribute alone,
 * 2 a plain function. out[i] = in[i] + 7 through the helper.
 */
#if FORM == 0
#define HELPER static inline __attribute__((always_inline))
#elif FORM == 1
#define HELPER __attribute__((always_inline))
#else
#define HELPER
#endif
HELPER uint add7(const uint x) {
  return x + 7;
}
__kernel void probe(__global uint *out, __global const uint *in) {
  const size_t i = get_global_id(0);
  out[i] = add7(in[i]);
}
