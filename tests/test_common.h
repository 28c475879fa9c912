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
/* Runs only the tests whose names match OCFT_ONLY (CMocka's pattern: * and ?), where it is set:
   one test of a long suite on the GPU; and none whose names match OCFT_SKIP (a suite's run
   under valgrind leaves out what only varies the kernels). Call before running the group. */
void ocft_filter_tests(void);

/* malloc that fails the test instead of returning NULL; count 0 allocates one element. */
float *ocft_alloc_floats(size_t count);
double *ocft_alloc_doubles(size_t count);

/* A device buffer of `count` floats (at least one), initialised from data when not NULL. */
cl_mem ocft_buffer(const ocft_env *env, size_t count, const float *data);
/* A device buffer of `bytes` bytes (at least one), every byte `pattern`, initialised from the
   host (as Oclgrind 21.10 needs of a workspace: see src/runtime/workspace.c). */
cl_mem ocft_byte_buffer(const ocft_env *env, size_t bytes, unsigned char pattern);
/* ocft_byte_buffer of 0xff bytes: every float (and every 16-bit float) in it a NaN. The workspace
   of a plan that does not zero its scratch: a value it reads before writing shows in the output. */
cl_mem ocft_nan_buffer(const ocft_env *env, size_t bytes);
/* Sets bytes [start, end) of a buffer to `pattern` (blocking). */
void ocft_fill_bytes(const ocft_env *env, cl_mem buffer, size_t start, size_t end,
                     unsigned char pattern);
/* Whether every byte of a buffer in [start, end) is `pattern`: a workspace's bytes past the size
   a call was lent, which it must not touch. */
int ocft_bytes_are(const ocft_env *env, cl_mem buffer, size_t start, size_t end,
                   unsigned char pattern);
/* Blocking read of `count` floats from the start of a buffer. */
void ocft_read(const ocft_env *env, cl_mem buffer, size_t count, float *data);
/* Blocking write of `count` floats to the start of a buffer. */
void ocft_write(const ocft_env *env, cl_mem buffer, size_t count, const float *data);

/* Whether a call was refused because the built kernel allows fewer work-items than `asked`:
   OCF_ERR_INVALID_WORKGROUP naming the kernel's maximum (CL_KERNEL_WORK_GROUP_SIZE), below the
   size asked. Drivers report anything from 1 up (1 on Apple's CPU, 32 for every kernel on
   rusticl's llvmpipe, 256 on NVIDIA's H200), so no explicit size above 1 is sure to run. */
int ocft_refused_by_kernel_limit(ocf_status status, size_t asked);

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
  cl_event event; /* a user event of that context, complete */
} ocft_foreign;
void ocft_foreign_create(const ocft_env *env, size_t count, ocft_foreign *foreign);
void ocft_foreign_release(ocft_foreign *foreign);

/* ---- tables of calls that must be refused ----
   Each op's test lists its bad calls in one table (what the row tests, the call's arguments, the
   status it must give) and runs every row: a row fails when its status differs or when the output
   buffer changed, every failing row is reported, and the test fails at the end if any did. */

/* The buffers a row names. */
typedef enum ocft_buf {
  OCFT_IN,      /* an input buffer */
  OCFT_OUT,     /* the output buffer, whose contents every row must leave untouched */
  OCFT_OUT_SUB, /* a sub-buffer over the first half of OCFT_OUT */
  OCFT_FOREIGN, /* a buffer of another OpenCL context on the same device */
  OCFT_NO_BUF   /* NULL */
} ocft_buf;

/* The launch settings a row names, each refused with its own status. */
typedef enum ocft_launch_kind {
  OCFT_LAUNCH_DEFAULT,        /* NULL: the defaults (not refused) */
  OCFT_LAUNCH_BAD_VARIANT,    /* variant 9: OCF_ERR_INVALID_VALUE */
  OCFT_LAUNCH_COUNT_NO_LIST,  /* one wait event, no list: OCF_ERR_NULL_ARGUMENT */
  OCFT_LAUNCH_LIST_NO_COUNT,  /* a wait list with a count of 0: OCF_ERR_INVALID_VALUE */
  OCFT_LAUNCH_SIZE_ZERO,      /* size member 0: OCF_ERR_INVALID_STRUCT */
  OCFT_LAUNCH_SIZE_SMALL,     /* size member without `variant`, smaller than the first version's:
                                 OCF_ERR_INVALID_STRUCT */
  OCFT_LAUNCH_FOREIGN_QUEUE,  /* a queue of another OpenCL context: OCF_ERR_CONTEXT_MISMATCH */
  OCFT_LAUNCH_FIRST_NO_EVENT, /* first_event without event: OCF_ERR_INVALID_VALUE */
  OCFT_LAUNCH_FOREIGN_EVENT,  /* a wait event of another OpenCL context (second of two):
                                 OCF_ERR_CONTEXT_MISMATCH */
  OCFT_LAUNCH_NULL_EVENT      /* a NULL wait event (second of two): OCF_ERR_NULL_ARGUMENT */
} ocft_launch_kind;

/* One table run: the buffers its rows name, the output's contents before the run, and how many
   rows failed. */
typedef struct ocft_refusals {
  const ocft_env *env;
  cl_mem in, out, out_sub;
  ocft_foreign foreign;
  float *before, *after;
  size_t count; /* floats in each buffer */
  int rows, failures;
} ocft_refusals;

/* Creates the buffers (count floats each, filled from `seed`) and the foreign context. */
void ocft_refusals_start(ocft_refusals *run, const ocft_env *env, size_t count, uint64_t seed);
/* The buffer a row names. */
cl_mem ocft_refusals_buffer(const ocft_refusals *run, ocft_buf which);
/* The launch a row names, built in *storage; NULL for OCFT_LAUNCH_DEFAULT. */
const ocf_launch *ocft_refusals_launch(const ocft_refusals *run, ocft_launch_kind kind,
                                       ocf_launch *storage);
/* Judges one row after its call: the status must be `expected` and the output untouched (it is
   restored for the next row either way). A failing row is printed with `what`, both statuses and
   ocf_last_error(). */
void ocft_refusals_record(ocft_refusals *run, const char *what, ocf_status status,
                          ocf_status expected);
/* Releases the run's objects, then fails the test if any row failed. */
void ocft_refusals_finish(ocft_refusals *run);

#define OCF_ARRAY_LEN_T(a) (sizeof(a) / sizeof((a)[0]))

#endif /* OCLFUSE_TEST_COMMON_H */
