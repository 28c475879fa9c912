/*
 * common.cl: definitions every liboclfuse program shares. The library passes this text to
 * clCreateProgramWithSource as the first string of every program, before the op's own file, so
 * it is never built on its own and must only define macros and helpers that are always valid.
 *
 * A program holds only the kernels of one plan: each kernel is compiled when the host defines
 * OCF_KERNEL_<its name> (ocf_plan_options), so that the driver builds, stores and loads no code
 * the plan does not run.
 */

/* Token pasting through a second level, so that macro arguments expand first:
   OCF_CAT(float, VW) with VW 4 is float4. */
#define OCF_CAT_(a, b) a##b
#define OCF_CAT(a, b) OCF_CAT_(a, b)

/* The float vector type of `width` lanes (1 gives plain float). */
#define OCF_FLOATN_1 float
#define OCF_FLOATN_2 float2
#define OCF_FLOATN_4 float4
#define OCF_FLOATN_8 float8
#define OCF_FLOATN_16 float16
#define OCF_FLOATN(width) OCF_CAT(OCF_FLOATN_, width)

/* ---- storage data types (ocf_dtype): 0 f32, 1 f16, 2 bf16; arithmetic is always fp32 ---- */

/* The element type a buffer of type t is declared with: half and bfloat16 (as ushort) are only
   ever loaded into float and stored from float, so OpenCL 1.2 core suffices (vload_half,
   vstore_half; no cl_khr_fp16). */
#define OCF_STORAGE_0 float
#define OCF_STORAGE_1 half
#define OCF_STORAGE_2 ushort
#define OCF_STORAGE(t) OCF_CAT(OCF_STORAGE_, t)

/* bfloat16 <-> float: the top 16 bits of the float; the store rounds to nearest even and keeps a
   NaN a (quiet) NaN. */
#define OCF_BF16_TO_FLOAT(u) as_float((uint)(u) << 16)
ushort ocf_float_to_bf16(float f) {
  const uint u = as_uint(f);
  if (isnan(f)) return (ushort)((u >> 16) | 0x0040u);
  return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* x as the TF32 matmul mode multiplies it, on every kernel, SIMT (matmul.cl, matmul_skinny.cl,
   the naive baseline) and matrix-unit alike, so that a result does not depend on which kernel
   ran: truncated to TF32 (toward zero: the low 13 of the 23 mantissa bits cleared, 10 kept), as
   Hopper's wgmma reads fp32 bits for .tf32 (the PTX ISA: it "will truncate lower 13 bits") and
   as cuBLAS's TF32 GEMM feeds them; |x - trunc(x)| < 2^-10 |x| for a normal x. An infinity stays
   one (the mask cannot carry). A NaN stays a NaN: its quiet bit is set before the low bits go,
   so no payload truncates to an infinity (the wgmma kernel leaves the truncation to the matrix
   unit, which turns a NaN whose payload lies only in the low 13 bits into an infinity: see
   cl/matmul_wgmma_nv.cl). */
float ocf_tf32_trunc(const float x) {
  const uint u = as_uint(x);
  return as_float((isnan(x) ? u | 0x00400000u : u) & 0xffffe000u);
}

/* x rounded to TF32 to nearest, ties away from zero, as PTX's cvt.rna.tf32.f32: the big part of
   the 3XTF32 split on every kernel (the TF32 mode truncates instead: ocf_tf32_trunc). Adding
   half the dropped range to the magnitude carries into the exponent exactly as a wider mantissa
   would, up to infinity (an infinity stays one); the low 13 bits of the result are 0. A NaN stays
   a NaN: its quiet bit is set before the low bits go, so no payload can truncate to an infinity.
   (cvt.rna.tf32.f32 itself, on sm_90 an add and a mask that skips non-finite inputs, turns
   0x7f800001 into 0x7f800000.) */
float ocf_round_tf32(const float x) {
  const uint u = as_uint(x);
  if (isnan(x)) return as_float((u | 0x00400000u) & 0xffffe000u);
  return as_float((u + 0x1000u) & 0xffffe000u);
}

/* The low part of x's 3XTF32 split, big being ocf_round_tf32(x): tf32(x - big); big + small is
   x to within 2^-22 |x|. An infinite x (or one so large that big rounds to infinity) has no
   finite low part: small is NaN (inf - inf), and so is every product the input takes part in,
   on every kernel. (Setting small to 0 instead would not keep the infinity: the cross product
   of an infinite big with another input's small part of 0 is NaN all the same, so the result
   would be NaN or infinite depending on the other operand's low bits.) 3XTF32 is for finite
   inputs below 2^128 (1 - 2^-12) in magnitude; FP32 takes any. */
float ocf_tf32_small(const float x, const float big) {
  return ocf_round_tf32(x - big);
}

/* Element i of p, as float. */
#define OCF_LOAD_0(p, i) ((p)[i])
#define OCF_LOAD_1(p, i) vload_half((i), (p))
#define OCF_LOAD_2(p, i) OCF_BF16_TO_FLOAT((p)[i])
#define OCF_LOAD(t, p, i) OCF_CAT(OCF_LOAD_, t)(p, i)

/* Element i of p = v (a float), rounded to nearest even for the 16-bit types. */
#define OCF_STORE_0(p, i, v) ((p)[i] = (v))
#define OCF_STORE_1(p, i, v) vstore_half_rte((v), (i), (p))
#define OCF_STORE_2(p, i, v) ((p)[i] = ocf_float_to_bf16(v))
#define OCF_STORE(t, p, i, v) OCF_CAT(OCF_STORE_, t)(p, i, v)

/* Vector i of w lanes of p (elements i * w .. i * w + w - 1), as floats; for f32, p + i * w must
   be aligned to the vector (a plain vector access), the 16-bit types need no alignment. */
#define OCF_VLOAD_HALF_1 vload_half
#define OCF_VLOAD_HALF_2 vload_half2
#define OCF_VLOAD_HALF_4 vload_half4
#define OCF_VLOAD_HALF_8 vload_half8
#define OCF_VLOAD_HALF_16 vload_half16
#define OCF_VSTORE_HALF_1 vstore_half_rte
#define OCF_VSTORE_HALF_2 vstore_half2_rte
#define OCF_VSTORE_HALF_4 vstore_half4_rte
#define OCF_VSTORE_HALF_8 vstore_half8_rte
#define OCF_VSTORE_HALF_16 vstore_half16_rte

/* Lane-wise bfloat16 loads and round-to-nearest-even stores of w lanes, as macros rather than
   functions: a function taking or returning a 16-lane vector changes the CPU calling convention
   without AVX-512, which PoCL warns about on every build. */
#define OCF_BF16_LOADV(w, p, i) \
  OCF_CAT(as_float, w)(OCF_CAT(convert_uint, w)(OCF_CAT(vload, w)((i), (p))) << 16)
#define OCF_BF16_STOREV(w, p, i, v)                                                                \
  do {                                                                                             \
    const OCF_CAT(uint, w) ocf_u_ = OCF_CAT(as_uint, w)(v);                                        \
    const OCF_CAT(uint, w) ocf_r_ = select((ocf_u_ + 0x7fffu + ((ocf_u_ >> 16) & 1u)) >> 16,       \
                                           (ocf_u_ >> 16) | 0x40u, OCF_CAT(as_uint, w)(isnan(v))); \
    OCF_CAT(vstore, w)(OCF_CAT(convert_ushort, w)(ocf_r_), (i), (p));                              \
  } while (0)
/* One lane: the scalar conversions above. */
#define OCF_BF16_LOADV_1(p, i) OCF_BF16_TO_FLOAT((p)[i])
#define OCF_BF16_STOREV_1(p, i, v) ((p)[i] = ocf_float_to_bf16(v))

#define OCF_LOADV_0(w, p, i) (((__global const OCF_FLOATN(w) *)(p))[i])
#define OCF_LOADV_1(w, p, i) OCF_CAT(OCF_VLOAD_HALF_, w)((i), (p))
#define OCF_LOADV_2(w, p, i) OCF_CAT(OCF_LOADV_2_, w)(w, p, i)
#define OCF_LOADV_2_1(w, p, i) OCF_BF16_LOADV_1(p, i)
#define OCF_LOADV_2_2(w, p, i) OCF_BF16_LOADV(w, p, i)
#define OCF_LOADV_2_4(w, p, i) OCF_BF16_LOADV(w, p, i)
#define OCF_LOADV_2_8(w, p, i) OCF_BF16_LOADV(w, p, i)
#define OCF_LOADV_2_16(w, p, i) OCF_BF16_LOADV(w, p, i)
#define OCF_LOADV(t, w, p, i) OCF_CAT(OCF_LOADV_, t)(w, p, i)

#define OCF_STOREV_0(w, p, i, v) (((__global OCF_FLOATN(w) *)(p))[i] = (v))
#define OCF_STOREV_1(w, p, i, v) OCF_CAT(OCF_VSTORE_HALF_, w)((v), (i), (p))
#define OCF_STOREV_2(w, p, i, v) OCF_CAT(OCF_STOREV_2_, w)(w, p, i, v)
#define OCF_STOREV_2_1(w, p, i, v) OCF_BF16_STOREV_1(p, i, v)
#define OCF_STOREV_2_2(w, p, i, v) OCF_BF16_STOREV(w, p, i, v)
#define OCF_STOREV_2_4(w, p, i, v) OCF_BF16_STOREV(w, p, i, v)
#define OCF_STOREV_2_8(w, p, i, v) OCF_BF16_STOREV(w, p, i, v)
#define OCF_STOREV_2_16(w, p, i, v) OCF_BF16_STOREV(w, p, i, v)
#define OCF_STOREV(t, w, p, i, v) OCF_CAT(OCF_STOREV_, t)(w, p, i, v)

/* ---- matmul: input rounding of the precision modes and the fused epilogue's activations,
   shared by the SIMT kernels (matmul.cl, matmul_skinny.cl) and any matrix-unit variant ---- */

/* x / d, with the remainder x - (x / d) * d in *rem: written out so that no division and
   remainder of the same operands meet (LLVM would pair them with `freeze`, an instruction
   Oclgrind's uninitialised-value checks cannot follow). */
ulong ocf_divmod(const ulong x, const ulong d, ulong *rem) {
  const ulong q = x / d;
  *rem = x - q * d;
  return q;
}

/* The activations of ocf_activation, by value (0 none, 1 relu, 2 gelu erf, 3 gelu tanh,
   4 silu). Kernels pass a compile-time constant, so the switch folds away. */
float ocf_activate(float x, int activation) {
  switch (activation) {
  case 1:
    return x < 0.0f ? 0.0f : x; /* a NaN stays NaN */
  case 2:
    return 0.5f * x * (1.0f + erf(x * 0.70710678118654752f));
  case 3: {
    const float inner = 0.79788456080286536f * (x + 0.044715f * x * x * x);
    return 0.5f * x * (1.0f + tanh(inner));
  }
  case 4:
    return x / (1.0f + exp(-x));
  default:
    return x;
  }
}

/* The fused epilogue of every matmul kernel, SIMT and matrix-unit alike, written once:
   act(alpha * sum + beta * c_old + bias), rounded in this order; c_old is not used when beta is
   0 (the kernels then do not read C: NaNs in C do not propagate), bias only when has_bias (an
   added 0 would turn a -0 into +0). Kernels pass compile-time constants for has_bias and
   activation. */
float ocf_matmul_finish(const float sum, const float alpha, const float beta, const float c_old,
                        const float bias, const int has_bias, const int activation) {
  float v = alpha * sum;
  if (beta != 0.0f) v = beta * c_old + v;
  if (has_bias) v += bias;
  return ocf_activate(v, activation);
}
