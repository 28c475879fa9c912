/*
 * ocf_add against a CPU reference.
 *
 * Tolerance: none. OpenCL requires fp32 addition to be correctly rounded, and the reference
 * (double)x + (double)y is exact for the inputs used here (exponents within 29 of each other), so
 * rounding it to float gives the one right answer; every variant must match it bit for bit.
 */
#include "reference.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {0,  1,  2,  3,    4,    5,    7,    8,     9,      15,
                               16, 17, 31, 1023, 1024, 1025, 4099, 65537, 1000003};
static const size_t small_size_limit = 4099;

/* Runs one call on fresh buffers with the given offsets and compares every element, and checks
   that the padding outside [offset, offset + n) of out is untouched. */
static void check_add(ocft_env *env, size_t n, size_t x_off, size_t y_off, size_t out_off,
                      const ocf_launch *launch) {
  size_t x_len = x_off + n, y_len = y_off + n, out_len = out_off + n + 5;
  float *x = ocft_alloc_floats(x_len), *y = ocft_alloc_floats(y_len);
  float *out = ocft_alloc_floats(out_len), *sentinel = ocft_alloc_floats(out_len);
  double *want = ocft_alloc_doubles(n), *zero = ocft_alloc_doubles(n);
  ocft_fill_uniform(x, x_len, -100.0f, 100.0f, 1 + n);
  ocft_fill_uniform(y, y_len, -100.0f, 100.0f, 2 + n);
  ocft_fill_uniform(sentinel, out_len, 1e6f, 2e6f, 3 + n);
  ocf_ref_add(n, x + x_off, y + y_off, want);
  memset(zero, 0, (n ? n : 1) * sizeof *zero);

  cl_mem xb = ocft_buffer(env, x_len, x), yb = ocft_buffer(env, y_len, y);
  cl_mem ob = ocft_buffer(env, out_len, sentinel);
  ocft_assert_status(ocf_add(env->ctx, n, xb, x_off, yb, y_off, ob, out_off, launch), OCF_SUCCESS);
  ocft_read(env, ob, out_len, out);
  ocft_assert_close("add", out + out_off, want, zero, n);
  ocft_assert_unchanged("add: before out_offset", out, sentinel, out_off);
  ocft_assert_unchanged("add: after the end", out + out_off + n, sentinel + out_off + n, 5);

  clReleaseMemObject(xb);
  clReleaseMemObject(yb);
  clReleaseMemObject(ob);
  free(x), free(y), free(out), free(sentinel), free(want), free(zero);
}

static void test_add_sizes_all_variants(void **state) {
  ocft_env *env = ocft_get_env(state);
  const ocf_variant variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL, OCF_VARIANT_BASELINE};
  for (size_t v = 0; v < OCF_ARRAY_LEN_T(variants); v++) {
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = variants[v];
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(sizes); i++) {
      if (ocft_small() && sizes[i] > small_size_limit) continue;
      check_add(env, sizes[i], 0, 0, 0, &launch);
    }
  }
}

static void test_add_offsets(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* Aligned (multiples of every vector width), misaligned, and mixed offsets; each offset the
     only misaligned one (the vector kernel needs all three aligned). */
  const size_t offsets[][3] = {{0, 0, 0},    {1, 2, 3}, {4, 8, 12}, {16, 16, 16}, {5, 0, 7},
                               {13, 13, 13}, {1, 0, 0}, {0, 3, 0},  {0, 0, 1},    {16, 16, 13}};
  const size_t lengths[] = {1, 3, 17, 1025, 65537};
  for (size_t o = 0; o < OCF_ARRAY_LEN_T(offsets); o++)
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(lengths); i++)
      check_add(env, lengths[i], offsets[o][0], offsets[o][1], offsets[o][2], NULL);
}

static void test_add_in_place(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t n = ocft_small() ? 1031 : 100003;
  float *x = ocft_alloc_floats(n + 3), *y = ocft_alloc_floats(n + 3), *got = ocft_alloc_floats(n);
  double *want = ocft_alloc_doubles(n), *zero = ocft_alloc_doubles(n);
  memset(zero, 0, n * sizeof *zero);
  ocft_fill_uniform(x, n + 3, -1.0f, 1.0f, 11);
  ocft_fill_uniform(y, n + 3, -1.0f, 1.0f, 12);

  /* out == x */
  cl_mem xb = ocft_buffer(env, n + 3, x), yb = ocft_buffer(env, n + 3, y);
  ocft_assert_status(ocf_add(env->ctx, n, xb, 3, yb, 1, xb, 3, NULL), OCF_SUCCESS);
  ocf_ref_add(n, x + 3, y + 1, want);
  float *all = ocft_alloc_floats(n + 3);
  ocft_read(env, xb, n + 3, all);
  ocft_assert_close("add in place (out == x)", all + 3, want, zero, n);

  /* out == y == x: doubling */
  ocft_write(env, yb, n + 3, y);
  ocft_assert_status(ocf_add(env->ctx, n, yb, 0, yb, 0, yb, 0, NULL), OCF_SUCCESS);
  ocf_ref_add(n, y, y, want);
  ocft_read(env, yb, n, got);
  ocft_assert_close("add in place (out == x == y)", got, want, zero, n);

  clReleaseMemObject(xb);
  clReleaseMemObject(yb);
  free(x), free(y), free(got), free(want), free(zero), free(all);
}

/* Every workgroup size the device and kernel accept gives the same (exact) result. A size within
   the device's maximum may still be above what the built kernel allows (NVIDIA reports 256 for
   these kernels, rusticl 32): that is refused with OCF_ERR_INVALID_WORKGROUP naming the kernel's
   limit, and only then. One above the device's maximum is refused too and changes nothing. */
static void test_add_workgroup_sizes(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t n = 4099;
  size_t max = env->info.max_workgroup_size;
  const size_t candidates[] = {1, 2, 3, 7, 16, 32, 33, 64, 100, 128, 256, 384, 512, 1024};
  cl_mem probe = ocft_buffer(env, 1, NULL);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(candidates); i++) {
    if (candidates[i] > max || (ocft_small() && candidates[i] > 256)) continue;
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.workgroup_size = candidates[i];
    ocf_status status = ocf_add(env->ctx, 1, probe, 0, probe, 0, probe, 0, &launch);
    if (ocft_refused_by_kernel_limit(status, candidates[i])) continue;
    ocft_assert_status(status, OCF_SUCCESS);
    check_add(env, n, 1, 0, 2, &launch);
    check_add(env, n, 0, 0, 0, &launch);
  }
  clReleaseMemObject(probe);
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, before[8], after[8];
  memcpy(before, x, sizeof x);
  cl_mem xb = ocft_buffer(env, 8, x), ob = ocft_buffer(env, 8, before);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workgroup_size = max + 1;
  ocft_assert_status(ocf_add(env->ctx, 8, xb, 0, xb, 0, ob, 0, &launch), OCF_ERR_INVALID_WORKGROUP);
  assert_true(strstr(ocf_last_error(), "workgroup") != NULL);
  ocft_read(env, ob, 8, after);
  ocft_assert_unchanged("add with a refused workgroup", after, before, 8);
  clReleaseMemObject(xb);
  clReleaseMemObject(ob);
}

/* One call that must be refused: out = x + y with these arguments. */
typedef struct bad_add {
  const char *what;
  ocf_status expected;
  int no_context;
  size_t n;
  ocft_buf x;
  size_t x_off;
  ocft_buf y;
  size_t y_off;
  ocft_buf out;
  size_t out_off;
  ocft_launch_kind launch;
} bad_add;

enum { BAD_N = 64 }; /* floats in each buffer of the table */

static const bad_add bad_adds[] = {
    {"no context", OCF_ERR_NULL_ARGUMENT, 1, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT, 0, 0},
    {"x NULL", OCF_ERR_NULL_ARGUMENT, 0, BAD_N, OCFT_NO_BUF, 0, OCFT_IN, 0, OCFT_OUT, 0, 0},
    {"y NULL", OCF_ERR_NULL_ARGUMENT, 0, BAD_N, OCFT_IN, 0, OCFT_NO_BUF, 0, OCFT_OUT, 0, 0},
    {"out NULL", OCF_ERR_NULL_ARGUMENT, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_NO_BUF, 0, 0},
    {"n past the buffers", OCF_ERR_BUFFER_TOO_SMALL, 0, BAD_N + 1, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT,
     0, 0},
    {"x offset past its buffer", OCF_ERR_BUFFER_TOO_SMALL, 0, BAD_N, OCFT_IN, 1, OCFT_IN, 0,
     OCFT_OUT, 0, 0},
    {"x offset beyond the end", OCF_ERR_BUFFER_TOO_SMALL, 0, 1, OCFT_IN, BAD_N + 1, OCFT_IN, 0,
     OCFT_OUT, 0, 0},
    {"out offset SIZE_MAX", OCF_ERR_BUFFER_TOO_SMALL, 0, 2, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT,
     SIZE_MAX, 0},
    {"n whose bytes overflow", OCF_ERR_SIZE_OVERFLOW, 0, SIZE_MAX / 2, OCFT_IN, 0, OCFT_IN, 0,
     OCFT_OUT, 0, 0},
    {"unknown variant", OCF_ERR_INVALID_VALUE, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT, 0,
     OCFT_LAUNCH_BAD_VARIANT},
    {"wait count without a list", OCF_ERR_NULL_ARGUMENT, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT,
     0, OCFT_LAUNCH_COUNT_NO_LIST},
    {"wait list without a count", OCF_ERR_INVALID_VALUE, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT,
     0, OCFT_LAUNCH_LIST_NO_COUNT},
    {"launch size 0", OCF_ERR_INVALID_STRUCT, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT, 0,
     OCFT_LAUNCH_SIZE_ZERO},
    {"launch size below its first version", OCF_ERR_INVALID_STRUCT, 0, BAD_N, OCFT_IN, 0, OCFT_IN,
     0, OCFT_OUT, 0, OCFT_LAUNCH_SIZE_SMALL},
    /* out overlapping x partly (shifted by one) is a race; so is it through a sub-buffer */
    {"out shifted over x", OCF_ERR_ALIASING, 0, BAD_N - 1, OCFT_OUT, 0, OCFT_IN, 0, OCFT_OUT, 1, 0},
    {"out a sub-buffer over x", OCF_ERR_ALIASING, 0, 16, OCFT_OUT, 8, OCFT_IN, 0, OCFT_OUT_SUB, 0,
     0},
    {"x of another context", OCF_ERR_CONTEXT_MISMATCH, 0, BAD_N, OCFT_FOREIGN, 0, OCFT_IN, 0,
     OCFT_OUT, 0, 0},
    {"a queue of another context", OCF_ERR_CONTEXT_MISMATCH, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0,
     OCFT_OUT, 0, OCFT_LAUNCH_FOREIGN_QUEUE},
    {"first_event without event", OCF_ERR_INVALID_VALUE, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT,
     0, OCFT_LAUNCH_FIRST_NO_EVENT},
    {"a wait event of another context", OCF_ERR_CONTEXT_MISMATCH, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0,
     OCFT_OUT, 0, OCFT_LAUNCH_FOREIGN_EVENT},
    {"a NULL wait event", OCF_ERR_NULL_ARGUMENT, 0, BAD_N, OCFT_IN, 0, OCFT_IN, 0, OCFT_OUT, 0,
     OCFT_LAUNCH_NULL_EVENT},
};

/* Every validation rule returns its own status and leaves out untouched. */
static void test_add_rejects_bad_arguments(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocft_refusals run;
  ocft_refusals_start(&run, env, BAD_N, 5);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(bad_adds); i++) {
    const bad_add *b = &bad_adds[i];
    ocf_launch storage;
    ocf_status status =
        ocf_add(b->no_context ? NULL : env->ctx, b->n, ocft_refusals_buffer(&run, b->x), b->x_off,
                ocft_refusals_buffer(&run, b->y), b->y_off, ocft_refusals_buffer(&run, b->out),
                b->out_off, ocft_refusals_launch(&run, b->launch, &storage));
    ocft_refusals_record(&run, b->what, status, b->expected);
  }
  ocft_refusals_finish(&run);
}

/* The out event completes after the work, and the wait list holds the kernel back. */
static void test_add_events(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = 1000 };
  float x[N], got[N];
  double want[N], zero[N];
  ocft_fill_uniform(x, N, -1.0f, 1.0f, 21);
  ocf_ref_add(N, x, x, want);
  memset(zero, 0, sizeof zero);
  cl_mem xb = ocft_buffer(env, N, x), ob = ocft_buffer(env, N, NULL);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env->cl, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_event done = NULL;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.num_wait_events = 1;
  launch.wait_events = &gate;
  launch.event = &done;
  ocft_assert_status(ocf_add(env->ctx, N, xb, 0, xb, 0, ob, 0, &launch), OCF_SUCCESS);
  assert_non_null(done);
  cl_int state_now = 0;
  assert_int_equal(
      clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state_now, &state_now, NULL),
      CL_SUCCESS);
  assert_true(state_now != CL_COMPLETE); /* held back by the gate */
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  ocft_read(env, ob, N, got);
  ocft_assert_close("add after events", got, want, zero, N);
  clReleaseEvent(done);

  /* Empty work still gives a usable event when asked for one. */
  done = NULL;
  ocf_launch empty = OCF_LAUNCH_INIT;
  empty.event = &done;
  ocft_assert_status(ocf_add(env->ctx, 0, xb, 0, xb, 0, ob, 0, &empty), OCF_SUCCESS);
  assert_non_null(done);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(xb);
  clReleaseMemObject(ob);
}

static void test_add_host(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t n = 10007;
  float *x = ocft_alloc_floats(n), *y = ocft_alloc_floats(n), *got = ocft_alloc_floats(n);
  double *want = ocft_alloc_doubles(n), *zero = ocft_alloc_doubles(n);
  memset(zero, 0, n * sizeof *zero);
  ocft_fill_uniform(x, n, -3.0f, 3.0f, 31);
  ocft_fill_uniform(y, n, -3.0f, 3.0f, 32);
  ocf_ref_add(n, x, y, want);
  ocft_assert_status(ocf_add_host(env->ctx, n, x, y, got), OCF_SUCCESS);
  ocft_assert_close("add_host", got, want, zero, n);
  ocft_assert_status(ocf_add_host(env->ctx, n, x, NULL, got), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_add_host(env->ctx, 0, NULL, NULL, NULL), OCF_SUCCESS);
  free(x), free(y), free(got), free(want), free(zero);
}

/* Past 2^31 elements (8 GiB a buffer): only where OCLFUSE_TEST_HUGE is set and memory allows. */
static void test_add_past_2_31(void **state) {
  ocft_env *env = ocft_get_env(state);
  const char *huge = getenv("OCLFUSE_TEST_HUGE");
  if (!huge || !huge[0] || ocft_small()) skip();
  const size_t n = ((size_t)1 << 31) + 77;
  if (env->info.global_mem_bytes < 3 * n * sizeof(float)) skip();
  /* In place, x + x: two buffers of n floats; compare the ends, where 32-bit indices would wrap. */
  float *x = ocft_alloc_floats(n);
  for (size_t i = 0; i < n; i++)
    x[i] = (float)(i % 1000);
  cl_mem xb = ocft_buffer(env, n, x), ob = ocft_buffer(env, n, NULL);
  ocft_assert_status(ocf_add(env->ctx, n, xb, 0, xb, 0, ob, 0, NULL), OCF_SUCCESS);
  ocft_read(env, ob, n, x);
  for (size_t i = 0; i < n; i += 4099)
    assert_true(x[i] == (float)(2 * (i % 1000)));
  for (size_t i = n - 100; i < n; i++)
    assert_true(x[i] == (float)(2 * (i % 1000)));
  clReleaseMemObject(xb);
  clReleaseMemObject(ob);
  free(x);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add_sizes_all_variants),
      cmocka_unit_test(test_add_offsets),
      cmocka_unit_test(test_add_in_place),
      cmocka_unit_test(test_add_workgroup_sizes),
      cmocka_unit_test(test_add_rejects_bad_arguments),
      cmocka_unit_test(test_add_events),
      cmocka_unit_test(test_add_host),
      cmocka_unit_test(test_add_past_2_31),
  };
  return cmocka_run_group_tests_name("add", tests, ocft_group_setup, ocft_group_teardown);
}
