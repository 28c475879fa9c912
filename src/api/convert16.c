/* Host conversions between fp32 and the 16-bit storage types (ocf_float_to_half and friends),
   bit for bit those of cl/common.cl: vstore_half_rte / vload_half for fp16, ocf_float_to_bf16
   and OCF_BF16_TO_FLOAT for bf16. No OpenCL call: part of the device-free objects. */
#include "common.h"

#include <string.h>

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* q + 1 when the dropped low `shift` bits of a significand (rest) are above half of q's last
   place, or exactly half with q odd: round to nearest, ties to even. */
static uint32_t round_even(uint32_t q, uint32_t rest, unsigned shift) {
  const uint32_t half = 1u << (shift - 1);
  return q + (rest > half || (rest == half && (q & 1u)));
}

static uint16_t half_of(float f) {
  const uint32_t u = bits_of(f);
  const uint32_t sign = (u >> 16) & 0x8000u, magnitude = u & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);  /* NaN */
  if (magnitude >= 0x47800000u) return (uint16_t)(sign | 0x7c00u); /* 2^16 and up, inf: inf */
  if (magnitude <= 0x33000000u) return (uint16_t)sign; /* up to 2^-25 (a tie with 0): zero */
  const int exponent = (int)(magnitude >> 23) - 127;   /* -25 .. 15 here */
  const uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u; /* 24 bits */
  if (exponent < -14) {
    /* An fp16 subnormal: significand * 2^(exponent - 23) in units of 2^-24. A carry out of
       the 10 bits gives 0x400, the smallest normal, which is its right encoding. */
    const unsigned shift = (unsigned)(-exponent - 1); /* 14 .. 24 */
    const uint32_t q = significand >> shift, rest = significand & ((1u << shift) - 1u);
    return (uint16_t)(sign | round_even(q, rest, shift));
  }
  /* Normal: 10 of the 23 mantissa bits under a rebiased exponent; a carry moves into the
     exponent, up to 0x7c00 (inf) from 65520 on. */
  const uint32_t q = ((uint32_t)(exponent + 15) << 10) | ((significand >> 13) & 0x3ffu);
  return (uint16_t)(sign | round_even(q, significand & 0x1fffu, 13));
}

static float float_of_half(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return float_of(sign | 0x7f800000u | (mantissa << 13)); /* inf, NaN */
  if (exponent == 0) {
    if (mantissa == 0) return float_of(sign);
    /* Subnormal: shift the leading 1 up to the implicit bit, one exponent step per shift. */
    exponent = 113; /* 2^-14 as a biased fp32 exponent, plus one for the first shift */
    do {
      mantissa <<= 1;
      exponent--;
    } while (!(mantissa & 0x400u));
    return float_of(sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13));
  }
  return float_of(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

static uint16_t bfloat16_of(float f) {
  const uint32_t u = bits_of(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u); /* quiet NaN */
  /* The low half rounds the top half; a carry runs into the exponent, up to inf. */
  return (uint16_t)round_even(u >> 16, u & 0xffffu, 16);
}

/* The checks every conversion makes: NULL arrays, and overlap other than in place. */
static ocf_status check_arrays(const char *name, size_t n, const void *in, size_t in_size,
                               const void *out, size_t out_size) {
  ocf_error_clear();
  if (n == 0) return OCF_SUCCESS;
  if (!in || !out)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: %s is NULL", name, !in ? "in" : "out");
  const size_t larger = in_size > out_size ? in_size : out_size;
  if (n > SIZE_MAX / larger)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: n = %zu elements overflow size_t bytes", name, n);
  const uintptr_t in_start = (uintptr_t)in, out_start = (uintptr_t)out;
  if (in_start != out_start && in_start < out_start + n * out_size &&
      out_start < in_start + n * in_size)
    return ocf_fail(OCF_ERR_ALIASING, "%s: out overlaps in (only out == in is allowed)", name);
  return OCF_SUCCESS;
}

/* Element i of an array, read through memcpy: in place, the same bytes are read as one type and
   written as another, which plain typed accesses would let the compiler reorder. */
static float load_float(const float *p, size_t i) {
  float f;
  memcpy(&f, p + i, sizeof f);
  return f;
}

static uint16_t load_16(const uint16_t *p, size_t i) {
  uint16_t h;
  memcpy(&h, p + i, sizeof h);
  return h;
}

/* From fp32 to a 16-bit type, front to back: out[i] (bytes 2i, 2i + 1) is written after in[i]
   (bytes 4i .. 4i + 3) is read and before any later in[] is, so out == in works. */
ocf_status ocf_float_to_half(size_t n, const float *in, cl_half *out) {
  ocf_status status = check_arrays("ocf_float_to_half", n, in, sizeof *in, out, sizeof *out);
  if (status != OCF_SUCCESS) return status;
  for (size_t i = 0; i < n; i++) {
    const uint16_t h = half_of(load_float(in, i));
    memcpy(out + i, &h, sizeof h);
  }
  return OCF_SUCCESS;
}

ocf_status ocf_float_to_bfloat16(size_t n, const float *in, cl_ushort *out) {
  ocf_status status = check_arrays("ocf_float_to_bfloat16", n, in, sizeof *in, out, sizeof *out);
  if (status != OCF_SUCCESS) return status;
  for (size_t i = 0; i < n; i++) {
    const uint16_t h = bfloat16_of(load_float(in, i));
    memcpy(out + i, &h, sizeof h);
  }
  return OCF_SUCCESS;
}

/* From a 16-bit type to fp32, back to front, so that out == in works the other way round. */
ocf_status ocf_half_to_float(size_t n, const cl_half *in, float *out) {
  ocf_status status = check_arrays("ocf_half_to_float", n, in, sizeof *in, out, sizeof *out);
  if (status != OCF_SUCCESS) return status;
  for (size_t i = n; i-- > 0;) {
    const float f = float_of_half(load_16(in, i));
    memcpy(out + i, &f, sizeof f);
  }
  return OCF_SUCCESS;
}

ocf_status ocf_bfloat16_to_float(size_t n, const cl_ushort *in, float *out) {
  ocf_status status = check_arrays("ocf_bfloat16_to_float", n, in, sizeof *in, out, sizeof *out);
  if (status != OCF_SUCCESS) return status;
  for (size_t i = n; i-- > 0;) {
    const float f = float_of((uint32_t)load_16(in, i) << 16);
    memcpy(out + i, &f, sizeof f);
  }
  return OCF_SUCCESS;
}
