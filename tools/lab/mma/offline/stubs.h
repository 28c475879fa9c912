/*
 * stubs.h: for the offline PTX checks only (tools/offline_lib.sh includes it in each, this lab's
 * offline_check.sh among them). clang's NVPTX target has no OpenCL builtin library, so the
 * work-item functions and the few library calls the kernels use become NVVM builtins or plain code
 * here. Included after clang's default OpenCL header.
 */
#define get_local_id(d) ((size_t)__nvvm_read_ptx_sreg_tid_x())
#define get_local_size(d) ((size_t)__nvvm_read_ptx_sreg_ntid_x())
#define get_group_id(d)                                 \
  ((size_t)((d) == 0   ? __nvvm_read_ptx_sreg_ctaid_x() \
            : (d) == 1 ? __nvvm_read_ptx_sreg_ctaid_y() \
                       : __nvvm_read_ptx_sreg_ctaid_z()))
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define barrier(flags) __nvvm_bar_sync(0)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define isnan(x) ocf_stub_isnan(x)
int __attribute__((overloadable)) ocf_stub_isnan(float x) {
  return x != x;
}
#define OCF_STUB_ISNAN(n)                                           \
  int##n __attribute__((overloadable)) ocf_stub_isnan(float##n x) { \
    return x != x;                                                  \
  }
OCF_STUB_ISNAN(2)
OCF_STUB_ISNAN(4)
OCF_STUB_ISNAN(8)
OCF_STUB_ISNAN(16)
float ocf_stub_load_half(size_t i, __global const half *p) {
  float v;
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(v) : "h"(((__global const ushort *)p)[i]));
  return v;
}
void ocf_stub_store_half(float v, size_t i, __global half *p) {
  ushort h;
  __asm__("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v));
  ((__global ushort *)p)[i] = h;
}
#define vload_half(i, p) ocf_stub_load_half(i, p)
#define vstore_half_rte(v, i, p) ocf_stub_store_half(v, i, p)
/* Two lanes (the wgmma kernel's paired 16-bit C stores): the same, lane by lane. */
float2 ocf_stub_load_half2(size_t i, __global const half *p) {
  return (float2)(ocf_stub_load_half(2 * i, p), ocf_stub_load_half(2 * i + 1, p));
}
void ocf_stub_store_half2(float2 v, size_t i, __global half *p) {
  ocf_stub_store_half(v.x, 2 * i, p);
  ocf_stub_store_half(v.y, 2 * i + 1, p);
}
#define vload_half2(i, p) ocf_stub_load_half2(i, p)
#define vstore_half2_rte(v, i, p) ocf_stub_store_half2(v, i, p)
uint2 __attribute__((overloadable)) ocf_stub_convert_uint2(ushort2 v) {
  return (uint2)(v.x, v.y);
}
ushort2 __attribute__((overloadable)) ocf_stub_convert_ushort2(uint2 v) {
  return (ushort2)((ushort)v.x, (ushort)v.y);
}
ushort2 ocf_stub_vload2(size_t i, __global const ushort *p) {
  return (ushort2)(p[2 * i], p[2 * i + 1]);
}
void ocf_stub_vstore2(ushort2 v, size_t i, __global ushort *p) {
  p[2 * i] = v.x, p[2 * i + 1] = v.y;
}
uint2 __attribute__((overloadable)) ocf_stub_select(uint2 a, uint2 b, uint2 c) {
  return (uint2)((int)c.x < 0 ? b.x : a.x, (int)c.y < 0 ? b.y : a.y);
}
#define select(a, b, c) ocf_stub_select(a, b, c)
#define convert_uint2(v) ocf_stub_convert_uint2(v)
#define convert_ushort2(v) ocf_stub_convert_ushort2(v)
#define vload2(i, p) ocf_stub_vload2(i, p)
#define vstore2(v, i, p) ocf_stub_vstore2(v, i, p)
/* The epilogue's activations (ocf_activate): stand-ins with the right types, for compiling only
   (what they compute is not checked offline). */
float ocf_stub_exp(float x) {
  return __nvvm_ex2_approx_f(x * 1.44269504f);
}
float ocf_stub_tanh(float x) {
  const float e = ocf_stub_exp(2.0f * x);
  return (e - 1.0f) / (e + 1.0f);
}
float ocf_stub_erf(float x) {
  return ocf_stub_tanh(1.2f * x);
}
#define exp(x) ocf_stub_exp(x)
#define tanh(x) ocf_stub_tanh(x)
#define erf(x) ocf_stub_erf(x)
/* The attention programs' few math calls (cl/attention_common.clh, attention_wgmma_nv.cl). */
float __attribute__((overloadable)) ocf_stub_fmax(float a, float b) {
  return __builtin_fmaxf(a, b);
}
int ocf_stub_isfinite(float x) {
  return __builtin_fabsf(x) < __builtin_inff();
}
float ocf_stub_log2(float x) {
  return __nvvm_lg2_approx_f(x);
}
float ocf_stub_log(float x) {
  return __nvvm_lg2_approx_f(x) * 0.693147181f;
}
#define fmax(a, b) ocf_stub_fmax(a, b)
#define isfinite(x) ocf_stub_isfinite(x)
#define log2(x) ocf_stub_log2(x)
#define log(x) ocf_stub_log(x)
#define get_num_groups(d) ((size_t)__nvvm_read_ptx_sreg_nctaid_x())
#define get_global_size(d) (get_num_groups(d) * get_local_size(d))
