/* The buffer facts a context keeps for its checks (src/runtime/buffer_facts.c): a handle that a
   released buffer leaves and a smaller new buffer takes is checked against the new size; a
   sub-buffer whose parent the caller released still resolves to it (overlap found, apart
   ranges run); the table stays bounded; a context released before its buffers leaves their
   callbacks harmless (run under Valgrind or TSan to see it). */
#include "runtime/buffer_facts.h"
#include "runtime/context.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>

enum { FLOATS = 1024, TRIES = 200 };

static size_t entries_of(ocf_context *ctx) {
  size_t entries = 0, hits = 0;
  ocf_buffer_facts_stats(ctx->buffer_facts, &entries, &hits);
  return entries;
}

static size_t hits_of(ocf_context *ctx) {
  size_t entries = 0, hits = 0;
  ocf_buffer_facts_stats(ctx->buffer_facts, &entries, &hits);
  return hits;
}

/* A buffer of FLOATS floats is checked (and recorded), then released; a buffer of 16 floats is
   made, until it takes the released handle (or TRIES times): a call that needs FLOATS floats of
   it is refused either way. */
static void test_buffer_facts_reused_handle(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_mem x = ocft_buffer(env, FLOATS, NULL), y = ocft_buffer(env, FLOATS, NULL);
  int reused = 0, tries = 0;
  for (; tries < TRIES && !reused; tries++) {
    cl_mem big = ocft_buffer(env, FLOATS, NULL);
    ocft_assert_status(ocf_add(env->ctx, FLOATS, x, 0, y, 0, big, 0, NULL), OCF_SUCCESS);
    const size_t hits = hits_of(env->ctx);
    ocft_assert_status(ocf_add(env->ctx, FLOATS, x, 0, y, 0, big, 0, NULL), OCF_SUCCESS);
    assert_true(hits_of(env->ctx) > hits); /* recorded: the second call found it */
    assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(big), CL_SUCCESS);
    cl_mem small = ocft_buffer(env, 16, NULL);
    reused = small == big;
    ocft_assert_status(ocf_add(env->ctx, FLOATS, x, 0, y, 0, small, 0, NULL),
                       OCF_ERR_BUFFER_TOO_SMALL);
    ocft_assert_status(ocf_add(env->ctx, 16, x, 0, y, 0, small, 0, NULL), OCF_SUCCESS);
    assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(small), CL_SUCCESS);
  }
  print_message("handle reused after %d tries%s\n", tries, reused ? "" : " (never: not shown)");
  clReleaseMemObject(y);
  clReleaseMemObject(x);
}

/* Two overlapping sub-buffers of a parent the caller released: their overlap is still found,
   and apart ranges of them still run, with the right sums. */
static void test_buffer_facts_parent_released(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_uint align_bits = 0;
  assert_int_equal(clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                   &align_bits, NULL),
                   CL_SUCCESS);
  /* The second sub-buffer starts `shift` floats in: an aligned origin, inside the first. */
  size_t shift = align_bits / 8 / sizeof(float);
  if (shift < FLOATS / 2) shift = FLOATS / 2;
  if (shift >= FLOATS) skip();
  float *host = ocft_alloc_floats(2 * FLOATS), *got = ocft_alloc_floats(FLOATS);
  for (size_t i = 0; i < 2 * FLOATS; i++)
    host[i] = (float)(i % 13);
  cl_mem parent = ocft_buffer(env, 2 * FLOATS, host);
  cl_buffer_region first = {0, FLOATS * sizeof(float)},
                   second = {shift * sizeof(float), FLOATS * sizeof(float)};
  cl_int err = CL_SUCCESS;
  cl_mem a =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem b =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &second, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
  for (int round = 0; round < 2; round++) { /* recorded, then found */
    /* b from 0 is a's floats from shift on: out partly over x. */
    ocft_assert_status(ocf_add(env->ctx, FLOATS, a, 0, a, 0, b, 0, NULL), OCF_ERR_ALIASING);
    /* b from FLOATS - shift lies past a's end: apart. */
    ocft_assert_status(ocf_add(env->ctx, shift, a, 0, a, 0, b, FLOATS - shift, NULL), OCF_SUCCESS);
  }
  const size_t n = shift;
  ocft_read(env, b, FLOATS, got);
  for (size_t i = 0; i < n; i++)
    assert_true(got[FLOATS - shift + i] == 2.0f * host[i]);
  clReleaseMemObject(b);
  clReleaseMemObject(a);
  free(got);
  free(host);
}

/* More buffers than the table holds: it stays within its bound, and every call is checked. */
static void test_buffer_facts_bounded(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { COUNT = OCF_BUFFER_FACTS_ENTRIES + 40 };
  cl_mem *buffers = calloc(COUNT, sizeof *buffers);
  assert_non_null(buffers);
  cl_mem x = ocft_buffer(env, 64, NULL);
  for (size_t i = 0; i < COUNT; i++) {
    buffers[i] = ocft_buffer(env, 16 + i % 3, NULL);
    ocft_assert_status(ocf_add(env->ctx, 16, x, 0, x, 0, buffers[i], 0, NULL), OCF_SUCCESS);
    assert_true(entries_of(env->ctx) <= OCF_BUFFER_FACTS_ENTRIES);
  }
  for (size_t i = 0; i < COUNT; i++) /* evicted or not, each is checked against its size */
    ocft_assert_status(ocf_add(env->ctx, 17 + i % 3, x, 0, x, 0, buffers[i], 0, NULL),
                       OCF_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  for (size_t i = 0; i < COUNT; i++)
    clReleaseMemObject(buffers[i]);
  clReleaseMemObject(x);
  free(buffers);
}

/* A second ocf_context on the same OpenCL context records the buffers, then is released before
   them: their callbacks run after, on a table that is gone, and do nothing. */
static void test_buffer_facts_context_released_first(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *second = NULL;
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, env->queue, &second), OCF_SUCCESS);
  cl_mem x = ocft_buffer(env, 64, NULL), out = ocft_buffer(env, 64, NULL);
  for (int i = 0; i < 2; i++) {
    ocft_assert_status(ocf_add(second, 64, x, 0, x, 0, out, 0, NULL), OCF_SUCCESS);
    ocft_assert_status(ocf_add(env->ctx, 64, x, 0, x, 0, out, 0, NULL), OCF_SUCCESS);
  }
  assert_true(entries_of(second) >= 2);
  ocf_context_release(second);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(out);
  clReleaseMemObject(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_buffer_facts_reused_handle),
      cmocka_unit_test(test_buffer_facts_parent_released),
      cmocka_unit_test(test_buffer_facts_bounded),
      cmocka_unit_test(test_buffer_facts_context_released_first),
  };
  return cmocka_run_group_tests_name("buffer_facts", tests, ocft_group_setup, ocft_group_teardown);
}
