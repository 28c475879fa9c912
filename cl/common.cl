/*
 * common.cl: definitions every liboclfuse program shares. The library passes this text to
 * clCreateProgramWithSource as the first string of every program, before the op's own file, so
 * it is never built on its own and must only define macros and helpers that are always valid.
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
