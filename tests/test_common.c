#include "test_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ocft_env group_env;

int ocft_group_setup(void **state) {
  const char *spec = getenv("OCLFUSE_TEST_DEVICE");
  memset(&group_env, 0, sizeof group_env);
  ocf_status status = ocf_context_create(spec, &group_env.ctx);
  if (status == OCF_ERR_NO_DEVICE) {
    fprintf(stderr, "no OpenCL device: every test of this group is skipped (%s)\n",
            ocf_last_error());
    *state = NULL;
    return 0;
  }
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "ocf_context_create: %s: %s\n", ocf_status_name(status), ocf_last_error());
    return -1;
  }
  group_env.cl = ocf_context_cl_context(group_env.ctx);
  group_env.device = ocf_context_device(group_env.ctx);
  group_env.queue = ocf_context_queue(group_env.ctx);
  ocf_device_info_init(&group_env.info);
  ocf_context_device_info(group_env.ctx, &group_env.info);
  *state = &group_env;
  return 0;
}

int ocft_group_teardown(void **state) {
  ocft_env *env = *state;
  if (env) ocf_context_release(env->ctx);
  return 0;
}

ocft_env *ocft_get_env(void **state) {
  /* cmocka hands each test the group state through its own pointer. */
  ocft_env *env = *state;
  if (!env) skip();
  return env;
}

int ocft_small(void) {
  const char *small = getenv("OCLFUSE_TEST_SMALL");
  return small && small[0] && strcmp(small, "0") != 0;
}

void ocft_filter_tests(void) {
  const char *only = getenv("OCFT_ONLY"), *skip = getenv("OCFT_SKIP");
  if (only && only[0]) cmocka_set_test_filter(only);
  if (skip && skip[0]) cmocka_set_skip_filter(skip);
}

float *ocft_alloc_floats(size_t count) {
  float *data = malloc((count ? count : 1) * sizeof *data);
  assert_non_null(data);
  return data;
}

double *ocft_alloc_doubles(size_t count) {
  double *data = malloc((count ? count : 1) * sizeof *data);
  assert_non_null(data);
  return data;
}

cl_mem ocft_buffer(const ocft_env *env, size_t count, const float *data) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (count ? count : 1) * sizeof(float);
  cl_mem buffer = clCreateBuffer(env->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  if (data && count) ocft_write(env, buffer, count, data);
  return buffer;
}

cl_mem ocft_byte_buffer(const ocft_env *env, size_t bytes, unsigned char pattern) {
  if (bytes == 0) bytes = 1;
  unsigned char *data = malloc(bytes);
  assert_non_null(data);
  memset(data, pattern, bytes);
  cl_int err = CL_SUCCESS;
  cl_mem buffer =
      clCreateBuffer(env->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, data, &err);
  free(data);
  assert_int_equal(err, CL_SUCCESS);
  return buffer;
}

cl_mem ocft_nan_buffer(const ocft_env *env, size_t bytes) {
  return ocft_byte_buffer(env, bytes, 0xff);
}

void ocft_fill_bytes(const ocft_env *env, cl_mem buffer, size_t start, size_t end,
                     unsigned char pattern) {
  if (end <= start) return;
  /* Written from the host, not filled on the device: Oclgrind 21.10 then reports as
     uninitialised every later read of those bytes, even of values a kernel wrote since. */
  unsigned char *bytes = malloc(end - start);
  assert_non_null(bytes);
  memset(bytes, pattern, end - start);
  assert_int_equal(
      clEnqueueWriteBuffer(env->queue, buffer, CL_TRUE, start, end - start, bytes, 0, NULL, NULL),
      CL_SUCCESS);
  free(bytes);
}

int ocft_bytes_are(const ocft_env *env, cl_mem buffer, size_t start, size_t end,
                   unsigned char pattern) {
  if (end <= start) return 1;
  unsigned char *data = malloc(end - start);
  assert_non_null(data);
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, buffer, CL_TRUE, start, end - start, data, 0, NULL, NULL),
      CL_SUCCESS);
  int same = 1;
  for (size_t i = 0; i < end - start && same; i++)
    same = data[i] == pattern;
  free(data);
  return same;
}

void ocft_read(const ocft_env *env, cl_mem buffer, size_t count, float *data) {
  if (count == 0) return;
  assert_int_equal(clEnqueueReadBuffer(env->queue, buffer, CL_TRUE, 0, count * sizeof(float), data,
                                       0, NULL, NULL),
                   CL_SUCCESS);
}

void ocft_write(const ocft_env *env, cl_mem buffer, size_t count, const float *data) {
  if (count == 0) return;
  assert_int_equal(clEnqueueWriteBuffer(env->queue, buffer, CL_TRUE, 0, count * sizeof(float), data,
                                        0, NULL, NULL),
                   CL_SUCCESS);
}

int ocft_refused_by_kernel_limit(ocf_status status, size_t asked) {
  if (status != OCF_ERR_INVALID_WORKGROUP) return 0;
  const char *at = strstr(ocf_last_error(), "'s maximum of ");
  unsigned long long limit = 0;
  return at && sscanf(at, "'s maximum of %llu", &limit) == 1 && limit < asked;
}

void ocft_assert_status_at(ocf_status status, ocf_status expected, const char *file, int line) {
  if (status == expected) return;
  print_error("%s:%d: status %s (%d), expected %s (%d)\n  last error: %s\n", file, line,
              ocf_status_name(status), (int)status, ocf_status_name(expected), (int)expected,
              ocf_last_error());
  fail();
}

void ocft_assert_check(const char *what, const ocft_check *check) {
  if (ocft_check_passed(check)) return;
  if (check->row_factor)
    print_error("%s: the row starting at element %zu is off as a whole: its common factor is "
                "%.9g, |factor - 1| %.3g > tolerance %.3g\n",
                what, check->worst, check->got, fabs(check->got - 1.0), check->tolerance);
  else
    print_error("%s: element %zu is %.9g, expected %.9g, |diff| %.3g > tolerance %.3g (%.3g "
                "times it)\n",
                what, check->worst, check->got, check->want, fabs(check->got - check->want),
                check->tolerance, check->ratio);
  fail();
}

void ocft_assert_close(const char *what, const float *got, const double *want,
                       const double *tolerance, size_t count) {
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(got, want, tolerance, count, &check);
  ocft_assert_check(what, &check);
}

void ocft_assert_unchanged(const char *what, const float *got, const float *before, size_t count) {
  if (count && memcmp(got, before, count * sizeof *got) != 0) {
    for (size_t i = 0; i < count; i++) {
      if (memcmp(&got[i], &before[i], sizeof *got) != 0) {
        print_error("%s: element %zu changed from %.9g to %.9g\n", what, i, before[i], got[i]);
        break;
      }
    }
    fail();
  }
}

void ocft_foreign_create(const ocft_env *env, size_t count, ocft_foreign *foreign) {
  cl_int err = CL_SUCCESS;
  foreign->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  foreign->buffer = clCreateBuffer(foreign->context, CL_MEM_READ_WRITE,
                                   (count ? count : 1) * sizeof(float), NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  foreign->queue = clCreateCommandQueue(foreign->context, env->device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);
  foreign->event = clCreateUserEvent(foreign->context, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(foreign->event, CL_COMPLETE), CL_SUCCESS);
}

void ocft_foreign_release(ocft_foreign *foreign) {
  clReleaseEvent(foreign->event);
  clReleaseCommandQueue(foreign->queue);
  clReleaseMemObject(foreign->buffer);
  clReleaseContext(foreign->context);
}

void ocft_refusals_start(ocft_refusals *run, const ocft_env *env, size_t count, uint64_t seed) {
  memset(run, 0, sizeof *run);
  run->env = env;
  run->count = count;
  run->before = ocft_alloc_floats(count);
  run->after = ocft_alloc_floats(count);
  float *input = ocft_alloc_floats(count);
  ocft_fill_uniform(input, count, -1.0f, 1.0f, seed);
  ocft_fill_uniform(run->before, count, -1.0f, 1.0f, seed + 1);
  run->in = ocft_buffer(env, count, input);
  run->out = ocft_buffer(env, count, run->before);
  free(input);
  cl_buffer_region region = {0, count / 2 * sizeof(float)};
  cl_int err = CL_SUCCESS;
  run->out_sub =
      clCreateSubBuffer(run->out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  assert_int_equal(err, CL_SUCCESS);
  ocft_foreign_create(env, count, &run->foreign);
}

cl_mem ocft_refusals_buffer(const ocft_refusals *run, ocft_buf which) {
  switch (which) {
  case OCFT_IN:
    return run->in;
  case OCFT_OUT:
    return run->out;
  case OCFT_OUT_SUB:
    return run->out_sub;
  case OCFT_FOREIGN:
    return run->foreign.buffer;
  case OCFT_NO_BUF:
    break;
  }
  return NULL;
}

const ocf_launch *ocft_refusals_launch(const ocft_refusals *run, ocft_launch_kind kind,
                                       ocf_launch *storage) {
  /* Never waited on: the call must be refused before it looks at the event. */
  static cl_event unused_event = NULL, unused_first = NULL;
  ocf_launch_init(storage);
  switch (kind) {
  case OCFT_LAUNCH_DEFAULT:
    return NULL;
  case OCFT_LAUNCH_BAD_VARIANT:
    storage->variant = 9;
    break;
  case OCFT_LAUNCH_COUNT_NO_LIST:
    storage->num_wait_events = 1;
    break;
  case OCFT_LAUNCH_LIST_NO_COUNT:
    storage->wait_events = &unused_event;
    break;
  case OCFT_LAUNCH_SIZE_ZERO:
    storage->size = 0;
    break;
  case OCFT_LAUNCH_SIZE_SMALL:
    storage->size = offsetof(ocf_launch, variant);
    break;
  case OCFT_LAUNCH_FOREIGN_QUEUE:
    storage->queue = run->foreign.queue;
    break;
  case OCFT_LAUNCH_FIRST_NO_EVENT:
    storage->first_event = &unused_first;
    break;
  case OCFT_LAUNCH_FOREIGN_EVENT:
  case OCFT_LAUNCH_NULL_EVENT: {
    /* The first event is the test's own and complete; the second is the bad one. */
    static cl_event mine = NULL, events[2];
    if (!mine) {
      cl_int err = CL_SUCCESS;
      mine = clCreateUserEvent(run->env->cl, &err);
      assert_int_equal(err, CL_SUCCESS);
      assert_int_equal(clSetUserEventStatus(mine, CL_COMPLETE), CL_SUCCESS);
    }
    events[0] = mine;
    events[1] = kind == OCFT_LAUNCH_FOREIGN_EVENT ? run->foreign.event : NULL;
    storage->num_wait_events = 2;
    storage->wait_events = events;
    break;
  }
  }
  return storage;
}

void ocft_refusals_record(ocft_refusals *run, const char *what, ocf_status status,
                          ocf_status expected) {
  run->rows++;
  int failed = 0;
  if (status != expected) {
    print_error("bad call \"%s\": status %s (%d), expected %s (%d)\n  last error: %s\n", what,
                ocf_status_name(status), (int)status, ocf_status_name(expected), (int)expected,
                ocf_last_error());
    failed = 1;
  }
  ocft_read(run->env, run->out, run->count, run->after);
  for (size_t i = 0; i < run->count; i++) {
    if (memcmp(&run->after[i], &run->before[i], sizeof(float)) != 0) {
      print_error("bad call \"%s\": output element %zu changed from %.9g to %.9g\n", what, i,
                  run->before[i], run->after[i]);
      ocft_write(run->env, run->out, run->count, run->before);
      failed = 1;
      break;
    }
  }
  run->failures += failed;
}

void ocft_refusals_finish(ocft_refusals *run) {
  ocft_foreign_release(&run->foreign);
  clReleaseMemObject(run->out_sub);
  clReleaseMemObject(run->in);
  clReleaseMemObject(run->out);
  free(run->before);
  free(run->after);
  if (run->failures)
    fail_msg("%d of %d bad calls were not refused as they must be (above)", run->failures,
             run->rows);
}
