/*
 * The 16-bit storage types on the CPU, as cl/common.cl stores them: float -> IEEE binary16 or
 * bfloat16 (the top half of the float) rounded to nearest even (overflow to inf, a NaN kept a
 * NaN), and back (exact). Shared by the references, the tests and the labs.
 */
#ifndef OCLFUSE_STORAGE16_H
#define OCLFUSE_STORAGE16_H

#include <stdint.h>

/* A float's bits, and the float of some bits (no conversion). */
uint32_t ocf_ref_bits_of(float f);
float ocf_ref_float_of(uint32_t u);

uint16_t ocf_ref_f16_from_float(float f);
float ocf_ref_f16_to_float(uint16_t h);
uint16_t ocf_ref_bf16_from_float(float f);
float ocf_ref_bf16_to_float(uint16_t h);

#endif /* OCLFUSE_STORAGE16_H */
