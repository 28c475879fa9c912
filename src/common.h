/*
 * Declarations every library source shares: the last-error text and small arithmetic helpers.
 * Nothing here calls OpenCL, so the device-free parts of the library (tuning, planning) can use
 * it too. Nothing here is exported: the build uses -fvisibility=hidden and only OCF_API
 * functions are visible.
 */
#ifndef OCLFUSE_COMMON_H
#define OCLFUSE_COMMON_H

#include "oclfuse.h"

#include <stddef.h>
#include <stdint.h>

#define OCF_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define OCF_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OCF_PRINTF(f, a)
#endif

/* ---- errors.c: thread-local last-error text ---- */

/* Records a formatted message for ocf_last_error() and returns `status`. */
ocf_status ocf_fail(ocf_status status, const char *fmt, ...) OCF_PRINTF(2, 3);
/* Records "<what> failed: CL_NAME (code)" and returns the OpenCL code as a status. */
ocf_status ocf_fail_cl(cl_int err, const char *what);
/* Appends text (e.g. a build log) to the last-error message. */
void ocf_error_append(const char *text);
/* Clears the last-error text; every public entry point calls it first. */
void ocf_error_clear(void);
/* Records what a successful call enqueued, for ocf_last_plan(). */
void ocf_plan_note(const char *text);
/* Returns "CL_OUT_OF_RESOURCES" for -5, or NULL for a code OpenCL does not define. */
const char *ocf_cl_error_name(cl_int err);

/* ---- arith.c ---- */

/* Rounds x up to a multiple of m (m > 0); saturates rather than wrapping. */
size_t ocf_round_up(size_t x, size_t m);
/* ceil(a / b) for b > 0. */
size_t ocf_div_ceil(size_t a, size_t b);
/* The smallest power of two >= x (1 for x <= 1); saturates at the largest size_t power. */
size_t ocf_pow2_ceil(size_t x);
/* The largest power of two <= x (x >= 1). */
size_t ocf_pow2_floor(size_t x);
/* Non-zero when x is a power of two (1, 2, 4, ...). */
int ocf_is_pow2(size_t x);
/* The smaller and the larger of two sizes. */
size_t ocf_min_size(size_t a, size_t b);
size_t ocf_max_size(size_t a, size_t b);
/* The smallest value >= x of the ladder 1 2 3 4 6 8 12 16 24 32 48 64 ... (powers of two and
   three halves of them): at most a third more than x. The planners size workgroups and segments
   on it, so that one program serves many widths. */
size_t ocf_ladder_up(size_t x);
/* Whether two matrices with the same row stride `ld` (>= both column counts) share an element:
   A has a_rows x a_cols elements from element a_start, its row i at a_start + i * ld, likewise
   B. Exact: interleaved rows that share no element do not overlap. Rows and stride are those of
   checked extents ((rows - 1) * ld + cols fits in size_t). */
int ocf_strided_overlap(size_t a_start, size_t a_rows, size_t a_cols, size_t b_start, size_t b_rows,
                        size_t b_cols, size_t ld);
/* Case-insensitive substring test; an empty needle matches. */
int ocf_contains_nocase(const char *haystack, const char *needle);

#endif /* OCLFUSE_COMMON_H */
