/*
 * offline_builtins.h: for the offline PTX checks only (tools/offline_lib.sh includes it after
 * tools/lab/mma/offline/stubs.h). Stand-ins that more than one check needs, for OpenCL builtins
 * that clang's NVPTX target has no library for, in groups that a check turns on with -D: a group
 * redefines a builtin by name, which breaks a program that calls it with other types, so a
 * program sees only the groups its check asks for.
 *   OCF_OFFLINE_EXP2_FMA     exp2 and fma of float, for compiling (tools/lanes_offline.sh,
 *                            tools/lab/decode/offline.sh)
 *   OCF_OFFLINE_VLOAD_HALF2  vload_half2 of a private or global pointer, element by element
 *                            (the same two)
 *   OCF_OFFLINE_ATOMICS      the join's atomics (cl/join.clh) as PTX's own
 *                            (tools/lanes_offline.sh, tools/few_offline.sh)
 */
#ifdef OCF_OFFLINE_EXP2_FMA
#define exp2(x) __nvvm_ex2_approx_f(x)
#define fma(a, b, c) __builtin_fmaf(a, b, c)
#endif

#ifdef OCF_OFFLINE_VLOAD_HALF2
#undef vload_half2
static inline float2 __attribute__((overloadable, always_inline))
ocf_x_vlh2(size_t i, const __private half *p) {
  const __private ushort *u = (const __private ushort *)p;
  float a, b;
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(a) : "h"(u[2 * i]));
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(b) : "h"(u[2 * i + 1]));
  return (float2)(a, b);
}
static inline float2 __attribute__((overloadable, always_inline))
ocf_x_vlh2(size_t i, __global const half *p) {
  return (float2)(vload_half(2 * i, p), vload_half(2 * i + 1, p));
}
#define vload_half2(i, p) ocf_x_vlh2(i, p)
#endif

#ifdef OCF_OFFLINE_ATOMICS
/* clang's OpenCL header declares them and no library defines them here. */
static inline uint __attribute__((always_inline))
ocf_x_atom_add(volatile __global uint *p, uint v) {
  uint r;
  __asm__ volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  return r;
}
static inline uint __attribute__((always_inline))
ocf_x_atom_exch(volatile __global uint *p, uint v) {
  uint r;
  __asm__ volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  return r;
}
#define atomic_inc(p) ocf_x_atom_add(p, 1u)
#define atomic_xchg(p, v) ocf_x_atom_exch(p, v)
#endif
