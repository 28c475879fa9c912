/*
 * Shared test support: one OpenCL context per group, device buffers, and assertions over the
 * harness's comparisons (fill.h: deterministic inputs; tolerance.h: the error models).
 */
#ifndef OCLFUSE_TEST_COMMON_H
#define OCLFUSE_TEST_COMMON_H

#include "fill.h"
#include "oclfuse.h"
#include "tolerance.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

typedef struct ocft_env {
  ocf_context *ctx;
  cl_context cl;
  cl_device_id device;
  cl_command_queue queue;
  ocf_device_info info;
} ocft_env;

/* Group setup: creates one context on OCLFUSE_TEST_DEVICE (else the library's default rule).
   When no device exists the group still runs and every test skips (ocft_get_env). */
int ocft_group_setup(void **state);
int ocft_group_teardown(void **state);
/* The group's environment; skips the calling test when there is no device. */
ocft_env *ocft_get_env(void **state);

/* Non-zero under Oclgrind (OCLFUSE_TEST_SMALL set): tests then use their small sizes only. */
int ocft_small(void);

/* malloc that fails the test instead of returning NULL; count 0 allocates one element. */
float *ocft_alloc_floats(size_t count);
double *ocft_alloc_doubles(size_t count);

/* A device buffer of `count` floats (at least one), initialised from data when not NULL. */
cl_mem ocft_buffer(const ocft_env *env, size_t count, const float *data);
/* Blocking read of `count` floats from the start of a buffer. */
void ocft_read(const ocft_env *env, cl_mem buffer, size_t count, float *data);
/* Blocking write of `count` floats to the start of a buffer. */
void ocft_write(const ocft_env *env, cl_mem buffer, size_t count, const float *data);

/* Asserts that `status` is `expected`, printing the status names and ocf_last_error() if not. */
#define ocft_assert_status(status, expected) \
  ocft_assert_status_at((status), (expected), __FILE__, __LINE__)
void ocft_assert_status_at(ocf_status status, ocf_status expected, const char *file, int line);

/* Fails the test when the check did not pass, printing `what`, its worst place (index, value,
   reference, tolerance) and how far over the tolerance it is. */
void ocft_assert_check(const char *what, const ocft_check *check);

/* Compares got[i] with want[i] for i < count within tolerance[i] (NULL: exactly), as
   ocft_check_elements does, and asserts that the comparison passed. */
void ocft_assert_close(const char *what, const float *got, const double *want,
                       const double *tolerance, size_t count);

/* Asserts that two float arrays are bitwise identical (NaNs included): "changed nothing". */
void ocft_assert_unchanged(const char *what, const float *got, const float *before, size_t count);

/* Another OpenCL context on the same device, with a buffer of `count` floats and a queue of its
   own: what every call must refuse with OCF_ERR_CONTEXT_MISMATCH. */
typedef struct ocft_foreign {
  cl_context context;
  cl_mem buffer;
  cl_command_queue queue;
} ocft_foreign;
void ocft_foreign_create(const ocft_env *env, size_t count, ocft_foreign *foreign);
void ocft_foreign_release(ocft_foreign *foreign);

/* Launch settings every call must refuse, each with the status it must give: an unknown variant,
   a wait count without a list, a list with a zero count. */
enum { OCFT_BAD_LAUNCHES = 3 };
typedef struct ocft_bad_launch {
  ocf_launch launch;
  ocf_status expected;
} ocft_bad_launch;
void ocft_bad_launches(ocft_bad_launch bad[OCFT_BAD_LAUNCHES]);

#define OCF_ARRAY_LEN_T(a) (sizeof(a) / sizeof((a)[0]))

#endif /* OCLFUSE_TEST_COMMON_H */
